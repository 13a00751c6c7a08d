// What a player reads and hears beside the board: the flight log says every roll, take-off,
// bonus roll and capture with its actor; the Jungle move list, lost pieces and sliding moves;
// the sound switch (off in automated browsers, remembered, and effects counted as they start).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, flightWait, flightAct, recordEvents, shot,
} from './helpers.mjs';
import { lostPieces } from '../../web/js/jungle/record.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Keep every line the game log ever shows in `window.logLines` (it keeps only its last ones). */
async function recordLog(page) {
  await page.evaluate(() => {
    const log = document.querySelector('#game-log');
    window.logLines = [...log.children].map((line) => line.textContent);
    new MutationObserver((changes) => {
      for (const change of changes) for (const line of change.addedNodes) window.logLines.push(line.textContent);
    }).observe(log, { childList: true });
  });
}

/** The effects started by the page's sound module so far. */
function played(page) {
  return page.evaluate(async () => [...(await import('/js/sound.js')).sound.played]);
}

test('F-BONUS/F-CAPTURE: the flight log has a line for every roll, take-off, bonus roll and capture, naming the actor', { timeout: 600000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Scribe');
  const code = await createRoom(page, 'flight', { seats: 2, planes: 2, turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  await recordLog(page);
  // Auto-play plays this seat, so the whole game runs on its own.
  await page.locator('label.switch .switch-track').click();
  await page.locator('#result').waitFor({ timeout: 500000 });
  const { events, lines } = await page.evaluate((room) => ({
    events: window.roomEvents.filter((e) => e.room === room),
    lines: window.logLines,
  }), code);
  const effects = events.filter((e) => e.kind === 'moved').flatMap((e) => e.effects);
  const count = (re) => lines.filter((line) => re.test(line)).length;
  const ofType = (type) => effects.filter((e) => e.type === type);
  // A 6 is needed to take off (traditional rules), and every 6 earns a bonus roll.
  assert.ok(ofType('bonus_roll').length >= 1, 'the game had a bonus roll');
  assert.equal(count(/rolled a 6: roll again$/), ofType('bonus_roll').length, 'a line per bonus roll');
  assert.equal(count(/: plane \d takes off$/), ofType('took_off').length, 'a line per take-off');
  assert.equal(count(/^🎲 .* rolled [1-6]$/), events.filter((e) => e.kind === 'rolled').length, 'a line per roll');
  assert.equal(count(/: plane \d is home$/), ofType('finished').length, 'a line per finished plane');
  // Each capture says who sent whose plane back (the bot is "🤖 random", this player "You").
  const colours = events.find((e) => e.kind === 'game_started').colours;
  const mine = await page.evaluate(() => window.hangar.view.mySeat());
  const who = (colour) => (colours.indexOf(colour) === mine ? 'You' : '🤖 random');
  const whose = (colour) => (colours.indexOf(colour) === mine ? 'your' : "🤖 random's");
  for (const c of ofType('captured')) {
    const want = `💥 ${who(c.by)} sent ${whose(c.colour)} plane ${c.plane + 1} back to the hangar`;
    assert.ok(lines.includes(want), `the log says "${want}"`);
  }
  assert.equal(count(/sent .* plane \d back/), ofType('captured').length + ofType('crossing_capture').length);
  assert.ok(lines.every((line) => !/\{\w+\}|undefined/.test(line)), 'no line has a hole');
  await page.locator('#result button').last().click();
  await shot(page, 'flight-log', '.players-card');
  assert.deepEqual(page.errors, []);
});

test('J-PIECES: lost pieces are read off the position', () => {
  assert.deepEqual(lostPieces('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r'), { red: [], yellow: [] });
  // Red has lost its rat and its dog, yellow its elephant.
  assert.deepEqual(lostPieces('l5t/1d3c1/r1p1w2/7/7/7/E1W1P2/1C5/T5L y'), { red: ['D', 'R'], yellow: ['E'] });
});

test('J-STEP: the Jungle move list (jungle.md §5 notation) numbers the moves, the moved piece slides, the lost-pieces tray follows the board', { timeout: 300000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Clerk');
  await createRoom(page, 'jungle', { turn_seconds: 60 });
  await fillWithBots(page, 'easy');
  await page.locator('#ready-btn').click();
  await page.locator('.jungle-board .piece').first().waitFor();
  assert.equal(await page.locator('#lost-red').getAttribute('data-count'), '0');
  for (let i = 0; i < 4; i += 1) {
    await page.waitForFunction(() => document.querySelector('.jungle-board .movable-from') || document.querySelector('#result'), null, { timeout: 60000 });
    if (await page.locator('#result').count()) break;
    const plies = Number(await page.locator('.jungle-board').getAttribute('data-plies'));
    const mv = await page.evaluate(() => window.hangar.view.state.game.moves[0]);
    await page.locator('#move-input').fill(mv);
    await page.locator('#move-input').press('Enter');
    // The page shows the move: the piece on its target came from its origin.
    await page.waitForFunction(({ n, to, from }) => {
      const board = document.querySelector('.jungle-board');
      if (Number(board.dataset.plies) <= n) return false;
      return [...board.querySelectorAll('.piece')].some((p) => p.dataset.square === to && p.dataset.movedFrom === from)
        || Number(board.dataset.plies) > n + 1; // the bot answered at once: its piece slid last
    }, { n: plies, to: mv.slice(2, 4), from: mv.slice(0, 2) }, { timeout: 20000 });
  }
  // The bot has answered and the page shows it: nothing moves until this player does.
  await page.waitForFunction(() => (document.querySelector('.jungle-board .movable-from') || document.querySelector('#result'))
    && window.hangar.view.pendingEvents === 0, null, { timeout: 60000 });
  const { moves, plies, fen } = await page.evaluate((room) => ({
    moves: window.roomEvents.filter((e) => e.room === room && e.kind === 'jungle_moved').map((e) => e.move),
    plies: window.hangar.view.state.game.plies,
    fen: window.hangar.view.state.game.fen,
  }), await page.evaluate(() => window.hangar.view.code));
  assert.ok(moves.length >= 4, `${moves.length} moves`);
  const listed = await page.locator('#move-list .move .move-text').allTextContents();
  assert.deepEqual(listed.map((m) => m.split(' ')[0]), moves, 'the list shows every move in order');
  assert.equal(await page.locator('#move-list .move').last().getAttribute('data-ply'), String(plies));
  assert.equal(await page.locator('#move-list .move-no').first().textContent(), '1.');
  // The last move slid: its piece is marked with the square it came from.
  const last = moves.at(-1);
  assert.equal(await page.locator(`.jungle-board .piece[data-square=${last.slice(2, 4)}]`).getAttribute('data-moved-from'), last.slice(0, 2));
  const lost = lostPieces(fen);
  assert.equal(await page.locator('#lost-red').getAttribute('data-count'), String(lost.red.length));
  assert.equal(await page.locator('#lost-yellow').getAttribute('data-count'), String(lost.yellow.length));
  await shot(page, 'jungle-record', '.jungle-record');
  assert.deepEqual(page.errors, []);
});

test('the sound switch: off in an automated browser, effects started only when on, the choice remembered', { timeout: 300000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Listener');
  await createRoom(page, 'flight', { seats: 2, planes: 2, turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  const toggle = page.locator('.sound-toggle');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  // Muted: a turn and a roll start nothing.
  assert.equal(await flightWait(page), 'roll');
  await flightAct(page, 'roll');
  assert.deepEqual(await played(page), []);
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  assert.equal(await page.evaluate(() => localStorage.getItem('hangar.sound')), 'on');
  // On: this player's rolls and turns are heard.
  for (let i = 0; i < 60; i += 1) {
    const heard = await played(page);
    if (heard.includes('roll') && heard.includes('turn')) break;
    const what = await flightWait(page);
    if (what === 'over') break;
    await flightAct(page, what);
  }
  const heard = await played(page);
  assert.ok(heard.includes('roll') && heard.includes('turn'), `heard ${heard}`);
  // Remembered across a reload, and muted again by the switch.
  await page.reload();
  await recordEvents(page);
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  assert.equal(await page.locator('.sound-toggle').getAttribute('aria-pressed'), 'true');
  await page.locator('.sound-toggle').click();
  assert.equal(await page.locator('.sound-toggle').getAttribute('aria-pressed'), 'false');
  assert.equal(await page.evaluate(() => localStorage.getItem('hangar.sound')), 'off');
  const before = (await played(page)).length;
  const what = await flightWait(page);
  if (what !== 'over') await flightAct(page, what);
  assert.equal((await played(page)).length, before, 'nothing is played while muted');
  assert.deepEqual(page.errors, []);
});

test('a language switch mid-game rewrites the lines already in the log', { timeout: 300000 }, async () => {
  const page = await newPage(browser, { locale: 'en-US' });
  await guest(page, '双语'); // a Chinese name, so that any Latin word left is the page's
  await createRoom(page, 'flight', { seats: 2, planes: 2, turn_seconds: 60 });
  await fillWithBots(page, 'random');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  for (let i = 0; i < 40 && (await page.locator('#game-log .log-line').count()) < 4; i += 1) {
    const what = await flightWait(page);
    if (what === 'over') break;
    await flightAct(page, what);
  }
  const latin = () => page.locator('#game-log .log-line').evaluateAll((lines) => lines.map((l) => l.textContent).filter((l) => /[A-Za-z]{3}/.test(l)));
  assert.ok((await latin()).length >= 4, 'the English log has English lines');
  await page.locator('#lang').click();
  assert.deepEqual(await latin(), [], 'no English line is left in the Chinese log');
  assert.match(await page.locator('#game-log').textContent(), /掷出/);
  assert.equal(await page.locator('.sound-toggle').textContent(), '🔇 音效');
  assert.deepEqual(page.errors, []);
});

test('P-JUNGLE-TIMEOUT: a timed-out Jungle move stands in the move list as a pass', { timeout: 120000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Sleeper');
  const code = await createRoom(page, 'jungle', { turn_seconds: 5 });
  await fillWithBots(page, 'easy');
  await page.locator('#ready-btn').click();
  await page.locator('.jungle-board .piece').first().waitFor();
  // Nothing is played: the clock runs out on this seat's turn and the move passes.
  await page.waitForFunction((room) => window.roomEvents.some((e) => e.room === room && e.kind === 'passed'), code, { timeout: 30000 });
  const passed = await page.evaluate((room) => window.roomEvents.find((e) => e.room === room && e.kind === 'passed'), code);
  const ply = passed.game.plies;
  await page.locator(`#move-list .move[data-ply="${ply}"]`).waitFor();
  assert.equal(await page.locator(`#move-list .move[data-ply="${ply}"] .move-text`).textContent(), '⏱');
  assert.deepEqual(page.errors, []);
});

test('P-REMATCH: a new game drawn by the same Jungle view starts with an empty move list', { timeout: 180000 }, async () => {
  const page = await newPage(browser);
  await guest(page, 'Again');
  await createRoom(page, 'jungle', { turn_seconds: 60 });
  await fillWithBots(page, 'easy');
  await page.locator('#ready-btn').click();
  await page.locator('.jungle-board .piece').first().waitFor();
  for (let i = 0; i < 2; i += 1) {
    await page.locator('.jungle-board .movable-from').first().waitFor({ timeout: 60000 });
    const plies = Number(await page.locator('.jungle-board').getAttribute('data-plies'));
    const mv = await page.evaluate(() => window.hangar.view.state.game.moves[0]);
    await page.locator('#move-input').fill(mv);
    await page.locator('#move-input').press('Enter');
    await page.waitForFunction((n) => Number(document.querySelector('.jungle-board').dataset.plies) > n + 1, plies, { timeout: 30000 });
  }
  assert.ok(await page.locator('#move-list .move').count() >= 4);
  // The room's next game reaches the view that drew this one (P-REMATCH keeps the room and
  // its view): drawn from its first position, the list holds none of the last game's moves.
  await page.evaluate(async () => {
    const { START_FEN } = await import('/js/jungle/position.js');
    const view = window.hangar.view;
    const state = { ...view.state, game: { ...view.state.game, fen: START_FEN, plies: 0, last: null } };
    view.gameView.update(state, view.mySeat());
  });
  assert.equal(await page.locator('#move-list .move').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('J-STEP: a capture slides the taker onto the square while the taken piece fades out and goes', { timeout: 60000 }, async () => {
  const page = await newPage(browser);
  const seen = await page.evaluate(async () => {
    const { JungleBoard } = await import('/js/jungle/board.js');
    const board = new JungleBoard();
    document.body.append(board.svg);
    // Red's rat on a3 next to yellow's cat on a4 (any position will do: the board draws, it
    // does not judge), then the rat takes it.
    board.render('7/7/7/7/7/c6/R6/7/7 r', null);
    board.render('7/7/7/7/7/R6/7/7/7 y', 'a3a4', 2000);
    const ghost = board.svg.querySelector('.piece-taken');
    const during = {
      ghost: ghost ? { piece: ghost.dataset.piece, named: ghost.hasAttribute('aria-label'), square: ghost.dataset.square ?? null } : null,
      pieces: [...board.svg.querySelectorAll('.piece')].map((p) => `${p.dataset.square}${p.dataset.piece}${p.dataset.movedFrom}`),
    };
    await Promise.all(board.svg.getAnimations({ subtree: true }).map((a) => a.finished));
    return { ...during, after: board.svg.querySelectorAll('.piece-taken').length };
  });
  assert.deepEqual(seen.ghost, { piece: 'C', named: false, square: null }, 'the cat fades out, unnamed and off the squares');
  assert.deepEqual(seen.pieces, ['a4Ra3'], 'one piece on the board: the rat, come from a3');
  assert.equal(seen.after, 0, 'the taken piece is gone once the slide is over');
  assert.deepEqual(page.errors, []);
});

test('J-STEP: with reduced motion asked for, a capture is drawn at once, with no slide or fade', { timeout: 60000 }, async () => {
  const page = await newPage(browser);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const seen = await page.evaluate(async () => {
    const { JungleBoard } = await import('/js/jungle/board.js');
    const board = new JungleBoard();
    document.body.append(board.svg);
    board.render('7/7/7/7/7/c6/R6/7/7 r', null);
    board.render('7/7/7/7/7/R6/7/7/7 y', 'a3a4', 2000);
    return {
      animations: board.svg.getAnimations({ subtree: true }).length,
      taken: board.svg.querySelectorAll('.piece-taken').length,
      pieces: [...board.svg.querySelectorAll('.piece')].map((p) => p.dataset.square + p.dataset.piece),
    };
  });
  assert.deepEqual(seen, { animations: 0, taken: 0, pieces: ['a4R'] });
  assert.deepEqual(page.errors, []);
});
