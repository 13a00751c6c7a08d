// What a Jungle player reads beside the board: the moves played in notation (jungle.md §5),
// numbered by move, and the pieces each side has lost (J-CAPTURE).

import { h, mount } from '../dom.js';
import { t } from '../i18n.js';
import { EMOJI, RANK, parseFen } from './position.js';

/** Every animal kind, strongest first: each side starts with one of each (J-SETUP). */
const KINDS = ['E', 'L', 'T', 'P', 'D', 'W', 'C', 'R'];

/** The kinds each side has lost by `fen`: {red: [...], yellow: [...]}, strongest first. */
export function lostPieces(fen) {
  const lost = { red: [], yellow: [] };
  if (!fen) return lost;
  const left = { red: new Set(), yellow: new Set() };
  for (const p of parseFen(fen).board.values()) left[p.side].add(p.kind);
  for (const side of ['red', 'yellow']) lost[side] = KINDS.filter((k) => !left[side].has(k));
  return lost;
}

/**
 * The move list: one entry per ply this page saw (`ply` from the game's count after the move,
 * so a page that joined mid-game numbers its moves right and starts with "…").
 */
export class MoveList {
  constructor() {
    this.plies = [];
    this.list = h('ol', { class: 'move-list', id: 'move-list', tabindex: 0, 'aria-label': t('move_list') });
    this.tray = h('div', { class: 'captured-tray', id: 'captured-tray' });
    this.el = h('section', { class: 'card jungle-record' },
      h('h2', { 'data-i18n': 'move_list' }, t('move_list')), this.list, this.tray);
  }

  /** Forget the moves (a new game in the same room). */
  reset() {
    this.plies = [];
  }

  /**
   * Note ply `ply` (1 = red's first move): `move` in notation, `taken` the kind taken or null,
   * `piece` the kind that moved (null for a pass).
   */
  add(ply, move, taken, piece = null) {
    if (this.plies.some((p) => p.ply === ply)) return;
    this.plies.push({ ply, move, taken, piece });
    this.plies.sort((a, b) => a.ply - b.ply);
  }

  /** Draw the list and the lost pieces of position `fen`. */
  render(fen) {
    this.list.setAttribute('aria-label', t('move_list'));
    const rows = [];
    const first = this.plies[0]?.ply;
    if (first > 1) rows.push(h('li', { class: 'move-gap' }, '…'));
    for (const { ply, move, taken, piece } of this.plies) {
      const red = ply % 2 === 1;
      rows.push(h('li', { class: `move move-${red ? 'red' : 'yellow'}`, 'data-ply': ply },
        red || ply === first ? h('span', { class: 'move-no' }, `${Math.ceil(ply / 2)}.${red ? '' : '..'}`) : null,
        // The animal that moved, not bare squares: "🐶 f2f3".
        piece ? h('span', { class: 'move-piece', title: t('animals')[piece] }, EMOJI[piece], ' ') : null,
        h('span', { class: 'move-text' }, move, taken ? ` ×${EMOJI[taken]}` : '')));
    }
    mount(this.list, rows);
    this.list.scrollTop = this.list.scrollHeight;
    const lost = lostPieces(fen);
    mount(this.tray, ['red', 'yellow'].map((side) => h('div', {
      class: `tray tray-${side}`, id: `lost-${side}`, 'data-count': lost[side].length,
    }, h('span', { class: `dot c-${side}` }), h('span', { class: 'tray-label' }, t('lost_pieces', { side: t(side) })),
    lost[side].length
      ? lost[side].map((k) => h('span', { class: 'tray-piece', title: `${t('animals')[k]} (${RANK[k]})`, 'data-piece': k }, EMOJI[k]))
      : h('span', { class: 'tray-none' }, '—'))));
  }
}
