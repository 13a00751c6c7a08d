// The turn timer and auto-play in the browser (P-TIMER, P-AUTOPLAY): a player who lets the
// clock run out sees the countdown, then the server plays for them and puts them on auto-play;
// they switch it off, play a turn by hand, switch it on again, and auto-play ends the game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, flightWait, flightAct, shot,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('P-TIMER/P-AUTOPLAY: the clock runs out, auto-play takes over, off and on again by choice', { timeout: 300000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Sleepy');
  await createRoom(page, 'flight', { seats: 2, planes: 2, turn_seconds: 5 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  // The game log shows its last six lines, and once the clock has run out auto-play and the bot
  // play on: on a busy machine a line can come and go between two looks. Record every line.
  await page.evaluate(() => {
    const log = document.querySelector('#game-log');
    window.logLines = [...log.children].map((line) => line.textContent);
    new MutationObserver((changes) => {
      for (const change of changes) {
        for (const line of change.addedNodes) window.logLines.push(line.textContent);
      }
    }).observe(log, { childList: true });
  });

  // My decision: the countdown shows the seconds left of the room's 5.
  assert.equal(await flightWait(page), 'roll');
  // (The timer is redrawn four times a second: wait for its first figure.)
  await page.waitForFunction(() => /^\d+s$/.test(document.querySelector('#timer')?.textContent), null, { timeout: 5000 });
  const left = Number((await page.locator('#timer').textContent()).replace('s', ''));
  assert.ok(left >= 0 && left <= 5, `the timer shows ${left}s`); // 0 when the page saw the turn late

  // Nothing is clicked: the server acts and switches auto-play on, which everyone sees.
  await page.waitForFunction(() => window.logLines.some((line) => line.includes('You timed out')), null, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('#autoplay-toggle')?.checked, null, { timeout: 10000 });
  await page.locator('.players-card .chip-auto').waitFor();
  await shot(page, 'flight-autoplay');

  // Off by choice: the next decision is mine again, taken by clicking.
  await page.locator('#autoplay-toggle').click({ force: true });
  // The server's answer, shown to everyone: the auto-play badge goes.
  await page.locator('.players-card .chip-auto').waitFor({ state: 'detached', timeout: 10000 });
  const what = await flightWait(page, 60000);
  if (what !== 'over') {
    await flightAct(page, what);
    // On again by choice: the bot plays for me to the end of the game — unless that turn (or
    // the bots' next) already ended it, which takes the switch away. The controls are drawn
    // anew with every event, so a click can meet a switch being replaced: look again.
    const toggle = page.locator('#autoplay-toggle');
    let done = false;
    for (let tries = 0; tries < 10 && !done; tries += 1) {
      done = await page.locator('#result').isVisible()
        || await toggle.click({ force: true, timeout: 2000 }).then(() => true, () => false);
    }
    assert.ok(done, 'the auto-play switch could be clicked (or the game was over)');
    await page.locator('.players-card .chip-auto, #result').first().waitFor({ timeout: 10000 });
  }
  await page.locator('#result').waitFor({ timeout: 180000 });
  assert.deepEqual(page.errors, []);
});
