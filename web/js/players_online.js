// "Players online" in the hall (P-CHALLENGE, protocol §4a `players_online`): the registered
// players connected now (the viewer left out), by name, each with a link to their page, a mark
// when they sit in a room (a challenge waits until their game ends) and the Challenge button.
// Loaded when the hall opens, every 15 s while it is shown, and by its ↻ button.
//
// The box draws itself with the vdom (vdom.js): a refresh changes only what differs, so the
// keyboard stays on the ↻ or Challenge button it was on. The name links and Challenge buttons
// are the shared DOM ones (games.js, challenge.js), kept per player until the language changes.

import { h } from './dom.js';
import { patch, v, keep } from './vdom.js';
import { t } from './i18n.js';
import { errorText } from './errors.js';
import { distinctNames, playerLink } from './games.js';
import { botMark, challengeButton } from './challenge.js';

/** How often the list is asked for again while the hall is shown. */
export const ONLINE_REFRESH_MS = 15000;
/** How many players the list shows (the server's default; `total_online` counts them all). */
const LIMIT = 50;

export class PlayersOnline {
  /** `game()`: the hall's open tab, the game the composer offers first. */
  constructor(app, game = () => 'jungle') {
    this.app = app;
    this.game = game;
    this.online = null; // null until the first answer
    this.total = 0;
    this.error = null;
    this.busy = false;
    this.asked = 0; // the number of the last request: older answers are dropped
    this.timer = null;
    this.names = new Map(); // `${id}\n${name}\n${bot}` → the name's link and marks
    this.buttons = new Map(); // `${id}\n${game}` → its Challenge button
    this.el = h('section', { class: 'card players-online', id: 'players-online', 'aria-labelledby': 'players-online-title' });
    this.vnode = this.el.appendChild(h('div'));
    this.redraw();
  }

  /** Load now, and again every 15 s until `stop`. */
  start() {
    this.stop();
    this.timer = setInterval(() => {
      // Not while the tab is hidden or the connection is down (it comes back by itself).
      if (!document.hidden && this.app.conn.open) this.refresh();
    }, ONLINE_REFRESH_MS);
    this.refresh();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }

  /** Ask the hall for the list; an error is said in the page's words, the last list stays. */
  async refresh() {
    if (!this.app.player) return;
    const asked = ++this.asked;
    this.busy = true;
    this.redraw();
    try {
      const { online, total_online: total } = await this.app.conn.send('players_online', { limit: LIMIT });
      if (asked !== this.asked) return;
      this.online = online ?? [];
      this.total = total ?? this.online.length;
      this.error = null;
    } catch (err) {
      if (asked !== this.asked) return;
      this.error = err;
    }
    this.busy = false;
    this.redraw();
  }

  /** The page's language changed: the shared links and buttons are made anew in it. */
  relabel() {
    this.names.clear();
    this.buttons.clear();
    this.redraw();
  }

  redraw() {
    this.vnode = patch(this.vnode, this.view());
  }

  /** The player's name (a link to their page) and bot mark, kept while it stays the same. */
  nameOf(player, name) {
    const key = `${player.id}\n${name}\n${!!player.bot}`;
    if (!this.names.has(key)) this.names.set(key, h('span', { class: 'online-name' }, playerLink(name, player.id), botMark(player)));
    return this.names.get(key);
  }

  /** The player's Challenge button for the hall's game (none for oneself or a guest). */
  buttonOf(player) {
    const game = this.game();
    const key = `${player.id}\n${game}`;
    if (!this.buttons.has(key)) this.buttons.set(key, challengeButton(this.app, player, game));
    return this.buttons.get(key);
  }

  view() {
    const online = this.online;
    const count = online ? this.total : '…';
    let body;
    if (!online) body = this.error ? null : v('p', { class: 'empty' }, t('loading'));
    else if (!online.length) body = v('p', { class: 'empty', id: 'online-empty' }, t('online_none'));
    else {
      const names = distinctNames(online.map((o) => o.player));
      body = v('ul', { class: 'online-list' }, online.map((o, i) => {
        const button = this.buttonOf(o.player);
        return v('li', { class: `online-row ${o.seated ? 'seated' : ''}`, key: o.player.id, 'data-player': o.player.id },
          keep(this.nameOf(o.player, names[i])),
          o.seated ? v('span', { class: 'chip online-seated', title: t('online_seated_hint') }, t('online_seated')) : null,
          button ? keep(button) : null);
      }));
    }
    return v('div', { class: 'online-inner', 'aria-busy': String(this.busy) },
      v('div', { class: 'online-head' },
        v('h2', { id: 'players-online-title' }, '👥 ', t('online_title', { n: count })),
        v('button', {
          class: 'btn btn-ghost btn-small online-refresh', id: 'online-refresh', type: 'button',
          title: t('online_refresh'), 'aria-label': t('online_refresh'),
          onclick: () => this.refresh(),
        }, '↻')),
      this.error ? v('p', { class: 'form-error online-error', role: 'status' }, errorText(this.error)) : null,
      body,
      online && this.total > online.length ? v('p', { class: 'hint online-more' }, t('online_more', { n: this.total - online.length })) : null);
  }
}
