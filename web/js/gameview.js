// The game views the server sends (docs/protocol.md §6), brought to the one shape the
// views draw, for the room and the replay alike.

/**
 * Bring a game view to one shape: planes in the hangar are `null` (the engine may write -1).
 */
export function normalizeGame(game) {
  if (game && game.kind === 'flight' && Array.isArray(game.planes)) {
    game.planes = game.planes.map((list) => (list || []).map((p) => (p === null || p === undefined || p < 0 ? null : p)));
  }
  return game;
}
