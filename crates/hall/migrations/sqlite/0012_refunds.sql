-- `hangar admin ban --refund` (docs/security.md, "Moderation"): what a banned player's victims
-- were given back, one row per game and victim, written in the transaction of the ban. `score`
-- is the score the victim lost in that game (added back), `rating` the rating of `game` it lost
-- there (added back; 0 when it lost none); `banned_id` is the player whose ban refunded it. A
-- game's loss is refunded once: a second ban with --refund finds its row and refunds nothing.
CREATE TABLE refunds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id BIGINT NOT NULL REFERENCES games (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    banned_id BIGINT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    score BIGINT NOT NULL,
    rating REAL NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (game_id, player_id)
);
CREATE INDEX refunds_player ON refunds (player_id, game, created_at);
