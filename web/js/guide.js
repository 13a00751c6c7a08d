// A guided first game: the hall opens a practice room (Aeroplane Chess or Jungle) against one
// easy bot, and the room shows a hint tied to the game's state next to the board — press
// Ready, roll, a 6 takes a plane off, landing on your colour jumps; pick an animal and a dot,
// take a smaller piece, leap the river. Hidden or finished, it is remembered as done in this
// browser, and the hall stops offering it.

import { v } from './vdom.js';
import { t } from './i18n.js';
import { parseFen, parseSquare } from './jungle/position.js';

const DONE_KEY = 'hangar.guided';
const ROOM_KEY = 'hangar.guidedRoom';

/** Whether this browser has finished or hidden the guided first game. */
export function guidedDone() {
  try {
    return localStorage.getItem(DONE_KEY) === 'done';
  } catch {
    return false;
  }
}

/** Remember that the guided first game is done (finished or hidden). */
export function markGuidedDone() {
  try {
    localStorage.setItem(DONE_KEY, 'done');
  } catch {
    // Storage refused (private mode): the offer comes back next time, nothing breaks.
  }
}

/** The code of the room the guided game plays in (null when none was opened here). */
export function guidedRoom() {
  try {
    return localStorage.getItem(ROOM_KEY);
  } catch {
    return null;
  }
}

/** Remember `code` as the guided game's room, so that a reload keeps its hints. */
export function setGuidedRoom(code) {
  try {
    localStorage.setItem(ROOM_KEY, code);
  } catch {
    // Storage refused: the hints last as long as the page.
  }
}

/**
 * The practice room of each game (create_room options) and its bot: two seats, a long turn
 * clock, two planes each in flight taking off on 5 or 6 (F-TAKEOFF's improved variant: a
 * newcomer does not wait a dozen rolls for a 6); the easy level of each game's bots (protocol §7).
 */
export const GUIDED = {
  flight: { options: { seats: 2, planes: 2, turn_seconds: 120, takeoff: 'five-or-six' }, bot: 'random' },
  jungle: { options: { turn_seconds: 120 }, bot: 'easy' },
};

/** The steps that are the player's own turn: the only ones said aloud to a screen reader. */
const OWN_TURN = new Set(['roll_first', 'roll', 'takeoff', 'move', 'j_first', 'j_move', 'j_capture', 'j_leap']);

/** The step of the guide for the room `state` and this player's `seat`. */
export function guideStep(state, seat) {
  const g = state.game;
  if (state.result || state.ended) return 'done';
  if (seat === null) return 'start';
  if (state.status !== 'playing' || !g) return state.seats[seat]?.ready ? 'start' : 'ready';
  if (g.to_move !== seat) return 'bot_turn';
  if (state.game_kind === 'jungle') return jungleStep(g, seat);
  const planes = g.planes?.[seat] || [];
  if (g.need === 'move') {
    // A move of a plane still in the hangar is a take-off.
    return (g.moves || []).some((m) => planes[m.plane] === null) ? 'takeoff' : 'move';
  }
  return planes.every((p) => p === null) ? 'roll_first' : 'roll';
}

/** The step of a Jungle turn of this player's: a capture or a leap on offer, else how to move or win. */
function jungleStep(g, seat) {
  const board = parseFen(g.fen || '').board;
  const mine = seat === 0 ? 'red' : 'yellow';
  const moves = g.moves || [];
  if (moves.some((m) => board.get(m.slice(2, 4))?.side && board.get(m.slice(2, 4)).side !== mine)) return 'j_capture';
  const far = (m) => {
    const [from, to] = [parseSquare(m.slice(0, 2)), parseSquare(m.slice(2, 4))];
    return from && to && Math.abs(from[0] - to[0]) + Math.abs(from[1] - to[1]) > 1;
  };
  if (moves.some(far)) return 'j_leap';
  return (g.plies ?? 0) < 2 ? 'j_first' : 'j_move';
}

/** The guide of one room: notes what the player's last turn did, and draws the hint. */
export class Guide {
  constructor(onHide) {
    this.onHide = onHide;
    this.note = null;
  }

  /**
   * Note what a room event of this player's taught: a jump or a shortcut, a roll that could not
   * move, a capture (`before`: the game view before the event). The note stays until the
   * player acts again (their next roll or move), so that it can be read at leisure.
   */
  onEvent(ev, seat, before) {
    if (seat === null || ev.seat !== seat) return;
    if (ev.kind === 'rolled') this.note = null;
    else if (ev.kind === 'jungle_moved') {
      const move = ev.move ?? '';
      this.note = before?.fen && parseFen(before.fen).board.get(move.slice(2, 4)) ? 'j_captured' : null;
    }
    else if (ev.kind === 'passed') this.note = 'no_move';
    else if (ev.kind === 'moved') {
      const kinds = new Set((ev.effects || []).map((e) => e.type || e.kind));
      if (kinds.has('flew')) this.note = 'flew';
      else if (kinds.has('jumped')) this.note = 'jumped';
      else if (kinds.has('captured')) this.note = 'captured';
      // A roll no plane could use (no take-off roll with every plane in the hangar).
      else if (kinds.has('roll_spent')) this.note = 'no_move';
      else this.note = null;
    }
  }

  /** The hint card for the room `state` and this player's `seat`. */
  view(state, seat) {
    const step = guideStep(state, seat);
    // The game was played to its end: the guide has done its work, whether or not it is hidden.
    if (step === 'done') markGuidedDone();
    const note = step === 'done' ? null : this.note;
    const own = OWN_TURN.has(step);
    return v('section', { class: 'card guide', id: 'guide', 'data-step': step, 'data-note': note },
      v('h2', {}, '🎓 ', t('guide_title')),
      v('div', { class: 'guide-body' },
        note ? v('p', { class: 'guide-note', id: 'guide-note' }, t(`guide_${note}`)) : null,
        v('p', { class: 'guide-text', id: 'guide-text' }, t(`guide_${step}`))),
      // Said aloud on the player's own turn only: not "the bot plays" on every ply.
      v('p', { class: 'sr-only', id: 'guide-say', role: 'status', 'aria-live': 'polite' }, own ? [note ? `${t(`guide_${note}`)} ` : '', t(`guide_${step}`)].join('') : ''),
      v('button', {
        class: 'btn btn-small', type: 'button', id: 'guide-hide',
        onclick: () => {
          markGuidedDone();
          this.onHide();
        },
      }, step === 'done' ? t('guide_finish') : t('guide_hide')));
  }
}
