-- Rooms waiting for their game (seats, bots, host, options), so that a restart keeps them
-- (P-DURABLE); a room's row goes when its game starts (the games table takes over) or when
-- the room closes.
CREATE TABLE waiting_rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    private BIGINT NOT NULL,
    options TEXT NOT NULL,
    host BIGINT,
    seats TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
