// What a player notices in a game with another person (issue 30): a rematch offer reaches the
// other player's result dialog, chat reaches a player whose chat box is below the fold, the
// result dialog is a real modal for the keyboard, and a seat left after the game is named, not
// "bot_null". At 1280×800 and 390×844, in English and Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, twoInRoom, axeViolations, shot, BASE,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const DESK = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Whether the element of `locator` lies inside the page's viewport as it is scrolled now. */
async function inViewport(locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  });
}

/** Where the keyboard is: whether it is inside the element `selector`. */
function focusInside(page, selector) {
  return page.evaluate((sel) => !!document.activeElement?.closest(sel), selector);
}

test('P-CHAT/P-REMATCH: chat reaches the other player beside the board, the rematch offer reaches their result dialog, the dialog holds the keyboard', { timeout: 300000 }, async () => {
  const { host: ana, other: bo } = await twoInRoom(browser, 'jungle', {
    names: ['Nia', 'Odo'], fields: { turn_seconds: 120 },
    pages: [{ viewport: DESK }, { viewport: PHONE, locale: 'zh-CN' }],
  });
  await ana.locator('#ready-btn').click();
  await bo.locator('#ready-btn').click();
  await ana.locator('.jungle-board').waitFor();
  await bo.locator('.jungle-board').waitFor();
  // Both look at the board, the top of the page.
  for (const page of [ana, bo]) await page.evaluate(() => scrollTo(0, 0));

  // Odo says something: Nia sees it beside the board with an unread count, without scrolling
  // (whether her chat box is in view or below the fold: how long her side column is).
  await bo.locator('.chat-form input').fill('hello Nia');
  await bo.locator('.chat-form input').press('Enter');
  // Odo goes back to the board (the chat box no longer has the keyboard).
  await bo.evaluate(() => { document.activeElement.blur(); scrollTo(0, 0); });
  const bubble = ana.locator('.chat-bubble', { hasText: 'hello Nia' });
  await bubble.waitFor();
  assert.ok(await inViewport(bubble), 'the chat bubble is in view at 1280×800');
  assert.equal(await ana.locator('#chat-jump .unread-badge').textContent(), '1');
  assert.equal(await ana.locator('#chat-jump').getAttribute('aria-label'), 'Chat: 1 unread');
  // The chat button opens the chat with the keyboard in it; the line counts as read.
  await ana.locator('#chat-jump').click();
  assert.ok(await focusInside(ana, '.chat-form'), 'the chat input has the focus');
  await ana.locator('#chat-jump .unread-badge').waitFor({ state: 'detached' });
  await ana.locator('.chat-form input').fill('hi Odo');
  await ana.locator('.chat-form input').press('Enter');
  // …and on Odo's phone, in Chinese, the answer is in view too; a quick phrase reads in Chinese.
  const answer = bo.locator('.chat-bubble', { hasText: 'hi Odo' });
  await answer.waitFor();
  assert.ok(await inViewport(answer), 'the chat bubble is in view at 390×844');
  assert.equal(await bo.locator('#chat-jump').getAttribute('aria-label'), '聊天：1 条未读');
  await ana.locator('.phrases button').first().click();
  await bo.locator('.chat-bubble', { hasText: '你好！' }).waitFor();
  await shot(bo, 'notice-chat-phone');
  for (const page of [ana, bo]) assert.deepEqual(await axeViolations(page), []);

  // Nia resigns: both get the result dialog with the keyboard in it.
  await ana.locator('#resign-btn').click();
  for (const page of [ana, bo]) {
    await page.locator('#result').waitFor();
    await page.waitForFunction(() => !!document.activeElement?.closest('#result'));
  }
  // Tab and Shift+Tab go round inside the dialog, never to the page behind it.
  const stops = [];
  for (let i = 0; i < 8; i += 1) {
    await bo.keyboard.press('Tab');
    assert.ok(await focusInside(bo, '#result'), `Tab ${i + 1} stays in the dialog`);
    stops.push(await bo.evaluate(() => document.activeElement.textContent));
  }
  assert.ok(new Set(stops).size >= 3, `Tab visits the dialog's controls: ${stops}`);
  for (let i = 0; i < 4; i += 1) {
    await bo.keyboard.press('Shift+Tab');
    assert.ok(await focusInside(bo, '#result'), `Shift+Tab ${i + 1} stays in the dialog`);
  }
  assert.deepEqual(await axeViolations(bo), []);

  // P-REMATCH: Nia presses Play again; Odo's dialog, still open, says so.
  assert.equal(await bo.locator('#rematch-offer').textContent(), '');
  await ana.locator('#play-again').click();
  await bo.locator('#rematch-offer', { hasText: 'Nia 想再来一局' }).waitFor();
  await shot(bo, 'notice-rematch-phone');

  // Escape closes the dialog; opened again from its button, Escape gives that button the focus back.
  await bo.keyboard.press('Escape');
  await bo.locator('#result').waitFor({ state: 'detached' });
  await bo.locator('#show-result').click();
  await bo.locator('#result').waitFor();
  assert.ok(await focusInside(bo, '#result'), 'the reopened dialog has the focus');
  await bo.locator('#rematch-offer', { hasText: 'Nia 想再来一局' }).waitFor();
  await bo.keyboard.press('Escape');
  await bo.locator('#result').waitFor({ state: 'detached' });
  assert.equal(await bo.evaluate(() => document.activeElement?.id), 'show-result', 'the focus is back on the button that opened it');

  // Odo leaves after the game: Nia's players panel names who left, never a raw key.
  await bo.locator('.room-header a').first().click();
  await bo.waitForURL(/#\/$/);
  const row = ana.locator('.player-row[data-seat="1"] .player-name');
  await row.filter({ hasText: 'Odo (left)' }).waitFor();
  assert.doesNotMatch(await ana.locator('.room').textContent(), /bot_|undefined|null/);
  for (const page of [ana, bo]) assert.deepEqual(page.errors, []);
  await ana.context().close();
  await bo.context().close();
});

test('P-FAIR-DICE: in a flight game the fair-dice proof is folded under its verdict, one click away', { timeout: 120000 }, async () => {
  const page = await newPage(browser, { viewport: DESK });
  await guest(page, 'Fold');
  await createRoom(page, 'flight', { seats: 2, turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor();
  const panel = page.locator('#fair-dice');
  await panel.waitFor();
  assert.equal(await panel.evaluate((el) => el.tagName), 'DETAILS');
  assert.equal(await panel.evaluate((el) => el.open), false);
  assert.equal(await page.locator('#commitment').isVisible(), false, 'the proof is folded');
  await page.locator('#fair-dice > summary').click();
  await page.locator('#commitment').waitFor();
  assert.match(await page.locator('#commitment').textContent(), /^[0-9a-f]{64}$/);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** The page's text, the tooltips and labels included: what a reader or a screen reader meets. */
function allText(page) {
  return page.evaluate(() => {
    const attrs = [...document.querySelectorAll('[title], [aria-label], [placeholder]')]
      .flatMap((el) => ['title', 'aria-label', 'placeholder'].map((a) => el.getAttribute(a) || ''));
    return `${document.body.innerText}\n${attrs.join('\n')}`;
  });
}

/** No raw key, raw id or server text in `text`: no `bot_`/`bot:` keys, no JSON, no HTTP status. */
function assertClean(text, where) {
  assert.doesNotMatch(text, /bot_|bot:|\{"|"error"|\b404\b|undefined|\bnull\b/, where);
}

test('issue 30 (4): no raw keys, ids or server text in the hall, a room, a replay, a missing game or player, in zh and en', { timeout: 180000 }, async () => {
  // A Jungle game against a bot, resigned at once, gives a replay with a bot in it.
  const host = await newPage(browser, { viewport: DESK });
  await guest(host, 'Raw');
  const code = await createRoom(host, 'jungle', { turn_seconds: 60 });
  await fillWithBots(host, 'easy');
  // Another visitor's room list names the bot by its level, in words, in the tooltip too.
  const watcher = await newPage(browser, { viewport: PHONE, locale: 'zh-CN' });
  await guest(watcher, 'Looker');
  await watcher.locator('.tab[data-game=jungle]').click();
  const dot = watcher.locator(`.room-row[data-code="${code}"] .seat-dot.taken`).nth(1);
  await dot.waitFor();
  assert.equal(await dot.getAttribute('title'), '电脑 · 简单');
  assertClean(await allText(watcher), 'the hall (zh)');
  await host.locator('#ready-btn').click();
  await host.locator('.jungle-board').waitFor();
  assertClean(await allText(host), 'a Jungle game with a bot (en)');
  await host.locator('#resign-btn').click();
  await host.locator('#view-replay').waitFor();
  assertClean(await allText(host), 'the result dialog (en)');
  await host.locator('#view-replay').click();
  await host.locator('.replay-page .player-name').first().waitFor();
  const replay = await allText(host);
  assertClean(replay, 'a replay with a bot (en)');
  assert.match(replay, /Bot · easy/);
  // P-PRACTICE/P-PROFILE: the practice game against the easy bot is on the player's record.
  await host.goto(`${BASE}/#/player/${await host.evaluate(() => window.hangar.player.id)}`);
  const record = host.locator('.profile-game[data-game=jungle] .bot-record li[data-bot=easy]');
  await record.waitFor();
  assert.equal(await record.textContent(), 'Bot · easy 0 won of 1');
  assertClean(await allText(host), 'a profile with a record against bots (en)');

  for (const [locale, missing, player] of [
    ['en-US', 'There is no record of that game.', 'There is no such player'],
    ['zh-CN', '没有这局对局的记录。', '没有这位玩家'],
  ]) {
    const page = await newPage(browser, { locale, viewport: PHONE });
    await guest(page, 'Lost');
    await page.goto(`${page.url().split('#')[0]}#/replay/999999`);
    await page.locator('#replay-error').waitFor();
    assert.equal(await page.locator('#replay-error p').textContent(), missing);
    assertClean(await allText(page), `a missing replay (${locale})`);
    // …with a way back.
    await page.locator('#replay-error a').click();
    await page.locator('#quick-match').waitFor();
    await page.goto(`${page.url().split('#')[0]}#/player/999999`);
    await page.locator('#profile-error').waitFor();
    assert.equal(await page.locator('#profile-error').textContent(), player);
    assertClean(await allText(page), `a missing player (${locale})`);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  assert.deepEqual(host.errors, []);
  await host.context().close();
  await watcher.context().close();
});

test('issue 30 (4): sign-in refusals are said in words, once, and throw nothing', { timeout: 120000 }, async () => {
  for (const [locale, rule, wrong] of [
    ['en-US', 'The password needs 8 characters or more.', 'Wrong name or password'],
    ['zh-CN', '密码至少要 8 个字符。', '用户名或密码不对'],
  ]) {
    const page = await newPage(browser, { locale, viewport: PHONE });
    const form = page.locator('#account-form');
    await form.locator('[name=name]').fill(`nobody${Date.now() % 100000}`);
    await form.locator('[name=password]').fill('short');
    await form.locator('button[type=button]').click(); // Register
    await page.locator('.toast-error', { hasText: rule }).waitFor();
    // A wrong password, four times in a row: one toast says it, no promise goes uncaught.
    await form.locator('[name=password]').fill('wrong-password-1');
    for (let i = 0; i < 4; i += 1) await form.locator('button[type=submit]').click();
    await page.locator('.toast-error', { hasText: wrong }).waitFor();
    await page.waitForFunction(() => window.commands.filter((c) => c.type === 'login' && c.answer !== 'pending').length === 4);
    assert.equal(await page.locator('.toast-error', { hasText: wrong }).count(), 1);
    assert.ok(await page.locator('#toasts > *').count() <= 2, 'no more than two toasts');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('issue 30 (9): Jungle bots by strength with easy first for a new table, no toast over the board, a move box that shows its hint, animals in the move list, the result\'s buttons on one line, the sound switch in the hall', { timeout: 180000 }, async () => {
  const page = await newPage(browser, { viewport: PHONE });
  await guest(page, 'Small');
  // The mute switch is there before any game.
  await page.locator('#topbar-sound').waitFor();
  await createRoom(page, 'jungle', { turn_seconds: 60 });
  const level = page.locator('.seat-card[data-seat="1"] select.bot-level');
  assert.deepEqual(await level.locator('option').allTextContents(), ['random', 'beginner', 'easy', 'normal', 'hard']);
  assert.equal(await level.inputValue(), 'easy');
  await page.locator('.seat-card[data-seat="1"] .btn-bot').click();
  await page.locator('.seat-card.filled[data-seat="1"]').waitFor();
  assert.equal(await page.evaluate(() => window.hangar.view.state.seats[1].bot), 'easy');
  await page.locator('#ready-btn').click();
  // "You are Red" is said in the header, not by a toast over the board's edge and the move box.
  await page.locator('#my-colour').waitFor();
  assert.equal(await page.locator('#toasts .toast').count(), 0);
  // The move box's hint fits in it, in both languages.
  const fits = () => page.locator('#move-input').evaluate((input) => {
    const style = getComputedStyle(input);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return ctx.measureText(input.placeholder).width <= room;
  });
  assert.ok(await fits(), 'the English hint fits');
  await page.locator('#lang').click();
  assert.ok(await fits(), 'the Chinese hint fits');
  await page.locator('#lang').click();
  // A move typed in: the list names the animal that moved, not only its squares.
  await page.locator('#move-input').fill('a3a4');
  await page.locator('#move-input').press('Enter');
  const first = page.locator('#move-list .move[data-ply="1"]');
  await first.waitFor();
  assert.equal(await first.locator('.move-piece').textContent(), '🐘 ');
  assert.equal(await first.locator('.move-piece').getAttribute('title'), 'Elephant');
  // The result dialog's buttons stay on one line on the phone.
  await page.locator('#resign-btn').click();
  await page.locator('#result').waitFor();
  const tops = await page.locator('#result .result-actions > *').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
  assert.ok(tops.length >= 3, `${tops.length} buttons`);
  assert.equal(new Set(tops).size, 1, `the buttons are on one line: ${tops}`);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('P-QUICK: the search says when bots join and that it makes a practice game; the player may wait for people instead', { timeout: 120000 }, async () => {
  const page = await newPage(browser, { viewport: PHONE });
  await guest(page, 'Seeker');
  await page.locator('.tab[data-game=jungle]').click();
  await page.locator('#quick-match').click();
  const bots = page.locator('#searching-bots');
  await bots.waitFor();
  assert.match(await bots.textContent(), /^If nobody comes, bots join in [1-9]\d* s: a practice game, unrated\.$/);
  await page.locator('#lang').click();
  assert.match(await bots.textContent(), /^没人来的话，\d+ 秒后电脑加入：那是练习局，不计分。$/);
  assert.deepEqual(await axeViolations(page), []);
  await page.locator('#lang').click();
  const at = await page.evaluate(() => window.hangar.view.state.quick_bots_at);
  await page.locator('#wait-people').click();
  await bots.filter({ hasText: 'Waiting for people only: no bots will join.' }).waitFor();
  assert.equal(await page.locator('#wait-people').count(), 0);
  // Past the moment the bots would have come: none sat down, the search goes on.
  await page.waitForFunction((when) => Date.now() > when + 1500, at, { timeout: 30000 });
  assert.equal(await page.locator('.seat-card:not(.filled)').count(), 1);
  assert.equal(await page.evaluate(() => window.hangar.view.state.status), 'waiting');
  await page.locator('#cancel-search').click();
  await page.waitForURL(/#\/$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
