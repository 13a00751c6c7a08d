// The die: six faces of pips, a tumbling roll animation, and a button to roll (F-ROLL).

import { h } from '../dom.js';
import { t } from '../i18n.js';

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]],
};

/** A clickable die showing the last roll. */
export class Die {
  constructor(onRoll) {
    this.face = h('div', { class: 'die-face' });
    this.el = h('button', { class: 'die', type: 'button', id: 'die', 'aria-label': t('roll'), onclick: () => onRoll() },
      this.face, h('span', { class: 'die-label', 'data-i18n': 'roll' }, t('roll')));
    this.value = null;
    this.show(null);
  }

  /** Show `value` (1..6) or a blank face. */
  show(value) {
    this.value = value;
    this.el.dataset.value = value ?? '';
    this.face.replaceChildren(...(PIPS[value] || []).map(([x, y]) => h('span', { class: 'pip', style: { left: `${x}%`, top: `${y}%` } })));
    this.face.classList.toggle('blank', !value);
    this.face.classList.toggle('red-pips', value === 1 || value === 4);
  }

  setEnabled(on) {
    this.el.setAttribute('aria-label', t('roll')); // in the language of the moment
    this.el.disabled = !on;
    this.el.classList.toggle('ready', on);
  }

  /** Start tumbling (before the server's answer arrives). */
  spin() {
    this.el.classList.add('rolling');
  }

  /** Tumble through random faces for `ms`, then land on `value`. */
  async roll(value, ms) {
    if (ms > 0) {
      this.el.classList.add('rolling');
      const end = performance.now() + ms;
      while (performance.now() < end) {
        this.show(1 + Math.floor(Math.random() * 6));
        await new Promise((r) => { setTimeout(r, 70); });
      }
    }
    this.el.classList.remove('rolling');
    this.show(value);
    this.el.classList.add('landed');
    setTimeout(() => this.el.classList.remove('landed'), 400);
  }
}
