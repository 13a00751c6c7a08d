// Unit tests of the board geometry (F-BOARD, shared/spec/flight.md §1), run by `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  trackSquare, squareColour, squareOf, planePosition, homeSquare, shortcut, launchPad,
  hangarSlot, spotKey, walkPath, TRACK_LEN,
} from '../../web/js/flight/geometry.js';

const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);

test('F-BOARD: 52 distinct track squares, each next to the one before (a closed loop)', () => {
  const seen = new Set();
  for (let s = 0; s < TRACK_LEN; s += 1) {
    const p = trackSquare(s);
    seen.add(`${p.x},${p.y}`);
    const next = trackSquare(s + 1);
    const d = dist(p, next);
    assert.ok(d >= 0.99 && d <= Math.SQRT2 + 1e-9, `square ${s} → ${s + 1} at distance ${d}`);
  }
  assert.equal(seen.size, TRACK_LEN);
});

test('F-BOARD: the track runs clockwise on screen', () => {
  // Signed area (shoelace) with y down: positive means clockwise on screen.
  let area = 0;
  for (let s = 0; s < TRACK_LEN; s += 1) {
    const a = trackSquare(s); const b = trackSquare(s + 1);
    area += a.x * b.y - b.x * a.y;
  }
  assert.ok(area > 0);
});

test('F-BOARD: colours repeat every 4 squares in seating order; own squares are p ≡ 2 mod 4', () => {
  for (let k = 0; k < 4; k += 1) {
    for (let p = 1; p <= 50; p += 1) {
      const own = squareColour(squareOf(k, p)) === k;
      assert.equal(own, p % 4 === 2, `seat ${k} progress ${p}`);
    }
  }
  const counts = [0, 0, 0, 0];
  for (let s = 0; s < TRACK_LEN; s += 1) counts[squareColour(s)] += 1;
  assert.deepEqual(counts, [13, 13, 13, 13]);
});

test('F-BOARD: progress p of seat k is square (13k + 2 + p) mod 52', () => {
  assert.equal(squareOf(0, 1), 3);
  assert.equal(squareOf(3, 50), (39 + 52) % 52);
  for (let k = 0; k < 4; k += 1) {
    assert.deepEqual(planePosition(k, 7), trackSquare((13 * k + 9) % 52));
  }
});

test('F-BOARD: the turn-in square leads into a home column of 5 squares then the centre', () => {
  for (let k = 0; k < 4; k += 1) {
    const turnIn = planePosition(k, 50);
    const home = [51, 52, 53, 54, 55].map((p) => planePosition(k, p));
    assert.ok(Math.abs(dist(turnIn, home[0]) - 1) < 1e-9);
    for (let i = 1; i < 5; i += 1) assert.ok(Math.abs(dist(home[i - 1], home[i]) - 1) < 1e-9);
    const centre = planePosition(k, 56);
    assert.ok(dist(centre, { x: 0, y: 0 }) < dist(home[4], { x: 0, y: 0 }));
    // Home squares are not track squares.
    for (let s = 0; s < TRACK_LEN; s += 1) {
      for (const h of home) assert.ok(dist(h, trackSquare(s)) > 0.5);
    }
  }
});

test('F-BOARD: each shortcut runs 18 → 30 straight across the opposite arm, crossing its third home square', () => {
  for (let k = 0; k < 4; k += 1) {
    const { from, to, cross } = shortcut(k);
    assert.deepEqual(cross, homeSquare((k + 2) % 4, 3));
    // The crossing square lies on the segment from → to, at its middle.
    const mid = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 };
    assert.ok(dist(mid, cross) < 1e-9, `seat ${k}: middle ${JSON.stringify(mid)} vs ${JSON.stringify(cross)}`);
    // Both ends are squares of the flying colour.
    assert.equal(squareColour(squareOf(k, 18)), k);
    assert.equal(squareColour(squareOf(k, 30)), k);
  }
});

test('F-BOARD: the launch pad is next to the first square and off the track; hangar slots differ', () => {
  for (let k = 0; k < 4; k += 1) {
    const pad = launchPad(k);
    assert.ok(dist(pad, planePosition(k, 1)) < 1.6);
    for (let s = 0; s < TRACK_LEN; s += 1) assert.ok(dist(pad, trackSquare(s)) > 0.7);
    const slots = new Set([0, 1, 2, 3].map((i) => JSON.stringify(hangarSlot(k, i))));
    assert.equal(slots.size, 4);
  }
});

test('spot keys join planes of different seats on one track square', () => {
  // Red progress 14 and yellow progress 1 are both square 16.
  assert.equal(spotKey(0, 14), spotKey(1, 1));
  assert.equal(spotKey(0, 14), `track:${squareOf(0, 14)}`);
  assert.notEqual(spotKey(0, null, 0), spotKey(0, null, 1));
  assert.notEqual(spotKey(0, 53), spotKey(2, 53));
});

test('a walk passes every square in order', () => {
  const path = walkPath(0, 3, 7);
  assert.equal(path.length, 5);
  assert.deepEqual(path[4], planePosition(0, 7));
  assert.equal(walkPath(0, 56, 53).length, 4);
});
