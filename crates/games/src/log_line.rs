//! A [`LoggedAct`] as the hall stores it: one line of the action log (a journal row, a line of
//! a chunk).
//!
//! Why not JSON. An action is written before its acknowledgement, and the bytes of its row
//! are what its write costs: the pages each commit adds to the write-ahead log and each
//! checkpoint copies back (docs/benchmarks.md, "The hall on one node"). As JSON a roll with
//! the roller's 16 bytes and its command is about 110 bytes, mostly names and hex. A line is
//! instead postcard — a format byte, then the fields in order, integers as varints, the
//! roller's bytes raw — written as base64 without padding, so that it fits the text columns
//! of both databases and the newline-separated chunks: 52 characters for that roll.
//!
//! Lines stored as JSON (the logs written before) read as they always did: a JSON line
//! starts with `{`, which base64 never holds. Records (P-RECORD) stay JSON; only storage
//! uses lines.

use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use hangar_dice::{Entropy, EntropyError};
use serde::{Deserialize, Serialize};

use crate::act::Notation;
use crate::{Act, BadAct, CommandRef, LoggedAct};

/// The format byte that starts every line; a line of another format is refused, not misread.
const FORMAT: u8 = 1;

/// Why a stored line is no [`LoggedAct`].
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// A JSON line (the older form) that is not a logged act.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// Not base64.
    #[error("not base64: {0}")]
    Base64(#[from] base64::DecodeError),
    /// Not the fields of a logged act.
    #[error("not a stored action: {0}")]
    Fields(#[from] postcard::Error),
    /// Bytes after the fields: not a line this build wrote.
    #[error("{0} bytes after a stored action")]
    Trailing(usize),
    /// Written in a format this build does not know.
    #[error("a stored action of format {0}; this build reads format {FORMAT}")]
    Format(u8),
    /// The roller's bytes are too few or too many.
    #[error("the roller's bytes: {0}")]
    Entropy(#[from] EntropyError),
    /// Fields that hold no act (a move naming no plane and no move, an unknown item).
    #[error("not an action: {0}")]
    Act(#[from] BadAct),
}

/// The fields of a line, in their stored order (which is the format: fields and variants are
/// only ever added at the end, under a new [`FORMAT`]).
#[derive(Serialize, Deserialize)]
struct Line<'a> {
    format: u8,
    seat: usize,
    action: LineAct<'a>,
    roll: Option<u8>,
    entropy: Option<&'a [u8]>,
    auto: bool,
    cmd: Option<(&'a str, u64)>,
}

/// [`Act`] with its variants numbered by their order here, in the shape of the acts that
/// carried text (a move is a plane index or a notation; an item is its name). A copy rather
/// than `Act` itself: a stored number must not move when `Act` changes, and the lines this
/// shape wrote must read.
#[derive(Serialize, Deserialize)]
enum LineAct<'a> {
    Roll,
    Move {
        plane: Option<usize>,
        notation: Option<&'a str>,
    },
    UseItem(&'a str),
    Autoplay(bool),
    Timeout,
    Resign,
    Escape,
    Disconnect,
    Abandon,
    DrawOffer,
    DrawAnswer(bool),
}

impl<'a> LineAct<'a> {
    /// The line's copy of `act`; a jungle move's text is `notation`'s (written on the
    /// stack by the caller: a line names the move as the logs always did).
    fn of(act: Act, notation: Option<&'a Notation>) -> Self {
        match act {
            Act::Roll => LineAct::Roll,
            Act::Plane(plane) => LineAct::Move {
                plane: Some(usize::from(plane)),
                notation: None,
            },
            Act::Step(_) => LineAct::Move {
                plane: None,
                notation: notation.map(Notation::as_str),
            },
            Act::UseItem(item) => LineAct::UseItem(item.name()),
            Act::Autoplay { on } => LineAct::Autoplay(on),
            Act::Timeout => LineAct::Timeout,
            Act::Resign => LineAct::Resign,
            Act::Escape => LineAct::Escape,
            Act::Disconnect => LineAct::Disconnect,
            Act::Abandon => LineAct::Abandon,
            Act::DrawOffer => LineAct::DrawOffer,
            Act::DrawAnswer { accept } => LineAct::DrawAnswer(accept),
        }
    }
}

impl TryFrom<LineAct<'_>> for Act {
    type Error = BadAct;

    fn try_from(act: LineAct<'_>) -> Result<Self, Self::Error> {
        Ok(match act {
            LineAct::Roll => Act::Roll,
            LineAct::Move { plane, notation } => Act::stored_move(plane, notation)?,
            LineAct::UseItem(item) => Act::stored_item(item)?,
            LineAct::Autoplay(on) => Act::Autoplay { on },
            LineAct::Timeout => Act::Timeout,
            LineAct::Resign => Act::Resign,
            LineAct::Escape => Act::Escape,
            LineAct::Disconnect => Act::Disconnect,
            LineAct::Abandon => Act::Abandon,
            LineAct::DrawOffer => Act::DrawOffer,
            LineAct::DrawAnswer(accept) => Act::DrawAnswer { accept },
        })
    }
}

impl LoggedAct {
    /// The line the hall stores for this action.
    pub fn to_line(&self) -> String {
        let notation = match self.action {
            Act::Step(m) => Some(Notation::of(m)),
            _ => None,
        };
        let line = Line {
            format: FORMAT,
            seat: self.seat,
            action: LineAct::of(self.action, notation.as_ref()),
            roll: self.roll,
            entropy: self.entropy.as_ref().map(Entropy::as_bytes),
            auto: self.auto,
            cmd: self.cmd.as_ref().map(|c| (c.client.as_str(), c.id)),
        };
        let fields = postcard::to_stdvec(&line).expect("a logged act serialises");
        STANDARD_NO_PAD.encode(fields)
    }

    /// The action a stored line holds: a line of [`to_line`](Self::to_line), or the JSON of
    /// the logs written before lines.
    pub fn from_line(line: &str) -> Result<LoggedAct, LineError> {
        if line.starts_with('{') {
            return Ok(serde_json::from_str(line)?);
        }
        read_fields(line, |line| {
            Ok(LoggedAct {
                seat: line.seat,
                action: line.action.try_into()?,
                roll: line.roll,
                entropy: line.entropy.map(Entropy::from_bytes).transpose()?,
                auto: line.auto,
                cmd: line.cmd.map(|(client, id)| CommandRef {
                    client: client.to_owned(),
                    id,
                }),
            })
        })
    }

    /// The roll a stored line holds, if it holds one, read without building the action: the
    /// dice statistics (P-DICE-STATS) count every line of each finished game.
    pub fn roll_in_line(line: &str) -> Result<Option<LineRoll>, LineError> {
        let roll = |seat, roll: Option<u8>, auto| roll.map(|face| LineRoll { seat, face, auto });
        if line.starts_with('{') {
            let act: LoggedAct = serde_json::from_str(line)?;
            return Ok(roll(act.seat, act.roll, act.auto));
        }
        read_fields(line, |line| Ok(roll(line.seat, line.roll, line.auto)))
    }
}

/// A roll as the dice statistics count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRoll {
    /// The seat that rolled (or was rolled for).
    pub seat: usize,
    /// The face the die showed.
    pub face: u8,
    /// Rolled by a bot, auto-play or the timer.
    pub auto: bool,
}

/// Decodes a line of [`LoggedAct::to_line`] and hands its fields, which borrow the decoded
/// bytes, to `read`.
fn read_fields<T>(
    line: &str,
    read: impl FnOnce(Line<'_>) -> Result<T, LineError>,
) -> Result<T, LineError> {
    let fields = STANDARD_NO_PAD.decode(line)?;
    match fields.first() {
        Some(&FORMAT) => {}
        Some(&other) => return Err(LineError::Format(other)),
        None => return Err(LineError::Fields(postcard::Error::DeserializeUnexpectedEnd)),
    }
    let (line, rest): (Line<'_>, _) = postcard::take_from_bytes(&fields)?;
    if !rest.is_empty() {
        return Err(LineError::Trailing(rest.len()));
    }
    read(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_act() -> Vec<Act> {
        vec![
            Act::Roll,
            Act::Plane(3),
            Act::Step("e3e4".parse().unwrap()),
            Act::UseItem(hangar_flight::Item::SixDie),
            Act::UseItem(hangar_flight::Item::Booster),
            Act::Autoplay { on: true },
            Act::Autoplay { on: false },
            Act::Timeout,
            Act::Resign,
            Act::Escape,
            Act::Disconnect,
            Act::Abandon,
            Act::DrawOffer,
            Act::DrawAnswer { accept: true },
            Act::DrawAnswer { accept: false },
        ]
    }

    fn roll_of_a_person() -> LoggedAct {
        LoggedAct {
            seat: 2,
            action: Act::Roll,
            roll: Some(6),
            entropy: Some("43fe1c749efd856f3785552d85785045".parse().unwrap()),
            auto: false,
            cmd: Some(CommandRef {
                client: "hangar-load".into(),
                id: 418,
            }),
        }
    }

    #[test]
    fn p_record_every_action_reads_back_from_its_line() {
        for (i, action) in every_act().into_iter().enumerate() {
            let logged = LoggedAct {
                seat: i % 4,
                action,
                roll: (i % 3 == 0).then_some(1 + (i % 6) as u8),
                entropy: (i % 2 == 0).then(|| Entropy::from_bytes(&[i as u8; 64]).unwrap()),
                auto: i % 5 == 0,
                cmd: (i % 4 != 0).then(|| CommandRef {
                    client: format!("tab-{i}"),
                    id: u64::MAX - i as u64,
                }),
            };
            let line = logged.to_line();
            assert!(!line.contains(['\n', '{']), "{line}");
            assert_eq!(LoggedAct::from_line(&line).unwrap(), logged, "{line}");
            let roll = logged.roll.map(|face| LineRoll {
                seat: logged.seat,
                face,
                auto: logged.auto,
            });
            assert_eq!(LoggedAct::roll_in_line(&line).unwrap(), roll, "{line}");
        }
    }

    #[test]
    fn a_line_is_half_the_json_of_the_action() {
        let roll = roll_of_a_person();
        let json = serde_json::to_string(&roll).unwrap();
        let line = roll.to_line();
        assert_eq!(line.len(), 52, "{line}");
        assert!(line.len() * 2 < json.len(), "{line} against {json}");
    }

    #[test]
    fn p_durable_logs_stored_as_json_read_as_before() {
        let stored = r#"{"seat":2,"action":{"kind":"roll"},"roll":6,"entropy":"43fe1c749efd856f3785552d85785045","cmd":{"client":"hangar-load","id":418}}"#;
        assert_eq!(LoggedAct::from_line(stored).unwrap(), roll_of_a_person());
        let roll = LineRoll {
            seat: 2,
            face: 6,
            auto: false,
        };
        assert_eq!(LoggedAct::roll_in_line(stored).unwrap(), Some(roll));
        let older = r#"{"seat":1,"action":{"kind":"move","plane":0},"auto":true}"#;
        let read = LoggedAct::from_line(older).unwrap();
        assert_eq!((read.seat, read.auto, read.cmd), (1, true, None));
    }

    /// The shapes the lines were written in while acts carried text (`Act::Move` with a
    /// `plane` or a `notation`, `Act::UseItem` with the item's name), copied here so that
    /// the bytes of the older build are made by its own types, not by the code under test.
    mod older {
        use serde::Serialize;

        #[derive(Serialize)]
        pub struct Line<'a> {
            pub format: u8,
            pub seat: usize,
            pub action: LineAct<'a>,
            pub roll: Option<u8>,
            pub entropy: Option<&'a [u8]>,
            pub auto: bool,
            pub cmd: Option<(&'a str, u64)>,
        }

        #[derive(Serialize)]
        #[allow(dead_code)] // every variant keeps its number
        pub enum LineAct<'a> {
            Roll,
            Move {
                plane: Option<usize>,
                notation: Option<&'a str>,
            },
            UseItem(&'a str),
            Autoplay(bool),
            Timeout,
            Resign,
            Escape,
            Disconnect,
            Abandon,
            DrawOffer,
            DrawAnswer(bool),
        }

        pub fn line(seat: usize, action: LineAct<'_>, roll: Option<u8>) -> String {
            use base64::Engine;
            let line = Line {
                format: 1,
                seat,
                action,
                roll,
                entropy: None,
                auto: true,
                cmd: Some(("tab-1", 7)),
            };
            let bytes = postcard::to_stdvec(&line).unwrap();
            base64::engine::general_purpose::STANDARD_NO_PAD.encode(bytes)
        }
    }

    #[test]
    fn p_durable_lines_of_the_build_that_stored_text_read_as_typed_acts() {
        use hangar_flight::Item;
        let cases = [
            (
                older::LineAct::Move {
                    plane: Some(2),
                    notation: None,
                },
                Act::Plane(2),
            ),
            (
                older::LineAct::Move {
                    plane: None,
                    notation: Some("e3e4"),
                },
                Act::Step("e3e4".parse().unwrap()),
            ),
            (
                older::LineAct::UseItem("six_die"),
                Act::UseItem(Item::SixDie),
            ),
            (
                older::LineAct::UseItem("booster"),
                Act::UseItem(Item::Booster),
            ),
            (older::LineAct::Roll, Act::Roll),
            (
                older::LineAct::DrawAnswer(true),
                Act::DrawAnswer { accept: true },
            ),
        ];
        for (stored, act) in cases {
            let line = older::line(1, stored, None);
            let read = LoggedAct::from_line(&line).unwrap();
            assert_eq!(read.action, act, "{line}");
            assert_eq!((read.seat, read.auto), (1, true));
            // Written again, the line is the same bytes.
            assert_eq!(read.to_line(), line);
        }
        // Lines as a running hall stored them, frozen: a plane, a jungle move, an item.
        for (line, act) in [
            ("AQEBAQIAAAABAQV0YWItMQc", Act::Plane(2)),
            (
                "AQEBAAEEZTNlNAAAAQEFdGFiLTEH",
                Act::Step("e3e4".parse().unwrap()),
            ),
            (
                "AQECB2Jvb3N0ZXIAAAEBBXRhYi0xBw",
                Act::UseItem(Item::Booster),
            ),
        ] {
            assert_eq!(LoggedAct::from_line(line).unwrap().action, act, "{line}");
        }
        // What no build wrote is refused, not misread.
        for stored in [
            older::LineAct::Move {
                plane: None,
                notation: None,
            },
            older::LineAct::Move {
                plane: Some(300),
                notation: None,
            },
            older::LineAct::Move {
                plane: None,
                notation: Some("e3"),
            },
            older::LineAct::UseItem("umbrella"),
        ] {
            let line = older::line(0, stored, None);
            assert!(
                matches!(LoggedAct::from_line(&line), Err(LineError::Act(_))),
                "{line}"
            );
        }
    }

    #[test]
    fn p_durable_json_logs_of_moves_and_items_read_as_typed_acts() {
        for (stored, act) in [
            (
                r#"{"seat":0,"action":{"kind":"move","move":"a7a6"}}"#,
                Act::Step("a7a6".parse().unwrap()),
            ),
            (
                r#"{"seat":0,"action":{"kind":"use_item","item":"six_die"},"roll":6}"#,
                Act::UseItem(hangar_flight::Item::SixDie),
            ),
        ] {
            assert_eq!(
                LoggedAct::from_line(stored).unwrap().action,
                act,
                "{stored}"
            );
        }
    }

    #[test]
    fn a_line_that_is_no_action_is_refused() {
        let line = roll_of_a_person().to_line();
        let mut fields = STANDARD_NO_PAD.decode(&line).unwrap();
        assert!(matches!(
            LoggedAct::from_line(&line[..line.len() - 4]),
            Err(LineError::Fields(_))
        ));
        assert!(matches!(
            LoggedAct::from_line("not base64!"),
            Err(LineError::Base64(_))
        ));
        assert!(matches!(
            LoggedAct::from_line(""),
            Err(LineError::Fields(_))
        ));
        assert!(matches!(
            LoggedAct::from_line(r#"{"seat":"two"}"#),
            Err(LineError::Json(_))
        ));
        let mut longer = fields.clone();
        longer.push(0);
        assert!(matches!(
            LoggedAct::from_line(&STANDARD_NO_PAD.encode(&longer)),
            Err(LineError::Trailing(1))
        ));
        fields[0] = 2;
        assert!(matches!(
            LoggedAct::from_line(&STANDARD_NO_PAD.encode(&fields)),
            Err(LineError::Format(2))
        ));
        // The roller's bytes (their length is byte 6) cut to 15: too few for a roll.
        let mut short = STANDARD_NO_PAD.decode(&line).unwrap();
        assert_eq!(short[6], 16);
        short[6] = 15;
        short.remove(7);
        assert!(matches!(
            LoggedAct::from_line(&STANDARD_NO_PAD.encode(&short)),
            Err(LineError::Entropy(_))
        ));
    }
}
