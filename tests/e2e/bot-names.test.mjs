// Bot levels are named by strength in both languages, never by the engine behind them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DICTIONARIES } from '../../web/js/i18n.js';

test('bot levels read easy / normal / hard (简单 / 普通 / 困难), alpha-beta being the normal level', () => {
  for (const lang of ['en', 'zh']) {
    const d = DICTIONARIES[lang];
    const names = Object.entries(d).filter(([key]) => key.startsWith('bot_')).map(([, name]) => name);
    for (const name of names) assert.doesNotMatch(name, /alpha|beta|heuristic|greedy|贪心|高手|大师/i, `${lang}: ${name}`);
    // The protocol's jungle level `alphabeta` is `normal`; flight's `heuristic` is the normal level too.
    assert.equal(d.bot_alphabeta, d.bot_normal);
    assert.equal(d.bot_heuristic, d.bot_normal);
  }
  assert.deepEqual([DICTIONARIES.zh.bot_easy, DICTIONARIES.zh.bot_normal, DICTIONARIES.zh.bot_hard], ['简单', '普通', '困难']);
  assert.deepEqual([DICTIONARIES.en.bot_easy, DICTIONARIES.en.bot_normal, DICTIONARIES.en.bot_hard], ['easy', 'normal', 'hard']);
});
