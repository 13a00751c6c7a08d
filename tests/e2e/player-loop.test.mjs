// The player loop in the browser: a game to its end, Play again, a second game in the same
// room (P-REMATCH); the leaderboard of the game opens a player's page with the rating and the
// game (P-RATING, P-PROFILE); quick match alone starts with bots, as a practice game (P-QUICK,
// P-PRACTICE).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, twoInRoom, axeViolations, BASE,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const gamesStarted = (page) => page.evaluate(() => window.roomEvents.filter((e) => e.kind === 'game_started').length);

test('P-REMATCH/P-RATING/P-PROFILE: play again in the same room, then the winner\'s page from the leaderboard', { timeout: 300000 }, async () => {
  const { host: ana, other: bo, code } = await twoInRoom(browser, 'jungle', { fields: { turn_seconds: 60 } });
  await ana.locator('#ready-btn').click();
  await bo.locator('#ready-btn').click();
  await ana.locator('.jungle-board .movable-from').first().waitFor();
  // No bot sits: a scored game, and the room does not say practice.
  assert.equal(await ana.locator('#practice-chip').count(), 0);

  // Ana resigns (the confirmation is accepted): both see the result with a headline.
  await ana.locator('#resign-btn').click();
  await ana.locator('#result').waitFor();
  await bo.locator('#result').waitFor();
  assert.equal(await ana.locator('#result-headline').textContent(), '🏁 You lose');
  assert.equal(await bo.locator('#result-headline').textContent(), '🏆 You win!');
  // Each line has a rating after the game and its change.
  const ratings = await bo.locator('#result .result-rating').allTextContents();
  assert.equal(ratings.length, 2);
  // After one game a rating is provisional, and says so in words.
  for (const text of ratings) assert.match(text, /^\d{4} \(provisional\) \([+−]\d+\)$/);
  assert.deepEqual(await axeViolations(bo), [], 'the result dialog');

  // Play again: both press it, and a second game starts in the same room.
  await ana.locator('#play-again').click();
  await bo.locator('#play-again').click();
  for (const page of [ana, bo]) {
    await page.waitForFunction(() => window.roomEvents.filter((e) => e.kind === 'game_started').length === 2, null, { timeout: 20000 });
    await page.locator('.jungle-board[data-plies="0"]').waitFor();
    assert.equal(await page.evaluate(() => window.hangar.view.code), code);
  }
  assert.equal(await gamesStarted(ana), 2);
  // Ana, who resigned the first game, plays the second: red (seat 0) moves first.
  await ana.locator('.jungle-board .movable-from').first().waitFor();

  // The jungle leaderboard lists Bo (the winner) above Ana; his name opens his page.
  await ana.goto(`${BASE}/#/`);
  await ana.locator('.tab[data-game=jungle]').click();
  const board = ana.locator('#leaderboard .leader-list[data-game=jungle]');
  await board.waitFor();
  const names = await board.locator('.leader-name').allTextContents();
  // The board is its top lines, shared with the suite's other players: Bo ranks above Ana when
  // he is on it and she is below him or not on it.
  const [bo_at, ana_at] = [names.indexOf('Bo'), names.indexOf('Ana')];
  assert.ok(bo_at >= 0 && (ana_at < 0 || bo_at < ana_at), `board: ${names}`);
  await board.locator('.player-link', { hasText: 'Bo' }).click();
  await ana.waitForURL(/#\/player\/\d+/);
  await ana.locator('#profile-name', { hasText: 'Bo' }).waitFor();
  const jungle = ana.locator('.profile-game[data-game=jungle]');
  assert.equal(await jungle.locator('.stat-played').textContent(), '1');
  assert.equal(await jungle.locator('.stat-wins').textContent(), '1');
  assert.match(await jungle.locator('.stat-rating').textContent(), /^\d{4} \(provisional\)$/);
  // The profile reads well to everyone, in both languages (axe-core), and so does the result.
  assert.deepEqual(await axeViolations(ana), [], 'the profile (en)');
  await ana.locator('#lang').click();
  await ana.locator('#profile-name', { hasText: 'Bo' }).waitFor();
  assert.deepEqual(await axeViolations(ana), [], 'the profile (zh)');
  await ana.locator('#lang').click();
  // The game is listed with its opponent and opens its replay.
  const row = ana.locator('#profile-games .game-row').first();
  assert.match(await row.textContent(), /Win vs Ana/);
  await row.locator('a[href^="#/replay/"]:not(.review-link)').click();
  await ana.waitForURL(/#\/replay\/\d+$/);
  assert.deepEqual([...ana.errors, ...bo.errors], []);
});

test('P-QUICK/P-PRACTICE: a quick match alone starts with bots, and says it is practice', { timeout: 120000 }, async () => {
  const cy = await newPage(browser);
  await guest(cy, 'Cy');
  await cy.locator('.tab[data-game=jungle]').click();
  await cy.locator('#quick-match').click();
  await cy.waitForURL(/#\/room\/[A-Z0-9]+/);
  // The page counts the seconds of the search and offers a way out.
  await cy.locator('#searching #cancel-search').waitFor();
  assert.match(await cy.locator('#searching').textContent(), /Searching… \d+ s/);
  // The count goes on (the room is redrawn from the clock), and the way out keeps the focus.
  await cy.locator('#cancel-search').focus();
  await cy.waitForFunction(() => Number(document.querySelector('#searching')?.textContent.match(/(\d+) s/)?.[1]) >= 2, null, { timeout: 5000 });
  assert.equal(await cy.evaluate(() => document.activeElement?.id), 'cancel-search');
  // Nobody else comes: a bot of middle strength sits down and the game starts.
  await cy.locator('.jungle-board').waitFor({ timeout: 60000 });
  await cy.locator('#practice-chip').waitFor();
  const bot = await cy.evaluate(() => window.hangar.view.state.seats.find((s) => s.bot)?.bot);
  assert.equal(bot, 'normal');
  assert.deepEqual(cy.errors, []);
});

test('a private room\'s finished game replays for its players, and for nobody else', { timeout: 120000 }, async () => {
  const { host: eve, other: fay } = await twoInRoom(browser, 'jungle', { names: ['Eve', 'Fay'], fields: { turn_seconds: 60 }, checks: ['private'] });
  const gus = await newPage(browser);
  await guest(gus, 'Gus');
  await eve.locator('#ready-btn').click();
  await fay.locator('#ready-btn').click();
  await eve.locator('.jungle-board .movable-from').first().waitFor();
  await eve.locator('#resign-btn').click();
  await eve.locator('#result #view-replay').click();
  // Its player sees the replay (the page asks with its token)…
  await eve.locator('#replay-step').waitFor();
  const url = eve.url();
  // …a stranger with the link does not.
  await gus.goto(url);
  // It is told there is no such game (as for one that does not exist), in words.
  const refused = gus.locator('#replay-error p');
  await refused.waitFor();
  assert.equal(await refused.textContent(), 'There is no record of that game.');
  assert.equal(await gus.locator('#replay-step').count(), 0);
  // On Eve's profile the stranger sees the game's outcome and that it was private, once.
  const eveId = await eve.evaluate(() => window.hangar.player.id);
  await gus.goto(`${url.split('#')[0]}#/player/${eveId}`);
  const row = gus.locator('.game-row.game-private').first();
  await row.waitFor();
  const text = await row.textContent();
  assert.match(text, /Loss/);
  assert.equal(text.split('A private game').length - 1, 1, text);
  assert.deepEqual([...eve.errors, ...fay.errors], []);
});
