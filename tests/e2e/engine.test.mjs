// Unit tests of the replay engine (shared/spec/flight.md rules it re-plays), run by node --test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlightReplayState, replayFlight } from '../../web/js/flight/engine.js';

const four = ['red', 'yellow', 'blue', 'green'];

function stateWith(planes, options = {}) {
  const st = new FlightReplayState(four, options);
  planes.forEach((list, seat) => list.forEach((p, i) => { st.planes[seat][i] = p; }));
  return st;
}

test('F-TAKEOFF: a 6 takes off to the launch pad; improved also 5', () => {
  const st = stateWith([]);
  st.roll(0, 6); st.move(0, 0);
  assert.equal(st.planes[0][0], 0);
  assert.equal(st.canMove(0, 1, 5), false);
  const imp = stateWith([], { preset: 'improved' });
  assert.equal(imp.canMove(0, 1, 5), true);
});

test('F-JUMP: ending on an own-colour square jumps 4', () => {
  const st = stateWith([[3]]);
  st.roll(0, 3); st.move(0, 0); // 3 + 3 = 6, own colour (6 ≡ 2 mod 4) → 10
  assert.equal(st.planes[0][0], 10);
});

test('F-FLY: a walk ending on 18 flies to 30 then jumps to 34; a jump onto 18 stops at 30', () => {
  const a = stateWith([[15]]);
  a.roll(0, 3); a.move(0, 0);
  assert.equal(a.planes[0][0], 34);
  const b = stateWith([[11]]);
  b.roll(0, 3); b.move(0, 0); // 14 → jump 18 → fly 30
  assert.equal(b.planes[0][0], 30);
});

test('F-CROSS: a single plane on the crossing square is sent home; a stack blocks the flight', () => {
  const a = stateWith([[15], [], [53]]);
  a.roll(0, 3); a.move(0, 0);
  assert.equal(a.planes[2][0], null);
  assert.equal(a.planes[0][0], 34);
  const b = stateWith([[15], [], [53, 53]]);
  b.roll(0, 3); b.move(0, 0);
  assert.equal(b.planes[0][0], 18);
  assert.deepEqual(b.planes[2].slice(0, 2), [53, 53]);
});

test('F-CAPTURE: landing on a single enemy sends it home', () => {
  // Red progress 14 and yellow progress 1 are the same square.
  const st = stateWith([[11], [1]]);
  st.roll(0, 3); st.move(0, 0);
  assert.equal(st.planes[1][0], null);
  assert.equal(st.captures[0], 1);
});

test('F-STACK-TRADITIONAL: a stack blocks; exact landing sends both back; a 6 sits on top', () => {
  const turned = stateWith([[10], [1, 1]]); // stack on red progress 14
  turned.roll(0, 5); turned.move(0, 0);
  assert.equal(turned.planes[0][0], 13); // 10 → 14 then back 1
  const landed = stateWith([[10], [1, 1]]);
  landed.roll(0, 4); landed.move(0, 0);
  assert.equal(landed.planes[0][0], null);
  assert.deepEqual(landed.planes[1].slice(0, 2), [null, null]);
  const sat = stateWith([[10], [1, 1]]);
  sat.roll(0, 6); sat.move(0, 0);
  assert.equal(sat.planes[0][0], 14);
});

test('F-STACK-IMPROVED: walks past stacks; landing sends the whole stack back and stays', () => {
  // Yellow's stack on its progress 2 is red's progress 15 (not a red square: no jump).
  const st = stateWith([[11], [2, 2]], { stacks: 'pass' });
  st.roll(0, 4); st.move(0, 0);
  assert.equal(st.planes[0][0], 15);
  assert.deepEqual(st.planes[1].slice(0, 2), [null, null]);
});

test('F-FINISH: bounce turns back; overshoot finishes', () => {
  const b = stateWith([[54]]);
  b.roll(0, 5); b.move(0, 0);
  assert.equal(b.planes[0][0], 53);
  const o = stateWith([[54]], { finish: 'overshoot' });
  o.roll(0, 5); o.move(0, 0);
  assert.equal(o.planes[0][0], 56);
  const e = stateWith([[54]], { finish: 'exact-only' });
  assert.equal(e.canMove(0, 0, 5), false);
});

test('F-THREE-SIXES: the third 6 sends every plane home under all-to-hangar', () => {
  const st = stateWith([[20, 56]], { three_sixes: 'all-to-hangar' });
  st.roll(0, 6); st.move(0, 0);
  st.roll(0, 6); st.move(0, 0);
  assert.equal(st.roll(0, 6), 'penalty');
  assert.deepEqual(st.planes[0], [null, null, null, null]);
});

test('replayFlight turns a record into one frame per action', () => {
  const record = {
    game: 'flight', options: { seats: 2, preset: 'traditional' }, colours: ['red', 'blue'],
    seats: [{ seat: 0 }, { seat: 1 }],
    actions: [
      { seat: 0, action: { kind: 'roll' }, roll: 6 }, { seat: 0, action: { kind: 'move', plane: 2 } },
      { seat: 0, action: { kind: 'roll' }, roll: 3 }, { seat: 0, action: { kind: 'move', plane: 2 } },
      { seat: 1, action: { kind: 'roll' }, roll: 2 },
    ],
  };
  const frames = replayFlight(record);
  assert.equal(frames.length, 6);
  assert.equal(frames[2].game.planes[0][2], 0);
  assert.equal(frames[4].game.planes[0][2], 3);
});
