//! Reading a client message: its id and its command, or the error that names the fault.
//!
//! Whether a `type` names a command at all (`unknown_type`) or names one whose fields are
//! wrong (`bad_message`) is decided by the command enums themselves: [`variant_names`] asks a
//! tagged enum's own `Deserialize` for its variant names, so no list is kept by hand.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::value::MapDeserializer;
use serde_json::Value;

use super::{Command, ErrorCode, HallCommand, ProtoError, RoomAction, RoomCommand};

/// Ids are integers below 2^53, so every client (JavaScript's numbers) holds them exactly.
const ID_LIMIT: u64 = 1 << 53;

/// A well-formed message read in one pass: its id next to the command's fields.
#[derive(Deserialize)]
struct Tagged<C> {
    id: u64,
    #[serde(flatten)]
    command: C,
}

/// A well-formed room command read in one pass: its id and room next to the action's fields.
/// Flat, unlike `Tagged<RoomCommand>`, whose command would gather the action's fields a
/// second time.
#[derive(Deserialize)]
struct TaggedRoom {
    id: u64,
    room: String,
    #[serde(flatten)]
    action: RoomAction,
}

/// The `type` of a message as it must be: a string. The command enums alone would also take
/// a number, as the index of a variant (`{"type": 19}` would be some command): only the
/// documented names are commands.
#[derive(Deserialize)]
struct NamedType<'a> {
    #[serde(rename = "type", borrow)]
    _kind: Cow<'a, str>,
}

/// Whether the text's `type`, if it has one, is a string, seen without reading the text as
/// JSON: nothing in it is escaped (an escaped key such as `"\u0074ype"` is a `type` that
/// no search for the plain name finds), and every `"type"` in it is followed at once by `:"`.
/// Clients write their messages so; a text written otherwise is read for its `type` first.
fn type_is_plainly_a_string(text: &str) -> bool {
    const KEY: &[u8] = b"\"type\"";
    // Made once: building a substring searcher costs more than the search of a message.
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(KEY));
    let bytes = text.as_bytes();
    memchr::memchr(b'\\', bytes).is_none()
        && FINDER
            .find_iter(bytes)
            .all(|at| bytes[at + KEY.len()..].starts_with(b":\""))
}

/// Reads one text message: its id (if any) and the command, or an error naming the id.
pub fn parse_command(text: &str) -> (Option<u64>, Result<Command, ProtoError>) {
    if !type_is_plainly_a_string(text) && serde_json::from_str::<NamedType<'_>>(text).is_err() {
        return parse_command_checked(text);
    }
    // Nearly every message is well formed: read it straight into the command (no
    // `serde_json::Value` tree built and read again), room commands first (the game's moves).
    // Anything this refuses is read again below, which names the exact fault.
    if let Ok(TaggedRoom { id, room, action }) = serde_json::from_str::<TaggedRoom>(text)
        && id < ID_LIMIT
    {
        return (Some(id), Ok(Command::Room(RoomCommand { room, action })));
    }
    if let Ok(tagged) = serde_json::from_str::<Tagged<HallCommand>>(text)
        && tagged.id < ID_LIMIT
    {
        return (Some(tagged.id), Ok(Command::Hall(tagged.command)));
    }
    parse_command_checked(text)
}

/// The careful reading of a message, step by step, for a precise error.
pub(super) fn parse_command_checked(text: &str) -> (Option<u64>, Result<Command, ProtoError>) {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => return (None, Err(bad(e.to_string()))),
    };
    let Some(object) = value.as_object() else {
        return (None, Err(bad("a message is a JSON object")));
    };
    let id = object
        .get("id")
        .and_then(Value::as_u64)
        .filter(|id| *id < ID_LIMIT);
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind,
        Some(_) => return (id, Err(bad("\"type\" is a command name, a string"))),
        None => return (id, Err(bad("missing \"type\""))),
    };
    let kind = kind.to_owned();
    let room = names_variant::<RoomAction>("type", &kind);
    if !room && !names_variant::<HallCommand>("type", &kind) {
        return (
            id,
            Err(ProtoError::new(
                ErrorCode::UnknownType,
                format!("unknown message type {kind:?}"),
            )),
        );
    }
    if id.is_none() {
        return (
            None,
            Err(bad("missing or invalid \"id\" (an integer 0 ≤ id < 2^53)")),
        );
    }
    let command = if room {
        serde_json::from_value(value).map(Command::Room)
    } else {
        serde_json::from_value(value).map(Command::Hall)
    };
    (id, command.map_err(|e| bad(format!("{kind}: {e}"))))
}

fn bad(message: impl Into<String>) -> ProtoError {
    ProtoError::new(ErrorCode::BadMessage, message)
}

/// The variant names of an enum tagged by `tag` (`#[serde(tag = …)]`), as its own
/// `Deserialize` knows them.
pub fn variant_names<'de, T: Deserialize<'de>>(tag: &'static str) -> &'static [&'static str] {
    // A name no variant has: serde answers with the list of those it expected.
    match probe::<T>(tag, "\u{0}") {
        Probe::Unknown(names) => names,
        Probe::Known => &[],
    }
}

/// The variant names of a plain enum of names (such as [`ErrorCode`]), as its own
/// `Deserialize` knows them.
pub fn name_variants<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    use serde::de::IntoDeserializer;
    let name: serde::de::value::StrDeserializer<'_, ProbeError> = "\u{0}".into_deserializer();
    match T::deserialize(name) {
        Err(ProbeError::UnknownVariant(names)) => names,
        Ok(_) | Err(ProbeError::Other) => &[],
    }
}

/// Whether `name` is the tag of one of the variants of `T` (an enum tagged by `tag`).
pub fn names_variant<'de, T: Deserialize<'de>>(tag: &'static str, name: &str) -> bool {
    matches!(probe::<T>(tag, name), Probe::Known)
}

/// What reading `{tag: name}` as `T` told about `name`.
enum Probe {
    /// `T` has a variant of that name (it may still want more fields).
    Known,
    /// No variant has that name; these are the names it has.
    Unknown(&'static [&'static str]),
}

/// Reads the one-entry map `{tag: name}` as `T`, with an error type that keeps serde's
/// "unknown variant" verdict instead of turning it into text.
fn probe<'de, T: Deserialize<'de>>(tag: &'static str, name: &str) -> Probe {
    let map = MapDeserializer::<_, ProbeError>::new(std::iter::once((tag, name.to_owned())));
    match T::deserialize(map) {
        Err(ProbeError::UnknownVariant(names)) => Probe::Unknown(names),
        Ok(_) | Err(ProbeError::Other) => Probe::Known,
    }
}

/// The error of a [`probe`]: only the unknown-variant verdict is kept.
#[derive(Debug)]
enum ProbeError {
    UnknownVariant(&'static [&'static str]),
    Other,
}

impl std::fmt::Display for ProbeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("probe")
    }
}

impl std::error::Error for ProbeError {}

impl serde::de::Error for ProbeError {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        ProbeError::Other
    }

    fn unknown_variant(_: &str, expected: &'static [&'static str]) -> Self {
        ProbeError::UnknownVariant(expected)
    }
}

/// The id of a message that will not be handled (over a limit), read without building
/// anything: `None` when the text is not an object with a valid id.
pub fn peek_id(text: &str) -> Option<u64> {
    #[derive(Deserialize)]
    struct IdOnly {
        id: Option<u64>,
    }
    serde_json::from_str::<IdOnly>(text)
        .ok()
        .and_then(|m| m.id)
        .filter(|id| *id < ID_LIMIT)
}
