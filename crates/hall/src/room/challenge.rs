//! The room of an accepted challenge (P-CHALLENGE): private, with the players' seats held for
//! them and the hall's bots seated before anyone comes in.

use std::sync::Arc;

use serde_json::Value;

use super::{Room, RoomHandle, RoomHost, Seat, spawn, storage_available};
use crate::accounts::Player;
use hangar_protocol::{BotLevel, GameKind, ProtoError, RoomEvent};

/// Opens a private room of `game` with `options`, `players` seated (seat, player; the first
/// is the host) and the hall's `bots` (seat, level) in their seats, ready. The players then
/// come in with `join_room` to their seats, as after a reconnection, and within the same
/// grace: a seat nobody came back to is freed, and a room nobody came to closes (a player's
/// seats in rooms count against the seat limit).
pub fn open_challenge_room(
    hall: Arc<dyn RoomHost>,
    game: GameKind,
    options: &Value,
    players: Vec<(usize, Player)>,
    bots: Vec<(usize, BotLevel)>,
) -> Result<RoomHandle, ProtoError> {
    storage_available(hall.store())?;
    let (options, seat_count, turn_seconds) =
        hangar_games::check_options(game, options, hall.config().turn_seconds)?;
    let code = hall.new_code();
    let mut room = Room::new(hall, code, game, true, options, seat_count, turn_seconds);
    room.ready_on_arrival = true;
    let grace = room.hall.config().reconnect_grace;
    for (seat, player) in players {
        room.seat_player(seat, player);
        room.seats[seat].hold(grace);
    }
    for (seat, bot) in bots {
        room.seats[seat] = Seat {
            bot: Some(bot),
            ready: true,
            ..Seat::default()
        };
        room.emit(RoomEvent::BotAdded { seat, bot });
    }
    Ok(spawn(room))
}
