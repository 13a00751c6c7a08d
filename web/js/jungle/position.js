// Jungle positions (shared/spec/jungle.md §1, §5): the FEN of the start position, parsing a
// FEN into a board, the squares of rivers, traps and dens, and applying a move for replays.

/** The start position (J-SETUP). */
export const START_FEN = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r';

/** File letters a..g. */
export const FILES = 'abcdefg';

/** Pictures of the animals (J-PIECES). */
export const EMOJI = { E: '🐘', L: '🦁', T: '🐯', P: '🐆', D: '🐶', W: '🐺', C: '🐱', R: '🐭' };

/** Chinese names of the animals. */
export const HANZI = { E: '象', L: '狮', T: '虎', P: '豹', D: '狗', W: '狼', C: '猫', R: '鼠' };

/** Ranks by the standard order (J-PIECES). */
export const RANK = { E: 8, L: 7, T: 6, P: 5, D: 4, W: 3, C: 2, R: 1 };

/** Square name of file index f (0..6) and rank index r (0..8, rank 1 = 0). */
export function squareName(f, r) {
  return `${FILES[f]}${r + 1}`;
}

/** [file, rank] indexes of a square name, or null. */
export function parseSquare(name) {
  const m = /^([a-g])([1-9])$/.exec(name);
  return m ? [FILES.indexOf(m[1]), Number(m[2]) - 1] : null;
}

/** Whether (f, r) is water (J-BOARD: b4–c6 and e4–f6). */
export function isWater(f, r) {
  return r >= 3 && r <= 5 && (f === 1 || f === 2 || f === 4 || f === 5);
}

/** 'red' / 'yellow' trap owner of (f, r), or null. */
export function trapOwner(f, r) {
  if ((r === 0 && (f === 2 || f === 4)) || (r === 1 && f === 3)) return 'red';
  if ((r === 8 && (f === 2 || f === 4)) || (r === 7 && f === 3)) return 'yellow';
  return null;
}

/** 'red' / 'yellow' den owner of (f, r), or null. */
export function denOwner(f, r) {
  if (f === 3 && r === 0) return 'red';
  if (f === 3 && r === 8) return 'yellow';
  return null;
}

/**
 * Parse a FEN: {board: Map square → {kind, side}, toMove: 'red'|'yellow'}.
 * Upper case is red, lower case yellow.
 */
export function parseFen(fen) {
  const [rows, side] = fen.trim().split(/\s+/);
  const ranks = rows.split('/');
  if (ranks.length !== 9) throw new Error(`bad FEN: ${fen}`);
  const board = new Map();
  ranks.forEach((row, i) => {
    const r = 8 - i;
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else {
        board.set(squareName(f, r), { kind: ch.toUpperCase(), side: ch === ch.toUpperCase() ? 'red' : 'yellow' });
        f += 1;
      }
    }
    if (f !== 7) throw new Error(`bad FEN rank ${row}`);
  });
  return { board, toMove: side === 'y' ? 'yellow' : 'red' };
}

/** Write a position back as FEN. */
export function toFen({ board, toMove }) {
  const rows = [];
  for (let r = 8; r >= 0; r -= 1) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 7; f += 1) {
      const p = board.get(squareName(f, r));
      if (!p) empty += 1;
      else {
        if (empty) row += empty;
        empty = 0;
        row += p.side === 'red' ? p.kind : p.kind.toLowerCase();
      }
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return `${rows.join('/')} ${toMove === 'yellow' ? 'y' : 'r'}`;
}

/**
 * Play a move (e.g. `e3e4`) on a position without checking legality — the server checked it.
 * Returns {position, captured} where captured is the taken piece or null.
 */
export function applyMove(position, move) {
  const from = move.slice(0, 2);
  const to = move.slice(2, 4);
  const board = new Map(position.board);
  const piece = board.get(from);
  if (!piece) throw new Error(`no piece on ${from} for ${move}`);
  const captured = board.get(to) || null;
  board.delete(from);
  board.set(to, piece);
  return { position: { board, toMove: position.toMove === 'red' ? 'yellow' : 'red' }, captured };
}
