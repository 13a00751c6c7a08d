//! Whole games between bots, driven from a seed: what `hangar sim` and the tests run.

use hangar_dice::{Dice, Seed};
use hangar_flight::{Game, NoEvents, Options, Seating, SetupError};

use super::bots::FlightBot;

/// A game past a hard cap of rolls is stopped (none comes near it: a guard against a bug).
const ROLL_CAP: u64 = 100_000;

/// How a game between bots went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The rank of each player (in the order of the `bots` given), 1 = won.
    pub ranks: Vec<u8>,
    /// The colour index (0 red .. 3 green) each player got.
    pub colours: Vec<usize>,
    /// Rolls made (a turn is one roll).
    pub rolls: u64,
    /// The final position.
    pub game: Game,
}

/// Plays a whole game: player `i` is `bots[i]`. The seating, the first player and every roll
/// come from `seed` exactly as [`hangar_flight::Table`] draws them, so the game can be replayed
/// from its record; the bots' own choices draw from a second stream derived from `seed`.
pub fn play_game(
    options: Options,
    bots: &[&dyn FlightBot],
    seed: Seed,
) -> Result<GameResult, SetupError> {
    let mut dice = Dice::new(seed);
    let seating = Seating::draw(bots.len(), options.teams, |n| dice.roll_below(n))?;
    let mut game = Game::new(options, &seating.seated(), seating.first)?;
    let mut bot_rng = Dice::new(seed.derive(u64::MAX));
    let mut player_of = [0usize; 4];
    for (player, colour) in seating.colours.iter().enumerate() {
        player_of[colour.index()] = player;
    }
    let mut rolls = 0;
    while !game.is_over() && rolls < ROLL_CAP {
        // Items and weather: the chance draws the game awaits come from the same dice.
        game.draw_chances(&mut dice, &mut NoEvents);
        let bot = bots[player_of[game.turn().index()]];
        let value = dice.roll();
        rolls += 1;
        let moves = game
            .roll(value, &mut NoEvents)
            .expect("the game awaits a roll between moves");
        if !moves.is_empty() {
            let index = bot.pick(&game, &moves, &mut bot_rng).min(moves.len() - 1);
            game.play_unchecked(&moves[index], &mut NoEvents);
        }
    }
    let final_ranks = game.final_ranks();
    Ok(GameResult {
        ranks: seating
            .colours
            .iter()
            .map(|c| final_ranks[c.index()].unwrap_or(u8::MAX))
            .collect(),
        colours: seating.colours.iter().map(|c| c.index()).collect(),
        rolls,
        game,
    })
}
