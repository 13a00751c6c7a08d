//! `docs/protocol.md` against the wire types: every JSON example of the document is read as
//! the type it shows (commands as commands, answers, events and lists as the server's own
//! types), and every variant of every message family has at least one example.
//!
//! In the examples `{…}` and `[…]` stand for parts left out (a game view, more seats), and so
//! does a last `,…` in an object or a list; they are read as `{}`, `[]` and nothing.
#![allow(clippy::unwrap_used)] // tests fail loudly

use std::collections::{BTreeSet, HashMap};

use hangar_games::record::RECORD_FORMAT;
use hangar_games::review::{REVIEW_FORMAT, Review};
use hangar_hall::review::ReviewProgress;
use hangar_protocol::{
    Ack, Answer, ArenaMessage, ChallengeMessage, Command, ErrorCode, GameEvent, HallCommand,
    HallMessage, OptionsCatalogue, PlayerView, ReviewMessage, RoomAction, RoomEvent, RoomMessage,
    Welcome, name_variants, names_variant, parse_command, variant_names,
};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

const DOC: &str = include_str!("../../../../docs/protocol.md");

/// The JSON code blocks of a Markdown text, with their first line number.
fn json_blocks(text: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        match (&mut open, line.trim_start()) {
            (None, "```json") => open = Some((n + 2, String::new())),
            (Some(_), "```") => blocks.push(open.take().unwrap()),
            (Some((_, block)), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(open.is_none(), "a JSON block is not closed");
    blocks
}

/// The JSON values of a block, one after the other.
fn values(line: usize, block: &str) -> Vec<Value> {
    let text = block
        .replace("{…}", "{}")
        .replace("[…]", "[]")
        .replace(",…}", "}")
        .replace(",…]", "]");
    serde_json::Deserializer::from_str(&text)
        .into_iter::<Value>()
        .map(|v| v.unwrap_or_else(|e| panic!("protocol.md:{line}: not JSON: {e}\n{block}")))
        .collect()
}

fn read<T: DeserializeOwned>(line: usize, value: &Value) -> T {
    // Read from text, as a client's message is (a room event is kept as raw JSON text).
    serde_json::from_str(&value.to_string()).unwrap_or_else(|e| {
        panic!(
            "protocol.md:{line}: {value} is not a {}: {e}",
            std::any::type_name::<T>()
        )
    })
}

/// The name of an ack's result shape (a match, so that a new shape is named here).
fn ack_name(ack: &Ack) -> &'static str {
    match ack {
        Ack::Pong(_) => "pong",
        Ack::SignedIn(_) => "signed_in",
        Ack::Authed(_) => "authed",
        Ack::Leaderboard(_) => "leaderboard",
        Ack::MyGames(_) => "my_games",
        Ack::Profile(_) => "profile",
        Ack::Upgraded(_) => "upgraded",
        Ack::Challenged(_) => "challenged",
        Ack::ChallengeSettings(_) => "challenge_settings",
        Ack::PlayersOnline(_) => "players_online",
        Ack::HallPage(_) => "hall_page",
        Ack::Joined(_) => "joined",
        Ack::Matched(_) => "matched",
        Ack::Seated(_) => "seated",
        Ack::Watching(_) => "watching",
        Ack::Rolled(_) => "rolled",
        Ack::Arenas(_) => "arenas",
        Ack::ArenaTable(_) => "arena_table",
        Ack::Done(_) => "done",
    }
}

/// Every result shape an ack may have, as [`ack_name`] names them.
const ACKS: [&str; 19] = [
    "challenge_settings",
    "players_online",
    "arenas",
    "arena_table",
    "hall_page",
    "upgraded",
    "challenged",
    "pong",
    "signed_in",
    "authed",
    "leaderboard",
    "my_games",
    "profile",
    "joined",
    "matched",
    "seated",
    "watching",
    "rolled",
    "done",
];

/// The result shapes a command is answered with.
fn answers_of(command: &Command) -> &'static [&'static str] {
    match command {
        Command::Hall(command) => match command {
            HallCommand::Ping => &["pong"],
            HallCommand::Guest { .. }
            | HallCommand::Register { .. }
            | HallCommand::Login { .. } => &["signed_in"],
            HallCommand::Auth { .. } => &["authed"],
            HallCommand::Leaderboard { .. } => &["leaderboard"],
            HallCommand::MyGames { .. } => &["my_games"],
            HallCommand::PlayersOnline { .. } => &["players_online"],
            HallCommand::Profile { .. } => &["profile"],
            HallCommand::HallPage { .. } => &["hall_page"],
            HallCommand::UpgradeToBot => &["upgraded"],
            HallCommand::Challenge { .. } => &["challenged"],
            HallCommand::ChallengeSettings
            | HallCommand::SetChallengePolicy { .. }
            | HallCommand::Block { .. }
            | HallCommand::Unblock { .. } => &["challenge_settings"],
            HallCommand::HallSubscribe { .. }
            | HallCommand::HallUnsubscribe
            | HallCommand::SignOutEverywhere
            | HallCommand::AcceptChallenge { .. }
            | HallCommand::DeclineChallenge { .. }
            | HallCommand::CancelChallenge { .. } => &["done"],
            HallCommand::CreateRoom { .. } => &["joined"],
            HallCommand::QuickMatch { .. } => &["joined", "matched"],
            HallCommand::Arenas => &["arenas"],
            HallCommand::ArenaSubscribe { .. } | HallCommand::ArenaStandings { .. } => {
                &["arena_table"]
            }
            HallCommand::ArenaUnsubscribe
            | HallCommand::ArenaJoin { .. }
            | HallCommand::ArenaWithdraw { .. }
            | HallCommand::Review { .. } => &["done"],
        },
        Command::Room(command) => match command.action {
            RoomAction::JoinRoom { .. } => &["joined"],
            RoomAction::Spectate { .. } => &["watching"],
            RoomAction::TakeSeat { .. } => &["seated"],
            RoomAction::Roll { .. } | RoomAction::UseItem { .. } => &["rolled"],
            _ => &["done"],
        },
    }
}

/// What the document shows, by family and variant name.
#[derive(Default)]
struct Seen(HashMap<&'static str, BTreeSet<String>>);

impl Seen {
    fn note(&mut self, family: &'static str, value: &Value, tag: &str) {
        let name = value[tag].as_str().unwrap().to_owned();
        self.0.entry(family).or_default().insert(name);
    }

    fn check(&self, family: &'static str, all: &[&str]) {
        let seen = self.0.get(family).cloned().unwrap_or_default();
        let missing: Vec<_> = all.iter().filter(|n| !seen.contains(**n)).collect();
        assert!(
            missing.is_empty(),
            "protocol.md has no example of {family} {missing:?}"
        );
    }
}

#[test]
fn every_example_of_the_protocol_document_reads_as_its_type() {
    let mut seen = Seen::default();
    let mut examples = 0;
    for (line, block) in json_blocks(DOC) {
        // The commands of this block by id, to pair each ack with its command.
        let mut commands: HashMap<u64, Command> = HashMap::new();
        for value in values(line, &block) {
            examples += 1;
            let object: &Map<String, Value> = value
                .as_object()
                .unwrap_or_else(|| panic!("protocol.md:{line}: {value} is not an object"));
            match object.get("type").and_then(Value::as_str) {
                Some("welcome") => {
                    read::<Welcome>(line, &value);
                    seen.note("welcome", &value, "type");
                }
                Some("ack" | "error") => {
                    let answer: Answer = read(line, &value);
                    seen.note("answer", &value, "type");
                    if let Answer::Ack { id, result, .. } = &answer {
                        seen.0
                            .entry("ack")
                            .or_default()
                            .insert(ack_name(result).to_owned());
                        let command = commands.get(id).unwrap_or_else(|| {
                            panic!("protocol.md:{line}: ack {id} follows no command")
                        });
                        assert!(
                            answers_of(command).contains(&ack_name(result)),
                            "protocol.md:{line}: {command:?} is not answered with {value}"
                        );
                    }
                    if let Answer::Error { code, .. } = answer {
                        let code = serde_json::to_value(code).unwrap();
                        seen.0
                            .entry("error code")
                            .or_default()
                            .insert(code.as_str().unwrap().into());
                    }
                }
                Some("snapshot" | "event") => {
                    read::<RoomMessage>(line, &value);
                    seen.note("room message", &value, "type");
                    if let Some(event) = object.get("event") {
                        let kind = event["kind"].as_str().unwrap();
                        if names_variant::<RoomEvent>("kind", kind) {
                            read::<RoomEvent>(line, event);
                            seen.note("room event", event, "kind");
                        } else {
                            read::<GameEvent>(line, event);
                            seen.note("game event", event, "kind");
                        }
                    }
                }
                Some("hall" | "hall_room" | "hall_room_removed") => {
                    read::<HallMessage>(line, &value);
                    seen.note("hall message", &value, "type");
                }
                // `challenge` is a command too: the server's message has no id.
                Some(
                    "challenge_room" | "challenge_ended" | "challenge_sent" | "challenge_accepted",
                )
                | Some("challenge")
                    if !object.contains_key("id") =>
                {
                    read::<ChallengeMessage>(line, &value);
                    seen.note("challenge message", &value, "type");
                }
                // `review` is the command: its messages are `review_…`.
                Some("review_progress" | "review_ready" | "review_failed") => {
                    let message: ReviewMessage = read(line, &value);
                    seen.note("review message", &value, "type");
                    // The review carried is the HTTP endpoint's body.
                    if let ReviewMessage::ReviewReady { review, .. } = message {
                        assert_eq!(review["format"], REVIEW_FORMAT, "protocol.md:{line}");
                        read::<Review>(line, &review);
                    }
                }
                Some("arena" | "arena_game") => {
                    read::<ArenaMessage>(line, &value);
                    seen.note("arena message", &value, "type");
                }
                Some(_) => {
                    let (id, command) = parse_command(&value.to_string());
                    let command = command
                        .unwrap_or_else(|e| panic!("protocol.md:{line}: {value} is refused: {e}"));
                    match &command {
                        Command::Hall(_) => seen.note("hall command", &value, "type"),
                        Command::Room(_) => seen.note("room command", &value, "type"),
                    }
                    commands.insert(id.unwrap(), command);
                }
                // Not messages: the pieces and HTTP bodies the document shows.
                // `GET /api/options`: exactly what a hall of the default timer serves.
                None if object.contains_key("flight") && object.contains_key("jungle") => {
                    let catalogue: OptionsCatalogue = read(line, &value);
                    assert_eq!(catalogue, hangar_games::catalogue(20), "protocol.md:{line}");
                }
                None if object.contains_key("guest") => {
                    read::<PlayerView>(line, &value);
                }
                None if object.get("format").and_then(Value::as_str) == Some(RECORD_FORMAT) => {}
                // `GET /api/games/{id}/review`: a review, or where one being computed stands.
                None if object.get("format").and_then(Value::as_str) == Some(REVIEW_FORMAT) => {
                    read::<Review>(line, &value);
                }
                None if object.contains_key("state") => {
                    read::<ReviewProgress>(line, &value);
                }
                None if object.contains_key("frames") || object.contains_key("to_move") => {}
                None if object.get("status").and_then(Value::as_str) == Some("ok") => {}
                None => panic!("protocol.md:{line}: {value} is of no known kind"),
            }
        }
    }
    assert!(examples > 50, "only {examples} examples read");
    seen.check("hall command", variant_names::<HallCommand>("type"));
    seen.check("room command", variant_names::<RoomAction>("type"));
    seen.check("answer", variant_names::<Answer>("type"));
    seen.check("ack", &ACKS);
    seen.check("room message", variant_names::<RoomMessage>("type"));
    seen.check("room event", variant_names::<RoomEvent>("kind"));
    seen.check("game event", variant_names::<GameEvent>("kind"));
    seen.check("hall message", variant_names::<HallMessage>("type"));
    seen.check(
        "challenge message",
        variant_names::<ChallengeMessage>("type"),
    );
    seen.check("arena message", variant_names::<ArenaMessage>("type"));
    seen.check("review message", variant_names::<ReviewMessage>("type"));
    seen.check("welcome", &["welcome"]);
}

#[test]
fn every_error_code_is_in_the_table_of_the_document() {
    for code in name_variants::<ErrorCode>() {
        assert!(
            DOC.contains(&format!("| `{code}` |"))
                || DOC.contains(&format!("`{code}`, `"))
                || DOC.contains(&format!(", `{code}` |")),
            "protocol.md's table of error codes lacks {code}"
        );
    }
}
