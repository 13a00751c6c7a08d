// P-DISCONNECT: a page that comes back after a dropped connection offers nothing to play until
// it has drawn what it missed. The server's messages pass through a route that can hold the
// room's events back after the resume was answered, as a slow network would.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, flightWait, flightAct,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A route for the hall's socket that forwards everything until `hold()`, then keeps room events. */
function holdingRoute() {
  const route = {
    holding: false,
    held: [],
    answers: [],
    release: null,
    hold() { this.holding = true; },
  };
  const prepare = (context) => context.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      const msg = JSON.parse(m);
      if (route.holding && msg.type === 'event') route.held.push(m);
      else {
        if (route.holding && msg.type === 'ack') route.answers.push(msg.result);
        ws.send(m);
      }
    });
    route.release = () => {
      route.holding = false;
      for (const m of route.held.splice(0)) ws.send(m);
    };
  });
  return { route, prepare };
}

test('P-DISCONNECT: after a reconnection the die waits until the missed events are drawn', { timeout: 300000 }, async () => {
  const { route, prepare } = holdingRoute();
  const page = await newPage(browser, { anim: 20, prepare });
  await guest(page, 'Ida');
  await createRoom(page, 'flight', { seats: 2, turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  // Ida's turn to roll: the die is offered.
  let what;
  while ((what = await flightWait(page)) !== 'roll') {
    assert.notEqual(what, 'over', 'the game lasts until Ida rolls');
    await flightAct(page, what);
  }
  // The connection drops. While it is down nothing is offered.
  route.hold();
  await page.evaluate(() => window.hangar.conn.drop());
  await page.waitForFunction(() => document.querySelector('#die').disabled);
  // It comes back: the resume is answered, and the events Ida missed (at least her going away
  // and coming back) are held on the way.
  await page.waitForFunction(() => !document.body.classList.contains('offline'), null, { timeout: 20000 });
  const joined = route.answers.find((a) => a && 'resumed' in a);
  assert.ok(joined, `the join was answered: ${JSON.stringify(route.answers)}`);
  assert.ok(route.held.length >= 2, `missed events held: ${route.held.length}`);
  const seen = await page.evaluate(() => window.hangar.view.v);
  assert.ok(seen < joined.v, `the page (at ${seen}) is behind the room (at ${joined.v})`);
  // The old picture still says "roll", but nothing can be played on it.
  for (let i = 0; i < 10; i += 1) {
    const offered = await page.evaluate(() => ({
      die: !document.querySelector('#die').disabled,
      planes: document.querySelectorAll('.flight-board .plane.movable').length,
    }));
    assert.deepEqual(offered, { die: false, planes: 0 }, 'nothing is offered on a picture that is behind');
    await page.waitForTimeout(100);
  }
  // Nor by the keyboard: the space bar sends no roll.
  const sent = await page.evaluate(() => window.commands.length);
  await page.keyboard.press('Space');
  await page.waitForTimeout(300);
  assert.deepEqual(await page.evaluate((from) => window.commands.slice(from).map((c) => c.type), sent), []);
  // The events arrive: the page catches up to the room's version and play goes on.
  route.release();
  await page.waitForFunction((v) => window.hangar.view.v >= v, joined.v);
  for (let i = 0; i < 6; i += 1) {
    const next = await flightWait(page, 60000);
    if (next === 'over') break;
    await flightAct(page, next);
  }
  assert.deepEqual(page.errors, []);
});
