// A modal dialog that holds the keyboard (P-CHALLENGE's composer, settings and block
// confirmation): focus goes in, Tab and Shift+Tab go round inside it, Escape closes it, and the
// focus goes back to where it was.

import { h } from './dom.js';

/** What the keyboard can reach inside a dialog. */
export const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The focusable elements of `box` that show (not under a `hidden` part). */
export function focusables(box) {
  return [...box.querySelectorAll(FOCUSABLE)].filter((el) => !el.closest('[hidden]'));
}

/** Tab and Shift+Tab stay inside `box`. */
export function trapTab(e, box) {
  if (e.key !== 'Tab') return;
  const items = focusables(box);
  if (!items.length) {
    e.preventDefault();
    return;
  }
  const first = items[0];
  const last = items[items.length - 1];
  if (e.shiftKey && (document.activeElement === first || !box.contains(document.activeElement))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (document.activeElement === last || !box.contains(document.activeElement))) {
    e.preventDefault();
    first.focus();
  }
}

/**
 * Open the modal dialog `id` titled `title` with `body`; returns the overlay, whose `close()`
 * takes it away (and `onClose` is told). `focus` names what gets the keyboard first.
 */
export function openDialog(id, title, body, { onClose = null, focus = null, className = '' } = {}) {
  document.getElementById(id)?.close?.({ refocus: false });
  document.getElementById(id)?.remove();
  const before = document.activeElement;
  const card = h('div', { class: `result-card card focus-dialog-card ${className}` },
    h('h2', { id: `${id}-title`, tabindex: '-1' }, title), body);
  const overlay = h('div', { class: 'result-overlay focus-dialog', id, role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': `${id}-title` }, card);
  // Escape with the keyboard nowhere (a button it was on went away) closes the dialog too.
  const stray = (e) => {
    if (e.key === 'Escape' && (document.activeElement === document.body || !document.activeElement)) {
      e.preventDefault();
      overlay.close();
    }
  };
  overlay.close = ({ refocus = true } = {}) => {
    if (!overlay.isConnected) return;
    document.removeEventListener('keydown', stray);
    overlay.remove();
    onClose?.();
    if (refocus && before?.isConnected && before !== document.body) before.focus();
  };
  overlay.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      overlay.close();
      return;
    }
    trapTab(e, overlay);
  });
  // A click beside the card closes it, as Escape does.
  overlay.addEventListener('click', (e) => { if (e.target === overlay) overlay.close(); });
  document.body.append(overlay);
  document.addEventListener('keydown', stray);
  const target = (focus && overlay.querySelector(focus)) || focusables(card)[0] || card.querySelector('h2');
  target?.focus();
  return overlay;
}
