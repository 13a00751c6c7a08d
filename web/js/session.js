// The page's shared state — the connection, the signed-in player, the current view — and the
// identity line at the top of the page. Views receive `app`; none imports app.js.

import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { Connection, savedToken, saveToken } from './net.js';

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;

/** Shared client state: the connection, the signed-in player, the current view. */
export const app = {
  conn: new Connection(wsUrl),
  player: null,
  token: savedToken(),
  view: null,
  myRooms: [],
  /** What rooms may be made with (GET /api/options), loaded before the page starts. */
  options: null,
  anim: Number(new URLSearchParams(location.search).get('anim') || localStorage.getItem('hangar.anim') || 1),
};
window.hangar = app; // handy for debugging and for the browser tests

/** Draw the identity line (name, score, level, sign-out). */
export function renderMe() {
  const box = document.getElementById('me');
  if (!app.player) {
    mount(box);
    return;
  }
  const p = app.player;
  mount(box,
    // The player's own name opens their profile (P-PROFILE).
    h('a', { class: 'me-name', id: 'me-name', href: `#/player/${p.id}`, title: t('my_profile') }, p.name, p.guest ? h('small', {}, ` (${t('guest')})`) : null,
      p.bot ? h('span', { class: 'bot-mark', title: t('bot_account') }, h('span', { 'aria-hidden': 'true' }, '🤖'), h('span', { class: 'sr-only' }, ` (${t('bot_account')})`)) : null),
    h('span', { class: 'chip' }, `${t('score')} ${p.score}`),
    h('span', { class: 'chip chip-level' }, `Lv ${p.level}`),
    h('button', { class: 'btn btn-ghost btn-small', type: 'button', onclick: logout }, t('logout')));
}

/** Sign in with a result carrying {token, player}. */
export function signedIn(result) {
  if (result.token) {
    app.token = result.token;
    saveToken(result.token);
  }
  app.player = result.player;
  if (result.rooms) app.myRooms = result.rooms;
  renderMe();
}

/** Update the shown score after a game. */
export function updatePlayer(player) {
  app.player = { ...app.player, ...player };
  renderMe();
}

function logout() {
  saveToken(null);
  app.token = null;
  app.player = null;
  renderMe();
  location.hash = '#/';
  location.reload();
}

