// A room: its seats, ready marks, bots, chat and watchers, the versioned event stream with
// resume after reconnects (docs/protocol.md §5), and the game view of the running game.

import { h, mount, toast, secondsLeft } from './dom.js';
import { t, phraseText } from './i18n.js';
import { errorText } from './errors.js';
import { CLIENT_ID } from './net.js';
import { signedIn, updatePlayer } from './app.js';
import { FlightView } from './flight/view.js';
import { JungleView } from './jungle/view.js';
import { FairDicePanel } from './fairdice.js';
import { RulesPanel } from './rules.js';
import { botName, playerLink, ratingText } from './games.js';

/**
 * Bring a game view to one shape: planes in the hangar are `null` (the engine may write -1).
 */
export function normalizeGame(game) {
  if (game && game.kind === 'flight' && Array.isArray(game.planes)) {
    game.planes = game.planes.map((list) => (list || []).map((p) => (p === null || p === undefined || p < 0 ? null : p)));
  }
  return game;
}

/** Apply one room event to the room state (everything but animation). */
export function applyEvent(state, ev) {
  if (ev.game) normalizeGame(ev.game);
  // Any event that carries the game view (moved, jungle_moved, passed…) brings the new state.
  if (ev.game && ev.kind !== 'game_started') state.game = ev.game;
  const seat = state.seats?.[ev.seat];
  switch (ev.kind) {
    case 'joined':
      if (seat) Object.assign(seat, { player: ev.player, bot: null, ready: false });
      break;
    case 'left':
      if (seat) Object.assign(seat, { player: null, bot: null, ready: false });
      break;
    case 'bot_added':
      if (seat) Object.assign(seat, { player: null, bot: ev.bot, ready: true });
      break;
    case 'ready':
      if (seat) seat.ready = ev.ready;
      break;
    case 'spectators':
      state.spectators = ev.count;
      break;
    case 'game_started':
      state.status = 'playing';
      state.ended = false;
      state.commitment = ev.commitment;
      state.seed = null;
      state.result = null;
      state.game = ev.game;
      (ev.colours || []).forEach((c, i) => { if (state.seats[i]) state.seats[i].colour = c; });
      // A new game: nobody is out of it yet (one who resigned the last game plays this one).
      for (const seat of state.seats || []) Object.assign(seat, { out: null, autoplay: false });
      break;
    case 'turn':
      state.turn = { seat: ev.seat, need: ev.need, deadline: ev.deadline, seconds: ev.seconds };
      if (state.game && state.game.kind === 'flight') {
        state.game.to_move = ev.seat;
        state.game.need = ev.need;
        if (ev.need === 'roll') state.game.moves = [];
      }
      break;
    case 'rolled':
      if (state.game) {
        state.game.die = ev.value;
        state.game.moves = ev.moves || [];
        state.game.to_move = ev.seat;
        state.game.need = ev.moves && ev.moves.length ? 'move' : 'roll';
      }
      break;
    case 'moved':
    case 'jungle_moved':
      if (ev.game) state.game = ev.game;
      break;
    case 'autoplay':
      if (seat) seat.autoplay = ev.on;
      break;
    case 'away':
      if (seat) Object.assign(seat, { away_until: ev.until, connected: false });
      break;
    case 'back':
      if (seat) Object.assign(seat, { away_until: null, connected: true });
      break;
    case 'timeout':
      state.timeouts = { ...(state.timeouts || {}), [ev.seat]: ev.count };
      break;
    case 'out':
      if (seat) seat.out = ev.reason;
      break;
    case 'draw_offered':
      state.draw_offer = ev.seat;
      break;
    case 'draw_declined':
      state.draw_offer = null;
      break;
    case 'chat':
      state.chat = [...(state.chat || []), { seat: ev.seat, name: ev.name, text: ev.text, at: ev.at }].slice(-100);
      break;
    case 'game_over':
      // The room is open again for the next game (protocol §5); `ended` keeps the final
      // position on screen next to the seats until the next game starts.
      state.draw_offer = null;
      state.status = 'waiting';
      state.ended = true;
      state.result = ev.result;
      state.seed = ev.result?.seed ?? state.seed;
      state.commitment = ev.result?.commitment ?? state.commitment;
      state.turn = null;
      // The server clears every person's ready mark and auto-play with it (P-REMATCH) and sends
      // no event for that: without this the page offers "Not ready" to a player who is not.
      for (const seat of state.seats || []) Object.assign(seat, { ready: !!seat.bot, autoplay: false, away_until: null });
      // The seat cards show the scores after the game, not before.
      for (const line of ev.result?.players || []) {
        const player = state.seats?.[line.seat]?.player;
        if (player && line.score !== null && line.score !== undefined) Object.assign(player, { score: line.score, level: line.level });
      }
      break;
    case 'closed':
      state.status = 'closed';
      break;
    default:
      break;
  }
  // The next game is practice while a bot sits (P-PRACTICE); a running game keeps what it was.
  if (state.status === 'waiting' && state.seats) state.practice = state.seats.some((x) => !!x.bot);
  return state;
}

/** The room page. */
export class RoomView {
  constructor(app, code, { watch = false } = {}) {
    this.app = app;
    this.code = code;
    this.watch = watch;
    this.state = null;
    this.v = -1;
    this.queue = Promise.resolve();
    this.pendingEvents = 0;
    this.el = h('div', { class: 'room', 'data-room': code });
    // The version the page must have seen before it offers a decision: the room's version when
    // it answered the last join (docs/protocol.md §5, resume). Null while the socket is down.
    this.syncedTo = -1;
    this.unlisten = app.conn.on((msg) => this.onMessage(msg));
    this.unlistenStatus = app.conn.onStatus((status) => {
      if (status === 'open' || this.syncedTo === null) return;
      this.syncedTo = null;
      this.refreshHands();
    });
    this.ticker = setInterval(() => this.tick(), 250);
    this.fair = new FairDicePanel();
  }

  start() {
    if (!this.app.player) {
      this.renderSignIn();
      return;
    }
    mount(this.el, h('p', { class: 'loading' }, t('loading')));
    this.enter();
  }

  destroy() {
    clearInterval(this.ticker);
    this.unlisten();
    this.unlistenStatus();
    this.gameView?.destroy?.();
  }

  /** After a reconnect: re-enter the room from the last version we saw. */
  async resume() {
    if (!this.app.player) {
      this.renderSignIn();
      return;
    }
    await this.enter(true);
  }

  async enter(resume = false) {
    const since = resume && this.v >= 0 ? { since: this.v } : {};
    try {
      if (this.watch) {
        await this.app.conn.send('spectate', { room: this.code, ...since }, { priority: resume });
      } else {
        const res = await this.app.conn.send('join_room', { room: this.code, ...since }, { priority: resume });
        this.mySeatHint = res.seat;
        this.syncedTo = res.v;
        // Nothing was missed: the picture is current now (otherwise the last missed event
        // offers the decision when it is drawn).
        if (this.v >= res.v) this.refreshHands();
      }
    } catch (err) {
      if (err.code === 'room_limit') toast(err.message, 'error');
      if (['no_seat', 'already_playing', 'seat_taken', 'room_limit'].includes(err.code)) {
        this.watch = true;
        await this.app.conn.send('spectate', { room: this.code, ...since }, { priority: resume });
      } else if (err.code === 'no_room') {
        toast(errorText(err, { code: this.code }), 'error');
        location.hash = '#/';
      } else throw err;
    }
  }

  renderSignIn() {
    const nick = h('input', { name: 'nickname', maxlength: 20, placeholder: t('nickname'), id: 'nickname' });
    mount(this.el, h('form', {
      class: 'card narrow', id: 'guest-form',
      onsubmit: async (e) => {
        e.preventDefault();
        if (!nick.value.trim()) return;
        signedIn(await this.app.conn.send('guest', { name: nick.value.trim(), client: CLIENT_ID }));
        this.start();
      },
    }, h('h2', {}, t('room'), ' ', this.code), h('p', {}, t('guest_title')), nick,
    h('button', { class: 'btn btn-primary', type: 'submit' }, t('play_as_guest'))));
  }

  /**
   * Whether the page shows the room as it is: connected, caught up with the version the last
   * join named, and no further events waiting to be drawn (the one being drawn counts itself).
   * The die and the pieces are offered only then: a decision taken on a picture that is behind
   * the game would be refused, or worse, be taken for a different turn.
   */
  current() {
    return this.syncedTo !== null && this.v >= this.syncedTo && this.pendingEvents <= 1;
  }

  /** Draw the game's controls again after `current()` may have changed. */
  refreshHands() {
    if (this.state?.game && this.gameView) this.gameView.update(this.state, this.mySeat());
  }

  /** This player's seat index, or null when watching. */
  mySeat() {
    const me = this.app.player?.id;
    const i = this.state?.seats?.findIndex((x) => x.player && x.player.id === me);
    return i === undefined || i < 0 ? null : i;
  }

  onMessage(msg) {
    if (msg.room !== this.code) return;
    if (msg.type === 'snapshot') {
      this.queue = this.queue.then(() => this.onSnapshot(msg));
    } else if (msg.type === 'event') {
      this.pendingEvents += 1;
      this.queue = this.queue.then(() => this.onEvent(msg)).finally(() => { this.pendingEvents -= 1; });
    }
  }

  onSnapshot(msg) {
    this.state = msg.state;
    if (this.state.draw_offer === undefined) this.state.draw_offer = this.state.game?.draw_offer ?? null;
    normalizeGame(this.state.game);
    this.v = msg.v;
    this.render();
  }

  async onEvent(msg) {
    if (!this.state || msg.v <= this.v) return; // already seen (a resume can overlap)
    if (msg.v > this.v + 1) {
      // A gap: ask for what we missed; the server sends those events or a snapshot.
      await this.enter(true);
      return;
    }
    const ev = msg.event;
    const before = this.state.game ? structuredClone(this.state.game) : null;
    // Catching up (a burst after a resume, or a page slower than the bots): no animations, and
    // the side panel is drawn by the burst's last events only.
    const hurry = this.pendingEvents > 3;
    this.v = msg.v;
    applyEvent(this.state, ev);
    if (ev.kind === 'closed') {
      toast(`${t('room')} ${this.code}: ${ev.reason || 'closed'}`);
      location.hash = '#/';
      return;
    }
    if (ev.kind === 'game_started') {
      this.el.querySelector('.result-overlay')?.remove();
      this.render();
      const colour = this.myColour();
      if (colour) toast(t('you_are', { colour: t(colour) }));
      return;
    }
    if (ev.kind === 'game_over') {
      this.renderMain();
      this.showResult();
      this.refreshScore();
      return;
    }
    if (this.gameView) await this.gameView.onEvent(ev, before, this.state, { hurry });
    if (ev.kind === 'chat') this.renderChat();
    else if (['joined', 'left', 'bot_added', 'ready', 'spectators'].includes(ev.kind)) this.renderMain();
    else if (!hurry) this.renderSide();
  }

  async refreshScore() {
    const me = this.state.result?.players?.find((p) => p.player_id === this.app.player?.id);
    // The server sends the level with the score (docs/protocol.md §5, `game_over`).
    if (me && me.score !== null && me.score !== undefined) {
      updatePlayer({ score: me.score, level: me.level });
    }
  }

  relabel() {
    this.render();
  }

  render() {
    if (!this.state) return;
    this.header = h('div', { class: 'room-header' });
    this.main = h('div', { class: 'room-main-area' });
    this.side = h('aside', { class: 'room-side' });
    for (const part of [this.main, this.side]) part.addEventListener('pointerdown', () => this.holdRedraws());
    this.chatBox = h('section', { class: 'card chat' });
    mount(this.el, this.header, h('div', { class: 'room-body' }, this.main, h('div', { class: 'room-side-col' }, this.side, this.chatBox)));
    this.el.dataset.status = this.state.status;
    this.renderHeader();
    this.renderMain();
    this.renderChat();
    if (this.state.ended && this.state.result) this.showResult();
  }

  renderHeader() {
    const st = this.state;
    const opts = st.options || {};
    mount(this.header,
      h('a', { class: 'btn btn-ghost btn-small', href: '#/', onclick: (e) => this.leave(e) }, '← ', t('leave')),
      h('h1', {}, st.game_kind === 'flight' ? '✈ ' : '🐘 ', t(st.game_kind)),
      h('button', {
        class: 'room-code-btn', type: 'button', title: t('room_code'), id: 'room-code',
        onclick: () => navigator.clipboard?.writeText(st.code).then(() => toast(t('copied'))).catch(() => {}),
      }, `${t('room')} ${st.code}`),
      h('span', { class: `badge badge-${st.ended ? 'finished' : st.status}` }, t(`status_${st.ended ? 'finished' : st.status}`)),
      opts.preset ? h('span', { class: 'chip' }, t(`preset_${opts.preset}`)) : null,
      opts.stake ? h('span', { class: 'chip' }, `${t('stake')} ${opts.stake}`) : null,
      h('span', { class: 'chip' }, `⏱ ${opts.turn_seconds || 20}s`),
      // P-PRACTICE: said before the game starts, not discovered in the result.
      st.practice ? h('span', { class: 'chip chip-practice', id: 'practice-chip', title: t('practice_note') }, t('practice')) : null,
      this.mySeat() === null ? h('span', { class: 'chip chip-watch' }, '👁 ', t('spectating')) : null,
      this.myColourChip(),
      h('span', { class: 'chip', id: 'spectator-count' }, t('spectators', { n: st.spectators || 0 })));
  }

  /** This player's colour in the running game, if any ("red", "blue"…). */
  myColour() {
    const seat = this.mySeat();
    if (seat === null || this.state?.status !== 'playing') return null;
    return this.state.game?.colours?.[seat] ?? this.state.seats[seat]?.colour ?? null;
  }

  /** "You are blue" in the header while a game runs; the board marks the player's pieces. */
  myColourChip() {
    const colour = this.myColour();
    if (colour) this.el.dataset.myColour = colour;
    else delete this.el.dataset.myColour;
    return colour ? h('span', { class: `chip chip-colour c-${colour}`, id: 'my-colour' }, h('span', { class: `dot c-${colour}` }), t('you_are', { colour: t(colour) })) : null;
  }

  renderMain() {
    if (!this.state || this.heldBack('main')) return;
    this.renderHeader();
    this.el.dataset.status = this.state.ended ? 'finished' : this.state.status;
    if (this.state.status === 'waiting' && !(this.state.ended && this.state.game)) {
      this.gameView?.destroy?.();
      this.gameView = null;
      mount(this.main, this.renderSeats());
      this.renderSide();
      return;
    }
    if (!this.gameView || this.gameView.kind !== this.state.game_kind) {
      this.gameView?.destroy?.();
      this.gameView = this.state.game_kind === 'jungle' ? new JungleView(this) : new FlightView(this);
    }
    // After a game: the final position, and under it the seats for the next game.
    if (this.state.status === 'waiting') mount(this.main, this.gameView.el, this.renderSeats());
    else if (this.gameView.el.parentNode !== this.main || this.main.childElementCount !== 1) mount(this.main, this.gameView.el);
    this.gameView.update(this.state, this.mySeat());
    this.renderSide();
  }

  renderSeats() {
    const st = this.state;
    const me = this.mySeat();
    const isHost = st.host === this.app.player?.id;
    const flight = st.game_kind === 'flight';
    // Flight: heuristic, hard, random (protocol §7). Jungle: alpha-beta (the protocol's level) and the
    // hall's other searchers, strongest first.
    const botLevels = flight ? ['heuristic', 'hard', 'random'] : ['alphabeta', 'hard', 'easy', 'greedy', 'random'];
    const cards = st.seats.map((seat, i) => {
      // Flight colours are drawn when the game starts (F-PLAYERS): a seat has none before.
      const colour = flight ? null : (i === 0 ? 'red' : 'yellow');
      const filled = seat.player || seat.bot;
      let body;
      if (seat.player) {
        body = [
          h('div', { class: 'seat-name' }, seat.player.name, seat.player.id === this.app.player?.id ? h('small', {}, ` (${t('you')})`) : null,
            st.host === seat.player.id ? h('span', { class: 'chip chip-host' }, '👑 ', t('host')) : null),
          h('div', { class: 'seat-meta' }, `${t('score')} ${seat.player.score} · Lv ${seat.player.level}`),
          h('div', { class: `seat-ready ${seat.ready ? 'yes' : ''}` }, seat.ready ? `✔ ${t('is_ready')}` : '…'),
        ];
      } else if (seat.bot) {
        body = [
          h('div', { class: 'seat-name' }, '🤖 ', t('bot'), ' · ', t(`bot_${seat.bot}`)),
          h('div', { class: 'seat-ready yes' }, `✔ ${t('is_ready')}`),
          isHost ? h('button', { class: 'btn btn-small', type: 'button', onclick: () => this.cmd('remove_bot', { seat: i }) }, t('remove_bot')) : null,
        ];
      } else {
        const levelSel = h('select', { class: 'bot-level', 'aria-label': t('bot') }, botLevels.map((b) => h('option', { value: b }, t(`bot_${b}`))));
        body = [
          h('div', { class: 'seat-name empty' }, t('empty_seat')),
          h('div', { class: 'row' },
            h('button', { class: 'btn btn-small', type: 'button', onclick: () => this.cmd('take_seat', { seat: i }) }, t('take_seat')),
            isHost ? [levelSel, h('button', {
              class: 'btn btn-small btn-bot', type: 'button', 'data-seat': i,
              onclick: () => this.cmd('add_bot', { seat: i, bot: levelSel.value }),
            }, '🤖 ', t('add_bot'))] : null),
        ];
      }
      return h('div', { class: `seat-card ${colour ? `c-${colour}` : 'c-none'} ${filled ? 'filled' : ''} ${i === me ? 'mine' : ''}`, 'data-seat': i },
        h('div', { class: 'seat-colour' }, colour ? t(colour) : t('seat_n', { n: i + 1 })), body);
    });
    const mine = me !== null ? st.seats[me] : null;
    const last = st.result;
    return h('section', { class: 'card seats-card' },
      h('h2', {}, t('seats'), last ? h('span', { class: 'chip' }, t('next_game')) : null),
      last ? h('div', { class: 'row last-game' },
        h('button', { class: 'btn btn-small', type: 'button', onclick: () => { this.el.querySelector('.result-overlay')?.remove(); this.showResult(); } }, '🏁 ', t('game_over')),
        last.game_id ? h('a', { class: 'btn btn-small', href: `#/replay/${last.game_id}` }, '▶ ', t('view_replay')) : null) : null,
      h('div', { class: `seats seats-${st.seats.length}` }, cards),
      h('div', { class: 'row seats-actions' },
        mine ? h('button', {
          class: `btn ${mine.ready ? '' : 'btn-primary'} btn-big`, type: 'button', id: 'ready-btn',
          onclick: () => this.cmd('ready', { ready: !mine.ready }),
        }, mine.ready ? t('not_ready') : `✔ ${t('ready')}`) : null,
        this.searching(),
        h('p', { class: 'hint' }, t('waiting_for_players'))));
  }

  /** After a quick match: how long the search has run, and a way out (P-QUICK). */
  searching() {
    const quick = this.app.quickMatch;
    if (!quick || quick.code !== this.code || this.state.result || this.state.status !== 'waiting') return null;
    return h('p', { class: 'searching', id: 'searching' },
      h('span', { class: 'searching-text', 'data-since': quick.at }, t('searching', { s: Math.floor((Date.now() - quick.at) / 1000) })),
      ' ',
      h('button', { class: 'btn btn-small', type: 'button', id: 'cancel-search', onclick: (e) => this.leave(e) }, t('cancel')));
  }

  /**
   * Hold the room's redraws while a pointer is pressed on it. A click is a press and a release
   * on the same element, and the seats and the side panel are drawn anew with every event (a
   * bot acts every 600 ms, and so does auto-play; players join a waiting room): a button
   * replaced between the two loses the click. The held redraws run once the click has been
   * dispatched, or after five seconds at most. (The board, the die and the log are not redrawn
   * but updated in place, and animations go on.)
   */
  holdRedraws() {
    this.held = true;
    // One press at a time: a new press drops the listeners and the deadline of the one before.
    this.pressEnd?.abort();
    const pressEnd = new AbortController();
    this.pressEnd = pressEnd;
    const release = () => {
      pressEnd.abort();
      this.held = false;
      const missed = this.missed;
      this.missed = null;
      if (missed) setTimeout(() => (missed.main ? this.renderMain() : this.renderSide()), 0);
    };
    for (const kind of ['pointerup', 'pointercancel']) window.addEventListener(kind, release, { signal: pressEnd.signal });
    const deadline = setTimeout(release, 5000);
    pressEnd.signal.addEventListener('abort', () => clearTimeout(deadline));
  }

  /** Whether redrawing `part` ('main' or 'side') must wait for a press to end (it runs then). */
  heldBack(part) {
    if (!this.held) return false;
    this.missed = { ...this.missed, [part]: true };
    return true;
  }

  renderSide() {
    if (!this.side || !this.state || this.heldBack('side')) return;
    const parts = [];
    if (this.gameView?.dock) parts.push(this.gameView.dock);
    if (this.gameView?.sidePanel) parts.push(this.gameView.sidePanel());
    if (this.state.game_kind !== 'jungle' && (this.state.commitment || this.state.status !== 'waiting')) {
      parts.push(this.fair.render(this.state.commitment, this.state.seed, null, { gameId: this.state.result?.game_id }));
    }
    // How to play stays the same element, so a panel opened mid-game survives redraws.
    const kind = this.state.game_kind === 'jungle' ? 'jungle' : 'flight';
    if (this.rules?.game !== kind) this.rules = new RulesPanel(kind);
    this.rules.refresh();
    parts.push(this.rules.el);
    mount(this.side, parts);
  }

  renderChat() {
    if (!this.chatBox) return;
    const list = h('div', { class: 'chat-lines', id: 'chat-lines' }, (this.state.chat || []).map((c) => h('div', { class: 'chat-line' },
      h('b', {}, c.name || '?', ': '), h('span', {}, phraseText(c.text)))));
    const input = h('input', { name: 'chat', maxlength: 200, placeholder: t('chat_placeholder'), autocomplete: 'off' });
    const phrases = t('phrases');
    mount(this.chatBox,
      h('h2', {}, '💬 ', t('chat')),
      list,
      this.mySeat() !== null || this.state ? h('div', { class: 'phrases' }, phrases.map((p, i) => h('button', {
        class: 'btn btn-small btn-ghost', type: 'button', onclick: () => this.cmd('chat', { phrase: i }),
      }, p))) : null,
      h('form', {
        class: 'chat-form',
        onsubmit: (e) => {
          e.preventDefault();
          const text = input.value.trim();
          if (!text) return;
          input.value = '';
          this.cmd('chat', { text });
        },
      }, input, h('button', { class: 'btn btn-small', type: 'submit' }, t('say'))));
    list.scrollTop = list.scrollHeight;
  }

  /** The result dialog: a headline for this player, everyone's rank, planes home, captures,
   * score and rating changes, and Play again / Replay / Back to hall (P-REMATCH). */
  showResult() {
    const r = this.state.result;
    if (!r || this.el.querySelector('.result-overlay')) return;
    const me = this.app.player?.id;
    const flight = this.state.game_kind === 'flight';
    const rows = [...r.players].sort((a, b) => a.rank - b.rank);
    const mine = r.players.find((p) => p.player_id && p.player_id === me);
    let headline = t('game_over');
    if (mine) {
      const drawn = r.players.every((p) => p.rank === 1);
      if (drawn) headline = t('headline_draw');
      else if (mine.rank === 1) headline = t('headline_win');
      else if (r.players.length > 2) headline = t('headline_place', { n: mine.rank });
      else headline = t('headline_loss');
    }
    const name = (p) => (p.player_id ? playerLink(p.name, p.player_id) : botName(p.name.replace(/^bot:/, '')));
    const rating = (p) => {
      if (!p.rating) return '—';
      const change = p.rating.after.rating - p.rating.before;
      const shown = (v) => (flight ? v.toFixed(1) : Math.round(v));
      return `${ratingText(this.state.game_kind, p.rating.after)} (${change >= 0 ? '+' : '−'}${shown(Math.abs(change))})`;
    };
    const again = this.mySeat() !== null ? h('button', {
      class: 'btn btn-primary', type: 'button', id: 'play-again',
      onclick: async () => {
        overlay.remove();
        await this.cmd('ready', { ready: true });
      },
    }, '↻ ', t('play_again')) : null;
    const overlay = h('div', { class: 'result-overlay', role: 'dialog', 'aria-modal': 'true', id: 'result', 'aria-labelledby': 'result-headline' },
      h('div', { class: 'result-card card' },
        h('h2', { id: 'result-headline' }, mine?.rank === 1 ? '🏆 ' : '🏁 ', headline),
        h('p', { class: 'result-reason' }, t(`reason_${r.reason}`)),
        r.practice ? h('p', { class: 'result-practice' }, t('practice_note')) : null,
        h('table', { class: 'result-table' },
          h('thead', {}, h('tr', {}, h('th', {}, t('rank')), h('th', {}, t('player')),
            flight ? h('th', {}, t('planes_home')) : null,
            flight ? h('th', {}, t('captures_label')) : null,
            h('th', {}, t('delta')), h('th', {}, t('rating')))),
          h('tbody', {}, rows.map((p) => h('tr', { class: p.player_id && p.player_id === me ? 'me-row' : '' },
            h('td', {}, p.rank === 1 ? '🥇' : p.rank === 2 ? '🥈' : p.rank === 3 ? '🥉' : p.rank),
            h('td', {}, h('span', { class: `dot c-${this.state.seats[p.seat]?.colour || ''}` }), name(p)),
            flight ? h('td', {}, `${p.finished ?? 0}`) : null,
            flight ? h('td', {}, `${p.captures ?? 0}`) : null,
            h('td', { class: `delta ${p.delta >= 0 ? 'up' : 'down'}` }, p.delta >= 0 ? `+${p.delta}` : p.delta),
            h('td', { class: 'result-rating' }, rating(p)))))),
        h('div', { class: 'row' },
          again,
          r.game_id ? h('a', { class: 'btn', href: `#/replay/${r.game_id}`, id: 'view-replay' }, '▶ ', t('view_replay')) : null,
          h('a', { class: 'btn', href: '#/' }, t('back_to_hall')),
          h('button', { class: 'btn btn-ghost', type: 'button', 'aria-label': t('close'), onclick: () => overlay.remove() }, '✕'))));
    this.el.append(overlay);
  }

  tick() {
    this.gameView?.tick?.();
    for (const el of this.el.querySelectorAll('.searching-text[data-since]')) {
      el.textContent = t('searching', { s: Math.floor((Date.now() - Number(el.dataset.since)) / 1000) });
    }
    for (const el of this.el.querySelectorAll('[data-until]')) {
      el.textContent = t('away', { s: secondsLeft(Number(el.dataset.until)) });
    }
  }

  /** Send a room command; errors show as a toast (and change nothing, §2). */
  async cmd(type, fields = {}) {
    try {
      return await this.app.conn.send(type, { room: this.code, ...fields });
    } catch (err) {
      toast(errorText(err), 'error');
      return null;
    }
  }

  async leave(e) {
    e.preventDefault();
    const playing = this.state?.status === 'playing' && this.mySeat() !== null && !this.state.seats[this.mySeat()].out;
    if (playing) {
      if (!window.confirm(t('escape_confirm'))) return;
      await this.cmd('leave_room', { escape: true });
    } else if (this.state) {
      await this.cmd('leave_room');
    }
    location.hash = '#/';
  }
}
