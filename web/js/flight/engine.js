// A small Aeroplane Chess rule engine in JavaScript, used only to replay finished games in the
// browser: the server's record (docs/protocol.md §9) lists each roll and each chosen plane, and
// this engine re-plays them to draw every position. It follows shared/spec/flight.md for the
// options the presets use (take-off rolls, three sixes, stacks block/pass, finish bounce /
// overshoot / exact-only, teams); the `circle` finish, items and weather are not replayed.

import { COLOURS, FINISH, TURN_IN, FLY_FROM, FLY_TO, CROSS_PROGRESS } from './geometry.js';
import { Dice, drawSeating } from '../dice.js';
import { hexToBytes } from '../fairdice.js';

/** Raised for records this engine cannot replay. */
export class UnsupportedReplay extends Error {}

/** Rule options with preset defaults filled in (flight.md §9). */
export function effectiveOptions(options = {}) {
  const improved = options.preset === 'improved';
  let takeoff = options.takeoff || (improved ? [5, 6] : [6]);
  if (typeof takeoff === 'string') takeoff = takeoff === 'five-or-six' ? [5, 6] : [6];
  return {
    takeoff,
    three_sixes: options.three_sixes || (improved ? 'all-to-hangar' : 'none'),
    stacks: options.stacks || (improved ? 'pass' : 'block'),
    finish: options.finish || (improved ? 'overshoot' : 'bounce'),
    planes: options.planes || 4,
    teams: !!options.teams,
    items: !!options.items,
    weather: !!options.weather,
  };
}

/** The flight game state being replayed. */
export class FlightReplayState {
  constructor(colours, options) {
    this.opts = effectiveOptions(options);
    this.colours = colours; // per seat: colour name or null
    this.colourIdx = colours.map((c) => (c ? COLOURS.indexOf(c) : -1));
    this.planes = colours.map((c) => (c ? Array(this.opts.planes).fill(null) : []));
    this.captures = colours.map(() => 0);
    this.die = null;
    this.toMove = null;
    this.sixes = 0;
    this.sixPlanes = []; // planes moved by the sixes of the current run (moved-to-hangar)
    this.out = colours.map(() => null);
  }

  side(seat) {
    return this.opts.teams ? this.colourIdx[seat] % 2 : seat;
  }

  /** Track square of a plane of `seat` at `progress` (1..50), else null. */
  square(seat, progress) {
    if (progress === null || progress < 1 || progress > TURN_IN) return null;
    return (13 * this.colourIdx[seat] + 2 + progress) % 52;
  }

  /** Planes (other than `except`) resting on track square `sq`: [{seat, plane}]. */
  occupants(sq, except = null) {
    const out = [];
    this.planes.forEach((list, seat) => list.forEach((p, plane) => {
      if (except && except.seat === seat && except.plane === plane) return;
      if (this.square(seat, p) === sq) out.push({ seat, plane });
    }));
    return out;
  }

  /** Enemy planes of `seat` on `sq`, grouped by side: Map side → [{seat, plane}]. */
  enemiesBySide(seat, sq, except) {
    const groups = new Map();
    for (const o of this.occupants(sq, except)) {
      const side = this.side(o.seat);
      if (side === this.side(seat)) continue;
      if (!groups.has(side)) groups.set(side, []);
      groups.get(side).push(o);
    }
    return groups;
  }

  hasEnemyStack(seat, sq, except) {
    for (const list of this.enemiesBySide(seat, sq, except).values()) if (list.length >= 2) return true;
    return false;
  }

  sendHome(list, bySeat) {
    for (const o of list) this.planes[o.seat][o.plane] = null;
    this.captures[bySeat] += list.length;
  }

  /**
   * Settle a resting point of the mover (F-CAPTURE, F-STACK-*). Returns false when the mover
   * itself went back to the hangar (landing on a stack under `block`).
   */
  rest(seat, plane) {
    const me = { seat, plane };
    const sq = this.square(seat, this.planes[seat][plane]);
    if (sq === null) return true;
    const groups = this.enemiesBySide(seat, sq, me);
    let alive = true;
    for (const list of groups.values()) {
      if (list.length >= 2 && this.opts.stacks === 'block') {
        this.sendHome(list, seat);
        this.planes[seat][plane] = null;
        alive = false;
      } else {
        this.sendHome(list, seat);
      }
    }
    return alive;
  }

  canMove(seat, plane, roll) {
    const p = this.planes[seat][plane];
    if (p === FINISH) return false;
    if (p === null) return this.opts.takeoff.includes(roll);
    if (this.opts.finish === 'exact-only' && p + roll > FINISH) return false;
    return true;
  }

  /** Apply a roll (F-ROLL, F-BONUS, F-THREE-SIXES). */
  roll(seat, value) {
    if (this.toMove !== seat) {
      this.sixes = 0;
      this.sixPlanes = [];
    }
    this.toMove = seat;
    this.die = value;
    if (value === 6) this.sixes += 1;
    else this.sixes = 0;
    if (value === 6 && this.sixes === 3 && this.opts.three_sixes !== 'none') {
      if (this.opts.three_sixes === 'all-to-hangar') this.planes[seat] = this.planes[seat].map(() => null);
      else for (const plane of this.sixPlanes) this.planes[seat][plane] = null;
      this.sixes = 0;
      this.sixPlanes = [];
      return 'penalty';
    }
    return 'ok';
  }

  /** Move plane `plane` of `seat` by the last roll (F-TAKEOFF, F-WALK, F-JUMP, F-FLY…). */
  move(seat, plane) {
    const r = this.die;
    const planes = this.planes[seat];
    const cur = planes[plane];
    if (r === 6) this.sixPlanes.push(plane);
    if (cur === null) {
      planes[plane] = 0;
      return;
    }
    const me = { seat, plane };
    // Walk, checking enemy stacks ahead under `block` (F-STACK-TRADITIONAL).
    if (this.opts.stacks === 'block') {
      for (let d = 1; d <= r; d += 1) {
        const sq = this.square(seat, cur + d);
        if (sq === null || !this.hasEnemyStack(seat, sq, me)) continue;
        if (r === d) {
          planes[plane] = cur + d;
          this.rest(seat, plane);
          return;
        }
        if (r === 6) {
          planes[plane] = cur + d; // sits on the stack (F-D-SIT)
          return;
        }
        planes[plane] = Math.max(0, cur + d - (r - d)); // turned back (F-D-PAD)
        this.rest(seat, plane);
        return;
      }
    }
    let target = cur + r;
    if (target > FINISH) {
      if (this.opts.finish === 'bounce') {
        planes[plane] = FINISH - (target - FINISH);
        this.rest(seat, plane);
        return;
      }
      target = FINISH;
    }
    planes[plane] = target;
    if (!this.rest(seat, plane)) return;
    // Jump and fly (F-JUMP, F-FLY, F-CROSS), at most one chain.
    const own = (p) => p >= 1 && p < TURN_IN && p % 4 === 2;
    if (!own(target)) return;
    if (target === FLY_FROM) {
      if (!this.fly(seat, plane)) return;
      if (!this.rest(seat, plane)) return;
      planes[plane] = FLY_TO + 4;
      this.rest(seat, plane);
      return;
    }
    planes[plane] = target + 4;
    if (!this.rest(seat, plane)) return;
    if (planes[plane] === FLY_FROM && this.fly(seat, plane)) this.rest(seat, plane);
  }

  /** The flight 18 → 30 with the crossing check; false when a stack blocks it. */
  fly(seat, plane) {
    const oppColour = (this.colourIdx[seat] + 2) % 4;
    const oppSeat = this.colourIdx.indexOf(oppColour);
    if (oppSeat >= 0 && this.side(oppSeat) !== this.side(seat)) {
      const there = this.planes[oppSeat].map((p, i) => ({ p, i })).filter((x) => x.p === CROSS_PROGRESS);
      if (there.length >= 2 && this.opts.stacks === 'block') return false;
      this.sendHome(there.map((x) => ({ seat: oppSeat, plane: x.i })), seat);
    }
    this.planes[seat][plane] = FLY_TO;
    return true;
  }

  leave(seat, reason) {
    this.out[seat] = reason;
    this.planes[seat] = [];
  }

  /** A game view shaped like the server's (enough for FlightBoard.render). */
  view() {
    return {
      kind: 'flight', colours: this.colours, planes: this.planes.map((l) => [...l]), die: this.die,
      to_move: this.toMove, captures: [...this.captures],
    };
  }
}

/**
 * The seat colours of a record: given in it, or drawn from the revealed seed exactly as the
 * hall drew them (F-D-SEATS); also returns the dice, ready for the first roll, when seeded.
 */
export function recordSeating(record) {
  const n = record.seats?.length || record.options?.seats || 4;
  const bytes = hexToBytes(record.seed);
  let dice = null;
  let colours = null;
  if (bytes && bytes.length === 32) {
    dice = new Dice(bytes);
    colours = drawSeating(dice, n, !!record.options?.teams).colours;
  }
  if (Array.isArray(record.colours)) colours = record.colours;
  else if (record.seats?.every((s) => s.colour)) colours = record.seats.map((s) => s.colour);
  if (!colours) colours = n === 2 ? ['red', 'blue'] : COLOURS.slice(0, n);
  return { colours, dice };
}

/**
 * Re-draw every recorded roll from the revealed seed (P-FAIR-DICE): {checked, mismatches}, or
 * null when the game drew other things from the dice too (items, weather).
 */
export function checkRolls(record) {
  const opts = effectiveOptions(record.options);
  if (opts.items || opts.weather) return null;
  const { dice } = recordSeating(record);
  if (!dice) return null;
  let checked = 0;
  const mismatches = [];
  record.actions.forEach((a, index) => {
    if (a.action?.kind !== 'roll' || a.roll === undefined || a.roll === null) return;
    const drawn = dice.roll();
    checked += 1;
    if (drawn !== a.roll) mismatches.push({ index, drawn, recorded: a.roll });
  });
  return { checked, mismatches };
}

/** Replay a flight record into frames: [{game, label}], frame 0 the start. */
export function replayFlight(record) {
  const opts = effectiveOptions(record.options);
  if (opts.items || opts.weather || opts.finish === 'circle') throw new UnsupportedReplay('items, weather and the circle finish are not replayed');
  const state = new FlightReplayState(recordSeating(record).colours, record.options);
  const frames = [{ game: state.view(), label: '—' }];
  const icon = (seat) => ({ red: '🔴', yellow: '🟡', blue: '🔵', green: '🟢' }[state.colours[seat]] || `#${seat}`);
  for (const a of record.actions) {
    const kind = a.action?.kind;
    let label = `${icon(a.seat)} ${kind}`;
    if (kind === 'roll') {
      const res = state.roll(a.seat, a.roll);
      label = `${icon(a.seat)} 🎲 ${a.roll}${res === 'penalty' ? ' ⚠ 6-6-6' : ''}`;
    } else if (kind === 'move') {
      state.move(a.seat, a.action.plane);
      label = `${icon(a.seat)} ✈${a.action.plane + 1} → ${state.planes[a.seat][a.action.plane] ?? '⌂'}`;
    } else if (kind === 'resign' || kind === 'escape' || kind === 'abandon') {
      state.leave(a.seat, kind);
    } else if (kind === 'use_item') {
      throw new UnsupportedReplay('items');
    }
    if (a.auto) label += ' 🤖';
    frames.push({ game: state.view(), label });
  }
  return frames;
}
