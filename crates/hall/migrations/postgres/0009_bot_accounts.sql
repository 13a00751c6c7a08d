-- Bot accounts (P-BOT-ACCOUNT): a registered player with no finished game may make its
-- account a program's, for good. Marked wherever the player appears; leaderboards can leave
-- them out.
ALTER TABLE players ADD COLUMN bot BIGINT NOT NULL DEFAULT 0;
