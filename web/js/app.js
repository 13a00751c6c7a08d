// The Hangar browser client: the page's entry point — reconnection, routing between the hall,
// rooms, replays and profiles, the language switch. The shared state lives in session.js, so
// that no view imports this module (no import cycles).

import { mount, toast } from './dom.js';
import { t, translate, setLang, currentLang, onLangChange } from './i18n.js';
import { errorText } from './errors.js';
import { saveToken, CLIENT_ID } from './net.js';
import { app, renderMe, signedIn } from './session.js';
import { HallView } from './hall.js';
import { RoomView } from './room.js';
import { ReplayView } from './replay.js';
import { ProfileView } from './profile.js';
import { sound } from './sound.js';
import { installChallenges } from './challenge.js';
import { ArenaView, watchArenas, refollow } from './arena.js';

const root = document.getElementById('app');

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
  // The arena the player takes part in is followed again (P-ARENA: it seats and tells them).
  refollow(app);
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
  } else if ((m = hash.match(/^#\/arena\/(\d+)/))) {
    app.view = new ArenaView(app, Number(m[1]));
  } else {
    app.view = new HallView(app);
  }
  mount(root, app.view.el);
  app.view.start?.();
  root.focus({ preventScroll: true });
}

// An arena seated the player (P-ARENA): the game opens by itself after the short countdown,
// from whatever page the player is on (the arena's, or the room of the game just over).
app.conn.on((msg) => {
  if (msg.type !== 'arena_game') return;
  app.arenaGame = msg;
  toast(t('arena_next_game'), 'info');
  setTimeout(() => {
    if (app.arenaGame === msg) {
      app.arenaGame = null;
      location.hash = `#/room/${msg.room}`;
    }
  }, Math.max(0, msg.starts_at - Date.now()));
});

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

// The mute switch lives in the top bar, on every page, not only inside a game.
const soundSwitch = sound.toggle();
soundSwitch.id = 'topbar-sound';
// A phone shows its icon only: the name stays for screen readers.
soundSwitch.setAttribute('aria-label', t('sound'));
onLangChange(() => soundSwitch.setAttribute('aria-label', t('sound')));
document.getElementById('lang').before(soundSwitch);

/**
 * The hall's room options (GET /api/options): the forms offer what the hall accepts. Asked
 * again each second until the hall answers (it may be restarting).
 */
async function loadOptions() {
  for (;;) {
    try {
      const res = await fetch('/api/options');
      if (res.ok) return await res.json();
    } catch {
      // Not up yet: try again.
    }
    await new Promise((done) => { setTimeout(done, 1000); });
  }
}

translate();
app.options = await loadOptions();
installChallenges(app);
watchArenas(app);
app.conn.connect();
