// Finished games as lists show them ("My games", a profile's recent games) and the names of
// players and bots, shared by the hall, the profile page and the result dialog.

import { h, s } from './dom.js';
import { t, currentLang } from './i18n.js';
import { botMark } from './challenge.js';

/** A bot's name for people: "Bot · hard" / "电脑 · 困难". */
export function botName(level) {
  return t('bot_name', { level: t(`bot_${level}`) });
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
        h('b', { class: `outcome ${game.won ? 'won' : ''}` }, game.won ? t('result_win') : t('private_game')),
        ' ', h('small', { class: 'game-when' }, t('private_game'))),
      deltaBadge(game.delta));
  }
  const when = new Date(game.finished_at).toLocaleString(currentLang() === 'zh' ? 'zh-CN' : 'en-GB',
    { dateStyle: 'short', timeStyle: 'short' });
  const opponents = (game.players || []).filter((p) => p.seat !== game.seat)
    .map((p) => (p.player_id ? [playerLink(p.name, p.player_id), botMark({ bot: p.bot_account })] : botName(p.bot)));
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

/** A small line chart of a rating history (oldest first). */
export function ratingChart(points) {
  const width = 240;
  const height = 60;
  if (points.length < 2) return null;
  const values = points.map((p) => p.rating);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const xy = values.map((v, i) => [
    (i / (values.length - 1)) * (width - 8) + 4,
    height - 4 - ((v - low) / span) * (height - 8),
  ]);
  return s('svg', { class: 'rating-chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': t('rating_history') },
    s('polyline', { points: xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '), fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }));
}

/** A rating as shown: flight's Weng-Lin μ with one decimal, jungle's Glicko-2 whole. */
export function ratingText(game, rating) {
  if (!rating) return '—';
  const value = game === 'flight' ? rating.rating.toFixed(1) : Math.round(rating.rating);
  return rating.provisional ? `${value}?` : `${value}`;
}
