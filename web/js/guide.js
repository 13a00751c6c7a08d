// A guided first game: the hall opens a practice Aeroplane Chess room against one easy bot,
// and the room shows a hint tied to the game's state next to the board — press Ready, roll,
// a 6 takes a plane off, landing on your colour jumps. Hidden or finished, it is remembered as
// done in this browser, and the hall stops offering it.

import { v } from './vdom.js';
import { t } from './i18n.js';

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

/** What the practice room is created with: two seats, two planes each, a long turn clock. */
export const GUIDED_ROOM = { seats: 2, planes: 2, turn_seconds: 120 };

/** The bot of the guided game: the easy flight level. */
export const GUIDED_BOT = 'random';

/** The step of the guide for the room `state`, this player's `seat` and the last `note`. */
export function guideStep(state, seat, note) {
  const g = state.game;
  if (state.result || state.ended) return 'done';
  if (seat === null) return 'start';
  if (state.status !== 'playing' || !g) return state.seats[seat]?.ready ? 'start' : 'ready';
  if (g.to_move !== seat) return note || 'bot_turn';
  const planes = g.planes?.[seat] || [];
  if (g.need === 'move') {
    // A move of a plane still in the hangar is a take-off.
    return (g.moves || []).some((m) => planes[m.plane] === null) ? 'takeoff' : 'move';
  }
  return planes.every((p) => p === null) ? 'roll_first' : 'roll';
}

/** The guide of one room: notes what the player's last turn did, and draws the hint. */
export class Guide {
  constructor(onHide) {
    this.onHide = onHide;
    this.note = null;
  }

  /** Note what a room event taught: a jump or a shortcut of this player's, a roll that could not move. */
  onEvent(ev, seat) {
    if (seat === null || ev.seat !== seat) return;
    if (ev.kind === 'turn') this.note = null;
    else if (ev.kind === 'passed') this.note = 'no_move';
    else if (ev.kind === 'moved') {
      const kinds = new Set((ev.effects || []).map((e) => e.type || e.kind));
      if (kinds.has('flew')) this.note = 'flew';
      else if (kinds.has('jumped')) this.note = 'jumped';
      else if (kinds.has('captured')) this.note = 'captured';
    }
  }

  /** The hint card for the room `state` and this player's `seat`. */
  view(state, seat) {
    const step = guideStep(state, seat, this.note);
    if (step === 'done') markGuidedDone();
    return v('section', { class: 'card guide', id: 'guide', 'data-step': step },
      v('h2', {}, '🎓 ', t('guide_title')),
      v('p', { class: 'guide-text', id: 'guide-text', role: 'status', 'aria-live': 'polite' }, t(`guide_${step}`)),
      v('button', {
        class: 'btn btn-small', type: 'button', id: 'guide-hide',
        onclick: () => {
          markGuidedDone();
          this.onHide();
        },
      }, step === 'done' ? t('guide_finish') : t('guide_hide')));
  }
}
