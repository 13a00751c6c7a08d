// Items and weather in the browser (F-ITEM-SPAWN, F-ITEM-PICK, F-ITEM-USE, F-WEATHER): a room
// with both options against a bot shows the weather cell and the items on the board, and the
// player uses the items picked up, by clicking, until the game ends.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, flightWait, flightAct, shot,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('F-ITEM-USE/F-WEATHER: items and weather on the board, an item used by clicking', { timeout: 900000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Pilot');
  await createRoom(page, 'flight', { seats: 2, planes: 2, turn_seconds: 60 }, ['items', 'weather']);
  await fillWithBots(page, 'heuristic');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  // Round 1 draws a weather cell and an item before the first roll.
  await page.locator('.flight-board .board-weather').waitFor({ timeout: 10000 });
  await page.locator('.flight-board .board-item').first().waitFor({ timeout: 10000 });
  await shot(page, 'flight-items', '.flight-board');

  let decisions = 0;
  let used = 0;
  for (;;) {
    const what = await flightWait(page);
    if (what === 'over') break;
    const items = await page.locator('.board-item').count();
    assert.ok(items <= 2, `${items} items on the board (at most two)`);
    const item = page.locator('.item-btn:not([disabled])').first();
    if (what === 'roll' && (await item.count())) {
      await item.click();
      // The item threw the die: the roll is spent or a plane is to be chosen.
      await page.waitForFunction(() => document.querySelector('#die')?.disabled || document.querySelector('.plane.movable'), null, { timeout: 20000 });
      used += 1;
    } else {
      await flightAct(page, what);
    }
    decisions += 1;
    assert.ok(decisions < 2000, 'the game should end');
  }
  await page.locator('#result').waitFor();
  assert.ok(decisions > 5, `played ${decisions} decisions`);
  console.log(`items used by clicking: ${used}`);
  assert.deepEqual(page.errors, []);
});
