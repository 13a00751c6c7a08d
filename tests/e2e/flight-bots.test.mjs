// A guest plays a whole Aeroplane Chess game against three bots by clicking (and partly by
// keyboard) and never runs out of time; another plays a short game on auto-play and watches its
// replay with the fair-dice check.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, flightWait, flightAct, flightPlanes, myTimeouts, shot,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('P-SEATS/F-ROLL: a guest plays a full flight game against three bots to the end by clicking', { timeout: 900000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Pilot');
  // Two planes each keep the game short; every other option stays traditional.
  const code = await createRoom(page, 'flight', { seats: 4, planes: 2, turn_seconds: 60, stake: 100 });
  assert.match(code, /^[A-Z0-9]+$/);
  await fillWithBots(page, 'heuristic');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  // The board: 52 track squares, 4 shortcuts, 4 hangars; two planes per seat.
  assert.equal(await page.locator('.flight-board .track').count(), 52);
  assert.equal(await page.locator('.flight-board .shortcut').count(), 4);
  assert.equal(await page.locator('.flight-board .plane').count(), 8);
  await shot(page, 'flight-start', '.flight-board');
  // The fair-dice commitment is shown during the game (P-FAIR-DICE).
  assert.match(await page.locator('#commitment').textContent(), /^[0-9a-f]{64}$/);

  let decisions = 0;
  let midShot = false;
  for (;;) {
    const what = await flightWait(page);
    if (what === 'over') break;
    await flightAct(page, what, { keyboard: decisions % 3 === 2 });
    decisions += 1;
    if (!midShot && decisions >= 40) {
      await shot(page, 'flight-mid', '.flight-board');
      midShot = true;
    }
    assert.ok(decisions < 2000, 'the game should end');
  }
  assert.ok(decisions > 5, `played ${decisions} decisions`);
  // Every decision was taken by the page: the clock never ran out on the player (P-TIMER).
  assert.deepEqual(await myTimeouts(page), [], 'the player never timed out');
  const result = page.locator('#result');
  await result.waitFor();
  const rows = await result.locator('tbody tr').count();
  assert.equal(rows, 4);
  // The dialog's fade-in has finished (for the screenshot).
  await page.waitForFunction(() => document.querySelector('#result').getAnimations({ subtree: true }).every((a) => a.playState === 'finished'));
  await shot(page, 'flight-end-result');
  await result.locator('button').last().click();
  await shot(page, 'flight-end', '.flight-board');
  // Some seat has both planes home (F-WIN).
  const planes = await flightPlanes(page);
  const home = [0, 1, 2, 3].map((s) => planes.filter((p) => p.startsWith(`${s}:`) && p.endsWith(':56')).length);
  assert.ok(home.includes(2), `a seat finished: ${planes}`);
  // The seed is revealed and checks out in the browser (P-FAIR-DICE).
  await page.locator('#fair-verdict[data-verified]').waitFor();
  assert.equal(await page.locator('#fair-verdict').getAttribute('data-verified'), 'true');
  assert.deepEqual(page.errors, []);
});

test('P-RECORD: the replay of a finished game steps forward, back, plays and jumps', { timeout: 900000 }, async () => {
  // A game of its own, short and played by auto-play (switched on by the player at once), so
  // that this test does not depend on the one above.
  const page = await newPage(browser);
  await guest(page, 'Viewer');
  await createRoom(page, 'flight', { seats: 2, planes: 2, turn_seconds: 60 });
  await fillWithBots(page, 'heuristic');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  await page.locator('label.switch .switch-track').click();
  await page.locator('#result').waitFor({ timeout: 600000 });
  await page.locator('#result button').last().click();
  const finalPlanes = await flightPlanes(page);
  // Reach the replay through the hall's "my games", the way back to a game once its room is left.
  await page.goto(page.url().replace(/#.*$/, '#/'));
  await page.locator('#my-games a').first().waitFor();
  await page.locator('#my-games a').first().click();
  await page.locator('#replay-step').waitFor();
  const n = Number(await page.locator('#replay-slider').getAttribute('max'));
  assert.ok(n > 10, `${n} steps`);
  assert.match(await page.locator('#replay-step').textContent(), /0 \/ /);
  // At the start every plane is in its hangar.
  assert.ok((await flightPlanes(page)).every((p) => p.endsWith(':hangar')));
  await page.locator('#replay-next').click();
  await page.locator('#replay-next').click();
  assert.match(await page.locator('#replay-step').textContent(), /2 \/ /);
  await page.locator('#replay-prev').click();
  assert.match(await page.locator('#replay-step').textContent(), /1 \/ /);
  await page.locator('#replay-play').click();
  await page.waitForFunction(() => !/^Step 1 /.test(document.querySelector('#replay-step').textContent));
  await page.locator('#replay-play').click();
  // Jump to the end: the board matches the end of the live game.
  await page.locator('#replay-slider').fill(String(n));
  assert.match(await page.locator('#replay-step').textContent(), new RegExp(`${n} / ${n}`));
  assert.deepEqual(await flightPlanes(page), finalPlanes);
  await shot(page, 'flight-replay-end');
  await page.locator('#fair-verdict[data-verified]').waitFor();
  assert.equal(await page.locator('#fair-verdict').getAttribute('data-verified'), 'true');
  // Every recorded roll is re-drawn from the revealed seed in the browser and matches.
  assert.ok(Number(await page.locator('#fair-rolls').getAttribute('data-checked')) > 10);
  assert.equal(await page.locator('#fair-rolls').getAttribute('data-mismatches'), '0');
  assert.deepEqual(page.errors, []);
});
