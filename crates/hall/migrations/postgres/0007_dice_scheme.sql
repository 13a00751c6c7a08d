-- The construction each game's dice follow (P-FAIR-DICE, protocol.md §10): games stored before
-- per-roll dice drew every roll from the seed's one stream, and keep verifying that way.
ALTER TABLE games ADD COLUMN dice TEXT NOT NULL DEFAULT 'seed_stream';
