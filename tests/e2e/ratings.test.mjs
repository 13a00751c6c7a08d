// Ratings that mean something (issue 30, point 8): one number per game, "provisional" said in
// words, two guests of one name told apart on the board, a rating chart with axes and dates,
// and the player's own name opening their page (P-RATING, P-PROFILE). 1280×800 and 390×844,
// English and Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, twoInRoom, axeViolations, shot, BASE } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The first page resigns a Jungle game against the second, and both see the result. */
async function resignedGame(loser, winner) {
  await loser.locator('#resign-btn').click();
  for (const page of [loser, winner]) await page.locator('#result').waitFor();
}

test('P-RATING/P-PROFILE: two guests called Cleo are told apart; provisional in words; the own name opens a chart with axes and dates', { timeout: 240000 }, async () => {
  const { host: cleo, other: twin } = await twoInRoom(browser, 'jungle', {
    names: ['Cleo', 'Cleo'], fields: { turn_seconds: 60 },
    pages: [{ viewport: { width: 1280, height: 800 } }, { viewport: { width: 390, height: 844 }, locale: 'zh-CN' }],
  });
  // Two rated games, both won by the twin: two points of rating history each.
  for (let game = 1; game <= 2; game += 1) {
    await cleo.locator('#ready-btn').click();
    await twin.locator('#ready-btn').click();
    await cleo.waitForFunction((n) => window.roomEvents.filter((e) => e.kind === 'game_started').length === n, game);
    await cleo.locator('#resign-btn').waitFor();
    await resignedGame(cleo, twin);
    // The result says the new rating with "provisional" in words, not a question mark.
    assert.match(await cleo.locator('#result .result-rating').first().textContent(), /^\d{4} \(provisional\) \([+−]\d+\)$/);
    assert.match(await twin.locator('#result .result-rating').first().textContent(), /^\d{4}（暂定）/);
    for (const page of [cleo, twin]) await page.keyboard.press('Escape');
  }

  // The Jungle board of the hall: both Cleos, each with a number of their own.
  await cleo.goto(`${BASE}/#/`);
  await cleo.locator('.tab[data-game=jungle]').click();
  const board = cleo.locator('#leaderboard .leader-list[data-game=jungle]');
  await board.waitFor();
  // The page shows the top ten, which other games of the suite's hall may fill: the names the
  // page gives a whole board of lines (the two Cleos among them) tell the two apart…
  const everyone = await cleo.evaluate(async () => {
    const { distinctNames } = await import('/js/games.js');
    const { entries } = await window.hangar.conn.send('leaderboard', { game: 'jungle', by: 'rating', limit: 100 });
    return distinctNames(entries.map((e) => e.player));
  });
  const cleos = everyone.filter((n) => n.startsWith('Cleo'));
  assert.equal(cleos.length, 2, `${cleos}`);
  assert.notEqual(cleos[0], cleos[1]);
  for (const name of cleos) assert.match(name, /^Cleo #\d+$/);
  // …and where the page's own ten lines hold both, it names them so too.
  const names = (await board.locator('.leader-name').allTextContents()).filter((n) => n.startsWith('Cleo'));
  if (names.length === 2) for (const name of names) assert.ok(cleos.includes(name), name);
  // One number per player: the rating, provisional in words (every player here is provisional
  // after a game or two, the Cleos too).
  const row = board.locator('li.provisional').first();
  assert.match(await row.locator('.leader-rating').textContent(), /^\d{4} \(provisional\)$/);
  assert.equal(await row.locator('.chip-level').count(), 0);

  // The player's own name in the top bar opens their page; the chart has its axes and dates.
  for (const page of [cleo, twin]) {
    await page.locator('#me-name').click();
    await page.waitForURL(/#\/player\/\d+/);
    const me = await page.evaluate(() => window.hangar.player.id);
    assert.ok(page.url().endsWith(`#/player/${me}`), 'the own page');
    const chart = page.locator('#rating-chart-jungle');
    await chart.waitFor();
    const [high, low] = [await chart.locator('.chart-high').textContent(), await chart.locator('.chart-low').textContent()];
    assert.match(high, /^\d{4}$/);
    assert.match(low, /^\d{4}$/);
    assert.notEqual(high, low);
    const today = new Date();
    for (const cls of ['.chart-from', '.chart-to']) assert.match(await chart.locator(cls).textContent(), new RegExp(String(today.getDate())));
    assert.equal(await chart.locator('circle').count(), 2, 'a dot per rated game');
    const label = await chart.getAttribute('aria-label');
    assert.match(label, page === cleo ? /^Rating over 2 games from .* lowest \d{4}, highest \d{4}, now \d{4}$/ : /^等级分走势：.*共 2 局/);
    assert.deepEqual(await axeViolations(page), []);
    await shot(page, `ratings-profile-${page === cleo ? 'desk' : 'phone'}`);
    assert.deepEqual(page.errors, []);
  }
  await cleo.context().close();
  await twin.context().close();
});
