//! The game views of protocol §6 as public types: the hall serialises its sessions through
//! them (snapshots, `game_started`, `moved`, records) and a client — `hangar bot`, the engine
//! line — reads them back and turns a flight view into the rules engine's position with
//! [`FlightView::to_setup`] instead of reading JSON keys.
//!
//! The fields are in alphabetical order: the order `serde_json::Value` maps wrote them in
//! before, so the frames are byte for byte what they were. The views borrow what the engine
//! holds when written ([`Cow::Borrowed`]) and own it when read.

use std::borrow::Cow;

use hangar_flight::{
    Action, Colour, Game, Item, ItemOnBoard, NoEvents, Options, PlayerSetup, Progress, Setup,
    Square, WEATHER_ROUNDS, Weather, WeatherCell,
};
use hangar_jungle::Outcome;
use hangar_protocol::GameKind;
use serde::{Deserialize, Serialize};

/// A game view of either game (`kind` tells which).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GameView<'a> {
    /// An Aeroplane Chess view.
    Flight(FlightView<'a>),
    /// A Jungle view.
    Jungle(JungleView<'a>),
}

/// What a flight game awaits (`need`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlightNeed {
    /// The die.
    Roll,
    /// A choice among `moves`; `die` is the pending roll.
    Move,
    /// A chance draw (items, weather) the hall makes.
    Draw,
    /// Nothing: the game is over.
    Over,
}

/// A legal move of a flight view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MoveView {
    /// The plane's index.
    pub plane: u8,
    /// Where it lands.
    pub to: Progress,
}

/// An item lying on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ItemView {
    /// The kind.
    pub item: Item,
    /// The track square.
    pub square: Square,
}

/// The weather cell that is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WeatherView {
    /// The weather.
    pub kind: Weather,
    /// The track square.
    pub square: Square,
}

/// The flight game view of protocol §6: arrays are indexed by room seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlightView<'a> {
    /// Each seat's item bar, oldest first.
    pub bars: Vec<Vec<Item>>,
    /// Enemy planes each seat sent back.
    pub captures: Vec<u16>,
    /// Each seat's colour.
    pub colours: Vec<Colour>,
    /// The pending roll when `need` is `move`.
    pub die: Option<u8>,
    /// Planes each seat has finished.
    pub finished: Vec<usize>,
    /// The plane that must move on the next roll (F-D-SIT).
    pub forced_plane: Option<u8>,
    /// The booster awaiting its throw.
    pub item_in_use: Option<Item>,
    /// Items lying on the board.
    pub items: Vec<ItemView>,
    /// Always [`GameKind::Flight`].
    pub kind: GameKind,
    /// The legal moves when `need` is `move`.
    pub moves: Vec<MoveView>,
    /// What the game awaits.
    pub need: FlightNeed,
    /// Each seat's planes' progress.
    pub planes: Vec<Cow<'a, [Progress]>>,
    /// Whether each seat resigned.
    pub resigned: Vec<bool>,
    /// Sixes rolled in a row this turn.
    pub sixes: u8,
    /// The seat to move; `None` when over.
    pub to_move: Option<usize>,
    /// Completed turns (P-RESIGN needs 15).
    pub turns: u32,
    /// The weather cell, if one is up.
    pub weather: Option<WeatherView>,
}

impl FlightView<'_> {
    /// The rules engine's unchecked position of this view under `rules` (the room's
    /// options, which the view does not carry).
    ///
    /// The view has no round of the weather cycle nor the first player (which tells when a
    /// round starts): they decide when the next chance draw comes, not what is legal. Under
    /// the weather option a cell up is put in the cycle's first round, a clear sky in its
    /// first clear round.
    pub fn to_setup(&self, rules: Options) -> Result<Setup, String> {
        let seats = self.colours.len();
        if [
            self.planes.len(),
            self.captures.len(),
            self.resigned.len(),
            self.bars.len(),
        ]
        .iter()
        .any(|&n| n != seats)
        {
            return Err("the view's per-seat arrays differ in length".into());
        }
        let turn = self.to_move.ok_or("nobody to move")?;
        let turn = *self.colours.get(turn).ok_or("to_move is no seat")?;
        let players = (0..seats)
            .map(|seat| PlayerSetup {
                colour: self.colours[seat],
                planes: self.planes[seat].to_vec(),
                captures: self.captures[seat],
                resigned: self.resigned[seat],
                rank: None,
                items: self.bars[seat].clone(),
            })
            .collect();
        Ok(Setup {
            options: rules,
            players,
            turn,
            roll: if self.need == FlightNeed::Move {
                self.die
            } else {
                None
            },
            sixes: self.sixes,
            forced: self.forced_plane,
            six_moved: Vec::new(),
            items: self
                .items
                .iter()
                .map(|i| ItemOnBoard {
                    square: i.square,
                    item: i.item,
                })
                .collect(),
            weather: self.weather.map(|w| WeatherCell {
                square: w.square,
                weather: w.kind,
            }),
            weather_round: if self.weather.is_none() && rules.weather {
                WEATHER_ROUNDS
            } else {
                0
            },
            first: None,
            item_in_use: self.item_in_use,
            draw: None,
        })
    }

    /// The position of this view under `rules`, checked by the rules engine, with `roll`
    /// played on it if one was rolled since the view (a `rolled` event): the engine, not the
    /// reader, counts its six and spends a booster.
    pub fn position(&self, rules: Options, roll: Option<u8>) -> Result<Game, String> {
        let setup = self.to_setup(rules)?;
        let mut game =
            Game::from_setup(setup).map_err(|e| format!("the view is no position: {e}"))?;
        if let Some(value) = roll
            && self.need == FlightNeed::Roll
        {
            game.play(Action::Roll { value }, &mut NoEvents)
                .map_err(|e| format!("the roll {value} does not play on the view: {e}"))?;
        }
        Ok(game)
    }
}

/// The Jungle game view of protocol §6.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JungleView<'a> {
    /// The position (side to move and rules included).
    pub fen: String,
    /// Always [`GameKind::Jungle`].
    pub kind: GameKind,
    /// The last move, `None` after a pass or at the start.
    pub last: Option<Cow<'a, str>>,
    /// The legal moves of the side to move.
    pub moves: Vec<String>,
    /// The engine's result once over.
    pub outcome: Option<Outcome>,
    /// Plies played.
    pub plies: usize,
    /// The seat to move, `None` when over.
    pub to_move: Option<usize>,
}

impl JungleView<'_> {
    /// The position of this view.
    pub fn position(&self) -> Result<hangar_jungle::Position, String> {
        self.fen
            .parse()
            .map_err(|e| format!("the view's fen {:?}: {e}", self.fen))
    }
}

#[cfg(test)]
mod tests {
    use hangar_dice::{DiceScheme, Seed};
    use serde_json::{Value, json};

    use super::*;
    use crate::{GameSession, RoomOptions, check_options};

    /// The examples of protocol §6 read as the typed views.
    #[test]
    fn the_documents_views_parse() {
        let doc = include_str!("../../../docs/protocol.md");
        let section = &doc[doc.find("## 6. Game views").expect("§6")..];
        let section = &section[..section.find("\n## 7.").expect("§7")];
        let mut kinds = Vec::new();
        for block in section.split("```json").skip(1) {
            let text = &block[..block.find("```").expect("a closed block")];
            let view: GameView =
                serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
            kinds.push(matches!(view, GameView::Flight(_)));
        }
        assert_eq!(kinds, [true, false]);
    }

    /// The hall's views of random games read back as the typed views and write the same
    /// JSON; every flight view is a position the rules engine accepts, offering the moves
    /// the hall offers (and so after a roll since the view).
    #[test]
    fn the_halls_views_round_trip_and_rebuild_its_position() {
        for (seed, kind, given) in [
            (
                4,
                hangar_protocol::GameKind::Flight,
                json!({"seats": 4, "preset": "improved", "items": true, "weather": true}),
            ),
            (
                5,
                hangar_protocol::GameKind::Flight,
                json!({"seats": 3, "three_sixes": "moved-to-hangar", "items": true}),
            ),
            (
                6,
                hangar_protocol::GameKind::Flight,
                json!({"seats": 2, "planes": 2}),
            ),
            (7, hangar_protocol::GameKind::Jungle, json!({})),
        ] {
            let (options, seats, _) = check_options(kind, &given, 60).expect("options");
            let mut session =
                GameSession::start(&options, seats, Seed::from_u64(seed), DiceScheme::PerRoll)
                    .expect("starts");
            let mut checked = 0;
            loop {
                let value = session.view();
                let view: GameView = serde_json::from_value(value.clone())
                    .unwrap_or_else(|e| panic!("{e}: {value}"));
                assert_eq!(serde_json::to_value(&view).expect("writes"), value);
                match (&view, &options) {
                    (GameView::Flight(view), RoomOptions::Flight(room))
                        if view.to_move.is_some() =>
                    {
                        let game = view
                            .position(room.rules, None)
                            .unwrap_or_else(|e| panic!("{e}: {value}"));
                        assert_eq!(planes_of(&game), hall_planes(view), "{value}");
                    }
                    (GameView::Jungle(view), RoomOptions::Jungle(_)) => {
                        assert_eq!(view.position().expect("a fen").to_string(), view.fen);
                    }
                    (GameView::Flight(_), RoomOptions::Flight(_)) => {}
                    _ => panic!("the view of another game: {value}"),
                }
                let Some((seat, _)) = session.turn() else {
                    break;
                };
                let act = session
                    .bot_act(seat, hangar_protocol::BotLevel::Heuristic)
                    .expect("a bot has a move");
                let played = session.play(seat, &act, None).expect("a bot plays legally");
                if let (GameView::Flight(before), RoomOptions::Flight(room), Some(value)) =
                    (&view, &options, played.roll)
                {
                    let after: Value = session.view();
                    let game = before.position(room.rules, Some(value)).expect("rolled");
                    let after: FlightView = serde_json::from_value(after).expect("a flight view");
                    if after.need == FlightNeed::Move {
                        assert_eq!(planes_of(&game), hall_planes(&after), "rolled {value}");
                    }
                }
                checked += 1;
            }
            assert!(checked > 20, "{given}: {checked} decisions");
        }
    }

    fn planes_of(game: &Game) -> Vec<u8> {
        match game.phase() {
            hangar_flight::Phase::Move { .. } => game
                .legal_moves()
                .as_slice()
                .iter()
                .map(|m| m.plane)
                .collect(),
            _ => Vec::new(),
        }
    }

    fn hall_planes(view: &FlightView) -> Vec<u8> {
        view.moves.iter().map(|m| m.plane).collect()
    }
}
