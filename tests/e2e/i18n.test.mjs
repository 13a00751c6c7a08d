// The page in Chinese and in English; both dictionaries complete.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, shot, guest, createRoom, fillWithBots } from './helpers.mjs';
import { DICTIONARIES } from '../../web/js/i18n.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('both languages have every string', () => {
  const zh = Object.keys(DICTIONARIES.zh).sort();
  const en = Object.keys(DICTIONARIES.en).sort();
  assert.deepEqual(zh, en);
  for (const key of zh) {
    assert.ok(DICTIONARIES.zh[key] && DICTIONARIES.en[key], key);
    assert.equal(typeof DICTIONARIES.zh[key], typeof DICTIONARIES.en[key], key);
  }
});

test('the Chinese page, then switched to English and back', { timeout: 60000 }, async () => {
  const page = await newPage(browser, { locale: 'zh-CN' });
  await page.locator('#guest-form').waitFor();
  assert.equal(await page.locator('.welcome h1').textContent(), '机库游戏大厅');
  assert.match(await page.locator('#guest-form button').textContent(), /游客/);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  await shot(page, 'hall-zh');
  await page.locator('#lang').click();
  assert.equal(await page.locator('.welcome h1').textContent(), 'Hangar Game Hall');
  assert.match(await page.locator('#guest-form button').textContent(), /guest/);
  await page.locator('#guest-form input').fill('Lin');
  await page.locator('#guest-form button').click();
  await page.locator('#quick-match').waitFor();
  assert.match(await page.locator('#quick-match').textContent(), /Quick match/);
  await page.locator('#open-create').click();
  assert.match(await page.locator('#create-form').textContent(), /Take-off rolls/);
  await shot(page, 'hall-en');
  await page.locator('#lang').click();
  assert.match(await page.locator('#quick-match').textContent(), /快速匹配/);
  assert.match(await page.locator('#create-form, .hall').first().textContent(), /排行榜/);
  // The choice is remembered across a reload.
  await page.reload();
  await page.locator('#quick-match').waitFor();
  assert.match(await page.locator('#quick-match').textContent(), /快速匹配/);
  assert.deepEqual(page.errors, []);
});

test('the English page by default for an English browser; sign up and log in', { timeout: 60000 }, async () => {
  const page = await newPage(browser, { locale: 'en-GB' });
  await page.locator('#account-form').waitFor();
  assert.equal(await page.locator('.welcome h1').textContent(), 'Hangar Game Hall');
  const name = `user${Date.now() % 1000000}`;
  await page.locator('#account-form input[name=name]').fill(name);
  await page.locator('#account-form input[name=password]').fill('correct horse');
  await page.locator('#account-form button', { hasText: 'Sign up' }).click();
  await page.locator('#quick-match').waitFor();
  assert.match(await page.locator('#me').textContent(), new RegExp(name));
  // Log out, then log in again with the password.
  await page.locator('#me button').click();
  await page.locator('#account-form').waitFor();
  await page.locator('#account-form input[name=name]').fill(name);
  await page.locator('#account-form input[name=password]').fill('correct horse');
  await page.locator('#account-form button[type=submit]').click();
  await page.locator('#quick-match').waitFor();
  assert.match(await page.locator('#me').textContent(), /Score 1000/);
  assert.deepEqual(page.errors, []);
});

/**
 * The English strings (values of the English table, not shared with the Chinese one) that `root`
 * shows as text, placeholder, title or accessible name.
 */
async function englishIn(page, selector) {
  const english = Object.entries(DICTIONARIES.en)
    .filter(([key, value]) => typeof value === 'string' && !value.includes('{') && value !== DICTIONARIES.zh[key] && /[a-z]{3}/i.test(value))
    .map(([, value]) => value);
  return page.evaluate(({ selector, english }) => {
    const found = [];
    for (const root of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) found.push(n.textContent.trim());
      for (const el of [root, ...root.querySelectorAll('*')]) {
        for (const attr of ['placeholder', 'title', 'aria-label']) if (el.getAttribute(attr)) found.push(el.getAttribute(attr).trim());
      }
    }
    return [...new Set(found.filter((text) => english.includes(text)))];
  }, { selector, english });
}

test('switching to Chinese mid-game rewrites the Jungle hint, the move box and the dock', { timeout: 120000 }, async () => {
  const page = await newPage(browser, { locale: 'en-US' });
  await guest(page, 'Switcher');
  await createRoom(page, 'jungle', { turn_seconds: 60 });
  await fillWithBots(page, 'easy');
  await page.locator('#ready-btn').click();
  await page.locator('.jungle-board .piece').first().waitFor();
  assert.equal(await page.locator('#move-input').getAttribute('placeholder'), DICTIONARIES.en.move_input);
  // The check below can fail: in English the dock shows English strings.
  assert.ok((await englishIn(page, '.dock')).length >= 2);
  await page.locator('#lang').click();
  assert.equal(await page.locator('#move-input').getAttribute('placeholder'), DICTIONARIES.zh.move_input);
  assert.equal((await page.locator('.dock .kbd-hint').textContent()).trim(), DICTIONARIES.zh.jungle_hint);
  assert.deepEqual(await englishIn(page, '.dock, .jungle-board'), []);
  await shot(page, 'jungle-switched-zh');
  assert.deepEqual(page.errors, []);
});
