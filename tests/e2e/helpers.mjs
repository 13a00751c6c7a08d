// Shared helpers of the browser suite: one headless Chromium, guest pages, board readers and
// the little loops that play a game by clicking like a person would.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
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

/** A new browser context + page; `anim` speeds the client's animations up. */
export async function newPage(browser, { locale = 'en-US', viewport = { width: 1280, height: 900 }, anim = 12 } = {}) {
  const context = await browser.newContext({ locale, viewport });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('dialog', (d) => d.accept());
  await page.goto(`${BASE}/?anim=${anim}#/`);
  return page;
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

/** Take one flight decision by clicking (or, when `keyboard`, by the keys). */
export async function flightAct(page, what, { keyboard = false } = {}) {
  if (what === 'roll') {
    if (keyboard) await page.keyboard.press('Space');
    else await page.locator('#die').click({ force: true });
  } else if (what === 'move') {
    const plane = page.locator('.flight-board .plane.movable').first();
    const index = await plane.getAttribute('data-plane').catch(() => null);
    if (index === null) return;
    if (keyboard) await page.keyboard.press(String(Number(index) + 1));
    else await plane.click({ force: true });
  }
  // Wait for the page to take it in (the control goes away) before the next decision.
  await page.waitForFunction((w) => {
    if (document.querySelector('#result')) return true;
    if (w === 'roll') return document.querySelector('#die')?.disabled;
    return !document.querySelector('.flight-board .plane.movable');
  }, what, { timeout: 30000, polling: 50 }).catch(() => {});
}

/** Save a screenshot of `locator` (or the page) as NAME.png under target/e2e-screenshots. */
export async function shot(page, name, selector = null) {
  const path = join(SHOTS, `${name}.png`);
  if (selector) await page.locator(selector).first().screenshot({ path });
  else await page.screenshot({ path, fullPage: false });
  return path;
}
