// The flight game log: a line in both languages for every engine event kind of
// docs/flight-json.md, naming who did what with which plane (runs in Node, no browser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setLang } from '../../web/js/i18n.js';
import { effectLine, SILENT_EFFECTS } from '../../web/js/flight/log.js';

/** The event kinds of the "Events" table in docs/flight-json.md. */
function documentedKinds() {
  const doc = readFileSync(new URL('../../docs/flight-json.md', import.meta.url), 'utf8');
  const table = doc.slice(doc.indexOf('### Events'), doc.indexOf('### Chance draws'));
  return [...table.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]).filter((kind) => kind !== 'type'); // the header
}

/** An example of each kind, with every field the table gives it. */
const EXAMPLE = {
  colour: 'red', by: 'red', plane: 1, from: 10, to: 14, at: 20, height: 2, value: 3, rank: 1,
  reason: 'collision', item: 'booster', square: 12, kept: true, weather: 'storm', ranks: [1, 2, null, null],
};

const names = {
  who: (colour) => ({ red: 'Ana', blue: 'Bo' }[colour] ?? '?'),
  whose: (colour) => `${({ red: 'Ana', blue: 'Bo' }[colour] ?? '?')}'s`,
};

test('every documented flight event kind has a line in both languages, or is said elsewhere', () => {
  const kinds = documentedKinds();
  assert.ok(kinds.length >= 29, `the doc table lists ${kinds.length} kinds`);
  for (const lang of ['en', 'zh']) {
    setLang(lang);
    for (const kind of kinds) {
      const line = effectLine({ ...EXAMPLE, type: kind }, names);
      if (SILENT_EFFECTS.includes(kind)) {
        assert.equal(line, null, kind);
        continue;
      }
      assert.equal(typeof line, 'string', `${lang}: no line for ${kind}`);
      assert.doesNotMatch(line, /\{\w+\}|undefined|null|NaN/, `${lang} ${kind}: ${line}`);
    }
  }
});

test('F-CAPTURE/F-CROSS: a capture line names who captured whose plane', () => {
  setLang('en');
  const capture = { type: 'captured', by: 'red', colour: 'blue', plane: 2, from: 17 };
  assert.equal(effectLine(capture, names), "💥 Ana sent Bo's plane 3 back to the hangar");
  const crossing = { type: 'crossing_capture', by: 'blue', colour: 'red', plane: 0 };
  assert.equal(effectLine(crossing, names), "💥 Bo flew across and sent Ana's plane 1 back");
  setLang('zh');
  assert.match(effectLine(capture, names), /^💥 Ana 撞回了Bo's飞机 3$/);
});

test('F-FLY/F-FINISH/F-BONUS: shortcut, bounce and bonus roll lines say where the plane went', () => {
  setLang('en');
  assert.equal(effectLine({ type: 'flew', colour: 'red', plane: 0, from: 18, to: 30 }, names), '✈ Ana: plane 1 flies the shortcut to square 30');
  assert.equal(effectLine({ type: 'bounced', colour: 'red', plane: 3, from: 56, to: 53 }, names),
    '↩ Ana: plane 4 overshoots the finish and bounces back to home column square 3');
  assert.equal(effectLine({ type: 'bonus_roll', colour: 'blue' }, names), '🎲 Bo rolled a 6: roll again');
  assert.equal(effectLine({ type: 'took_off', colour: 'blue', plane: 1 }, names), '🛫 Bo: plane 2 takes off');
  assert.equal(effectLine({ type: 'walked', colour: 'blue', plane: 1, from: 0, to: 4 }, names), 'Bo: plane 2 → square 4');
  setLang('zh');
  assert.equal(effectLine({ type: 'flew', colour: 'red', plane: 0, from: 18, to: 30 }, names), '✈ Ana：飞机 1 飞棋，沿捷径飞到第 30 格');
});
