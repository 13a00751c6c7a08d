-- P-DICE-STATS: the faces each seat rolled in a finished flight game, counted once from its
-- log in the transaction that finishes it (games finished before this table are counted when
-- the hall opens the database), so that the dice statistics are a sum over rows instead of a
-- read of every game's log. `own_N`: the seat's own rolls that showed N (auto-play's for it
-- left out); `all_N`: every roll of the seat that showed N. A seat that rolled nothing has no
-- row.
CREATE TABLE dice_faces (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seat BIGINT NOT NULL,
    own_1 BIGINT NOT NULL,
    own_2 BIGINT NOT NULL,
    own_3 BIGINT NOT NULL,
    own_4 BIGINT NOT NULL,
    own_5 BIGINT NOT NULL,
    own_6 BIGINT NOT NULL,
    all_1 BIGINT NOT NULL,
    all_2 BIGINT NOT NULL,
    all_3 BIGINT NOT NULL,
    all_4 BIGINT NOT NULL,
    all_5 BIGINT NOT NULL,
    all_6 BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
