-- The action log in two parts (P-DURABLE, P-RECORD; see crates/hall/src/store/tails.rs).
-- The journal takes every action before its acknowledgement, numbered by the writer: keyed by
-- that number alone, a commit writes the journal's last page whatever games acted in it.
-- Chunks hold a game's actions by the few dozen (newline-separated JSON), keyed by game: a
-- finished game's log is its chunks; a running game's is its chunks and its journal rows
-- after them. Journal rows already in chunks are deleted from the front.
CREATE TABLE journal (
    seq INTEGER PRIMARY KEY,
    game_id BIGINT NOT NULL,
    idx BIGINT NOT NULL,
    data TEXT NOT NULL
);

CREATE TABLE action_chunks (
    game_id BIGINT NOT NULL REFERENCES games (id),
    first_idx BIGINT NOT NULL,
    length BIGINT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, first_idx)
);

-- Every game's log so far becomes one chunk.
INSERT INTO action_chunks (game_id, first_idx, length, data)
SELECT game_id, 0, COUNT(*), group_concat(data, char(10) ORDER BY idx)
FROM actions GROUP BY game_id;

DROP TABLE actions;
