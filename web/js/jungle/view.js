// The running Jungle game: board, whose turn, timeouts, draw offers and resignation, moves by
// click, by arrow keys or typed in notation (jungle.md §5).

import { h, secondsLeft } from '../dom.js';
import { v, keep } from '../vdom.js';
import { t } from '../i18n.js';
import { TurnClock, seatName, seatLabel } from '../turn.js';
import { JungleBoard } from './board.js';
import { parseFen } from './position.js';
import { MoveList } from './record.js';
import { sound } from '../sound.js';

/** How long a move's slide takes at normal speed (`?anim=N` divides it). */
const SLIDE_MS = 260;

/** The jungle game view inside a room. */
export class JungleView {
  /** `host`: what the view may know of its room and do there (room.js `gameHost`). */
  constructor(host) {
    this.kind = 'jungle';
    this.host = host;
    this.board = new JungleBoard();
    this.clock = new TurnClock();
    this.status = this.clock.status;
    this.moveInput = h('input', { name: 'move', id: 'move-input', placeholder: t('move_input'), 'data-i18n-placeholder': 'move_input', maxlength: 4, autocomplete: 'off', spellcheck: 'false' });
    this.el = h('div', { class: 'jungle-view' }, h('div', { class: 'board-wrap jungle-wrap' }, this.board.svg));
    // Says each move aloud to a screen reader (the board itself changes silently).
    this.announcer = h('p', { class: 'sr-only', id: 'jungle-announce', role: 'status', 'aria-live': 'polite' });
    this.dock = h('div', { class: 'dock card' },
        h('div', { class: 'dock-info' }, this.status, this.clock.timer, this.announcer,
          h('form', {
            class: 'move-form',
            onsubmit: (e) => {
              e.preventDefault();
              const mv = this.moveInput.value.trim().toLowerCase();
              if (mv) this.play(mv);
              this.moveInput.value = '';
            },
          }, this.moveInput, h('button', { class: 'btn btn-small', type: 'submit' }, '↵')),
          // data-i18n: a language switch mid-game rewrites them in place (i18n.js `translate`).
          h('div', { class: 'dock-row' }, h('p', { class: 'hint kbd-hint', 'data-i18n': 'jungle_hint' }, t('jungle_hint')))));
    this.moves = new MoveList();
    this.keyHandler = (e) => {
      if (e.target.closest('input, textarea, select')) return;
      // Enter and Space on a focused control press that control (resign, draw, sound), not
      // the square under the board's cursor.
      if ((e.key === 'Enter' || e.key === ' ') && e.target.closest('button, a[href], summary, label')) return;
      if (this.canMove() && this.board.key(e.key)) e.preventDefault();
    };
    document.addEventListener('keydown', this.keyHandler);
  }

  destroy() {
    document.removeEventListener('keydown', this.keyHandler);
  }

  /** The move list's entries, for a reload to show them again (room.js `keep`). */
  get events() {
    return this.moves.plies;
  }

  /** The move list of this game again, from the entries kept over a reload. */
  restore(plies) {
    this.moves.reset();
    for (const p of plies) this.moves.add(p.ply, p.move, p.taken, p.piece);
  }

  /** A new game in the same room: its list starts empty. */
  newGame() {
    this.moves.reset();
  }

  get state() {
    return this.host.state();
  }

  canMove() {
    const me = this.host.mySeat();
    return me !== null && this.state.status === 'playing' && this.state.game?.to_move === me && !this.state.seats[me].out;
  }

  update(state, mySeat) {
    const g = state.game;
    if (!g) return;
    this.board.setFlipped(mySeat === 1);
    this.board.wolfOverDog = state.options?.order === 'wolf-over-dog';
    this.board.render(g.fen, g.last, this.slideNext || 0);
    this.slideNext = 0;
    // A game with fewer plies than the list is the room's next game: its list starts empty.
    if ((g.plies ?? 0) < (this.moves.plies.at(-1)?.ply ?? 0)) this.moves.reset();
    this.moves.render(g.fen);
    this.board.svg.dataset.plies = g.plies ?? 0;
    this.board.svg.dataset.fen = g.fen;
    // Pieces are offered only on a current picture (room.js `current`).
    this.board.setMoves(g.moves, this.canMove() && this.host.current(), (mv) => this.play(mv));
    this.el.classList.toggle('my-turn', this.canMove());
    this.dock.classList.toggle('my-turn', this.canMove());
    const side = g.to_move === 0 ? 'red' : 'yellow';
    let text;
    if (state.ended || state.status === 'finished') text = t('game_over');
    else if (this.canMove()) text = t('your_turn');
    else text = t('turn_of', { name: this.seatName(g.to_move) });
    this.clock.say(side, text);
  }

  seatName(seat) {
    return seatName(this.state, this.host.me(), seat);
  }

  tick() {
    this.clock.tick(this.state);
  }

  sidePanel() {
    const st = this.state;
    const g = st.game;
    const me = this.host.mySeat();
    const counts = [0, 0];
    if (g?.fen) for (const p of parseFen(g.fen).board.values()) counts[p.side === 'red' ? 0 : 1] += 1;
    const rows = st.seats.map((seat, i) => v('li', { class: `player-row ${g?.to_move === i && st.status === 'playing' ? 'to-move' : ''}`, 'data-seat': i },
      v('span', { class: `dot c-${i === 0 ? 'red' : 'yellow'}` }),
      v('span', { class: 'player-name' }, seatLabel(st, i), i === me ? v('small', {}, ` (${t('you')})`) : null),
      v('span', { class: 'player-stats' }, `🐾 ${counts[i]}`, st.timeouts?.[i] ? ` ⏱${st.timeouts[i]}` : ''),
      seat.away_until ? v('span', { class: 'chip chip-away', 'data-until': seat.away_until }, t('away', { s: secondsLeft(seat.away_until) })) : null,
      seat.out ? v('span', { class: 'chip chip-out' }, t(`out_${seat.out}`)) : null));
    const controls = [];
    if (me !== null && st.status === 'playing' && !st.seats[me].out) {
      const offer = st.draw_offer;
      if (offer !== null && offer !== undefined && offer !== me) {
        controls.push(v('div', { class: 'draw-offer', id: 'draw-offer' },
          t('draw_offered', { name: this.seatName(offer) }),
          v('button', { class: 'btn btn-small btn-primary', type: 'button', onclick: () => this.host.cmd('answer_draw', { accept: true }) }, t('accept')),
          v('button', { class: 'btn btn-small', type: 'button', onclick: () => this.host.cmd('answer_draw', { accept: false }) }, t('decline'))));
      } else {
        controls.push(v('button', {
          class: 'btn btn-small', type: 'button', id: 'offer-draw', disabled: offer === me,
          onclick: () => this.host.cmd('offer_draw'),
        }, '🤝 ', t('offer_draw')));
      }
      controls.push(v('button', {
        class: 'btn btn-small btn-danger', type: 'button', id: 'resign-btn',
        onclick: () => { if (window.confirm(t('resign_confirm'))) this.host.cmd('resign'); },
      }, '🏳 ', t('resign')));
    }
    return v('section', { class: 'card players-card' },
      v('div', { class: 'players-head' }, v('h2', {}, t('player')), g ? v('span', { class: 'chip' }, `${t('last_move')}: ${g.last || '—'}`) : null),
      v('ul', { class: 'players' }, rows),
      controls.length ? v('div', { class: 'row controls' }, controls) : null,
      keep(this.moves.el));
  }

  async onEvent(ev, before, state, { hurry = false } = {}) {
    const me = this.host.mySeat();
    if (ev.kind === 'jungle_moved') {
      const move = ev.move ?? state.game?.last;
      this.announce(before?.fen, move, ev.seat);
      const board = before?.fen && move ? parseFen(before.fen).board : null;
      const taken = board?.get(move.slice(2, 4)) ?? null;
      this.moves.add(state.game?.plies ?? (this.moves.plies.length + 1), move, taken?.kind ?? null, board?.get(move.slice(0, 2))?.kind ?? null);
      if (!hurry) {
        this.slideNext = SLIDE_MS / this.host.speed();
        sound.play(state.game?.outcome ? 'over' : taken ? 'capture' : 'move');
      }
    } else if (ev.kind === 'passed') {
      // A timed-out move is a ply too (the engine counts it): the list keeps the numbering.
      this.moves.add(state.game?.plies ?? (this.moves.plies.length + 1), '⏱', null);
    } else if (ev.kind === 'turn' && !hurry && me !== null && ev.seat === me) {
      sound.play('turn');
    }
    this.update(state, me);
  }

  /** Put "Lin: Lion a1 → a2, takes the Cat" in the live region. */
  announce(fen, move, seat) {
    if (!fen || !move || !/^[a-g][1-9][a-g][1-9]$/.test(move)) return;
    const { board } = parseFen(fen);
    const mover = board.get(move.slice(0, 2));
    const taken = board.get(move.slice(2, 4));
    if (!mover) return;
    const animals = t('animals');
    let text = t('jungle_move_said', { name: this.seatName(seat ?? 0), piece: animals[mover.kind], from: move.slice(0, 2), to: move.slice(2, 4) });
    if (taken) text += t('jungle_capture_said', { piece: animals[taken.kind] });
    this.announcer.textContent = text;
  }

  async play(move) {
    if (!this.canMove() || !this.host.current()) return;
    await this.host.cmd('move', { move });
  }
}
