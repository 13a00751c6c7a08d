// P-CHALLENGE / P-BOT-ACCOUNT on the page: challenges as notifications (a badge and notices that
// never take the keyboard, held during a running game), the challenger's pending line with the
// other's presence and Cancel, accepting starts the game for both without Ready, a flight
// challenge of 3 seats, "Challenge again" after a game, the settings (who may challenge, the
// block list) and blocks (refused challenges, hidden chat) — at 1280×800 and 390×844, in
// Chinese and English.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, axeViolations, shot, BASE, createRoom, joinByCode, recordEvents, register } from './helpers.mjs';
import { DICTIONARIES } from '../../web/js/i18n.js';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A page of `locale` at `viewport`. */
function open(locale, viewport) {
  return newPage(browser, { locale, viewport });
}

/** The page's dictionary. */
async function words(page) {
  return DICTIONARIES[(await page.evaluate(() => document.documentElement.lang)).startsWith('zh') ? 'zh' : 'en'];
}

/**
 * `page` challenges player `id` from their profile through the composer: `game`, and for
 * flight `seats`. Leaves the composer open when the hall refuses (its words are in it).
 */
async function challengeFromProfile(page, id, { game = 'jungle', seats = null, refused = false } = {}) {
  await page.goto(`${BASE}/#/player/${id}`);
  await page.locator(`.challenge-btn[data-player="${id}"]`).click();
  await page.locator('#challenge-form').waitFor();
  await page.locator('#challenge-game').selectOption(game);
  if (seats) await page.locator('#challenge-seats').selectOption(String(seats));
  await page.locator('#challenge-send').click();
  // Sent (the composer closes), or refused in the page's words (it stays, saying why).
  await page.waitForFunction(() => !document.querySelector('#challenge-form') || document.querySelector('#challenge-error')?.textContent);
  const error = await page.locator('#challenge-error').count() ? await page.locator('#challenge-error').textContent() : '';
  if (!refused && error) throw new Error(`the challenge was refused: ${error}`);
  // Commands recorded from here (a profile's address reloads the page).
  await recordEvents(page);
}

/** The room code of a page's address. */
const roomOf = (page) => page.url().match(/#\/room\/([A-Z0-9]+)/)[1];

/** Waits until the page's room runs a game (nobody pressed Ready). */
async function playing(page) {
  await page.waitForFunction(() => window.hangar.view?.state?.status === 'playing', null, { timeout: 30000 });
}

/** A notice lies inside the page's width (a phone's 390 px first). */
async function inside(page, selector) {
  const box = await page.locator(selector).first().boundingBox();
  const width = page.viewportSize().width;
  assert.ok(box && box.x >= 0 && box.x + box.width <= width + 0.5, `${selector} within ${width} px: ${JSON.stringify(box)}`);
}

test('P-CHALLENGE: a challenge is a notice with the stake, options and countdown; the challenger sees a pending line; Accept starts the game for both without Ready', { timeout: 180000 }, async () => {
  const tag = Math.random().toString(36).slice(2, 7);
  const ana = await open('en-US', DESKTOP);
  const bo = await open('zh-CN', PHONE);
  const anaId = await register(ana, `Ana${tag}`);
  const boId = await register(bo, `Ben${tag}`);

  // No button to challenge oneself; one's own profile has the challenge settings instead.
  await bo.goto(`${BASE}/#/player/${boId}`);
  await bo.locator('#profile-name').waitFor();
  assert.equal(await bo.locator('.challenge-btn').count(), 0);
  assert.equal(await bo.locator('.block-btn').count(), 0);
  await bo.locator('#open-challenge-settings').waitFor();

  // The composer holds the keyboard: Tab goes round inside it, Escape closes it.
  await bo.goto(`${BASE}/#/player/${anaId}`);
  await bo.locator('.challenge-btn').click();
  await bo.locator('#challenge-form').waitFor();
  for (let i = 0; i < 12; i += 1) {
    await bo.keyboard.press('Tab');
    assert.ok(await bo.evaluate(() => !!document.activeElement?.closest('#challenge-form')), `Tab ${i + 1} stays in the composer`);
  }
  await bo.keyboard.press('Escape');
  assert.equal(await bo.locator('#challenge-form').count(), 0, 'Escape closes the composer');
  assert.ok(await bo.evaluate(() => document.activeElement?.classList.contains('challenge-btn')), 'the keyboard is back on the button');

  await challengeFromProfile(bo, anaId);
  // The challenger's pending line: whom they wait for, that Ana is online, the time, Cancel.
  const pending = bo.locator('.challenge-pending');
  await pending.waitFor();
  const zh = DICTIONARIES.zh;
  assert.match(await pending.textContent(), new RegExp(`Ana${tag}`));
  assert.match(await pending.locator('.presence').textContent(), new RegExp(zh.challenge_online));
  assert.match(await pending.locator('.challenge-left').textContent(), /\d+/);
  await pending.locator('.challenge-cancel').waitFor();
  await inside(bo, '.challenge-pending');
  await shot(bo, 'challenge-pending-390-zh');

  // Ana's notice: not a dialog, and it takes no keyboard; who, the game, the options.
  const notice = ana.locator('.challenge-incoming');
  await notice.waitFor();
  await recordEvents(ana);
  assert.equal(await ana.locator('[role=dialog]').count(), 0, 'no dialog over the page');
  assert.ok(!(await ana.evaluate(() => !!document.activeElement?.closest('#challenge-dock'))), 'the notice takes no keyboard');
  const text = await notice.textContent();
  assert.match(text, new RegExp(`Ben${tag} challenges you`));
  assert.match(text, /Jungle/);
  assert.match(text, /Room level 1/);
  assert.match(text, /20 s a turn/);
  const left = Number((await notice.locator('.challenge-left').textContent()).match(/\d+/)[0]);
  assert.ok(left > 0 && left <= 60, `the countdown shows ${left}`);
  assert.equal(await ana.locator('#challenge-badge .challenge-count').textContent(), '1');
  assert.deepEqual(await axeViolations(ana), [], 'the challenge notice');
  await shot(ana, 'challenge-notice-1280-en');
  await ana.locator('.challenge-accept').click();

  await ana.waitForURL(/#\/room\/[A-Z0-9]+/);
  await bo.waitForURL(/#\/room\/[A-Z0-9]+/);
  assert.equal(roomOf(ana), roomOf(bo), 'the same room');
  // Nobody readies: the game starts as both sit down.
  await playing(ana);
  await playing(bo);
  assert.equal(await ana.evaluate(() => window.commands.filter((c) => c.type === 'ready').length), 0, 'Ana never readied');
  assert.equal(await bo.evaluate(() => window.commands.filter((c) => c.type === 'ready').length), 0, 'Ben never readied');
  assert.equal(await ana.locator('.challenge-incoming').count(), 0, 'the notice is gone');
  assert.equal(await bo.locator('.challenge-pending').count(), 0, 'the pending line is gone');
  // The challenger sits first.
  assert.equal(await bo.evaluate(() => window.hangar.view.mySeat()), 0);
  assert.equal(await ana.evaluate(() => window.hangar.view.mySeat()), 1);

  // After the game: "Challenge again" to the opponent, in the result dialog.
  await ana.evaluate((room) => window.hangar.conn.send('resign', { room }), roomOf(ana));
  await bo.locator('#result').waitFor();
  const again = bo.locator('#challenge-again');
  await again.waitFor();
  assert.equal(await again.getAttribute('data-player'), String(anaId));
  assert.match(await again.textContent(), new RegExp(zh.challenge_again));
  await again.click();
  await bo.locator('#challenge-form').waitFor();
  assert.equal(await bo.locator('#challenge-game').inputValue(), 'jungle', 'the same game');
  await bo.keyboard.press('Escape');
  assert.equal(await bo.locator('#challenge-form').count(), 0);
  assert.equal(await bo.locator('#result').count(), 1, 'the result dialog stays');

  // Both are on the Flight leaderboard now, where a row has the button for anyone but oneself.
  await bo.goto(`${BASE}/#/`);
  await bo.locator('.tab[data-game=jungle]').click();
  const rows = bo.locator('.leader-list[data-game=jungle] li');
  await rows.nth(1).waitFor();
  await bo.locator(`.leader-list[data-game=jungle] .challenge-btn[data-player="${anaId}"]`).waitFor();
  assert.equal(await bo.locator(`.leader-list[data-game=jungle] .challenge-btn[data-player="${boId}"]`).count(), 0, 'not Ben\'s own');
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(bo.errors, []);
  await ana.context().close();
  await bo.context().close();
});

test('P-CHALLENGE: a challenge during a running game only raises the badge, and shows when the game is over', { timeout: 180000 }, async () => {
  const tag = Math.random().toString(36).slice(2, 7);
  const ana = await open('zh-CN', PHONE);
  const bo = await open('en-US', DESKTOP);
  const cy = await open('en-US', PHONE);
  const anaId = await register(ana, `Ana${tag}`);
  await register(bo, `Ben${tag}`);
  await register(cy, `Cy${tag}`);

  await challengeFromProfile(bo, anaId);
  await ana.locator('.challenge-accept').click();
  await ana.waitForURL(/#\/room\//);
  await playing(ana);
  // The keyboard where Ana has it during the game.
  await ana.locator('#chat-jump').focus();

  await challengeFromProfile(cy, anaId);
  await cy.locator('.challenge-pending').waitFor();
  await ana.waitForFunction(() => document.querySelector('#challenge-badge .challenge-count')?.textContent === '1');
  await ana.waitForTimeout(800);
  assert.equal(await ana.locator('#challenge-dock').isHidden(), true, 'no notice over the game');
  assert.equal(await ana.locator('.challenge-incoming').count(), 0);
  assert.equal(await ana.evaluate(() => document.activeElement?.id), 'chat-jump', 'the keyboard stays in the game');
  const zh = DICTIONARIES.zh;
  assert.match(await ana.locator('#challenge-badge').getAttribute('aria-label'), /1/);
  await shot(ana, 'challenge-badge-in-game-390-zh');

  // Opened from the badge: the challenge, its Accept disabled with the reason.
  await ana.locator('#challenge-badge').click();
  const item = ana.locator('.challenge-incoming');
  await item.waitFor();
  assert.equal(await item.locator('.challenge-accept').isDisabled(), true, 'no accepting during a game');
  assert.match(await item.locator('.challenge-busy').textContent(), new RegExp(zh.challenge_busy));
  await inside(ana, '#challenge-dock');
  assert.deepEqual(await axeViolations(ana), [], 'the challenge list in a game');
  await ana.keyboard.press('Escape');
  assert.equal(await ana.locator('#challenge-dock').isHidden(), true, 'Escape closes the list');
  assert.equal(await ana.locator('#challenge-badge .challenge-count').textContent(), '1', 'and the challenge stays');

  // The game ends: the held challenge shows, Accept enabled.
  await ana.evaluate((room) => window.hangar.conn.send('resign', { room }), roomOf(ana));
  await ana.locator('#result').waitFor();
  await item.waitFor();
  assert.equal(await item.locator('.challenge-accept').isDisabled(), false);
  assert.match(await item.textContent(), new RegExp(`Cy${tag}`));
  await inside(ana, '.challenge-incoming');
  await shot(ana, 'challenge-after-game-390-zh');
  // Escape only hides the notice: the challenge stays, unanswered, in the badge's list.
  await item.locator('.challenge-decline').focus();
  await ana.keyboard.press('Escape');
  assert.equal(await ana.locator('.challenge-incoming').count(), 0, 'the notice is hidden');
  assert.equal(await ana.locator('#challenge-badge .challenge-count').textContent(), '1');
  assert.equal(await cy.locator('.challenge-pending').count(), 1, 'still open for Cy');
  // The result dialog is modal: closed, the badge opens the list again.
  await ana.locator('#result .result-close').click();
  await ana.locator('#challenge-badge').click();
  // Ana is still on the finished game's room: she goes to the new one.
  const finished = roomOf(ana);
  await item.locator('.challenge-accept').click();
  await ana.waitForURL((url) => url.hash.startsWith('#/room/') && !url.hash.includes(finished));
  await cy.waitForURL(/#\/room\//);
  assert.equal(roomOf(ana), roomOf(cy));
  await playing(cy);
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(cy.errors, []);
  for (const page of [ana, bo, cy]) await page.context().close();
});

test('P-CHALLENGE: the pending line shows the other offline, Cancel ends it; a 3-seat flight challenge makes a 3-seat table', { timeout: 180000 }, async () => {
  const tag = Math.random().toString(36).slice(2, 7);
  const ana = await open('en-US', PHONE);
  const bo = await open('en-US', DESKTOP);
  const dee = await open('zh-CN', DESKTOP);
  // The longest name (20 characters) on a phone: the badge and the language switch stay on screen.
  const anaId = await register(ana, `Ana${tag}`.padEnd(20, 'x'));
  await register(bo, `Ben${tag}`);
  const deeId = await register(dee, `Dee${tag}`);
  await dee.context().close();

  // Dee is not connected: the line says so; Cancel takes the challenge back.
  await challengeFromProfile(bo, deeId);
  const line = bo.locator('.challenge-pending');
  await line.waitFor();
  assert.match(await line.textContent(), new RegExp(`Waiting for Dee${tag}`));
  assert.match(await line.locator('.presence').textContent(), /offline/);
  assert.match(await line.locator('.presence').getAttribute('class'), /presence-off/);
  assert.deepEqual(await axeViolations(bo), [], 'the pending line');
  await line.locator('.challenge-cancel').click();
  await bo.waitForFunction(() => !document.querySelector('.challenge-pending'));

  // Several pending challenges are lines in one list, not stacked dialogs.
  await challengeFromProfile(bo, deeId);
  await bo.locator('.challenge-pending').waitFor();
  await challengeFromProfile(bo, anaId, { game: 'flight', seats: 3 });
  await bo.waitForFunction(() => document.querySelectorAll('.challenge-pending').length === 2);
  assert.equal(await bo.locator('[role=dialog]').count(), 0);

  const notice = ana.locator('.challenge-incoming');
  await notice.waitFor();
  await inside(ana, '#challenge-badge');
  await inside(ana, '#lang');
  const text = await notice.textContent();
  assert.match(text, /3 players/);
  assert.match(text, /Stake 100/, 'the stake');
  assert.match(text, /Traditional/);
  assert.match(text, /4 planes each/);
  assert.match(text, /20 s a turn/);
  assert.match(text, /bot \(/, 'the bot in the third seat');
  await inside(ana, '.challenge-incoming');
  await shot(ana, 'challenge-flight3-390-en');
  await notice.locator('.challenge-accept').click();
  await ana.waitForURL(/#\/room\//);
  await bo.waitForURL(/#\/room\//);
  await playing(ana);
  assert.equal(await ana.evaluate(() => window.hangar.view.state.seats.length), 3, 'a table of three');
  assert.equal(await ana.evaluate(() => window.hangar.view.state.seats.filter((s) => s.player || s.bot).length), 3, 'no empty seat');
  // The challenge to Dee stays pending: during the game in the badge's list only.
  await playing(bo);
  await bo.waitForFunction(() => !document.querySelector('.challenge-pending'), null, { timeout: 3000 });
  await bo.locator('#challenge-badge').click();
  await bo.locator('.challenge-pending', { hasText: `Dee${tag}` }).waitFor();
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(bo.errors, []);
  for (const page of [ana, bo]) await page.context().close();
});

test('P-CHALLENGE: block (confirmed) refuses the blocked player\'s challenge in the page\'s words and hides their chat; "nobody" refuses every challenge; settings axe-clean', { timeout: 180000 }, async () => {
  const tag = Math.random().toString(36).slice(2, 7);
  for (const [locale, viewport] of [['zh-CN', PHONE], ['en-US', DESKTOP]]) {
    const ana = await open(locale, viewport);
    const bo = await open(locale, viewport);
    const cy = await open(locale === 'zh-CN' ? 'en-US' : 'zh-CN', viewport);
    const suffix = `${tag}${locale.slice(0, 2)}`;
    await register(ana, `Ana${suffix}`);
    const boId = await register(bo, `Ben${suffix}`);
    await register(cy, `Cy${suffix}`);
    const anaId = await ana.evaluate(() => window.hangar.player.id);
    const d = await words(ana);

    // Block, with a confirmation that holds the keyboard.
    await ana.goto(`${BASE}/#/player/${boId}`);
    await ana.locator('.block-btn').click();
    const confirm = ana.locator('#block-confirm');
    await confirm.waitFor();
    assert.equal(await confirm.getAttribute('role'), 'dialog');
    for (let i = 0; i < 4; i += 1) {
      await ana.keyboard.press('Tab');
      assert.ok(await ana.evaluate(() => !!document.activeElement?.closest('#block-confirm')), 'Tab stays in the confirmation');
    }
    assert.deepEqual(await axeViolations(ana), [], `the block confirmation (${locale})`);
    await ana.keyboard.press('Escape');
    assert.equal(await confirm.count(), 0);
    assert.equal(await ana.locator('.unblock-btn').count(), 0, 'Escape blocks nobody');
    await ana.locator('.block-btn').click();
    await ana.locator('#block-yes').click();
    await ana.locator('.unblock-btn').waitFor();

    // Ben's challenge is refused, in Ben's words.
    await challengeFromProfile(bo, anaId, { refused: true });
    const error = bo.locator('#challenge-error');
    await bo.waitForFunction(() => document.querySelector('#challenge-error')?.textContent);
    assert.equal(await error.textContent(), (await words(bo)).err_challenge_refused);
    await shot(bo, `challenge-refused-${locale}`);
    await bo.keyboard.press('Escape');
    assert.equal(await ana.locator('.challenge-incoming').count(), 0, 'nothing reaches Ana');

    // Ben's chat is not shown to Ana in a room (a room by code: chat lines are still sent).
    await ana.goto(`${BASE}/#/`);
    await ana.locator('#quick-match').waitFor();
    const code = await createRoom(ana, 'jungle');
    await bo.goto(`${BASE}/#/`);
    await bo.locator('#quick-match').waitFor();
    await joinByCode(bo, code);
    await bo.evaluate((room) => window.hangar.conn.send('chat', { room, text: 'blocked-line-1' }), code);
    await ana.evaluate((room) => window.hangar.conn.send('chat', { room, text: 'own-line-1' }), code);
    await ana.locator('#chat-lines', { hasText: 'own-line-1' }).waitFor();
    await bo.locator('#chat-lines', { hasText: 'own-line-1' }).waitFor();
    assert.match(await bo.locator('#chat-lines').textContent(), /blocked-line-1/, 'Ben sees his line');
    assert.doesNotMatch(await ana.locator('#chat-lines').textContent(), /blocked-line-1/, 'Ana does not');
    await ana.evaluate((room) => window.hangar.conn.send('leave_room', { room }), code);
    await bo.evaluate((room) => window.hangar.conn.send('leave_room', { room }), code);

    // The settings from Ana's own profile: Ben on the block list; "nobody".
    await ana.goto(`${BASE}/#/player/${anaId}`);
    await ana.locator('#open-challenge-settings').click();
    const settings = ana.locator('#challenge-settings');
    await settings.waitFor();
    await settings.locator(`#blocked-list li[data-player="${boId}"]`).waitFor();
    assert.equal(await settings.locator('#policy-everyone').isChecked(), true);
    assert.match(await settings.textContent(), new RegExp(d.challenge_policy));
    assert.deepEqual(await axeViolations(ana), [], `the challenge settings (${locale})`);
    await shot(ana, `challenge-settings-${locale}`);
    await settings.locator('#policy-nobody').check();
    await ana.waitForFunction(() => window.hangar.challengeSettings?.challenges === 'nobody');
    for (let i = 0; i < 6; i += 1) {
      await ana.keyboard.press('Tab');
      assert.ok(await ana.evaluate(() => !!document.activeElement?.closest('#challenge-settings')), 'Tab stays in the settings');
    }
    // Unblock from the list.
    await settings.locator(`.unblock-btn[data-player="${boId}"]`).click();
    await settings.locator('#blocked-none').waitFor();
    await ana.keyboard.press('Escape');
    assert.equal(await settings.count(), 0);

    // "Nobody": Cy's challenge is refused in Cy's words.
    await challengeFromProfile(cy, anaId, { refused: true });
    await cy.waitForFunction(() => document.querySelector('#challenge-error')?.textContent);
    assert.equal(await cy.locator('#challenge-error').textContent(), (await words(cy)).err_challenge_refused);
    assert.deepEqual(ana.errors, []);
    assert.deepEqual(bo.errors, []);
    assert.deepEqual(cy.errors, []);
    for (const page of [ana, bo, cy]) await page.context().close();
  }
});
