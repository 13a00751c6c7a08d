//! Playing actions: rolls, choices and resignations, with bonus rolls, the three-sixes
//! penalty, forced moves, the end of the game and the turn order (F-ROLL, F-BONUS,
//! F-THREE-SIXES, F-D-SIT, F-D-DONE, F-WIN); rounds start here for items and weather
//! (`chance.rs`).

use crate::action::{Action, PlayError};
use crate::board::Progress;
use crate::colour::Colour;
use crate::event::{Event, EventSink, NoEvents, ReturnReason};
use crate::game::choice::{Move, picked_slots};
use crate::game::moves::Moves;
use crate::game::walk::Occupancy;
use crate::game::{Game, Phase};
use crate::options::ThreeSixes;

impl Game {
    /// Plays one action, pushing what happens to `sink`. A refused action changes nothing.
    pub fn play<S: EventSink>(&mut self, action: Action, sink: &mut S) -> Result<(), PlayError> {
        match action {
            Action::Roll { value } => self.roll(value, sink).map(|_| ()),
            Action::Move { plane } => self.choose(plane, sink),
            Action::Resign { colour } => self.resign(colour, sink),
            Action::Draw { index } => self.draw(index, sink),
            Action::UseItem { item } => self.use_item(item, sink).map(|_| ()),
        }
    }

    /// The game after `action` and the events, leaving `self` as it is.
    pub fn after(&self, action: Action) -> Result<(Game, Vec<crate::Event>), PlayError> {
        let mut next = *self;
        let mut events = Vec::new();
        next.play(action, &mut events)?;
        Ok((next, events))
    }

    /// The player on turn rolls `value`. Returns the choices when a choice is awaited; the
    /// roll is settled at once (empty result) when no plane can move (spent), when the plane
    /// sitting on a stack must move (F-D-SIT) or on a penalised third 6.
    pub fn roll<S: EventSink>(&mut self, value: u8, sink: &mut S) -> Result<Moves, PlayError> {
        match self.phase {
            Phase::Roll => {}
            Phase::Move { .. } => return Err(PlayError::MoveExpected),
            Phase::Draw { .. } => return Err(PlayError::DrawExpected),
            Phase::Over => return Err(PlayError::GameOver),
        }
        if !(1..=6).contains(&value) {
            return Err(PlayError::BadDie { value });
        }
        let colour = self.turn;
        sink.push(Event::Rolled { colour, value });
        if value == 6 && self.options.three_sixes != ThreeSixes::None {
            self.sixes += 1;
            if self.sixes >= 3 {
                self.three_sixes_penalty(colour, sink);
                self.end_turn(sink);
                return Ok(Moves::EMPTY);
            }
        }
        if let Some(plane) = self.forced {
            sink.push(Event::ForcedMove { colour, plane });
            let board = Occupancy::new(self, colour);
            // Checked without events first: a tailwind or booster past the finish under
            // `exact-only` is found illegal only on the way.
            match self.resolve(&board, colour, plane, value, &mut NoEvents) {
                Some(m) => {
                    if S::ENABLED {
                        self.resolve(&board, colour, plane, value, sink);
                    }
                    self.apply_move(colour, &m, value, sink)
                }
                None => self.spend(colour, value, sink),
            }
            return Ok(Moves::EMPTY);
        }
        let moves = self.moves_for(value);
        if moves.is_empty() {
            self.spend(colour, value, sink);
        } else {
            self.phase = Phase::Move { roll: value };
        }
        Ok(moves)
    }

    /// The player on turn moves `plane` by the pending roll.
    pub fn choose<S: EventSink>(&mut self, plane: u8, sink: &mut S) -> Result<(), PlayError> {
        let roll = match self.phase {
            Phase::Move { roll } => roll,
            Phase::Roll => return Err(PlayError::RollExpected),
            Phase::Draw { .. } => return Err(PlayError::DrawExpected),
            Phase::Over => return Err(PlayError::GameOver),
        };
        if plane as usize >= self.plane_count() {
            return Err(PlayError::NoSuchPlane { plane });
        }
        if !self.is_legal(plane) {
            return Err(PlayError::IllegalMove { plane, roll });
        }
        let colour = self.turn;
        let board = Occupancy::new(self, colour);
        let m = self
            .resolve(&board, colour, plane, roll, sink)
            .expect("the move was checked legal");
        self.apply_move(colour, &m, roll, sink);
        Ok(())
    }

    /// Fast path: plays `m`, which must come from [`Game::legal_moves`] (or the result of
    /// [`Game::roll`]) of this very state. With [`NoEvents`] the precomputed result is applied
    /// directly; with a real sink the move is resolved again to produce its events.
    /// Passing another move gives a wrong (but memory-safe) state.
    #[inline]
    pub fn play_unchecked<S: EventSink>(&mut self, m: &Move, sink: &mut S) {
        let Phase::Move { roll } = self.phase else {
            debug_assert!(false, "play_unchecked needs a pending roll");
            return;
        };
        let colour = self.turn;
        if S::ENABLED {
            let board = Occupancy::new(self, colour);
            let again = self.resolve(&board, colour, m.plane, roll, sink);
            debug_assert_eq!(again.as_ref(), Some(m));
        }
        self.apply_move(colour, m, roll, sink);
    }

    /// `colour` resigns or leaves (P-RESIGN, P-ESCAPE): its planes leave the board. In a
    /// team game, and when one side is left, the game ends.
    pub fn resign<S: EventSink>(&mut self, colour: Colour, sink: &mut S) -> Result<(), PlayError> {
        match self.phase {
            Phase::Over => return Err(PlayError::GameOver),
            // Draws are settled at once after each action; a resignation waits for them.
            Phase::Draw { .. } => return Err(PlayError::DrawExpected),
            _ => {}
        }
        if !self.is_active(colour) {
            return Err(PlayError::NotPlaying { colour });
        }
        self.resigned |= 1 << colour as u8;
        sink.push(Event::Resigned { colour });
        if let Some(plane) = self.forced
            && !self.sits_on_stack(self.turn, plane)
        {
            self.forced = None;
        }
        if self.options.teams || self.contenders() <= 1 {
            self.game_over(sink);
        } else if self.turn == colour {
            self.end_turn(sink);
        }
        Ok(())
    }

    /// Players still playing for a rank: on the board and not done.
    fn contenders(&self) -> u32 {
        Colour::ALL.iter().filter(|&&c| self.is_active(c)).count() as u32
    }

    fn spend<S: EventSink>(&mut self, colour: Colour, value: u8, sink: &mut S) {
        sink.push(Event::RollSpent { colour, value });
        self.after_move(colour, value, sink);
    }

    fn three_sixes_penalty<S: EventSink>(&mut self, colour: Colour, sink: &mut S) {
        sink.push(Event::ThreeSixes { colour });
        let mask = match self.options.three_sixes {
            ThreeSixes::MovedToHangar => self.six_moved,
            _ => 0xF,
        };
        for plane in 0..self.options.planes {
            let from = self.planes[colour.index()][plane as usize];
            if mask & (1 << plane) != 0 && !from.is_hangar() {
                self.planes[colour.index()][plane as usize] = Progress::HANGAR;
                sink.push(Event::Returned {
                    colour,
                    plane,
                    from,
                    reason: ReturnReason::ThreeSixes,
                });
            }
        }
        self.forced = None;
    }

    #[inline(always)]
    fn apply_move<S: EventSink>(&mut self, colour: Colour, m: &Move, roll: u8, sink: &mut S) {
        self.planes[colour.index()][m.plane as usize] = m.to;
        if m.captured != 0 {
            for bit in 0..16usize {
                if m.captured & (1 << bit) != 0 {
                    self.planes[bit / 4][bit % 4] = Progress::HANGAR;
                }
            }
            self.captures[colour.index()] += m.captured.count_ones() as u16;
        }
        if m.picked != 0 {
            self.take_items(colour, m.picked);
        }
        self.forced = if m.sits { Some(m.plane) } else { None };
        if roll == 6 && self.options.three_sixes == ThreeSixes::MovedToHangar {
            self.six_moved |= 1 << m.plane;
        }
        self.after_move(colour, roll, sink);
    }

    /// After a move or a spent roll: the end of the game, a finished player, a bonus roll or
    /// the next turn.
    #[inline(always)]
    fn after_move<S: EventSink>(&mut self, colour: Colour, roll: u8, sink: &mut S) {
        self.extras.in_use = None;
        if self.is_done(colour) {
            let teams = self.options.teams;
            if teams && self.is_done(colour.opposite()) || !teams && !self.options.play_on {
                self.game_over(sink);
                return;
            }
            let rank = if teams {
                None
            } else {
                let rank = self.ranks.iter().filter(|&&r| r != 0).count() as u8 + 1;
                self.ranks[colour.index()] = rank;
                Some(rank)
            };
            sink.push(Event::PlayerDone { colour, rank });
            if !teams && self.contenders() <= 1 {
                self.game_over(sink);
            } else {
                // F-D-DONE: the 6 that brought the last plane home earns no bonus roll.
                self.end_turn(sink);
            }
        } else if roll == 6 {
            self.phase = Phase::Roll;
            sink.push(Event::BonusRoll { colour });
        } else {
            self.end_turn(sink);
        }
    }

    fn end_turn<S: EventSink>(&mut self, sink: &mut S) {
        self.sixes = 0;
        self.six_moved = 0;
        self.forced = None;
        self.extras.in_use = None;
        self.phase = Phase::Roll;
        let prev = self.turn;
        if let Some(next) = self.next_active(prev) {
            self.turn = next;
            sink.push(Event::Turn { colour: next });
            if self.has_extras() {
                self.maybe_start_round(prev, next, sink);
            }
        } else {
            self.game_over(sink);
        }
    }

    fn game_over<S: EventSink>(&mut self, sink: &mut S) {
        self.phase = Phase::Over;
        self.extras.in_use = None;
        self.sixes = 0;
        self.six_moved = 0;
        self.forced = None;
        if S::ENABLED {
            sink.push(Event::GameOver {
                ranks: self.final_ranks(),
            });
        }
    }

    /// Moves the items a move took from the board into `colour`'s bar, in the order taken;
    /// those beyond the bar's room are lost (F-ITEM-PICK).
    #[cold]
    #[inline(never)]
    fn take_items(&mut self, colour: Colour, picked: u8) {
        for slot in picked_slots(picked) {
            if let Some(item) = self.extras.board_items[slot].take() {
                self.extras.bars[colour.index()].push(item.item);
            }
        }
        // Items left lie in the first slots, so that a position has one form.
        if self.extras.board_items[0].is_none() {
            self.extras.board_items.swap(0, 1);
        }
    }

    /// Plays a whole turn's roll on the fast path: rolls `value` and, if a choice is
    /// awaited, moves the choice `pick` returns (an index into the moves). For simulations.
    #[inline]
    pub fn roll_and_pick(
        &mut self,
        value: u8,
        pick: impl FnOnce(&Game, &Moves) -> usize,
    ) -> Result<(), PlayError> {
        let moves = self.roll(value, &mut NoEvents)?;
        if !moves.is_empty() {
            let index = pick(self, &moves).min(moves.len() - 1);
            self.play_unchecked(&moves[index], &mut NoEvents);
        }
        Ok(())
    }
}
