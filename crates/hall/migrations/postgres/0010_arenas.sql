-- Arena tournaments (P-ARENA): each arena's settings and its whole state (players, points,
-- streaks, recent results, the games it seated) as JSON, rewritten as it changes, so that an
-- arena survives a restart with its standings. `finished` marks the final standings.
CREATE TABLE arenas (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    turn_seconds BIGINT NOT NULL,
    state TEXT NOT NULL,
    finished BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX arenas_by_end ON arenas (ends_at);
