// Replays of finished games (P-RECORD): step through the frames the hall's rule engines
// computed (GET /api/games/{id}/replay: next, previous, play, jump to a step) on the board, and
// the fair-dice panel checks the commitment and the recorded rolls (P-FAIR-DICE).

import { h } from './dom.js';
import { patch, v, keep } from './vdom.js';
import { t } from './i18n.js';
import { FlightBoard } from './flight/board.js';
import { JungleBoard } from './jungle/board.js';
import { FairDicePanel, rollCheck } from './fairdice.js';
import { normalizeGame } from './gameview.js';
import { apiFetch } from './net.js';
import { effectLines, rollLine } from './flight/log.js';
import { resultName } from './games.js';
import { ReviewPanel } from './review.js';

const ICONS = { red: '🔴', yellow: '🟡', blue: '🔵', green: '🟢' };

/** The words of the recorded actions other than rolls and moves (their dictionary keys). */
const ACTION_WORDS = {
  autoplay: 'autoplay', timeout: 'act_timeout', resign: 'out_resigned', escape: 'out_escaped', disconnect: 'out_disconnected',
  abandon: 'act_abandon', use_item: 'use_item', draw_offer: 'offer_draw', draw_answer: 'act_draw_answer',
};

/** Play speeds offered, and the time a step is shown at 1×. */
const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 450;
const SPEED_KEY = 'hangar.replay_speed';

function savedSpeed() {
  const saved = Number(globalThis.localStorage?.getItem(SPEED_KEY));
  return SPEEDS.includes(saved) ? saved : 1;
}

/**
 * Labels for the server's replay frames (GET /api/games/{id}/replay): the rules stay in the
 * Rust engines, which computed every frame's view; this only names the actions and who took
 * them (`names[seat]`).
 */
export function frameLabels(game, frames, names = []) {
  const colours = frames[0]?.view?.colours || [];
  const icon = (seat) => (game === 'jungle' ? (seat === 0 ? '🔴' : '🟡') : ICONS[colours[seat]] || `#${seat}`);
  return frames.map((f) => {
    const a = f.action;
    if (!a) return '—';
    const kind = a.action?.kind;
    const who = `${icon(a.seat)}${names[a.seat] ? ` ${names[a.seat]}` : ''}`;
    if (kind === 'roll') return `${who} 🎲 ${a.roll ?? '?'}`;
    if (kind === 'move' && a.action.move) return `${who} ${a.action.move}`;
    if (kind === 'move') return `${who} ✈${a.action.plane + 1}`;
    return `${who} ${ACTION_WORDS[kind] ? t(ACTION_WORDS[kind]) : kind}`;
  });
}

/**
 * What happened in each flight frame, in the game log's words (flight/log.js): the roll, then
 * every effect of the move, naming the players by `names[seat]`.
 */
export function frameDetails(frames, names = []) {
  const colours = frames[0]?.view?.colours || [];
  const nameOf = (colour) => names[colours.indexOf(colour)] ?? t(colour);
  const logNames = { who: nameOf, whose: (colour) => t('owner_of', { name: nameOf(colour) }) };
  return frames.map((f) => (f.events || []).flatMap((ev) => {
    if (ev.kind === 'rolled') return [rollLine(ev, names[ev.seat] ?? '?')];
    if (ev.kind === 'moved') return effectLines(ev.effects, logNames);
    return [];
  }));
}

/** The replay page of game `id`. */
export class ReplayView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.index = 0;
    this.timer = null;
    this.speed = savedSpeed();
    this.error = null;
    this.el = h('div', { class: 'replay' });
    // The drawing `redraw` patches (vdom.js): stepping, playing or a new speed redraws it, and
    // the control under the player's press or focus stays the same element.
    this.vnode = this.el.appendChild(h('div'));
    this.redraw();
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
      const [res, framesRes] = await Promise.all([apiFetch(`/api/games/${this.id}`), apiFetch(`/api/games/${this.id}/replay`)]);
      // The page's own words for what went wrong (a game that does not exist, a server that
      // does not answer), never the server's text.
      if (res.status === 404 || framesRes.status === 404) throw new Error(t('replay_missing'));
      if (!res.ok || !framesRes.ok) throw new Error(t('replay_failed'));
      this.record = await res.json();
      this.replay = await framesRes.json();
    } catch (err) {
      this.error = err instanceof TypeError ? t('replay_failed') : err.message;
      this.redraw();
      return;
    }
    this.build();
  }

  destroy() {
    clearInterval(this.timer);
    this.review?.destroy();
    document.removeEventListener('keydown', this.keyHandler);
  }

  relabel() {
    if (this.record) this.build();
    this.review?.relabel();
  }

  /** Name the frames in the page's language, and make the board and the fair-dice panel. */
  build() {
    const r = this.record;
    // Who sat where: names by seat from the result (the colours come with each frame's view).
    this.names = [];
    for (const p of r.result?.players || []) this.names[p.seat] = resultName(p);
    const labels = frameLabels(r.game, this.replay.frames, this.names);
    const details = r.game === 'flight' ? frameDetails(this.replay.frames, this.names) : [];
    this.frames = this.replay.frames.map((f, i) => ({ view: f.view, label: labels[i], details: details[i] || [] }));
    if (r.game === 'jungle') {
      this.board = new JungleBoard();
    } else {
      this.board = new FlightBoard();
      this.board.speed = 4 * this.speed;
    }
    // The board and the fair-dice panel change themselves in place: kept as elements (vdom.js `keep`).
    // The review (P-REVIEW) outlives a new language: it is asked for once.
    this.review ??= new ReviewPanel(this);
    this.fair = r.game === 'flight' ? new FairDicePanel().render(r.commitment, r.seed, rollCheck(r, this.replay.frames), { gameId: r.game_id }) : null;
    this.go(this.index);
  }

  /** Patch the page to the replay's state. */
  redraw() {
    this.vnode = patch(this.vnode, this.view());
  }

  /** The replay as virtual nodes: loading, the error, or the board, its controls and the steps. */
  view() {
    if (this.error) {
      return v('div.replay-page', {}, v('div', { class: 'card replay-error', id: 'replay-error' },
        v('p', {}, this.error), v('a', { class: 'btn', href: '#/' }, '← ', t('back_to_hall'))));
    }
    if (!this.frames) return v('div.replay-page', {}, v('p', { class: 'loading' }, t('loading')));
    const r = this.record;
    const n = this.frames.length;
    const players = (r.result?.players || []).slice().sort((a, b) => a.rank - b.rank);
    return v('div.replay-page', {},
      v('div', { class: 'room-header' },
        v('a', { class: 'btn btn-ghost btn-small', href: '#/' }, '← ', t('back_to_hall')),
        v('h1', {}, '🎬 ', t('replay_title', { id: r.game_id })),
        v('span', { class: 'chip' }, t(r.game)),
        r.options?.preset ? v('span', { class: 'chip' }, t(`preset_${r.options.preset}`)) : null),
      v('div', { class: 'room-body' },
        v('div', { class: 'replay-main' },
          this.playersView(this.frames[this.index].view),
          v('div', { class: 'board-wrap' }, keep(this.board.svg)),
          v('div', { class: 'card replay-bar', id: 'replay-bar', 'data-step-ms': this.stepMs() },
            v('button', { class: 'btn', type: 'button', id: 'replay-first', onclick: () => this.go(0) }, '⏮'),
            v('button', { class: 'btn', type: 'button', id: 'replay-prev', onclick: () => this.go(this.index - 1) }, '◀ ', t('prev')),
            v('button', { class: 'btn', type: 'button', id: 'replay-play', onclick: () => this.togglePlay() },
              this.timer ? ['⏸ ', t('pause')] : ['▶ ', t('play')]),
            v('button', { class: 'btn', type: 'button', id: 'replay-next', onclick: () => this.go(this.index + 1) }, t('next'), ' ▶'),
            v('button', { class: 'btn', type: 'button', id: 'replay-last', onclick: () => this.go(n - 1) }, '⏭'),
            v('label', { class: 'replay-speed' }, t('replay_speed'), ' ',
              v('select', { id: 'replay-speed', 'aria-label': t('replay_speed'), value: String(this.speed), onchange: (e) => this.setSpeed(Number(e.target.value)) },
                SPEEDS.map((x) => v('option', { value: String(x), selected: x === this.speed }, `${x}×`)))),
            v('input', {
              type: 'range', min: 0, max: n - 1, value: String(this.index), id: 'replay-slider', 'aria-label': t('jump_to'),
              oninput: (e) => this.go(Number(e.target.value)),
            }),
            v('span', { class: 'replay-step', id: 'replay-step' }, t('step_of', { i: this.index, n: n - 1 }))),
          keep(this.review.el)),
        v('div', { class: 'room-side-col' },
          v('section', { class: 'card' }, v('h2', {}, t('game_over'), ' · ', t(`reason_${r.result?.reason}`)),
            v('ul', { class: 'players' }, players.map((p) => v('li', { class: 'player-row' },
              v('span', {}, p.rank === 1 ? '🥇' : p.rank === 2 ? '🥈' : p.rank === 3 ? '🥉' : p.rank),
              v('span', { class: 'player-name' }, resultName(p)),
              v('span', { class: `delta ${p.delta >= 0 ? 'up' : 'down'}` }, p.delta >= 0 ? `+${p.delta}` : p.delta))))),
          this.fair ? keep(this.fair) : null,
          // It scrolls, so it takes the keyboard focus too.
          v('section', { class: 'card' }, v('ol', { class: 'replay-log', id: 'replay-log', start: 0, tabindex: 0, 'aria-label': t('replay_steps') },
            this.frames.map((f, i) => v('li', { 'data-step': i, class: i === this.index ? 'current' : '', onclick: () => this.go(i) },
              f.label, f.details.length ? v('small', { class: 'replay-detail' }, f.details.join(' · ')) : null)))))));
  }

  /** How long a step is shown while playing. */
  stepMs() {
    return Math.round(STEP_MS / this.speed);
  }

  /** Play at `speed` (remembered in this browser); a running play goes on at the new pace. */
  setSpeed(speed) {
    if (!SPEEDS.includes(speed)) return;
    this.speed = speed;
    globalThis.localStorage?.setItem(SPEED_KEY, String(speed));
    if (this.record.game !== 'jungle') this.board.speed = 4 * speed;
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = setInterval(() => this.go(this.index + 1), this.stepMs());
    }
    this.redraw();
  }

  /** The players by seat in their colours, the one to move marked. */
  playersView(view) {
    const jungle = this.record.game === 'jungle';
    const colourOf = (seat) => (jungle ? (seat === 0 ? 'red' : 'yellow') : view.colours?.[seat]);
    const seats = this.names.map((name, seat) => ({ name, seat, colour: colourOf(seat) })).filter((p) => p.name !== undefined);
    return v('div', { class: 'replay-players', id: 'replay-players' }, seats.map((p) => v('span', {
      class: `replay-player ${view.to_move === p.seat ? 'to-move' : ''}`, 'data-seat': p.seat,
    }, v('span', { class: `dot c-${p.colour}` }), p.name)));
  }

  /** Show step `i` (clamped): the board, the players' names on a flight board, the controls. */
  go(i) {
    const n = this.frames.length;
    this.index = Math.max(0, Math.min(n - 1, i));
    const f = this.frames[this.index];
    if (this.record.game === 'jungle') {
      this.board.render(f.view.fen, f.view.last);
    } else {
      const view = normalizeGame(structuredClone(f.view));
      this.board.render(view);
      if (view.die) this.board.svg.dataset.die = view.die;
      this.board.setLabels(this.names.map((name, seat) => (name === undefined ? null : { name, auto: false, toMove: f.view.to_move === seat })));
    }
    this.review?.show(this.index);
    if (this.index === n - 1 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    this.redraw();
    this.el.querySelector('#replay-log .current')?.scrollIntoView({ block: 'nearest' });
  }

  togglePlay() {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.redraw();
      return;
    }
    if (this.index >= this.frames.length - 1) this.go(0);
    this.timer = setInterval(() => this.go(this.index + 1), this.stepMs());
    this.redraw();
  }
}
