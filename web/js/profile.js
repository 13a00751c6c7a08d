// A player's page (P-PROFILE): per game played, won, the rating with its history, and the
// recent games with opponents, date, result and score change, each opening its replay; and the
// player's own dice over finished games against a fair die (P-DICE-STATS).

import { h, mount } from './dom.js';
import { t } from './i18n.js';
import { apiFetch } from './net.js';
import { errorText } from './errors.js';
import { diceStats } from './dicechart.js';
import { botName, gameRow, ratingChart, ratingText } from './games.js';
import { botMark, challengeButton, blockButton, settingsButton } from './challenge.js';
import { reviewLink } from './review.js';

/**
 * The record against the hall's bots, per level (practice games: unrated, but on record),
 * weakest level first.
 */
function botRecord(bots = []) {
  if (!bots.length) return null;
  const strength = ['random', 'greedy', 'easy', 'heuristic', 'alphabeta', 'normal', 'hard'];
  const rows = [...bots].sort((a, b) => strength.indexOf(a.bot) - strength.indexOf(b.bot));
  return h('div', { class: 'bot-record' },
    h('h3', {}, '🤖 ', t('vs_bots')),
    h('ul', {}, rows.map((r) => h('li', { 'data-bot': r.bot },
      h('span', {}, botName(r.bot)), ' ', h('b', {}, t('bot_won_of', { won: r.won, played: r.played }))))));
}

/** A game of the list with a link to its review (P-REVIEW); another's private game has none. */
function withReview(game) {
  const row = gameRow(game);
  if (!game.private && game.game_id) row.append(reviewLink(game.game_id, { class: 'btn btn-small review-link' }));
  return row;
}

/** The page `#/player/ID`. */
export class ProfileView {
  constructor(app, playerId) {
    this.app = app;
    this.playerId = playerId;
    this.el = h('div', { class: 'profile', 'data-player': playerId }, h('p', { class: 'loading' }, t('loading')));
  }

  async start() {
    try {
      this.profile = await this.app.conn.send('profile', { player_id: this.playerId });
      // The dice are counted from the records (GET /api/players/{id}/dice); the profile shows
      // without them if they cannot be had.
      this.dice = await apiFetch(`/api/players/${this.playerId}/dice`)
        .then((res) => (res.ok ? res.json() : null))
        .catch(() => null);
      this.render();
    } catch (err) {
      // The server's code in the page's words (docs/protocol.md §2), never its English text.
      mount(this.el, h('p', { class: 'empty', id: 'profile-error' }, errorText(err)), h('a', { class: 'btn', href: '#/' }, t('back_to_hall')));
    }
  }

  /** After a reconnection: ask again. */
  resume() {
    return this.start();
  }

  relabel() {
    if (this.profile) this.render();
  }

  render() {
    const { player, stats, recent } = this.profile;
    mount(this.el,
      h('div', { class: 'room-header' },
        h('a', { class: 'btn btn-ghost btn-small', href: '#/' }, '← ', t('back_to_hall')),
        h('h1', { id: 'profile-name' }, player.name, botMark(player)),
        player.guest ? h('span', { class: 'chip' }, t('guest')) : null,
        challengeButton(this.app, player, stats[0]?.game),
        // P-CHALLENGE: one's own challenge settings, or Block / Unblock on another's profile.
        player.id === this.app.player?.id ? settingsButton(this.app) : blockButton(this.app, player),
        h('span', { class: 'chip chip-level' }, `Lv ${player.level}`),
        h('span', { class: 'chip' }, `${t('score')} ${player.score}`)),
      h('div', { class: 'profile-stats' }, stats.length
        ? stats.map((st) => h('section', { class: 'card profile-game', 'data-game': st.game },
          h('h2', {}, st.game === 'flight' ? '✈ ' : '🐘 ', t(st.game)),
          h('dl', {},
            h('dt', {}, t('played')), h('dd', { class: 'stat-played' }, st.played),
            h('dt', {}, t('wins')), h('dd', { class: 'stat-wins' }, st.wins),
            h('dt', {}, t('rating')), h('dd', { class: 'stat-rating', title: st.rating?.provisional ? t('provisional') : '' }, ratingText(st.game, st.rating))),
          st.listed === false ? h('p', { class: 'hint not-listed' }, t('not_listed', { n: st.opponents ?? 0 })) : null,
          ratingChart(st.game, st.history),
          botRecord(st.bots)))
        : h('p', { class: 'empty card' }, t('no_games'))),
      this.dice ? h('section', { class: 'card profile-dice', id: 'profile-dice' }, diceStats(this.dice.counts, t('dice_own'))) : null,
      h('section', { class: 'card' }, h('h2', {}, '📜 ', t('recent_games')),
        recent.length ? h('ul', { class: 'games-list', id: 'profile-games' }, recent.map(withReview)) : h('p', { class: 'empty' }, t('no_games'))));
  }
}
