// A Jungle game played to the end with the keyboard only: arrow keys move the cursor, Enter
// picks the piece and then its target, Tab reaches the resign button.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, guest, createRoom, fillWithBots, shot } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const FILES = 'abcdefg';

/** Move the board's cursor to `square` with the arrow keys (screen directions), then Enter. */
async function keyTo(page, square) {
  const { cursor, flipped } = await page.evaluate(() => {
    const board = window.hangar.view.gameView.board;
    return { cursor: board.cursor, flipped: board.flipped };
  });
  const [f1, r1] = [FILES.indexOf(square[0]), Number(square[1]) - 1];
  const sign = flipped ? -1 : 1;
  // With no cursor yet, a first arrow shows it (one step from the middle of this side's edge).
  if (!cursor) await page.keyboard.press('ArrowUp');
  const from = await page.evaluate(() => window.hangar.view.gameView.board.cursor);
  const [fa, ra] = [FILES.indexOf(from[0]), Number(from[1]) - 1];
  const dy = (r1 - ra) * sign;
  const dx = (f1 - fa) * sign;
  for (let i = 0; i < Math.abs(dy); i += 1) await page.keyboard.press(dy > 0 ? 'ArrowUp' : 'ArrowDown');
  for (let i = 0; i < Math.abs(dx); i += 1) await page.keyboard.press(dx > 0 ? 'ArrowRight' : 'ArrowLeft');
  assert.equal(await page.locator('.jungle-board .cursor').getAttribute('data-square'), square);
  await page.keyboard.press('Enter');
}

test('J-STEP: a Jungle game to the end by keyboard only', { timeout: 600000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Keys');
  await createRoom(page, 'jungle', { turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.jungle-board .piece').first().waitFor();
  // From here on only keys: nothing focused, so the keys go to the board.
  await page.evaluate(() => document.activeElement?.blur());
  let moves = 0;
  for (;;) {
    const state = await page.waitForFunction(() => {
      if (document.querySelector('#result')) return 'over';
      if (document.querySelector('.jungle-board .movable-from') && window.hangar.view.pendingEvents === 0) return 'move';
      return false;
    }, null, { timeout: 120000, polling: 50 }).then((h) => h.jsonValue());
    if (state === 'over') break;
    if (moves >= 12) {
      // Long enough: Tab to the resign button and press Enter (the confirmation is accepted).
      for (let i = 0; i < 80; i += 1) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(() => document.activeElement?.id === 'resign-btn')) break;
      }
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'resign-btn', 'Tab reaches the resign button');
      await page.keyboard.press('Enter');
      await page.locator('#result').waitFor();
      break;
    }
    const plies = Number(await page.locator('.jungle-board').getAttribute('data-plies'));
    const mv = await page.evaluate(() => window.hangar.view.state.game.moves[0]);
    await keyTo(page, mv.slice(0, 2));
    assert.equal(await page.locator('.jungle-board .selected').getAttribute('data-square'), mv.slice(0, 2), 'Enter selects the piece');
    await keyTo(page, mv.slice(2, 4));
    await page.waitForFunction((n) => Number(document.querySelector('.jungle-board')?.dataset.plies) > n || document.querySelector('#result'), plies, { timeout: 20000 });
    moves += 1;
  }
  assert.ok(moves >= 1, `${moves} moves by keyboard`);
  await page.locator('#result').waitFor();
  // Every move of this seat was the page's own (none timed out).
  const timeouts = await page.evaluate(() => window.roomEvents.filter((e) => e.kind === 'timeout' || e.kind === 'passed'));
  assert.deepEqual(timeouts, []);
  await shot(page, 'jungle-keyboard-end');
  assert.deepEqual(page.errors, []);
});
