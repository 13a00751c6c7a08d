// Tap then pick: a tap on planes that share a square and go different ways opens a chooser
// listing them (a phone cannot aim at one plane of a fanned-out stack); one choice moves at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot, axeViolations } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A board on its own on the page: red planes 1 and 2 on square 10, blue in its hangar. */
async function boardWithStack(page) {
  await page.evaluate(async () => {
    const { FlightBoard } = await import('/js/flight/board.js');
    const box = document.createElement('div');
    box.style.cssText = 'position:fixed;inset:0;background:#fff;z-index:40;padding:10px';
    const board = new FlightBoard();
    board.svg.style.width = '360px';
    box.append(board.svg);
    document.body.append(box);
    board.render({
      kind: 'flight', colours: ['red', 'blue'], planes: [[10, 10, null, null], [null, null, null, null]], items: [], weather: null,
    });
    window.picked = [];
    window.testBoard = board;
  });
}

/** Click the topmost of the planes on square 10 at its centre, as a finger would. */
async function tapStack(page) {
  const at = await page.evaluate(() => {
    const r = document.querySelector('.plane[data-seat="0"][data-plane="1"] .plane-body').getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  await page.mouse.click(at.x, at.y);
}

test('F-CHOICE: a tap on two stacked planes that go different ways lists both, and the pick moves that one', { timeout: 60000 }, async () => {
  const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
  await boardWithStack(page);
  await page.evaluate(() => window.testBoard.highlight(0, [{ plane: 0, to: 14 }, { plane: 1, to: 22 }], (p) => window.picked.push(p)));
  await tapStack(page);
  const options = page.locator('#plane-chooser .chooser-plane');
  assert.deepEqual(await options.allTextContents(), ['Plane 1 → square 14', 'Plane 2 → square 22']);
  assert.deepEqual(await page.evaluate(() => window.picked), [], 'nothing moves before the pick');
  // The chooser is within the phone's window, and its buttons are finger-sized.
  const box = await page.locator('#plane-chooser').boundingBox();
  assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844, JSON.stringify(box));
  assert.ok((await options.first().boundingBox()).height >= 44);
  await shot(page, 'stack-chooser');
  assert.deepEqual((await axeViolations(page)).filter((v) => v.includes('plane-chooser')), [], 'the chooser passes axe-core');
  await options.nth(0).click();
  assert.deepEqual(await page.evaluate(() => window.picked), [0]);
  assert.equal(await page.locator('#plane-chooser').count(), 0);
  // Escape closes it without a move; a new highlight (the next state) closes it too.
  await tapStack(page);
  await page.locator('#plane-chooser').waitFor();
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#plane-chooser').count(), 0);
  await tapStack(page);
  await page.evaluate(() => window.testBoard.clearHighlight());
  assert.equal(await page.locator('#plane-chooser').count(), 0);
  assert.deepEqual(await page.evaluate(() => window.picked), [0]);
  assert.deepEqual(page.errors, []);
});

test('F-CHOICE: when the stacked planes make one move, a tap moves at once', { timeout: 60000 }, async () => {
  const page = await newPage(browser);
  await boardWithStack(page);
  // Equal moves are listed once (the lowest plane), as the server does.
  await page.evaluate(() => window.testBoard.highlight(0, [{ plane: 0, to: 14 }], (p) => window.picked.push(p)));
  await page.evaluate(() => {
    const r = document.querySelector('.plane[data-seat="0"][data-plane="0"] .plane-body').getBoundingClientRect();
    window.at = { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  const at = await page.evaluate(() => window.at);
  await page.mouse.click(at.x, at.y);
  assert.deepEqual(await page.evaluate(() => window.picked), [0]);
  assert.equal(await page.locator('#plane-chooser').count(), 0);
  assert.deepEqual(page.errors, []);
});
