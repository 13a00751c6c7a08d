// Game review (P-REVIEW) beside the replay: asks the hall for the review of the game
// (GET /api/games/{id}/review, docs/protocol.md §9), shows its place in the queue or its
// progress while the hall computes it, then a chart — Jungle: red's win chance across the plies
// with the inaccuracies, mistakes and blunders marked; flight: each player's win chance across
// the steps, and each player's dice luck and decision skill as two bars — a summary line per
// player, and the marked moves as a list of buttons. A mark (on the chart or in the list) takes
// the replay to that move; a Jungle mark shows the better move on the board.

import { h, s } from './dom.js';
import { t } from './i18n.js';
import { apiFetch } from './net.js';
import { resultName } from './games.js';

/** How often a review being computed is asked for again. */
const POLL_MS = 1000;

/** The chart's drawing box (SVG user units; it scales to the card's width). */
const W = 360;
const H = 150;
const PAD = { left: 34, right: 8, top: 8, bottom: 20 };

/** The address of a game's replay with its review opened. */
export function reviewHref(gameId) {
  return `#/replay/${gameId}/review`;
}

/** A "Review" link to a game's review (result dialog, profile). */
export function reviewLink(gameId, attrs = {}) {
  return h('a', { class: 'btn', href: reviewHref(gameId), ...attrs }, '📈 ', t('review_button'));
}

/** A share (0..1) as a signed percentage: "+18 %", "−6 %" (a true minus sign), "0 %". */
export function signedPercent(x) {
  const n = Math.round(x * 100);
  if (n > 0) return `+${n} %`;
  if (n < 0) return `\u2212${-n} %`;
  return '0 %';
}

/** "3 mistakes, 1 blunder" in the page's language, or that there was none. */
export function marksText({ inaccuracies = 0, mistakes = 0, blunders = 0 }) {
  const parts = [['inaccuracy', inaccuracies], ['mistake', mistakes], ['blunder', blunders]]
    .filter(([, n]) => n > 0)
    .map(([mark, n]) => t(n === 1 ? `review_${mark}_1` : `review_${mark}_n`, { n }));
  return parts.length ? parts.join(t('review_list_sep')) : t('review_no_marks_short');
}

/** The chart's x and y of step `i` of `n` and chance `c`. */
function point(i, n, c) {
  const x = PAD.left + (n > 0 ? i / n : 0) * (W - PAD.left - PAD.right);
  const y = PAD.top + (1 - c) * (H - PAD.top - PAD.bottom);
  return [x, y];
}

const fixed = ([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`;

/** The axes, the 50 % line and their labels. */
function axes(n, unit) {
  const axis = { class: 'review-axis' };
  const [x0, yTop] = point(0, n, 1);
  const [x1, yBottom] = point(n, n, 0);
  const [, yHalf] = point(0, n, 0.5);
  return [
    s('line', { x1: x0, y1: yTop, x2: x0, y2: yBottom, ...axis }),
    s('line', { x1: x0, y1: yBottom, x2: x1, y2: yBottom, ...axis }),
    s('line', { x1: x0, y1: yHalf, x2: x1, y2: yHalf, class: 'review-half' }),
    s('text', { x: x0 - 4, y: yTop + 8, 'text-anchor': 'end' }, '100%'),
    s('text', { x: x0 - 4, y: yHalf + 4, 'text-anchor': 'end' }, '50%'),
    s('text', { x: x0 - 4, y: yBottom, 'text-anchor': 'end' }, '0%'),
    s('text', { x: x0, y: H - 4 }, '0'),
    s('text', { x: x1, y: H - 4, 'text-anchor': 'end' }, `${n} ${unit}`),
  ];
}

/** The review panel of a replay (`replay`: replay.js `ReplayView`). */
export class ReviewPanel {
  constructor(replay) {
    this.replay = replay;
    this.review = null;
    this.progress = null;
    this.message = null;
    this.loading = false;
    this.timer = null;
    this.frame = 0;
    this.el = h('section', { class: 'card review-card', id: 'review', 'aria-labelledby': 'review-title' });
    this.render();
    // A "Review" link (result dialog, profile) opens the replay with its review asked for.
    if (/\/review$/.test(globalThis.location?.hash || '')) this.start();
  }

  destroy() {
    clearTimeout(this.timer);
    this.gone = true;
  }

  relabel() {
    this.render();
  }

  /** Ask the hall for the review, again each second while it is being computed. */
  async start() {
    clearTimeout(this.timer);
    this.loading = true;
    this.message = null;
    this.render();
    let res;
    try {
      res = await apiFetch(`/api/games/${this.replay.id}/review`);
    } catch {
      res = null;
    }
    if (this.gone) return;
    const retry = Number(res?.headers.get('Retry-After')) || null;
    if (res?.status === 200) {
      this.review = await res.json();
      this.loading = false;
      this.progress = null;
    } else if (res?.status === 202) {
      this.progress = await res.json();
      this.timer = setTimeout(() => this.start(), POLL_MS);
    } else {
      this.loading = false;
      this.progress = null;
      if (res?.status === 404) this.message = t('replay_missing');
      else if (res?.status === 409) this.message = t('review_refused');
      else if (res?.status === 503) this.message = t('review_busy', { s: retry ?? 10 });
      else if (res?.status === 429) this.message = t('review_limited', { s: retry ?? 60 });
      else this.message = t('review_failed');
    }
    this.render();
    if (this.review) this.show(this.replay.index);
  }

  /** The words of the progress while the hall computes the review. */
  progressText() {
    const p = this.progress;
    if (!p) return t('review_starting');
    if (p.state === 'queued') return t('review_queued', { n: p.position });
    if (p.of > 0) return t('review_running', { done: p.done, of: p.of, pct: Math.round((100 * p.done) / p.of) });
    return t('review_starting');
  }

  render() {
    const title = h('h2', { id: 'review-title' }, '📈 ', t('review_title'));
    if (!this.review) {
      const status = this.loading ? this.progressText() : this.message || t('review_hint');
      this.el.replaceChildren(title,
        h('button', {
          class: 'btn btn-primary', type: 'button', id: 'review-btn', disabled: this.loading,
          onclick: () => this.start(),
        }, '📈 ', t('review_button')),
        h('p', { class: 'review-status', id: 'review-status', role: 'status', 'aria-live': 'polite' }, status));
      return;
    }
    const r = this.review;
    const jungle = r.game === 'jungle';
    this.el.replaceChildren(title,
      jungle ? this.jungleSummary(r) : this.flightSummary(r),
      h('div', { class: 'review-chart-wrap' }, jungle ? this.jungleChart(r) : this.flightChart(r)),
      this.legend(jungle),
      this.marksList(r));
  }

  /** Who a Jungle seat is: the record's name (a bot by its level). */
  seatName(seat, fallback) {
    const p = (this.replay.record?.result?.players || []).find((x) => x.seat === seat);
    return p ? resultName(p) : fallback;
  }

  jungleSummary(r) {
    return h('ul', { class: 'review-summary', id: 'review-summary' }, r.players.map((p) => h('li', { 'data-seat': p.seat },
      h('span', { class: `dot c-${p.colour}` }),
      h('b', {}, this.seatName(p.seat, p.name)), ': ',
      h('span', { class: 'review-line' }, marksText(p)))));
  }

  flightSummary(r) {
    return h('ul', { class: 'review-summary', id: 'review-summary' }, r.accounts.map((a) => h('li', { 'data-seat': a.seat },
      h('div', {},
        h('span', { class: `dot c-${a.colour}` }),
        h('b', {}, this.seatName(a.seat, a.name)), ': ',
        h('span', { class: 'review-line' }, t('review_luck_skill', { luck: signedPercent(a.luck), skill: signedPercent(a.skill) }),
          a.decisions > 0 ? [t('review_list_sep'), marksText(a)] : null)),
      this.bars(a))));
  }

  /** A player's dice luck and decision skill as two bars either side of zero. */
  bars(a) {
    // Labels on the left, the bars either side of zero on the right, never over the labels.
    const width = 240;
    const mid = 90 + (width - 90) / 2;
    const scale = (width - mid - 4) / Math.max(0.25, Math.abs(a.luck), Math.abs(a.skill));
    const bar = (value, y, cls, label) => {
      const len = Math.abs(value) * scale;
      return [
        s('text', { x: 0, y: y + 11, class: 'review-bar-label' }, label),
        s('rect', { x: value >= 0 ? mid : mid - len, y, width: Math.max(len, 1), height: 14, class: `review-bar ${cls} ${value >= 0 ? 'up' : 'down'}` }),
      ];
    };
    return s('svg', {
      class: 'review-bars', viewBox: `0 0 ${width} 38`, role: 'img', 'data-seat': a.seat,
      'aria-label': t('review_luck_skill', { luck: signedPercent(a.luck), skill: signedPercent(a.skill) }),
    },
    bar(a.luck, 2, 'luck', t('review_luck')),
    bar(a.skill, 21, 'skill', t('review_skill')),
    s('line', { x1: mid, y1: 0, x2: mid, y2: 38, class: 'review-axis' }));
  }

  /** Jungle: red's win chance after each ply, the marked moves on it. */
  jungleChart(r) {
    const n = r.positions.length - 1;
    const line = r.positions.map((p, i) => fixed(point(i, n, p.red_win_chance))).join(' ');
    const marked = r.moves.filter((m) => m.judgement);
    const label = t('review_chart_jungle', {
      n, red: this.seatName(0, t('red')), last: Math.round(r.positions[n].red_win_chance * 100), marks: marked.length,
    });
    this.cursor = s('line', { class: 'review-cursor', y1: PAD.top, y2: H - PAD.bottom, x1: PAD.left, x2: PAD.left });
    this.chartN = n;
    return s('svg', { class: 'review-chart', id: 'review-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label },
      axes(n, t('review_plies')),
      s('polyline', { points: line, class: 'review-line-red' }),
      this.cursor,
      marked.map((m) => {
        const [x, y] = point(m.ply, n, r.positions[m.ply].red_win_chance);
        return s('circle', {
          cx: x.toFixed(1), cy: y.toFixed(1), r: 5, class: `review-mark mark-${m.judgement}`, 'data-ply': m.ply,
          onclick: () => this.goToMove(m),
        }, s('title', {}, this.moveText(m)));
      }));
  }

  /** Flight: each seat's win chance at the start and after each step, its marked decisions. */
  flightChart(r) {
    const n = r.steps.length;
    const chances = (seat) => [r.start[seat], ...r.steps.map((st) => st.chances[seat])];
    const marked = r.steps.map((st, i) => ({ ...st, at: i + 1 })).filter((st) => st.kind === 'decision' && st.class);
    const label = t('review_chart_flight', { n, marks: marked.length });
    this.cursor = s('line', { class: 'review-cursor', y1: PAD.top, y2: H - PAD.bottom, x1: PAD.left, x2: PAD.left });
    this.chartN = n;
    return s('svg', { class: 'review-chart', id: 'review-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label },
      axes(n, t('review_steps')),
      r.seats.map((seat) => s('polyline', {
        points: chances(seat.seat).map((c, i) => fixed(point(i, n, c))).join(' '),
        class: `review-line-seat c-line-${seat.colour}`, 'data-seat': seat.seat,
      })),
      this.cursor,
      marked.map((st) => {
        const [x, y] = point(st.at, n, st.chances[st.seat]);
        return s('circle', {
          cx: x.toFixed(1), cy: y.toFixed(1), r: 4.5, class: `review-mark mark-${st.class}`, 'data-step': st.at,
          onclick: () => this.goToStep(st),
        }, s('title', {}, this.stepText(st)));
      }));
  }

  legend(jungle) {
    return h('p', { class: 'review-legend' },
      jungle ? [h('span', { class: 'legend-line' }), ' ', t('review_red_chance'), ' '] : null,
      ['inaccuracy', 'mistake', 'blunder'].map((m) => h('span', { class: 'legend-item' },
        h('span', { class: `legend-dot mark-${m}` }), t(`review_${m}`))));
  }

  /** "Ply 7 · Red e3e4: blunder; better d2d3". */
  moveText(m) {
    return t('review_move_mark', {
      ply: m.ply, name: this.seatName(m.seat, m.seat === 0 ? t('red') : t('yellow')), played: m.played,
      mark: t(`review_${m.judgement}`), best: m.best || '—',
    }) + (m.auto ? ` (${t('review_auto')})` : '');
  }

  /** "Step 40 · Ana moved plane 2: mistake; better plane 1". */
  stepText(st) {
    const name = this.seatName(st.seat, '?');
    return t('review_step_mark', { step: st.at, name, chosen: st.chosen + 1, mark: t(`review_${st.class}`), best: st.best + 1 })
      + (st.auto ? ` (${t('review_auto')})` : '');
  }

  /** The marked moves as buttons: each takes the replay there. */
  marksList(r) {
    const items = r.game === 'jungle'
      ? r.moves.filter((m) => m.judgement).map((m) => [m.judgement, this.moveText(m), () => this.goToMove(m), { 'data-ply': m.ply }])
      : r.steps.map((st, i) => ({ ...st, at: i + 1 })).filter((st) => st.kind === 'decision' && st.class)
        .map((st) => [st.class, this.stepText(st), () => this.goToStep(st), { 'data-step': st.at }]);
    if (!items.length) return h('p', { class: 'hint', id: 'review-marks' }, t('review_no_marks'));
    return h('div', {},
      h('h3', { class: 'review-marks-title' }, t('review_marks')),
      h('ol', { class: 'review-marks', id: 'review-marks' }, items.map(([mark, text, go, data]) => h('li', {},
        h('button', { class: `btn btn-small review-mark-btn mark-${mark}`, type: 'button', onclick: go, ...data },
          h('span', { class: `legend-dot mark-${mark}`, 'aria-hidden': 'true' }), text)))));
  }

  /** The replay at the position after Jungle move `m` (its action's frame). */
  goToMove(m) {
    this.replay.go(m.action === null || m.action === undefined ? m.ply : m.action + 1);
  }

  /** The replay at the frame after flight step `st`. */
  goToStep(st) {
    this.replay.go(st.index + 1);
  }

  /**
   * Follow the replay at frame `frame`: the chart's cursor, and on a Jungle board after a
   * marked move the better move (from the position before it) drawn over the board.
   */
  show(frame) {
    this.frame = frame;
    const r = this.review;
    if (!r || !this.cursor) return;
    let at;
    let marked = null;
    if (r.game === 'jungle') {
      const done = r.moves.filter((m) => (m.action ?? m.ply - 1) + 1 <= frame);
      at = done.length;
      const last = done.at(-1);
      if (last && (last.action ?? last.ply - 1) + 1 === frame && last.judgement && last.best) marked = last;
    } else {
      at = r.steps.filter((st) => st.index + 1 <= frame).length;
    }
    const [x] = point(at, this.chartN, 0);
    this.cursor.setAttribute('x1', x.toFixed(1));
    this.cursor.setAttribute('x2', x.toFixed(1));
    if (r.game === 'jungle') this.showBetter(marked);
  }

  /** Draw (or take away) Jungle move `m`'s better move on the replay's board. */
  showBetter(m) {
    const svg = this.replay.board?.svg;
    if (!svg) return;
    svg.querySelector('.review-better')?.remove();
    if (!m) return;
    const cell = (name) => svg.querySelector(`rect.cell[data-square="${name}"]`);
    const from = cell(m.best.slice(0, 2));
    const to = cell(m.best.slice(2, 4));
    if (!from || !to) return;
    const box = (el) => ({ x: Number(el.getAttribute('x')), y: Number(el.getAttribute('y')), w: Number(el.getAttribute('width')) });
    const a = box(from);
    const b = box(to);
    svg.append(s('g', { class: 'review-better', 'data-move': m.best, 'aria-label': t('review_better', { move: m.best }), role: 'img' },
      s('rect', { x: a.x + 3, y: a.y + 3, width: a.w - 6, height: a.w - 6, rx: 10, class: 'better-from' }),
      s('rect', { x: b.x + 3, y: b.y + 3, width: b.w - 6, height: b.w - 6, rx: 10, class: 'better-to' }),
      s('line', { x1: a.x + a.w / 2, y1: a.y + a.w / 2, x2: b.x + b.w / 2, y2: b.y + b.w / 2, class: 'better-arrow' })));
  }
}
