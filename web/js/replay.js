// Replays of finished games (P-RECORD): step through the record's actions (next, previous,
// play, jump to a step) on the board, and check the fair-dice commitment (P-FAIR-DICE).

import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { FlightBoard } from './flight/board.js';
import { JungleBoard } from './jungle/board.js';
import { START_FEN, parseFen, applyMove, toFen } from './jungle/position.js';
import { replayFlight, checkRolls } from './flight/engine.js';
import { FairDicePanel } from './fairdice.js';

/** Frames of a jungle record: one per action, each {fen, last, label}. */
export function jungleFrames(record) {
  let position = parseFen(record.start_fen || START_FEN);
  const frames = [{ fen: toFen(position), last: null, label: '—' }];
  for (const a of record.actions) {
    const action = a.action || {};
    if (action.kind === 'move' && action.move) {
      const { position: next, captured } = applyMove(position, action.move);
      position = next;
      frames.push({ fen: toFen(position), last: action.move, label: `${a.seat === 0 ? '🔴' : '🟡'} ${action.move}${captured ? ' ×' : ''}` });
    } else {
      if (action.kind === 'timeout') position = { ...position, toMove: position.toMove === 'red' ? 'yellow' : 'red' };
      frames.push({ fen: toFen(position), last: frames[frames.length - 1].last, label: `${a.seat === 0 ? '🔴' : '🟡'} ${action.kind}` });
    }
  }
  return frames;
}

/** The replay page of game `id`. */
export class ReplayView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.index = 0;
    this.timer = null;
    this.el = h('div', { class: 'replay' }, h('p', { class: 'loading' }, t('loading')));
    this.keyHandler = (e) => {
      if (e.target.closest('input, select, textarea')) return;
      if (e.key === 'ArrowRight') this.go(this.index + 1);
      else if (e.key === 'ArrowLeft') this.go(this.index - 1);
      else if (e.key === ' ') { e.preventDefault(); this.togglePlay(); }
    };
    document.addEventListener('keydown', this.keyHandler);
  }

  async start() {
    try {
      const res = await fetch(`/api/games/${this.id}`);
      if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
      this.record = await res.json();
    } catch (err) {
      mount(this.el, h('p', { class: 'card' }, `${t('error')}: ${err.message}`));
      return;
    }
    this.build();
  }

  destroy() {
    clearInterval(this.timer);
    document.removeEventListener('keydown', this.keyHandler);
  }

  relabel() {
    if (this.record) this.build();
  }

  build() {
    const r = this.record;
    this.unsupported = false;
    if (r.game === 'jungle') {
      this.frames = jungleFrames(r);
      this.board = new JungleBoard();
    } else {
      this.board = new FlightBoard();
      this.board.speed = 4;
      try {
        this.frames = replayFlight(r);
      } catch (err) {
        console.warn(err);
        this.unsupported = true;
        this.frames = [{ game: null, label: '—' }, ...r.actions.map((a) => ({ game: null, label: `#${a.seat} ${a.action.kind}${a.roll ? ` 🎲${a.roll}` : ''}${a.action.plane !== undefined ? ` ✈${a.action.plane + 1}` : ''}` }))];
      }
    }
    this.slider = h('input', { type: 'range', min: 0, max: this.frames.length - 1, value: this.index, id: 'replay-slider', 'aria-label': t('jump_to'), oninput: (e) => this.go(Number(e.target.value)) });
    this.stepLabel = h('span', { class: 'replay-step', id: 'replay-step' });
    this.playBtn = h('button', { class: 'btn', type: 'button', id: 'replay-play', onclick: () => this.togglePlay() }, '▶ ', t('play'));
    this.log = h('ol', { class: 'replay-log', id: 'replay-log', start: 0 }, this.frames.map((f, i) => h('li', { 'data-step': i, onclick: () => this.go(i) }, f.label)));
    const fair = new FairDicePanel();
    const players = (r.result?.players || []).slice().sort((a, b) => a.rank - b.rank);
    mount(this.el,
      h('div', { class: 'room-header' },
        h('a', { class: 'btn btn-ghost btn-small', href: '#/' }, '← ', t('back_to_hall')),
        h('h1', {}, '🎬 ', t('replay_title', { id: r.game_id })),
        h('span', { class: 'chip' }, t(r.game)),
        r.options?.preset ? h('span', { class: 'chip' }, t(`preset_${r.options.preset}`)) : null),
      h('div', { class: 'room-body' },
        h('div', { class: 'replay-main' },
          this.unsupported ? h('p', { class: 'card hint' }, t('unsupported_replay')) : h('div', { class: 'board-wrap' }, r.game === 'jungle' ? this.board.svg : this.board.svg),
          h('div', { class: 'card replay-bar' },
            h('button', { class: 'btn', type: 'button', id: 'replay-first', onclick: () => this.go(0) }, '⏮'),
            h('button', { class: 'btn', type: 'button', id: 'replay-prev', onclick: () => this.go(this.index - 1) }, '◀ ', t('prev')),
            this.playBtn,
            h('button', { class: 'btn', type: 'button', id: 'replay-next', onclick: () => this.go(this.index + 1) }, t('next'), ' ▶'),
            h('button', { class: 'btn', type: 'button', id: 'replay-last', onclick: () => this.go(this.frames.length - 1) }, '⏭'),
            this.slider, this.stepLabel)),
        h('div', { class: 'room-side-col' },
          h('section', { class: 'card' }, h('h2', {}, t('game_over'), ' · ', t(`reason_${r.result?.reason}`)),
            h('ul', { class: 'players' }, players.map((p) => h('li', { class: 'player-row' },
              h('span', {}, p.rank === 1 ? '🥇' : p.rank === 2 ? '🥈' : p.rank === 3 ? '🥉' : p.rank),
              h('span', { class: 'player-name' }, p.name),
              h('span', { class: `delta ${p.delta >= 0 ? 'up' : 'down'}` }, p.delta >= 0 ? `+${p.delta}` : p.delta))))),
          r.game === 'flight' ? fair.render(r.commitment, r.seed, checkRolls(r)) : null,
          h('section', { class: 'card' }, this.log))));
    this.go(this.index);
  }

  go(i) {
    const n = this.frames.length;
    this.index = Math.max(0, Math.min(n - 1, i));
    const f = this.frames[this.index];
    if (this.record.game === 'jungle') {
      this.board.render(f.fen, f.last);
    } else if (f.game) {
      this.board.render(f.game);
      if (f.game.die) this.board.svg.dataset.die = f.game.die;
    }
    this.slider.value = this.index;
    this.stepLabel.textContent = t('step_of', { i: this.index, n: n - 1 });
    for (const li of this.log.querySelectorAll('.current')) li.classList.remove('current');
    const li = this.log.querySelector(`[data-step="${this.index}"]`);
    li?.classList.add('current');
    li?.scrollIntoView({ block: 'nearest' });
    if (this.index === n - 1 && this.timer) this.togglePlay();
  }

  togglePlay() {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      mount(this.playBtn, '▶ ', t('play'));
      return;
    }
    if (this.index >= this.frames.length - 1) this.go(0);
    this.timer = setInterval(() => this.go(this.index + 1), 450);
    mount(this.playBtn, '⏸ ', t('pause'));
  }
}
