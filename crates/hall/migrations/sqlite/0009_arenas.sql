-- Arena tournaments (P-ARENA): each arena's settings and its whole state (players, points,
-- streaks, recent results, the games it seated) as JSON, rewritten as it changes, so that an
-- arena survives a restart with its standings. `finished` marks the final standings.
CREATE TABLE arenas (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    turn_seconds INTEGER NOT NULL,
    state TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE INDEX arenas_by_end ON arenas (ends_at);
