// Per-roll dice in the browser, exactly as crates/dice derives them (docs/protocol.md, "The
// fair dice construction"): roll k of a game is drawn from ChaCha20 keyed by
// HMAC-SHA256(key = seed, message = k as 8 bytes big-endian ‖ the roller's bytes), read as
// web/js/dice.js reads any stream. With the revealed seed and the recorded bytes the page
// re-derives every roll (P-FAIR-DICE).

import { Dice } from './dice.js';

/** The schemes a record names (`dice` field): hangar_dice::DiceScheme. */
export const SEED_STREAM = 'seed_stream';
export const PER_ROLL = 'per_roll';

/** k as 8 bytes big-endian, followed by the roller's bytes (none for a hall roll). */
function message(k, entropy) {
  const extra = entropy ? entropy.length : 0;
  const out = new Uint8Array(8 + extra);
  new DataView(out.buffer).setBigUint64(0, BigInt(k));
  if (entropy) out.set(entropy, 8);
  return out;
}

/**
 * The 32-byte key of roll `k` (0 for the first roll): HMAC-SHA256 keyed by the seed's 32 bytes.
 * `entropy` is the roller's bytes (Uint8Array), or null for a roll by a hall bot, auto-play or
 * the timer.
 */
export async function rollKey(seedBytes, k, entropy = null) {
  if (seedBytes.length !== 32) throw new RangeError('a seed is 32 bytes');
  const key = await crypto.subtle.importKey('raw', seedBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, message(k, entropy)));
}

/** The stream of roll `k`: its die is the first `roll()`, the action's chance draws follow. */
export async function rollDice(seedBytes, k, entropy = null) {
  return new Dice(await rollKey(seedBytes, k, entropy));
}

/**
 * A game's dice under its scheme (hangar_dice::GameDice): `current` is the stream the next
 * draw that is not a new roll comes from (seating, items, weather); `beginRoll(entropy)`
 * starts the next roll. Per roll, roll k gets its own stream; a `seed_stream` game (recorded
 * before per-roll dice) draws everything from the seed's one stream.
 */
export class GameDice {
  constructor(scheme, seedBytes) {
    // A record without a scheme predates per-roll dice; a scheme this page does not know is
    // refused rather than checked by the wrong construction.
    this.scheme = scheme ?? SEED_STREAM;
    if (this.scheme !== SEED_STREAM && this.scheme !== PER_ROLL) throw new RangeError(`unknown dice scheme ${scheme}`);
    this.seed = seedBytes;
    this.rolls = 0;
    this.current = new Dice(seedBytes);
  }

  /** Begins the next roll and returns the stream its die comes from. */
  async beginRoll(entropy = null) {
    const k = this.rolls;
    this.rolls += 1;
    if (this.scheme === PER_ROLL) this.current = await rollDice(this.seed, k, entropy);
    return this.current;
  }
}
