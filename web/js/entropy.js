// The roller's bytes (P-FAIR-DICE): 16 fresh random bytes the page draws just before it sends
// a `roll`, as hex, so that no one, the hall included, knows the roll before the player acts.
// A command sent again under the same id must carry the same bytes: the caller keeps them
// with the command.

/** The fewest and the most bytes a `roll` accepts (docs/protocol.md §8). */
export const MIN_ENTROPY_BYTES = 16;
export const MAX_ENTROPY_BYTES = 64;

/** Fresh bytes from the browser's cryptographic generator, as lower-case hex (32 digits). */
export function drawEntropy(bytes = MIN_ENTROPY_BYTES) {
  const out = new Uint8Array(bytes);
  crypto.getRandomValues(out);
  return [...out].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The bytes of an `entropy` hex text (either case), or null when it is not 16–64 bytes of hex:
 * the same rule the server applies to a `roll`.
 */
export function parseEntropy(hex) {
  const text = String(hex ?? '');
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return null;
  const length = text.length / 2;
  if (length < MIN_ENTROPY_BYTES || length > MAX_ENTROPY_BYTES) return null;
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i += 1) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Where the tab keeps the bytes of its own acknowledged rolls, by game (its commitment). */
const OWN_ROLLS_KEY = 'hangar.own-rolls';
/** The games whose bytes are kept: the last few are all a tab shows a result of. */
const OWN_ROLLS_GAMES = 8;

function ownRollsByGame() {
  try {
    return JSON.parse(sessionStorage.getItem(OWN_ROLLS_KEY) || '{}') || {};
  } catch {
    return {};
  }
}

/**
 * Notes `hex`, the bytes this browser drew for a roll (or a booster's throw) that the hall
 * acknowledged in the game of `commitment`, so that after the game the page can show that each
 * of the player's own rolls is in the record with these bytes. Kept for the tab's session: a
 * reload mid-game keeps them.
 */
export function rememberOwnRoll(commitment, hex) {
  if (!commitment || !hex) return;
  const games = ownRollsByGame();
  const rolls = games[commitment] || [];
  delete games[commitment]; // re-inserted last: the newest game is kept longest
  games[commitment] = [...rolls, hex.toLowerCase()];
  const keys = Object.keys(games);
  for (const old of keys.slice(0, Math.max(0, keys.length - OWN_ROLLS_GAMES))) delete games[old];
  try {
    sessionStorage.setItem(OWN_ROLLS_KEY, JSON.stringify(games));
  } catch {
    // Storage full or refused: the check after the game then covers fewer rolls.
  }
}

/** The bytes of this tab's own acknowledged rolls in the game of `commitment` (hex). */
export function ownRolls(commitment) {
  return ownRollsByGame()[commitment] || [];
}
