-- Accounts are unique by what their names look like (P-ACCOUNT): the UTS #39 confusable
-- skeleton of the name (`hangar_hall::names::skeleton_key`). Accounts made before this
-- migration have none; the hall fills them in at start, oldest first, and leaves an account
-- whose skeleton an older one holds without (kept and flagged: `hangar admin name-collisions`
-- lists them).
ALTER TABLE players ADD COLUMN skeleton TEXT;
CREATE UNIQUE INDEX players_skeleton ON players (skeleton);
