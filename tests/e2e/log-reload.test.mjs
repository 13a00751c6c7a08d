// The flight game log remembers (issue 30, point 6): a reload mid-game writes the same log
// again, two bots of one level are told apart by colour in names and lines, and a rematch
// starts with an empty log (P-DISCONNECT, P-REMATCH).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, flightWait, flightAct, recordEvents, axeViolations,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The log's lines, newest first, each with the colour of its actor. */
function logLines(page) {
  return page.evaluate(() => [...document.querySelectorAll('#game-log .log-line')]
    .map((line) => `${line.dataset.colour || '-'}|${line.textContent}`));
}

/** Play this page's decisions until `done()` holds at a moment the page is to roll. */
async function playUntil(page, done) {
  for (let i = 0; i < 400; i += 1) {
    const what = await flightWait(page);
    assert.notEqual(what, 'over', 'the game is not over yet');
    if (what === 'roll' && await done()) return;
    await flightAct(page, what);
  }
  assert.fail('the condition was not reached in 400 decisions');
}

test('P-DISCONNECT: the game log after a reload equals the log before it; two bots of one level are told apart', { timeout: 300000 }, async () => {
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await guest(page, 'Keeper');
  await createRoom(page, 'flight', { seats: 3, turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor();
  await playUntil(page, async () => (await logLines(page)).length >= 12);
  const before = await logLines(page);
  // The two random bots have names of their own, and every line names its actor's colour.
  const names = await page.locator('.player-row .player-name').allTextContents();
  const bots = names.filter((n) => n.startsWith('🤖'));
  assert.equal(bots.length, 2);
  assert.notEqual(bots[0], bots[1], `the bots are told apart: ${bots}`);
  assert.ok(before.every((line) => !line.startsWith('-|')), `every line has a colour: ${before}`);
  assert.ok(before.some((line) => line.includes(bots[0].slice(3)) || line.includes(bots[1].slice(3))), 'the log names a bot by its own name');

  await page.reload();
  await recordEvents(page);
  await page.locator('.flight-board').waitFor();
  // While the page was gone the hall may have played on (auto-play for an absent player,
  // P-DISCONNECT): the log is the one before the reload with the lines of what happened since.
  assert.notEqual(await flightWait(page), 'over');
  const after = await logLines(page);
  assert.deepEqual(after.slice(after.length - before.length), before, 'the log before the reload is all there');
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('P-DISCONNECT: a reload while a move animates, with more events waiting, keeps the whole log', { timeout: 300000 }, async () => {
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await guest(page, 'Midway');
  await createRoom(page, 'flight', { seats: 4, turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor();
  await playUntil(page, async () => (await logLines(page)).length >= 40);
  // Slow moves down and take this page's next decisions until one of its moves animates while
  // the bots' events wait behind it: the page is then drawing an event, and more are queued.
  await page.evaluate(() => { window.hangar.anim = 0.2; });
  let caught = false;
  for (let i = 0; i < 60 && !caught; i += 1) {
    const what = await flightWait(page);
    assert.notEqual(what, 'over', 'the game is not over yet');
    await flightAct(page, what);
    if (what !== 'move') continue;
    caught = await page.waitForFunction(() => {
      const view = window.hangar.view;
      return view.gameView?.busy && view.pendingEvents >= 2;
    }, null, { timeout: 5000, polling: 20 }).then(() => true, () => false);
  }
  assert.ok(caught, 'a move animated with events waiting behind it');
  const before = await logLines(page);
  assert.ok(before.length >= 40, `${before.length} lines`);
  await page.reload();
  await recordEvents(page);
  await page.locator('.flight-board').waitFor();
  // Every line logged before the reload is there again, the move that was animating and the
  // events that waited behind it after them.
  await page.waitForFunction((n) => document.querySelectorAll('#game-log .log-line').length > n, before.length, { timeout: 30000 });
  const after = await logLines(page);
  assert.deepEqual(after.slice(after.length - before.length), before, `the log before the reload is all there (${before.length} → ${after.length} lines)`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('P-REMATCH: a rematch starts with an empty log', { timeout: 300000 }, async () => {
  const page = await newPage(browser, { locale: 'zh-CN', viewport: { width: 390, height: 844 } });
  await guest(page, 'Again');
  await createRoom(page, 'flight', { seats: 2, turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor();
  // Resigning is allowed after 15 turns (P-RESIGN).
  await playUntil(page, () => page.locator('#resign-btn:not([disabled])').count().then((n) => n > 0));
  const lines = (await logLines(page)).length;
  assert.ok(lines >= 15, `${lines} lines`);
  await page.locator('#resign-btn').click();
  await page.locator('#result').waitFor();
  // The last game's lines are marked: none of them may stay into the next game.
  await page.evaluate(() => document.querySelectorAll('#game-log .log-line').forEach((line) => { line.dataset.old = 'yes'; }));
  assert.ok(await page.locator('#game-log .log-line[data-old]').count() >= 15);
  await page.locator('#play-again').click();
  await page.waitForFunction(() => window.hangar.view.state.status === 'playing');
  assert.equal(await page.locator('#game-log .log-line[data-old]').count(), 0, 'the last game\'s lines are gone');
  const started = await page.evaluate(() => window.roomEvents.filter((e) => e.kind === 'game_started').length);
  assert.equal(started, 2);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('P-DISCONNECT: the Jungle move list after a reload equals the list before it', { timeout: 180000 }, async () => {
  const page = await newPage(browser, { locale: 'zh-CN', viewport: { width: 390, height: 844 } });
  await guest(page, 'Lister');
  await createRoom(page, 'jungle', { turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  // Three moves of this player's, each typed in, each answered by the bot.
  for (let ply = 1; ply <= 5; ply += 2) {
    await page.waitForFunction((n) => {
      const g = window.hangar.view.state.game;
      return g && g.plies === n - 1 && g.to_move === 0 && window.hangar.view.pendingEvents === 0;
    }, ply, { timeout: 30000 });
    const move = await page.evaluate(() => window.hangar.view.state.game.moves[0]);
    await page.locator('#move-input').fill(move);
    await page.locator('#move-input').press('Enter');
  }
  await page.waitForFunction(() => window.hangar.view.state.game.plies === 6 && window.hangar.view.pendingEvents === 0, null, { timeout: 30000 });
  await page.locator('#move-list .move[data-ply="6"]').waitFor();
  const before = await page.locator('#move-list').innerText();
  await page.reload();
  await recordEvents(page);
  await page.locator('.jungle-board').waitFor();
  await page.locator('#move-list .move[data-ply="6"]').waitFor();
  assert.equal(await page.locator('#move-list').innerText(), before);
  assert.equal(await page.locator('#move-list .move-gap').count(), 0, 'no "…" for moves the page forgot');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
