// An arena's page (P-ARENA, protocol §11): the live table (rank, name, points, the streak as
// fire, each player's recent results as marks), joining and withdrawing, a countdown to the
// start or the end, the player's next game opening by itself after a short countdown (app.js
// does that on any page), and the final standings once the arena is over: the podium and the
// player's own place, at the arena's own address `#/arena/ID`, also after a reload. Wherever
// the player is when a followed arena ends (a game, its result), a dialog says so
// (`watchArenas`).

import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { errorText } from './errors.js';
import { apiFetch } from './net.js';

/** Where a tab keeps the arena its player takes part in (followed again after a reload). */
const JOINED_KEY = 'hangar.arena';
/** The arenas whose end this tab has told (told once). */
const TOLD_KEY = 'hangar.arena-told';
/** The rooms an arena seated this tab's player in, room code → arena id (the latest few). */
const ROOMS_KEY = 'hangar.arena-rooms';
const ROOMS_KEPT = 20;

/** What the keyboard can reach inside a dialog. */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

function load(key, fallback) {
  try {
    return JSON.parse(sessionStorage.getItem(key) || 'null') ?? fallback;
  } catch {
    return fallback;
  }
}

function store(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // A full storage forgets: the page still works, it only follows less after a reload.
  }
}

/** The arena that seated room `code`, as this tab was told (`arena_game`); null if none. */
export function arenaOfRoom(code) {
  return load(ROOMS_KEY, {})[code] ?? null;
}

/** "m:ss" (or "h:mm:ss") until `at` (Unix ms), from now. */
export function countdown(at) {
  const s = Math.max(0, Math.round((at - Date.now()) / 1000));
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hh ? 2 : 1, '0');
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The line under an arena's name: its status and the time to its start or end. */
export function arenaTiming(arena) {
  if (arena.status === 'upcoming') return `${t('arena_starts_in')} ${countdown(arena.starts_at)}`;
  if (arena.status === 'running') return `${t('arena_ends_in')} ${countdown(arena.ends_at)}`;
  return t('arena_finished');
}

/** "2 points" / "2 分". */
export function pointsText(n) {
  return n === 1 ? t('arena_point_one') : t('arena_points_n', { n });
}

/** The podium of final standings: the first three lines, each with its medal and points. */
export function podium(standings, me = null) {
  const medal = (rank) => ['🥇', '🥈', '🥉'][rank - 1] ?? String(rank);
  const top = standings.slice(0, 3);
  if (!top.length) return h('p', { class: 'empty' }, t('arena_empty'));
  return h('ol', { class: 'podium', 'aria-label': t('arena_podium') }, top.map((line) => h('li', {
    class: `podium-place podium-${Math.min(line.rank, 4)}${line.player_id === me ? ' mine' : ''}`, 'data-rank': line.rank, 'data-player': line.player_id,
  },
  h('span', { class: 'podium-medal', 'aria-hidden': 'true' }, medal(line.rank)),
  h('span', { class: 'sr-only' }, `${t('rank')} ${line.rank}: `),
  h('span', { class: 'podium-name' }, line.name),
  h('span', { class: 'podium-points' }, pointsText(line.points)))));
}

/** The player's own place in a table (`me`, the server's line), or a note that they did not play. */
export function ownPlace(table) {
  const { me, total } = table;
  if (!me) return null;
  return t('arena_my_place', { rank: me.rank, total, points: pointsText(me.points) });
}

// One result as a mark: won, drawn, a place, or escaped; doubled points are marked too.
function mark(m) {
  const kind = m.escaped ? 'escaped' : m.drawn ? 'draw' : m.place === 1 ? 'win' : 'loss';
  const text = m.escaped ? '⚑' : m.drawn ? '½' : String(m.place);
  return h('span', { class: `mark mark-${kind}${m.doubled ? ' mark-doubled' : ''}`, title: `${t('arena_points')}: ${m.points}` }, text);
}

/**
 * The table of arena `id` when following it is refused: the hall's permanent address of its
 * results (GET /api/arenas/ID) where the hall has one; null otherwise.
 */
async function fetchResults(id) {
  try {
    const res = await apiFetch(`/api/arenas/${id}`);
    if (!res.ok) return null;
    const table = await res.json();
    return table?.arena && Array.isArray(table.standings) ? table : null;
  } catch {
    return null;
  }
}

/** Follows tried, half a second apart, of an arena the hall has stored but not taken up yet. */
const ARENA_TAKE_UP_TRIES = 10;

/** The page `#/arena/ID`. */
export class ArenaView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.table = null;
    this.el = h('div', { class: 'arena', 'data-arena': id }, h('p', { class: 'loading' }, t('loading')));
    this.unlisten = app.conn.on((msg) => this.onMessage(msg));
    this.timer = setInterval(() => this.tick(), 1000);
  }

  async start() {
    clearTimeout(this.retry);
    try {
      this.table = await this.app.conn.send('arena_subscribe', { arena: this.id });
    } catch (err) {
      const stored = err.code === 'no_arena' ? await fetchResults(this.id) : null;
      // An arena made a moment ago is followed once the hall takes it up (twice a second):
      // its stored table is shown only once it is over, as the results.
      this.tries = (this.tries || 0) + 1;
      if (stored && stored.arena.status !== 'finished' && this.tries <= ARENA_TAKE_UP_TRIES) {
        this.retry = setTimeout(() => this.start(), 500);
        return;
      }
      this.table = stored;
      if (!this.table) {
        this.error = err;
        this.render();
        return;
      }
    }
    this.error = null;
    this.seen();
    this.render();
  }

  resume() {
    return this.start();
  }

  relabel() {
    if (this.table || this.error) this.render();
  }

  destroy() {
    this.unlisten();
    clearInterval(this.timer);
    clearTimeout(this.retry);
    // A player who took part keeps following until the end (the arena seats them through this
    // connection, and tells them of its end); one who looked at another arena follows their
    // own again.
    if (!this.app.conn.open) return;
    const joined = load(JOINED_KEY, null);
    const over = this.table?.arena?.status === 'finished';
    if (joined && joined !== this.id) refollow(this.app);
    else if (!this.table?.me || over) this.app.conn.send('arena_unsubscribe').catch(() => {});
  }

  onMessage(msg) {
    if (msg.type === 'arena' && msg.arena.id === this.id) {
      this.table = msg;
      this.seen();
      this.render();
    }
  }

  /** The page shows the arena's end itself: no dialog for it (`watchArenas`). */
  seen() {
    if (this.table?.arena?.status === 'finished') told(this.id);
  }

  tick() {
    const clock = this.el.querySelector('#arena-clock');
    if (clock && this.table) clock.textContent = arenaTiming(this.table.arena);
    const next = this.el.querySelector('#arena-next');
    if (next && this.app.arenaGame) next.textContent = `${t('arena_next_game')} ${countdown(this.app.arenaGame.starts_at)}`;
  }

  async act(type) {
    try {
      await this.app.conn.send(type, { arena: this.id });
      if (type === 'arena_join') store(JOINED_KEY, this.id);
      this.table = await this.app.conn.send('arena_subscribe', { arena: this.id });
    } catch (err) {
      this.actError = err;
    }
    this.render();
  }

  render() {
    if (!this.table) {
      // No such arena, or the hall could not answer: said in the page's words (errors.js).
      mount(this.el, h('section', { class: 'card arena-missing', id: 'arena-error', role: 'alert' },
        h('h1', {}, '🏟 ', t('arenas')),
        h('p', { class: 'empty' }, this.error ? errorText(this.error) : t('loading')),
        h('a', { class: 'btn', href: '#/' }, '← ', t('back_to_hall'))));
      return;
    }
    const { arena, standings, total, me } = this.table;
    const over = arena.status === 'finished';
    const joined = me?.active;
    const actions = over || !this.app.player ? null
      : joined
        ? h('button', { class: 'btn', id: 'arena-withdraw', type: 'button', onclick: () => this.act('arena_withdraw') }, t('arena_withdraw'))
        : h('button', { class: 'btn btn-primary', id: 'arena-join', type: 'button', onclick: () => this.act('arena_join') }, t('arena_join'));
    const actError = this.actError;
    this.actError = null;
    mount(this.el,
      h('div', { class: 'room-header' },
        h('a', { class: 'btn btn-ghost btn-small', href: '#/' }, '← ', t('back_to_hall')),
        h('h1', { id: 'arena-name' }, arena.game === 'flight' ? '✈ ' : '🐘 ', arena.name),
        h('span', { class: `chip arena-status arena-${arena.status}`, id: 'arena-clock', role: 'timer' }, arenaTiming(arena))),
      over
        // The end: the podium and the player's own place, announced when it comes.
        ? h('section', { class: 'card arena-actions arena-over', id: 'arena-over', 'aria-live': 'polite' },
          h('h2', { id: 'arena-final' }, '🏁 ', t('arena_finished'), ' · ', t('arena_podium')),
          podium(standings, this.app.player?.id),
          me ? h('p', { id: 'arena-me', class: 'arena-me' }, ownPlace(this.table)) : null)
        : h('section', { class: 'card arena-actions' },
          me ? h('p', { id: 'arena-me' }, `${t('rank')} ${me.rank} · ${t('arena_points')} ${me.points}${me.fire ? ' 🔥' : ''}`) : null,
          actions,
          actError ? h('p', { class: 'arena-error', role: 'alert' }, errorText(actError)) : null,
          this.app.arenaGame ? h('p', { id: 'arena-next', class: 'arena-next', role: 'status' }) : null),
      h('section', { class: 'card' },
        h('h2', {}, '🏆 ', t(over ? 'arena_final' : 'arena_table'), ` (${total})`),
        standings.length
          ? h('div', { class: 'arena-table-wrap' }, h('table', { class: 'arena-table', id: 'arena-table' },
            h('thead', {}, h('tr', {},
              h('th', { scope: 'col' }, t('rank')), h('th', { scope: 'col' }, t('player')),
              h('th', { scope: 'col' }, t('arena_points')), h('th', { scope: 'col' }, t('arena_recent')))),
            h('tbody', {}, standings.map((line) => h('tr', { class: `arena-line${line.player_id === this.app.player?.id ? ' mine' : ''}`, 'data-player': line.player_id },
              h('td', { class: 'arena-rank' }, line.rank),
              h('td', { class: 'arena-player' }, h('a', { href: `#/player/${line.player_id}` }, line.name), line.active || over ? null : h('small', {}, ` (${t('arena_withdrawn')})`)),
              h('td', { class: 'arena-points' }, line.points, line.fire && !over ? h('span', { class: 'fire', title: t('arena_fire') }, ' 🔥') : null),
              h('td', { class: 'arena-marks' }, line.recent.map(mark)))))))
          : h('p', { class: 'empty' }, t('arena_empty'))));
    this.tick();
  }
}

/** Remember that arena `id`'s end was told in this tab. */
function told(id) {
  const list = load(TOLD_KEY, []);
  if (!list.includes(id)) store(TOLD_KEY, [...list, id].slice(-20));
  if (load(JOINED_KEY, null) === id) store(JOINED_KEY, null);
}

/** Whether arena `id`'s end was told in this tab. */
function wasTold(id) {
  return load(TOLD_KEY, []).includes(id);
}

/**
 * The end of an arena the player took part in, as a dialog over whatever page they are on (a
 * game, its result, the hall): the podium, their own place and points, and the link to the
 * results' own address. Tab stays inside; Escape, ✕ or the link close it.
 */
export function showArenaEnd(table) {
  const id = table.arena.id;
  told(id);
  document.getElementById('arena-end')?.remove();
  const before = document.activeElement;
  const close = () => {
    overlay.remove();
    window.removeEventListener('hashchange', close);
    if (before?.isConnected && before !== document.body) before.focus();
  };
  const me = table.me?.player_id ?? null;
  const overlay = h('div', { class: 'arena-end-overlay', id: 'arena-end', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'arena-end-title' },
    h('div', { class: 'arena-end-card card' },
      h('h2', { id: 'arena-end-title' }, '🏁 ', t('arena_over_title', { name: table.arena.name })),
      h('h3', { class: 'arena-end-sub' }, '🏆 ', t('arena_podium')),
      podium(table.standings, me),
      table.me ? h('p', { class: 'arena-end-me', id: 'arena-end-me' }, ownPlace(table)) : null,
      h('div', { class: 'arena-end-actions' },
        h('a', { class: 'btn btn-primary', id: 'arena-end-link', href: `#/arena/${id}`, onclick: () => close() }, t('arena_results_link'))),
      h('button', { class: 'btn btn-ghost arena-end-close', type: 'button', 'aria-label': t('close'), onclick: () => close() }, '✕')));
  overlay.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
      return;
    }
    if (e.key !== 'Tab') return;
    const items = [...overlay.querySelectorAll(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && (document.activeElement === first || !overlay.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (document.activeElement === last || !overlay.contains(document.activeElement))) {
      e.preventDefault();
      first.focus();
    }
  });
  overlay.addEventListener('click', (e) => { if (e.target === overlay) close(); });
  window.addEventListener('hashchange', close);
  document.body.append(overlay);
  overlay.querySelector('#arena-end-link').focus();
  return overlay;
}

/** Whether the page shows arena `id`'s own page now. */
function onArenaPage(id) {
  const m = location.hash.match(/^#\/arena\/(\d+)/);
  return m ? (id === undefined || Number(m[1]) === id) : false;
}

/**
 * Follow again, after a reload or a reconnection, the arena this tab's player takes part in
 * (the arena seats a player only through a connection that follows it); an arena that ended
 * meanwhile is told now.
 */
export async function refollow(app) {
  const id = load(JOINED_KEY, null);
  if (!id || !app.player || onArenaPage()) return;
  try {
    const table = await app.conn.send('arena_subscribe', { arena: id });
    if (table.arena.status === 'finished') {
      if (table.me && !wasTold(id)) showArenaEnd(table);
      else told(id);
    }
  } catch (err) {
    if (err.code === 'no_arena') store(JOINED_KEY, null);
  }
}

/**
 * The arenas a player takes part in, wherever the page is: the rooms an arena seats them in
 * are remembered (the result dialog says when the arena's pair limit made a game practice),
 * and when a followed arena ends while they are not on its page, the end is told in a dialog.
 */
export function watchArenas(app) {
  app.conn.on((msg) => {
    if (msg.type === 'arena_game') {
      const rooms = load(ROOMS_KEY, {});
      delete rooms[msg.room];
      rooms[msg.room] = msg.arena;
      const codes = Object.keys(rooms);
      for (const code of codes.slice(0, Math.max(0, codes.length - ROOMS_KEPT))) delete rooms[code];
      store(ROOMS_KEY, rooms);
      if (!load(JOINED_KEY, null)) store(JOINED_KEY, msg.arena);
      return;
    }
    if (msg.type !== 'arena' || msg.arena?.status !== 'finished') return;
    const id = msg.arena.id;
    if (!msg.me || wasTold(id) || onArenaPage(id)) return;
    showArenaEnd(msg);
  });
}
