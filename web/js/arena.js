// An arena's page (P-ARENA, protocol §11): the live table (rank, name, points, the streak as
// fire, each player's recent results as marks), joining and withdrawing, a countdown to the
// start or the end, the player's next game opening by itself after a short countdown (app.js
// does that on any page), and the final standings once the arena is over.

import { h, mount } from './dom.js';
import { t } from './i18n.js';

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

// One result as a mark: won, drawn, a place, or escaped; doubled points are marked too.
function mark(m) {
  const kind = m.escaped ? 'escaped' : m.drawn ? 'draw' : m.place === 1 ? 'win' : 'loss';
  const text = m.escaped ? '⚑' : m.drawn ? '½' : String(m.place);
  return h('span', { class: `mark mark-${kind}${m.doubled ? ' mark-doubled' : ''}`, title: `${t('arena_points')}: ${m.points}` }, text);
}

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
    try {
      this.table = await this.app.conn.send('arena_subscribe', { arena: this.id });
      this.render();
    } catch (err) {
      mount(this.el, h('p', { class: 'empty' }, err.message), h('a', { class: 'btn', href: '#/' }, t('back_to_hall')));
    }
  }

  resume() {
    return this.start();
  }

  relabel() {
    if (this.table) this.render();
  }

  destroy() {
    this.unlisten();
    clearInterval(this.timer);
    // A player who takes part keeps following (the arena seats them through this connection).
    if (!this.table?.me?.active && this.app.conn.open) this.app.conn.send('arena_unsubscribe').catch(() => {});
  }

  onMessage(msg) {
    if (msg.type === 'arena' && msg.arena.id === this.id) {
      this.table = msg;
      this.render();
    }
  }

  tick() {
    const clock = this.el.querySelector('#arena-clock');
    if (clock && this.table) clock.textContent = arenaTiming(this.table.arena);
    const next = this.el.querySelector('#arena-next');
    if (next && this.app.arenaGame) next.textContent = `${t('arena_next_game')} ${countdown(this.app.arenaGame.starts_at)}`;
  }

  async act(type) {
    await this.app.conn.send(type, { arena: this.id });
    this.table = await this.app.conn.send('arena_subscribe', { arena: this.id });
    this.render();
  }

  render() {
    const { arena, standings, total, me } = this.table;
    const over = arena.status === 'finished';
    const joined = me?.active;
    const actions = over || !this.app.player ? null
      : joined
        ? h('button', { class: 'btn', id: 'arena-withdraw', type: 'button', onclick: () => this.act('arena_withdraw') }, t('arena_withdraw'))
        : h('button', { class: 'btn btn-primary', id: 'arena-join', type: 'button', onclick: () => this.act('arena_join') }, t('arena_join'));
    mount(this.el,
      h('div', { class: 'room-header' },
        h('a', { class: 'btn btn-ghost btn-small', href: '#/' }, '← ', t('back_to_hall')),
        h('h1', { id: 'arena-name' }, arena.game === 'flight' ? '✈ ' : '🐘 ', arena.name),
        h('span', { class: `chip arena-status arena-${arena.status}`, id: 'arena-clock', role: 'timer' }, arenaTiming(arena))),
      h('section', { class: 'card arena-actions' },
        over ? h('h2', { id: 'arena-final' }, '🏁 ', t('arena_final')) : null,
        me ? h('p', { id: 'arena-me' }, `${t('rank')} ${me.rank} · ${t('arena_points')} ${me.points}${me.fire ? ' 🔥' : ''}`) : null,
        actions,
        this.app.arenaGame && !over ? h('p', { id: 'arena-next', class: 'arena-next', role: 'status' }) : null),
      h('section', { class: 'card' },
        h('h2', {}, '🏆 ', t('arena_table'), ` (${total})`),
        standings.length
          ? h('table', { class: 'arena-table', id: 'arena-table' },
            h('thead', {}, h('tr', {},
              h('th', { scope: 'col' }, t('rank')), h('th', { scope: 'col' }, t('player')),
              h('th', { scope: 'col' }, t('arena_points')), h('th', { scope: 'col' }, t('arena_recent')))),
            h('tbody', {}, standings.map((line) => h('tr', { class: `arena-line${line.player_id === this.app.player?.id ? ' mine' : ''}`, 'data-player': line.player_id },
              h('td', { class: 'arena-rank' }, line.rank),
              h('td', { class: 'arena-player' }, h('a', { href: `#/player/${line.player_id}` }, line.name), line.active ? null : h('small', {}, ` (${t('arena_withdrawn')})`)),
              h('td', { class: 'arena-points' }, line.points, line.fire ? h('span', { class: 'fire', title: t('arena_fire') }, ' 🔥') : null),
              h('td', { class: 'arena-marks' }, line.recent.map(mark))))))
          : h('p', { class: 'empty' }, t('arena_empty'))));
    this.tick();
  }
}
