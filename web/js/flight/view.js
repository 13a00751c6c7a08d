// The running Aeroplane Chess game: the board, the die, players with their badges (auto-play,
// disconnection countdowns, out), the turn timer, auto-play switch and resignation, and the
// keyboard (space / enter to roll, 1–4 to move a plane).

import { h, secondsLeft, toast } from '../dom.js';
import { v, keep } from '../vdom.js';
import { t, currentLang } from '../i18n.js';
import { TurnClock, seatName, seatLabel } from '../turn.js';
import { FlightBoard, PALETTE } from './board.js';
import { Die } from './die.js';
import { optionHelp } from '../rules.js';
import { effectLine, rollLine } from './log.js';
import { sound } from '../sound.js';
import { drawEntropy, rememberOwnRoll } from '../entropy.js';

/** How many lines the game log keeps (a whole game is a few hundred; the oldest go first). */
const LOG_LINES = 200;

/** The sound of a `moved` event: the most telling of its effects. */
function movedSound(ev) {
  const kinds = new Set((ev.effects || []).map((e) => e.type || e.kind));
  if (kinds.has('game_over')) return 'over';
  if (kinds.has('captured') || kinds.has('crossing_capture')) return 'capture';
  if (kinds.has('finished')) return 'finish';
  return ev.plane === null || ev.plane === undefined ? null : 'move';
}

/** The flight game view inside a room. */
export class FlightView {
  /** `host`: what the view may know of its room and do there (room.js `gameHost`). */
  constructor(host) {
    this.kind = 'flight';
    this.host = host;
    this.board = new FlightBoard();
    this.board.speed = host.speed();
    this.die = new Die(() => this.roll());
    this.clock = new TurnClock();
    this.status = this.clock.status;
    // A live region: a screen reader announces each new line (rolls, moves, captures, timeouts);
    // it scrolls, so it takes the keyboard focus too.
    this.log = h('div', { class: 'game-log', id: 'game-log', role: 'log', 'aria-live': 'polite', 'aria-label': t('game_log_label'), tabindex: 0 });
    this.el = h('div', { class: 'flight-view' }, h('div', { class: 'board-wrap' }, this.board.svg));
    // The die and the turn sit at the top of the side column (under the board on phones).
    this.dock = h('div', { class: 'dock card' },
      this.die.el,
      h('div', { class: 'dock-info' }, this.status, this.clock.timer,
        h('div', { class: 'dock-row' }, h('p', { class: 'hint kbd-hint', 'data-i18n': 'roll_hint' }, t('roll_hint')))));
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
    this.busy = false;
    /** The room events of this game that wrote the log, for a reload to write it again (`restore`). */
    this.events = [];
  }

  /** A new game in the same room (a rematch): the last game's lines go. */
  newGame() {
    this.events = [];
    this.log.replaceChildren();
    this.lastRoll = null;
  }

  /** Write the log of this game again from its room events (after a reload, room.js). */
  restore(events) {
    this.newGame();
    for (const ev of events) this.logEvent(ev);
  }

  destroy() {
    document.removeEventListener('keydown', this.keyHandler);
  }

  get state() {
    return this.host.state();
  }

  myTurn() {
    const seat = this.host.mySeat();
    const g = this.state.game;
    return seat !== null && g && this.state.status === 'playing' && g.to_move === seat && !this.state.seats[seat].out;
  }

  /** Redraw everything from the state (snapshot, or after an event). */
  update(state, mySeat) {
    const g = state.game;
    if (!g) return;
    this.board.render(g);
    this.log.setAttribute('aria-label', t('game_log_label'));
    this.relabelLog();
    this.board.setLabels(state.seats.map((seat, i) => (seat.player || seat.bot ? {
      name: seatLabel(state, i),
      auto: !!seat.autoplay,
      toMove: state.status === 'playing' && g.to_move === i,
    } : null)));
    // A roll waiting for a move shows; so does the roll just thrown until the next turn begins.
    // A new turn starts blank: the previous player's roll under "your turn" reads as if this
    // player had already rolled (the log keeps it).
    this.die.show(g.need === 'move' ? g.die ?? this.lastRoll ?? null : this.lastRoll ?? null);
    // On auto-play the bot acts for this player (P-AUTOPLAY): no die or planes to click.
    const hands = this.canAct();
    const canRoll = hands && g.need === 'roll';
    const canMove = hands && g.need === 'move';
    this.die.setEnabled(canRoll);
    this.el.classList.toggle('my-turn', this.myTurn());
    this.dock.classList.toggle('my-turn', this.myTurn());
    if (canMove) {
      this.board.highlight(mySeat, g.moves, (plane) => this.move(plane));
    } else {
      this.board.clearHighlight();
    }
    this.renderStatus();
  }

  seatName(seat) {
    return seatName(this.state, this.host.me(), seat);
  }

  /** Whether this player may roll or move now, on a picture that is current. */
  canAct() {
    return this.myTurn() && !this.onAutoplay() && !this.busy && this.host.current();
  }

  /** Whether auto-play plays for this player now. */
  onAutoplay() {
    const seat = this.host.mySeat();
    return seat !== null && !!this.state.seats[seat]?.autoplay;
  }

  renderStatus() {
    const g = this.state.game;
    const colour = g.colours?.[g.to_move];
    let text;
    if (this.state.ended || this.state.status === 'finished') text = t('game_over');
    else if (this.myTurn() && this.onAutoplay()) text = t('autoplay_playing');
    else if (this.myTurn()) text = g.need === 'move' ? t('choose_plane') : t('your_turn');
    else text = t('turn_of', { name: this.seatName(g.to_move) });
    this.clock.say(colour, text);
    for (const el of [this.el, this.dock]) el.style.setProperty('--turn-colour', colour ? PALETTE[colour].main : '#888');
  }

  tick() {
    this.clock.tick(this.state);
  }

  /** The players panel, shown in the room's side column. */
  sidePanel() {
    const st = this.state;
    const g = st.game;
    const me = this.host.mySeat();
    const rows = st.seats.map((seat, i) => {
      const colour = g?.colours?.[i] || seat.colour;
      if (!colour) return null;
      const planes = g?.planes?.[i] || [];
      const home = planes.filter((p) => p === 56).length;
      return v('li', { class: `player-row c-${colour} ${g?.to_move === i && st.status === 'playing' ? 'to-move' : ''}`, 'data-seat': i },
        v('span', { class: `dot c-${colour}` }),
        v('span', { class: 'player-name' }, seatLabel(st, i), i === me ? v('small', {}, ` (${t('you')})`) : null),
        v('span', { class: 'player-stats' }, `🏁 ${home}/${planes.length}`, g?.captures?.[i] ? ` 💥${g.captures[i]}` : ''),
        seat.autoplay ? v('span', { class: 'chip chip-auto', title: t('autoplay_on') }, '🤖 ', t('autoplay_on')) : null,
        seat.away_until ? v('span', { class: 'chip chip-away', 'data-until': seat.away_until }, t('away', { s: secondsLeft(seat.away_until) })) : null,
        seat.out ? v('span', { class: 'chip chip-out' }, t(`out_${seat.out}`)) : null);
    });
    const controls = [];
    if (me !== null && st.status === 'playing' && !st.seats[me].out) {
      // Until the server's answer is shown, the switch shows what the player asked for.
      const auto = this.autoWanted ?? st.seats[me].autoplay;
      controls.push(v('label', { class: 'switch', title: t('autoplay') },
        v('input', { type: 'checkbox', id: 'autoplay-toggle', checked: auto, onchange: (e) => this.setAutoplay(e.target.checked) }),
        v('span', { class: 'switch-track' }), v('span', {}, t('autoplay'))));
      const canResign = (g?.turns ?? 0) >= 15;
      controls.push(v('button', {
        class: 'btn btn-small btn-danger', type: 'button', id: 'resign-btn', disabled: !canResign, title: canResign ? '' : t('resign_after'),
        onclick: () => { if (window.confirm(t('resign_confirm'))) this.host.cmd('resign'); },
      }, '🏳 ', t('resign')));
      const bar = g?.bars?.[me] || [];
      for (const item of bar) {
        controls.push(v('button', {
          class: 'btn btn-small item-btn', 'data-item': item, type: 'button', disabled: !(this.myTurn() && g.need === 'roll'),
          title: optionHelp(`item_${item}`),
          // A booster's throw is a roll: it carries the page's own bytes too.
          onclick: () => this.useItem(item),
        }, '🎁 ', t(`item_${item}`)));
      }
    }
    return v('section', { class: 'card players-card' },
      v('div', { class: 'players-head' }, v('h2', {}, t('player')), g ? v('span', { class: 'chip' }, t('turns', { n: g.turns ?? 0 })) : null),
      v('ul', { class: 'players' }, rows),
      controls.length ? v('div', { class: 'row controls' }, controls) : null,
      keep(this.log));
  }

  /**
   * Add a line to the log. `say` makes its text: it is called again when the language changes,
   * so that the lines written before a switch read in the new language too.
   */
  addLog(say, colour = null) {
    // The actor's colour as a dot before the words: three bots of one level are told apart.
    const text = h('span', { class: 'log-text' }, say());
    const line = h('div', { class: 'log-line', 'data-colour': colour }, colour ? h('span', { class: `dot c-${colour}` }) : null, text);
    line.say = say;
    line.text = text;
    this.log.prepend(line);
    while (this.log.childElementCount > LOG_LINES) this.log.lastChild.remove();
  }

  /** Rewrite the log's lines after a language switch. */
  relabelLog() {
    if (this.logLang === currentLang()) return;
    this.logLang = currentLang();
    for (const line of this.log.children) if (line.say) line.text.textContent = line.say();
  }

  /** Who plays `colour`, as the subject of a log line and as an owner ("your", "Ana's"). */
  logNames() {
    const seatOf = (colour) => this.state.game?.colours?.indexOf(colour) ?? -1;
    return {
      who: (colour) => this.seatName(seatOf(colour)),
      whose: (colour) => {
        const seat = seatOf(colour);
        return seat === this.host.mySeat() ? t('owner_you') : t('owner_of', { name: this.seatName(seat) });
      },
    };
  }

  /**
   * Handle one room event: animations first, then redraw. While the page catches up (`hurry`:
   * more events wait behind this one) it neither animates nor redraws and offers no choice:
   * only the log is kept, and the last events of the burst draw the state they reach.
   */
  async onEvent(ev, before, state, { hurry }) {
    const speed = this.host.speed();
    this.board.speed = speed;
    if (ev.kind === 'rolled') {
      this.lastRoll = ev.value;
      if (!hurry) {
        sound.play('roll');
        await this.die.roll(ev.value, 420 / speed);
      }
    } else if (ev.kind === 'moved') {
      if (!hurry) {
        this.busy = true;
        this.board.clearHighlight();
        try {
          this.board.render(before);
          await this.board.animateMove(ev, before);
        } finally {
          this.busy = false;
        }
      }
      if (!hurry) sound.play(movedSound(ev));
    } else if (ev.kind === 'turn') {
      this.lastRoll = null;
      if (!hurry && ev.seat === this.host.mySeat()) sound.play('turn');
    } else if (ev.kind === 'autoplay') {
      const mine = ev.seat === this.host.mySeat();
      if (mine) this.autoWanted = undefined;
      if (ev.on && mine) toast(`🤖 ${t('autoplay_on')}`);
    }
    this.logEvent(ev);
    if (!hurry) {
      this.update(state, this.host.mySeat());
    } else {
      // Nothing can be chosen on a picture that is behind the game: the die and the planes wait
      // for the burst's last events, which draw where the game is.
      this.die.setEnabled(false);
      this.board.clearHighlight();
    }
  }

  /** The log lines of room event `ev` (rolls, moves' effects, passes, timeouts), kept in `events`. */
  logEvent(ev) {
    const colourOf = (seat) => this.state.game?.colours?.[seat] ?? null;
    const mine = ev.seat === this.host.mySeat();
    if (ev.kind === 'rolled') {
      this.addLog(() => rollLine(ev, this.seatName(ev.seat)), colourOf(ev.seat));
    } else if (ev.kind === 'moved') {
      const names = this.logNames();
      for (const e of ev.effects || []) {
        if (effectLine(e, names) !== null) this.addLog(() => effectLine(e, this.logNames()), e.by ?? e.colour ?? null);
      }
    } else if (ev.kind === 'passed') {
      if (ev.reason === 'timeout') this.addLog(() => (mine ? t('timed_out_you') : t('timed_out', { name: this.seatName(ev.seat) })), colourOf(ev.seat));
      else this.addLog(() => (mine ? t('no_move_you') : t('no_move', { name: this.seatName(ev.seat) })), colourOf(ev.seat));
    } else if (ev.kind === 'autoplay' && ev.on && ev.reason === 'timeout') {
      // A clock that ran out puts the player on auto-play (P-AUTOPLAY): say why in the log.
      this.addLog(() => `⏱ ${mine ? t('timed_out_you') : t('timed_out', { name: this.seatName(ev.seat) })}`, colourOf(ev.seat));
    }
    const logged = ['rolled', 'moved', 'passed'].includes(ev.kind) || (ev.kind === 'autoplay' && ev.on && ev.reason === 'timeout');
    if (!logged) return;
    this.events.push(ev);
    if (this.events.length > LOG_LINES) this.events.shift();
  }

  /** Ask the server to switch auto-play on or off for this player. */
  async setAutoplay(on) {
    this.autoWanted = on;
    // The wish stands until the server's `autoplay` event for this seat is shown (the page may
    // still be animating moves the server made before it), or until the server refuses.
    if (!await this.host.cmd('autoplay', { on })) {
      this.autoWanted = undefined;
      this.host.redraw();
    }
  }

  async roll() {
    if (!this.canAct() || this.state.game.need !== 'roll') return;
    this.die.setEnabled(false);
    this.die.spin();
    // Fresh bytes of this page for this roll (P-FAIR-DICE); a resend keeps the same command.
    const entropy = drawEntropy();
    if (await this.host.cmd('roll', { entropy })) {
      rememberOwnRoll(this.state.commitment, entropy);
    } else {
      this.die.el.classList.remove('rolling');
      this.update(this.state, this.host.mySeat());
    }
  }

  /** Use an item of the bar (F-ITEM-USE); a booster throws the die with this page's bytes. */
  async useItem(item) {
    const entropy = drawEntropy();
    if (await this.host.cmd('use_item', { item, entropy }) && item === 'booster') {
      rememberOwnRoll(this.state.commitment, entropy);
    }
  }

  async move(plane) {
    if (!this.canAct() || this.state.game.need !== 'move') return;
    this.board.clearHighlight();
    await this.host.cmd('move', { plane });
  }

  onKey(e) {
    if (e.target.closest('input, textarea, select')) return;
    // Enter and Space on a focused control press that control (resign, auto-play, the die).
    if ((e.key === 'Enter' || e.key === ' ') && e.target.closest('button, a[href], summary, label')) return;
    if (e.key === ' ' || e.key === 'Enter') {
      if (this.myTurn() && this.state.game.need === 'roll') {
        e.preventDefault();
        this.roll();
      } else if (this.myTurn() && this.state.game.need === 'move' && this.state.game.moves.length === 1) {
        e.preventDefault();
        this.move(this.state.game.moves[0].plane);
      }
    } else if (/^[1-4]$/.test(e.key) && this.myTurn() && this.state.game.need === 'move') {
      const plane = Number(e.key) - 1;
      if (this.state.game.moves.some((m) => m.plane === plane)) {
        e.preventDefault();
        this.move(plane);
      }
    }
  }
}
