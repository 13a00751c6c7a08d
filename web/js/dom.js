// Tiny DOM helpers: build elements declaratively without a framework or a build step.

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(el, attrs, isSvg) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.setAttribute('class', value);
    else if (key === 'style' && typeof value === 'object') Object.assign(el.style, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (!isSvg && (key === 'value' || key === 'checked' || key === 'disabled' || key === 'selected')) el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: h('button', {class: 'btn', onclick}, 'text', child…). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  apply(el, attrs, false);
  append(el, children);
  return el;
}

/** An SVG element, same calling convention as `h`. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs, true);
  append(el, children);
  return el;
}

/** Replace every child of `el` with `children`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A promise resolved after `ms` milliseconds. */
export function sleep(ms) {
  return new Promise((resolve) => { setTimeout(resolve, ms); });
}

/** Show a short message in the corner (errors, confirmations). */
export function toast(text, kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts', 'aria-live': 'polite' });
    document.body.append(box);
  }
  // The same words again replace the old toast, and no more than two show at once: a burst of
  // refusals is one message, not a stack over the board.
  for (const old of box.children) if (old.textContent === String(text)) old.remove();
  while (box.childElementCount >= 2) box.firstElementChild.remove();
  const item = h('div', { class: `toast toast-${kind}` }, text);
  box.append(item);
  setTimeout(() => item.classList.add('toast-out'), 3200);
  setTimeout(() => item.remove(), 3800);
}

/** Seconds left until the Unix-millisecond `deadline` (never negative). */
export function secondsLeft(deadline, now = Date.now()) {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
