// Two people in two browser contexts play each other: each sees the other's moves, a
// spectator sees the game, and a reload in the middle of the game brings the player back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, twoInRoom, flightWait, flightAct, flightPlanes, recordEvents, shot, BASE,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// One decision by whichever page can act, taken as flightAct takes it (it fails when the page
// does not take it); returns false when the game is over.
async function step(pages) {
  const [i, what] = await Promise.race(pages.map((p, k) => flightWait(p, 60000).then((w) => [k, w])));
  if (what === 'over') return false;
  await flightAct(pages[i], what);
  return true;
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

// Exactly one of the two pages says it is its turn (polling, as `sameBoard`).
async function sameTurn(a, b) {
  const mine = (p) => p.evaluate(() => !!document.querySelector('.flight-view.my-turn'));
  for (let i = 0; i < 100; i += 1) {
    if ((await mine(a)) !== (await mine(b))) return;
    await a.waitForTimeout(200);
  }
  assert.fail('the two pages do not agree whose turn it is');
}

test('P-SEATS/P-SPECTATE/P-DISCONNECT: two players see each other\'s moves; a reload resumes the game', { timeout: 600000 }, async () => {
  // Bo, on a phone, joins by typing the code.
  const { host: ana, other: bo, code } = await twoInRoom(browser, 'flight', {
    fields: { seats: 2, turn_seconds: 60 }, pages: [{ anim: 20 }, { anim: 20, viewport: { width: 390, height: 844 } }],
  });
  // The host may free the seat of a player who is not ready (Bo is not yet).
  await ana.locator('.seat-card[data-seat="1"] .btn-kick').waitFor();
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

  // Play until a plane has left its hangar (taking off needs the right roll), so that the boards
  // compared below say something.
  let moves = 0;
  while (moves < 10 || (await flightPlanes(ana)).every((p) => p.endsWith(':hangar'))) {
    assert.ok(await step([ana, bo]), `the game went on (${moves} decisions)`);
    moves += 1;
    assert.ok(moves < 400, 'a plane takes off within 400 decisions');
  }
  const seen = await sameBoard(ana, bo);
  await sameBoard(ana, cy);
  assert.ok(seen.some((p) => !p.endsWith(':hangar')), `a plane is out on both boards: ${seen}`);
  await shot(bo, 'two-players-phone');

  // Chat goes both ways.
  await ana.locator('.chat-form input').fill('good luck');
  await ana.locator('.chat-form button').click();
  await bo.locator('#chat-lines', { hasText: 'good luck' }).waitFor();

  // Bo reloads in the middle of the game and is back in the same game, same board.
  await bo.reload();
  await recordEvents(bo);
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
  // A dropped connection (not a reload) resumes from the last version. While Bo is away his
  // turns are auto-played (P-DISCONNECT), so the picture he had is not played on: both pages
  // first show the same game again, the same board and the same seat on turn.
  await bo.evaluate(() => window.hangar.conn.drop());
  await bo.waitForFunction(() => !document.body.classList.contains('offline'), null, { timeout: 20000 });
  await sameBoard(ana, bo);
  await sameTurn(ana, bo);
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
