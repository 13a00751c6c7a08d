// What both game views show alike: the turn line, the turn timer and how seats are named.

import { h, mount, secondsLeft } from './dom.js';
import { t } from './i18n.js';

/** The turn line and the countdown bar of a game view's dock (P-TIMER). */
export class TurnClock {
  constructor() {
    this.status = h('div', { class: 'turn-status', id: 'turn-status', 'aria-live': 'polite' });
    this.bar = h('div', { class: 'timer-bar' }, h('div', { class: 'timer-fill' }));
    this.text = h('span', { class: 'timer-text', id: 'timer' });
    this.timer = h('div', { class: 'timer' }, this.bar, this.text);
  }

  /**
   * Shows whose turn it is: a dot of `colour` and `text`. The line keeps the height of two lines
   * of text (longer text is cut), so that the controls under it never move under a click.
   */
  say(colour, text) {
    mount(this.status, h('span', { class: `dot c-${colour}` }), h('span', { class: 'turn-text' }, text));
  }

  /** Shows the time left for the current decision (`state.turn`); nothing when no game runs. */
  tick(state) {
    const turn = state?.turn;
    const fill = this.bar.firstChild;
    if (!turn || state.status !== 'playing') {
      this.text.textContent = '';
      fill.style.width = '0%';
      return;
    }
    const left = secondsLeft(turn.deadline);
    this.text.textContent = `${left}s`;
    fill.style.width = `${Math.min(100, (100 * (turn.deadline - Date.now())) / (turn.seconds * 1000))}%`;
    this.bar.classList.toggle('urgent', left <= 5);
  }
}

/**
 * Seat `seat` of room `state` as turn lines and the log name it: "you" (player id `me`), or
 * as the players panel names it (`seatLabel`).
 */
export function seatName(state, me, seat) {
  const x = state.seats[seat];
  if (!x) return '?';
  if (x.player && x.player.id === me) return t('you_subject');
  return seatLabel(state, seat);
}

/**
 * Seat `seat` as the players panel names it: the player's name; the bot's level, with its
 * colour when another bot of the same level sits too ("🤖 Red bot · normal"); or, for a seat
 * whose player left during the game, who left.
 */
export function seatLabel(state, seat) {
  const x = state.seats[seat];
  if (!x) return '?';
  if (x.player) return x.player.guest ? `${x.player.name} (${t('guest')})` : x.player.name;
  if (x.bot) {
    const level = t(`bot_${x.bot}`);
    const twins = state.seats.filter((y) => y.bot === x.bot).length > 1;
    const colour = state.game?.colours?.[seat] ?? x.colour ?? (state.game_kind === 'jungle' ? ['red', 'yellow'][seat] : null);
    return twins && colour ? `🤖 ${t('seat_bot', { colour: t(colour), level })}` : `🤖 ${level}`;
  }
  return x.gone ? t('seat_gone', { name: x.gone }) : t('seat_left');
}
