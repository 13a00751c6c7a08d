// The turn timer and auto-play in the browser (P-TIMER, P-AUTOPLAY): a player who lets the
// clock run out sees the countdown, then the server plays for them and puts them on auto-play;
// they switch it off, play a turn by hand, switch it on again, and auto-play ends the game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, flightWait, flightAct, myEvents, shot,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('P-TIMER/P-AUTOPLAY: the clock runs out, auto-play takes over, off and on again by choice', { timeout: 300000 }, async (t) => {
  const page = await newPage(browser);
  await guest(page, 'Sleepy');
  // Four seats of four planes: once auto-play and the bots play on, the game must last while
  // a page on a loaded machine catches up and shows the switch (with two seats it could end
  // before the switch was drawn again).
  await createRoom(page, 'flight', { seats: 4, planes: 4, turn_seconds: 8 });
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

  // My decision: the countdown shows the seconds left of the room's 8 (long enough for a page
  // still animating the server's moves to hand the decision back to the test after auto-play).
  assert.equal(await flightWait(page), 'roll');
  // (The timer is redrawn four times a second: wait for its first figure.)
  await page.waitForFunction(() => /^\d+s$/.test(document.querySelector('#timer')?.textContent), null, { timeout: 5000 });
  const left = Number((await page.locator('#timer').textContent()).replace('s', ''));
  assert.ok(left >= 0 && left <= 8, `the timer shows ${left}s`); // 0 when the page saw the turn late

  // Nothing is clicked: the server acts and switches auto-play on, which everyone sees.
  await page.waitForFunction(() => window.logLines.some((line) => line.includes('You timed out')), null, { timeout: 25000 });
  await page.waitForFunction(() => document.querySelector('#autoplay-toggle')?.checked, null, { timeout: 10000 });
  await page.locator('.players-card .chip-auto').waitFor();
  // The server says why: the clock ran out (P-TIMER), not a choice of the player's.
  const byTimeout = (await myEvents(page)).filter((e) => e.kind === 'autoplay');
  assert.deepEqual(byTimeout.map((e) => [e.on, e.reason]), [[true, 'timeout']]);

  // Off by choice: the next decision is mine again, taken by clicking. The server's answer,
  // shown to everyone: the auto-play badge goes. No press on the switch is lost, however long
  // it is held while the bots and auto-play move and the panel is redrawn.
  const off = await switchAutoplay(page, false);
  t.diagnostic(`presses to switch auto-play off: ${off.presses}`);
  assert.deepEqual(off.event, { on: false, reason: 'choice' }, `auto-play switched off by clicking (${off.state})`);
  assert.equal(off.lost, 0, 'a press on the switch held across redraws changed it');
  // My decision, taken by hand (a game of four planes each is far from over after a few turns
  // of auto-play).
  const what = await flightWait(page, 60000);
  assert.notEqual(what, 'over', 'the game is still running after auto-play was switched off');
  await flightAct(page, what);
  // On again by choice: the bot plays for me to the end of the game. Switched on by the
  // server's clock instead (a press not taken, then 8 s without a decision) does not count.
  const on = await switchAutoplay(page, true);
  t.diagnostic(`presses to switch auto-play on: ${on.presses}`);
  assert.deepEqual(on.event, { on: true, reason: 'choice' }, `auto-play switched on by clicking (${on.state})`);
  assert.equal(on.lost, 0, 'a press on the switch held across redraws changed it');
  // (The picture of auto-play is taken now, not while it plays the game on after the timeout:
  // auto-play and the bot play fast, and a slow screenshot could let them finish first.)
  await shot(page, 'flight-autoplay');
  await page.locator('#result').waitFor({ timeout: 180000 });
  assert.deepEqual(page.errors, []);
});

/**
 * Press the auto-play switch until the server announces auto-play `on` (or off) for this
 * player. Each press is held for half a second, as a person's may be, while the bots move and
 * the panel is redrawn. Returns the first `autoplay` event for this seat after the presses
 * began (`event`: its `on` and `reason`; null when none came), the `state` seen ('event',
 * 'over' when the game ended first, 'failed'), `presses` (those that began on the switch) and
 * `lost` (those of them that did not change it; the page notes both: a press aimed at a switch
 * that moved before it landed is not the page's fault). The command names the state wanted,
 * so a second press sent while the first is on its way changes nothing; the switch is pressed
 * again only while it shows the other state.
 */
async function switchAutoplay(page, on) {
  const toggle = page.locator('#autoplay-toggle');
  const since = await page.evaluate(() => window.roomEvents.length);
  // The server's answer: an `autoplay` event for my seat, whatever its reason.
  const answer = () => page.evaluate((from) => {
    const seat = window.hangar.view.mySeat();
    const event = window.roomEvents.slice(from).find((e) => e.kind === 'autoplay' && e.seat === seat);
    return event ? { on: event.on, reason: event.reason } : null;
  }, since);
  await page.evaluate(() => {
    if (window.notePresses) return;
    window.notePresses = true;
    document.addEventListener('pointerdown', (e) => {
      window.lastPress = { onSwitch: !!e.target.closest('label.switch'), changed: false };
    }, true);
    document.addEventListener('change', (e) => {
      if (e.target.id === 'autoplay-toggle' && window.lastPress) window.lastPress.changed = true;
    }, true);
  });
  let presses = 0;
  let lost = 0;
  for (let tries = 0; tries < 5; tries += 1) {
    const event = await answer();
    if (event) return { state: 'event', event, presses, lost };
    if (await page.locator('#result').isVisible()) return { state: 'over', event: null, presses, lost };
    if (await toggle.isChecked({ timeout: 2000 }).catch(() => on) !== on) {
      const box = await page.locator('label.switch .switch-track').boundingBox({ timeout: 2000 }).catch(() => null);
      if (box) {
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        await page.waitForTimeout(500);
        await page.mouse.up();
        const press = await page.evaluate(() => window.lastPress);
        if (press?.onSwitch) {
          presses += 1;
          if (!press.changed) lost += 1;
        }
      }
    }
    // Wait for the server's answer (or the end of the game) before pressing again.
    await page.waitForFunction((from) => {
      const seat = window.hangar.view.mySeat();
      return window.roomEvents.slice(from).some((e) => e.kind === 'autoplay' && e.seat === seat)
        || document.querySelector('#result') !== null;
    }, since, { timeout: 6000 }).catch(() => {});
  }
  const event = await answer();
  return { state: event ? 'event' : 'failed', event, presses, lost };
}
