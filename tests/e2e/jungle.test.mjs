// A guest plays Jungle against a bot by clicking (and by typed moves and arrow keys).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, guest, createRoom, fillWithBots, shot } from './helpers.mjs';

let browser;

/**
 * Click the board square of `locator`'s element at its centre, as a person would, after
 * checking that the click goes to that square (what the browser hands it to: the element at
 * that point, or the piece on it). Playwright's own click would wait for the pulsing target
 * dots to stand still, which they never do.
 */
async function clickSquare(page, locator) {
  await locator.waitFor();
  const at = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y)?.closest('[data-square]');
    return { x, y, want: el.dataset.square, got: hit?.dataset.square ?? null };
  });
  assert.equal(at.got, at.want, `a click on square ${at.want} lands on ${at.got}`);
  await page.mouse.click(at.x, at.y);
}

before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('J-BOARD/J-STEP: a jungle game against a bot, to the end', { timeout: 600000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Keeper');
  await createRoom(page, 'jungle', { turn_seconds: 60 });
  await fillWithBots(page, 'easy');
  await page.locator('#ready-btn').click();
  await page.locator('.jungle-board').waitFor();
  // The board: 63 squares, 12 of them water, 6 traps, 2 dens and 16 animals.
  assert.equal(await page.locator('.jungle-board .cell').count(), 63);
  assert.equal(await page.locator('.jungle-board .cell.water').count(), 12);
  assert.equal(await page.locator('.jungle-board .trap').count(), 6);
  assert.equal(await page.locator('.jungle-board .den').count(), 2);
  assert.equal(await page.locator('.jungle-board .piece').count(), 16);
  await shot(page, 'jungle-start', '.jungle-board');

  let moves = 0;
  for (;;) {
    const state = await page.waitForFunction(() => {
      if (document.querySelector('#result')) return 'over';
      if (document.querySelector('.jungle-board .movable-from')) return 'move';
      return false;
    }, null, { timeout: 120000, polling: 50 }).then((h) => h.jsonValue());
    if (state === 'over') break;
    if (moves >= 40) {
      // Long enough: resign (allowed at any time in Jungle) to end the game.
      await page.locator('#resign-btn').click();
      await page.locator('#result').waitFor();
      break;
    }
    const plies = Number(await page.locator('.jungle-board').getAttribute('data-plies'));
    if (moves % 4 === 3) {
      // Type a legal move in notation.
      const mv = await page.evaluate(() => window.hangar.view.state.game.moves[0]);
      await page.locator('#move-input').fill(mv);
      await page.locator('#move-input').press('Enter');
    } else {
      // Click a piece that can move, then one of its target dots; prefer captures and forward moves.
      const from = page.locator('.jungle-board .movable-from').nth(moves % 2);
      const target = (await from.count()) ? from : page.locator('.jungle-board .movable-from').first();
      await clickSquare(page, target);
      await clickSquare(page, page.locator('.jungle-board .target-dot').first());
    }
    // The move is taken: the ply count grows (the bot may answer at once).
    await page.waitForFunction((n) => Number(document.querySelector('.jungle-board')?.dataset.plies) > n || document.querySelector('#result'), plies, { timeout: 20000 });
    moves += 1;
    if (moves === 8) await shot(page, 'jungle-mid', '.jungle-board');
  }
  assert.ok(moves >= 1);
  await page.locator('#result').waitFor();
  assert.equal(await page.locator('#result tbody tr').count(), 2);
  // The last move is marked on the board.
  assert.ok(await page.locator('.jungle-board .last-to').count() >= 1);
  const pieces = () => page.evaluate(() => [...document.querySelectorAll('.jungle-board .piece')]
    .map((p) => `${p.dataset.square}${p.dataset.piece}${p.classList.contains('piece-red') ? 'r' : 'y'}`).sort());
  const finalPieces = await pieces();
  await page.locator('#result button').last().click();
  await shot(page, 'jungle-end', '.jungle-board');
  // The replay of this game ends on the same position, and starts on the set-up (J-SETUP).
  // The result's replay button (P-RECORD): the reopened result, the way a person gets back to it.
  await page.locator('.last-game button').click();
  await page.locator('#result #view-replay').click();
  await page.locator('#replay-step').waitFor();
  assert.equal((await pieces()).length, 16);
  await page.locator('#replay-last').click();
  assert.deepEqual(await pieces(), finalPieces);
  await page.locator('#replay-first').click();
  await page.locator('#replay-next').click();
  assert.match(await page.locator('#replay-step').textContent(), /^Step 1 \//);
  assert.deepEqual(page.errors, []);
});
