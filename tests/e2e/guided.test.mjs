// The guided first game: the hall offers a practice game against an easy bot, the room shows a
// hint that follows the game (Ready, roll, take off on a 6, move), in the page's language; hidden,
// it is remembered in this browser and the hall offers it no more.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, flightWait, flightAct, axeViolations, BASE,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const step = (page) => page.locator('#guide').getAttribute('data-step');

/** This player's planes, all in the hangar (null) or not, read off the room's state. */
const allInHangar = (page) => page.evaluate(() => {
  const view = window.hangar.view;
  return view.state.game.planes[view.mySeat()].every((p) => p === null);
});

test('P-PRACTICE: a guided first flight game against an easy bot, hints following the game, hidden for good', { timeout: 180000 }, async () => {
  // On a phone: the hint and the die are both in view under the board.
  const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
  await guest(page, 'Newcomer');
  await page.locator('#learn').waitFor();
  await page.locator('#learn-flight').click();
  await page.waitForURL(/#\/room\/[A-Z0-9]+/);
  // A practice room with one easy bot; the first hint says to press Ready.
  await page.locator('.seat-card.filled[data-seat="1"]').waitFor();
  // The easy flight level (protocol §7: `random`).
  assert.equal(await page.evaluate(() => window.hangar.view.state.seats[1].bot), 'random');
  // A newcomer's practice flight takes off on a 5 or a 6 (F-TAKEOFF, the improved variant).
  assert.equal(await page.evaluate(() => window.hangar.view.state.options.takeoff), 'five-or-six');
  await page.locator('#practice-chip').waitFor();
  assert.equal(await step(page), 'ready');
  await page.locator('#ready-btn').click();

  // Each decision of the player's: the hint says what it is. A roll with every plane in the
  // hangar says a 6 takes off; a move of a hangar plane says take off.
  const seen = new Set();
  for (let decisions = 0; decisions < 8; decisions += 1) {
    const what = await flightWait(page, 60000);
    if (what === 'over') break;
    const [hint, hangar] = [await step(page), await allInHangar(page)];
    if (what === 'roll') assert.equal(hint, hangar ? 'roll_first' : 'roll', `before a roll (all in the hangar: ${hangar})`);
    else assert.ok(['takeoff', 'move'].includes(hint), `before a move: ${hint}`);
    // A screen reader hears the player's own turn (and only it: nothing on the bot's).
    assert.ok((await page.locator('#guide-say').textContent()).endsWith(await page.locator('#guide-text').textContent()), 'the own turn is said');
    assert.equal(await page.locator('#guide-text').getAttribute('aria-live'), null);
    seen.add(hint);
    if (decisions === 0) {
      for (const id of ['#guide', '#die']) {
        const box = await page.locator(id).boundingBox();
        assert.ok(box.y >= 0 && box.y + box.height <= 844, `${id} in view on the phone: ${JSON.stringify(box)}`);
      }
      assert.deepEqual(await axeViolations(page), [], 'the guided room');
      // The hint is in the page's language: switched to Chinese and back.
      await page.locator('#lang').click();
      assert.match(await page.locator('#guide-text').textContent(), /[\u4e00-\u9fff]/);
      await page.locator('#lang').click();
      assert.match(await page.locator('#guide-text').textContent(), /die/);
    }
    await flightAct(page, what);
    // On the bot's turn the live region is silent.
    if (await step(page) === 'bot_turn') assert.equal(await page.locator('#guide-say').textContent(), '');
  }
  assert.ok(seen.has('roll_first'), `hints seen: ${[...seen]}`);

  // Hidden: gone from the room, and the hall offers the guided game no more, after a reload too.
  await page.locator('#guide-hide').click();
  await page.locator('#guide').waitFor({ state: 'detached' });
  await page.goto(`${BASE}/#/`);
  await page.reload();
  await page.locator('#quick-match').waitFor();
  assert.equal(await page.locator('#learn').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('P-PRACTICE/J-RANK: a guided first Jungle game: how to move, then what the position offers', { timeout: 180000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Novice');
  await page.locator('#learn-jungle').click();
  await page.waitForURL(/#\/room\/[A-Z0-9]+/);
  await page.locator('.seat-card.filled[data-seat="1"]').waitFor();
  assert.equal(await page.evaluate(() => window.hangar.view.state.seats[1].bot), 'easy');
  assert.equal(await step(page), 'ready');
  await page.locator('#ready-btn').click();
  // Red (the host's seat) moves first: how a piece moves.
  await page.locator('.jungle-board .movable-from').first().waitFor();
  assert.equal(await step(page), 'j_first');
  // A few turns, each by a click on a piece and one of its dots; each hint fits the position:
  // a capture is said when one is on offer, and only then.
  for (let turn = 0; turn < 4; turn += 1) {
    await page.waitForFunction(() => document.querySelector('.jungle-board .movable-from') || document.querySelector('#result'), null, { timeout: 30000 });
    if (await page.locator('#result').count()) break;
    const [hint, capture] = await page.evaluate(async () => {
      const { parseFen } = await import('/js/jungle/position.js');
      const view = window.hangar.view;
      const g = view.state.game;
      const board = parseFen(g.fen).board;
      const mine = view.mySeat() === 0 ? 'red' : 'yellow';
      return [document.querySelector('#guide').dataset.step,
        g.moves.some((m) => board.get(m.slice(2, 4)) && board.get(m.slice(2, 4)).side !== mine)];
    });
    if (capture) assert.equal(hint, 'j_capture');
    else assert.ok(['j_first', 'j_move', 'j_leap'].includes(hint), `hint ${hint}`);
    const plies = Number(await page.locator('.jungle-board').getAttribute('data-plies'));
    // The bot's last move has finished sliding: the pieces stand still under the click (the
    // board's own animations; the turn timer's bar moves all the time).
    await page.waitForFunction(() => document.querySelector('.jungle-board')
      .getAnimations({ subtree: true }).every((a) => a.playState !== 'running'));
    // A person clicks the animal standing on a square that can move, then one of its dots.
    const from = await page.locator('.jungle-board .movable-from').first().getAttribute('data-square');
    await page.locator(`.jungle-board .piece[data-square="${from}"]`).click();
    // The dots pulse for ever (never "stable" to Playwright): clicked where they are, as a person does.
    const dot = await page.locator('.jungle-board .target-dot').first().boundingBox();
    await page.mouse.click(dot.x + dot.width / 2, dot.y + dot.height / 2);
    await page.waitForFunction((n) => Number(document.querySelector('.jungle-board').dataset.plies) >= n + 2 || document.querySelector('#result'), plies, { timeout: 30000 });
  }
  assert.deepEqual(page.errors, []);
});

test('P-PRACTICE: the offer of a guided game can be declined for good', { timeout: 60000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Expert');
  await page.locator('#learn-no').click();
  await page.locator('#learn').waitFor({ state: 'detached' });
  await page.reload();
  await page.locator('#quick-match').waitFor();
  assert.equal(await page.locator('#learn').count(), 0);
});
