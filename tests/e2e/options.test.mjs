// The page offers what the hall accepts (P-ROOM, P-SEATS): the create form's bounds, defaults
// and presets and a seat's bot levels come from the hall (GET /api/options), not from copies
// in the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, guest, createRoom, BASE } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('P-ROOM/P-SEATS: the create form and the bot levels are the hall\'s', { timeout: 120000 }, async () => {
  const options = await (await fetch(`${BASE}/api/options`)).json();
  const page = await newPage(browser);
  await guest(page, 'Maker');

  await page.locator('.tab[data-game=flight]').click();
  await page.locator('#open-create').click();
  const form = page.locator('#create-form');
  const bounds = (name) => form.locator(`[name=${name}]`).evaluate((e) => ({ min: Number(e.min), max: Number(e.max), default: Number(e.value) }));
  assert.deepEqual(await bounds('stake'), options.flight.stake);
  assert.deepEqual(await bounds('turn_seconds'), options.turn_seconds);
  const values = (name) => form.locator(`[name=${name}] option`).evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual((await values('preset')).sort(), Object.keys(options.flight.presets).sort());
  // A preset chosen fills in every rule option it names, as the hall plays it.
  for (const [preset, rules] of Object.entries(options.flight.presets)) {
    await form.locator('[name=preset]').selectOption(preset);
    for (const [name, value] of Object.entries(rules)) {
      const input = form.locator(`[name=${name}]`);
      const shown = await input.evaluate((e) => (e.type === 'checkbox' ? e.checked : e.value));
      assert.equal(String(shown), String(value), `${preset}: ${name}`);
    }
  }
  await page.locator('#create-form button[type=button]').click();

  // A Jungle table's empty seat offers the hall's levels, weakest first, its default chosen.
  await createRoom(page, 'jungle');
  const levels = page.locator('.seat-card:not(.mine) .bot-level');
  assert.deepEqual(await levels.locator('option').evaluateAll((os) => os.map((o) => o.value)), options.jungle.bots);
  assert.equal(await levels.inputValue(), options.jungle.default_bot);
  assert.deepEqual(page.errors, []);
});
