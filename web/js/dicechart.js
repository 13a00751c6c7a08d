// The dice statistics of a player or of the hall (P-DICE-STATS): an SVG bar chart of how often
// each face came up against the count a fair die is expected to give, and the χ² line under it.

import { h, s } from './dom.js';
import { t } from './i18n.js';
import { chiSquare, FACES } from './chisquare.js';

const WIDTH = 240;
const HEIGHT = 120;
const LABELS = 16; // room under the bars for the face numbers
const TOP = 14; // room over the tallest bar for its count

/** A number as the stats show it: p-values with three significant digits, χ² with two decimals. */
export function formatP(p) {
  if (p < 0.001) return p.toExponential(1);
  return p.toPrecision(3);
}

/**
 * The bar chart of six face counts: one bar per face (observed) and a dashed line at the
 * expected count (rolls / 6, the same for every face). Null before any roll.
 */
export function faceChart(counts) {
  const test = chiSquare(counts);
  if (!test) return null;
  const high = Math.max(...counts, test.expected) || 1;
  const plot = HEIGHT - LABELS - TOP;
  const y = (value) => TOP + plot - (value / high) * plot;
  const slot = WIDTH / FACES;
  const bars = counts.map((count, i) => {
    const x = i * slot + slot * 0.2;
    const text = t('dice_face_count', { face: i + 1, count, expected: test.expected.toFixed(1) });
    return s('g', { class: 'face-bar', 'data-face': i + 1, 'data-count': count },
      s('title', {}, text),
      s('rect', { x: x.toFixed(1), y: y(count).toFixed(1), width: (slot * 0.6).toFixed(1), height: (TOP + plot - y(count)).toFixed(1), fill: 'currentColor' }),
      s('text', { class: 'face-count', x: (i * slot + slot / 2).toFixed(1), y: (y(count) - 3).toFixed(1), 'text-anchor': 'middle', 'font-size': 9 }, String(count)),
      s('text', { x: (i * slot + slot / 2).toFixed(1), y: HEIGHT - 4, 'text-anchor': 'middle', 'font-size': 11 }, String(i + 1)));
  });
  return s('svg', { class: 'dice-chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': t('dice_chart_label', { n: test.rolls }) },
    bars,
    s('line', {
      class: 'expected-line', x1: 0, x2: WIDTH, y1: y(test.expected).toFixed(1), y2: y(test.expected).toFixed(1),
      stroke: '#dc2626', 'stroke-width': 1.5, 'stroke-dasharray': '4 3', 'data-expected': test.expected,
    }, s('title', {}, t('dice_expected', { expected: test.expected.toFixed(1) }))));
}

/**
 * The fewest rolls from which the χ² test is shown: a fair die's expected count of every face
 * is then at least 5 (P-DICE-STATS), below which χ²'s p-value is not to be trusted.
 */
export const CHI2_MIN_EXPECTED = 5;
export const CHI2_MIN_ROLLS = CHI2_MIN_EXPECTED * FACES;

/** "1: 3 · 2: 5 · …": the count of each face, as text (also for screen readers). */
function countsLine(counts) {
  return h('p', { class: 'dice-counts' }, t('dice_counts', { counts: counts.map((c, i) => `${i + 1}: ${c}`).join(' · ') }));
}

/**
 * The whole figure: title, chart, the counts and the χ² line (`data-chi2`, `data-p` for
 * checks) once every face is expected at least 5 times (30 rolls); before that the counts
 * only, with a note of when the test comes; or a note that there is nothing to show yet.
 * `title` is the translated heading.
 */
export function diceStats(counts, title = t('dice_stats')) {
  const test = chiSquare(counts);
  if (!test) return h('section', { class: 'dice-stats empty' }, h('h3', {}, title), h('p', {}, t('dice_stats_none')));
  if (test.expected < CHI2_MIN_EXPECTED) {
    return h('section', { class: 'dice-stats counts-only', 'data-rolls': test.rolls },
      h('h3', {}, title),
      faceChart(counts),
      h('p', { class: 'dice-legend' }, t('dice_legend')),
      countsLine(counts),
      h('p', { class: 'dice-chi2-wait' }, t('dice_chi2_wait', { n: test.rolls, min: CHI2_MIN_ROLLS })));
  }
  return h('section', { class: 'dice-stats', 'data-chi2': test.statistic, 'data-p': test.pValue, 'data-rolls': test.rolls },
    h('h3', {}, title),
    faceChart(counts),
    h('p', { class: 'dice-legend' }, t('dice_legend')),
    countsLine(counts),
    h('p', { class: 'dice-chi2' }, t('dice_chi2', {
      n: test.rolls, chi2: test.statistic.toFixed(2), df: test.degreesOfFreedom, p: formatP(test.pValue),
    })),
    h('p', { class: 'dice-note' }, t('dice_p_note')));
}
