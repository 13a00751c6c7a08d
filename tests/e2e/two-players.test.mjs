// Two people in two browser contexts play each other: each sees the other's moves, a
// spectator sees the game, and a reload in the middle of the game brings the player back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, flightWait, flightPlanes, shot, BASE,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// One decision by whichever page can act; returns false when neither can within the wait.
async function step(pages) {
  for (let attempt = 0; ; attempt += 1) {
    const which = await Promise.race(pages.map((p, i) => flightWait(p, 60000).then((w) => [i, w])));
    const [i, what] = which;
    if (what === 'over') return false;
    const page = pages[i];
    try {
      // A short timeout: the control can be redrawn under the click (an event just came in).
      if (what === 'roll') await page.locator('#die').click({ force: true, timeout: 3000 });
      else await page.locator('.flight-board .plane.movable').first().click({ force: true, timeout: 3000 });
    } catch (err) {
      if (attempt < 5) continue;
      throw err;
    }
    await page.waitForFunction((w) => (w === 'roll' ? document.querySelector('#die')?.disabled : !document.querySelector('.plane.movable')), what, { timeout: 30000 });
    return true;
  }
}

// Both boards show the same planes (polling: a page may still be animating the last move).
async function sameBoard(a, b) {
  let last = null;
  for (let i = 0; i < 100; i += 1) {
    const [x, y] = [await flightPlanes(a), await flightPlanes(b)];
    if (JSON.stringify(x) === JSON.stringify(y)) return x;
    last = [x, y];
    await a.waitForTimeout(200);
  }
  assert.fail(`boards differ: ${JSON.stringify(last)}`);
  return null;
}

test('P-SEATS/P-SPECTATE/P-DISCONNECT: two players see each other\'s moves; a reload resumes the game', { timeout: 600000 }, async () => {
  const ana = await newPage(browser, { anim: 20 });
  const bo = await newPage(browser, { anim: 20, viewport: { width: 390, height: 844 } }); // a phone
  await guest(ana, 'Ana');
  await guest(bo, 'Bo');
  const code = await createRoom(ana, 'flight', { seats: 2, turn_seconds: 60 });
  // Bo joins by typing the code.
  await bo.locator('.join-form input').fill(code);
  await bo.locator('.join-form button').click();
  await bo.locator('.seat-card.mine').waitFor();
  await ana.locator('.seat-card.filled[data-seat="1"]').waitFor();
  await ana.locator('#ready-btn').click();
  await bo.locator('#ready-btn').click();
  await ana.locator('.flight-board').waitFor();
  await bo.locator('.flight-board').waitFor();
  // A watcher from the hall's list sees the same game.
  const cy = await newPage(browser);
  await guest(cy, 'Cy');
  await cy.goto(`${BASE}/?anim=20#/room/${code}/watch`);
  await cy.locator('.flight-board').waitFor();
  await cy.locator('.chip-watch').waitFor();

  // The phone layout has no horizontal scrolling and the whole board is visible.
  const overflow = await bo.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `horizontal overflow ${overflow}px`);
  const box = await bo.locator('.flight-board').boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `board width ${box.width}`);

  let moves = 0;
  for (let i = 0; i < 60 && moves < 24; i += 1) {
    if (!(await step([ana, bo]))) break;
    moves += 1;
  }
  assert.ok(moves >= 10, `${moves} decisions`);
  const seen = await sameBoard(ana, bo);
  await sameBoard(ana, cy);
  assert.ok(seen.some((p) => !p.endsWith(':hangar')) || moves > 0);
  await shot(bo, 'two-players-phone');

  // Chat goes both ways.
  await ana.locator('.chat-form input').fill('good luck');
  await ana.locator('.chat-form button').click();
  await bo.locator('#chat-lines', { hasText: 'good luck' }).waitFor();

  // Bo reloads in the middle of the game and is back in the same game, same board.
  await bo.reload();
  await bo.locator('.flight-board').waitFor({ timeout: 20000 });
  await sameBoard(ana, bo);
  assert.equal(await bo.locator('.seat-card').count(), 0);
  // …and play goes on for both.
  let after = 0;
  for (let i = 0; i < 20 && after < 6; i += 1) {
    if (!(await step([ana, bo]))) break;
    after += 1;
  }
  assert.ok(after >= 4, `${after} decisions after the reload`);
  await sameBoard(ana, bo);
  // A dropped connection (not a reload) resumes from the last version.
  await bo.evaluate(() => window.hangar.conn.drop());
  await step([ana, bo]);
  await step([ana, bo]);
  await sameBoard(ana, bo);
  assert.deepEqual(bo.errors, []);

  // Bo goes away for good: Ana sees his countdown and that auto-play plays for him.
  await bo.context().close();
  const boRow = ana.locator('.player-row[data-seat="1"]');
  await boRow.locator('.chip-away').waitFor({ timeout: 20000 });
  assert.match(await boRow.locator('.chip-away').textContent(), /offline \d+s/);
  await boRow.locator('.chip-auto').waitFor({ timeout: 20000 });
  await shot(ana, 'two-players-away');
  // Ana plays on until resigning is allowed (P-RESIGN: 15 turns), then resigns.
  for (let i = 0; i < 400; i += 1) {
    if (await ana.locator('#resign-btn:not([disabled])').count()) break;
    const what = await flightWait(ana, 60000);
    if (what === 'over') break;
    await step([ana]);
  }
  if (!(await ana.locator('#result').count())) {
    await ana.locator('#resign-btn').click();
    await ana.locator('#result').waitFor();
  }
  assert.equal(await ana.locator('#result tbody tr').count(), 2);
  assert.deepEqual(ana.errors, []);
});

test('P-SEATS: a press on Ready held while the other player joins still counts', { timeout: 120000 }, async () => {
  const ana = await newPage(browser);
  const bo = await newPage(browser);
  await guest(ana, 'Ana');
  await guest(bo, 'Bo');
  const code = await createRoom(ana, 'flight', { seats: 2, turn_seconds: 60 });
  await bo.locator('.join-form input').fill(code);
  // Ana presses Ready and holds it while Bo joins: her page hears of Bo mid-press (its state
  // has his seat), which would redraw the seats, and the button, under her press.
  const box = await ana.locator('#ready-btn').boundingBox();
  await ana.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await ana.mouse.down();
  await bo.locator('.join-form button').click();
  await bo.locator('.seat-card.mine').waitFor();
  await ana.waitForFunction(() => window.hangar.view?.state?.seats?.[1]?.player?.name === 'Bo', null, { timeout: 3000 });
  await ana.mouse.up();
  // The click counted: Ana is ready, on her page and on Bo's; and her page shows Bo now.
  await ana.locator('.seat-card[data-seat="0"] .seat-ready.yes').waitFor({ timeout: 5000 });
  await bo.locator('.seat-card[data-seat="0"] .seat-ready.yes').waitFor({ timeout: 5000 });
  await ana.locator('.seat-card.filled[data-seat="1"]').waitFor({ timeout: 5000 });
  assert.deepEqual([...ana.errors, ...bo.errors], []);
});
