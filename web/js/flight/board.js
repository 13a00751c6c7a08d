// The Aeroplane Chess board drawn as SVG (F-BOARD) with its planes, highlights and the
// animations of moves. Geometry comes from geometry.js; this module only draws.

import { h, s } from '../dom.js';
import { optionHelp } from '../rules.js';
import { t } from '../i18n.js';
import {
  COLOURS, TRACK_LEN, trackSquare, squareColour, homeSquare, finishSquare, launchPad,
  hangarCentre, hangarSlot, planePosition, spotKey, shortcut, FINISH,
} from './geometry.js';
import { placeName } from './log.js';

/** Pixels per board unit (the SVG viewBox is 15 units × U). */
export const U = 40;

/** Board colours: strong, light and dark shade of each seat colour. */
export const PALETTE = {
  red: { main: '#e5484d', light: '#ffd9d9', dark: '#a3272c' },
  yellow: { main: '#f2b518', light: '#fff0c2', dark: '#a77a00' },
  blue: { main: '#3b82e0', light: '#d6e6fb', dark: '#1d4f94' },
  green: { main: '#2fa56a', light: '#d1f0df', dark: '#17663e' },
};

// An aeroplane seen from above, nose up, about one unit wide (path in 1/100 units).
const PLANE_PATH = 'M0,-46 C7,-46 9,-38 9,-30 L9,-13 L46,8 L46,19 L9,9 L8,28 L21,38 L21,46 L0,40 '
  + 'L-21,46 L-21,38 L-8,28 L-9,9 L-46,19 L-46,8 L-9,-13 L-9,-30 C-9,-38 -7,-46 0,-46 Z';

const px = (p) => ({ x: p.x * U, y: p.y * U });

function square(x, y, fill, extra = {}) {
  return s('rect', {
    x: (x - 0.44) * U, y: (y - 0.44) * U, width: 0.88 * U, height: 0.88 * U, rx: 0.18 * U, fill, ...extra,
  });
}

// Heading (degrees, 0 = up) of a plane of `seat` resting at `progress`: along its route.
function headingAt(seat, progress) {
  if (progress === null || progress === undefined) {
    const c = hangarCentre(seat);
    return (Math.atan2(-c.x, c.y) * 180) / Math.PI; // nose towards the centre
  }
  if (progress >= FINISH) {
    const f = finishSquare(seat);
    return (Math.atan2(-f.x, f.y) * 180) / Math.PI;
  }
  const a = planePosition(seat, progress);
  const b = planePosition(seat, progress + 1);
  return headingBetween(a, b);
}

function headingBetween(a, b) {
  return (Math.atan2(b.x - a.x, -(b.y - a.y)) * 180) / Math.PI;
}

function arrowHead(id, colour) {
  return s('marker', {
    id, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto-start-reverse',
  }, s('path', { d: 'M0,0 L10,5 L0,10 z', fill: colour }));
}

/** Draw the static board (everything but the planes) as an SVG group. */
export function drawBoard(seatColours = COLOURS) {
  const defs = s('defs', {},
    COLOURS.map((c) => arrowHead(`arrow-${c}`, PALETTE[c].dark)),
    s('filter', { id: 'plane-shadow', x: '-50%', y: '-50%', width: '200%', height: '200%' },
      s('feDropShadow', { dx: 0, dy: 2, stdDeviation: 1.6, 'flood-opacity': 0.35 })),
    s('radialGradient', { id: 'board-bg', cx: '50%', cy: '50%', r: '70%' },
      s('stop', { offset: '0%', 'stop-color': '#fdfbf3' }),
      s('stop', { offset: '100%', 'stop-color': '#efe8d4' })));
  const g = s('g', { class: 'board-static' });
  g.append(defs);
  g.append(s('rect', { x: -7.5 * U, y: -7.5 * U, width: 15 * U, height: 15 * U, rx: 0.5 * U, fill: 'url(#board-bg)', class: 'board-bg' }));

  // Hangars in the corners, each in its colour, with four parking spots.
  for (let k = 0; k < 4; k += 1) {
    const colour = COLOURS[k];
    const c = px(hangarCentre(k));
    const used = seatColours.includes(colour);
    g.append(s('rect', {
      x: c.x - 1.75 * U, y: c.y - 1.75 * U, width: 3.5 * U, height: 3.5 * U, rx: 0.6 * U,
      fill: PALETTE[colour].light, stroke: PALETTE[colour].main, 'stroke-width': 3, class: `hangar hangar-${colour}`,
      opacity: used ? 1 : 0.45,
    }));
    for (let i = 0; i < 4; i += 1) {
      const p = px(hangarSlot(k, i));
      g.append(s('circle', { cx: p.x, cy: p.y, r: 0.62 * U, fill: '#fff', stroke: PALETTE[colour].main, 'stroke-width': 2, 'stroke-dasharray': '4 3' }));
    }
    const pad = px(launchPad(k));
    g.append(s('circle', { cx: pad.x, cy: pad.y, r: 0.46 * U, fill: PALETTE[colour].main, stroke: '#fff', 'stroke-width': 3, class: 'launch-pad' }));
    const first = px(planePosition(k, 1));
    g.append(s('line', {
      x1: pad.x + (first.x - pad.x) * 0.45, y1: pad.y + (first.y - pad.y) * 0.45,
      x2: pad.x + (first.x - pad.x) * 0.62, y2: pad.y + (first.y - pad.y) * 0.62,
      stroke: PALETTE[colour].dark, 'stroke-width': 3, 'marker-end': `url(#arrow-${colour})`,
    }));
  }

  // Home columns: a wide runway of five squares from the turn-in square to the centre.
  for (let k = 0; k < 4; k += 1) {
    const colour = COLOURS[k];
    for (let i = 1; i <= 5; i += 1) {
      const p = homeSquare(k, i);
      const horizontal = k % 2 === 1; // left and right arms run horizontally
      const w = horizontal ? 0.88 : 2.7;
      const h = horizontal ? 2.7 : 0.88;
      g.append(s('rect', {
        x: (p.x - w / 2) * U, y: (p.y - h / 2) * U, width: w * U, height: h * U, rx: 0.2 * U,
        fill: i === 3 ? PALETTE[colour].main : PALETTE[colour].light, stroke: PALETTE[colour].main, 'stroke-width': 2,
        class: `home home-${colour}`, opacity: i === 3 ? 0.85 : 1,
      }));
      const c = px(p);
      const angle = headingBetween(homeSquare(k, 1), homeSquare(k, 2));
      g.append(s('path', {
        d: 'M-7,4 L0,-4 L7,4', fill: 'none', stroke: i === 3 ? '#fff' : PALETTE[colour].main, 'stroke-width': 2.5,
        'stroke-linecap': 'round', transform: `translate(${c.x},${c.y}) rotate(${angle})`, opacity: 0.8,
      }));
    }
  }

  // The centre: four triangles, one finish per colour.
  const corners = [[-1.5, 1.5], [-1.5, -1.5], [1.5, -1.5], [1.5, 1.5]]; // bottom-left, top-left, top-right, bottom-right
  for (let k = 0; k < 4; k += 1) {
    // Red's arm is at the bottom: its triangle spans bottom-right → bottom-left corners.
    const a = corners[(k + 3) % 4];
    const b = corners[k % 4];
    g.append(s('path', {
      d: `M${a[0] * U},${a[1] * U} L${b[0] * U},${b[1] * U} L0,0 Z`, fill: PALETTE[COLOURS[k]].main,
      stroke: '#fff', 'stroke-width': 3, class: `finish finish-${COLOURS[k]}`,
    }));
  }
  g.append(s('circle', { cx: 0, cy: 0, r: 0.42 * U, fill: '#fff', opacity: 0.9 }));
  g.append(s('text', { x: 0, y: 6, 'text-anchor': 'middle', class: 'centre-star' }, '★'));

  // The outer track: 52 squares, coloured in seating order.
  for (let i = 0; i < TRACK_LEN; i += 1) {
    const p = trackSquare(i);
    const colour = COLOURS[squareColour(i)];
    g.append(square(p.x, p.y, PALETTE[colour].main, { stroke: '#fff', 'stroke-width': 2.5, class: `track track-${colour}`, 'data-square': i }));
  }
  // Turn-in squares point into their home column.
  for (let k = 0; k < 4; k += 1) {
    const c = px(planePosition(k, 50));
    const angle = headingBetween(planePosition(k, 50), homeSquare(k, 1));
    g.append(s('path', {
      d: 'M0,-11 L9,2 L3,2 L3,10 L-3,10 L-3,2 L-9,2 Z', fill: '#fff', opacity: 0.9,
      transform: `translate(${c.x},${c.y}) rotate(${angle})`,
    }));
  }

  // The four shortcuts (F-FLY): dashed lines 18 → 30 across the opposite arm, with arrows.
  for (let k = 0; k < 4; k += 1) {
    const colour = COLOURS[k];
    const { from, to } = shortcut(k);
    const a = px(from);
    const b = px(to);
    const dx = (b.x - a.x) / Math.hypot(b.x - a.x, b.y - a.y);
    const dy = (b.y - a.y) / Math.hypot(b.x - a.x, b.y - a.y);
    g.append(s('line', {
      x1: a.x + dx * 0.5 * U, y1: a.y + dy * 0.5 * U, x2: b.x - dx * 0.55 * U, y2: b.y - dy * 0.55 * U,
      stroke: PALETTE[colour].dark, 'stroke-width': 3.5, 'stroke-dasharray': '8 6', 'stroke-linecap': 'round',
      'marker-end': `url(#arrow-${colour})`, class: `shortcut shortcut-${colour}`,
    }));
    // A small plane icon on the shortcut's start square.
    g.append(s('path', {
      d: PLANE_PATH, fill: '#fff', opacity: 0.85,
      transform: `translate(${a.x},${a.y}) rotate(${headingBetween(from, to)}) scale(0.3)`,
    }));
  }
  return g;
}

/** What a screen reader says of a plane: colour, number and where it is. */
function planeName(colour, plane, progress) {
  let where;
  if (progress === null || progress === undefined) where = t('where_hangar');
  else if (progress === 0) where = t('where_pad');
  else if (progress === FINISH) where = t('where_home');
  else where = t('where_step', { n: progress });
  return t('plane_name', { colour: t(colour), n: plane + 1, where });
}

/** Build one plane's SVG group (position and rotation set later by `placePlane`). */
function makePlane(seat, plane, colour) {
  const body = s('path', {
    d: PLANE_PATH, fill: PALETTE[colour].main, stroke: '#fff', 'stroke-width': 6, filter: 'url(#plane-shadow)',
    transform: 'scale(0.0085)', class: 'plane-body',
  });
  const scaled = s('g', { transform: `scale(${U})` }, body);
  const rot = s('g', { class: 'plane-rot' }, scaled);
  const ring = s('circle', { r: 0.5 * U, class: 'plane-ring' });
  // What a finger hits: grown by `highlight` as far as the neighbouring choices allow.
  const hit = s('circle', { r: 0.5 * U, class: 'plane-hit' });
  const badge = s('g', { class: 'plane-badge' },
    s('circle', { cx: 0.36 * U, cy: -0.36 * U, r: 0.24 * U, fill: '#1f2430', stroke: '#fff', 'stroke-width': 1.5 }),
    s('text', { x: 0.36 * U, y: -0.36 * U + 4.5, 'text-anchor': 'middle', class: 'badge-text' }, ''));
  const label = s('text', { x: -0.38 * U, y: 0.48 * U, class: 'plane-label' }, String(plane + 1));
  const g = s('g', {
    class: `plane plane-${colour}`, 'data-seat': seat, 'data-plane': plane, role: 'button',
  }, hit, ring, rot, label, badge);
  return g;
}

/** The live board: static drawing + planes, with highlight and animation methods. */
export class FlightBoard {
  constructor() {
    this.svg = s('svg', {
      // A group, not an image: it holds the planes a player presses.
      viewBox: `${-7.5 * U} ${-7.5 * U} ${15 * U} ${15 * U}`, class: 'flight-board', role: 'group',
    });
    this.staticLayer = s('g');
    this.markLayer = s('g', { class: 'marks' });
    this.itemLayer = s('g', { class: 'items' });
    this.labelLayer = s('g', { class: 'hangar-labels' });
    this.planeLayer = s('g', { class: 'planes' });
    this.fxLayer = s('g', { class: 'fx' });
    this.svg.append(this.staticLayer, this.labelLayer, this.itemLayer, this.markLayer, this.planeLayer, this.fxLayer);
    this.planes = new Map(); // "seat:plane" → element
    this.colours = COLOURS;
    this.game = null;
    this.onPick = null;
    this.speed = 1;
    this.moves = [];
    this.chooser = null;
    this.svg.addEventListener('click', (e) => {
      const el = e.target.closest('.plane.movable, .hangar-target');
      if (!el || !this.onPick) return;
      // Planes on one square that go different ways: tap the square, then pick the plane.
      const stacked = el.classList.contains('plane') ? this.stackedMoves(el) : [];
      if (stacked.length > 1) this.showChooser(stacked, e);
      else this.onPick(Number(el.dataset.plane));
    });
    // A movable plane reached with Tab moves on Enter or Space, like any button.
    this.svg.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      const el = e.target.closest?.('.plane.movable');
      if (!el || !this.onPick) return;
      e.preventDefault();
      e.stopPropagation();
      this.onPick(Number(el.dataset.plane));
    });
  }

  /** Colour index (geometry seat) of room seat `seat`. */
  colourIndex(seat) {
    return COLOURS.indexOf(this.colours[seat]);
  }

  /** Draw the board for the game's seat colours (once per game). */
  setColours(colours) {
    const key = colours.join(',');
    if (key === this.coloursKey) return;
    this.coloursKey = key;
    this.colours = colours;
    this.staticLayer.replaceChildren(drawBoard(colours.filter(Boolean)));
    this.planeLayer.replaceChildren();
    this.planes.clear();
  }

  planeEl(seat, plane) {
    const key = `${seat}:${plane}`;
    let el = this.planes.get(key);
    if (!el) {
      el = makePlane(seat, plane, this.colours[seat]);
      this.planes.set(key, el);
      this.planeLayer.append(el);
    }
    return el;
  }

  /**
   * Write each player's name on the outer edge of its hangar, with 🤖 when on auto-play and
   * ⚡ on the seat to move. `labels[seat]` = {name, auto, toMove} or null.
   */
  setLabels(labels) {
    const key = JSON.stringify(labels);
    if (key === this.labelsKey) return;
    this.labelsKey = key;
    const out = [];
    labels.forEach((label, seat) => {
      if (!label || !this.colours[seat]) return;
      const c = hangarCentre(this.colourIndex(seat));
      const y = (c.y + Math.sign(c.y) * 1.52) * U;
      const text = `${label.toMove ? '▶ ' : ''}${label.name}${label.auto ? ' 🤖' : ''}`;
      out.push(s('text', {
        x: c.x * U, y: y + (c.y > 0 ? 9 : 4), 'text-anchor': 'middle',
        class: `hangar-label ${label.toMove ? 'to-move' : ''}`, fill: PALETTE[this.colours[seat]].dark,
      }, text.length > 18 ? `${text.slice(0, 17)}…` : text));
    });
    this.labelLayer.replaceChildren(...out);
  }

  /** Draw the items lying on the board and the weather cell (F-ITEM-SPAWN, F-WEATHER). */
  renderItems(game) {
    const out = [];
    for (const item of game.items || []) {
      const p = px(trackSquare(item.square));
      out.push(s('g', { class: 'board-item', 'data-item': item.item, transform: `translate(${p.x},${p.y})` },
        s('title', {}, optionHelp(`item_${item.item}`)),
        s('circle', { r: 0.36 * U, fill: '#fff', opacity: 0.9 }),
        s('text', { y: 7, 'text-anchor': 'middle', class: 'item-glyph' }, item.item === 'booster' ? '🚀' : '🎲')));
    }
    if (game.weather) {
      const p = px(trackSquare(game.weather.square));
      const glyph = { storm: '⛈', tailwind: '🌬', headwind: '🌪' }[game.weather.kind] || '☁';
      out.push(s('g', { class: 'board-weather', 'data-weather': game.weather.kind, transform: `translate(${p.x},${p.y})` },
        s('title', {}, optionHelp(`weather_${game.weather.kind}`)),
        s('circle', { r: 0.46 * U, fill: 'rgba(30,41,59,.25)' }),
        s('text', { y: 8, 'text-anchor': 'middle', class: 'item-glyph' }, glyph)));
    }
    this.itemLayer.replaceChildren(...out);
  }

  /** Put every plane where `game` says, stacking planes that share a square. */
  render(game) {
    this.game = game;
    this.svg.setAttribute('aria-label', t('flight_board_label'));
    if (game.colours) this.setColours(game.colours);
    this.renderItems(game);
    const spots = new Map();
    const present = new Set();
    game.planes.forEach((planes, seat) => {
      if (!planes || this.colours[seat] === null || this.colours[seat] === undefined) return;
      planes.forEach((progress, plane) => {
        const c = this.colourIndex(seat);
        const key = spotKey(c, progress, plane);
        if (!spots.has(key)) spots.set(key, []);
        spots.get(key).push({ seat, plane, progress, c });
        present.add(`${seat}:${plane}`);
      });
    });
    for (const [key, el] of this.planes) {
      if (!present.has(key)) el.remove();
    }
    for (const list of spots.values()) {
      list.forEach((item, i) => {
        const el = this.planeEl(item.seat, item.plane);
        if (!el.isConnected) this.planeLayer.append(el);
        const base = planePosition(item.c, item.progress, item.plane);
        // Stacked planes fan out a little so every one stays visible.
        const offset = list.length > 1 ? (i - (list.length - 1) / 2) * 0.16 : 0;
        this.placePlane(el, { x: base.x + offset, y: base.y + offset * 0.6 }, headingAt(item.c, item.progress));
        el.classList.toggle('finished', item.progress === FINISH);
        el.querySelector('.plane-badge').style.display = list.length > 1 && i === list.length - 1 ? '' : 'none';
        el.querySelector('.badge-text').textContent = String(list.length);
        el.dataset.progress = item.progress === null ? 'hangar' : String(item.progress);
        el.setAttribute('aria-label', planeName(this.colours[item.seat], item.plane, item.progress));
      });
      // The top of a stack is drawn last.
      for (const item of list) this.planeLayer.append(this.planeEl(item.seat, item.plane));
    }
  }

  placePlane(el, point, heading) {
    el.style.transform = `translate(${point.x * U}px, ${point.y * U}px)`;
    el.querySelector('.plane-rot').style.transform = `rotate(${heading}deg)`;
    el.dataset.x = point.x;
    el.dataset.y = point.y;
    el.dataset.heading = heading;
  }

  /** Highlight the planes of `seat` that can move (`moves` of the game view) and take clicks. */
  highlight(seat, moves, onPick) {
    this.onPick = onPick;
    this.moves = moves || [];
    this.seat = seat;
    this.closeChooser();
    this.markLayer.replaceChildren();
    for (const el of this.planes.values()) {
      el.classList.remove('movable');
      el.removeAttribute('tabindex');
      el.setAttribute('aria-disabled', 'true');
    }
    if (!moves || seat === null || seat === undefined) return;
    const c = this.colourIndex(seat);
    const movable = [];
    for (const m of moves) {
      const el = this.planes.get(`${seat}:${m.plane}`);
      if (el) {
        el.classList.add('movable');
        el.setAttribute('tabindex', '0');
        el.removeAttribute('aria-disabled');
        movable.push(el);
        // On top of the planes it shares a square with (or overlaps): a plane drawn over it
        // would take the click aimed at it, and the player could not choose it.
        if (el.nextSibling) this.planeLayer.append(el);
      }
      if (m.to !== null && m.to !== undefined && m.to <= 60) {
        const p = px(planePosition(c, m.to, m.plane));
        this.markLayer.append(s('circle', { cx: p.x, cy: p.y, r: 0.4 * U, class: 'target-mark', 'data-plane': m.plane }));
      }
    }
    this.growTargets(c, movable);
  }

  /**
   * Make the movable planes easy to hit on a phone, where a plane is about 25 px wide and a
   * finger wants 44 px: each plane's hit circle grows to almost a square's width, but only to
   * half the distance to the next movable plane, so two choices never cover each other. Planes
   * waiting in the hangar all take off alike, so the whole hangar is one target for the first.
   */
  growTargets(colourIndex, movable) {
    const at = (el) => ({ x: Number(el.dataset.x), y: Number(el.dataset.y) });
    for (const el of this.planes.values()) el.querySelector('.plane-hit').setAttribute('r', 0.5 * U);
    const parked = movable.filter((el) => el.dataset.progress === 'hangar');
    if (parked.length) {
      const hangar = px(hangarCentre(colourIndex));
      this.markLayer.append(s('rect', {
        x: hangar.x - 1.75 * U, y: hangar.y - 1.75 * U, width: 3.5 * U, height: 3.5 * U, rx: 0.6 * U, class: 'hangar-target',
        'data-seat': parked[0].dataset.seat, 'data-plane': Math.min(...parked.map((el) => Number(el.dataset.plane))),
      }));
    }
    for (const el of movable) {
      if (el.dataset.progress === 'hangar') continue;
      const me = at(el);
      let room = 1.9;
      for (const other of movable) {
        const o = at(other);
        const d = Math.hypot(o.x - me.x, o.y - me.y);
        // Planes fanned out on one square are one choice: the one drawn on top takes it.
        if (other !== el && d > 0.3) room = Math.min(room, d);
      }
      el.querySelector('.plane-hit').setAttribute('r', Math.max(0.5, room / 2) * U);
    }
  }

  /**
   * The moves of the planes drawn on the spot of movable plane `el` (its own, fanned out a
   * little): more than one when the planes there go different ways (equal moves are listed
   * once, F-CHOICE), so a tap there must be followed by a choice.
   */
  stackedMoves(el) {
    const x = Number(el.dataset.x);
    const y = Number(el.dataset.y);
    return this.moves.filter((m) => {
      const other = this.planes.get(`${this.seat}:${m.plane}`);
      return other && Math.hypot(Number(other.dataset.x) - x, Number(other.dataset.y) - y) <= 0.3;
    });
  }

  /** A small menu at the tap listing the stacked planes and where each would go. */
  showChooser(moves, event) {
    this.closeChooser();
    const pick = (plane) => {
      this.closeChooser();
      this.onPick?.(plane);
    };
    const menu = h('div', {
      class: 'plane-chooser', id: 'plane-chooser', role: 'dialog', 'aria-label': t('choose_plane'),
      style: { left: `${event.clientX}px`, top: `${event.clientY}px` },
      onkeydown: (e) => { if (e.key === 'Escape') this.closeChooser(); },
    },
    h('p', { class: 'chooser-title' }, t('choose_plane')),
    moves.map((m) => h('button', {
      class: 'btn btn-small chooser-plane', type: 'button', 'data-plane': m.plane, onclick: () => pick(m.plane),
    }, h('span', { class: `dot c-${this.colours[this.seat]}` }), t('plane_to', { n: m.plane + 1, to: placeName(m.to) }))),
    h('button', { class: 'btn btn-small btn-ghost', type: 'button', 'aria-label': t('cancel'), onclick: () => this.closeChooser() }, '✕'));
    document.body.append(menu);
    // Kept inside the window (a tap near the right or bottom edge).
    const r = menu.getBoundingClientRect();
    menu.style.left = `${Math.max(4, Math.min(event.clientX, innerWidth - r.width - 4))}px`;
    menu.style.top = `${Math.max(4, Math.min(event.clientY, innerHeight - r.height - 4))}px`;
    this.chooser = menu;
    menu.querySelector('.chooser-plane')?.focus();
    // A tap anywhere else closes it (after this tap has finished).
    const outside = (e) => {
      if (!menu.contains(e.target)) this.closeChooser();
    };
    setTimeout(() => document.addEventListener('pointerdown', outside), 0);
    menu.closeListener = outside;
  }

  closeChooser() {
    if (!this.chooser) return;
    document.removeEventListener('pointerdown', this.chooser.closeListener);
    this.chooser.remove();
    this.chooser = null;
  }

  /** Clear highlights. */
  clearHighlight() {
    this.highlight(null, null, null);
  }

  async glide(el, to, heading, ms, { hop = 1 } = {}) {
    const fromX = Number(el.dataset.x) * U;
    const fromY = Number(el.dataset.y) * U;
    const toX = to.x * U;
    const toY = to.y * U;
    el.querySelector('.plane-rot').style.transform = `rotate(${heading}deg)`;
    const frames = [
      { transform: `translate(${fromX}px, ${fromY}px) scale(1)` },
      { transform: `translate(${(fromX + toX) / 2}px, ${(fromY + toY) / 2}px) scale(${hop})` },
      { transform: `translate(${toX}px, ${toY}px) scale(1)` },
    ];
    el.dataset.x = to.x;
    el.dataset.y = to.y;
    el.style.transform = `translate(${toX}px, ${toY}px)`;
    if (ms <= 0) return;
    await el.animate(frames, { duration: ms, easing: 'ease-in-out' }).finished.catch(() => {});
  }

  flash(point, text, cls) {
    const p = px(point);
    const el = s('text', { x: p.x, y: p.y, class: `fx-text ${cls}`, 'text-anchor': 'middle' }, text);
    this.fxLayer.append(el);
    setTimeout(() => el.remove(), 1200);
  }

  /**
   * Turn one effect of a `moved` event into a step {op, seat, plane, to, from}. Effects come
   * either as in docs/protocol.md ({"kind":"walk","to":14}, {"kind":"capture","seat":1,…}) or
   * as the flight engine's events ({"type":"walked","colour":"red","plane":2,"from":3,"to":7}).
   */
  normalizeEffect(effect, event) {
    const seatOfColour = (c) => (c === undefined ? event.seat : this.colours.indexOf(c));
    const name = effect.kind || effect.type;
    const seat = effect.colour !== undefined ? seatOfColour(effect.colour) : (effect.seat ?? event.seat);
    const plane = effect.plane ?? event.plane;
    const to = effect.to === -1 ? null : effect.to;
    const from = effect.from === -1 ? null : effect.from;
    switch (name) {
      case 'takeoff': case 'took_off': case 'take_off':
        return { op: 'takeoff', seat: effect.colour !== undefined ? seat : event.seat, plane, to: 0 };
      case 'walk': case 'walked': case 'bounce': case 'bounced': case 'turned_back': case 'turn_back':
        return { op: 'walk', seat: effect.colour !== undefined ? seat : event.seat, plane, to, from, bounce: /bounce|turn/.test(name) };
      case 'jump': case 'jumped':
        return { op: 'jump', seat: effect.colour !== undefined ? seat : event.seat, plane, to };
      case 'fly': case 'flew': case 'flight':
        return { op: 'fly', seat: effect.colour !== undefined ? seat : event.seat, plane, to };
      case 'capture': case 'captured': case 'crossing_capture': case 'returned': case 'sent_home':
        return { op: 'home', seat, plane: effect.plane, planes: effect.planes };
      case 'crossing_blocked': case 'sat_on_stack': case 'finished': case 'three_sixes':
        return { op: 'flash', seat, plane, what: name };
      default:
        return null;
    }
  }

  /**
   * Animate a `moved` event (docs/protocol.md §5) from the planes' previous positions:
   * square by square for walks and bounces, a hop for jumps, a long glide for flights,
   * and captured planes flying home. Resolves when done; the caller then renders the new view.
   */
  async animateMove(event, previous) {
    if (!previous) return;
    const step = 150 / this.speed;
    const where = new Map(); // "seat:plane" → progress, as the animation goes
    const cur = (seat, plane) => {
      const key = `${seat}:${plane}`;
      if (!where.has(key)) where.set(key, previous.planes?.[seat]?.[plane] ?? null);
      return where.get(key);
    };
    const moving = new Set();
    for (const raw of event.effects || []) {
      const e = this.normalizeEffect(raw, event);
      if (!e || e.seat === null || e.seat === undefined || e.seat < 0) continue;
      const c = this.colourIndex(e.seat);
      if (e.op === 'home') {
        await this.animateCapture(e);
        for (const p of e.planes ?? [e.plane]) where.set(`${e.seat}:${p}`, null);
        continue;
      }
      if (e.plane === null || e.plane === undefined) continue;
      const el = this.planes.get(`${e.seat}:${e.plane}`);
      if (!el) continue;
      if (!moving.has(el)) {
        moving.add(el);
        el.classList.add('moving');
        this.planeLayer.append(el); // on top while moving
      }
      const here = cur(e.seat, e.plane);
      const herePoint = here === null ? hangarSlot(c, e.plane) : planePosition(c, here, e.plane);
      if (e.op === 'flash') {
        const text = { crossing_blocked: '⛔', sat_on_stack: '⤒', finished: '🏁', three_sixes: '⚠' }[e.what] || '!';
        this.flash(herePoint, text, 'fx-jump');
        continue;
      }
      if (e.to === null || e.to === undefined) continue;
      if (e.op === 'walk' && here !== null && here <= 56 && e.to <= 56) {
        if (e.from !== null && e.from !== undefined && e.from !== here) {
          await this.glide(el, planePosition(c, e.from, e.plane), 0, step);
        }
        let p = e.from ?? here;
        const dir = e.to >= p ? 1 : -1;
        while (p !== e.to) {
          const a = planePosition(c, p, e.plane);
          const b = planePosition(c, p + dir, e.plane);
          await this.glide(el, b, headingBetween(a, b), step, { hop: 1.12 });
          p += dir;
        }
        if (e.bounce) this.flash(planePosition(c, p, e.plane), '↩', 'fx-bounce');
      } else {
        const target = planePosition(c, e.to, e.plane);
        const fly = e.op === 'fly';
        if (fly) this.flash(target, '✈', 'fx-fly');
        await this.glide(el, target, headingBetween(herePoint, target), fly ? step * 5 : step * 2.2, { hop: fly ? 1.6 : 1.35 });
        if (e.op === 'jump') this.flash(target, '↑', 'fx-jump');
      }
      where.set(`${e.seat}:${e.plane}`, e.to);
    }
    for (const el of moving) el.classList.remove('moving');
  }

  async animateCapture(e) {
    const vc = this.colourIndex(e.seat);
    for (const vp of e.planes ?? [e.plane]) {
      const vel = this.planes.get(`${e.seat}:${vp}`);
      if (!vel) continue;
      const from = { x: Number(vel.dataset.x), y: Number(vel.dataset.y) };
      this.flash(from, '💥', 'fx-capture');
      const home = hangarSlot(vc, vp);
      await this.glide(vel, home, headingBetween(from, home), 450 / this.speed, { hop: 1.5 });
    }
  }
}
