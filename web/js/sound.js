// Short sound effects synthesised with WebAudio (no files to load): the roll, a move, a
// capture, a finished plane, "your turn" and the end of a game, and the switch that mutes them,
// remembered per browser.

import { h } from './dom.js';
import { t } from './i18n.js';

const STORAGE_KEY = 'hangar.sound';

/** A tone: `freq` Hz gliding to `to` Hz, starting `at` s from now for `dur` s. */
function tone(ctx, { freq, to = freq, at = 0, dur = 0.12, type = 'sine', gain = 0.18 }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  osc.frequency.exponentialRampToValueAtTime(to, start + dur);
  // A quick attack and an exponential fade: no click at either end.
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + dur);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + dur + 0.02);
}

/** Each effect as a few tones. */
const EFFECTS = {
  // The die rattling: four short knocks at uneven pitches.
  roll: (ctx) => [0, 0.06, 0.13, 0.21].forEach((at, i) => tone(ctx, { freq: 180 + 70 * ((i * 3) % 4), to: 120, at, dur: 0.05, type: 'square', gain: 0.08 })),
  move: (ctx) => tone(ctx, { freq: 520, to: 700, dur: 0.09 }),
  capture: (ctx) => tone(ctx, { freq: 320, to: 70, dur: 0.28, type: 'sawtooth', gain: 0.14 }),
  finish: (ctx) => [523, 659, 784].forEach((freq, i) => tone(ctx, { freq, at: i * 0.09, dur: 0.14 })),
  turn: (ctx) => [660, 880].forEach((freq, i) => tone(ctx, { freq, at: i * 0.13, dur: 0.16, type: 'triangle', gain: 0.2 })),
  over: (ctx) => [523, 659, 784, 1047].forEach((freq, i) => tone(ctx, { freq, at: i * 0.12, dur: i === 3 ? 0.5 : 0.16, type: 'triangle', gain: 0.2 })),
};

/**
 * On when the player switched it on; off when they switched it off. With no choice made it is
 * on, except in a browser driven by automation (`navigator.webdriver`: the browser tests),
 * which starts muted.
 */
function initiallyOn() {
  const saved = globalThis.localStorage?.getItem(STORAGE_KEY);
  if (saved === 'on' || saved === 'off') return saved === 'on';
  return !globalThis.navigator?.webdriver;
}

/** The page's sound: `play(name)`, `setEnabled(on)`, and `played`, the effects started. */
class Sound {
  constructor() {
    this.enabled = initiallyOn();
    /** The effects started while on, last 100, oldest first (what the tests count). */
    this.played = [];
    this.ctx = null;
    /** Each switch on the page and how to redraw it. */
    this.listeners = new Map();
  }

  /** The audio context, made on first use (browsers allow sound once the page was clicked). */
  context() {
    if (!this.ctx) {
      const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
      if (!Ctx) return null;
      this.ctx = new Ctx();
    }
    if (this.ctx.state === 'suspended') this.ctx.resume().catch(() => {});
    return this.ctx;
  }

  /** Start effect `name` (one of `EFFECTS`) unless muted; whether it was started. */
  play(name) {
    if (!this.enabled || !EFFECTS[name]) return false;
    this.played.push(name);
    if (this.played.length > 100) this.played.shift();
    try {
      const ctx = this.context();
      if (ctx) EFFECTS[name](ctx);
    } catch (err) {
      // A page without working audio plays on in silence.
      console.warn('sound', err);
    }
    return true;
  }

  /** Switch sound on or off, remember it in this browser, and redraw every switch. */
  setEnabled(on) {
    this.enabled = !!on;
    globalThis.localStorage?.setItem(STORAGE_KEY, this.enabled ? 'on' : 'off');
    for (const [btn, draw] of this.listeners) {
      // The switches of views that are gone are forgotten.
      if (btn.isConnected) draw();
      else this.listeners.delete(btn);
    }
  }

  /** A button that mutes and unmutes, kept in step with every other one on the page. */
  toggle() {
    const icon = h('span', { 'aria-hidden': 'true' });
    const btn = h('button', {
      class: 'btn btn-small btn-ghost sound-toggle', type: 'button', onclick: () => this.setEnabled(!this.enabled),
    }, icon, ' ', h('span', { 'data-i18n': 'sound' }, t('sound')));
    const draw = () => {
      icon.textContent = this.enabled ? '🔊' : '🔇';
      btn.setAttribute('aria-pressed', String(this.enabled));
    };
    draw();
    this.listeners.set(btn, draw);
    return btn;
  }
}

/** The one sound of the page. */
export const sound = new Sound();
