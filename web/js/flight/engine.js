// Placeholder until the replay engine lands.
export function replayFlight() {
  throw new Error('flight replay engine not available');
}
