// Finished games as lists show them ("My games", a profile's recent games) and the names of
// players and bots, shared by the hall, the profile page and the result dialog.

import { h, s } from './dom.js';
import { t, currentLang } from './i18n.js';
import { botMark, guestMark } from './challenge.js';

/** A bot's name for people: "Bot · hard" / "电脑 · 困难". */
export function botName(level) {
  return t('bot_name', { level: t(`bot_${level}`) });
}

/**
 * The name of a result line or record seat for people: the player's name, or the bot's level
 * (the server names a bot by its key, "bot:heuristic").
 */
export function resultName(p) {
  if (p.player_id) return p.name;
  // A record's seat names the level in `bot`; a result line's `bot` only marks bot accounts.
  return botName(typeof p.bot === 'string' ? p.bot : String(p.name || '').replace(/^bot:/, ''));
}

/** A link to a player's profile page (P-PROFILE). */
export function playerLink(name, id) {
  return h('a', { class: 'player-link', href: `#/player/${id}` }, name);
}

/** "+4" / "−2" with the up/down colour. */
export function deltaBadge(delta) {
  return h('span', { class: `delta ${delta >= 0 ? 'up' : 'down'}` }, delta >= 0 ? `+${delta}` : `−${-delta}`);
}

/** What the game was for this player: win, draw, a place. */
export function outcomeWord(game) {
  if (game.won) return t('result_win');
  const others = (game.players || []).filter((p) => p.seat !== game.seat);
  if (game.rank === 1 && others.every((p) => p.rank === 1)) return t('result_draw');
  return (game.players || []).length > 2 ? t('result_rank', { n: game.rank }) : t('result_loss');
}

/** One row of a list of finished games, opening its replay. */
export function gameRow(game) {
  // Another player's private game: its result and score change only (no id, time or players).
  if (game.private) {
    return h('li', { class: 'game-row game-private' },
      h('span', { class: 'game-icon', title: t(game.game) }, game.game === 'flight' ? '✈' : '🐘'),
      h('span', { class: 'game-main' },
        h('b', { class: `outcome ${game.won ? 'won' : ''}` }, outcomeWord(game)),
        ' ', h('span', { class: 'chip' }, t('private_game'))),
      deltaBadge(game.delta));
  }
  const when = new Date(game.finished_at).toLocaleString(currentLang() === 'zh' ? 'zh-CN' : 'en-GB',
    { dateStyle: 'short', timeStyle: 'short' });
  const opponents = (game.players || []).filter((p) => p.seat !== game.seat)
    .map((p) => (p.player_id ? [playerLink(p.name, p.player_id), botMark({ bot: p.bot_account }), guestMark(p)] : botName(p.bot)));
  return h('li', { class: 'game-row', 'data-game-id': game.game_id },
    h('span', { class: 'game-icon', title: t(game.game) }, game.game === 'flight' ? '✈' : '🐘'),
    h('span', { class: 'game-main' },
      h('b', { class: `outcome ${game.won ? 'won' : ''}` }, outcomeWord(game)),
      ' ', t('versus'), ' ',
      opponents.flatMap((el, i) => (i ? [', ', el] : [el])),
      h('small', { class: 'game-when' }, when),
      game.practice ? h('span', { class: 'chip chip-practice' }, t('practice')) : null),
    deltaBadge(game.delta),
    h('a', { class: 'btn btn-small', href: `#/replay/${game.game_id}` }, t('replay')));
}

/** A day as a chart's axis says it: "6 Dec" / "12月6日". */
function shortDate(ms) {
  return new Date(ms).toLocaleDateString(currentLang() === 'zh' ? 'zh-CN' : 'en-GB', { day: 'numeric', month: 'short' });
}

/**
 * A line chart of a rating history (oldest first) with its axes: the lowest and highest
 * rating on the left, the first and last game's dates below, a dot per game.
 */
export function ratingChart(game, points) {
  const width = 320;
  const height = 120;
  const left = 48;
  const bottom = 22;
  if (points.length < 2) return null;
  const values = points.map((p) => p.rating);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const shown = (v) => (game === 'flight' ? v.toFixed(1) : String(Math.round(v)));
  const xy = values.map((v, i) => [
    left + (i / (values.length - 1)) * (width - left - 8),
    8 + (1 - (v - low) / span) * (height - bottom - 16),
  ]);
  const first = points[0];
  const last = points.at(-1);
  const label = t('rating_chart_label', {
    n: points.length, from: shortDate(first.at), to: shortDate(last.at), low: shown(low), high: shown(high), last: shown(last.rating),
  });
  const axis = { stroke: '#9ca3af', 'stroke-width': 1 };
  return s('svg', { class: 'rating-chart', id: `rating-chart-${game}`, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label },
    s('line', { x1: left - 4, y1: 4, x2: left - 4, y2: height - bottom, ...axis }),
    s('line', { x1: left - 4, y1: height - bottom, x2: width - 4, y2: height - bottom, ...axis }),
    s('text', { class: 'chart-y chart-high', x: left - 8, y: 14, 'text-anchor': 'end' }, shown(high)),
    s('text', { class: 'chart-y chart-low', x: left - 8, y: height - bottom - 4, 'text-anchor': 'end' }, shown(low)),
    s('text', { class: 'chart-x chart-from', x: left, y: height - 6 }, shortDate(first.at)),
    s('text', { class: 'chart-x chart-to', x: width - 4, y: height - 6, 'text-anchor': 'end' }, shortDate(last.at)),
    s('polyline', { points: xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '), fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    xy.map(([x, y], i) => s('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 2.5, fill: 'currentColor' },
      s('title', {}, `${shortDate(points[i].at)}: ${shown(points[i].rating)}`))));
}

/**
 * A rating as shown: flight's Weng-Lin μ with one decimal, jungle's Glicko-2 whole, and
 * "provisional" in words while it rests on few games.
 */
export function ratingText(game, rating) {
  if (!rating) return '—';
  const value = game === 'flight' ? rating.rating.toFixed(1) : String(Math.round(rating.rating));
  return rating.provisional ? t('rating_provisional', { value }) : value;
}

/**
 * The names of a list of players, same-named ones told apart by their number
 * ("Cleo #12", "Cleo #31"): `players` are {id, name}.
 */
export function distinctNames(players) {
  const count = new Map();
  for (const p of players) count.set(p.name, (count.get(p.name) || 0) + 1);
  return players.map((p) => (count.get(p.name) > 1 ? `${p.name} #${p.id}` : p.name));
}
