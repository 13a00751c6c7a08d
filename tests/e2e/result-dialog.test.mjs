// The result dialog drawn for a 390 px phone first (issue 43): no sideways scrolling at 390×844
// in either language, the ✕ on screen, every column inside the card; the same at 1280×800; a
// lost game's red score change reads at WCAG AA contrast on the player's own row (axe).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, twoInRoom, axeViolations, shot, playFlightThenResign,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/**
 * What of the result dialog lies outside the screen or its card: the page's sideways overflow,
 * the ✕, and every header and cell of its table (each must show inside the card).
 */
async function layoutProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    const width = document.documentElement.clientWidth;
    const over = document.documentElement.scrollWidth - width;
    if (over > 0) problems.push(`the page scrolls sideways by ${over} px`);
    const card = document.querySelector('#result .result-card').getBoundingClientRect();
    if (card.left < 0 || card.right > width) problems.push(`the card spans ${card.left}–${card.right} of ${width}`);
    const close = document.querySelector('#result .result-close').getBoundingClientRect();
    if (close.left < 0 || close.right > width || close.width === 0) problems.push(`the ✕ spans ${close.left}–${close.right}`);
    const table = document.querySelector('#result .result-table');
    if (table.scrollWidth > table.clientWidth + 1) problems.push(`the table is ${table.scrollWidth} px in ${table.clientWidth}`);
    for (const cell of table.querySelectorAll('th, td')) {
      const r = cell.getBoundingClientRect();
      if (r.width === 0 || r.left < card.left - 0.5 || r.right > card.right + 0.5) problems.push(`"${cell.textContent}" spans ${r.left}–${r.right}`);
    }
    for (const btn of document.querySelectorAll('#result .result-actions .btn')) {
      const r = btn.getBoundingClientRect();
      if (r.left < card.left - 0.5 || r.right > card.right + 0.5 || btn.scrollWidth > btn.clientWidth + 1) problems.push(`the button "${btn.textContent}" does not fit`);
    }
    return problems;
  });
}

/** The dialog at the phone's size, then at the desktop's: laid out, and axe clean. */
async function checkBothSizes(page, name) {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((done) => { requestAnimationFrame(() => requestAnimationFrame(done)); }));
    assert.deepEqual(await layoutProblems(page), [], `${name} at ${viewport.width} px`);
    assert.deepEqual(await axeViolations(page), [], `${name} at ${viewport.width} px`);
    await shot(page, `result-${name}-${viewport.width}`);
  }
}

test('the flight result dialog fits a 390 px phone and a desktop, in English and in Chinese', { timeout: 400000 }, async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const page = await newPage(browser, { locale, viewport: PHONE });
    // The longest name a player may have, in one word.
    await guest(page, locale === 'en-US' ? 'Maximiliankowalewski' : '欧阳长孙慕容司马上官诸葛东方皇甫');
    await createRoom(page, 'flight', { seats: 4, turn_seconds: 60 });
    await fillWithBots(page, 'random');
    await page.locator('#ready-btn').click();
    await page.locator('.flight-board').waitFor();
    await playFlightThenResign(page);
    assert.equal(await page.locator('#result .result-table thead th').count(), 6, 'every column of a flight result');
    await checkBothSizes(page, `flight-${locale}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the scored Jungle result dialog fits at both sizes, and a lost game\'s red score change passes AA on the own row', { timeout: 200000 }, async () => {
  const { host, other } = await twoInRoom(browser, 'jungle', {
    names: ['Bartholomew-Fitzgera', 'Oz'], fields: { turn_seconds: 60 },
    pages: [{ viewport: PHONE, locale: 'en-US' }, { viewport: PHONE, locale: 'zh-CN' }],
  });
  await host.locator('#ready-btn').click();
  await other.locator('#ready-btn').click();
  await host.locator('#resign-btn').waitFor();
  await host.locator('#resign-btn').click();
  for (const page of [host, other]) await page.locator('#result').waitFor();
  // The loser's own row: a negative score change in red, on the row's tint.
  const own = host.locator('#result .me-row .delta');
  assert.match(await own.textContent(), /^-\d+$/);
  assert.ok(await own.evaluate((el) => el.classList.contains('down')));
  const contrast = await own.evaluate((el) => {
    const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; })
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const fg = lum(rgb(getComputedStyle(el).color));
    const bg = lum(rgb(getComputedStyle(el.closest('tr')).backgroundColor));
    return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
  });
  assert.ok(contrast >= 4.5, `the red score change on the own row: ${contrast.toFixed(2)}:1`);
  await checkBothSizes(host, 'jungle-en');
  await checkBothSizes(other, 'jungle-zh');
  assert.deepEqual(host.errors, []);
  assert.deepEqual(other.errors, []);
  await host.context().close();
  await other.context().close();
});
