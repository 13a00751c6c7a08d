// P-CHALLENGE / P-BOT-ACCOUNT on the page: one player challenges another from their profile,
// the other accepts in the dialog (with its countdown, axe-clean), and both land in the room.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, axeViolations, shot, BASE } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Registers a fresh account through the welcome form; its player id. */
async function register(page, name) {
  const form = page.locator('#account-form');
  await form.locator('input[name=name]').fill(name);
  await form.locator('input[name=password]').fill('long enough');
  await form.locator('button[type=button]').click();
  await page.locator('#quick-match').waitFor();
  return page.evaluate(() => window.hangar.player.id);
}

test('P-CHALLENGE: a challenge from a profile, accepted in the dialog, seats both players in one room', { timeout: 120000 }, async () => {
  const tag = Math.random().toString(36).slice(2, 7);
  const ana = await newPage(browser, { locale: 'en-US' });
  const bo = await newPage(browser, { locale: 'zh-CN' });
  const anaId = await register(ana, `Ana${tag}`);
  const boId = await register(bo, `Ben${tag}`);

  // No button to challenge oneself.
  await bo.goto(`${BASE}/#/player/${boId}`);
  await bo.locator('#profile-name').waitFor();
  assert.equal(await bo.locator('.challenge-btn').count(), 0);

  await bo.goto(`${BASE}/#/player/${anaId}`);
  await bo.locator('.challenge-btn').click();
  await bo.locator('#challenge-form').waitFor();
  await bo.locator('#challenge-game').selectOption('jungle');
  await bo.locator('#challenge-send').click();

  const dialog = ana.locator('.challenge-incoming');
  await dialog.waitFor();
  assert.equal(await dialog.getAttribute('role'), 'dialog');
  assert.match(await dialog.textContent(), new RegExp(`Ben${tag} challenges you`));
  const left = Number((await dialog.locator('.challenge-left').textContent()).match(/\d+/)[0]);
  assert.ok(left > 0 && left <= 60, `the countdown shows ${left}`);
  assert.deepEqual(await axeViolations(ana), [], 'the challenge dialog');
  await shot(ana, 'challenge-dialog');
  await ana.locator('#challenge-accept').click();

  await ana.waitForURL(/#\/room\/[A-Z0-9]+/);
  await bo.waitForURL(/#\/room\/[A-Z0-9]+/);
  const code = (page) => page.url().match(/#\/room\/([A-Z0-9]+)/)[1];
  assert.equal(code(ana), code(bo), 'the same room');
  await ana.locator('.seat-card.mine').waitFor();
  await bo.locator('.seat-card.mine').waitFor();
  assert.equal(await ana.locator('.challenge-incoming').count(), 0, 'the dialog is gone');
  // The challenger sits first.
  assert.match(await bo.locator('.seat-card.mine').getAttribute('data-seat'), /^0$/);
  assert.match(await ana.locator('.seat-card.mine').getAttribute('data-seat'), /^1$/);

  // A game played to its end puts both on the Jungle leaderboard, where a row has the button
  // for anyone but oneself.
  await ana.locator('#ready-btn').click();
  await bo.locator('#ready-btn').click();
  await ana.waitForFunction(() => window.hangar.view?.state?.status === 'playing');
  await ana.evaluate((room) => window.hangar.conn.send('resign', { room }), code(ana));
  await bo.locator('#result').waitFor();
  await bo.goto(`${BASE}/#/`);
  await bo.locator('.tab[data-game=jungle]').click();
  const rows = bo.locator('.leader-list[data-game=jungle] li');
  await rows.nth(1).waitFor();
  const buttons = bo.locator('.leader-list[data-game=jungle] .challenge-btn');
  assert.equal(await buttons.count(), 1, 'one button: Ana\'s row, not Ben\'s own');
  assert.equal(await buttons.getAttribute('data-player'), String(anaId));
});
