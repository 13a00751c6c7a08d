// Per-roll dice (P-FAIR-DICE) and the χ² of the dice statistics (P-DICE-STATS) in the browser:
// web/js/rollkey.js derives the test vector of docs/protocol.md ("The fair dice construction")
// exactly as crates/dice does (tests/per_roll_vectors.rs there), in Node and in a real page
// (where `crypto.subtle` is the browser's); web/js/chisquare.js gives crates/dice's figures.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE } from './helpers.mjs';
import { rollKey, rollDice, GameDice, PER_ROLL, SEED_STREAM } from '../../web/js/rollkey.js';
import { drawEntropy, parseEntropy } from '../../web/js/entropy.js';
import { chiSquare, chiSquarePValue, faceCounts } from '../../web/js/chisquare.js';
import { Dice } from '../../web/js/dice.js';

const SEED = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const BYTES = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
/** Each: k, the roller's bytes (null: a hall roll), the key, the first 8 rolls, then a fresh
 * stream's first roll and the `rollBelow(156)` after it (a weather draw). */
const VECTORS = [
  [0, BYTES, 'ed3f5c0843bebaf323fe47177cab59e9f6a44cdef1f3ff82871a965d4a721794', '5,2,6,2,2,2,4,5', '5,55'],
  [7, BYTES, '499bb87e181c33a8b391d9ba808dce5ebdbc49e32822aa8c4ef0cd2d8d26a14a', '4,1,2,4,3,1,4,5', '4,108'],
  [7, null, 'dd12e3f09e85b8f1646d96744e4ecc0468d4e071ac6be42f731dd79a3bb857e2', '4,6,1,1,6,3,1,5', '4,23'],
  [7, 'f0e1d2c3b4a5968778695a4b3c2d1e0e', 'c2d587e6a4c43650baa1c8fa3b8173e716024661c5f8475cdbb769616957dbb8', '4,6,2,5,1,5,2,4', '4,65'],
];
/** The hand-computed example: 60 rolls, χ² = 116 / 10 = 11.6, p = 0.0406993885040500. */
const COUNTS = [8, 9, 19, 5, 8, 11];
const P_EXAMPLE = 0.04069938850405;

const hex = (s) => Uint8Array.from(s.match(/../g).map((b) => parseInt(b, 16)));
const toHex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

/** What a page (or Node) computes for each vector: [key, rolls, die+weather]. */
async function derive(vectors, seedHex) {
  const out = [];
  for (const [k, bytes] of vectors) {
    const entropy = bytes ? hex(bytes) : null;
    const key = toHex(await rollKey(hex(seedHex), k, entropy));
    const dice = await rollDice(hex(seedHex), k, entropy);
    const rolls = Array.from({ length: 8 }, () => dice.roll()).join(',');
    const fresh = await rollDice(hex(seedHex), k, entropy);
    out.push([key, rolls, `${fresh.roll()},${fresh.rollBelow(156)}`]);
  }
  return out;
}

test('P-FAIR-DICE: the per-roll test vector in Node', async () => {
  const got = await derive(VECTORS, SEED);
  assert.deepEqual(got, VECTORS.map(([, , key, rolls, draw]) => [key, rolls, draw]));
});

test('P-FAIR-DICE: a game\'s dice by scheme: per roll each roll its own stream, seed stream the one stream', async () => {
  const seed = hex(SEED);
  const perRoll = new GameDice(PER_ROLL, seed);
  assert.equal(perRoll.current.rollBelow(4), new Dice(seed).rollBelow(4)); // the seating: the seed's stream
  const rolls = [];
  for (let k = 0; k < 8; k += 1) rolls.push((await perRoll.beginRoll(k === 7 ? hex(BYTES) : null)).roll());
  assert.equal(rolls[7], 4); // roll 7 with BYTES: the vector's die
  assert.equal(rolls[0], (await rollDice(seed, 0, null)).roll());
  const old = new GameDice(undefined, seed);
  assert.equal(old.scheme, SEED_STREAM);
  const stream = new Dice(seed);
  for (let i = 0; i < 10; i += 1) assert.equal((await old.beginRoll(hex(BYTES))).roll(), stream.roll());
  assert.throws(() => new GameDice('something_else', seed), RangeError);
});

test('P-FAIR-DICE: the page draws 16 fresh bytes as hex; entropy outside 16–64 bytes of hex is refused', () => {
  const a = drawEntropy();
  assert.match(a, /^[0-9a-f]{32}$/);
  assert.notEqual(a, drawEntropy());
  assert.equal(parseEntropy(a).length, 16);
  assert.equal(toHex(parseEntropy(BYTES.toUpperCase())), BYTES);
  for (const bad of ['', 'abc', '00'.repeat(15), '00'.repeat(65), `${'00'.repeat(15)}zz`, ` ${BYTES}`, null]) {
    assert.equal(parseEntropy(bad), null, String(bad));
  }
  assert.equal(parseEntropy('00'.repeat(64)).length, 64);
});

test('P-DICE-STATS: χ² and p-value of the hand-computed example, as crates/dice gives them', () => {
  const result = chiSquare(COUNTS);
  assert.equal(result.rolls, 60);
  assert.equal(result.expected, 10);
  assert.ok(Math.abs(result.statistic - 11.6) < 1e-12, String(result.statistic));
  assert.equal(result.degreesOfFreedom, 5);
  assert.ok(Math.abs(result.pValue - P_EXAMPLE) < 1e-13, String(result.pValue));
  // The 10 %, 5 % and 1 % critical values of χ² with 5 degrees of freedom.
  for (const [x, p] of [[9.236357, 0.10], [11.070498, 0.05], [15.086272, 0.01]]) {
    assert.ok(Math.abs(chiSquarePValue(x, 5) - p) < 1e-6, `${x}`);
  }
  assert.equal(chiSquare([0, 0, 0, 0, 0, 0]), null);
  assert.equal(chiSquare([3, 3, 3, 3, 3, 3]).pValue, 1);
  assert.deepEqual(faceCounts([1, 6, 6, 0, 7, 3]), [1, 0, 1, 0, 0, 2]);
});

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('P-FAIR-DICE, P-DICE-STATS: the page derives the test vector and the χ² example with its own modules', { timeout: 60000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${BASE}/`);
  const got = await page.evaluate(async ([vectors, seedHex, counts]) => {
    const { rollKey, rollDice } = await import('/js/rollkey.js');
    const { chiSquare } = await import('/js/chisquare.js');
    const { drawEntropy } = await import('/js/entropy.js');
    const bytesOf = (s) => Uint8Array.from(s.match(/../g).map((b) => parseInt(b, 16)));
    const hexOf = (b) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
    const out = [];
    for (const [k, bytes] of vectors) {
      const entropy = bytes ? bytesOf(bytes) : null;
      const key = hexOf(await rollKey(bytesOf(seedHex), k, entropy));
      const dice = await rollDice(bytesOf(seedHex), k, entropy);
      const rolls = Array.from({ length: 8 }, () => dice.roll()).join(',');
      const fresh = await rollDice(bytesOf(seedHex), k, entropy);
      out.push([key, rolls, `${fresh.roll()},${fresh.rollBelow(156)}`]);
    }
    return { vectors: out, chi: chiSquare(counts), entropy: drawEntropy(), secure: window.isSecureContext };
  }, [VECTORS, SEED, COUNTS]);
  assert.ok(got.secure, 'crypto.subtle needs a secure context');
  assert.deepEqual(got.vectors, VECTORS.map(([, , key, rolls, draw]) => [key, rolls, draw]));
  assert.ok(Math.abs(got.chi.statistic - 11.6) < 1e-12);
  assert.ok(Math.abs(got.chi.pValue - P_EXAMPLE) < 1e-13);
  assert.match(got.entropy, /^[0-9a-f]{32}$/);
  await page.close();
});

test('P-DICE-STATS: the bar chart shows each face against the expected count, in both languages', { timeout: 60000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${BASE}/`);
  const got = await page.evaluate(async (counts) => {
    const { diceStats } = await import('/js/dicechart.js');
    const { setLang } = await import('/js/i18n.js');
    const read = () => {
      const el = diceStats(counts);
      document.body.append(el);
      const bars = [...el.querySelectorAll('.face-bar')].map((g) => Number(g.dataset.count));
      const heights = [...el.querySelectorAll('.face-bar rect')].map((r) => Number(r.getAttribute('height')));
      const line = el.querySelector('.expected-line');
      const text = el.querySelector('.dice-chi2').textContent;
      const label = el.querySelector('svg').getAttribute('aria-label');
      el.remove();
      return { bars, heights, expected: Number(line.dataset.expected), text, label, p: Number(el.dataset.p) };
    };
    setLang('en');
    const en = read();
    setLang('zh');
    const zh = read();
    const empty = diceStats([0, 0, 0, 0, 0, 0]).classList.contains('empty');
    return { en, zh, empty };
  }, COUNTS);
  assert.deepEqual(got.en.bars, COUNTS);
  // The tallest bar is face 3 (19 rolls); bar heights follow the counts.
  assert.equal(got.en.heights.indexOf(Math.max(...got.en.heights)), 2);
  assert.ok(got.en.heights[3] < got.en.heights[0]);
  assert.equal(got.en.expected, 10);
  assert.equal(got.en.text, '60 rolls · χ² = 11.60 (5 degrees of freedom) · p = 0.0407');
  assert.equal(got.zh.text, '60 次掷骰 · χ² = 11.60（自由度 5）· p = 0.0407');
  assert.match(got.en.label, /60 rolls/);
  assert.ok(Math.abs(got.en.p - P_EXAMPLE) < 1e-13);
  assert.ok(got.empty);
  await page.close();
});
