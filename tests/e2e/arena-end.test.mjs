// P-ARENA in the browser (issue 43): the arena's end is told to every player of it — in the
// result dialog of their last game (a dialog with the podium, their place and points and the
// link to the results), or on the arena's page — in both languages, on a phone and a desktop;
// the results stay at `#/arena/ID`, also after a reload. An arena game that the per-arena pair
// limit made practice says so in the page's words, and names no bot. An unknown arena is said
// in the page's own words in both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { launch, newPage, guest, axeViolations, shot } from './helpers.mjs';
import { DICTIONARIES } from '../../web/js/i18n.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/**
 * Makes a Jungle arena as the operator does, running from now; with `endsIn` (ms) it started
 * a minute before its end (the shortest arena is a minute), so that it ends that soon. Its id.
 */
function makeArena(name, { endsIn = null } = {}) {
  const timing = endsIn === null ? ['--minutes', '30'] : ['--minutes', '1', '--start', String(Date.now() + endsIn - 60000)];
  const out = execFileSync(process.env.HANGAR_BIN, [
    'admin', '--database', process.env.HANGAR_DATABASE,
    'arena', 'create', '--game', 'jungle', ...timing, '--name', name,
  ]);
  return JSON.parse(String(out)).arena;
}

/** Opens arena `id`'s page once the hall has taken it up (within a second or two). */
async function openArena(page, id) {
  for (let i = 0; i < 20; i += 1) {
    await page.evaluate((arena) => { location.hash = `#/arena/${arena}`; }, id);
    await page.locator('#arena-name, #arena-error').first().waitFor();
    if (await page.locator('#arena-name').count()) return;
    await page.evaluate(() => { location.hash = '#/'; });
    await page.waitForTimeout(500);
  }
  assert.fail(`arena ${id} was never taken up`);
}

/** The English strings of the dictionary (not shared with the Chinese one) in `selector`'s text. */
async function englishIn(page, selector) {
  const english = Object.entries(DICTIONARIES.en)
    .filter(([key, value]) => typeof value === 'string' && !value.includes('{') && value !== DICTIONARIES.zh[key] && /[a-z]{3}/i.test(value))
    .map(([, value]) => value);
  const text = await page.locator(selector).innerText();
  return english.filter((value) => text.includes(value));
}

/** Text problems of `selector`: raw keys (`arena_over_title`), unfilled `{parameters}`. */
async function rawText(page, selector) {
  const text = await page.locator(selector).innerText();
  return [...text.matchAll(/\b[a-z]+_[a-z_]+\b|\{\w+\}/g)].map((m) => m[0]);
}

/** Whether the page scrolls sideways (wider than its viewport). */
function overflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Tab and Shift+Tab, `n` times each: the focus never leaves the dialog `selector`. */
async function focusStaysIn(page, selector, n = 6) {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < n; i += 1) {
      await page.keyboard.press(key);
      const inside = await page.evaluate((sel) => document.querySelector(sel)?.contains(document.activeElement), selector);
      assert.ok(inside, `${key} ×${i + 1} keeps the focus in ${selector}`);
    }
  }
}

/** The podium's lines as "rank|name|points". */
function podiumLines(page, selector) {
  return page.locator(`${selector} .podium-place`).evaluateAll((lines) => lines.map((li) => `${li.dataset.rank}|${li.querySelector('.podium-name').textContent}|${li.querySelector('.podium-points').textContent}`));
}

/**
 * Two players of an arena that ends soon: the winner waits in the result dialog of the game
 * (`dialogLook`: its viewport and language), the loser on the arena's page (`pageLook`).
 */
async function arenaEnd(label, { dialogLook, pageLook, names, useLink }) {
  const winner = await newPage(browser, dialogLook);
  const loser = await newPage(browser, pageLook);
  await guest(winner, names[0]);
  await guest(loser, names[1]);
  const name = `End ${label} ${Date.now() % 100000}`;
  const id = makeArena(name, { endsIn: 40000 });
  await openArena(winner, id);
  await openArena(loser, id);
  for (const page of [winner, loser]) {
    await page.locator('#arena-join').click();
    await page.locator('#arena-withdraw, .arena-error').first().waitFor();
    if (await page.locator('.arena-error').count()) {
      assert.fail(`arena ${id}: ${await page.locator('.arena-error').innerText()} ${JSON.stringify(await page.evaluate(() => window.commands))}`);
    }
  }
  await winner.waitForURL(/#\/room\//, { timeout: 30000 });
  await loser.waitForURL(/#\/room\//, { timeout: 30000 });
  await loser.locator('.jungle-board').waitFor();
  // The loser withdraws (the game still counts) and resigns: nobody is paired again.
  await loser.evaluate((arena) => window.hangar.conn.send('arena_withdraw', { arena }), id);
  await loser.locator('#resign-btn').click();
  await winner.locator('#result').waitFor();
  await loser.locator('#result').waitFor();
  await loser.evaluate((arena) => { location.hash = `#/arena/${arena}`; }, id);
  await loser.locator('#arena-name').waitFor();

  // The end comes to the winner over the result of the game, which stays beneath.
  const dialog = winner.locator('#arena-end');
  await dialog.waitFor({ timeout: 60000 });
  assert.equal(await winner.locator('#result').count(), 1, 'the game\'s result stays under the end');
  const zhDialog = dialogLook.locale === 'zh-CN';
  assert.equal(await winner.locator('#arena-end-title').innerText(), `🏁 ${zhDialog ? `${name} 已结束` : `${name} is over`}`);
  assert.deepEqual(await podiumLines(winner, '#arena-end'), zhDialog
    ? [`1|${names[0]}|2 分`, `2|${names[1]}|0 分`]
    : [`1|${names[0]}|2 points`, `2|${names[1]}|0 points`]);
  assert.equal(await winner.locator('#arena-end-me').innerText(), zhDialog ? '你的名次：第 1 名（共 2 人）· 2 分' : 'Your place: 1 of 2 · 2 points');
  assert.equal(await winner.locator('#arena-end-link').getAttribute('href'), `#/arena/${id}`);
  assert.deepEqual(await rawText(winner, '#arena-end'), []);
  if (zhDialog) assert.deepEqual(await englishIn(winner, '#arena-end'), [], 'no English on the Chinese page');
  assert.ok(await dialog.evaluate((el) => el.contains(document.activeElement)), 'the dialog takes the focus');
  await focusStaysIn(winner, '#arena-end');
  assert.ok(await overflow(winner) <= 0, `no sideways scrolling: ${await overflow(winner)} px`);
  const close = await winner.locator('.arena-end-close').boundingBox();
  assert.ok(close && close.x >= 0 && close.x + close.width <= dialogLook.viewport.width, `the ✕ is on screen: ${JSON.stringify(close)}`);
  assert.deepEqual(await axeViolations(winner), [], 'the end dialog');
  await shot(winner, `arena-end-${label}`);

  // The loser, on the arena's page, sees the end there: the podium and their place, no dialog.
  const zhPage = pageLook.locale === 'zh-CN';
  await loser.locator('#arena-over').waitFor({ timeout: 30000 });
  assert.equal(await loser.locator('#arena-end').count(), 0, 'the page itself tells the end');
  assert.deepEqual(await podiumLines(loser, '#arena-over'), zhPage
    ? [`1|${names[0]}|2 分`, `2|${names[1]}|0 分`]
    : [`1|${names[0]}|2 points`, `2|${names[1]}|0 points`]);
  assert.equal(await loser.locator('#arena-me').innerText(), zhPage ? '你的名次：第 2 名（共 2 人）· 0 分' : 'Your place: 2 of 2 · 0 points');
  assert.deepEqual(await rawText(loser, '.arena'), []);
  if (zhPage) assert.deepEqual(await englishIn(loser, '.arena'), [], 'no English on the Chinese page');
  assert.ok(await overflow(loser) <= 0, `no sideways scrolling: ${await overflow(loser)} px`);
  assert.deepEqual(await axeViolations(loser), [], 'the finished arena\'s page');
  await shot(loser, `arena-over-${label}`);

  if (useLink) {
    await winner.locator('#arena-end-link').click();
  } else {
    // Escape closes the end; the result of the game is there again, holding the focus.
    await winner.keyboard.press('Escape');
    assert.equal(await dialog.count(), 0, 'Escape closes the end');
    assert.ok(await winner.locator('#result').evaluate((el) => el.contains(document.activeElement)), 'the focus is back in the result');
    await winner.evaluate((arena) => { location.hash = `#/arena/${arena}`; }, id);
  }
  // The results' own address: the final standings, and again after a reload.
  await winner.waitForURL(new RegExp(`#/arena/${id}$`));
  for (const page of [winner, loser]) {
    for (let round = 0; round < 2; round += 1) {
      await page.locator('#arena-over').waitFor();
      const lines = await podiumLines(page, '#arena-over');
      assert.equal(lines.length, 2);
      assert.match(lines[0], new RegExp(`^1\\|${names[0]}\\|`));
      assert.equal(await page.locator('#arena-table .arena-line').count(), 2);
      assert.equal(await page.locator('#arena-end').count(), 0, 'told once');
      if (round === 0) await page.reload();
    }
  }
  assert.deepEqual(winner.errors, []);
  assert.deepEqual(loser.errors, []);
  await winner.context().close();
  await loser.context().close();
}

test('P-ARENA: the end is told over the result dialog (en, 1280×800) and on the arena page (zh, 390×844); results stay at #/arena/ID', { timeout: 240000 }, async () => {
  await arenaEnd('a', {
    dialogLook: { locale: 'en-US', viewport: DESKTOP },
    pageLook: { locale: 'zh-CN', viewport: PHONE },
    names: ['Kofi', 'Lucas'],
    useLink: false,
  });
});

test('P-ARENA: the end is told over the result dialog (zh, 390×844) and on the arena page (en, 1280×800); its link opens the results', { timeout: 240000 }, async () => {
  await arenaEnd('b', {
    dialogLook: { locale: 'zh-CN', viewport: PHONE },
    pageLook: { locale: 'en-US', viewport: DESKTOP },
    names: ['Yoko', 'Zed'],
    useLink: true,
  });
});

test('P-ARENA: the fourth game of a pair in one arena is practice, said in the page\'s words, with no bot named', { timeout: 300000 }, async () => {
  const ana = await newPage(browser, { locale: 'en-US', viewport: DESKTOP });
  const bo = await newPage(browser, { locale: 'zh-CN', viewport: PHONE });
  await guest(ana, 'Pia');
  await guest(bo, 'Quin');
  const id = makeArena(`Pairs ${Date.now() % 100000}`);
  await openArena(ana, id);
  await openArena(bo, id);
  await ana.locator('#arena-join').click();
  await bo.locator('#arena-join').click();
  let room = null;
  for (let game = 1; game <= 4; game += 1) {
    // Paired again: each page opens the next room by itself (the last result goes with it).
    for (const page of [ana, bo]) {
      await page.waitForFunction((last) => {
        const m = location.hash.match(/^#\/room\/([A-Z0-9]+)/);
        return m && m[1] !== last && document.querySelector('.jungle-board');
      }, room, { timeout: 60000 }).catch((err) => { throw new Error(`game ${game}: no next room (${err.message})`); });
    }
    room = ana.url().match(/#\/room\/([A-Z0-9]+)/)[1];
    assert.equal(bo.url().match(/#\/room\/([A-Z0-9]+)/)[1], room, `game ${game}: one room for the two`);
    // They take turns to lose; the fourth game is the last of the test: nobody is paired after.
    const loser = game % 2 ? bo : ana;
    if (game === 4) {
      for (const page of [ana, bo]) await page.evaluate((arena) => window.hangar.conn.send('arena_withdraw', { arena }), id);
    }
    await loser.locator('#resign-btn').click();
    for (const page of [ana, bo]) await page.locator('#result').waitFor();
    const practice = await ana.evaluate(() => window.hangar.view.state.result.practice);
    assert.equal(practice, game === 4, `game ${game} is ${practice ? '' : 'not '}practice`);
    if (game < 4) {
      assert.equal(await ana.locator('#result-practice').count(), 0, `game ${game} says nothing of practice`);
    }
  }
  // The fourth game: practice for the pair's limit in this arena, in each page's words; no bot.
  const en = await ana.locator('#result-practice').innerText();
  assert.equal(en, DICTIONARIES.en.arena_pair_practice_result);
  const zh = await bo.locator('#result-practice').innerText();
  assert.equal(zh, DICTIONARIES.zh.arena_pair_practice_result);
  assert.doesNotMatch(await ana.locator('#result').innerText(), /\bbots?\b/i, 'no bot named in English');
  assert.doesNotMatch(await bo.locator('#result').innerText(), /电脑|机器人/, 'no bot named in Chinese');
  assert.deepEqual(await englishIn(bo, '#result'), [], 'no English on the Chinese page');
  for (const page of [ana, bo]) {
    assert.deepEqual(await rawText(page, '#result'), []);
    assert.ok(await overflow(page) <= 0, `no sideways scrolling: ${await overflow(page)} px`);
    assert.deepEqual(await axeViolations(page), [], 'the practice result');
  }
  await shot(bo, 'arena-pair-practice-zh');
  // And it paid no arena points: 3 counted games, 2 + 2 + 0 for the first winner (Quin lost 1 and 3).
  const table = await ana.evaluate((arena) => window.hangar.conn.send('arena_standings', { arena }), id);
  const points = Object.fromEntries(table.standings.map((l) => [l.name, l.points]));
  const games = Object.fromEntries(table.standings.map((l) => [l.name, l.games]));
  assert.equal(points.Pia + points.Quin, 6, `three games of 2 points: ${JSON.stringify(points)}`);
  assert.ok(games.Pia <= 3 && games.Quin <= 3, `the practice game is not counted: ${JSON.stringify(games)}`);
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(bo.errors, []);
  await ana.context().close();
  await bo.context().close();
});

test('P-ARENA: #/arena/999999 is said in the page\'s words, in Chinese and in English, at both sizes', { timeout: 60000 }, async () => {
  for (const [locale, viewport] of [['zh-CN', PHONE], ['en-US', DESKTOP], ['zh-CN', DESKTOP], ['en-US', PHONE]]) {
    const page = await newPage(browser, { locale, viewport });
    await guest(page, 'Nemo');
    await page.evaluate(() => { location.hash = '#/arena/999999'; });
    const error = page.locator('#arena-error');
    await error.waitFor();
    const lang = locale === 'zh-CN' ? 'zh' : 'en';
    assert.match(await error.innerText(), new RegExp(DICTIONARIES[lang].err_no_arena));
    // The server's English message ("no arena 999999") is not shown in either language.
    assert.doesNotMatch(await page.locator('main').innerText(), /no arena \d+/i);
    if (lang === 'zh') assert.deepEqual(await englishIn(page, 'main'), [], 'no English on the Chinese page');
    assert.deepEqual(await rawText(page, 'main'), []);
    // The language switch says it again in the other language.
    await page.locator('#lang').click();
    const other = lang === 'zh' ? 'en' : 'zh';
    await page.waitForFunction((text) => document.querySelector('#arena-error')?.innerText.includes(text), DICTIONARIES[other].err_no_arena);
    assert.ok(await overflow(page) <= 0);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
