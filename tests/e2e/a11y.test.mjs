// Everyone can play: axe-core finds no serious or critical violation on the hall, a
// flight room, a running flight game and a running Jungle game, in English and Chinese; a
// keyboard-only player reaches the movable planes with Tab, hears their names and moves one
// with Enter; the game log is a live region.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, flightWait, flightAct, axeViolations,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Check the page in its language and then in the other one. */
async function axeBothLanguages(page, where) {
  for (let i = 0; i < 2; i += 1) {
    const lang = await page.evaluate(() => document.documentElement.lang);
    assert.deepEqual(await axeViolations(page), [], `${where} (${lang})`);
    await page.locator('#lang').click();
  }
}

test('axe-core: the hall, a flight room with a ready bot, a flight game and a Jungle game', { timeout: 300000 }, async () => {
  const page = await newPage(browser, { locale: 'zh-CN' });
  await guest(page, 'Reader');
  await axeBothLanguages(page, 'the hall');
  await createRoom(page, 'flight', { seats: 2, turn_seconds: 60 });
  await fillWithBots(page, 'heuristic');
  // The seat's label (no colour yet: colours are drawn at the start) and the bot's green ready
  // mark are on screen (contrast).
  await page.locator('.seat-card.c-none .seat-colour').first().waitFor();
  await page.locator('.seat-ready.yes').first().waitFor();
  await axeBothLanguages(page, 'a flight room');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board .plane').first().waitFor();
  // The game says which colour the player is (the header chip, and the planes' rings).
  await page.locator('#my-colour').waitFor();
  const colour = await page.evaluate(() => window.hangar.view.myColour());
  assert.equal(await page.locator('.room').getAttribute('data-my-colour'), colour);
  await axeBothLanguages(page, 'a flight game');
  // The board groups the planes (an image cannot hold buttons); the log announces itself.
  assert.equal(await page.locator('.flight-board').getAttribute('role'), 'group');
  assert.equal(await page.locator('#game-log').getAttribute('role'), 'log');
  assert.equal(await page.locator('#game-log').getAttribute('aria-live'), 'polite');

  const jungle = await newPage(browser, { locale: 'en-US' });
  await guest(jungle, 'Listener');
  await createRoom(jungle, 'jungle', { turn_seconds: 60 });
  await fillWithBots(jungle, 'easy');
  await jungle.locator('#ready-btn').click();
  await jungle.locator('.jungle-board .piece').first().waitFor();
  await axeBothLanguages(jungle, 'a Jungle game');
  // Each piece is named: side, animal, rank and square.
  assert.equal(await jungle.locator('.jungle-board .piece[data-square=a1]').getAttribute('aria-label'), 'Red Tiger (6) on a1');
  // Each move is said in a live region: this player's, then the bot's answer.
  await jungle.evaluate(() => {
    window.said = [];
    const region = document.querySelector('#jungle-announce');
    new MutationObserver(() => window.said.push(region.textContent)).observe(region, { childList: true, characterData: true, subtree: true });
  });
  assert.equal(await jungle.locator('#jungle-announce').getAttribute('aria-live'), 'polite');
  await jungle.locator('#move-input').fill('a3a4');
  await jungle.locator('#move-input').press('Enter');
  await jungle.waitForFunction(() => window.said.length >= 2, null, { timeout: 30000 });
  const said = await jungle.evaluate(() => window.said);
  assert.match(said[0], /^You: Elephant a3 → a4$/);
  assert.match(said[1], /: \w+ [a-g][1-9] → [a-g][1-9]/);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(jungle.errors, []);
});

test('keyboard only: Tab reaches a movable plane by its name and Enter moves it', { timeout: 300000 }, async () => {
  const page = await newPage(browser, { locale: 'en-US' });
  await guest(page, 'Keys');
  await createRoom(page, 'flight', { seats: 2, planes: 2, takeoff: 'five-or-six', turn_seconds: 60 });
  await fillWithBots(page, 'heuristic');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  let moved = 0;
  for (let decisions = 0; moved < 3 && decisions < 300; decisions += 1) {
    const what = await flightWait(page);
    if (what === 'over') break;
    if (what === 'roll') {
      await flightAct(page, 'roll', { keyboard: true });
      continue;
    }
    // From the top of the page, Tab until a movable plane has the focus.
    await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
    let focused = null;
    for (let tabs = 0; tabs < 80 && !focused; tabs += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => {
        const el = document.activeElement;
        return el?.matches('.flight-board .plane.movable') ? { name: el.getAttribute('aria-label'), plane: Number(el.dataset.plane) } : null;
      });
    }
    assert.ok(focused, 'Tab never reached a movable plane');
    assert.match(focused.name, /^(Red|Yellow|Blue|Green) plane [1-4], (in the hangar|on the launch pad|square \d+|home)$/);
    const sentBefore = await page.evaluate(() => window.commands.length);
    await page.keyboard.press('Enter');
    await page.waitForFunction((from) => window.commands.slice(from).some((c) => c.type === 'move' && c.answer !== 'pending')
      || document.querySelector('#result'), sentBefore, { timeout: 30000, polling: 50 });
    const answers = await page.evaluate((from) => window.commands.slice(from).filter((c) => c.type === 'move').map((c) => c.answer), sentBefore);
    assert.deepEqual(answers, ['ok'], 'Enter on the plane sent one move the server took');
    moved += 1;
  }
  assert.ok(moved >= 3, `moved ${moved} planes by keyboard`);
  assert.deepEqual(page.errors, []);
});
