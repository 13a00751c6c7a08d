//! One game of Aeroplane Chess as an environment ([`FlightEnv`]).
//!
//! Agents act only where a player chooses: which plane moves by the pending roll, and,
//! with items, whether to roll or use an item first (F-ITEM-USE). Everything else — the die
//! (F-ROLL), a roll with no legal move, a forced move (F-D-SIT), the item and weather draws
//! (F-ITEM-SPAWN, F-WEATHER) — happens between decisions. By default the env draws those
//! from its seed in the order `hangar_flight::Table` does, so a game is replayable as a
//! `hangar_flight::Record`; with `explicit_chance` it stops at each and the caller supplies
//! the outcome ([`FlightEnv::chance_outcomes`], [`FlightEnv::apply_chance`]).

use hangar_bots::flight::FlightBot;
use hangar_dice::{Dice, Seed};
use hangar_flight::{
    Colour, Game, Item, Moves, NoEvents, Options, Phase, Record, RecordedAction, Seating,
};

use crate::env::{Env, StepError};
use crate::flight_obs::{FLIGHT_OBS, write_observation};

/// Actions: 0–3 move that plane; 4 roll (offered only while an item could be used first);
/// 5 use a six die; 6 use a booster.
pub const FLIGHT_ACTIONS: usize = 7;
/// The action that rolls without using an item.
const ROLL: usize = 4;
/// The first item action: `ITEM_BASE + k` uses `Item::ALL[k]`.
const ITEM_BASE: usize = 5;

/// What does not change between games of one env: options, player count, chance mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlightSettings {
    /// The rule options (flight.md §9 presets with options applied).
    pub options: Options,
    /// Players, 2–4 (four for teams).
    pub players: u8,
    /// Leave dice and draws to the caller (chance nodes) instead of the seed.
    pub explicit_chance: bool,
}

/// One game of Aeroplane Chess from the agents' side.
#[derive(Clone, Debug)]
pub struct FlightEnv {
    settings: FlightSettings,
    seed: u64,
    game: Game,
    dice: Dice,
    /// Colour of each agent (joining order, as drawn by `Seating`).
    colours: [Colour; 4],
    /// Agent index of each colour (`u8::MAX` for an empty seat).
    agent_of: [u8; 4],
    /// The choices of the pending roll (empty unless a move is awaited).
    moves: Moves,
    /// The player decided to roll without an item (action 4); the roll is still to come.
    roll_chosen: bool,
    /// The game's actions in `Record` form (for replay by `hangar replay` and tests).
    actions: Vec<RecordedAction>,
    /// The position every game starts from, when the env was made from one
    /// ([`FlightEnv::from_position`]); `None`: a new game with seats drawn from the seed.
    start: Option<Game>,
}

impl FlightEnv {
    /// A new env and its first game from `seed`. Fails on a player count the options refuse
    /// (2–4 players; teams need four).
    pub fn new(settings: FlightSettings, seed: u64) -> Result<FlightEnv, String> {
        let mut dice = Dice::new(Seed::from_u64(seed));
        let seating = Seating::draw(usize::from(settings.players), settings.options.teams, |n| {
            dice.roll_below(n)
        })
        .map_err(|e| e.to_string())?;
        let game = Game::new(settings.options, &seating.seated(), seating.first)
            .map_err(|e| e.to_string())?;
        let mut env = FlightEnv {
            settings,
            seed,
            game,
            dice,
            colours: [Colour::Red; 4],
            agent_of: [u8::MAX; 4],
            moves: Moves::EMPTY,
            roll_chosen: false,
            actions: Vec::new(),
            start: None,
        };
        env.seat(&seating.colours);
        env.advance();
        Ok(env)
    }

    /// An env whose every game starts from `position` (a position of `hangar rules flight`,
    /// its options included); the dice and draws that follow come from the seed. The agents
    /// are the seated colours in seat order (red, yellow, blue, green), so agent 0 is the
    /// first of them. Fails on a finished position: there is nothing left to decide.
    pub fn from_position(
        position: Game,
        explicit_chance: bool,
        seed: u64,
    ) -> Result<FlightEnv, String> {
        if position.is_over() {
            return Err("the position is over: no decision is left to play".into());
        }
        let settings = FlightSettings {
            options: *position.options(),
            players: position.player_count() as u8,
            explicit_chance,
        };
        let colours: Vec<Colour> = position.players().collect();
        let mut env = FlightEnv {
            settings,
            seed,
            game: position,
            dice: Dice::new(Seed::from_u64(seed)),
            colours: [Colour::Red; 4],
            agent_of: [u8::MAX; 4],
            moves: Moves::EMPTY,
            roll_chosen: false,
            actions: Vec::new(),
            start: Some(position),
        };
        env.seat(&colours);
        env.advance();
        Ok(env)
    }

    fn seat(&mut self, colours: &[Colour]) {
        self.agent_of = [u8::MAX; 4];
        for (i, &c) in colours.iter().enumerate() {
            self.colours[i] = c;
            self.agent_of[c.index()] = i as u8;
        }
    }

    /// The position every game starts from, if the env was made from one.
    pub fn start_position(&self) -> Option<&Game> {
        self.start.as_ref()
    }

    /// The settings.
    pub fn settings(&self) -> FlightSettings {
        self.settings
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The colour of agent `agent`.
    pub fn colour(&self, agent: usize) -> Colour {
        self.colours[agent & 3]
    }

    /// The agent playing `colour`, if seated.
    pub fn agent_of(&self, colour: Colour) -> Option<usize> {
        let a = self.agent_of[colour.index()];
        (a != u8::MAX).then_some(usize::from(a))
    }

    /// Whether the player on turn may use an item before rolling and has not decided yet.
    fn item_choice_pending(&self) -> bool {
        self.settings.options.items
            && self.game.phase() == Phase::Roll
            && !self.roll_chosen
            && self.game.item_in_use().is_none()
            && !self.game.item_bar(self.game.turn()).is_empty()
    }

    /// The action `bot` plays here, its randomness from `rng`: the plane it picks for the
    /// pending roll, or a plain roll where an item could be used first (the hall's bots use
    /// no items). `None` at a chance node or once the game is over.
    pub fn bot_action(&self, bot: &dyn FlightBot, rng: &mut Dice) -> Option<usize> {
        if self.game.is_over() || self.is_chance_node() {
            return None;
        }
        if self.item_choice_pending() {
            return Some(ROLL);
        }
        bot.choose(&self.game, rng).map(usize::from)
    }

    /// Whether the game awaits a chance outcome from the caller (explicit chance only).
    pub fn is_chance_node(&self) -> bool {
        self.settings.explicit_chance
            && match self.game.phase() {
                Phase::Draw { .. } => true,
                Phase::Roll => !self.item_choice_pending(),
                _ => false,
            }
    }

    /// The outcomes of the awaited chance event with their probabilities: die values 1–6,
    /// or a draw's indexes (`Game::draw_choices`). Empty when none is awaited.
    pub fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        if !self.is_chance_node() {
            return Vec::new();
        }
        match self.game.phase() {
            Phase::Draw { .. } => {
                let n = u32::from(self.game.draw_choices());
                (0..n).map(|i| (i, 1.0 / f64::from(n))).collect()
            }
            _ => (1..=6).map(|v| (v, 1.0 / 6.0)).collect(),
        }
    }

    /// Settles the awaited chance event with `outcome` (a die value or a draw index).
    pub fn apply_chance(&mut self, outcome: u32) -> Result<(), StepError> {
        if !self.is_chance_node() {
            return Err(StepError::BadChance(outcome));
        }
        match self.game.phase() {
            Phase::Draw { .. } => {
                let index = u16::try_from(outcome).map_err(|_| StepError::BadChance(outcome))?;
                self.game
                    .draw(index, &mut NoEvents)
                    .map_err(|_| StepError::BadChance(outcome))?;
            }
            _ => {
                let value = u8::try_from(outcome)
                    .ok()
                    .filter(|v| (1..=6).contains(v))
                    .ok_or(StepError::BadChance(outcome))?;
                self.roll(value);
            }
        }
        self.advance();
        Ok(())
    }

    /// The player on turn rolls `value`; the choices are kept when one is awaited.
    fn roll(&mut self, value: u8) {
        self.roll_chosen = false;
        // The phase was checked to be Roll, so the engine accepts any die value.
        self.moves = self.game.roll(value, &mut NoEvents).unwrap_or(Moves::EMPTY);
        self.actions.push(RecordedAction::Roll);
    }

    /// Plays on until an agent decides, the game ends, or (explicit chance) a chance event.
    fn advance(&mut self) {
        loop {
            match self.game.phase() {
                Phase::Over => {
                    self.moves = Moves::EMPTY;
                    return;
                }
                Phase::Move { .. } => {
                    if self.moves.is_empty() {
                        self.moves = self.game.legal_moves();
                    }
                    return;
                }
                Phase::Draw { .. } => {
                    if self.settings.explicit_chance {
                        return;
                    }
                    self.game.draw_chances(&mut self.dice, &mut NoEvents);
                }
                Phase::Roll => {
                    self.moves = Moves::EMPTY;
                    if self.item_choice_pending() || self.settings.explicit_chance {
                        return;
                    }
                    let value = self.dice.roll();
                    self.roll(value);
                }
            }
        }
    }

    /// The planes of the pending roll's choices, one per distinct result (F-D-SAME), as the
    /// engine's `legal_moves` lists them.
    pub fn legal_planes(&self) -> Vec<u8> {
        self.moves.iter().map(|m| m.plane).collect()
    }

    /// The game as a `hangar_flight::Record` (JSON), replayable from the seed. Meaningful
    /// only without explicit chance, where the dice come from the seed; `None` for a game
    /// started from a position, which a record (a new game from a seed) cannot hold.
    pub fn record_json(&self) -> Option<String> {
        if self.start.is_some() {
            return None;
        }
        let record = Record {
            options: self.settings.options,
            players: self.settings.players,
            seed: Seed::from_u64(self.seed),
            // The environment draws from the seed's one stream, with no roller's bytes.
            dice: hangar_dice::DiceScheme::SeedStream,
            actions: self.actions.clone(),
            entropy: Default::default(),
        };
        serde_json::to_string(&record).ok()
    }

    /// Number of agents on each side for rewards: 2 sides in a team game, else the players.
    fn sides(&self) -> u8 {
        if self.settings.options.teams {
            2
        } else {
            self.settings.players
        }
    }
}

impl Env for FlightEnv {
    type Obs = f32;
    const OBS_LEN: usize = FLIGHT_OBS;
    const ACTIONS: usize = FLIGHT_ACTIONS;

    fn agents(&self) -> usize {
        usize::from(self.settings.players)
    }

    fn reset(&mut self, seed: u64) {
        let mut dice = Dice::new(Seed::from_u64(seed));
        if let Some(start) = self.start {
            // The seats are the position's and do not change.
            self.game = start;
            self.seed = seed;
            self.dice = dice;
            self.roll_chosen = false;
            self.moves = Moves::EMPTY;
            self.actions.clear();
            self.advance();
            return;
        }
        let options = self.settings.options;
        // The settings were accepted by `new`, so the same draws cannot fail now.
        let Ok(seating) = Seating::draw(usize::from(self.settings.players), options.teams, |n| {
            dice.roll_below(n)
        }) else {
            return;
        };
        let Ok(game) = Game::new(options, &seating.seated(), seating.first) else {
            return;
        };
        self.seed = seed;
        self.game = game;
        self.dice = dice;
        self.roll_chosen = false;
        self.moves = Moves::EMPTY;
        self.actions.clear();
        self.seat(&seating.colours);
        self.advance();
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn to_move(&self) -> usize {
        self.agent_of(self.game.turn()).unwrap_or(0)
    }

    fn terminated(&self) -> bool {
        self.game.is_over()
    }

    fn truncated(&self) -> bool {
        false
    }

    fn is_legal(&self, action: usize) -> bool {
        match action {
            0..=3 => self.moves.by_plane(action as u8).is_some(),
            ROLL => self.item_choice_pending(),
            ITEM_BASE.. if action < FLIGHT_ACTIONS => {
                self.item_choice_pending()
                    && self
                        .game
                        .item_bar(self.game.turn())
                        .contains(Item::ALL[action - ITEM_BASE])
            }
            _ => false,
        }
    }

    fn step(&mut self, action: usize) -> Result<(), StepError> {
        if self.game.is_over() {
            return Err(StepError::Over);
        }
        if self.is_chance_node() {
            return Err(StepError::ChanceExpected);
        }
        if !self.is_legal(action) {
            return Err(StepError::Illegal(action));
        }
        match action {
            0..=3 => {
                let plane = action as u8;
                if let Some(&m) = self.moves.by_plane(plane) {
                    self.game.play_unchecked(&m, &mut NoEvents);
                    self.actions.push(RecordedAction::Move(plane));
                }
                self.moves = Moves::EMPTY;
            }
            ROLL => self.roll_chosen = true,
            _ => {
                let item = Item::ALL[action - ITEM_BASE];
                // Checked legal above: the player holds the item and a roll is awaited.
                self.moves = self
                    .game
                    .use_item(item, &mut NoEvents)
                    .unwrap_or(Moves::EMPTY);
                self.actions.push(RecordedAction::UseItem(item));
            }
        }
        self.advance();
        Ok(())
    }

    fn observe(&self, agent: usize, out: &mut [f32]) {
        write_observation(&self.game, self.colour(agent), out);
    }

    fn mask(&self, out: &mut [u8]) {
        out.fill(0);
        if self.is_chance_node() {
            return;
        }
        for m in &self.moves {
            out[usize::from(m.plane)] = 1;
        }
        if self.item_choice_pending() {
            out[ROLL] = 1;
            let bar = self.game.item_bar(self.game.turn());
            for (k, &item) in Item::ALL.iter().enumerate() {
                out[ITEM_BASE + k] = u8::from(bar.contains(item));
            }
        }
    }

    fn rewards(&self, out: &mut [f32]) {
        out.fill(0.0);
        let Some(ranks) = self.game.ranks() else {
            return;
        };
        let sides = f32::from(self.sides().max(2));
        for (agent, slot) in out.iter_mut().enumerate().take(self.agents()) {
            let rank = ranks[self.colours[agent].index()].map_or(sides, f32::from);
            // Rank 1 → +1, last → −1, evenly between; ties (and partners) share a rank.
            *slot = 1.0 - 2.0 * (rank.min(sides) - 1.0) / (sides - 1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Red on 3 and 15, blue on 53 (home column) and in the hangar; blue to choose with a 6.
    const POSITION: &str = r#"{"options": {"planes": 2}, "players": [
        {"colour": "red", "planes": [3, 15]}, {"colour": "blue", "planes": [53, -1]}],
        "turn": "blue", "roll": 6}"#;

    #[test]
    fn a_position_seats_its_colours_and_starts_every_game() {
        let position: Game = serde_json::from_str(POSITION).expect("a position");
        let mut env = FlightEnv::from_position(position, false, 1).expect("an env");
        assert_eq!(env.agents(), 2);
        assert_eq!((env.colour(0), env.colour(1)), (Colour::Red, Colour::Blue));
        assert_eq!(env.to_move(), 1);
        assert_eq!(
            env.legal_planes(),
            position
                .legal_moves()
                .iter()
                .map(|m| m.plane)
                .collect::<Vec<_>>()
        );
        assert!(
            env.record_json().is_none(),
            "a record cannot start from a position"
        );
        env.step(1).expect("plane 1 takes off with the 6");
        assert_ne!(
            env.game().plane(Colour::Blue, 1),
            position.plane(Colour::Blue, 1)
        );
        env.reset(7);
        assert_eq!(env.game(), &position);
        assert_eq!(env.seed(), 7);
    }

    #[test]
    fn a_finished_position_is_refused() {
        let over: Game = serde_json::from_str(
            r#"{"options": {"planes": 2}, "players": [
            {"colour": "red", "planes": [56, 56]}, {"colour": "blue", "planes": [3, -1]}],
            "turn": "red"}"#,
        )
        .expect("a finished position");
        assert!(over.is_over());
        assert!(FlightEnv::from_position(over, false, 0).is_err());
    }
}
