// Server errors and quick phrases in the reader's language: the server sends stable error codes
// and phrases as English text; the page owns the words.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, newPage, guest, createRoom, BASE } from './helpers.mjs';
import { DICTIONARIES, setLang, phraseText } from '../../web/js/i18n.js';
import { errorText } from '../../web/js/errors.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The error codes of the table in docs/protocol.md §2. */
function documentedCodes() {
  const doc = readFileSync(new URL('../../docs/protocol.md', import.meta.url), 'utf8');
  const table = doc.slice(doc.indexOf('Error codes:'), doc.indexOf('## 3.'));
  // The first cell of each row: one code, or two ("`seat_taken`, `no_seat`").
  const cells = [...table.matchAll(/^\| ([^|]+) \|/gm)].map((m) => m[1]);
  return cells.flatMap((cell) => [...cell.matchAll(/`(\w+)`/g)].map((m) => m[1]));
}

test('every documented error code has words in both languages', () => {
  const codes = documentedCodes();
  assert.ok(codes.length >= 23, `${codes.length} codes`);
  for (const code of codes) {
    for (const lang of ['zh', 'en']) assert.ok(DICTIONARIES[lang][`err_${code}`], `${lang}: err_${code}`);
  }
  setLang('zh');
  const illegal = { code: 'illegal', message: 'illegal move a4a9: a elephant moves one square' };
  assert.equal(errorText(illegal), '这一步不合规则', 'the Chinese page shows no English');
  assert.equal(errorText({ code: 'no_room', message: 'no room T2GYHG' }), '没有房间号为 T2GYHG 的房间');
  setLang('en');
  assert.equal(errorText(illegal), 'That move is not allowed (illegal move a4a9: a elephant moves one square)');
  assert.equal(errorText({ code: 'some_new_code', message: 'x' }), 'Error (some_new_code)');
});

test('P-SCORE: a stake the score does not cover is told with both figures, in each language', () => {
  const own = { code: 'stake_uncovered', message: 'the stake is 2000 and your score is 1000: a flight table needs a score of at least its stake' };
  const other = { code: 'stake_uncovered', message: "the stake is 500 and poor's score is 200: every player covers the stake" };
  setLang('zh');
  assert.equal(errorText(own), '这张桌的底分是 2000，你的积分是 1000：飞行棋入座需要积分不低于底分');
  assert.equal(errorText(other), '这张桌的底分是 500，poor 的积分是 200：每位玩家的积分都要不低于底分');
  setLang('en');
  assert.equal(errorText(own), 'The stake of this table is 2000 and your score is 1000: a flight table needs a score of at least its stake');
  assert.equal(errorText(other), 'The stake of this table is 500 and poor has a score of 200: every player needs a score of at least the stake');
});

test('P-SCORE: creating a table of a stake above one\'s score is refused in the page\'s language', { timeout: 60000 }, async () => {
  for (const [locale, want] of [['zh-CN', '这张桌的底分是 2000，你的积分是 1000'], ['en-US', 'The stake of this table is 2000 and your score is 1000']]) {
    const page = await newPage(browser, { locale });
    await guest(page, 'Short');
    await page.locator('.tab[data-game=flight]').click();
    await page.locator('#open-create').click();
    await page.locator('#create-form [name=stake]').fill('2000');
    await page.locator('#create-form button[type=submit]').click();
    await page.locator('.toast-error').first().waitFor();
    assert.ok((await page.locator('.toast-error').first().textContent()).startsWith(want));
    assert.doesNotMatch(page.url(), /#\/room\//, 'no room was entered');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a quick phrase is shown in the reader\'s language, other chat as written', () => {
  setLang('zh');
  assert.equal(phraseText('Good luck!'), '祝你好运！');
  assert.equal(phraseText('good luck'), 'good luck');
  setLang('en');
  assert.equal(phraseText('Good luck!'), 'Good luck!');
});

test('P-ROOM: joining a room that does not exist says so in the page\'s language', { timeout: 60000 }, async () => {
  for (const [locale, want] of [['zh-CN', '没有房间号为 NOPE42 的房间'], ['en-US', 'There is no room with the code NOPE42']]) {
    const page = await newPage(browser, { locale });
    await guest(page, 'Lost');
    await page.locator('.join-form input').fill('nope42');
    await page.locator('.join-form button').click();
    await page.locator('.toast-error').first().waitFor();
    assert.equal(await page.locator('.toast-error').first().textContent(), want);
    await page.waitForURL(/#\/$/); // back in the hall
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('P-CHAT: a quick phrase sent from a Chinese page reads in English on an English page', { timeout: 60000 }, async () => {
  const zh = await newPage(browser, { locale: 'zh-CN' });
  await guest(zh, 'Mei');
  const code = await createRoom(zh, 'flight', { seats: 2 });
  const en = await newPage(browser, { locale: 'en-US' });
  await guest(en, 'Sam');
  await en.goto(`${BASE}/?anim=12#/room/${code}`);
  await en.locator('.seats-card').waitFor();
  await zh.locator('.phrases button', { hasText: '祝你好运！' }).click();
  await zh.locator('#chat-lines .chat-line', { hasText: '祝你好运！' }).waitFor();
  await en.locator('#chat-lines .chat-line', { hasText: 'Good luck!' }).waitFor();
  assert.doesNotMatch(await zh.locator('#chat-lines').textContent(), /Good luck/);
  await zh.context().close();
  await en.context().close();
});
