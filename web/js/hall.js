// The hall page: sign-in (guest, account), the live room list, room creation with every
// option, join by code, quick match, the leaderboard and the player's finished games.

import { h, mount, toast } from './dom.js';
import { patch, v, keep } from './vdom.js';
import { botName, distinctNames, gameRow, playerLink, ratingText } from './games.js';
import { botMark, challengeButton, guestMark } from './challenge.js';
import { diceStats } from './dicechart.js';
import { t } from './i18n.js';
import { errorText } from './errors.js';
import { CLIENT_ID, apiFetch } from './net.js';
import { signedIn } from './session.js';
import { RulesPanel, optionHelp } from './rules.js';
import { GUIDED, guidedDone, markGuidedDone, setGuidedRoom } from './guide.js';
import { arenaTiming } from './arena.js';
import { PlayersOnline } from './players_online.js';

const COLOUR_NAMES = ['red', 'yellow', 'blue', 'green'];

// A form field with its one-line explanation under it (and as the tooltip).
function field(labelKey, input) {
  const help = optionHelp(labelKey);
  return h('label', { class: 'field', title: help || null },
    h('span', {}, t(labelKey)), input, help ? h('small', { class: 'field-help' }, help) : null);
}

function select(name, options, value) {
  return h('select', { name }, options.map(([option, key]) => h('option', { value: option, selected: String(option) === String(value) }, t(key))));
}

/** The whole numbers of `bounds` ({min, max}) in order. */
function span({ min, max }) {
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
}

/** A number input within the hall's `bounds` ({min, max, default}). */
function numberInput(name, bounds) {
  return h('input', { type: 'number', name, min: bounds.min, max: bounds.max, value: bounds.default });
}

function checkbox(name, labelKey, checked = false) {
  return h('label', { class: 'check', title: optionHelp(labelKey) || null }, h('input', { type: 'checkbox', name, checked }), h('span', {}, t(labelKey)));
}

/** The hall view. */
export class HallView {
  constructor(app) {
    this.app = app;
    this.game = localStorage.getItem('hangar.hallGame') || 'flight';
    this.rooms = new Map();
    this.rules = { flight: new RulesPanel('flight'), jungle: new RulesPanel('jungle') };
    this.el = h('div', { class: 'hall' });
    // The drawing `redraw` patches (vdom.js), and the parts that fill themselves in: the
    // create form (open or not), the leaderboard and my games, each loaded on its own.
    this.vnode = this.el.appendChild(h('div'));
    this.createBox = h('div', { class: 'create-box' });
    this.leaderBox = h('div', { class: 'leaderboard', id: 'leaderboard' }, t('loading'));
    this.gamesBox = h('div', { class: 'my-games', id: 'my-games' }, t('loading'));
    // Every die of the hall's finished games against a fair die (P-DICE-STATS).
    this.diceBox = h('div', { class: 'hall-dice', id: 'hall-dice' });
    // The arenas (P-ARENA), each with a countdown to its start or end.
    this.arenaBox = h('div', { class: 'arena-list', id: 'arena-list' }, t('loading'));
    this.arenaTimer = setInterval(() => this.tickArenas(), 1000);
    // Whom to challenge (P-CHALLENGE): loaded now and every 15 s while the hall is shown.
    this.online = new PlayersOnline(app, () => this.game);
    this.unlisten = app.conn.on((msg) => this.onMessage(msg));
    // While a press is down in the room list, the list holds still (as lichess's lobby holds
    // its seeks under the pointer): rows coming, going or changing status above the pressed
    // row would move it from under the pointer, and the press would land on another row. The
    // changes are drawn once the press is over, after its click.
    this.pressing = false;
    this.listStale = false;
    this.release = () => {
      if (!this.pressing) return;
      this.pressing = false;
      if (this.listStale) {
        this.listStale = false;
        setTimeout(() => this.redraw(), 0);
      }
    };
    window.addEventListener('pointerup', this.release);
    window.addEventListener('pointercancel', this.release);
  }

  /** Draws a change of the live list, or keeps it for the end of a press in the list. */
  listChanged() {
    if (this.pressing) this.listStale = true;
    else this.redraw();
  }

  start() {
    this.render();
    if (this.app.player) {
      this.subscribe();
      this.online.start();
    }
  }

  destroy() {
    this.unlisten();
    window.removeEventListener('pointerup', this.release);
    window.removeEventListener('pointercancel', this.release);
    clearInterval(this.arenaTimer);
    this.online.stop();
    if (this.app.conn.open) this.app.conn.send('hall_unsubscribe').catch(() => {});
  }

  async resume() {
    if (this.app.player) {
      await this.subscribe();
      this.online.refresh();
    }
    this.redraw();
  }

  relabel() {
    // The create form is written in the old language: it closes (its button opens it anew).
    mount(this.createBox);
    this.online.relabel();
    this.render();
  }

  async subscribe() {
    this.rooms.clear();
    this.loaded = false;
    await this.app.conn.send('hall_subscribe', { game: this.game });
    this.loadSide();
  }

  onMessage(msg) {
    if (msg.type === 'hall' && msg.game === this.game) {
      this.rooms = new Map(msg.rooms.map((r) => [r.code, r]));
      // The first page of the list; `total` says how many there are (protocol §4).
      this.total = msg.total ?? msg.rooms.length;
      this.loaded = true;
      this.listChanged();
    } else if (msg.type === 'hall_room' && msg.game === this.game) {
      this.rooms.set(msg.room.code, msg.room);
      this.listChanged();
    } else if (msg.type === 'hall_room_removed' && msg.game === this.game) {
      this.rooms.delete(msg.code);
      this.listChanged();
    }
  }

  /** The arenas' countdowns, every second. */
  tickArenas() {
    for (const a of this.arenas ?? []) {
      const clock = this.arenaBox.querySelector(`.arena-clock[data-arena="${a.id}"]`);
      if (clock) clock.textContent = arenaTiming(a);
    }
  }

  /** Draw the hall and load its leaderboard and the player's games. */
  render() {
    this.redraw();
    if (this.app.player) this.loadSide();
  }

  /**
   * Patch the page to the hall's state: the live room list changes while the player reads it
   * and types a room code, and what stays in the drawing stays the same element (vdom.js).
   */
  redraw() {
    this.vnode = patch(this.vnode, this.view());
  }

  view() {
    if (!this.app.player) return v('div.hall-page', {}, this.welcomeView());
    const tabs = v('div', { class: 'tabs', role: 'tablist' },
      ['flight', 'jungle'].map((g) => v('button', {
        class: `tab ${g === this.game ? 'active' : ''}`, role: 'tab', type: 'button', 'data-game': g,
        'aria-selected': g === this.game ? 'true' : 'false',
        onclick: () => this.switchGame(g),
      }, g === 'flight' ? '✈ ' : '🐘 ', t(g))));
    return v('div.hall-page', {},
      v('section', { class: 'hero' },
        v('div', { class: 'hero-text' },
          v('h1', {}, t('app_name')),
          v('p', {}, t('tagline'))),
        v('div', { class: 'hero-actions' },
          v('button', { class: 'btn btn-primary btn-big', id: 'quick-match', type: 'button', onclick: () => this.quickMatch() }, '⚡ ', t('quick_match'), ' · ', t(this.game)),
          v('button', { class: 'btn btn-big', id: 'open-create', type: 'button', onclick: () => this.toggleCreate() }, '＋ ', t('create_room')),
          v('form', { class: 'join-form', onsubmit: (e) => { e.preventDefault(); this.join(e.target.elements.code.value); } },
            v('input', { name: 'code', maxlength: 12, placeholder: t('room_code'), autocomplete: 'off', class: 'code-input' }),
            v('button', { class: 'btn', type: 'submit' }, t('join'))))),
      this.learnCard(),
      keep(this.createBox),
      v('div', { class: 'hall-grid' },
        v('section', { class: 'card rooms-card' }, tabs, v('h2', {}, t('rooms')), this.roomListView()),
        v('aside', { class: 'hall-side' },
          v('section', { class: 'card' }, v('h2', {}, '🏟 ', t('arenas')), keep(this.arenaBox)),
          keep(this.rulesPanel()),
          keep(this.online.el),
          v('section', { class: 'card' }, v('h2', {}, '🏆 ', t('leaderboard')), keep(this.leaderBox)),
          v('section', { class: 'card' }, v('h2', {}, '📜 ', t('my_games')), keep(this.gamesBox)),
          v('section', { class: 'card' }, keep(this.diceBox)))));
  }

  /** The offer of a guided first game, until this browser has played or declined it. */
  learnCard() {
    if (guidedDone()) return null;
    return v('section', { class: 'card learn', id: 'learn' },
      v('h2', {}, '🎓 ', t('learn_title')),
      v('p', {}, t('learn_text')),
      v('div', { class: 'row' },
        ['flight', 'jungle'].map((game) => v('button', {
          class: 'btn btn-primary', type: 'button', id: `learn-${game}`, onclick: () => this.learn(game),
        }, game === 'flight' ? '✈ ' : '🐘 ', t('learn_start', { game: t(game) }))),
        v('button', {
          class: 'btn btn-ghost', type: 'button', id: 'learn-no',
          onclick: () => {
            markGuidedDone();
            this.redraw();
          },
        }, t('learn_no'))));
  }

  /** Open the guided game of `game`: a private practice room with one easy bot (P-PRACTICE). */
  async learn(game) {
    const { options, bot } = GUIDED[game];
    const { room } = await this.app.conn.send('create_room', { game, private: true, options });
    await this.app.conn.send('add_bot', { room, seat: 1, bot });
    setGuidedRoom(room);
    location.hash = `#/room/${room}`;
  }

  switchGame(game) {
    this.game = game;
    mount(this.createBox);
    // The other game's rooms are not shown under this tab while its list is on its way.
    this.rooms.clear();
    this.loaded = false;
    localStorage.setItem('hangar.hallGame', game);
    // The Challenge buttons offer the open tab's game first.
    this.online.redraw();
    this.render();
    this.subscribe();
  }

  /** Sign in (`guest`, `login` or `register`); a refusal is a toast in the page's words. */
  async signIn(type, fields) {
    try {
      signedIn(await this.app.conn.send(type, { ...fields, client: CLIENT_ID }));
    } catch (err) {
      toast(errorText(err), 'error');
      return;
    }
    this.start();
  }

  /** Sign-in: as a guest by nickname, or with an account. */
  welcomeView() {
    const guest = async (e) => {
      e.preventDefault();
      const value = e.target.elements.nickname.value.trim();
      if (!value) {
        toast(t('need_name'), 'error');
        return;
      }
      await this.signIn('guest', { name: value });
    };
    const account = async (type, form) => {
      const { name, password } = form.elements;
      // The rules said in words before asking: a name, and a password of 8 characters or more.
      if (!name.value.trim()) {
        toast(t('need_name'), 'error');
        name.focus();
        return;
      }
      if (password.value.length < 8) {
        toast(t('password_rule'), 'error');
        password.focus();
        return;
      }
      await this.signIn(type, { name: name.value.trim(), password: password.value });
    };
    return v('section', { class: 'welcome' },
      v('div', { class: 'welcome-art', 'aria-hidden': 'true' }, v('span', {}, '✈'), v('span', {}, '🎲'), v('span', {}, '🐯')),
      v('h1', {}, t('app_name')),
      v('p', { class: 'lead' }, t('tagline')),
      v('div', { class: 'welcome-cards' },
        v('form', { class: 'card', id: 'guest-form', onsubmit: guest },
          v('h2', {}, t('guest_title')),
          v('input', { name: 'nickname', maxlength: 20, required: true, placeholder: t('nickname'), autocomplete: 'nickname', id: 'nickname' }),
          v('button', { class: 'btn btn-primary btn-big', type: 'submit' }, t('play_as_guest'))),
        v('form', { class: 'card', id: 'account-form', onsubmit: (e) => { e.preventDefault(); account('login', e.target); } },
          v('h2', {}, t('login'), ' / ', t('register')),
          v('input', { name: 'name', maxlength: 20, placeholder: t('name'), autocomplete: 'username' }),
          v('input', { name: 'password', type: 'password', minlength: 8, placeholder: t('password'), autocomplete: 'current-password' }),
          v('div', { class: 'row' },
            v('button', { class: 'btn btn-primary', type: 'submit' }, t('login')),
            v('button', { class: 'btn', type: 'button', onclick: (e) => account('register', e.target.form) }, t('register'))),
          v('p', { class: 'hint' }, t('account_hint')))));
  }

  /** The live room list; rows are keyed by room code, so a row stays itself as others come and go. */
  roomListView() {
    const rooms = [...this.rooms.values()].sort((a, b) => (a.status === 'waiting' ? 0 : 1) - (b.status === 'waiting' ? 0 : 1));
    // Busy until the hall's list of this game has come: "no rooms" is not known before.
    return v('div', {
      class: 'room-list', id: 'room-list', 'data-game': this.game, 'aria-busy': String(!this.loaded),
      onpointerdown: () => { this.pressing = true; },
    },
      rooms.length ? this.roomRows(rooms) : v('p', { class: 'empty' }, t('no_rooms')));
  }

  /** The rows of `rooms`, and a button for the next page when the hall holds more. */
  roomRows(rooms) {
    return [rooms.map((r) => {
      const filled = r.seats.filter((x) => x.name || x.bot).length;
      const free = r.seats.some((x) => !x.name && !x.bot);
      const opts = r.options || {};
      return v('div', { class: `room-row status-${r.status}`, 'data-code': r.code, key: r.code },
        v('div', { class: 'room-main' },
          v('b', { class: 'room-code' }, r.code),
          v('span', { class: `badge badge-${r.status}` }, t(`status_${r.status}`)),
          opts.preset ? v('span', { class: 'chip' }, t(`preset_${opts.preset}`)) : null,
          opts.stake ? v('span', { class: 'chip' }, `${t('stake')} ${opts.stake}`) : null,
          opts.level ? v('span', { class: 'chip' }, `${t('room_level')} ${opts.level}`) : null,
          r.practice ? v('span', { class: 'chip chip-practice', title: t('practice_note') }, t('practice')) : null),
        v('div', { class: 'room-seats' }, r.seats.map((x, i) => v('span', {
          class: `seat-dot ${x.name || x.bot ? 'taken' : ''} ${this.game === 'flight' ? `c-${COLOUR_NAMES[i]}` : (i === 0 ? 'c-red' : 'c-yellow')}`,
          title: x.bot ? botName(x.bot) : (x.name ? `${x.name}${x.guest ? ` (${t('guest')})` : ''}` : t('empty_seat')),
        }, x.bot ? '🤖' : (x.name ? x.name.slice(0, 1).toUpperCase() : '')))),
        v('span', { class: 'room-count' }, `${filled}/${r.seats.length}`, r.spectators ? ` · 👁 ${r.spectators}` : ''),
        v('div', { class: 'room-actions' },
          free && r.status === 'waiting' ? v('button', { class: 'btn btn-primary btn-small', type: 'button', key: 'join', onclick: () => this.join(r.code) }, t('join')) : null,
          v('button', { class: 'btn btn-small', type: 'button', key: 'watch', onclick: () => { location.hash = `#/room/${r.code}/watch`; } }, t('watch'))));
    }), this.total > this.rooms.size ? v('button', {
      class: 'btn btn-small', type: 'button', id: 'more-rooms', onclick: () => this.loadMore(),
    }, t('more_rooms', { n: this.total - this.rooms.size })) : null];
  }

  /** The next page of the list (the hall sends the first page only). */
  async loadMore() {
    const { rooms, total } = await this.app.conn.send('hall_page', { game: this.game, offset: this.rooms.size });
    for (const r of rooms) if (!this.rooms.has(r.code)) this.rooms.set(r.code, r);
    this.total = total;
    this.redraw();
  }

  async loadSide() {
    try {
      const { arenas } = await this.app.conn.send('arenas');
      this.arenas = arenas;
      mount(this.arenaBox, arenas.length ? h('ul', { class: 'arena-rows' }, arenas.map((a) => h('li', { class: 'arena-row', 'data-arena': a.id },
        h('a', { href: `#/arena/${a.id}` }, a.game === 'flight' ? '✈ ' : '🐘 ', a.name),
        h('span', { class: 'chip arena-clock', 'data-arena': a.id }, arenaTiming(a))))) : h('p', { class: 'empty' }, t('no_arenas')));
    } catch (err) {
      mount(this.arenaBox, h('p', { class: 'empty' }, errorText(err)));
    }
    try {
      // This tab's game, by rating (P-RATING); names open the player's page (P-PROFILE).
      const game = this.game;
      const { entries } = await this.app.conn.send('leaderboard', { game, by: 'rating', limit: 10 });
      // Two guests may share a name: the list tells them apart by number.
      const names = distinctNames(entries.map((e) => e.player));
      mount(this.leaderBox, entries.length ? h('ol', { class: 'leader-list', 'data-game': game }, entries.map((e, i) => h('li', { class: e.rating?.provisional ? 'provisional' : '' },
        h('span', { class: 'leader-rank' }, e.rank),
        h('span', { class: 'leader-name' }, playerLink(names[i], e.player.id), botMark(e.player)), guestMark(e.player),
        h('b', { class: 'leader-rating', title: e.rating?.provisional ? t('provisional') : t('rating') }, ratingText(game, e.rating)),
        challengeButton(this.app, e.player, game))))
        : h('p', { class: 'empty', id: 'leaders-empty' }, t('no_leaders')));
    } catch (err) {
      mount(this.leaderBox, h('p', { class: 'empty' }, errorText(err)));
    }
    try {
      const { games } = await this.app.conn.send('my_games', { limit: 20 });
      mount(this.gamesBox, games.length ? h('ul', { class: 'games-list' }, games.map(gameRow)) : h('p', { class: 'empty' }, t('no_games')));
    } catch (err) {
      mount(this.gamesBox, h('p', { class: 'empty' }, errorText(err)));
    }
    const dice = await apiFetch('/api/dice').then((res) => (res.ok ? res.json() : null)).catch(() => null);
    mount(this.diceBox, dice ? diceStats(dice.counts, t('dice_hall')) : null);
  }

  /** How to play the game of the open tab, in the page's language. */
  rulesPanel() {
    const panel = this.rules[this.game] || this.rules.flight;
    panel.refresh();
    return panel.el;
  }

  async quickMatch() {
    const { room } = await this.app.conn.send('quick_match', { game: this.game });
    // The room page shows how long the search runs (bots come after a while, P-QUICK).
    this.app.quickMatch = { code: room, at: Date.now() };
    location.hash = `#/room/${room}`;
  }

  join(code) {
    const c = String(code || '').trim().toUpperCase();
    if (c) location.hash = `#/room/${c}`;
  }

  toggleCreate() {
    if (this.createBox.childElementCount) {
      mount(this.createBox);
      return;
    }
    mount(this.createBox, this.createForm());
  }

  createForm() {
    const flight = this.game === 'flight';
    // What the hall accepts (GET /api/options): bounds, defaults, presets.
    const { turn_seconds: turnSeconds, flight: flightOptions, jungle: jungleOptions } = this.app.options;
    const presets = flightOptions.presets;
    const form = h('form', { class: 'card create-form', id: 'create-form' });
    const common = [
      h('h2', {}, t('create_room'), ' · ', t(this.game)),
      flight ? field('seats', select('seats', span(flightOptions.seats).map((n) => [n, `players_${n}`]), flightOptions.seats.default)) : null,
      flight ? field('stake', numberInput('stake', flightOptions.stake)) : null,
      field('turn_seconds', numberInput('turn_seconds', turnSeconds)),
    ];
    const flightOpts = flight ? [
      field('preset', select('preset', Object.keys(presets).map((p) => [p, `preset_${p}`]), flightOptions.default_preset)),
      field('takeoff', select('takeoff', [['six', 'takeoff_6'], ['five-or-six', 'takeoff_56']], 'six')),
      field('three_sixes', select('three_sixes', [['none', 'three_none'], ['all-to-hangar', 'three_all'], ['moved-to-hangar', 'three_moved']], 'none')),
      field('stacks', select('stacks', [['block', 'stacks_block'], ['pass', 'stacks_pass']], 'block')),
      field('finish', select('finish', [['bounce', 'finish_bounce'], ['overshoot', 'finish_overshoot'], ['exact-only', 'finish_exact'], ['circle', 'finish_circle']], 'bounce')),
      field('planes', select('planes', span(flightOptions.planes).reverse().map((n) => [n, `planes_${n}`]), flightOptions.planes.default)),
      h('div', { class: 'checks' },
        checkbox('teams', 'teams'), checkbox('play_on', 'play_on'), checkbox('items', 'items'), checkbox('weather', 'weather')),
    ] : [
      field('room_level', numberInput('level', jungleOptions.level)),
      field('order', select('order', [['dog-over-wolf', 'order_standard'], ['wolf-over-dog', 'order_wolf']], 'dog-over-wolf')),
      h('div', { class: 'checks' }, checkbox('leopard_leaps', 'leopard_leaps'), checkbox('elephant_takes_rat', 'elephant_takes_rat')),
    ];
    mount(form, common[0], h('div', { class: 'form-grid' }, common.slice(1), flightOpts),
      checkbox('private', 'private_room'),
      h('div', { class: 'row' },
        h('button', { class: 'btn btn-primary', type: 'submit' }, t('create')),
        h('button', { class: 'btn', type: 'button', onclick: () => mount(this.createBox) }, t('cancel'))));
    // Choosing a preset fills in its rule options (flight.md §9); each can then be changed.
    const presetSel = form.querySelector('[name=preset]');
    const applyPreset = () => {
      for (const [name, value] of Object.entries(presets[presetSel.value])) {
        const input = form.querySelector(`[name=${name}]`);
        if (input?.type === 'checkbox') input.checked = value;
        else if (input) input.value = String(value);
      }
    };
    if (presetSel) {
      applyPreset();
      presetSel.addEventListener('change', applyPreset);
    }
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = new FormData(form);
      const bool = (n) => form.querySelector(`[name=${n}]`)?.checked ?? false;
      const options = flight ? {
        seats: Number(f.get('seats')), stake: Number(f.get('stake')), turn_seconds: Number(f.get('turn_seconds')),
        preset: f.get('preset'), takeoff: f.get('takeoff'),
        three_sixes: f.get('three_sixes'), stacks: f.get('stacks'), finish: f.get('finish'),
        planes: Number(f.get('planes')), teams: bool('teams'), play_on: bool('play_on'), items: bool('items'), weather: bool('weather'),
      } : {
        seats: 2, turn_seconds: Number(f.get('turn_seconds')), level: Number(f.get('level')), order: f.get('order'),
        leopard_leaps: bool('leopard_leaps'), elephant_takes_rat: bool('elephant_takes_rat'),
      };
      // Rule options equal to the preset's are left to the preset (flight.md §9).
      if (flight) {
        for (const [k, given] of Object.entries(presets[options.preset])) if (options[k] === given) delete options[k];
      }
      let room;
      try {
        ({ room } = await this.app.conn.send('create_room', { game: this.game, private: bool('private'), options }));
      } catch (err) {
        // A stake the score does not cover (P-SCORE), a full house of rooms: said in the page's
        // words, and the form stays open to change it.
        toast(errorText(err), 'error');
        return;
      }
      location.hash = `#/room/${room}`;
    });
    return form;
  }
}
