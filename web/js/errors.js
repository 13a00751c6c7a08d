// Server errors in the reader's language. The server answers with a stable code
// (docs/protocol.md §2) and an English message for developers; the page owns the words.

import { t, currentLang, DICTIONARIES } from './i18n.js';

/** Codes whose English message carries a useful detail (which value, which rule). */
const DETAILED = new Set(['invalid', 'illegal', 'too_early', 'bad_message']);

/** Whether error `code` has its own words. */
export function knownError(code) {
  return typeof code === 'string' && Object.hasOwn(DICTIONARIES.en, `err_${code}`);
}

/**
 * The sentence for error `err` (`{code, message}`); `params` fill in what the page knows (the
 * room `code` it asked for). On the English page a detailed code keeps the server's message as
 * the detail; the Chinese page shows only Chinese.
 */
export function errorText(err, params = {}) {
  const code = err?.code;
  if (!knownError(code)) {
    // A code this page does not know yet: the generic word, and the code for a bug report.
    return `${t('error')} (${code || '?'})`;
  }
  if (code === 'stake_uncovered') return stakeText(String(err.message || ''));
  // "no room T2GYHG": the code asked for, when the caller did not say it.
  const asked = code === 'no_room' ? String(err.message || '').match(/([A-Za-z0-9]+)$/)?.[1] : null;
  const text = t(`err_${code}`, { code: asked ?? '?', ...params });
  if (currentLang() === 'en' && DETAILED.has(code) && err.message) return `${text} (${err.message})`;
  return text;
}

/**
 * P-SCORE's refusal in the reader's words: the server's message names the stake and the score
 * ("the stake is 500 and your score is 120", or "… and ana's score is 120" for another player
 * of a challenge); only the figures and the player's name are taken from it.
 */
function stakeText(message) {
  const stake = message.match(/stake is (\d+)/)?.[1] ?? '?';
  const own = message.match(/your score is (\d+)/);
  if (own) return t('err_stake_uncovered', { stake, score: own[1] });
  const other = message.match(/and (.+)'s score is (\d+)/);
  return t('err_stake_uncovered_other', { stake, name: other?.[1] ?? '?', score: other?.[2] ?? '?' });
}
