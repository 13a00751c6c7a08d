-- P-ABORT, P-ARENA: the pairs of people of each game, written in the transaction that decides,
-- when the game starts, whether it counts. `scope` is '' for the 24-hour cap of the hall and
-- 'arena:ID' for an arena's own cap; `counted` is 1 for a game that counts toward the cap (a
-- scored game), 0 for one the cap made a practice game. `low` < `high` are the two players'
-- ids. Games started at once between the same pair are decided one after the other.
CREATE TABLE pair_games (
    game_id BIGINT NOT NULL REFERENCES games (id),
    scope TEXT NOT NULL,
    low BIGINT NOT NULL,
    high BIGINT NOT NULL,
    counted BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, low, high)
);
CREATE INDEX pair_games_pair ON pair_games (scope, low, high, started_at);
