// The Jungle board drawn as SVG (J-BOARD): grass, two rivers, traps and dens, the animals as
// Chinese characters with pictures, legal targets, the selection, a keyboard cursor, and the
// last move marked.

import { s } from '../dom.js';
import { t, currentLang } from '../i18n.js';
import {
  FILES, EMOJI, HANZI, RANK, parseFen, squareName, parseSquare, isWater, trapOwner, denOwner,
} from './position.js';

const C = 60; // pixels per square

/** An interactive Jungle board. */
export class JungleBoard {
  constructor() {
    this.svg = s('svg', { viewBox: `-24 -24 ${7 * C + 48} ${9 * C + 48}`, class: 'jungle-board', role: 'group' });
    this.flipped = false;
    this.cells = s('g');
    this.marks = s('g', { class: 'marks' });
    this.pieces = s('g', { class: 'pieces' });
    this.dots = s('g', { class: 'dots' }); // target dots above the pieces, so captures stay clickable
    this.svg.append(this.cells, this.marks, this.pieces, this.dots);
    this.selected = null;
    this.cursor = null;
    this.moves = [];
    this.last = null;
    this.onMove = null;
    this.interactive = false;
    this.svg.addEventListener('click', (e) => {
      const sq = e.target.closest('[data-square]')?.dataset.square;
      if (sq) this.clickSquare(sq);
    });
    this.drawStatic();
  }

  xy(f, r) {
    const col = this.flipped ? 6 - f : f;
    const row = this.flipped ? r : 8 - r;
    return { x: col * C, y: row * C };
  }

  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.drawStatic();
    if (this.fen) this.render(this.fen, this.last);
  }

  drawStatic() {
    const g = [];
    g.push(s('rect', { x: -24, y: -24, width: 7 * C + 48, height: 9 * C + 48, rx: 18, class: 'jungle-frame' }));
    for (let r = 0; r < 9; r += 1) {
      for (let f = 0; f < 7; f += 1) {
        const { x, y } = this.xy(f, r);
        const name = squareName(f, r);
        let cls = (f + r) % 2 ? 'grass-a' : 'grass-b';
        if (isWater(f, r)) cls = 'water';
        g.push(s('rect', { x, y, width: C, height: C, class: `cell ${cls}`, 'data-square': name }));
        const trap = trapOwner(f, r);
        if (trap) {
          g.push(s('rect', { x: x + 6, y: y + 6, width: C - 12, height: C - 12, rx: 8, class: `trap trap-${trap}`, 'data-square': name }));
          g.push(s('text', { x: x + C / 2, y: y + C / 2 + 7, class: 'cell-glyph', 'text-anchor': 'middle', 'data-square': name }, '⛓'));
        }
        const den = denOwner(f, r);
        if (den) {
          g.push(s('circle', { cx: x + C / 2, cy: y + C / 2, r: C / 2 - 5, class: `den den-${den}`, 'data-square': name }));
          g.push(s('text', { x: x + C / 2, y: y + C / 2 + 9, class: 'cell-glyph den-glyph', 'text-anchor': 'middle', 'data-square': name }, '穴'));
        }
      }
    }
    // Rivers drawn over their squares as one rounded pool each, with waves.
    for (const f0 of [1, 4]) {
      const a = this.xy(this.flipped ? f0 + 1 : f0, this.flipped ? 3 : 5);
      g.push(s('rect', { x: a.x + 3, y: a.y + 3, width: 2 * C - 6, height: 3 * C - 6, rx: 16, class: 'river', 'pointer-events': 'none' }));
      for (let i = 0; i < 3; i += 1) {
        g.push(s('path', {
          d: `M${a.x + 18},${a.y + 32 + i * C} q12,-10 24,0 t24,0 t24,0 t24,0`, class: 'wave', 'pointer-events': 'none',
        }));
      }
    }
    // File and rank labels.
    for (let f = 0; f < 7; f += 1) {
      const { x } = this.xy(f, 0);
      g.push(s('text', { x: x + C / 2, y: 9 * C + 17, class: 'coord', 'text-anchor': 'middle' }, FILES[f]));
    }
    for (let r = 0; r < 9; r += 1) {
      const { y } = this.xy(0, r);
      g.push(s('text', { x: -12, y: y + C / 2 + 5, class: 'coord', 'text-anchor': 'middle' }, String(r + 1)));
    }
    this.cells.replaceChildren(...g);
  }

  /** The rank of a piece kind; under `order = wolf-over-dog` the dog and the wolf swap (J-PIECES). */
  rankOf(kind) {
    if (this.wolfOverDog && (kind === 'D' || kind === 'W')) return RANK[kind === 'D' ? 'W' : 'D'];
    return RANK[kind];
  }

  /**
   * Draw the pieces of `fen`, marking the last move (e.g. "e3e4"). With `slideMs` > 0 the piece
   * that made the last move slides to its square from where it stood (marked `data-moved-from`).
   */
  render(fen, last, slideMs = 0) {
    // A player who asks for less motion gets the move at once (CSS cannot stop these).
    if (globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches) slideMs = 0;
    this.fen = fen;
    this.last = last;
    // The pieces are drawn again only when something they show changed: a redraw for another
    // reason (a turn, the timer) would cut a slide short.
    const drawn = `${fen}|${currentLang()}|${this.flipped}|${!!this.wolfOverDog}`;
    if (drawn === this.drawn && !slideMs) {
      this.drawMarks();
      return;
    }
    this.drawn = drawn;
    // A group of named pieces (the keys move a cursor over it), not an ARIA grid without cells.
    this.svg.setAttribute('aria-label', t('jungle_board_label'));
    const { board } = parseFen(fen);
    const out = [];
    for (const [name, p] of board) {
      const [f, r] = parseSquare(name);
      const { x, y } = this.xy(f, r);
      out.push(s('g', {
        class: `piece piece-${p.side}`, 'data-square': name, 'data-piece': p.kind, transform: `translate(${x + C / 2},${y + C / 2})`,
        role: 'img', 'aria-label': t('piece_name', { side: t(p.side), animal: t('animals')[p.kind], rank: this.rankOf(p.kind), square: name }),
      },
      s('circle', { r: C / 2 - 5, class: 'piece-disc' }),
      s('text', { y: 2, class: 'piece-emoji', 'text-anchor': 'middle' }, EMOJI[p.kind]),
      s('text', { y: 22, class: 'piece-hanzi', 'text-anchor': 'middle' }, HANZI[p.kind]),
      // The rank (J-PIECES, J-RANK) in the corner: who captures whom is read off the pieces.
      s('circle', { cx: C / 2 - 12, cy: -(C / 2 - 12), r: 9, class: 'piece-rank-disc' }),
      s('text', { x: C / 2 - 12, y: -(C / 2 - 12) + 4, class: 'piece-rank', 'text-anchor': 'middle' }, String(this.rankOf(p.kind)))));
    }
    // The piece the move took, as it was drawn, fades out under the one sliding onto it.
    const taken = slideMs > 0 && last ? this.pieces.querySelector(`.piece[data-square="${last.slice(2, 4)}"]`) : null;
    this.pieces.replaceChildren(...out);
    if (taken) this.fadeTaken(taken, slideMs);
    if (slideMs > 0 && last) this.slide(last, slideMs);
    this.drawMarks();
  }

  /** Keep the taken piece `el` on its square while the taker slides in, fading, then drop it. */
  fadeTaken(el, ms) {
    // No longer a piece of the position: not named, not counted, not clickable.
    el.setAttribute('class', 'piece-taken');
    el.setAttribute('aria-hidden', 'true');
    el.removeAttribute('role');
    el.removeAttribute('aria-label');
    el.removeAttribute('data-square');
    this.pieces.prepend(el);
    const fade = el.animate?.([{ opacity: 1 }, { opacity: 0 }], { duration: ms, fill: 'forwards' });
    if (fade) fade.finished.then(() => el.remove(), () => el.remove());
    else el.remove();
  }

  /** Slide the piece now on the target of `move` from the move's origin (SVG user units). */
  slide(move, ms) {
    const from = parseSquare(move.slice(0, 2));
    const to = parseSquare(move.slice(2, 4));
    const piece = this.pieces.querySelector(`[data-square="${move.slice(2, 4)}"]`);
    if (!from || !to || !piece) return;
    piece.dataset.movedFrom = move.slice(0, 2);
    const a = this.xy(...from);
    const b = this.xy(...to);
    const at = (p) => `translate(${p.x + C / 2}px, ${p.y + C / 2}px)`;
    // Raised above the others while it travels, so it passes over them.
    this.pieces.append(piece);
    piece.animate?.([{ transform: at(a) }, { transform: at(b) }], { duration: ms, easing: 'ease-out' });
  }

  setMoves(moves, interactive, onMove) {
    this.moves = moves || [];
    this.interactive = interactive;
    this.onMove = onMove;
    if (this.selected && !this.moves.some((m) => m.startsWith(this.selected))) this.selected = null;
    this.drawMarks();
  }

  drawMarks() {
    const out = [];
    const dots = [];
    const mark = (name, cls) => {
      const sq = parseSquare(name);
      if (!sq) return;
      const { x, y } = this.xy(sq[0], sq[1]);
      out.push(s('rect', { x: x + 2, y: y + 2, width: C - 4, height: C - 4, rx: 10, class: cls, 'data-square': name }));
    };
    if (this.last) {
      mark(this.last.slice(0, 2), 'last-from');
      mark(this.last.slice(2, 4), 'last-to');
    }
    if (this.interactive) {
      const froms = new Set(this.moves.map((m) => m.slice(0, 2)));
      for (const f of froms) mark(f, f === this.selected ? 'selected' : 'movable-from');
      if (this.selected) {
        for (const m of this.moves.filter((mv) => mv.startsWith(this.selected))) {
          const sq = parseSquare(m.slice(2, 4));
          const { x, y } = this.xy(sq[0], sq[1]);
          dots.push(s('circle', { cx: x + C / 2, cy: y + C / 2, r: 11, class: 'target-dot', 'data-square': m.slice(2, 4), 'data-move': m }));
        }
      }
    }
    if (this.cursor) mark(this.cursor, 'cursor');
    this.marks.replaceChildren(...out);
    this.dots.replaceChildren(...dots);
  }

  clickSquare(name) {
    if (!this.interactive) return;
    if (this.selected) {
      const move = `${this.selected}${name}`;
      if (this.moves.includes(move)) {
        this.selected = null;
        this.onMove?.(move);
        return;
      }
    }
    this.selected = this.moves.some((m) => m.startsWith(name)) ? name : null;
    this.drawMarks();
  }

  /** Keyboard: move the cursor with arrows (in screen directions), select with Enter/space. */
  key(k) {
    const cur = parseSquare(this.cursor || this.selected || (this.flipped ? 'd9' : 'd1'));
    let [f, r] = cur;
    const sign = this.flipped ? -1 : 1;
    if (k === 'ArrowUp') r += sign;
    else if (k === 'ArrowDown') r -= sign;
    else if (k === 'ArrowLeft') f -= sign;
    else if (k === 'ArrowRight') f += sign;
    else if (k === 'Enter' || k === ' ') {
      if (this.cursor) this.clickSquare(this.cursor);
      return true;
    } else if (k === 'Escape') {
      this.selected = null;
      this.drawMarks();
      return true;
    } else return false;
    f = Math.max(0, Math.min(6, f));
    r = Math.max(0, Math.min(8, r));
    this.cursor = squareName(f, r);
    this.drawMarks();
    return true;
  }
}
