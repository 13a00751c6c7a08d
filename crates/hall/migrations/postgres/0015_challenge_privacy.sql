-- Who may challenge a player, and whom a player blocked (P-CHALLENGE). `challenges` is
-- 'everyone', 'registered' or 'nobody'; a player without a row takes challenges from everyone.
-- A block is one row per blocker and blocked player: no challenges either way, the blocked
-- player's chat not shown to the blocker, never seated together by quick match or an arena.
CREATE TABLE challenge_settings (
    player_id BIGINT PRIMARY KEY REFERENCES players (id),
    challenges TEXT NOT NULL
);
CREATE TABLE blocks (
    player_id BIGINT NOT NULL REFERENCES players (id),
    blocked_id BIGINT NOT NULL REFERENCES players (id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id);
