// Shared helpers of the browser suite: one headless Chromium, guest pages, board readers and
// the little loops that play a game by clicking like a person would.
import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The hall under test (run.sh starts it and sets HANGAR_URL). */
export const BASE = process.env.HANGAR_URL || 'http://127.0.0.1:8080';

const here = dirname(fileURLToPath(import.meta.url));
/** Where screenshots go (not committed). */
export const SHOTS = process.env.HANGAR_SHOTS || join(here, '..', '..', 'target', 'e2e-screenshots');
mkdirSync(SHOTS, { recursive: true });

/** Launch the system Chromium headless. */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

/**
 * A new browser context + page; `anim` speeds the client's animations up; `prepare(context)`
 * runs before the page opens (a WebSocket route, say).
 */
export async function newPage(browser, {
  locale = 'en-US', viewport = { width: 1280, height: 900 }, anim = 12, prepare = null,
} = {}) {
  const context = await browser.newContext({ locale, viewport });
  if (prepare) await prepare(context);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('dialog', (d) => d.accept());
  await page.goto(`${BASE}/?anim=${anim}#/`);
  await recordEvents(page);
  return page;
}

/**
 * Keep every room event this page receives in `window.roomEvents` (each with its `room` and the
 * page's clock when it `arrived`), from now until the page is reloaded: the game log shows only
 * its last lines, and a check on what the server said (a reason, a seat) must not depend on
 * when the test looked.
 */
export async function recordEvents(page) {
  await page.waitForFunction(() => window.hangar?.conn);
  await page.evaluate(() => {
    if (window.roomEvents) return;
    window.roomEvents = [];
    window.hangar.conn.on((msg) => {
      if (msg.type === 'event') window.roomEvents.push({ ...msg.event, room: msg.room, v: msg.v, arrived: performance.now() });
    });
    // The commands the page sent and how the server answered, for the message of a failure.
    window.commands = [];
    const conn = window.hangar.conn;
    const send = conn.send.bind(conn);
    conn.send = (type, fields, options) => {
      const entry = { type, answer: 'pending', sent: performance.now() };
      window.commands.push(entry);
      const answer = send(type, fields, options);
      answer.then(() => { entry.answer = 'ok'; }, (err) => { entry.answer = `${err.code}: ${err.message}`; });
      return answer;
    };
  });
}

/** The recorded events (see `recordEvents`) of this page's seat in its current room. */
export async function myEvents(page) {
  return page.evaluate(() => {
    const view = window.hangar.view;
    const seat = view?.mySeat?.();
    if (seat === null || seat === undefined) return [];
    return window.roomEvents.filter((e) => e.room === view.code && e.seat === seat);
  });
}

/**
 * The events saying the server acted for this page's player because the clock ran out
 * (P-TIMER): an auto-play switched on for a timeout, a timeout counted, a move passed for one.
 */
export async function myTimeouts(page) {
  return (await myEvents(page)).filter((e) => (e.kind === 'autoplay' && e.reason === 'timeout')
    || e.kind === 'timeout' || (e.kind === 'passed' && e.reason === 'timeout'));
}

/** Sign in as a guest with `name` through the welcome form. */
export async function guest(page, name) {
  await page.locator('#guest-form input[name=nickname]').fill(name);
  await page.locator('#guest-form button[type=submit]').click();
  await page.locator('#quick-match').waitFor();
}

/** Open the create-room form on the hall's `game` tab and fill the given fields. */
export async function createRoom(page, game, fields = {}, checks = []) {
  await page.locator(`.tab[data-game=${game}]`).click();
  await page.locator('#open-create').click();
  const form = page.locator('#create-form');
  for (const [name, value] of Object.entries(fields)) {
    const el = form.locator(`[name=${name}]`);
    if ((await el.evaluate((e) => e.tagName)) === 'SELECT') await el.selectOption(String(value));
    else await el.fill(String(value));
  }
  for (const name of checks) await form.locator(`[name=${name}]`).check();
  await form.locator('button[type=submit]').click();
  await page.waitForURL(/#\/room\/[A-Z0-9]+/);
  await page.locator('.seats-card').waitFor();
  return page.url().match(/#\/room\/([A-Z0-9]+)/)[1];
}

/** Join the room `code` by typing it in the hall's join box; waits for this page's seat. */
export async function joinByCode(page, code) {
  await page.locator('.join-form input').fill(code);
  await page.locator('.join-form button').click();
  await page.locator('.seat-card.mine').waitFor();
}

/**
 * Two guests in one new room of `game`: `host` (named `names[0]`) creates it with the
 * create-form `fields` and `checks`, `other` joins it by its code; both pages show both seats taken. `pages`
 * are the two pages' `newPage` options (a phone's viewport, the animation speed).
 */
export async function twoInRoom(browser, game, {
  names = ['Ana', 'Bo'], fields = {}, checks = [], pages = [{}, {}],
} = {}) {
  const host = await newPage(browser, pages[0]);
  const other = await newPage(browser, pages[1]);
  await guest(host, names[0]);
  await guest(other, names[1]);
  const code = await createRoom(host, game, fields, checks);
  await joinByCode(other, code);
  await host.locator('.seat-card.filled[data-seat="1"]').waitFor();
  return { host, other, code };
}

/** Fill every empty seat with a bot of `level` (host only). */
export async function fillWithBots(page, level) {
  for (;;) {
    const btn = page.locator('.seat-card:not(.filled) .btn-bot').first();
    if (!(await btn.count())) break;
    const card = page.locator('.seat-card:not(.filled)').first();
    await card.locator('select.bot-level').selectOption(level);
    const seat = await card.getAttribute('data-seat');
    await card.locator('.btn-bot').click();
    await page.locator(`.seat-card.filled[data-seat="${seat}"]`).waitFor();
  }
}

/** The planes on a flight board: sorted "seat:plane:progress" strings. */
export async function flightPlanes(page) {
  return page.evaluate(() => [...document.querySelectorAll('.flight-board .plane')]
    .map((p) => `${p.dataset.seat}:${p.dataset.plane}:${p.dataset.progress}`).sort());
}

/**
 * Wait until this page can act in a flight game (die enabled or a plane to choose) or the
 * game is over; returns 'roll', 'move', 'over'.
 */
export async function flightWait(page, timeout = 120000) {
  const handle = await page.waitForFunction(() => {
    if (document.querySelector('#result')) return 'over';
    if (document.querySelector('.flight-board .plane.movable')) return 'move';
    const die = document.querySelector('#die');
    if (die && !die.disabled) return 'roll';
    return false;
  }, null, { timeout, polling: 50 });
  return handle.jsonValue();
}

/**
 * Take one flight decision by clicking (or, when `keyboard`, by the keys), as a person would,
 * and fail when the page does not take it. A plane is picked where a person can pick it: the
 * first movable plane (`prefer`, a plane index, first) that is the topmost element at its own
 * centre (a plane lying under another receives no click there). The decision counts as taken
 * when the page sent its command and the server took it; a click the page ignored sends
 * nothing, and the turn timer runs out and auto-play takes over, which fails here.
 */
export async function flightAct(page, what, { keyboard = false, prefer = null } = {}) {
  const timeoutsBefore = (await myTimeouts(page)).length;
  const sentBefore = await page.evaluate(() => window.commands.length);
  if (what === 'roll') {
    if (keyboard) await page.keyboard.press('Space');
    else await page.locator('#die').click();
  } else if (what === 'move') {
    const pick = await page.evaluate((preferred) => {
      const planes = [...document.querySelectorAll('.flight-board .plane.movable')]
        .sort((a, b) => (Number(b.dataset.plane) === preferred) - (Number(a.dataset.plane) === preferred));
      const covered = [];
      for (const plane of planes) {
        plane.scrollIntoView({ block: 'nearest', inline: 'nearest' }); // a phone shows part of the page
        const r = plane.querySelector('.plane-body').getBoundingClientRect();
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        // What the browser hands a click at this point to.
        const hit = document.elementFromPoint(x, y);
        const top = hit?.closest('.plane');
        if (top === plane) return { plane: Number(plane.dataset.plane), x, y };
        const name = (el) => `${el.dataset.seat}:${el.dataset.plane}`;
        covered.push(`${name(plane)} under ${top ? `plane ${name(top)}` : (hit?.getAttribute('class') || hit?.tagName)}`);
      }
      return { plane: null, covered };
    }, prefer);
    if (pick.plane === null) {
      throw new Error(pick.covered.length
        ? `no movable plane can be clicked: ${pick.covered.join(', ')}`
        : 'the page offered a move but shows no movable plane');
    }
    if (keyboard) await page.keyboard.press(String(pick.plane + 1));
    else await page.mouse.click(pick.x, pick.y);
    // Planes on one square that go different ways open a chooser: pick the first listed.
    const chooser = page.locator('#plane-chooser .chooser-plane');
    if (!keyboard && await chooser.count()) await chooser.first().click();
  } else {
    throw new Error(`no flight decision "${what}"`);
  }
  // The page takes it in: it sends the command and the server answers (the control going away
  // is no sign: a roll settled at once can give the die back before anyone looks). A click or
  // key the page ignored sends nothing, and the server's turn timer acts instead.
  const command = what === 'roll' ? 'roll' : 'move';
  await page.waitForFunction(({ from, type, before }) => {
    if (document.querySelector('#result')) return true;
    if (window.commands.slice(from).some((c) => c.type === type && c.answer !== 'pending')) return true;
    const seat = window.hangar.view?.mySeat?.();
    const timeouts = window.roomEvents.filter((e) => e.room === window.hangar.view?.code && e.seat === seat
      && ((e.kind === 'autoplay' && e.reason === 'timeout') || e.kind === 'timeout' || (e.kind === 'passed' && e.reason === 'timeout')));
    return timeouts.length > before;
  }, { from: sentBefore, type: command, before: timeoutsBefore }, { timeout: 180000, polling: 50 });
  const sent = await page.evaluate(({ from, type }) => window.commands.slice(from).filter((c) => c.type === type), { from: sentBefore, type: command });
  const timeouts = await myTimeouts(page);
  if (timeouts.length > timeoutsBefore || (!sent.length && !(await page.locator('#result').count()))) {
    const commands = await page.evaluate(() => window.commands.slice(-3));
    throw new Error(`the page did not take the ${keyboard ? 'key for' : 'click on'} "${what}": the clock ran out `
      + `(${JSON.stringify(timeouts.at(-1))}; its last commands: ${JSON.stringify(commands)})`);
  }
  const refused = sent.find((c) => c.answer !== 'ok' && c.answer !== 'pending');
  if (refused) throw new Error(`the server refused the "${what}" the page offered: ${refused.answer}`);
}

/** Save a screenshot of `locator` (or the page) as NAME.png under target/e2e-screenshots. */
export async function shot(page, name, selector = null) {
  const path = join(SHOTS, `${name}.png`);
  if (selector) await page.locator(selector).first().screenshot({ path });
  else await page.screenshot({ path, fullPage: false });
  return path;
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The serious and critical WCAG 2 A/AA violations axe-core finds on the page as it is now. */
export async function axeViolations(page) {
  // Reduced motion (style.css) ends the fade-ins at once: text caught half-faded in would
  // read as low contrast.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.evaluate(() => new Promise((done) => { requestAnimationFrame(() => requestAnimationFrame(done)); }));
  // Evaluated, not added as a <script>: the page's Content-Security-Policy allows no inline
  // script, and the test's evaluation is not the page's (it is not subject to the policy).
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(readFileSync(AXE, 'utf8'));
  return page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa'] });
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Registers a fresh account through the welcome form; its player id. */
export async function register(page, name) {
  const form = page.locator('#account-form');
  await form.locator('input[name=name]').fill(name);
  await form.locator('input[name=password]').fill('long enough');
  await form.locator('button[type=button]').click();
  await page.locator('#quick-match').waitFor();
  return page.evaluate(() => window.hangar.player.id);
}

/**
 * Plays the page's flight seat until resigning is allowed (after 15 turns, P-RESIGN), resigns,
 * and waits for the result dialog while the bots play the game out (a loaded machine takes its
 * time).
 */
export async function playFlightThenResign(page) {
  for (let i = 0; i < 400; i += 1) {
    if (await page.locator('#resign-btn:not([disabled])').count()) break;
    const what = await flightWait(page);
    if (what === 'over') break;
    await flightAct(page, what);
  }
  if (!(await page.locator('#result').count())) await page.locator('#resign-btn').click();
  await page.locator('#result').waitFor({ timeout: 180000 });
}
