// The game dice in the browser, exactly as the server draws them (crates/dice): ChaCha20
// (RFC 8439 block function, 20 rounds) keyed by the 32-byte seed, nonce 0, counter from 0,
// read as consecutive little-endian 32-bit words; `rollBelow(n)` by rejection sampling.
// With the revealed seed a player can re-draw every roll of a finished game (P-FAIR-DICE).

const CONSTANTS = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];

function rotl(x, n) {
  return ((x << n) | (x >>> (32 - n))) >>> 0;
}

function quarter(s, a, b, c, d) {
  s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 16);
  s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 12);
  s[a] = (s[a] + s[b]) >>> 0; s[d] = rotl(s[d] ^ s[a], 8);
  s[c] = (s[c] + s[d]) >>> 0; s[b] = rotl(s[b] ^ s[c], 7);
}

/** One ChaCha20 block: 16 words from 8 key words, a 32-bit counter and 3 nonce words. */
export function chachaBlock(key, counter, nonce) {
  const input = [...CONSTANTS, ...key, counter >>> 0, ...nonce];
  const s = input.slice();
  for (let i = 0; i < 10; i += 1) {
    quarter(s, 0, 4, 8, 12); quarter(s, 1, 5, 9, 13); quarter(s, 2, 6, 10, 14); quarter(s, 3, 7, 11, 15);
    quarter(s, 0, 5, 10, 15); quarter(s, 1, 6, 11, 12); quarter(s, 2, 7, 8, 13); quarter(s, 3, 4, 9, 14);
  }
  return s.map((v, i) => (v + input[i]) >>> 0);
}

/** The dice of a game seeded with `seedBytes` (32 bytes). */
export class Dice {
  constructor(seedBytes) {
    if (seedBytes.length !== 32) throw new RangeError('a seed is 32 bytes');
    this.key = [];
    for (let i = 0; i < 8; i += 1) {
      this.key.push((seedBytes[4 * i] | (seedBytes[4 * i + 1] << 8) | (seedBytes[4 * i + 2] << 16) | (seedBytes[4 * i + 3] << 24)) >>> 0);
    }
    this.counter = 0;
    this.buffer = [];
  }

  /** The next 32-bit word of the stream. */
  nextU32() {
    if (!this.buffer.length) {
      this.buffer = chachaBlock(this.key, this.counter, [0, 0, 0]);
      this.counter += 1;
    }
    return this.buffer.shift();
  }

  /** A uniform number in 0..n without bias (the server's `roll_below`). */
  rollBelow(n) {
    const MAX = 0xffffffff;
    const zone = MAX - ((MAX - n + 1) % n);
    for (;;) {
      const x = this.nextU32();
      if (x <= zone) return x % n;
    }
  }

  /** A die roll 1..6. */
  roll() {
    return this.rollBelow(6) + 1;
  }
}

const COLOURS = ['red', 'yellow', 'blue', 'green'];

/**
 * The seat colours and the first colour of a flight game, drawn from its dice exactly as
 * `hangar_flight::Seating::draw` draws them for the hall (F-D-SEATS, F-ORDER, F-TEAM):
 * returns {colours, first} (colour names, `colours[i]` for room seat i); the dice are left
 * ready for the first roll.
 */
export function drawSeating(dice, seats, teams) {
  let colours;
  if (seats === 2) {
    const start = dice.rollBelow(2);
    colours = [COLOURS[start], COLOURS[start + 2]];
  } else if (seats === 3) {
    const empty = dice.rollBelow(4);
    colours = COLOURS.filter((_, i) => i !== empty);
  } else {
    colours = COLOURS.slice();
  }
  if (teams) {
    // Seats 0 & 2 are partners and sit opposite: a colour pair, then the order in each pair.
    const pair = dice.rollBelow(2);
    const a = dice.rollBelow(2);
    const b = dice.rollBelow(2);
    colours = [pair + 2 * a, pair + 1 + 2 * b, pair + 2 * (1 - a), pair + 1 + 2 * (1 - b)].map((i) => COLOURS[i % 4]);
  } else {
    for (let i = colours.length - 1; i >= 1; i -= 1) {
      const j = dice.rollBelow(i + 1);
      [colours[i], colours[j]] = [colours[j], colours[i]];
    }
  }
  const clockwise = COLOURS.filter((c) => colours.includes(c));
  const first = clockwise[dice.rollBelow(seats) % seats];
  return { colours, first };
}
