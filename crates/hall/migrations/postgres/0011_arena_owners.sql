-- Arenas in a cluster (P-ARENA): each arena runs on one node, as a room does, recorded here and
-- guarded by the node's lease; when the lease runs out, the node that takes over the rooms
-- takes the arenas too (in the same transaction) and rebuilds them from `arenas.state`.
CREATE TABLE arena_owners (
    arena BIGINT PRIMARY KEY REFERENCES arenas (id),
    node TEXT NOT NULL
);
CREATE INDEX arena_owners_by_node ON arena_owners (node);
-- A scheduled arena is made once, however many nodes make it at the same moment.
CREATE UNIQUE INDEX arenas_once ON arenas (name, game, starts_at);
