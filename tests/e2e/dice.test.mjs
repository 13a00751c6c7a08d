// The browser's dice (web/js/dice.js) draw exactly what crates/dice draws (P-FAIR-DICE).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Dice, chachaBlock, drawSeating } from '../../web/js/dice.js';
import { hexToBytes } from '../../web/js/fairdice.js';

// `hangar_dice::Seed::from_u64(7)` and the first rolls `Dice::new(seed).roll()` gives, printed
// by a scratch program against crates/dice.
const SEED7 = 'aae89fc0f03e2959ae4d701a80cc3915918c950b159f6abb6c92c1433b1a8534';
const ROLLS7 = '5,2,6,3,6,3,6,5,1,4,5,5,2,2,1,6,1,6,1,6,3,6,2,6,3,4,5,6,4,6,1,1,1,3,2,6,1,2,2,6';
const BELOW7 = '442887841,956632876,205665789,616533461,587968508,153145769,588304595,965115013,860509379,94752019';

test('ChaCha20 block function matches RFC 8439 §2.3.2', () => {
  const key = [];
  for (let i = 0; i < 8; i += 1) key.push(((4 * i) | ((4 * i + 1) << 8) | ((4 * i + 2) << 16) | ((4 * i + 3) << 24)) >>> 0);
  const block = chachaBlock(key, 1, [0x09000000, 0x4a000000, 0]);
  assert.deepEqual(block.slice(0, 4).map((x) => x.toString(16)), ['e4e7f110', '15593bd1', '1fdd0f50', 'c47120a3']);
});

test('P-FAIR-DICE: the same seed gives the same rolls as the server', () => {
  const dice = new Dice(hexToBytes(SEED7));
  assert.equal(Array.from({ length: 40 }, () => dice.roll()).join(','), ROLLS7);
  const wide = new Dice(hexToBytes(SEED7));
  assert.equal(Array.from({ length: 10 }, () => wide.rollBelow(1000000007)).join(','), BELOW7);
});

test('F-D-SEATS: two players get opposite colours; four get all colours once', () => {
  for (let i = 0; i < 20; i += 1) {
    const seed = new Uint8Array(32);
    seed[0] = i;
    const two = drawSeating(new Dice(seed), 2, false).colours;
    assert.ok(['red,blue', 'blue,red', 'yellow,green', 'green,yellow'].includes(two.join(',')), two.join(','));
    const four = drawSeating(new Dice(seed), 4, false);
    assert.deepEqual([...four.colours].sort(), ['blue', 'green', 'red', 'yellow']);
    assert.ok(four.colours.includes(four.first));
  }
});

// `Seating::draw(players, teams, |n| dice.roll_below(n))` with `Dice::new(Seed::from_u64(7))`
// and the roll after it, printed by a scratch program against crates/flight.
test('F-D-SEATS: the browser draws the seating exactly as hangar_flight::Seating::draw', () => {
  const cases = [
    [2, false, 'red,blue', 'blue', 3],
    [3, false, 'red,green,yellow', 'green', 6],
    [4, false, 'red,green,yellow,blue', 'red', 6],
    [4, true, 'blue,green,red,yellow', 'red', 6],
  ];
  for (const [seats, teams, colours, first, nextRoll] of cases) {
    const dice = new Dice(hexToBytes(SEED7));
    const seating = drawSeating(dice, seats, teams);
    assert.equal(seating.colours.join(','), colours, `${seats} ${teams}`);
    assert.equal(seating.first, first, `${seats} ${teams}`);
    assert.equal(dice.roll(), nextRoll, `${seats} ${teams}`);
  }
});
