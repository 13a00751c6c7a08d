// Two people play Jungle: moves by keyboard and by click are seen on both boards, the yellow
// player sees the board turned round, and a draw offer is declined then accepted (P-JUNGLE-DRAW).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, twoInRoom, shot } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const plies = (page) => page.locator('.jungle-board').getAttribute('data-plies').then(Number);
const waitPlies = (page, n) => page.waitForFunction((k) => Number(document.querySelector('.jungle-board')?.dataset.plies) >= k, n, { timeout: 20000 });

test('J-STEP/P-JUNGLE-DRAW: two players, keyboard and clicks, a draw declined then agreed', { timeout: 300000 }, async () => {
  const { host: red, other: yellow } = await twoInRoom(browser, 'jungle', { names: ['Rui', 'Yan'], fields: { turn_seconds: 60 } });
  await red.locator('#ready-btn').click();
  await yellow.locator('#ready-btn').click();
  await red.locator('.jungle-board .movable-from').first().waitFor();

  // Red moves the dog f2 → f3 with the arrow keys (the cursor starts on d1).
  for (const key of ['ArrowUp', 'ArrowRight', 'ArrowRight', 'Enter', 'ArrowUp', 'Enter']) await red.keyboard.press(key);
  await waitPlies(yellow, 1);
  assert.equal(await yellow.locator('.jungle-board .last-to').getAttribute('data-square'), 'f3');
  assert.equal(await yellow.locator('.jungle-board .piece[data-square="f3"]').getAttribute('data-piece'), 'D');
  // Yellow's board is turned round: its own den (d9) is at the bottom.
  const den9 = await yellow.locator('.jungle-board .den-yellow').boundingBox();
  const den1 = await yellow.locator('.jungle-board .den-red').boundingBox();
  assert.ok(den9.y > den1.y, 'yellow sees its den at the bottom');

  // Yellow answers by clicking a piece and one of its targets.
  // A person clicks the animal standing on a square that can move, then one of its dots (which
  // pulse for ever, never "stable" to Playwright: clicked where they are).
  const from = await yellow.locator('.jungle-board .movable-from').first().getAttribute('data-square');
  await yellow.locator(`.jungle-board .piece[data-square="${from}"]`).click();
  const dot = await yellow.locator('.jungle-board .target-dot').first().boundingBox();
  await yellow.mouse.click(dot.x + dot.width / 2, dot.y + dot.height / 2);
  await waitPlies(red, 2);
  await waitPlies(yellow, 2); // the mover's own page shows its move too
  assert.equal(await plies(yellow), 2);

  // A draw offer, declined…
  await red.locator('#offer-draw').click();
  await yellow.locator('#draw-offer').waitFor();
  await shot(yellow, 'jungle-draw-offer');
  await yellow.locator('#draw-offer button', { hasText: 'Decline' }).click();
  await yellow.locator('#draw-offer').waitFor({ state: 'detached' });
  await red.locator('#offer-draw:not([disabled])').waitFor();
  // …then offered again and accepted: a draw, no score change.
  await red.locator('#offer-draw').click();
  await yellow.locator('#draw-offer button', { hasText: 'Accept' }).click();
  for (const page of [red, yellow]) {
    await page.locator('#result').waitFor();
    assert.match(await page.locator('#result .result-reason').textContent(), /draw/);
    const deltas = await page.locator('#result td.delta').allTextContents();
    assert.deepEqual(deltas.map((d) => Number(d)), [0, 0]);
    assert.deepEqual(page.errors, []);
  }
});
