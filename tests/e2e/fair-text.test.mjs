// P-FAIR-DICE in words (issue 43): the fair-dice panel's "how to check it yourself" describes
// the dice as they are — each roll mixes the roller's own bytes, sent with the roll, with the
// hall's committed seed — and how a player checks a roll and their own bytes, in both languages,
// on a 390 px phone and a desktop, with no raw keys.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, guest, createRoom, fillWithBots, flightWait, flightAct, axeViolations, shot } from './helpers.mjs';
import { DICTIONARIES } from '../../web/js/i18n.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** What the words must say, per language. */
const SAYS = {
  en: [/own browser/, /HMAC-SHA256\(seed, k ‖ your bytes\)/, /16 fresh random bytes/, /cannot know your roll before you send your bytes/, /each of your rolls is in the record/],
  zh: [/自己的浏览器/, /HMAC-SHA256\(种子, k ‖ 你的字节\)/, /16 个新的随机字节/, /你发出字节之前，大厅不可能知道点数/, /记录里你的每一次掷骰都带着这些字节/],
};

test('P-FAIR-DICE: "how to check" describes the roller\'s own bytes and the committed seed, in both languages and at both sizes', { timeout: 240000 }, async () => {
  // The old words (the seed's stream alone) are gone from both dictionaries.
  for (const lang of ['en', 'zh']) {
    const all = Object.values(DICTIONARIES[lang]).filter((v) => typeof v === 'string').join('\n');
    assert.doesNotMatch(all, /first the seating, then the rolls in order|先抽座位，再依次掷骰/);
  }
  const page = await newPage(browser, { locale: 'zh-CN', viewport: { width: 390, height: 844 } });
  await guest(page, 'Checker');
  await createRoom(page, 'flight', { seats: 2, turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor();
  // One roll of the player's own, so that the game has bytes of theirs.
  let rolled = false;
  for (let i = 0; i < 40 && !rolled; i += 1) {
    const what = await flightWait(page);
    if (what === 'over') break;
    await flightAct(page, what);
    rolled = what === 'roll';
  }
  for (const [lang, viewport] of [['zh', { width: 390, height: 844 }], ['en', { width: 1280, height: 800 }]]) {
    await page.setViewportSize(viewport);
    if (lang === 'en') await page.locator('#lang').click();
    await page.locator('#fair-dice > summary').click();
    await page.locator('#fair-how > summary').click();
    const how = page.locator('#fair-how');
    await page.locator('#fair-how-own').waitFor();
    const text = await how.innerText();
    for (const words of SAYS[lang]) assert.match(text, words, `${lang}: ${words}`);
    assert.equal(await page.locator('#fair-how-dice').innerText(), DICTIONARIES[lang].fair_how_dice);
    assert.equal(await page.locator('#fair-how-own').innerText(), DICTIONARIES[lang].fair_how_own);
    assert.doesNotMatch(text, /\bfair_how_\w+|\{\w+\}/, 'no raw keys');
    // The command that re-derives one roll, with the game's seed once it is revealed.
    assert.match(await page.locator('#fair-derive-cmd').innerText(), /^echo '\{"request":"derive_roll","seed":"<seed>","k":0,"entropy":"<bytes>"\}' \| hangar rules flight$/);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(over <= 0, `${lang}: no sideways scrolling: ${over} px`);
    assert.deepEqual(await axeViolations(page), [], `${lang}: the fair-dice panel`);
    await shot(page, `fair-how-${lang}`, '#fair-dice');
    // Folded again for the next language (the panel keeps its state over a redraw).
    await page.locator('#fair-how > summary').click();
    await page.locator('#fair-dice > summary').click();
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
