// The hall: the live room list (P-HALL), joining from the list, quick match (P-QUICK), a
// private room reached only by code, and the leaderboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, guest, createRoom } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('P-HALL/P-QUICK: rooms appear live, join from the list, quick match, private rooms by code', { timeout: 120000 }, async () => {
  const watcher = await newPage(browser);
  const host = await newPage(browser);
  await guest(watcher, 'Wen');
  await guest(host, 'Hao');
  await watcher.locator('.tab[data-game=flight]').click();
  const code = await createRoom(host, 'flight', { seats: 3, stake: 250 });
  // The new room shows up in the other page's list without a reload, with its settings.
  const row = watcher.locator(`.room-row[data-code="${code}"]`);
  await row.waitFor({ timeout: 10000 });
  assert.match(await row.textContent(), /250/);
  assert.match(await row.textContent(), /1\/3/);
  await row.locator('button', { hasText: 'Join' }).click();
  await watcher.locator('.seat-card.mine').waitFor();
  await host.locator('.seat-card.filled[data-seat="1"]').waitFor();
  // Quick match puts a third player into that waiting room (the only one with a free seat).
  const third = await newPage(browser);
  await guest(third, 'Tao');
  await third.locator('.tab[data-game=flight]').click();
  await third.locator('#quick-match').click();
  await third.locator('.seat-card.mine').waitFor();
  assert.ok(third.url().includes(code), third.url());
  // A private room is not listed, yet its code lets a friend in.
  await host.locator('.room-header a').first().click(); // the host leaves for the hall
  await host.locator('#quick-match').waitFor();
  const secret = await createRoom(host, 'jungle', {}, ['private']);
  await watcher.locator('.room-header a').first().click(); // back to the hall
  await watcher.locator('.tab[data-game=jungle]').click();
  await watcher.waitForTimeout(500);
  assert.equal(await watcher.locator(`.room-row[data-code="${secret}"]`).count(), 0);
  await watcher.locator('.join-form input').fill(secret.toLowerCase());
  await watcher.locator('.join-form button').click();
  await watcher.locator('.seat-card.mine').waitFor();
  // The leaderboard lists players with their scores.
  await third.goto(third.url().replace(/#.*$/, '#/'));
  await third.locator('#leaderboard li').first().waitFor();
  assert.match(await third.locator('#leaderboard').textContent(), /\d{3,}/);
  for (const p of [watcher, host, third]) assert.deepEqual(p.errors, []);
});
