-- Cluster mode (several nodes on one PostgreSQL database, with NATS between them): the nodes
-- alive, each with a lease it renews, and which node owns each open room. A node's writes are
-- accepted only while its row is there and its lease runs (fencing); a node whose lease ran out
-- is removed by the node that takes its rooms over. Each node numbers its journal rows in a
-- range of its own, from `seq_base`, so that nodes never share a sequence number. A single node
-- never writes these tables.
CREATE TABLE cluster_nodes (
    node TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    seq_base BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE SEQUENCE cluster_slots;

CREATE TABLE room_owners (
    code TEXT PRIMARY KEY,
    node TEXT NOT NULL
);
CREATE INDEX room_owners_node ON room_owners (node);
