//! [`Act`]: something a seat did, typed once where the room reads the command (a jungle move
//! as a [`Move`], an item as an [`Item`]) and kept so through the game, the action log and the
//! record, so that nothing downstream parses text again.
//!
//! Its JSON (records, P-RECORD, and the action logs written before stored lines) is the
//! same as when the act carried text: `{"kind": "move", "plane": 2}`,
//! `{"kind": "move", "move": "e3e4"}`, `{"kind": "use_item", "item": "six_die"}`, …; the
//! stored lines (`log_line.rs`) keep their bytes too.

use std::fmt;

use hangar_flight::{Item, ItemEffect, UnknownItem};
use hangar_jungle::Move;
use hangar_protocol::{ErrorCode, GameKind, ProtoError};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Something a seat did, as written in the action log and the record (P-RECORD).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// Flight: roll the die (the server draws it).
    Roll,
    /// Flight: move the plane of this index.
    Plane(u8),
    /// Jungle: move a piece.
    Step(Move),
    /// Flight: use an item (F-ITEM-USE).
    UseItem(Item),
    /// Auto-play switched on or off (P-AUTOPLAY).
    Autoplay {
        /// Whether auto-play is on after this.
        on: bool,
    },
    /// The seat's timer ran out (jungle: the move passes, P-JUNGLE-TIMEOUT).
    Timeout,
    /// Resignation (P-RESIGN).
    Resign,
    /// Left a running game on purpose (P-ESCAPE).
    Escape,
    /// Lost the connection (counted in jungle, P-JUNGLE-DISCONNECT).
    Disconnect,
    /// Gone for 3 minutes (P-DISCONNECT).
    Abandon,
    /// Jungle: a draw offer.
    DrawOffer,
    /// Jungle: the answer to a draw offer.
    DrawAnswer {
        /// Whether the offer was accepted (the game is then drawn).
        accept: bool,
    },
}

/// A flight game's refusal of a move that names no plane.
pub(crate) const FLIGHT_MOVE: &str = "a flight move names a \"plane\"";

/// A jungle game's refusal of anything but a move.
pub(crate) const JUNGLE_MOVE: &str = "a jungle move is {\"move\": \"e3e4\"}";

fn illegal(message: impl Into<String>) -> ProtoError {
    ProtoError::new(ErrorCode::Illegal, message)
}

impl Act {
    /// A `move` command of a `game` room as an act: a flight plane's index or a jungle move
    /// in notation (`e3e4`). What the game cannot take is refused as `illegal`, in the words
    /// the game used when it read the text itself.
    pub fn of_move(
        game: GameKind,
        plane: Option<usize>,
        notation: Option<&str>,
    ) -> Result<Act, ProtoError> {
        match (game, plane, notation) {
            (GameKind::Flight, Some(plane), None) => u8::try_from(plane)
                .map(Act::Plane)
                .map_err(|_| illegal("no such plane")),
            (GameKind::Flight, ..) => Err(illegal(FLIGHT_MOVE)),
            (GameKind::Jungle, None, Some(text)) => text
                .parse()
                .map(Act::Step)
                .map_err(|e| illegal(format!("{text}: {e}"))),
            (GameKind::Jungle, ..) => Err(illegal(JUNGLE_MOVE)),
        }
    }

    /// The item a `use_item` command names, read whatever the room's game, so that the room
    /// can ask whether its use [`Act::needs_entropy`] before the game refuses or takes it: the
    /// act, or `illegal` for a name that is no item.
    pub fn item_named(name: &str) -> Result<Act, ProtoError> {
        name.parse()
            .map(Act::UseItem)
            .map_err(|e: UnknownItem| illegal(e.to_string()))
    }

    /// A `use_item` command of a `game` room as an act, its item already read by
    /// [`Act::item_named`]: an unknown item is refused as `illegal`, and so is any item in a
    /// jungle game.
    pub fn of_item(game: GameKind, item: Result<Act, ProtoError>) -> Result<Act, ProtoError> {
        match game {
            GameKind::Flight => item,
            GameKind::Jungle => Err(illegal(JUNGLE_MOVE)),
        }
    }

    /// Whether a person's act throws a die and so carries the roller's bytes (P-FAIR-DICE): a
    /// roll, and an item whose use throws at once (a booster, F-ITEM-USE); a six die throws
    /// none.
    pub const fn needs_entropy(self) -> bool {
        match self {
            Act::Roll => true,
            Act::UseItem(item) => matches!(item.effect(), ItemEffect::MultiplyPips { .. }),
            _ => false,
        }
    }

    /// Whether this is a move of the game itself (roll, move, item), which only the seat on
    /// turn makes, rather than a change of the seat (auto-play, leaving, a draw offer).
    pub const fn is_play(self) -> bool {
        matches!(
            self,
            Act::Roll | Act::Plane(_) | Act::Step(_) | Act::UseItem(_)
        )
    }

    /// The act's `kind` as records write it (`roll`, `move`, `use_item`, `autoplay`, …).
    pub const fn kind(self) -> &'static str {
        match self {
            Act::Roll => "roll",
            Act::Plane(_) | Act::Step(_) => "move",
            Act::UseItem(_) => "use_item",
            Act::Autoplay { .. } => "autoplay",
            Act::Timeout => "timeout",
            Act::Resign => "resign",
            Act::Escape => "escape",
            Act::Disconnect => "disconnect",
            Act::Abandon => "abandon",
            Act::DrawOffer => "draw_offer",
            Act::DrawAnswer { .. } => "draw_answer",
        }
    }
}

/// A jungle move's notation written on the stack: storing or recording a move allocates
/// nothing to name it.
pub(crate) struct Notation {
    bytes: [u8; 8],
    len: usize,
}

impl Notation {
    /// The notation of `m` (`e3e4`).
    pub(crate) fn of(m: Move) -> Notation {
        let mut notation = Notation {
            bytes: [0; 8],
            len: 0,
        };
        fmt::Write::write_fmt(&mut notation, format_args!("{m}"))
            .expect("a move's notation is four characters");
        notation
    }

    /// The text.
    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).expect("written from whole strings")
    }
}

impl fmt::Write for Notation {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.bytes
            .get_mut(self.len..end)
            .ok_or(fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// [`Act`] as JSON writes it: the shape of the acts that carried text (one `move` kind with
/// a `plane` or a `move`), field for field.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum ActOut<'a> {
    Roll,
    Move {
        #[serde(skip_serializing_if = "Option::is_none")]
        plane: Option<u8>,
        #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
        notation: Option<&'a str>,
    },
    UseItem {
        item: &'static str,
    },
    Autoplay {
        on: bool,
    },
    Timeout,
    Resign,
    Escape,
    Disconnect,
    Abandon,
    DrawOffer,
    DrawAnswer {
        accept: bool,
    },
}

/// [`Act`] as JSON holds it, read as the acts that carried text were, then typed
/// ([`Act::try_from`]).
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum ActIn {
    Roll,
    Move {
        #[serde(default)]
        plane: Option<usize>,
        #[serde(default, rename = "move")]
        notation: Option<String>,
    },
    UseItem {
        item: String,
    },
    Autoplay {
        on: bool,
    },
    Timeout,
    Resign,
    Escape,
    Disconnect,
    Abandon,
    DrawOffer,
    DrawAnswer {
        accept: bool,
    },
}

impl Serialize for Act {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let notation = match *self {
            Act::Step(m) => Some(Notation::of(m)),
            _ => None,
        };
        let out = match *self {
            Act::Roll => ActOut::Roll,
            Act::Plane(plane) => ActOut::Move {
                plane: Some(plane),
                notation: None,
            },
            Act::Step(_) => ActOut::Move {
                plane: None,
                notation: notation.as_ref().map(Notation::as_str),
            },
            Act::UseItem(item) => ActOut::UseItem { item: item.name() },
            Act::Autoplay { on } => ActOut::Autoplay { on },
            Act::Timeout => ActOut::Timeout,
            Act::Resign => ActOut::Resign,
            Act::Escape => ActOut::Escape,
            Act::Disconnect => ActOut::Disconnect,
            Act::Abandon => ActOut::Abandon,
            Act::DrawOffer => ActOut::DrawOffer,
            Act::DrawAnswer { accept } => ActOut::DrawAnswer { accept },
        };
        out.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Act {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let stored = ActIn::deserialize(deserializer)?;
        Act::try_from(stored).map_err(serde::de::Error::custom)
    }
}

/// Why a stored act is no act: a move that names neither a plane nor a move or both, a
/// plane index out of range, a notation that is no move, an unknown item. The hall stores
/// only acts it played, so this is a damaged or forged log.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadAct(String);

impl Act {
    /// A move as stored: a plane index or a notation, exactly one of them.
    pub(crate) fn stored_move(plane: Option<usize>, notation: Option<&str>) -> Result<Act, BadAct> {
        match (plane, notation) {
            (Some(plane), None) => u8::try_from(plane)
                .map(Act::Plane)
                .map_err(|_| BadAct(format!("no plane {plane}"))),
            (None, Some(text)) => text
                .parse()
                .map(Act::Step)
                .map_err(|e| BadAct(format!("{text}: {e}"))),
            _ => Err(BadAct(
                "a stored move names a plane or a move, one of them".to_owned(),
            )),
        }
    }

    /// An item as stored: its wire name.
    pub(crate) fn stored_item(name: &str) -> Result<Act, BadAct> {
        name.parse()
            .map(Act::UseItem)
            .map_err(|e: UnknownItem| BadAct(e.to_string()))
    }
}

impl TryFrom<ActIn> for Act {
    type Error = BadAct;

    fn try_from(stored: ActIn) -> Result<Self, Self::Error> {
        Ok(match stored {
            ActIn::Roll => Act::Roll,
            ActIn::Move { plane, notation } => Act::stored_move(plane, notation.as_deref())?,
            ActIn::UseItem { item } => Act::stored_item(&item)?,
            ActIn::Autoplay { on } => Act::Autoplay { on },
            ActIn::Timeout => Act::Timeout,
            ActIn::Resign => Act::Resign,
            ActIn::Escape => Act::Escape,
            ActIn::Disconnect => Act::Disconnect,
            ActIn::Abandon => Act::Abandon,
            ActIn::DrawOffer => Act::DrawOffer,
            ActIn::DrawAnswer { accept } => Act::DrawAnswer { accept },
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn step(text: &str) -> Act {
        Act::Step(text.parse().expect("a move"))
    }

    /// Every act with its JSON as the hall wrote it when acts carried text.
    fn every_act_and_its_json() -> Vec<(Act, serde_json::Value)> {
        vec![
            (Act::Roll, json!({"kind": "roll"})),
            (Act::Plane(3), json!({"kind": "move", "plane": 3})),
            (step("e3e4"), json!({"kind": "move", "move": "e3e4"})),
            (
                Act::UseItem(Item::SixDie),
                json!({"kind": "use_item", "item": "six_die"}),
            ),
            (
                Act::UseItem(Item::Booster),
                json!({"kind": "use_item", "item": "booster"}),
            ),
            (
                Act::Autoplay { on: true },
                json!({"kind": "autoplay", "on": true}),
            ),
            (Act::Timeout, json!({"kind": "timeout"})),
            (Act::Resign, json!({"kind": "resign"})),
            (Act::Escape, json!({"kind": "escape"})),
            (Act::Disconnect, json!({"kind": "disconnect"})),
            (Act::Abandon, json!({"kind": "abandon"})),
            (Act::DrawOffer, json!({"kind": "draw_offer"})),
            (
                Act::DrawAnswer { accept: false },
                json!({"kind": "draw_answer", "accept": false}),
            ),
        ]
    }

    #[test]
    fn p_record_an_act_is_written_and_read_as_the_text_acts_were() {
        for (act, written) in every_act_and_its_json() {
            let json = serde_json::to_value(act).expect("serialises");
            assert_eq!(json, written, "{act:?}");
            assert_eq!(json["kind"], act.kind(), "{act:?}");
            let read: Act = serde_json::from_value(written).expect("reads");
            assert_eq!(read, act);
        }
    }

    #[test]
    fn a_stored_act_that_is_no_act_is_refused() {
        for stored in [
            json!({"kind": "move"}),
            json!({"kind": "move", "plane": 1, "move": "e3e4"}),
            json!({"kind": "move", "plane": 256}),
            json!({"kind": "move", "move": "e3"}),
            json!({"kind": "use_item", "item": "umbrella"}),
        ] {
            assert!(
                serde_json::from_value::<Act>(stored.clone()).is_err(),
                "{stored}"
            );
        }
    }

    #[test]
    fn a_command_is_typed_with_the_words_of_the_game() {
        let refused = |r: Result<Act, ProtoError>| {
            let e = r.expect_err("refused");
            assert_eq!(e.code, ErrorCode::Illegal);
            e.message
        };
        assert_eq!(
            Act::of_move(GameKind::Flight, Some(2), None),
            Ok(Act::Plane(2))
        );
        assert_eq!(
            refused(Act::of_move(GameKind::Flight, Some(300), None)),
            "no such plane"
        );
        assert_eq!(
            refused(Act::of_move(GameKind::Flight, None, Some("e3e4"))),
            FLIGHT_MOVE
        );
        assert_eq!(
            Act::of_move(GameKind::Jungle, None, Some("e3e4")),
            Ok(step("e3e4"))
        );
        assert_eq!(
            refused(Act::of_move(GameKind::Jungle, None, Some("zz"))),
            "zz: a move is two squares like `e3e4`, not \"zz\""
        );
        assert_eq!(
            refused(Act::of_move(GameKind::Jungle, Some(0), None)),
            JUNGLE_MOVE
        );
        assert_eq!(
            Act::of_item(GameKind::Flight, Act::item_named("booster")),
            Ok(Act::UseItem(Item::Booster))
        );
        assert_eq!(
            refused(Act::of_item(GameKind::Flight, Act::item_named("umbrella"))),
            "unknown item \"umbrella\" (expected six_die or booster)"
        );
        assert_eq!(
            refused(Act::of_item(GameKind::Jungle, Act::item_named("booster"))),
            JUNGLE_MOVE
        );
    }

    #[test]
    fn p_fair_dice_a_roll_and_a_boosters_throw_need_the_rollers_bytes() {
        assert!(Act::Roll.needs_entropy());
        assert_eq!(Act::item_named("booster").map(Act::needs_entropy), Ok(true));
        // A six die is set, not thrown: no bytes.
        assert_eq!(
            Act::item_named("six_die").map(Act::needs_entropy),
            Ok(false)
        );
        for act in [
            Act::Plane(0),
            step("e3e4"),
            Act::Timeout,
            Act::Autoplay { on: true },
            Act::DrawOffer,
        ] {
            assert!(!act.needs_entropy(), "{act:?}");
        }
    }

    #[test]
    fn a_notation_is_the_moves_text() {
        let m: Move = "g9g8".parse().expect("a move");
        assert_eq!(Notation::of(m).as_str(), "g9g8");
        assert_eq!(Notation::of(m).as_str(), m.to_string());
    }
}
