// P-DICE-STATS in the browser (issue 43): the χ² test of a player's dice is shown once a fair
// die is expected to give every face at least 5 times (30 rolls); before that only the counts
// of each face, with a word on when the test comes — in both languages, on a phone and a desktop.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, axeViolations, shot, BASE, playFlightThenResign,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('P-DICE-STATS: χ² from 30 rolls (5 expected a face), the counts alone before, in both languages', { timeout: 60000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${BASE}/`);
  const got = await page.evaluate(async () => {
    const { diceStats } = await import('/js/dicechart.js');
    const { setLang } = await import('/js/i18n.js');
    const read = (counts) => {
      const el = diceStats(counts);
      return {
        chi2: el.querySelector('.dice-chi2')?.textContent ?? null,
        wait: el.querySelector('.dice-chi2-wait')?.textContent ?? null,
        counts: el.querySelector('.dice-counts')?.textContent ?? null,
        bars: [...el.querySelectorAll('.face-bar')].map((g) => Number(g.dataset.count)),
        p: el.dataset.p ?? null,
        rolls: Number(el.dataset.rolls),
      };
    };
    const out = {};
    for (const lang of ['en', 'zh']) {
      setLang(lang);
      // 12 rolls (the case), 29 (expected 4.83 a face) and 30 (expected 5).
      out[lang] = { twelve: read([2, 2, 3, 1, 2, 2]), under: read([5, 5, 5, 5, 5, 4]), at: read([5, 5, 5, 5, 5, 5]) };
    }
    return out;
  });
  for (const lang of ['en', 'zh']) {
    const { twelve, under, at } = got[lang];
    for (const few of [twelve, under]) {
      assert.equal(few.chi2, null, `${lang}: no χ² from ${few.rolls} rolls`);
      assert.equal(few.p, null);
      assert.ok(few.wait.includes(String(few.rolls)) && few.wait.includes('30'), `${lang}: ${few.wait}`);
    }
    assert.deepEqual(twelve.bars, [2, 2, 3, 1, 2, 2], 'the counts are drawn');
    assert.ok(at.chi2, `${lang}: the χ² from 30 rolls`);
    assert.equal(at.wait, null);
    assert.equal(Number(at.p), 1);
  }
  assert.equal(got.en.twelve.counts, 'Times each face came up: 1: 2 · 2: 2 · 3: 3 · 4: 1 · 5: 2 · 6: 2');
  assert.equal(got.zh.twelve.counts, '各点数出现的次数：1: 2 · 2: 2 · 3: 3 · 4: 1 · 5: 2 · 6: 2');
  assert.equal(got.en.twelve.wait, '12 rolls so far. The χ² test is shown from 30 rolls (each face then expected at least 5 times).');
  assert.equal(got.zh.at.chi2, '30 次掷骰 · χ² = 0.00（自由度 5）· p = 1.00');
  await page.close();
});

test('P-DICE-STATS: a profile with fewer than 30 own rolls shows their counts and no χ², at 390×844 (zh) and 1280×800 (en)', { timeout: 300000 }, async () => {
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await guest(page, 'Fewrolls');
  await createRoom(page, 'flight', { seats: 2, turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor();
  // A finished game with a few own rolls.
  await playFlightThenResign(page);
  const id = await page.evaluate(() => window.hangar.player.id);
  const dice = await page.evaluate(async (player) => (await fetch(`/api/players/${player}/dice`)).json(), id);
  const rolls = dice.counts.reduce((a, b) => a + b, 0);
  assert.ok(rolls > 0 && rolls < 30, `${rolls} own rolls`);
  for (const [locale, viewport] of [['zh', { width: 390, height: 844 }], ['en', { width: 1280, height: 800 }]]) {
    await page.setViewportSize(viewport);
    await page.evaluate((player) => { location.hash = `#/player/${player}`; }, id);
    const stats = page.locator('#profile-dice .dice-stats');
    await stats.waitFor();
    if (await page.evaluate(() => document.documentElement.lang) !== (locale === 'zh' ? 'zh-CN' : 'en')) {
      await page.locator('#lang').click();
    }
    await page.locator('#profile-dice .dice-chi2-wait').waitFor();
    assert.equal(await stats.getAttribute('data-rolls'), String(rolls));
    assert.equal(await page.locator('#profile-dice .dice-chi2').count(), 0, 'no χ² under 30 rolls');
    assert.equal(await stats.getAttribute('data-p'), null);
    const counts = await page.locator('#profile-dice .dice-counts').textContent();
    assert.ok(counts.endsWith(dice.counts.map((c, i) => `${i + 1}: ${c}`).join(' · ')), counts);
    const wait = await page.locator('#profile-dice .dice-chi2-wait').textContent();
    assert.match(wait, locale === 'zh' ? /满 30 次/ : /from 30 rolls/);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(over <= 0, `no sideways scrolling: ${over} px`);
    assert.deepEqual(await axeViolations(page), [], `the profile (${locale})`);
    await shot(page, `dice-counts-${locale}`, '#profile-dice');
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
