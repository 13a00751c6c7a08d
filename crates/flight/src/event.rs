//! What happened: the events an action produces, in order, for clients to animate and for
//! logs to replay; and the sinks that receive them.

use serde::{Deserialize, Serialize};

use crate::board::{Progress, Square};
use crate::colour::Colour;
use crate::items::Item;
use crate::weather::Weather;

/// Why a plane went back to its hangar without being captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnReason {
    /// It landed on an enemy stack under `stacks = block` and went back with it (F-STACK-TRADITIONAL).
    Collision,
    /// Its player rolled a third 6 in a row (F-THREE-SIXES).
    ThreeSixes,
}

/// One thing that happened. Progress values are along the plane's own colour's route (see
/// [`Progress`]); `plane` is the index of the plane within its colour (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// `colour` rolled `value` (F-ROLL).
    Rolled {
        /// Who rolled.
        colour: Colour,
        /// The die, 1..=6.
        value: u8,
    },
    /// A plane left the hangar for its launch pad (F-TAKEOFF).
    TookOff {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
    },
    /// A plane walked forward pip by pip from `from` to `to` (F-WALK).
    Walked {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
        /// Start.
        from: Progress,
        /// End of the forward walk (the finish when it bounces, the stack when turned back).
        to: Progress,
    },
    /// A plane reached the finish and walked back the remaining pips (F-FINISH, bounce).
    Bounced {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
        /// Where it turned (the finish, 56).
        from: Progress,
        /// Where it stopped.
        to: Progress,
    },
    /// A plane reached an enemy stack it cannot pass and walked back (F-STACK-TRADITIONAL).
    TurnedBack {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
        /// The stack's square.
        from: Progress,
        /// Where it stopped.
        to: Progress,
    },
    /// A plane jumped to the next own-colour square (F-JUMP).
    Jumped {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
        /// From.
        from: Progress,
        /// To.
        to: Progress,
    },
    /// A plane flew the shortcut (F-FLY).
    Flew {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
        /// From (18).
        from: Progress,
        /// To (30).
        to: Progress,
    },
    /// A flying plane sent back an enemy plane on the crossing square (F-CROSS).
    CrossingCapture {
        /// The flying plane's colour.
        by: Colour,
        /// The captured plane's colour.
        colour: Colour,
        /// The captured plane.
        plane: u8,
    },
    /// An enemy stack on the crossing square stopped the flight (F-CROSS, F-D-CROSS).
    CrossingBlocked {
        /// Whose plane.
        colour: Colour,
        /// Which plane (stays on 18).
        plane: u8,
    },
    /// A plane coming to rest sent an enemy plane back to its hangar (F-CAPTURE).
    Captured {
        /// The capturing colour.
        by: Colour,
        /// The captured plane's colour.
        colour: Colour,
        /// The captured plane.
        plane: u8,
        /// Where the captured plane stood (its own progress).
        from: Progress,
    },
    /// A plane went back to its hangar for another reason than a capture.
    Returned {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
        /// Where it stood.
        from: Progress,
        /// Why.
        reason: ReturnReason,
    },
    /// A plane came to rest with `height − 1` own or partner planes: a stack (F-STACK).
    Stacked {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
        /// Where.
        at: Progress,
        /// Planes of the side now on the square.
        height: u8,
    },
    /// A plane rolled a 6 past an enemy stack and sits on top of it (F-STACK-TRADITIONAL,
    /// F-D-SIT); it is the only plane that moves on the next roll.
    SatOnStack {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
        /// Where.
        at: Progress,
    },
    /// The plane sitting on a stack is moved automatically by this roll (F-D-SIT).
    ForcedMove {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
    },
    /// A plane reached the finish and took its flag (F-FINISH).
    Finished {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
    },
    /// A third 6 in a row: the penalty replaces the move (F-THREE-SIXES); `Returned` events
    /// follow for each plane sent back.
    ThreeSixes {
        /// Who rolled.
        colour: Colour,
    },
    /// The roll had no legal move and is spent (F-ROLL).
    RollSpent {
        /// Who rolled.
        colour: Colour,
        /// The roll.
        value: u8,
    },
    /// The 6 earns another roll (F-BONUS).
    BonusRoll {
        /// Who rolls again.
        colour: Colour,
    },
    /// It is now `colour`'s turn.
    Turn {
        /// Who rolls next.
        colour: Colour,
    },
    /// All of `colour`'s planes have finished while the game goes on (F-D-DONE); under
    /// `play-on` it takes `rank` at once.
    PlayerDone {
        /// Who.
        colour: Colour,
        /// The rank taken, under play-on.
        rank: Option<u8>,
    },
    /// `colour` resigned or left: its planes leave the board (platform P-RESIGN).
    Resigned {
        /// Who.
        colour: Colour,
    },
    /// An item appeared on a track square (F-ITEM-SPAWN).
    ItemAppeared {
        /// The kind.
        item: Item,
        /// The track square.
        square: Square,
    },
    /// A plane came to rest on an item and took it (F-ITEM-PICK); `kept` is false when the
    /// bar was full and the item is lost.
    ItemPicked {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
        /// The kind.
        item: Item,
        /// Where (the plane's progress).
        at: Progress,
        /// Whether it went into the bar (false: the bar held three, the item is lost).
        kept: bool,
    },
    /// The player on turn used an item before rolling (F-ITEM-USE).
    ItemUsed {
        /// Who.
        colour: Colour,
        /// The kind.
        item: Item,
    },
    /// A weather cell appeared (F-WEATHER).
    WeatherAppeared {
        /// The kind.
        weather: Weather,
        /// The track square.
        square: Square,
    },
    /// The weather cell left after its three rounds (F-WEATHER).
    WeatherCleared {
        /// The kind.
        weather: Weather,
        /// The track square.
        square: Square,
    },
    /// A walking plane entered the weather cell and felt it (F-WEATHER); what follows
    /// (`walked` on, `blown_back`, or nothing for a storm) says how.
    WeatherFelt {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
        /// The kind.
        weather: Weather,
        /// The cell (the plane's progress).
        at: Progress,
    },
    /// A headwind blew the plane back behind the cell: the walk ends 2 pips short (F-WEATHER).
    BlownBack {
        /// Whose plane.
        colour: Colour,
        /// Which plane.
        plane: u8,
        /// The cell.
        from: Progress,
        /// Where it stopped.
        to: Progress,
    },
    /// The game is over (F-WIN); final ranks indexed red, yellow, blue, green (F-RANK),
    /// `None` for empty seats.
    GameOver {
        /// Ranks by colour index.
        ranks: [Option<u8>; 4],
    },
}

/// Where events go. The engine is generic over the sink so that simulations pay nothing
/// ([`NoEvents`]) while the hall collects them (`Vec<Event>`).
pub trait EventSink {
    /// Whether this sink keeps events; when `false` the engine may skip producing them.
    const ENABLED: bool = true;

    /// Receives the next event.
    fn push(&mut self, event: Event);
}

impl EventSink for Vec<Event> {
    #[inline]
    fn push(&mut self, event: Event) {
        Vec::push(self, event);
    }
}

/// A sink that drops every event: the fast path for simulations.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoEvents;

impl EventSink for NoEvents {
    const ENABLED: bool = false;

    #[inline(always)]
    fn push(&mut self, _event: Event) {}
}
