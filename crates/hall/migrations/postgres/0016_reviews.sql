-- P-REVIEW: a finished game's review, kept with its record once computed, so that it is
-- served again without computing (docs/review.md, "The hall"). `body` is the review's JSON
-- exactly as `hangar review --json` gives it for the game's record (format `format`, searched
-- with `nodes` nodes per Jungle position). One row per game: in a cluster the first node to
-- store one keeps it.
CREATE TABLE reviews (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    format TEXT NOT NULL,
    nodes BIGINT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
