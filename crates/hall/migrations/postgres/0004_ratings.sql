-- Skill ratings per game (P-RATING) and their history (P-PROFILE), written in the transaction
-- that stores a scored game's result.
CREATE TABLE ratings (
    player_id BIGINT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (player_id, game)
);
CREATE INDEX ratings_game ON ratings (game, rating DESC);

CREATE TABLE rating_history (
    game_id BIGINT NOT NULL REFERENCES games (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_history_player ON rating_history (player_id, game, game_id);

-- A practice game (a bot sat in it, P-PRACTICE) is listed with its players but scored for no one;
-- `won`: ranked first while someone ranked lower (a draw is no win).
ALTER TABLE game_players ADD COLUMN practice BIGINT NOT NULL DEFAULT 0;
ALTER TABLE game_players ADD COLUMN won BIGINT NOT NULL DEFAULT 0;
