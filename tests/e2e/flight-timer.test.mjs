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

test('P-TIMER/P-AUTOPLAY: the clock runs out, auto-play takes over, off and on again by choice', { timeout: 300000 }, async (t) => {
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

  // Off by choice: the next decision is mine again, taken by clicking. The server's answer,
  // shown to everyone: the auto-play badge goes. The press is held half a second while the
  // bots and auto-play move and the panel is redrawn: the one click still counts.
  const off = await switchAutoplay(page, false);
  t.diagnostic(`clicks to switch auto-play off: ${off.clicks}`);
  assert.equal(off.state, 'switched', 'auto-play switched off by clicking');
  assert.equal(off.clicks, 1, 'a click held across redraws is not lost');
  const what = await flightWait(page, 60000);
  if (what !== 'over') {
    await flightAct(page, what);
    // On again by choice: the bot plays for me to the end of the game — unless that turn (or
    // the bots' next) already ended it, which takes the switch away.
    const on = await switchAutoplay(page, true);
    t.diagnostic(`clicks to switch auto-play on: ${on.clicks}`);
    assert.notEqual(on.state, 'failed', 'auto-play switched on by clicking (or the game was over)');
  }
  await page.locator('#result').waitFor({ timeout: 180000 });
  assert.deepEqual(page.errors, []);
});

/**
 * Click the auto-play switch until the server's badge says `on`. The state is 'switched', or
 * 'over' when the game ended first, or 'failed'; `clicks` counts the clicks it took. The
 * command names the state wanted, so a second click sent while the first is on its way changes
 * nothing; the page is clicked again only while the switch shows the other state. Each click
 * is held for half a second, as a person's may be.
 */
async function switchAutoplay(page, on) {
  const badge = page.locator('.players-card .chip-auto');
  const toggle = page.locator('#autoplay-toggle');
  const settled = async () => {
    if (await page.locator('#result').isVisible()) return 'over';
    return (await badge.count() > 0) === on ? 'switched' : null;
  };
  let clicks = 0;
  for (let tries = 0; tries < 5; tries += 1) {
    const state = await settled();
    if (state) return { state, clicks };
    if (await toggle.isChecked({ timeout: 2000 }).catch(() => on) !== on) {
      clicks += 1;
      await toggle.click({ force: true, delay: 500, timeout: 2000 }).catch(() => {});
    }
    await page.waitForFunction((want) => (document.querySelector('.players-card .chip-auto') !== null) === want
      || document.querySelector('#result') !== null, on, { timeout: 4000 }).catch(() => {});
  }
  return { state: await settled() ?? 'failed', clicks };
}
