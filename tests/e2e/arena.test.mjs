// P-ARENA in the browser: an arena the operator made is listed in the hall with its countdown;
// two people join it from its page, are paired and taken to their game by themselves, play
// (one resigns), and see the table change; the page passes axe-core and fits a 390×844 phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { launch, newPage, guest, axeViolations, shot } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Makes a Jungle arena running from now, as the operator does; its id. */
function makeArena(name) {
  const out = execFileSync(process.env.HANGAR_BIN, [
    'admin', '--database', process.env.HANGAR_DATABASE,
    'arena', 'create', '--game', 'jungle', '--minutes', '30', '--name', name,
  ]);
  return JSON.parse(String(out)).arena;
}

test('P-ARENA: two people join an arena, are paired, play, and see the table change', { timeout: 180000 }, async () => {
  const id = makeArena('Browser arena');
  const ari = await newPage(browser, { viewport: { width: 390, height: 844 } });
  const bea = await newPage(browser);
  await guest(ari, 'Ari');
  await guest(bea, 'Bea');
  // Listed in the hall with its countdown (the hall takes the arena up within a second).
  let row = ari.locator(`.arena-row[data-arena="${id}"]`);
  for (let i = 0; i < 20 && !(await row.count()); i += 1) {
    await ari.waitForTimeout(500);
    await ari.reload();
    await ari.locator('#quick-match').waitFor();
    row = ari.locator(`.arena-row[data-arena="${id}"]`);
  }
  assert.match(await row.locator('.arena-clock').textContent(), /Ends in \d+:\d\d/);
  await row.locator('a').click();
  await bea.evaluate((arena) => { location.hash = `#/arena/${arena}`; }, id);
  for (const page of [ari, bea]) {
    await page.locator('#arena-name', { hasText: 'Browser arena' }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the arena page');
  }
  // In Chinese too.
  await ari.locator('#lang').click();
  await ari.locator('#arena-clock', { hasText: '距结束' }).waitFor();
  assert.deepEqual(await axeViolations(ari), [], 'the arena page (zh)');
  await ari.locator('#lang').click();
  await ari.locator('#arena-join', { hasText: 'Join the arena' }).waitFor();
  const width = await ari.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the arena page fits 390 px: ${width}`);
  await ari.locator('#arena-join').click();
  await bea.locator('#arena-join').click();
  // Paired: each page opens the game by itself after the countdown.
  await ari.waitForURL(/#\/room\//, { timeout: 30000 });
  await bea.waitForURL(/#\/room\//, { timeout: 30000 });
  assert.equal(new URL(ari.url()).hash, new URL(bea.url()).hash, 'one room for the two');
  await ari.locator('.jungle-board').waitFor();
  // Ari withdraws before losing (the game still counts), so that nobody is paired again while
  // the test reads the table.
  await ari.evaluate((arena) => window.hangar.conn.send('arena_withdraw', { arena }), id);
  await ari.locator('#resign-btn').click();
  await bea.locator('#result').waitFor();
  // Back on the arena's page, the table shows the result: Bea 2 points, Ari 0, each with a mark.
  await bea.evaluate((arena) => { location.hash = `#/arena/${arena}`; }, id);
  const line = bea.locator('#arena-table .arena-line.mine');
  await line.locator('.arena-points', { hasText: '2' }).waitFor({ timeout: 15000 });
  assert.equal(await line.locator('.arena-rank').textContent(), '1');
  assert.equal(await line.locator('.mark-win').count(), 1);
  const other = bea.locator('#arena-table .arena-line:not(.mine)');
  assert.equal(await other.locator('.arena-points').textContent(), '0');
  assert.equal(await other.locator('.mark-loss').count(), 1);
  await shot(bea, 'arena-table');
});
