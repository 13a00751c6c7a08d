// The fair-dice panel's copy buttons and its "how to check" note; the replay's speed control
// and the players' names and colours beside and on the board.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, shot, axeViolations, BASE,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A short flight game played to the end by auto-play; returns the page on its result. */
async function finishedGame(name, checks = []) {
  const page = await newPage(browser);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  await guest(page, name);
  await createRoom(page, 'flight', { seats: 2, planes: 2, turn_seconds: 60 }, checks);
  await fillWithBots(page, 'heuristic');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
  await page.locator('label.switch .switch-track').click();
  await page.locator('#result').waitFor({ timeout: 500000 });
  return page;
}

const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());

test('P-FAIR-DICE: copy buttons for the seed and the commitment, and how to check them with sha256 and hangar verify', { timeout: 600000 }, async () => {
  const page = await finishedGame('Auditor');
  // In the room, once the seed is out, the panel re-draws every roll of the game's record too
  // (the page saw only the rolls since it joined), and the note names this game's record.
  const gameId = await page.evaluate(() => window.hangar.view.state.result.game_id);
  await page.locator('#result button').last().click();
  // The proof is folded under its verdict in the room: one click opens it.
  await page.locator('#fair-dice > summary').click();
  await page.locator('#fair-rolls[data-checked]').waitFor();
  assert.ok(Number(await page.locator('#fair-rolls').getAttribute('data-checked')) > 10);
  assert.equal(await page.locator('#fair-rolls').getAttribute('data-mismatches'), '0');
  assert.match(await page.locator('#fair-verify-cmd').textContent(), new RegExp(`/api/games/${gameId} `));
  await page.locator('.last-game button').click();
  await page.locator('#result #view-replay').click();
  await page.locator('#replay-step').waitFor();
  const id = page.url().match(/#\/replay\/(\d+)/)[1];
  const seed = await page.locator('#seed').textContent();
  const commitment = await page.locator('#commitment').textContent();
  await page.locator('#copy-seed').click();
  assert.equal(await clipboard(page), seed);
  await page.locator('#copy-commitment').click();
  assert.equal(await clipboard(page), commitment);
  // The note names the algorithm and gives commands that check the game without this page.
  await page.locator('#fair-how summary').click();
  const how = await page.locator('#fair-how').textContent();
  assert.match(how, /SHA-256/);
  assert.match(how, /ChaCha20/);
  assert.ok(how.includes(`printf %s ${seed} | xxd -r -p | sha256sum`), how);
  const cmd = await page.locator('#fair-verify-cmd').textContent();
  assert.equal(cmd, `curl -s ${BASE}/api/games/${id} > game.json\nhangar verify game.json`);
  // The address in the command serves the record with this commitment.
  const record = await (await fetch(`${BASE}/api/games/${id}`)).json();
  assert.equal(record.commitment, commitment);
  await shot(page, 'fair-dice-how', '#fair-dice');
  // The replay page with the note open, in both languages: nothing serious for axe-core.
  for (let i = 0; i < 2; i += 1) {
    assert.deepEqual(await axeViolations(page), [], await page.evaluate(() => document.documentElement.lang));
    await page.locator('#lang').click();
  }
  assert.deepEqual(page.errors, []);
});

test('P-RECORD: the replay names the players in their colours, on the board too, and plays at a chosen speed it remembers', { timeout: 600000 }, async () => {
  const page = await finishedGame('Director');
  await page.locator('#result #view-replay').click();
  await page.locator('#replay-step').waitFor();
  const players = page.locator('#replay-players .replay-player');
  assert.equal(await players.count(), 2);
  assert.match(await page.locator('#replay-players').textContent(), /Director/);
  // The bot by its level in words, never its key (`bot:heuristic`).
  assert.match(await page.locator('#replay-players').textContent(), /Bot · normal/);
  assert.doesNotMatch(await page.locator('.replay-page').textContent(), /bot:/);
  // Each name has its seat's colour dot, and the hangar of that colour is labelled with it.
  const colours = await page.evaluate(() => window.hangar.view.frames[0].view.colours);
  for (let seat = 0; seat < 2; seat += 1) {
    assert.equal(await page.locator(`#replay-players [data-seat="${seat}"] .dot`).getAttribute('class'), `dot c-${colours[seat]}`);
  }
  assert.ok((await page.locator('.flight-board .hangar-label').allTextContents()).some((l) => l.includes('Director')));
  // The step list says who did what in the log's words.
  const steps = await page.locator('#replay-log li').allTextContents();
  assert.ok(steps.some((l) => /Director 🎲 [1-6]🎲 Director rolled [1-6]/.test(l)), steps.slice(0, 8).join('\n'));
  assert.ok(steps.some((l) => /🛫 (Director|Bot · normal): plane \d takes off/.test(l)), 'a take-off names its player');
  assert.ok(steps.some((l) => l.endsWith('Director Auto-play')), 'the switch to auto-play is named in words');
  // One player is marked to move at a time, and it follows the frames.
  await page.locator('#replay-next').click();
  assert.equal(await page.locator('#replay-players .to-move').count(), 1);
  // Speed: a step lasts 450 ms at 1×, a quarter of it at 4×, and the choice outlives a reload.
  assert.equal(await page.locator('#replay-bar').getAttribute('data-step-ms'), '450');
  await page.locator('#replay-speed').selectOption('4');
  assert.equal(await page.locator('#replay-bar').getAttribute('data-step-ms'), '113');
  await page.locator('#replay-play').click();
  await page.waitForFunction(() => !/^Step 1 /.test(document.querySelector('#replay-step').textContent));
  await page.locator('#replay-play').click();
  await page.reload();
  await page.locator('#replay-step').waitFor();
  assert.equal(await page.locator('#replay-speed').inputValue(), '4');
  assert.equal(await page.locator('#replay-bar').getAttribute('data-step-ms'), '113');
  await shot(page, 'replay-players');
  assert.deepEqual(page.errors, []);
});

test('P-FAIR-DICE/F-ITEM-SPAWN/F-WEATHER: the room and the replay of a game with items and weather re-draw its rolls and chance draws from the seed', { timeout: 900000 }, async () => {
  const page = await finishedGame('Gambler', ['items', 'weather']);
  // The room's panel re-draws them too, once the game is over.
  await page.locator('#result button').last().click();
  // The proof is folded under its verdict in the room: one click opens it.
  await page.locator('#fair-dice > summary').click();
  await page.locator('#fair-rolls[data-checked]').waitFor();
  const inRoom = Number(await page.locator('#fair-rolls').getAttribute('data-checked'));
  assert.equal(await page.locator('#fair-rolls').getAttribute('data-mismatches'), '0');
  await page.locator('.last-game button').click();
  await page.locator('#result #view-replay').click();
  await page.locator('#replay-step').waitFor();
  // The replay has what appeared where: every roll and every draw is re-drawn and matches.
  const { rolls, draws } = await page.evaluate(() => {
    const frames = window.hangar.view.replay.frames;
    const events = frames.flatMap((f) => f.events || []);
    const effects = events.filter((e) => e.kind === 'moved').flatMap((e) => e.effects);
    return {
      rolls: events.filter((e) => e.kind === 'rolled' && e.item !== 'six_die').length,
      draws: effects.filter((e) => e.type === 'item_appeared' || e.type === 'weather_appeared').length
        + (frames[0].view.items || []).length + (frames[0].view.weather ? 1 : 0),
    };
  });
  assert.ok(draws >= 2, `${draws} draws`);
  assert.equal(await page.locator('#fair-rolls').getAttribute('data-mismatches'), '0');
  assert.equal(Number(await page.locator('#fair-rolls').getAttribute('data-checked')), rolls + draws);
  assert.equal(inRoom, rolls + draws, 'the room checked as many');
  // A forged roll or a moved item does not pass.
  const forged = await page.evaluate(async () => {
    const { checkDraws } = await import('/js/fairdice.js');
    const { record, replay } = window.hangar.view;
    const rollForged = structuredClone(replay.frames);
    const roll = rollForged.flatMap((f) => f.events || []).find((e) => e.kind === 'rolled' && e.item !== 'six_die');
    roll.value = (roll.value % 6) + 1;
    const itemForged = structuredClone(replay.frames);
    const item = itemForged[0].view.items[0];
    item.item = item.item === 'booster' ? 'six_die' : 'booster';
    return [(await checkDraws(record, rollForged)).mismatches.length, (await checkDraws(record, itemForged)).mismatches.length];
  });
  assert.deepEqual(forged.map((n) => n > 0), [true, true], `mismatches found: ${forged}`);
  await page.locator('#fair-verdict[data-verified]').waitFor();
  assert.equal(await page.locator('#fair-verdict').getAttribute('data-verified'), 'true');
  assert.deepEqual(page.errors, []);
});
