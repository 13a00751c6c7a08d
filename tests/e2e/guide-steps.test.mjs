// The guided game's hint for each kind of moment, from the room state alone (no browser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { START_FEN } from '../../web/js/jungle/position.js';

// guide.js draws with snabbdom, whose style module looks for `window` when it loads.
globalThis.window ??= globalThis;
const { Guide, guideStep } = await import('../../web/js/guide.js');

const seats = (ready) => [{ player: { id: 1 }, ready }, { bot: 'random', ready: true }];
const flight = (game, extra = {}) => ({ game_kind: 'flight', status: 'playing', seats: seats(true), game: { kind: 'flight', ...game }, ...extra });
const jungle = (game) => ({ game_kind: 'jungle', status: 'playing', seats: seats(true), game: { kind: 'jungle', plies: 4, ...game } });

test('before the game: Ready until pressed, then the start; a finished game is done', () => {
  assert.equal(guideStep({ status: 'waiting', seats: seats(false) }, 0), 'ready');
  assert.equal(guideStep({ status: 'waiting', seats: seats(true) }, 0), 'start');
  assert.equal(guideStep({ status: 'waiting', ended: true, result: {}, seats: seats(false) }, 0), 'done');
});

test('F-TAKEOFF: a roll with every plane in the hangar says a 6 takes off; a move of a hangar plane is a take-off', () => {
  assert.equal(guideStep(flight({ to_move: 0, need: 'roll', planes: [[null, null], [null, null]] }), 0), 'roll_first');
  assert.equal(guideStep(flight({ to_move: 0, need: 'roll', planes: [[3, null], [null, null]] }), 0), 'roll');
  assert.equal(guideStep(flight({ to_move: 0, need: 'move', moves: [{ plane: 1 }], planes: [[3, null], [null, null]] }), 0), 'takeoff');
  assert.equal(guideStep(flight({ to_move: 0, need: 'move', moves: [{ plane: 0 }], planes: [[3, null], [null, null]] }), 0), 'move');
});

test('F-JUMP: the note of the player\'s last turn stays through the bot\'s turn and their own, until they act again', () => {
  const guide = new Guide(() => {});
  const state = flight({ to_move: 1, need: 'roll', planes: [[3, null], [null, null]] });
  assert.equal(guideStep(state, 0), 'bot_turn');
  guide.onEvent({ kind: 'rolled', seat: 0, value: 4 }, 0, null);
  guide.onEvent({ kind: 'moved', seat: 0, effects: [{ type: 'walked' }, { type: 'jumped' }] }, 0, null);
  assert.equal(guide.note, 'jumped');
  // The bot plays, then it is the player's turn again: the note is still there.
  guide.onEvent({ kind: 'rolled', seat: 1, value: 2 }, 0, null);
  guide.onEvent({ kind: 'turn', seat: 0, need: 'roll' }, 0, null);
  assert.equal(guide.note, 'jumped');
  // The player rolls: a new turn of theirs, the old note goes.
  guide.onEvent({ kind: 'rolled', seat: 0, value: 1 }, 0, null);
  assert.equal(guide.note, null);
});

test('J-RANK/J-LEAP: a capture on offer comes first, then a leap, then how to move', () => {
  // Red's lion on a5 beside yellow's rat on a6 (J-STEP), then a tiger on the river bank.
  assert.equal(guideStep(jungle({ fen: '7/7/7/r6/L6/7/7/7/7 r', to_move: 0, moves: ['a5a6', 'a5a4'] }), 0), 'j_capture');
  assert.equal(guideStep(jungle({ fen: '7/7/7/7/7/7/T6/7/7 r', to_move: 0, moves: ['a3d3', 'a3a2'] }), 0), 'j_leap');
  assert.equal(guideStep(jungle({ fen: START_FEN, to_move: 0, plies: 0, moves: ['a3a4'] }), 0), 'j_first');
  assert.equal(guideStep(jungle({ fen: START_FEN, to_move: 0, plies: 6, moves: ['a3a4'] }), 0), 'j_move');
});
