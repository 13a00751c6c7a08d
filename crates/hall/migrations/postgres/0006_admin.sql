-- Administration through the database (`hangar admin`): banned players, whom every sign-in
-- path refuses, and the orders every running node polls and applies (close a banned or
-- signed-out player's connections, close a room on the node that runs it).
CREATE TABLE bans (
    player_id BIGINT PRIMARY KEY REFERENCES players (id),
    reason TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE admin_orders (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    player_id BIGINT,
    room TEXT,
    created_at BIGINT NOT NULL,
    applied_by TEXT,
    applied_at BIGINT
);
