// The Hangar browser client: connection, identity, routing between hall, room and replay.

import { h, mount, toast } from './dom.js';
import { t, translate, setLang, currentLang, onLangChange } from './i18n.js';
import { errorText } from './errors.js';
import { Connection, savedToken, saveToken, CLIENT_ID } from './net.js';
import { HallView } from './hall.js';
import { RoomView } from './room.js';
import { ReplayView } from './replay.js';
import { ProfileView } from './profile.js';

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;

/** Shared client state: the connection, the signed-in player, the current view. */
export const app = {
  conn: new Connection(wsUrl),
  player: null,
  token: savedToken(),
  view: null,
  myRooms: [],
  anim: Number(new URLSearchParams(location.search).get('anim') || localStorage.getItem('hangar.anim') || 1),
};
window.hangar = app; // handy for debugging and for the browser tests

const root = document.getElementById('app');

function renderMe() {
  const box = document.getElementById('me');
  if (!app.player) {
    mount(box);
    return;
  }
  const p = app.player;
  mount(box,
    h('span', { class: 'me-name', title: p.guest ? t('guest') : '' }, p.name, p.guest ? h('small', {}, ` (${t('guest')})`) : null),
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

// After every (re)connection: authenticate with the saved token, then let the view resume.
app.conn.onReconnect = async () => {
  if (app.token) {
    try {
      const result = await app.conn.send('auth', { token: app.token, client: CLIENT_ID }, { priority: true });
      signedIn(result);
    } catch (err) {
      if (err.code === 'bad_token') {
        saveToken(null);
        app.token = null;
        app.player = null;
        renderMe();
      } else {
        console.warn('auth failed', err);
      }
    }
  }
  if (app.view?.resume) await app.view.resume();
  else if (!app.started) route();
  app.started = true;
};

app.conn.onStatus((status) => {
  const el = document.getElementById('conn-status');
  el.className = `conn conn-${status}`;
  el.textContent = status === 'open' ? '' : t(status === 'closed' ? 'reconnecting' : 'connecting');
  document.body.classList.toggle('offline', status !== 'open');
});

function route() {
  const hash = location.hash || '#/';
  app.view?.destroy?.();
  app.view = null;
  let m = hash.match(/^#\/room\/([A-Za-z0-9]+)/);
  if (m) {
    app.view = new RoomView(app, m[1].toUpperCase(), { watch: hash.includes('watch') });
  } else if ((m = hash.match(/^#\/replay\/(\d+)/))) {
    app.view = new ReplayView(app, Number(m[1]));
  } else if ((m = hash.match(/^#\/player\/(\d+)/))) {
    app.view = new ProfileView(app, Number(m[1]));
  } else {
    app.view = new HallView(app);
  }
  mount(root, app.view.el);
  app.view.start?.();
  root.focus({ preventScroll: true });
}

window.addEventListener('hashchange', route);
document.getElementById('lang').addEventListener('click', () => setLang(currentLang() === 'zh' ? 'en' : 'zh'));
onLangChange(() => {
  renderMe();
  app.view?.relabel?.();
});
window.addEventListener('unhandledrejection', (e) => {
  const err = e.reason;
  if (err && err.code && err.code !== 'disconnected') toast(errorText(err), 'error');
});

translate();
app.conn.connect();
