// How to play: each game's rules and every room option explained in Chinese and
// English, reachable from the hall and from the room; the create-room form explains each option
// where it is chosen; Jungle pieces show their rank (J-PIECES, J-RANK).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, guest, createRoom, fillWithBots, shot } from './helpers.mjs';
import { RULE_TABLES } from '../../web/js/rules.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('both languages explain the same rules and options', () => {
  const { RULES, HELP } = RULE_TABLES;
  assert.deepEqual(Object.keys(RULES.zh).sort(), Object.keys(RULES.en).sort());
  for (const game of ['flight', 'jungle']) assert.equal(RULES.zh[game].length, RULES.en[game].length, game);
  assert.deepEqual(Object.keys(HELP.zh).sort(), Object.keys(HELP.en).sort());
  for (const [key, line] of Object.entries(HELP.zh)) assert.ok(line && HELP.en[key], key);
});

test('the hall explains both games and every option, in English and in Chinese', { timeout: 120000 }, async () => {
  const page = await newPage(browser, { locale: 'en-US' });
  await guest(page, 'Learner');
  const flight = page.locator('.hall #rules-flight');
  await flight.locator('summary').click();
  const text = await flight.textContent();
  assert.match(text, /How to play/);
  // The options a newcomer asked about: three sixes, stacks, the finish variants.
  for (const re of [/Three sixes in a row.*third 6/s, /Stacks.*Block: an enemy stack/s, /Exact, bounce back: the extra pips walk back/, /Booster: .*twice the roll/, /storm/i, /tailwind/i]) {
    assert.match(text, re);
  }
  // Every option of the create form is explained where it is chosen.
  await page.locator('#open-create').click();
  for (const name of ['three_sixes', 'stacks', 'finish', 'takeoff', 'preset']) {
    const label = page.locator(`#create-form label.field:has([name=${name}])`);
    assert.ok((await label.getAttribute('title'))?.length > 10, `${name} has a tooltip`);
    assert.ok((await label.locator('.field-help').textContent()).length > 10, `${name} has a line of help`);
  }
  for (const name of ['items', 'weather', 'teams']) {
    assert.ok((await page.locator(`#create-form label.check:has([name=${name}])`).getAttribute('title'))?.length > 10, `${name} has a tooltip`);
  }
  await shot(page, 'rules-hall-en');
  // The Jungle tab brings the Jungle rules: ranks, water, leaps, traps, dens.
  await page.locator('.tab[data-game=jungle]').click();
  const jungle = page.locator('.hall #rules-jungle');
  await jungle.locator('summary').click();
  assert.match(await jungle.textContent(), /Elephant 8 > lion 7.*rat 1.*Water.*Leaps.*Traps/s);
  // Switched to Chinese, the open panel stays open and speaks Chinese.
  await page.locator('#lang').click();
  assert.equal(await jungle.evaluate((el) => el.open), true);
  assert.match(await jungle.textContent(), /玩法说明.*象 8 > 狮 7.*陷阱/s);
  assert.doesNotMatch(await jungle.textContent(), /Elephant|How to play/);
  await page.locator('.tab[data-game=flight]').click();
  await page.locator('.hall #rules-flight summary').click();
  assert.match(await page.locator('.hall #rules-flight').textContent(), /连续三个 6.*迭子.*须恰好，多余折返/s);
  assert.deepEqual(page.errors, []);
});

test('the room shows how to play, and Jungle pieces show their rank', { timeout: 120000 }, async () => {
  const page = await newPage(browser, { locale: 'en-US' });
  await guest(page, 'Ranker');
  await createRoom(page, 'jungle', { turn_seconds: 60, order: 'wolf-over-dog' });
  assert.equal(await page.locator('.room-side-col #rules-jungle').count(), 1);
  await fillWithBots(page, 'easy');
  await page.locator('#ready-btn').click();
  await page.locator('.jungle-board .piece').first().waitFor();
  const ranks = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.jungle-board .piece')]
    .map((p) => [p.dataset.piece, p.querySelector('.piece-rank')?.textContent])));
  // J-PIECES: elephant 8 … rat 1; this room plays wolf-over-dog, so the wolf is 4 and the dog 3.
  assert.deepEqual(ranks, { E: '8', L: '7', T: '6', P: '5', W: '4', D: '3', C: '2', R: '1' });
  const panel = page.locator('.room-side-col #rules-jungle');
  await panel.locator('summary').click();
  assert.match(await panel.textContent(), /Ranks/);
  await shot(page, 'rules-jungle-room');
  assert.deepEqual(page.errors, []);
});
