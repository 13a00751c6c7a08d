// P-CHALLENGE on the page: the hall's "Players online" box (protocol §4a `players_online`) —
// the registered players connected now, the viewer and guests left out, each with a link to
// their page, an "in a game" mark while they sit in a room, and a Challenge button that opens the
// composer; ↻ asks again. At 1280×900 and 390×844, in Chinese and English, axe clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, axeViolations, shot, guest, createRoom, register } from './helpers.mjs';
import { DICTIONARIES } from '../../web/js/i18n.js';

const PHONE = { width: 390, height: 844 };

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The row of player `id` in the page's Players online box. */
const row = (page, id) => page.locator(`#players-online .online-row[data-player="${id}"]`);

/** Presses ↻ and waits for the answer (the box is no longer busy). */
async function refresh(page) {
  const before = await page.evaluate(() => window.commands.filter((c) => c.type === 'players_online').length);
  await page.locator('#online-refresh').click();
  await page.waitForFunction((n) => {
    const asked = window.commands.filter((c) => c.type === 'players_online');
    return asked.length > n && asked.at(-1).answer !== 'pending'
      && document.querySelector('#players-online .online-inner')?.getAttribute('aria-busy') === 'false';
  }, before);
}

/** The box's title in the page's language for `n` players. */
function title(lang, n) {
  return DICTIONARIES[lang].online_title.replace('{n}', n);
}

test('P-CHALLENGE: the hall lists the players online (not oneself, not guests) with a Challenge that reaches them, marks one in a game, in zh and en, at 390 px, axe clean', { timeout: 180000 }, async () => {
  const tag = Math.random().toString(36).slice(2, 7);
  const ana = await newPage(browser, { locale: 'en-US' });
  const ben = await newPage(browser, { locale: 'en-US' });
  const gus = await newPage(browser, { locale: 'zh-CN', viewport: PHONE });
  const anaId = await register(ana, `Ana${tag}`);
  const benId = await register(ben, `Ben${tag}`);
  await guest(gus, `Gus${tag}`);
  const gusId = await gus.evaluate(() => window.hangar.player.id);

  // The hall asked when it opened; ↻ asks again, now that Ben and Gus are here.
  await ana.locator('#players-online').waitFor();
  await ana.waitForFunction(() => window.commands.some((c) => c.type === 'players_online'));
  await refresh(ana);
  await row(ana, benId).waitFor();
  assert.match(await row(ana, benId).textContent(), new RegExp(`Ben${tag}`));
  assert.equal(await row(ana, benId).locator('a.player-link').getAttribute('href'), `#/player/${benId}`);
  assert.equal(await row(ana, anaId).count(), 0, 'not Ana herself');
  assert.equal(await row(ana, gusId).count(), 0, 'not the guest');
  assert.doesNotMatch(await ana.locator('#players-online').textContent(), new RegExp(`Gus${tag}`));
  assert.equal(await row(ana, benId).locator('.online-seated').count(), 0, 'Ben sits nowhere yet');
  const shown = Number((await ana.locator('#players-online-title').textContent()).match(/\((\d+)\)/)[1]);
  assert.ok(shown >= 1, `the title counts the players online: ${shown}`);

  // A guest asking gets the list too: both accounts, the guest herself left out.
  await gus.locator('#players-online').waitFor();
  await refresh(gus);
  await row(gus, anaId).waitFor();
  await row(gus, benId).waitFor();
  assert.equal(await row(gus, gusId).count(), 0, 'not the guest herself');
  assert.match(await gus.locator('#players-online-title').textContent(), /在线玩家（\d+）/);

  // Challenge from the list: the composer opens for Ben; sent, Ben's notice shows.
  await row(ana, benId).locator('.challenge-btn').click();
  await ana.locator('#challenge-form').waitFor();
  assert.match(await ana.locator('#challenge-form').textContent(), new RegExp(`Ben${tag}`));
  await ana.locator('#challenge-game').selectOption('jungle');
  await ana.locator('#challenge-send').click();
  await ana.waitForFunction(() => !document.querySelector('#challenge-form') || document.querySelector('#challenge-error')?.textContent);
  assert.equal(await ana.locator('#challenge-form').count(), 0,
    `the challenge was sent (${await ana.locator('#challenge-error').count() ? await ana.locator('#challenge-error').textContent() : ''})`);
  const notice = ben.locator('.challenge-incoming');
  await notice.waitFor();
  assert.match(await notice.textContent(), new RegExp(`Ana${tag}`));
  await notice.locator('.challenge-decline').click();
  await notice.waitFor({ state: 'detached' });

  // Ben sits down in a room of his own: after ↻ Ana's list says he is in a game.
  await createRoom(ben, 'jungle');
  await refresh(ana);
  await row(ana, benId).locator('.online-seated').waitFor();
  assert.equal(await row(ana, benId).locator('.online-seated').textContent(), DICTIONARIES.en.online_seated);
  // Still someone to challenge: the challenge waits for his game to end.
  await row(ana, benId).locator('.challenge-btn').waitFor();
  assert.deepEqual(await axeViolations(ana), [], 'the hall with the Players online box');
  await shot(ana, 'players-online-1280-en', '#players-online');

  // Both languages: the title switches with the page.
  const now = Number((await ana.locator('#players-online-title').textContent()).match(/\((\d+)\)/)[1]);
  assert.equal(await ana.locator('#players-online-title').textContent(), `👥 ${title('en', now)}`);
  await ana.locator('#lang').click();
  assert.match(await ana.locator('#players-online-title').textContent(), /在线玩家（\d+）/);
  assert.equal(await ana.locator('#players-online-title').textContent(), `👥 ${title('zh', now)}`);
  assert.equal(await row(ana, benId).locator('.online-seated').textContent(), DICTIONARIES.zh.online_seated);
  assert.match(await row(ana, benId).locator('.challenge-btn').textContent(), new RegExp(DICTIONARIES.zh.challenge));
  assert.equal(await ana.locator('#online-refresh').getAttribute('aria-label'), DICTIONARIES.zh.online_refresh);

  // A phone: the box in the page's width, nothing wider than the screen.
  await ana.setViewportSize(PHONE);
  await ana.locator('#players-online').scrollIntoViewIfNeeded();
  const overflow = await ana.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no horizontal overflow at 390 px (${overflow} px)`);
  for (const selector of ['#players-online', `#players-online .online-row[data-player="${benId}"] .challenge-btn`, '#online-refresh']) {
    const box = await ana.locator(selector).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width + 0.5, `${selector} within 390 px: ${JSON.stringify(box)}`);
  }
  assert.deepEqual(await axeViolations(ana), [], 'the hall at 390 px in Chinese');
  await shot(ana, 'players-online-390-zh', '#players-online');
  await ana.locator('#lang').click();
  assert.match(await ana.locator('#players-online-title').textContent(), /Players online \(\d+\)/);

  for (const page of [ana, ben, gus]) assert.deepEqual(page.errors, []);
  for (const page of [ana, ben, gus]) await page.context().close();
});

test('P-CHALLENGE: the Players online list refreshes every 15 s while the hall is shown, and stops when the hall is left', { timeout: 120000 }, async () => {
  const tag = Math.random().toString(36).slice(2, 7);
  const ana = await newPage(browser, { locale: 'zh-CN', viewport: PHONE });
  await register(ana, `Ana${tag}`);
  await ana.locator('#players-online').waitFor();
  const asked = () => ana.evaluate(() => window.commands.filter((c) => c.type === 'players_online').length);
  await ana.waitForFunction(() => window.commands.some((c) => c.type === 'players_online' && c.answer !== 'pending'));
  const first = await asked();
  // Alone in the hall (the pages of the test before have left): the empty state, in Chinese.
  if (/（0）/.test(await ana.locator('#players-online-title').textContent())) {
    assert.equal(await ana.locator('#online-empty').textContent(), DICTIONARIES.zh.online_none);
  }
  // A newcomer shows up without anyone pressing ↻.
  const ben = await newPage(browser, { locale: 'en-US' });
  const benId = await register(ben, `Ben${tag}`);
  await row(ana, benId).waitFor({ timeout: 20000 });
  assert.ok(await asked() > first, 'asked again by itself');
  // Away from the hall: no more asking.
  await ana.evaluate((id) => { location.hash = `#/player/${id}`; }, benId);
  await ana.locator('#profile-name').waitFor();
  const away = await asked();
  await ana.waitForTimeout(16000);
  assert.equal(await asked(), away, 'no list asked for on another page');
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(ben.errors, []);
  await ana.context().close();
  await ben.context().close();
});
