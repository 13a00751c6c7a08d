-- Players: guests and accounts (P-GUEST, P-ACCOUNT, P-SCORE).
CREATE TABLE players (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT UNIQUE,
    guest BIGINT NOT NULL,
    password_hash TEXT,
    score BIGINT NOT NULL DEFAULT 1000,
    created_at BIGINT NOT NULL
);
CREATE INDEX players_score ON players (score DESC);

-- Session tokens, stored as SHA-256 hex only.
CREATE TABLE tokens (
    hash TEXT PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players (id),
    created_at BIGINT NOT NULL
);

-- Games: settings, seats, seed and result (P-RECORD, P-DURABLE).
CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
    room TEXT NOT NULL,
    game TEXT NOT NULL,
    private BIGINT NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed TEXT NOT NULL,
    commitment TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    started_at BIGINT NOT NULL,
    finished_at BIGINT
);
CREATE INDEX games_status ON games (status);

-- The action log of every game, appended before each acknowledgement (P-DURABLE).
CREATE TABLE actions (
    game_id BIGINT NOT NULL REFERENCES games (id),
    idx BIGINT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);

-- Who played which finished game and how it scored, for "my games" (P-RECORD).
CREATE TABLE game_players (
    game_id BIGINT NOT NULL REFERENCES games (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    seat BIGINT NOT NULL,
    delta BIGINT NOT NULL,
    rank BIGINT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX game_players_player ON game_players (player_id, game_id DESC);
