// The fair-dice panel (P-FAIR-DICE): the SHA-256 commitment published at the start, the seed
// revealed at the end, the check sha256(seed bytes) == commitment done in the browser, and the
// recorded rolls re-derived from the seed and each roll's recorded bytes, by the construction
// the record names (`dice`: per_roll, or seed_stream for games recorded before).

import { h, toast } from './dom.js';
import { apiFetch } from './net.js';
import { t } from './i18n.js';
import { drawSeating } from './dice.js';
import { GameDice } from './rollkey.js';
import { ownRolls, parseEntropy } from './entropy.js';

/** Bytes of a hex string (null when it is not hex). */
export function hexToBytes(hex) {
  const clean = String(hex || '').trim();
  if (!/^([0-9a-fA-F]{2})+$/.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Lower-case hex of bytes. */
export function bytesToHex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether the seed (hex) hashes to the commitment (hex): the seed's raw bytes are hashed. */
export async function verifySeed(seedHex, commitmentHex) {
  const bytes = hexToBytes(seedHex);
  if (!bytes || !commitmentHex) return false;
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return bytesToHex(digest) === String(commitmentHex).trim().toLowerCase();
}

/** The roller's bytes of a recorded roll or `rolled` event (null for the hall's rolls). */
function rollerBytes(entropy) {
  return entropy ? parseEntropy(entropy) : null;
}

/** The record's dice after the seating (F-D-SEATS), or null when the seed is not readable. */
function seatedDice(record) {
  const bytes = hexToBytes(record.seed);
  if (!bytes || bytes.length !== 32) return null;
  const dice = new GameDice(record.dice, bytes);
  drawSeating(dice.current, record.seats?.length || record.options?.seats || 4, !!record.options?.teams);
  return dice;
}

/**
 * Re-derive every recorded roll (a booster's throw included) from the revealed seed and the
 * roll's recorded bytes: {checked, own, mismatches}, or null when the game drew other things
 * from the dice too (items, weather: see `checkDraws`). This verifies the dice; it plays no
 * rule. `own` counts the rolls made with a player's own bytes.
 */
export async function checkRolls(record) {
  if (record.options?.items || record.options?.weather) return null;
  const dice = seatedDice(record);
  if (!dice) return null;
  let checked = 0;
  let own = 0;
  const mismatches = [];
  for (const [index, a] of record.actions.entries()) {
    if (a.roll === undefined || a.roll === null) continue;
    const k = dice.rolls;
    const drawn = (await dice.beginRoll(rollerBytes(a.entropy))).roll();
    checked += 1;
    if (a.entropy) own += 1;
    if (drawn !== a.roll) mismatches.push({ index, k, drawn, recorded: a.roll });
  }
  return { checked, own, mismatches };
}

const WEATHER_KINDS = ['storm', 'tailwind', 'headwind'];
const ITEM_KINDS = ['six_die', 'booster'];
const TRACK = 52;

/**
 * Re-draw the rolls and the chance draws of a game with items or weather from its seed, using
 * the server's replay `frames` (GET /api/games/{id}/replay) for what appeared where. The stream
 * (docs/rules-flight.md, "Order of the dice stream"): the seating, the start's weather and item
 * draws, then in play order one `roll()` per die thrown (a six die throws none) and one
 * `roll_below(n)` per appearance — weather over the 52 squares × 3 kinds, an item over the
 * squares holding no item × 2 kinds — whose outcome must name the square and kind that appeared.
 * {checked, mismatches, draws: true}, or null when the seed is not readable.
 */
export async function checkDraws(record, frames) {
  const gameDice = frames?.length ? seatedDice(record) : null;
  if (!gameDice) return null;
  let checked = 0;
  let own = 0;
  const mismatches = [];
  const expect = (drawn, wanted, what) => {
    checked += 1;
    if (drawn !== wanted) mismatches.push({ what, drawn, recorded: wanted });
  };
  // Appearances in one frame, drawn in order after its action; `items` is the board after all of them.
  const drawAppearances = (appeared, items) => {
    const later = appeared.filter((a) => a.item).map((a) => a.square);
    for (const a of appeared) {
      // The chance draws come from the stream of the last roll (the seed's before the first).
      const dice = gameDice.current;
      if (a.weather) {
        expect(dice.rollBelow(TRACK * 3), a.square * 3 + WEATHER_KINDS.indexOf(a.weather), 'weather');
      } else {
        later.splice(later.indexOf(a.square), 1);
        // The squares holding an item when this one was drawn: the board after the frame less
        // the items that appeared from this one on.
        const held = new Set(items.filter((sq) => sq !== a.square && !later.includes(sq)));
        const free = [];
        for (let sq = 0; sq < TRACK; sq += 1) if (!held.has(sq)) free.push(sq);
        expect(dice.rollBelow(free.length * 2), free.indexOf(a.square) * 2 + ITEM_KINDS.indexOf(a.item), 'item');
      }
    }
  };
  // The start: the first round's weather cell, then its item (no events: read off the view).
  const start = frames[0].view || {};
  const startItems = (start.items || []).map((i) => i.square);
  drawAppearances([
    ...(start.weather ? [{ weather: start.weather.kind, square: start.weather.square }] : []),
    ...(start.items || []).map((i) => ({ item: i.item, square: i.square })),
  ], startItems);
  for (const f of frames.slice(1)) {
    const appeared = [];
    for (const ev of f.events || []) {
      if (ev.kind === 'rolled' && ev.item !== 'six_die') {
        if (ev.entropy) own += 1;
        expect((await gameDice.beginRoll(rollerBytes(ev.entropy))).roll(), ev.value, 'roll');
      }
      if (ev.kind !== 'moved') continue;
      for (const e of ev.effects || []) {
        if (e.type === 'weather_appeared') appeared.push({ weather: e.weather, square: e.square });
        if (e.type === 'item_appeared') appeared.push({ item: e.item, square: e.square });
      }
    }
    drawAppearances(appeared, (f.view?.items || []).map((i) => i.square));
  }
  return { checked, own, mismatches, draws: true };
}

/**
 * The panel's roll check of a record (a promise): re-derived rolls (and, with the replay's
 * `frames`, the chance draws of an items or weather game), or why they are not (`skipped`:
 * only when the frames could not be had).
 */
export async function rollCheck(record, frames = null) {
  if (record.options?.items || record.options?.weather) {
    return (frames && await checkDraws(record, frames)) || { skipped: true };
  }
  return checkRolls(record);
}

/**
 * Whether each roll this tab made in the recorded game (the bytes `rememberOwnRoll` kept, by
 * the game's commitment) is in the record with those bytes: {sent, found}, or null when the tab
 * rolled none in it. A roll of the player that the hall stored with other bytes, or not at all,
 * leaves `found` below `sent`.
 */
export function ownRollsCheck(record) {
  const mine = ownRolls(record.commitment);
  if (!mine.length) return null;
  const recorded = new Set(record.actions.filter((a) => a.entropy).map((a) => String(a.entropy).toLowerCase()));
  return { sent: mine.length, found: mine.filter((hex) => recorded.has(hex)).length };
}

/** A button that copies `text` to the clipboard and says so. */
function copyButton(id, text, what) {
  return h('button', {
    class: 'btn btn-small btn-ghost copy-btn', type: 'button', id, title: t('copy_value', { what }), 'aria-label': t('copy_value', { what }),
    onclick: () => navigator.clipboard?.writeText(text)
      .then(() => toast(t('copied_value', { what })))
      .catch(() => toast(t('copy_failed'), 'error')),
  }, '📋');
}

/**
 * How anyone checks the dice without this page (docs/protocol.md §10): the commitment is
 * SHA-256 of the seed's 32 bytes; each roll k mixes the seed with the roller's own bytes, sent
 * with the roll (HMAC-SHA256(seed, k ‖ bytes) keys the ChaCha20 stream whose first die it is);
 * `hangar rules flight` re-derives one roll, and `hangar verify` replays a downloaded record
 * (GET /api/games/{id}) and checks them all.
 */
function howToCheck(seed, gameId) {
  const record = `${location.origin}/api/games/${gameId ?? '<id>'}`;
  const derive = JSON.stringify({ request: 'derive_roll', seed: seed || '<seed>', k: 0, entropy: '<bytes>' });
  return h('details', { class: 'fair-how', id: 'fair-how' },
    h('summary', {}, t('fair_how_title')),
    h('p', {}, t('fair_how_hash')),
    h('pre', { class: 'fair-cmd' }, `printf %s ${seed || '<seed>'} | xxd -r -p | sha256sum`),
    h('p', { id: 'fair-how-dice' }, t('fair_how_dice')),
    h('p', { id: 'fair-how-own' }, t('fair_how_own')),
    h('p', {}, t('fair_how_roll')),
    h('pre', { class: 'fair-cmd', id: 'fair-derive-cmd' }, `echo '${derive}' | hangar rules flight`),
    h('p', {}, t('fair_how_verify')),
    h('pre', { class: 'fair-cmd', id: 'fair-verify-cmd' }, `curl -s ${record} > game.json\nhangar verify game.json`));
}

/** The panel; `render` returns a fresh element and fills in the verdict when it is computed. */
export class FairDicePanel {
  constructor() {
    this.cache = new Map();
    /** Roll checks of finished games fetched by the panel, by game id (promises of
     * {check, own}: the rolls re-drawn, and this tab's own rolls found in the record). */
    this.records = new Map();
  }

  /**
   * The roll check of finished game `gameId`, fetched once (GET /api/games/{id}): the live
   * room has not seen every roll, the record has. A game with items or weather needs its
   * replay's frames too (what appeared where). With it, whether the player's own rolls are
   * in the record with the bytes this tab drew.
   */
  fetchRolls(gameId) {
    const json = (url) => apiFetch(url).then((res) => (res.ok ? res.json() : null));
    if (!this.records.has(gameId)) {
      this.records.set(gameId, json(`/api/games/${gameId}`)
        .then(async (record) => {
          if (!record) return null;
          const chance = record.options?.items || record.options?.weather;
          const frames = chance ? (await json(`/api/games/${gameId}/replay`))?.frames : null;
          return { check: await rollCheck(record, frames), own: ownRollsCheck(record) };
        })
        .catch(() => null));
    }
    return this.records.get(gameId);
  }

  /**
   * `rolls`: {checked, mismatches} from re-drawing the recorded rolls, or `{skipped: true}`
   * when the page cannot re-draw them; `gameId` names the record in the "how to check" note.
   * `fold`: the panel as a folded disclosure whose summary keeps the title and the verdict (a
   * game's side column, where chat must not sit below the proof); `open` unfolds it.
   */
  render(commitment, seed, rolls = null, { gameId = null, fold = false, open = false } = {}) {
    const verdict = h('span', { class: 'fair-verdict', id: 'fair-verdict' });
    const rollsLine = h('div', { class: 'fair-rolls-slot' });
    const showRolls = (check) => {
      if (check?.skipped) {
        rollsLine.replaceChildren(h('div', { class: 'fair-rolls skipped', id: 'fair-rolls', 'data-skipped': 'true' }, t('rolls_skipped')));
      } else if (check) {
        rollsLine.replaceChildren(h('div', {
          class: `fair-rolls ${check.mismatches.length ? 'bad' : 'ok'}`, id: 'fair-rolls', 'data-checked': check.checked, 'data-mismatches': check.mismatches.length, 'data-own': check.own ?? 0,
        }, check.mismatches.length ? t('rolls_bad', { n: check.mismatches.length }) : t(check.draws ? 'draws_ok' : 'rolls_ok', { n: check.checked })));
      }
    };
    const ownLine = h('div', { class: 'fair-own-slot' });
    const showOwn = (own) => {
      if (!own) return;
      const ok = own.found === own.sent;
      ownLine.replaceChildren(h('div', {
        class: `fair-own ${ok ? 'ok' : 'bad'}`, id: 'fair-own', 'data-sent': own.sent, 'data-found': own.found,
      }, ok ? t('own_rolls_ok', { n: own.sent }) : t('own_rolls_bad', { n: own.sent - own.found, of: own.sent })));
    };
    if (rolls) Promise.resolve(rolls).then(showRolls);
    else if (seed && gameId) {
      this.fetchRolls(gameId).then((fetched) => {
        showRolls(fetched?.check);
        showOwn(fetched?.own);
      });
    }
    const body = [
      h('div', { class: 'fair-row' }, h('span', {}, t('commitment')), h('code', { class: 'hash', id: 'commitment' }, commitment || '—'),
        commitment ? copyButton('copy-commitment', commitment, t('commitment')) : null),
      h('div', { class: 'fair-row' }, h('span', {}, t('seed')), seed ? h('code', { class: 'hash', id: 'seed' }, seed) : h('em', {}, t('seed_hidden')),
        seed ? copyButton('copy-seed', seed, t('seed')) : null),
      rollsLine,
      ownLine,
      howToCheck(seed, gameId)];
    const title = h('h2', {}, '🎲 ', t('fair_dice'));
    const el = fold
      ? h('details', { class: 'card fair-dice fair-fold', id: 'fair-dice', open }, h('summary', {}, title, ' ', verdict), body)
      : h('section', { class: 'card fair-dice', id: 'fair-dice' }, title, verdict, body);
    if (seed && commitment) {
      const key = `${seed}/${commitment}`;
      const show = (ok) => {
        verdict.textContent = ok ? t('verified') : t('not_verified');
        verdict.className = `fair-verdict ${ok ? 'ok' : 'bad'}`;
        verdict.dataset.verified = ok ? 'true' : 'false';
      };
      if (this.cache.has(key)) show(this.cache.get(key));
      else verifySeed(seed, commitment).then((ok) => { this.cache.set(key, ok); show(ok); });
    }
    return el;
  }
}
