// P-REVIEW: a finished game's review from its result dialog and from a link: the progress, then
// the chart with the marked moves, a summary line per player, a mark taking the replay to its
// move (Jungle: the better move drawn on the board); flight: each player's win chance and the
// luck and skill bars. Desktop and phone, English and Chinese, no horizontal overflow on a
// phone, nothing serious for axe-core.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, shot, axeViolations, BASE,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** axe-core on the page as it is, in both languages (the switch flips them). */
async function axeBothLanguages(page, where) {
  for (let i = 0; i < 2; i += 1) {
    const lang = await page.evaluate(() => document.documentElement.lang);
    assert.deepEqual(await axeViolations(page), [], `${where} (${lang})`);
    await page.locator('#lang').click();
  }
}

/** The page is no wider than the window (a phone scrolls down, never sideways). */
async function noSidewaysScroll(page, where) {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  assert.ok(scroll <= inner, `${where}: the page is ${scroll}px wide in a ${inner}px window`);
}

/**
 * This page's Jungle side plays `plies` moves against the bot the way that loses most: a piece
 * next to a stronger enemy piece if it can, else the move that advances furthest; then resigns.
 */
async function playBadlyThenResign(page, plies) {
  for (let played = 0; played < plies;) {
    const state = await page.waitForFunction(() => {
      if (document.querySelector('#result')) return 'over';
      const view = window.hangar.view;
      const game = view?.state?.game;
      return game && game.to_move === view.mySeat() && game.moves?.length ? 'move' : false;
    }, null, { timeout: 120000, polling: 50 }).then((handle) => handle.jsonValue());
    if (state === 'over') return;
    const plies = Number(await page.locator('.jungle-board').getAttribute('data-plies'));
    await page.evaluate(async () => {
      const { parseFen, parseSquare, squareName, RANK } = await import('/js/jungle/position.js');
      const view = window.hangar.view;
      const { fen, moves } = view.state.game;
      const { board } = parseFen(fen);
      const me = view.mySeat() === 0 ? 'red' : 'yellow';
      const forward = me === 'red' ? 1 : -1;
      const score = (move) => {
        const piece = board.get(move.slice(0, 2));
        const [f, r] = parseSquare(move.slice(2, 4));
        let danger = 0;
        for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const near = board.get(squareName(f + df, r + dr));
          if (near && near.side !== me && RANK[near.kind] >= RANK[piece.kind]) danger += 10;
        }
        return danger + forward * (r - parseSquare(move.slice(0, 2))[1]);
      };
      const worst = [...moves].sort((a, b) => score(b) - score(a))[0];
      await view.cmd('move', { move: worst });
    });
    played += 1;
    // Wait for the move to be on the board before looking again (the bot may answer at once).
    await page.waitForFunction((before) => document.querySelector('#result')
      || Number(document.querySelector('.jungle-board')?.dataset.plies) > before, plies, { timeout: 60000, polling: 50 });
  }
  if (!(await page.locator('#result').count())) {
    await page.locator('#resign-btn').click();
    await page.locator('#result').waitFor();
  }
}

/** Waits for the review's chart (the hall computes it meanwhile, the page shows progress). */
async function reviewShown(page) {
  await page.locator('#review-chart').waitFor({ timeout: 180000 });
}

test('P-REVIEW: a Jungle game reviewed from its result dialog: the chart, the marks, the better move, a summary per player', { timeout: 600000 }, async () => {
  const page = await newPage(browser, { viewport: DESKTOP });
  await guest(page, 'Reckless');
  await createRoom(page, 'jungle', { turn_seconds: 60 });
  await fillWithBots(page, 'normal');
  await page.locator('#ready-btn').click();
  await page.locator('.jungle-board').waitFor();
  await playBadlyThenResign(page, 14);
  // The result dialog offers the review.
  const link = page.locator('#result #view-review');
  assert.match(await link.textContent(), /Review/);
  await link.click();
  await page.locator('#replay-step').waitFor();
  const id = page.url().match(/#\/replay\/(\d+)\/review/)[1];
  // Opened from the link, the review is asked for at once; the page says how it goes.
  await page.locator('#review-status, #review-chart').first().waitFor();
  await reviewShown(page);
  const review = await (await fetch(`${BASE}/api/games/${id}/review`)).json();
  assert.equal(review.game, 'jungle');
  const marked = review.moves.filter((m) => m.judgement);
  assert.ok(marked.length > 0, 'moves that hand pieces to the bot are marked');
  // The chart: one point per marked move; the summary: a line per player in words.
  assert.equal(await page.locator('#review-chart .review-mark').count(), marked.length);
  assert.equal(await page.locator('#review-marks button').count(), marked.length);
  const lines = await page.locator('#review-summary li').allTextContents();
  assert.equal(lines.length, 2);
  assert.ok(lines.some((l) => /Reckless: .*(inaccurac|mistake|blunder)/.test(l)), lines.join(' | '));
  // A mark takes the replay to its move, and the better move is drawn on the board.
  const first = marked[0];
  await page.locator('#review-marks button').first().focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#replay-slider').inputValue(), String(first.action + 1));
  assert.equal(await page.locator('.jungle-board .review-better').getAttribute('data-move'), first.best);
  // A chart point does the same.
  await page.locator('#review-chart .review-mark').last().click();
  assert.equal(await page.locator('#replay-slider').inputValue(), String(marked.at(-1).action + 1));
  await shot(page, 'review-jungle-desktop');
  await axeBothLanguages(page, 'a Jungle review');
  assert.deepEqual(page.errors, []);

  // On a phone, in Chinese, from a link: the same review, served again, no sideways scroll.
  const phone = await newPage(browser, { viewport: PHONE, locale: 'zh-CN' });
  await phone.goto(`${BASE}/#/replay/${id}/review`);
  await reviewShown(phone);
  assert.match(await phone.evaluate(() => document.documentElement.lang), /^zh/);
  assert.equal(await phone.locator('#review-chart .review-mark').count(), marked.length);
  assert.match((await phone.locator('#review-summary').textContent()), /失误|大错|欠佳/);
  await noSidewaysScroll(phone, 'a Jungle review on a phone');
  await shot(phone, 'review-jungle-phone');
  await axeBothLanguages(phone, 'a Jungle review on a phone');
  assert.deepEqual(phone.errors, []);
});

test('P-REVIEW: a flight game reviewed from a profile and a link: each player\'s win chance, luck and skill', { timeout: 900000 }, async () => {
  const page = await newPage(browser, { viewport: DESKTOP, locale: 'zh-CN' });
  await guest(page, 'Lucky');
  await createRoom(page, 'flight', { seats: 2, planes: 2, turn_seconds: 60 });
  await fillWithBots(page, 'heuristic');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  // Auto-play plays the page's seat to the end.
  await page.locator('label.switch .switch-track').click();
  await page.locator('#result').waitFor({ timeout: 500000 });
  const gameId = await page.evaluate(() => window.hangar.view.state.result.game_id);
  const playerId = await page.evaluate(() => window.hangar.player.id);
  await page.locator('#result .result-close').click();

  // The profile lists the game with its review link.
  await page.goto(`${BASE}/#/player/${playerId}`);
  const row = page.locator(`#profile-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  await row.locator('.review-link').click();
  await page.waitForURL(new RegExp(`#/replay/${gameId}/review`));
  await reviewShown(page);
  const review = await (await fetch(`${BASE}/api/games/${gameId}/review`)).json();
  assert.equal(review.game, 'flight');
  // A line per seat, two bars per player, a summary line of luck and skill per player.
  assert.equal(await page.locator('#review-chart .review-line-seat').count(), 2);
  assert.equal(await page.locator('#review-summary .review-bars').count(), 2);
  const lines = await page.locator('#review-summary li').allTextContents();
  assert.equal(lines.length, 2);
  for (const l of lines) assert.match(l, /运气 (0|[+−]\d+) %，技术 (0|[+−]\d+) %/);
  const marked = review.steps.filter((st) => st.kind === 'decision' && st.class);
  assert.equal(await page.locator('#review-chart .review-mark').count(), marked.length);
  if (marked.length) {
    await page.locator('#review-marks button').first().click();
    assert.equal(await page.locator('#replay-slider').inputValue(), String(marked[0].index + 1));
  } else {
    assert.ok(await page.locator('#review-marks').textContent());
  }
  await shot(page, 'review-flight-desktop');
  await axeBothLanguages(page, 'a flight review');
  assert.deepEqual(page.errors, []);

  const phone = await newPage(browser, { viewport: PHONE, locale: 'en-US' });
  await phone.goto(`${BASE}/#/replay/${gameId}/review`);
  await reviewShown(phone);
  const phoneLines = await phone.locator('#review-summary li').allTextContents();
  assert.ok(phoneLines.every((l) => /luck (0|[+−]\d+) %, skill (0|[+−]\d+) %/.test(l)), phoneLines.join(' | '));
  assert.ok(phoneLines.some((l) => l.includes('Lucky')));
  await noSidewaysScroll(phone, 'a flight review on a phone');
  await shot(phone, 'review-flight-phone');
  await axeBothLanguages(phone, 'a flight review on a phone');
  assert.deepEqual(phone.errors, []);
});
