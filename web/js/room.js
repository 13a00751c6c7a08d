// A room: its seats, ready marks, bots, chat and watchers, the versioned event stream with
// resume after reconnects (docs/protocol.md §5), and the game view of the running game.

import { h, toast } from './dom.js';
import { patch, v, keep } from './vdom.js';
import { t, phraseText } from './i18n.js';
import { errorText } from './errors.js';
import { CLIENT_ID } from './net.js';
import { signedIn, updatePlayer } from './session.js';
import { FlightView } from './flight/view.js';
import { JungleView } from './jungle/view.js';
import { FairDicePanel } from './fairdice.js';
import { RulesPanel } from './rules.js';
import { playerLink, ratingText, resultName } from './games.js';
import { botMark, guestMark, challengeButton, chatHidden } from './challenge.js';
import { normalizeGame } from './gameview.js';
import { Guide, guidedDone, guidedRoom } from './guide.js';
import { arenaOfRoom } from './arena.js';
import { reviewLink } from './review.js';

/** How long a chat line stays as a bubble beside the board. */
const BUBBLE_MS = 8000;

/** Where a page keeps its running game over a reload (this tab only). */
const SAVED_KEY = 'hangar.room';

/** What the keyboard can reach inside a dialog. */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Apply one room event to the room state (everything but animation). */
export function applyEvent(state, ev) {
  if (ev.game) normalizeGame(ev.game);
  // Any event that carries the game view (moved, jungle_moved, passed…) brings the new state.
  if (ev.game && ev.kind !== 'game_started') state.game = ev.game;
  const seat = state.seats?.[ev.seat];
  switch (ev.kind) {
    case 'joined':
      if (seat) Object.assign(seat, { player: ev.player, bot: null, ready: false, gone: null });
      break;
    case 'left':
      // Who left a game, running or just over, is still named in its log and players panel.
      if (seat) Object.assign(seat, { gone: state.status === 'playing' || state.ended ? seat.player?.name ?? seat.gone : null, player: null, bot: null, ready: false });
      break;
    case 'bot_added':
      if (seat) Object.assign(seat, { player: null, bot: ev.bot, ready: true });
      break;
    case 'ready':
      if (seat) seat.ready = ev.ready;
      break;
    case 'pair_practice':
      state.pair_practice = ev.on;
      break;
    case 'quick_bots':
      // When bots fill a quick match's seats (null: the seated wait for people), P-QUICK.
      state.quick_bots_at = ev.at;
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
  // The next game is practice while a bot sits (P-PRACTICE) or while the people seated have
  // played their day's scored games together (P-ABORT, `pair_practice`; a snapshot says it as
  // `practice` with no bot); a running game keeps what it was.
  if (state.status === 'waiting' && state.seats) {
    const bots = state.seats.some((x) => !!x.bot);
    if (state.pair_practice === undefined) state.pair_practice = !!state.practice && !bots;
    state.practice = !!state.pair_practice || bots;
  }
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
    // The drawing patched by `redraw`; the result dialog is added beside it.
    this.vnode = this.el.appendChild(h('div'));
    /** The bot level chosen on each empty seat (the host's choice, kept across redraws). */
    this.botLevel = {};
    // The hints of the guided first game, in the room the hall opened for it.
    this.guide = guidedRoom() === code && !guidedDone() ? new Guide(() => { this.guide = null; this.redraw(); }) : null;
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
    /** Chat lines of others shown beside the board for a few seconds, and those not yet read. */
    this.bubbles = [];
    this.unread = 0;
    // A reload mid-game is a reconnection: the room as this tab last drew it, its version and
    // its game log, kept over the reload (`keep`), then resumed from that version (`resumeSaved`).
    this.saved = this.takeSaved();
    this.saveRoom = () => this.keep();
    window.addEventListener('pagehide', this.saveRoom);
  }

  /** What this tab kept of this room before a reload, once; null when nothing. */
  takeSaved() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(SAVED_KEY) || 'null');
      sessionStorage.removeItem(SAVED_KEY);
      return saved?.room === this.code && saved.state?.status === 'playing' ? saved : null;
    } catch {
      return null;
    }
  }

  /**
   * Before the page goes (a reload, at any moment: mid-animation too): the running game as
   * last drawn and logged (`settle`), its version and log events; the events after it come
   * again from the room when the page resumes from that version.
   */
  keep() {
    const settled = this.settled;
    if (!settled) return;
    try {
      sessionStorage.setItem(SAVED_KEY, JSON.stringify({ room: this.code, ...settled }));
    } catch {
      // A full storage makes the reload start from a snapshot, with an empty log.
    }
  }

  /**
   * Draw the room as this tab kept it and write its log again; `enter(true)` then asks for the
   * events since (the server sends them, or a snapshot when it no longer has them all).
   */
  resumeSaved() {
    const saved = this.saved;
    this.saved = null;
    this.state = saved.state;
    normalizeGame(this.state.game);
    this.v = saved.v;
    this.render();
    this.gameView?.restore?.(saved.events);
    this.settle();
    this.refreshHands();
  }

  start() {
    this.signIn = !this.app.player;
    this.redraw();
    if (this.signIn) return;
    if (this.saved) {
      this.resumeSaved();
      this.enter(true);
    } else {
      this.enter();
    }
  }

  destroy() {
    window.removeEventListener('pagehide', this.saveRoom);
    clearInterval(this.ticker);
    this.unlisten();
    this.unlistenStatus();
    this.gameView?.destroy?.();
  }

  /** After a reconnect: re-enter the room from the last version we saw. */
  async resume() {
    if (!this.app.player) {
      this.start();
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
        // An accepted challenge's room: into the seat held for this player (P-CHALLENGE).
        const held = this.app.challengeRoom?.room === this.code ? { seat: this.app.challengeRoom.seat } : {};
        const res = await this.app.conn.send('join_room', { room: this.code, ...held, ...since }, { priority: resume });
        this.mySeatHint = res.seat;
        this.syncedTo = res.v;
        // Nothing was missed: the picture is current now (otherwise the last missed event
        // offers the decision when it is drawn).
        if (this.v >= res.v) this.refreshHands();
      }
    } catch (err) {
      if (err.code === 'room_limit') toast(errorText(err), 'error');
      if (['no_seat', 'already_playing', 'seat_taken', 'room_limit'].includes(err.code)) {
        this.watch = true;
        await this.app.conn.send('spectate', { room: this.code, ...since }, { priority: resume });
      } else if (err.code === 'no_room') {
        toast(errorText(err, { code: this.code }), 'error');
        location.hash = '#/';
      } else throw err;
    }
  }

  /** A visitor who is not signed in picks a guest name first. */
  signInView() {
    return v('div.room-page', {}, v('form', {
      class: 'card narrow', id: 'guest-form',
      onsubmit: async (e) => {
        e.preventDefault();
        const name = e.target.elements.nickname.value.trim();
        if (!name) return;
        signedIn(await this.app.conn.send('guest', { name, client: CLIENT_ID }));
        this.start();
      },
    }, v('h2', {}, t('room'), ' ', this.code), v('p', {}, t('guest_title')),
    v('input', { name: 'nickname', maxlength: 20, placeholder: t('nickname'), id: 'nickname' }),
    v('button', { class: 'btn btn-primary', type: 'submit' }, t('play_as_guest'))));
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
      this.queue = this.queue.then(() => this.onSnapshot(msg)).then(() => this.settle());
    } else if (msg.type === 'event') {
      this.pendingEvents += 1;
      this.queue = this.queue.then(() => this.onEvent(msg)).then(() => this.settle()).finally(() => { this.pendingEvents -= 1; });
    }
  }

  /**
   * After each snapshot or event is drawn and logged: the running game at this version with
   * its log, as a reload keeps it (`keep`). Not the state of the moment: while a move animates
   * the state is one event ahead of the log, and more events may wait behind it.
   */
  settle() {
    if (this.state?.status !== 'playing') {
      this.settled = null;
      return;
    }
    this.settled = { v: this.v, state: structuredClone(this.state), events: [...(this.gameView?.events ?? [])] };
  }

  onSnapshot(msg) {
    // A snapshot of another game than the one drawn (kept over a reload) starts a new log.
    const drawn = this.state?.commitment;
    this.state = msg.state;
    if (this.state.draw_offer === undefined) this.state.draw_offer = this.state.game?.draw_offer ?? null;
    normalizeGame(this.state.game);
    this.v = msg.v;
    if (drawn !== undefined && drawn !== this.state.commitment) this.gameView?.newGame?.();
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
      // An arena's room closes as soon as its game is over: the result stays until the player
      // dismisses it (or the arena's next pairing opens the next room), then the hall (P-ARENA).
      if (this.el.querySelector('.result-overlay')) {
        this.closedBehindResult = true;
        return;
      }
      this.leaveClosed();
      return;
    }
    if (ev.kind === 'game_started') {
      // A rematch in the same view: the last game's log goes.
      this.gameView?.newGame?.();
      // "You are Red" is the header's chip, lit up as the game starts: a toast would lie over
      // the board's edge and a phone's move input.
      this.render();
      return;
    }
    if (ev.kind === 'game_over') {
      this.syncGame();
      this.redraw();
      this.showResult();
      this.refreshScore();
      return;
    }
    if (ev.kind === 'chat') this.heard(ev);
    // P-REMATCH: a person ready again after the game is an offer to play again, said in the dialog.
    if (['ready', 'joined', 'left'].includes(ev.kind)) this.updateRematch();
    if (this.gameView) await this.gameView.onEvent(ev, before, this.state, { hurry });
    this.guide?.onEvent(ev, this.mySeat(), before);
    if (['joined', 'left', 'bot_added', 'ready', 'spectators', 'pair_practice'].includes(ev.kind)) this.syncGame();
    if (!hurry || ev.kind === 'chat') this.redraw();
  }

  async refreshScore() {
    const me = this.state.result?.players?.find((p) => p.player_id === this.app.player?.id);
    // The server sends the level with the score (docs/protocol.md §5, `game_over`).
    if (me && me.score !== null && me.score !== undefined) {
      updatePlayer({ score: me.score, level: me.level });
    }
  }

  relabel() {
    this.fairKey = null;
    this.syncGame();
    this.redraw();
  }

  /** After a snapshot or a new game: the game view brought to the state, the page patched, the result dialog shown or gone. */
  render() {
    if (!this.state) return;
    this.syncGame();
    this.redraw();
    if (this.state.ended && this.state.result) this.showResult();
    else this.closeResult({ refocus: false });
  }

  /**
   * Patch the page to the room's state. Only what changed is touched: an element under a press
   * or holding the focus stays the same element (vdom.js).
   */
  redraw() {
    this.vnode = patch(this.vnode, this.view());
  }

  /** The room as virtual nodes: sign-in, loading, or the header, the game or seats, the side. */
  view() {
    if (this.signIn) return this.signInView();
    if (!this.state) return v('div.room-page', {}, v('p', { class: 'loading' }, t('loading')));
    return v('div.room-page', {},
      v('div', { class: 'room-header' }, this.headerView()),
      v('div', { class: 'room-body' },
        v('div', { class: 'room-main-area' }, this.mainView(), this.bubblesView()),
        v('div', { class: 'room-side-col' },
          v('aside', { class: 'room-side' }, this.sideView()),
          v('section', { class: 'card chat' }, this.chatView()))));
  }

  headerView() {
    const st = this.state;
    const opts = st.options || {};
    this.el.dataset.status = st.ended ? 'finished' : st.status;
    return [
      v('a', { class: 'btn btn-ghost btn-small', href: '#/', onclick: (e) => this.leave(e) }, '← ', t('leave')),
      v('h1', {}, st.game_kind === 'flight' ? '✈ ' : '🐘 ', t(st.game_kind)),
      v('button', {
        class: 'room-code-btn', type: 'button', title: t('room_code'), id: 'room-code',
        onclick: () => navigator.clipboard?.writeText(st.code).then(() => toast(t('copied'))).catch(() => {}),
      }, `${t('room')} ${st.code}`),
      v('span', { class: `badge badge-${st.ended ? 'finished' : st.status}` }, t(`status_${st.ended ? 'finished' : st.status}`)),
      opts.preset ? v('span', { class: 'chip' }, t(`preset_${opts.preset}`)) : null,
      opts.stake ? v('span', { class: 'chip' }, `${t('stake')} ${opts.stake}`) : null,
      v('span', { class: 'chip' }, `⏱ ${opts.turn_seconds || 20}s`),
      // P-PRACTICE: said before the game starts, not discovered in the result.
      st.practice ? v('span', { class: 'chip chip-practice', id: 'practice-chip', title: this.practiceNote() }, t('practice')) : null,
      this.mySeat() === null ? v('span', { class: 'chip chip-watch' }, '👁 ', t('spectating')) : null,
      this.myColourChip(),
      v('span', { class: 'chip', id: 'spectator-count' }, t('spectators', { n: st.spectators || 0 })),
    ];
  }

  /** Why the game (running, or the next) is practice: a bot sits, or the pair's limit (P-ABORT, P-ARENA). */
  practiceNote() {
    if (this.state.seats?.some((x) => !!x.bot)) return t('practice_note');
    return t(this.arena() ? 'arena_pair_practice_note' : 'pair_practice_note');
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
    return colour ? v('span', { class: `chip chip-colour c-${colour}`, id: 'my-colour' }, v('span', { class: `dot c-${colour}` }), t('you_are', { colour: t(colour) })) : null;
  }

  /** Whether the room shows seats only (no game running, and no final position to keep). */
  seatsOnly() {
    return this.state.status === 'waiting' && !(this.state.ended && this.state.game);
  }

  /**
   * Make the game view match the room (none while only seats show, one of the room's kind
   * otherwise) and bring its board, die and controls to the state.
   */
  syncGame() {
    if (!this.state) return;
    if (this.seatsOnly()) {
      this.gameView?.destroy?.();
      this.gameView = null;
      return;
    }
    if (!this.gameView || this.gameView.kind !== this.state.game_kind) {
      this.gameView?.destroy?.();
      this.gameView = this.state.game_kind === 'jungle' ? new JungleView(this.gameHost()) : new FlightView(this.gameHost());
    }
    this.gameView.update(this.state, this.mySeat());
  }

  /**
   * What a game view may know of its room: the state, this player's seat, whether the picture
   * is current, the animation speed, and the ways to act (send a command, redraw the room).
   */
  gameHost() {
    return {
      state: () => this.state,
      mySeat: () => this.mySeat(),
      current: () => this.current(),
      me: () => this.app.player?.id ?? null,
      speed: () => Number(this.app.anim) || 1,
      cmd: (type, fields) => this.cmd(type, fields),
      redraw: () => this.redraw(),
    };
  }

  mainView() {
    if (this.seatsOnly() || !this.gameView) return this.seatsView();
    // After a game: the final position, and under it the seats for the next game.
    return [keep(this.gameView.el), this.state.status === 'waiting' ? this.seatsView() : null];
  }

  seatsView() {
    const st = this.state;
    const me = this.mySeat();
    const isHost = st.host === this.app.player?.id;
    const flight = st.game_kind === 'flight';
    // The hall's levels, weakest first, and the one it offers first (GET /api/options).
    const { bots: botLevels, default_bot: defaultLevel } = this.app.options[flight ? 'flight' : 'jungle'];
    const cards = st.seats.map((seat, i) => {
      // Flight colours are drawn when the game starts (F-PLAYERS): a seat has none before.
      const colour = flight ? null : (i === 0 ? 'red' : 'yellow');
      const filled = seat.player || seat.bot;
      let body;
      if (seat.player) {
        body = [
          v('div', { class: 'seat-name' }, seat.player.name,
            seat.player.bot ? v('span', { class: 'bot-mark', title: t('bot_account') }, v('span', { 'aria-hidden': 'true' }, '🤖'), v('span', { class: 'sr-only' }, ` (${t('bot_account')})`)) : null,
            seat.player.guest ? v('small', { class: 'guest-mark' }, ` (${t('guest')})`) : null,
            seat.player.id === this.app.player?.id ? v('small', {}, ` (${t('you')})`) : null,
            st.host === seat.player.id ? v('span', { class: 'chip chip-host' }, '👑 ', t('host')) : null),
          v('div', { class: 'seat-meta' }, `${t('score')} ${seat.player.score} · Lv ${seat.player.level}`),
          v('div', { class: `seat-ready ${seat.ready ? 'yes' : ''}` }, seat.ready ? `✔ ${t('is_ready')}` : '…'),
          // The host frees a seat held by someone who does not ready.
          isHost && !seat.ready && seat.player.id !== this.app.player?.id
            ? v('button', { class: 'btn btn-small btn-kick', type: 'button', onclick: () => this.cmd('kick', { seat: i }) }, t('kick'))
            : null,
        ];
      } else if (seat.bot) {
        body = [
          v('div', { class: 'seat-name' }, '🤖 ', t('bot'), ' · ', t(`bot_${seat.bot}`)),
          v('div', { class: 'seat-ready yes' }, `✔ ${t('is_ready')}`),
          isHost ? v('button', { class: 'btn btn-small', type: 'button', onclick: () => this.cmd('remove_bot', { seat: i }) }, t('remove_bot')) : null,
        ];
      } else {
        // The level chosen for this seat lives in the view, so that a redraw keeps it.
        const level = this.botLevel[i] ?? defaultLevel;
        body = [
          v('div', { class: 'seat-name empty' }, t('empty_seat')),
          v('div', { class: 'row' },
            v('button', { class: 'btn btn-small', type: 'button', onclick: () => this.cmd('take_seat', { seat: i }) }, t('take_seat')),
            isHost ? [
              v('select', { class: 'bot-level', 'aria-label': t('bot'), value: level, onchange: (e) => { this.botLevel[i] = e.target.value; } },
                botLevels.map((b) => v('option', { value: b, selected: b === level }, t(`bot_${b}`)))),
              v('button', {
                class: 'btn btn-small btn-bot', type: 'button', 'data-seat': i,
                onclick: () => this.cmd('add_bot', { seat: i, bot: this.botLevel[i] ?? defaultLevel }),
              }, '🤖 ', t('add_bot'))] : null),
        ];
      }
      return v('div', { class: `seat-card ${colour ? `c-${colour}` : 'c-none'} ${filled ? 'filled' : ''} ${i === me ? 'mine' : ''}`, 'data-seat': i, key: `seat-${i}` },
        v('div', { class: 'seat-colour' }, colour ? t(colour) : t('seat_n', { n: i + 1 })), body);
    });
    const mine = me !== null ? st.seats[me] : null;
    const last = st.result;
    // An accepted challenge starts as its players sit down: nobody readies (P-CHALLENGE).
    const challengeStart = !last && this.app.challengeRoom?.room === this.code;
    return v('section', { class: 'card seats-card', key: 'seats' },
      v('h2', {}, t('seats'), last ? v('span', { class: 'chip' }, t('next_game')) : null),
      last ? v('div', { class: 'row last-game' },
        v('button', { class: 'btn btn-small', type: 'button', id: 'show-result', onclick: () => { this.closeResult({ refocus: false }); this.showResult(); } }, '🏁 ', t('game_over')),
        last.game_id ? v('a', { class: 'btn btn-small', href: `#/replay/${last.game_id}` }, '▶ ', t('view_replay')) : null) : null,
      // Ready above the seats: the seats grow as people join, and would move it under a press.
      v('div', { class: 'row seats-actions' },
        mine && !challengeStart ? v('button', {
          class: `btn ${mine.ready ? '' : 'btn-primary'} btn-big`, type: 'button', id: 'ready-btn',
          onclick: () => this.cmd('ready', { ready: !mine.ready }),
        }, mine.ready ? t('not_ready') : `✔ ${t('ready')}`) : null,
        this.searching(),
        v('p', { class: 'hint' }, t(challengeStart ? 'challenge_starts' : 'waiting_for_players'))),
      v('div', { class: `seats seats-${st.seats.length}` }, cards));
  }

  /**
   * After a quick match: how long the search has run, when bots join (a practice game, said
   * before it starts) with a way to wait for people instead, and a way out (P-QUICK).
   */
  searching() {
    const quick = this.app.quickMatch;
    if (!quick || quick.code !== this.code || this.state.result || this.state.status !== 'waiting') return null;
    const at = this.state.quick_bots_at;
    const bots = at ? t('bots_in', { s: Math.max(0, Math.ceil((at - Date.now()) / 1000)) }) : t('people_only');
    return v('div', { class: 'searching', id: 'searching' },
      v('p', { class: 'searching-text', 'data-since': quick.at }, t('searching', { s: Math.floor((Date.now() - quick.at) / 1000) })),
      v('p', { class: 'searching-bots', id: 'searching-bots' }, bots),
      v('div', { class: 'row' },
        at ? v('button', { class: 'btn btn-small', type: 'button', id: 'wait-people', onclick: () => this.cmd('wait_for_people') }, t('wait_for_people')) : null,
        v('button', { class: 'btn btn-small', type: 'button', id: 'cancel-search', onclick: (e) => this.leave(e) }, t('cancel'))));
  }

  sideView() {
    const parts = [];
    if (this.guide) parts.push(this.guide.view(this.state, this.mySeat()));
    if (this.gameView?.dock) parts.push(keep(this.gameView.dock));
    if (this.gameView?.sidePanel) parts.push(this.gameView.sidePanel());
    if (this.state.game_kind !== 'jungle' && (this.state.commitment || this.state.status !== 'waiting')) {
      parts.push(keep(this.fairPanel()));
    }
    // How to play stays the same element, so a panel opened mid-game survives redraws.
    const kind = this.state.game_kind === 'jungle' ? 'jungle' : 'flight';
    if (this.rules?.game !== kind) this.rules = new RulesPanel(kind);
    this.rules.refresh();
    parts.push(keep(this.rules.el));
    return parts;
  }

  /**
   * The fair-dice panel, made anew only when what it shows changes: it fills in its verdicts
   * when their checks finish, so it is kept as an element, not patched.
   */
  fairPanel() {
    const st = this.state;
    const gameId = st.result?.game_id ?? null;
    const key = `${st.commitment}|${st.seed}|${gameId}`;
    if (this.fairKey !== key || !this.fairEl) {
      this.fairKey = key;
      // Folded: the proof is one click away and the chat is not pushed below the fold.
      this.fairEl = this.fair.render(st.commitment, st.seed, null, { gameId, fold: true, open: !!this.fairOpen });
      this.fairEl.addEventListener('toggle', (e) => { this.fairOpen = e.target.open; });
    }
    return this.fairEl;
  }

  /**
   * A chat line of someone else (P-CHAT): a bubble beside the board and one more unread line,
   * unless the player is typing in the chat already.
   */
  heard(ev) {
    const me = this.mySeat();
    const mine = ev.seat !== null && ev.seat !== undefined ? ev.seat === me : ev.name === this.app.player?.name;
    // A blocked player's chat is not shown (P-CHALLENGE).
    if (mine || chatHidden(this.app, this.state, ev)) return;
    const typing = document.activeElement?.closest?.('.chat');
    if (!typing) this.unread += 1;
    this.bubbles = [...this.bubbles, { name: ev.name || '?', text: ev.text, until: Date.now() + BUBBLE_MS, id: ev.at ?? Date.now() }].slice(-3);
  }

  /**
   * While a game shows: the latest chat lines as bubbles and a chat button with the unread
   * count, fixed beside the board, so that chat reaches a player whose chat box is below the fold.
   */
  bubblesView() {
    if (!this.gameView) return null;
    const now = Date.now();
    this.bubbles = this.bubbles.filter((b) => b.until > now);
    return v('div', { class: 'chat-float' },
      v('div', { class: 'chat-bubbles', role: 'status' }, this.bubbles.map((b) => v('div', { class: 'chat-bubble', key: `b-${b.id}-${b.name}` },
        v('b', {}, b.name, ': '), phraseText(b.text)))),
      v('button', {
        class: 'btn chat-jump', type: 'button', id: 'chat-jump',
        'aria-label': this.unread ? t('chat_unread', { n: this.unread }) : t('chat'),
        onclick: () => this.openChat(),
      }, '💬', this.unread ? v('span', { class: 'unread-badge', 'aria-hidden': 'true' }, String(this.unread)) : null));
  }

  /** The chat box brought into view with the keyboard in its input; its lines count as read. */
  openChat() {
    this.unread = 0;
    this.bubbles = [];
    const box = this.el.querySelector('.chat');
    box?.scrollIntoView({ block: 'nearest' });
    box?.querySelector('input[name=chat]')?.focus();
    this.redraw();
  }

  chatView() {
    const phrases = t('phrases');
    // New lines scroll the list to its end.
    const scroll = (node) => { node.elm.scrollTop = node.elm.scrollHeight; };
    const read = () => { if (this.unread) { this.unread = 0; this.redraw(); } };
    return [
      v('h2', {}, '💬 ', t('chat')),
      v('div', {
        class: 'chat-lines', id: 'chat-lines',
        hook: { insert: scroll, postpatch: (old, node) => { if (old.children?.length !== node.children?.length) scroll(node); } },
      }, (this.state.chat || []).filter((c) => !chatHidden(this.app, this.state, c)).map((c) => v('div', { class: 'chat-line' }, v('b', {}, c.name || '?', this.state.seats?.[c.seat]?.player?.guest ? ` (${t('guest')})` : '', ': '), v('span', {}, phraseText(c.text))))),
      v('div', { class: 'phrases' }, phrases.map((p, i) => v('button', {
        class: 'btn btn-small btn-ghost', type: 'button', onclick: () => this.cmd('chat', { phrase: i }),
      }, p))),
      v('form', {
        class: 'chat-form',
        onsubmit: (e) => {
          e.preventDefault();
          const input = e.target.elements.chat;
          const text = input.value.trim();
          if (!text) return;
          input.value = '';
          this.cmd('chat', { text });
        },
      }, v('input', { name: 'chat', maxlength: 200, placeholder: t('chat_placeholder'), autocomplete: 'off', 'aria-label': t('chat'), onfocus: read }),
      v('button', { class: 'btn btn-small', type: 'submit' }, t('say'))),
    ];
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
    const name = (p) => (p.player_id ? [playerLink(p.name, p.player_id), botMark(p), guestMark(p)] : resultName(p));
    const rating = (p) => {
      if (!p.rating) return '—';
      const change = p.rating.after.rating - p.rating.before;
      const shown = (v) => (flight ? v.toFixed(1) : Math.round(v));
      return `${ratingText(this.state.game_kind, p.rating.after)} (${change >= 0 ? '+' : '−'}${shown(Math.abs(change))})`;
    };
    const again = this.mySeat() !== null ? h('button', {
      class: 'btn btn-primary', type: 'button', id: 'play-again',
      onclick: async () => {
        this.closeResult();
        await this.cmd('ready', { ready: true });
      },
    }, '↻ ', t('play_again')) : null;
    // P-CHALLENGE: the opponent of a game of two, challenged again from here.
    const rival = mine && r.players.length === 2 ? r.players.find((p) => p !== mine && p.player_id) : null;
    const challengeAgain = rival ? challengeButton(this.app, { id: rival.player_id, name: rival.name, guest: rival.guest, bot: rival.bot }, this.state.game_kind, { again: true }) : null;
    const overlay = h('div', { class: 'result-overlay', role: 'dialog', 'aria-modal': 'true', id: 'result', 'aria-labelledby': 'result-headline' },
      h('div', { class: 'result-card card' },
        h('h2', { id: 'result-headline' }, mine?.rank === 1 ? '🏆 ' : '🏁 ', headline),
        h('p', { class: 'result-reason' }, t(`reason_${r.reason}`)),
        r.practice ? h('p', { class: 'result-practice', id: 'result-practice' }, this.practiceWhy(r)) : null,
        r.aborted ? h('p', { class: 'result-practice', id: 'result-aborted' }, t('aborted_note')) : null,
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
        h('p', { class: 'rematch-offer', id: 'rematch-offer', 'aria-live': 'polite' }),
        h('div', { class: 'result-actions' },
          again,
          challengeAgain,
          r.game_id ? h('a', { class: 'btn', href: `#/replay/${r.game_id}`, id: 'view-replay' }, '▶ ', t('view_replay')) : null,
          r.game_id ? reviewLink(r.game_id, { id: 'view-review' }) : null,
          h('a', { class: 'btn', href: '#/' }, t('back_to_hall'))),
        h('button', { class: 'btn btn-ghost result-close', type: 'button', 'aria-label': t('close'), onclick: () => this.closeResult() }, '✕')));
    // A real modal: the keyboard goes in, stays in, Escape closes it, and focus goes back to
    // where it was (or to the button that opens the dialog again).
    overlay.addEventListener('keydown', (e) => this.resultKey(e, overlay));
    overlay.addEventListener('click', (e) => { if (e.target === overlay) this.closeResult(); });
    const before = document.activeElement;
    this.resultReturn = before && before !== document.body && !overlay.contains(before) ? before : null;
    this.el.append(overlay);
    this.updateRematch();
    (overlay.querySelector('#play-again') || overlay.querySelector(FOCUSABLE))?.focus();
  }

  /**
   * Why a finished game was practice, in the page's words: a hall's bot sat in it
   * (P-PRACTICE), or its people had played their counted games together — 3 in 24 hours
   * (P-ABORT), or 3 in this arena, whose points it then does not pay (P-ARENA). A bot is named
   * only when one sat.
   */
  practiceWhy(result) {
    if (result.players.some((p) => !p.player_id)) return t('practice_note');
    return t(this.arena() ? 'arena_pair_practice_result' : 'pair_practice_result');
  }

  /** The arena that seated this room, if one did (as the hall or this tab was told). */
  arena() {
    return this.state?.arena ?? arenaOfRoom(this.code);
  }

  /** Escape closes the result dialog; Tab and Shift+Tab go round inside it. */
  resultKey(e, overlay) {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      this.closeResult();
      return;
    }
    if (e.key !== 'Tab') return;
    const items = [...overlay.querySelectorAll(FOCUSABLE)];
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && (document.activeElement === first || !overlay.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  }

  /** Take the result dialog away; `refocus` puts the keyboard back where it was before. */
  /** The room closed: said, and back to the hall. */
  leaveClosed() {
    toast(t('room_closed', { code: this.code }));
    location.hash = '#/';
  }

  closeResult({ refocus = true } = {}) {
    const overlay = this.el.querySelector('.result-overlay');
    if (!overlay) return;
    if (this.closedBehindResult && refocus) {
      // Dismissed by the player (✕, Escape, outside): the closed room is left now.
      overlay.remove();
      this.leaveClosed();
      return;
    }
    const inside = overlay.contains(document.activeElement);
    overlay.remove();
    if (!refocus && !inside) return;
    const back = this.resultReturn?.isConnected ? this.resultReturn : this.el.querySelector('#show-result');
    this.resultReturn = null;
    back?.focus();
  }

  /**
   * P-REMATCH: in the result dialog, the people who pressed "Play again" (ready for the next
   * game), so that the others see the offer where they are looking.
   */
  updateRematch() {
    const line = this.el.querySelector('#rematch-offer');
    if (!line) return;
    const me = this.mySeat();
    const names = (this.state?.seats || []).filter((x, i) => i !== me && x.player && x.ready).map((x) => x.player.name);
    line.textContent = names.length ? t('rematch_offer', { names: names.join(t('list_sep')) }) : '';
    line.classList.toggle('on', names.length > 0);
  }

  /** Four times a second: the turn timer, and the room's countdowns when it shows any. */
  tick() {
    this.gameView?.tick?.();
    const st = this.state;
    if (!st || this.signIn) return;
    // The quick-match search time and the away countdowns are drawn from the clock.
    if (this.app.quickMatch?.code === this.code || st.seats?.some((x) => x.away_until) || this.bubbles.length) this.redraw();
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
