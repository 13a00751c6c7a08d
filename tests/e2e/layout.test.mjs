// The page fits the screens people play on: the whole flight board and the die in a
// 1280×800 laptop window and in a 390×844 phone, the replay controls under the board in view,
// the join-by-code box usable on a phone, planes big enough to tap, and a die that starts each
// turn blank instead of showing the previous player's roll.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, guest, createRoom, fillWithBots, flightWait, flightAct, shot,
} from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The rectangle of the first element matching `selector`, in viewport pixels. */
async function rect(page, selector) {
  return page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  });
}

/** Fail unless `selector` lies wholly inside the viewport, the page scrolled to its top. */
async function assertInView(page, selector, what) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const r = await rect(page, selector);
  const vp = page.viewportSize();
  assert.ok(r.top >= 0 && r.left >= 0 && r.bottom <= vp.height && r.right <= vp.width,
    `${what} (${selector}) at ${JSON.stringify(r)} does not fit ${vp.width}×${vp.height}`);
}

/** A two-seat, two-plane flight game against one bot; planes take off on a 5 or a 6. */
async function flightAgainstBot(page) {
  await createRoom(page, 'flight', { seats: 2, planes: 2, takeoff: 'five-or-six', turn_seconds: 60 });
  await fillWithBots(page, 'heuristic');
  await page.locator('#ready-btn').click();
  await page.locator('.flight-board').waitFor({ timeout: 30000 });
}

test('1280×800: the whole board and the die are in view; a turn starts with a blank die; the replay controls are in view', { timeout: 600000 }, async () => {
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await guest(page, 'Fit');
  await flightAgainstBot(page);
  await assertInView(page, '.flight-board', 'the board');
  await assertInView(page, '#die', 'the die');
  await shot(page, 'layout-1280-flight');

  // F-ROLL: whenever the page asks this player to roll, the die shows no earlier roll (the bot's,
  // or this player's own before a bonus roll); the rolls stay in the log.
  let rolls = 0;
  for (let decisions = 0; rolls < 12 && decisions < 200; decisions += 1) {
    const what = await flightWait(page);
    if (what === 'over') break;
    if (what === 'roll') {
      const shown = await page.locator('#die').getAttribute('data-value');
      assert.equal(shown, '', `the die offered for roll ${rolls + 1} still shows ${shown}`);
      rolls += 1;
    }
    await flightAct(page, what);
  }
  assert.ok(rolls >= 12, `rolled ${rolls} times`);
  assert.match(await page.locator('#game-log').textContent(), /rolled|掷/);

  // Auto-play finishes the game; its replay keeps the board and its controls on the screen.
  // The switch's box is hidden behind its drawn track: a person clicks the track.
  await page.locator('label.switch .switch-track').click();
  await page.waitForFunction(() => document.querySelector('#autoplay-toggle')?.checked);
  await page.locator('#result').waitFor({ timeout: 400000 });
  await page.locator('#view-replay').click();
  await page.locator('#replay-next').waitFor();
  await page.locator('.flight-board').waitFor();
  await assertInView(page, '.flight-board', 'the replay board');
  for (const id of ['#replay-first', '#replay-prev', '#replay-next', '#replay-last', '#replay-slider']) {
    await assertInView(page, id, 'a replay control');
  }
  await shot(page, 'layout-1280-replay');
  assert.deepEqual(page.errors, []);
});

/**
 * The points a fingertip 44 px wide may land on when aiming at `plane` (its centre and eight
 * points 20 px away), each with what a tap there would choose: the plane, the hangar (which
 * takes off the first parked plane: all parked planes take off alike) or nothing.
 */
async function tapTargets(page, plane) {
  return page.evaluate((index) => {
    const el = [...document.querySelectorAll('.flight-board .plane.movable')].find((p) => Number(p.dataset.plane) === index);
    el.scrollIntoView({ block: 'nearest' });
    const r = el.querySelector('.plane-body').getBoundingClientRect();
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    const d = 20;
    const e = Math.round(d / Math.SQRT2);
    const offsets = [[0, 0], [d, 0], [-d, 0], [0, d], [0, -d], [e, e], [-e, e], [e, -e], [-e, -e]];
    return offsets.map(([dx, dy]) => {
      const hit = document.elementFromPoint(cx + dx, cy + dy);
      const target = hit?.closest('.plane.movable, .hangar-target');
      let picks = null;
      if (target?.classList.contains('hangar-target')) picks = 'hangar';
      else if (target) picks = Number(target.dataset.plane);
      return { x: cx + dx, y: cy + dy, picks, parked: el.dataset.progress === 'hangar', hit: hit?.getAttribute('class') || hit?.tagName };
    });
  }, plane);
}

test('390×844: the join box keeps its width, the board and die fit, and planes are tapped 20 px off their centre', { timeout: 600000 }, async () => {
  const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
  await guest(page, 'Thumb');
  const box = await rect(page, '.join-form input[name=code]');
  const join = await rect(page, '.join-form button[type=submit]');
  assert.ok(box.width >= 120, `the code input is ${box.width} px wide`);
  assert.ok(join.right <= 390 && join.top < box.bottom, `the Join button sits beside the box: ${JSON.stringify(join)}`);
  await shot(page, 'layout-390-hall');

  await flightAgainstBot(page);
  await assertInView(page, '.flight-board', 'the board');
  await assertInView(page, '#die', 'the die');
  await shot(page, 'layout-390-flight');

  // Touch targets (WCAG 2.5.5): every movable plane with no other choice within two squares is
  // picked by a tap anywhere within 20 px of its centre; this plays by tapping off-centre.
  const checked = { parked: 0, flying: 0 };
  for (let decisions = 0; decisions < 300 && (checked.parked < 1 || checked.flying < 1); decisions += 1) {
    const what = await flightWait(page);
    if (what === 'over') break;
    if (what === 'roll') {
      await flightAct(page, 'roll');
      continue;
    }
    const planes = await page.evaluate(() => [...document.querySelectorAll('.flight-board .plane.movable')].map((p) => ({
      plane: Number(p.dataset.plane), x: Number(p.dataset.x), y: Number(p.dataset.y), parked: p.dataset.progress === 'hangar',
    })));
    // Two choices closer than two squares share the space between them (tap, then pick, is not
    // built): such a plane is not measured here.
    // (Parked planes are one choice, the hangar: only a flying neighbour shares their space.)
    const alone = planes.find((p) => planes.every((o) => o === p || (p.parked && o.parked)
      || Math.hypot(o.x - p.x, o.y - p.y) >= 1.9 || Math.hypot(o.x - p.x, o.y - p.y) < 0.3));
    if (!alone) {
      await flightAct(page, 'move');
      continue;
    }
    const targets = await tapTargets(page, alone.plane);
    for (const t of targets) {
      const ok = alone.parked ? t.picks === 'hangar' || planes.some((p) => p.parked && p.plane === t.picks) : t.picks === alone.plane;
      assert.ok(ok, `a tap at (${t.x}, ${t.y}) near ${alone.parked ? 'a parked' : 'a flying'} plane ${alone.plane} hits ${t.hit}, choosing ${t.picks}`);
    }
    checked[alone.parked ? 'parked' : 'flying'] += 1;
    // Tap the farthest point measured; the server takes the move.
    const sentBefore = await page.evaluate(() => window.commands.length);
    const far = targets[5];
    await page.mouse.click(far.x, far.y);
    await page.waitForFunction((from) => window.commands.slice(from).some((c) => c.type === 'move' && c.answer !== 'pending')
      || document.querySelector('#result'), sentBefore, { timeout: 30000, polling: 50 });
    const answers = await page.evaluate((from) => window.commands.slice(from).filter((c) => c.type === 'move').map((c) => c.answer), sentBefore);
    assert.ok(answers.every((a) => a === 'ok'), `the tapped move was refused: ${answers}`);
  }
  assert.ok(checked.parked >= 1 && checked.flying >= 1, `measured ${JSON.stringify(checked)}`);
  await shot(page, 'layout-390-played');
  assert.deepEqual(page.errors, []);
});

test('Jungle: the board fits 1280×800 and a 390×844 phone, with squares of at least 44 px on the phone', { timeout: 300000 }, async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const page = await newPage(browser, { viewport });
    await guest(page, 'Den');
    await createRoom(page, 'jungle', { turn_seconds: 60 });
    await fillWithBots(page, 'easy');
    await page.locator('#ready-btn').click();
    await page.locator('.jungle-board .piece').first().waitFor();
    await assertInView(page, '.jungle-board', 'the Jungle board');
    const cell = await rect(page, '.jungle-board .cell');
    if (viewport.width < 600) assert.ok(cell.width >= 44 && cell.height >= 44, `a square is ${cell.width}×${cell.height} px`);
    await shot(page, `layout-${viewport.width}-jungle`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
