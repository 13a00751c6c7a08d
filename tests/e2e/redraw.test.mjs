// The room is redrawn by patching (web/js/vdom.js): an element that stays in the drawing stays
// the same element. A press that began before a redraw ends on the button it began on, and a
// keyboard player's focus stays where it was while others join and bots play.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, joinByCode, twoInRoom, flightWait,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Ana's room of two flight seats, and Bo at the hall with its code typed in, ready to join. */
async function roomAndJoiner() {
  const ana = await newPage(browser);
  const bo = await newPage(browser);
  await guest(ana, 'Ana');
  await guest(bo, 'Bo');
  const code = await createRoom(ana, 'flight', { seats: 2, turn_seconds: 60 });
  return { ana, bo, code };
}

/** Bo joins, and Ana's page has drawn him in his seat. */
async function boJoins(ana, bo, code) {
  await joinByCode(bo, code);
  await ana.locator('.seat-card.filled[data-seat="1"]').waitFor();
}

test('P-SEATS: a press on Ready that spans a redraw (the other player joins) still counts', { timeout: 120000 }, async () => {
  const { ana, bo, code } = await roomAndJoiner();
  // Ana presses Ready with the mouse and keeps it down while Bo joins: her page draws his seat
  // (the seats card, with her button in it) between her press and her release.
  const box = await ana.locator('#ready-btn').boundingBox();
  await ana.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await ana.mouse.down();
  await boJoins(ana, bo, code);
  await ana.mouse.up();
  // The click counted: the server says Ana is ready, and both pages show it.
  for (const page of [ana, bo]) {
    await page.waitForFunction(() => window.roomEvents.some((e) => e.kind === 'ready' && e.seat === 0 && e.ready), null, { timeout: 10000 });
    await page.locator('.seat-card[data-seat="0"] .seat-ready.yes').waitFor();
  }
  assert.deepEqual([...ana.errors, ...bo.errors], []);
});

test('P-SEATS: the focused Ready button keeps the focus while the other player joins', { timeout: 120000 }, async () => {
  const { ana, bo, code } = await roomAndJoiner();
  await ana.locator('#ready-btn').focus();
  await boJoins(ana, bo, code);
  assert.equal(await ana.evaluate(() => document.activeElement?.id), 'ready-btn', 'the focus stayed on Ready');
  // And the keyboard player presses it where the focus is.
  await ana.keyboard.press('Enter');
  await ana.locator('.seat-card[data-seat="0"] .seat-ready.yes').waitFor({ timeout: 10000 });
  assert.deepEqual([...ana.errors, ...bo.errors], []);
});

test('P-AUTOPLAY: the focused auto-play switch keeps the focus while the bots play', { timeout: 120000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Kim');
  await createRoom(page, 'flight', { seats: 4, turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await flightWait(page);
  await page.locator('#autoplay-toggle').focus();
  // The bots' turns redraw the players panel the switch sits in; the focus stays on it.
  const seen = await page.evaluate(() => window.roomEvents.length);
  await page.locator('#autoplay-toggle').press('Space');
  await page.waitForFunction((n) => window.roomEvents.length >= n + 12 || document.querySelector('#result'), seen, { timeout: 60000 });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'autoplay-toggle', 'the focus stayed on the switch');
  assert.deepEqual(page.errors, []);
});

test('P-HALL: a press on a room\'s Watch button that spans a change of the live list still counts', { timeout: 120000 }, async () => {
  const [ana, bo, cy, kim] = [await newPage(browser), await newPage(browser), await newPage(browser), await newPage(browser)];
  await guest(ana, 'Ana');
  await guest(bo, 'Bo');
  await guest(cy, 'Cy');
  await guest(kim, 'Kim');
  await kim.locator('.tab[data-game=flight]').click();
  // Cy's room is listed above Ana's.
  const above = await createRoom(cy, 'flight', { seats: 2, turn_seconds: 60 });
  const code = await createRoom(ana, 'flight', { seats: 2, turn_seconds: 60 });
  await kim.locator(`.room-row[data-code="${above}"]`).waitFor();
  const watch = kim.locator(`.room-row[data-code="${code}"] .room-actions button`).last();
  await watch.waitFor();
  // Kim presses Watch and keeps it down while the list changes under her: Cy's room, above,
  // leaves it (Ana's row would move up a row) and Bo's new room comes in.
  const box = await watch.boundingBox();
  await kim.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await kim.mouse.down();
  await cy.evaluate((room) => window.hangar.conn.send('leave_room', { room }), above);
  const other = await createRoom(bo, 'flight', { seats: 2, turn_seconds: 60 });
  // Both changes have reached Kim's page (the hall sends them in order, Bo's last) before
  // she lets go.
  await kim.waitForFunction(([gone, come]) => {
    const rooms = window.hangar.view?.rooms;
    return rooms && !rooms.has(gone) && rooms.has(come);
  }, [above, other]);
  await kim.mouse.up();
  await kim.waitForURL(new RegExp(`#/room/${code}/watch`), { timeout: 10000 });
  assert.deepEqual([...ana.errors, ...bo.errors, ...kim.errors], []);
});

test('P-DISCONNECT: a room code half typed in the hall, with the focus, survives a reconnection', { timeout: 60000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Lu');
  const input = page.locator('.join-form input');
  await input.click();
  await page.keyboard.type('AB1');
  // The connection drops and comes back: the hall re-subscribes and is drawn again.
  const subscribed = await page.evaluate(() => window.commands.filter((c) => c.type === 'hall_subscribe').length);
  await page.evaluate(() => window.hangar.conn.drop());
  await page.waitForFunction((n) => window.commands.filter((c) => c.type === 'hall_subscribe' && c.answer === 'ok').length > n, subscribed, { timeout: 20000 });
  await page.locator('#room-list[aria-busy=false]').waitFor();
  assert.equal(await input.inputValue(), 'AB1');
  assert.equal(await page.evaluate(() => document.activeElement?.name), 'code');
  assert.deepEqual(page.errors, []);
});

test('P-CHAT: a chat line being typed keeps its text and the focus while the other player chats', { timeout: 60000 }, async () => {
  const { host: ana, other: bo } = await twoInRoom(browser, 'jungle');
  const input = ana.locator('.chat-form input[name=chat]');
  await input.click();
  await ana.keyboard.type('see you');
  await bo.locator('.phrases button').first().click();
  await ana.locator('.chat-line').first().waitFor();
  assert.equal(await input.inputValue(), 'see you');
  assert.equal(await ana.evaluate(() => document.activeElement?.name), 'chat');
  // And Enter sends what was typed.
  await ana.keyboard.press('Enter');
  await bo.locator('.chat-line', { hasText: 'see you' }).waitFor();
  assert.deepEqual([...ana.errors, ...bo.errors], []);
});
