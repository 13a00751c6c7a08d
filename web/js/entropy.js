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
