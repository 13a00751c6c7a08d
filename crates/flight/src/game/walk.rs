//! Resolving one plane's move by one roll (F-WALK, F-FINISH, F-JUMP, F-FLY, F-CROSS,
//! F-CAPTURE, F-STACK-…, F-D-ORDER, F-D-PAD, F-D-SIT, F-D-CIRCLE), with the weather on the
//! way (F-WEATHER) and the items taken at rest (F-ITEM-PICK), without changing the game.

use crate::board::{
    CROSSING, NO_SQUARE, Progress, SHORTCUT_FROM, SHORTCUT_TO, Square, TURN_IN, route_origin,
    square, square_bit,
};
use crate::colour::Colour;
use crate::event::{Event, EventSink, ReturnReason};
use crate::game::Game;
use crate::game::choice::{Move, picked_slots};
use crate::items::ItemBar;
use crate::options::{Finish, Stacks};
use crate::weather::{Weather, WeatherEffect};

/// What the move resolver reads: where the mover's enemies stand, as bit sets of shared
/// squares (bit `s` for [`Square`] `s`), so that lookups are single instructions; and with
/// items or weather on, where items lie and where the weather cell is on the mover's route.
pub(crate) struct Occupancy {
    /// Squares holding at least one enemy plane.
    one: u64,
    /// Squares holding two or more enemy planes: stacks (F-D-SINGLE).
    two: u64,
    /// Squares where coming to rest needs the full resolver: an enemy or an item
    /// (F-ITEM-PICK; which ones hold items is read from the game, off the fast path).
    stop: u64,
    /// The progress, on the mover's route, of the weather cell (0: none, or off the route).
    cell: u8,
    /// The cell's kind (meaningful when `cell != 0`).
    weather: Weather,
    /// Enemy colours (bit per colour).
    enemies: u8,
}

const TRACK_MASK: u64 = (1 << 52) - 1;

impl Occupancy {
    // Always inlined: the move generator builds one per roll and the simulation speed
    // depends on it.
    #[inline(always)]
    pub(crate) fn new(game: &Game, colour: Colour) -> Occupancy {
        let enemies = game.enemies(colour);
        let (mut one, mut two) = (0u64, 0u64);
        for c in Colour::ALL {
            if enemies & (1 << c as u8) == 0 {
                continue;
            }
            let row = game.planes[c.index()];
            for p in row {
                // Private places map to bit 63, cleared below: no branch per plane.
                let bit = 1u64 << square_bit(c, p);
                two |= one & bit;
                one |= bit;
            }
        }
        let shared = !(1u64 << NO_SQUARE);
        let mut board = Occupancy {
            one: one & shared,
            two: two & shared,
            stop: one & shared,
            cell: 0,
            weather: Weather::Storm,
            enemies,
        };
        if game.has_extras() {
            board.add_extras(game, colour);
        }
        board
    }

    /// Items and the weather cell (§7–8), only when those options are on.
    #[cold]
    #[inline(never)]
    fn add_extras(&mut self, game: &Game, colour: Colour) {
        for item in game.board_items() {
            self.stop |= 1u64 << item.square.0;
        }
        if let Some(cell) = game.weather() {
            let origin = route_origin(colour);
            let p = (u32::from(cell.square.0) + 52 - origin) % 52;
            if (1..=u32::from(TURN_IN)).contains(&p) {
                self.cell = p as u8;
                self.weather = cell.weather;
            }
        }
    }

    /// Enemy planes on square `s`: 0, 1, or 2 meaning two or more.
    #[inline]
    pub(crate) fn enemy_count_at(&self, s: Square) -> u16 {
        self.enemy_count(s)
    }

    #[inline]
    fn enemy_count(&self, s: Square) -> u16 {
        (((self.one >> s.0) & 1) + ((self.two >> s.0) & 1)) as u16
    }

    /// Where a plane of `colour` at `from` (on the board, not finished) ends by walking
    /// `pips` when the move is a plain walk: no finish, no loop, no enemy stack on the way
    /// under `block`, no weather on the way, no jump and no enemy or item at the end. `None`
    /// when the full resolver is needed.
    #[inline(always)]
    pub(crate) fn plain_walk(
        &self,
        options: &crate::Options,
        colour: Colour,
        from: Progress,
        pips: u8,
    ) -> Option<Progress> {
        let target = from.get() + pips;
        if target > 55 || options.finish == Finish::Circle {
            return None;
        }
        let to = Progress::new(target)?;
        if to.jumps() || self.stop & (1u64 << square_bit(colour, to)) & !(1u64 << NO_SQUARE) != 0 {
            return None;
        }
        if self.cell != 0 && from.get() < self.cell && self.cell <= target {
            return None;
        }
        if options.stacks == Stacks::Block
            && self
                .first_stack_on_track(colour, from.get(), target.min(TURN_IN))
                .is_some()
        {
            return None;
        }
        Some(to)
    }

    /// The first progress in `from+1 ..= to` (track only, `to ≤ 50`) of `colour`'s route
    /// holding an enemy stack.
    #[inline]
    pub(crate) fn first_stack_on_track(&self, colour: Colour, from: u8, to: u8) -> Option<u8> {
        if to <= from {
            return None;
        }
        // Rotate the track bits so that bit p is progress p of this route.
        let k = route_origin(colour);
        let x = self.two & TRACK_MASK;
        let route = ((x >> k) | (x << (52 - k))) & TRACK_MASK;
        let range = ((1u64 << (to + 1)) - 1) & !((1u64 << (from + 1)) - 1);
        let hits = route & range;
        (hits != 0).then(|| hits.trailing_zeros() as u8)
    }
}

/// The walk of one move, with its event sink.
struct Walk<'a, S> {
    game: &'a Game,
    board: &'a Occupancy,
    colour: Colour,
    plane: u8,
    /// The die (a 6 sits on a stack it cannot pass, F-STACK-TRADITIONAL).
    roll: u8,
    captured: u16,
    /// Board item slots taken, in order (see [`Move::picked`]).
    picked: u8,
    sink: &'a mut S,
}

impl<S: EventSink> Walk<'_, S> {
    /// Settles a resting point (F-CAPTURE, F-STACK-…, F-D-COLLISION, F-ITEM-PICK). Returns
    /// whether the mover survives (it does not when it lands on an enemy stack under `block`).
    #[inline(always)]
    fn settle(&mut self, at: Progress) -> bool {
        let Some(s) = square(self.colour, at) else {
            return true;
        };
        let n = self.board.enemy_count(s);
        if n != 0 {
            let victims = self.game.planes_on(s, self.board.enemies);
            self.capture(victims);
            if n >= 2 && self.game.options.stacks == Stacks::Block {
                self.sink.push(Event::Returned {
                    colour: self.colour,
                    plane: self.plane,
                    from: at,
                    reason: ReturnReason::Collision,
                });
                return false;
            }
        }
        if self.game.options.items {
            self.pick(s, at);
        }
        true
    }

    /// Takes the item lying on `s`, if any (F-ITEM-PICK): kept when the bar has room, else lost.
    #[cold]
    #[inline(never)]
    fn pick(&mut self, s: Square, at: Progress) {
        for (i, slot) in self.game.extras.board_items.iter().enumerate() {
            let Some(item) = slot else { continue };
            if item.square != s || picked_slots(self.picked).any(|j| j == i) {
                continue;
            }
            let held = self.game.item_bar(self.colour).len() + picked_slots(self.picked).count();
            self.picked |= ((i as u8) + 1) << (4 * picked_slots(self.picked).count());
            self.sink.push(Event::ItemPicked {
                colour: self.colour,
                plane: self.plane,
                item: item.item,
                at,
                kept: held < ItemBar::CAPACITY,
            });
        }
    }

    fn capture(&mut self, victims: u16) {
        self.captured |= victims;
        if S::ENABLED {
            for bit in 0..16u16 {
                if victims & (1 << bit) != 0 {
                    let colour = Colour::from_index(bit as usize / 4);
                    let plane = (bit % 4) as u8;
                    self.sink.push(Event::Captured {
                        by: self.colour,
                        colour,
                        plane,
                        from: self.game.plane(colour, plane),
                    });
                }
            }
        }
    }

    fn jumped(&mut self, from: Progress, to: Progress) {
        self.sink.push(Event::Jumped {
            colour: self.colour,
            plane: self.plane,
            from,
            to,
        });
    }

    fn walked(&mut self, from: Progress, to: Progress) {
        self.sink.push(Event::Walked {
            colour: self.colour,
            plane: self.plane,
            from,
            to,
        });
    }

    /// The shortcut from 18 (F-FLY, F-CROSS, F-D-CROSS): returns where the plane rests.
    fn fly(&mut self, then_jump: bool) -> Progress {
        let from = Progress::new(SHORTCUT_FROM).expect("18 is a progress");
        let opposite = self.colour.opposite();
        if self.board.enemies & (1 << opposite as u8) != 0 {
            let crossing = Progress::new(CROSSING).expect("53 is a progress");
            let mut on_crossing = 0u16;
            for (i, &p) in self.game.planes(opposite).iter().enumerate() {
                if p == crossing {
                    on_crossing |= 1 << (4 * opposite as u16 + i as u16);
                }
            }
            if on_crossing.count_ones() >= 2 && self.game.options.stacks == Stacks::Block {
                self.sink.push(Event::CrossingBlocked {
                    colour: self.colour,
                    plane: self.plane,
                });
                return from;
            }
            self.captured |= on_crossing;
            if S::ENABLED {
                for i in 0..4u8 {
                    if on_crossing & (1 << (4 * opposite as u16 + i as u16)) != 0 {
                        self.sink.push(Event::CrossingCapture {
                            by: self.colour,
                            colour: opposite,
                            plane: i,
                        });
                    }
                }
            }
        }
        let landing = Progress::new(SHORTCUT_TO).expect("30 is a progress");
        self.sink.push(Event::Flew {
            colour: self.colour,
            plane: self.plane,
            from,
            to: landing,
        });
        if !self.settle(landing) {
            return Progress::HANGAR;
        }
        if !then_jump {
            return landing;
        }
        let end = Progress::new(SHORTCUT_TO + 4).expect("34 is a progress");
        self.jumped(landing, end);
        if !self.settle(end) {
            return Progress::HANGAR;
        }
        end
    }

    /// Rest at the end of a forward walk, then jump and fly (F-D-ORDER).
    fn land_forward(&mut self, end: Progress) -> Progress {
        if end == Progress::LOOP_START {
            return self.land_on_own_finish(end);
        }
        if !self.settle(end) {
            return Progress::HANGAR;
        }
        if !end.jumps() {
            return end;
        }
        if end.get() == SHORTCUT_FROM {
            return self.fly(true);
        }
        let next = Progress::new(end.get() + 4).expect("jumps stay on the track");
        self.jumped(end, next);
        if !self.settle(next) {
            return Progress::HANGAR;
        }
        if next.get() == SHORTCUT_FROM {
            return self.fly(false);
        }
        next
    }

    /// Circle finish: resting on one's own finish square finishes unless it captures there
    /// (F-FINISH circle, F-D-CIRCLE).
    fn land_on_own_finish(&mut self, at: Progress) -> Progress {
        let before = self.captured;
        if !self.settle(at) {
            return Progress::HANGAR;
        }
        if self.captured != before {
            return at;
        }
        self.finished()
    }

    fn finished(&mut self) -> Progress {
        self.sink.push(Event::Finished {
            colour: self.colour,
            plane: self.plane,
        });
        Progress::FINISHED
    }

    /// A forward walk of `pips` pips from `from` (F-WALK) and what ends it: an enemy stack
    /// (F-STACK-TRADITIONAL), the finish (F-FINISH), the weather cell when `WEATHER` (at most
    /// one per move, F-WEATHER), the landing with its jumps and flights. Returns where the
    /// plane rests and whether it sits on a stack; `None` when the move is illegal (passing
    /// the finish under `exact-only`). `WEATHER` is a constant so that the walk on from the
    /// cell is another function, not a recursion, and the first one inlines into `resolve`.
    #[inline]
    fn forward<const WEATHER: bool>(
        &mut self,
        from: Progress,
        pips: u8,
    ) -> Option<(Progress, bool)> {
        let options = &self.game.options;
        let circle = options.finish == Finish::Circle;
        if !circle && from.get() + pips > 56 && options.finish == Finish::ExactOnly {
            return None;
        }
        let block = options.stacks == Stacks::Block;

        // The forward walk, stopping at the first enemy stack under `block` (F-D-SINGLE).
        let mut pos = from;
        let mut stack_at = 0u8;
        if !circle {
            let target = (from.get() + pips).min(56);
            pos = Progress::new(target).expect("walks end on the route");
            if block
                && let Some(q) =
                    self.board
                        .first_stack_on_track(self.colour, from.get(), target.min(TURN_IN))
            {
                stack_at = q - from.get();
                pos = Progress::new(q).expect("stacks stand on the track");
            }
        } else {
            for i in 1..=pips {
                pos = step_forward(pos, circle);
                if block
                    && let Some(s) = square(self.colour, pos)
                    && self.board.enemy_count(s) >= 2
                {
                    stack_at = i;
                    break;
                }
            }
        }
        // The weather cell on the way, up to and including the stack (F-WEATHER).
        let cell = self.board.cell;
        if WEATHER && cell != 0 && from.get() < cell && cell <= pos.get() {
            return self.through_weather(from, pips);
        }
        // The common case first: a plain walk to a square with no enemy, no item, no jump.
        if stack_at == 0 && !circle && pos.get() < 56 && !pos.jumps() {
            let s = square_bit(self.colour, pos);
            if s == NO_SQUARE || self.board.stop & (1u64 << s) == 0 {
                self.walked(from, pos);
                return Some((pos, false));
            }
        }
        self.walked(from, pos);
        if stack_at != 0 && stack_at < pips {
            return Some(self.blocked(pos, pips - stack_at, from.is_loop()));
        }
        let end = if !circle && pos.get() == 56 {
            let overshoot = from.get() + pips - 56;
            if overshoot == 0 || options.finish == Finish::Overshoot {
                self.finished()
            } else {
                // F-FINISH bounce: back from the finish. Only a booster reaches the track
                // again, where the bounce's end is a resting point like any other.
                let back = Progress::new(56 - overshoot).expect("bounces stay on the route");
                self.sink.push(Event::Bounced {
                    colour: self.colour,
                    plane: self.plane,
                    from: pos,
                    to: back,
                });
                if self.settle(back) {
                    back
                } else {
                    Progress::HANGAR
                }
            }
        } else {
            self.land_forward(pos)
        };
        Some((end, false))
    }

    /// The mover reached an enemy stack at `at` with `left` pips to go under `block`
    /// (F-STACK-TRADITIONAL, F-D-PAD, F-D-SIT, F-D-CIRCLE): a 6 sits on top, else it turns
    /// back the pips left.
    fn blocked(&mut self, at: Progress, left: u8, started_on_loop: bool) -> (Progress, bool) {
        if self.roll == 6 {
            // F-STACK-TRADITIONAL: a 6 stops on top of the stack; nothing is captured.
            self.sink.push(Event::SatOnStack {
                colour: self.colour,
                plane: self.plane,
                at,
            });
            if let Some(s) = square(self.colour, at)
                && self.game.options.items
            {
                self.pick(s, at);
            }
            return (at, true);
        }
        let mut pos = at;
        for _ in 0..left {
            pos = step_back(pos, started_on_loop);
        }
        self.sink.push(Event::TurnedBack {
            colour: self.colour,
            plane: self.plane,
            from: at,
            to: pos,
        });
        let circle = self.game.options.finish == Finish::Circle;
        let end = if circle && pos == Progress::LOOP_START {
            self.land_on_own_finish(pos)
        } else if self.settle(pos) {
            pos
        } else {
            Progress::HANGAR
        };
        (end, false)
    }

    /// The walk from `from` enters the weather cell with pips to spare or none (F-WEATHER):
    /// a storm ends the walk there without a jump; a tailwind adds pips; a headwind takes
    /// two off, blowing the plane back behind the cell when fewer were left.
    #[cold]
    #[inline(never)]
    fn through_weather(&mut self, from: Progress, pips: u8) -> Option<(Progress, bool)> {
        let cell = Progress::new(self.board.cell).expect("the cell is on the track");
        let left = pips - (cell.get() - from.get());
        self.walked(from, cell);
        self.sink.push(Event::WeatherFelt {
            colour: self.colour,
            plane: self.plane,
            weather: self.board.weather,
            at: cell,
        });
        match self.board.weather.effect() {
            WeatherEffect::EndWalk => {
                let end = if self.settle(cell) {
                    cell
                } else {
                    Progress::HANGAR
                };
                Some((end, false))
            }
            WeatherEffect::ExtraPips { pips } => self.beyond_cell(cell, left + pips),
            WeatherEffect::ShortBy { pips } if left >= pips => self.beyond_cell(cell, left - pips),
            WeatherEffect::ShortBy { pips } => {
                let mut pos = cell;
                for _ in left..pips {
                    pos = step_back(pos, false);
                }
                self.sink.push(Event::BlownBack {
                    colour: self.colour,
                    plane: self.plane,
                    from: cell,
                    to: pos,
                });
                let end = if self.settle(pos) {
                    pos
                } else {
                    Progress::HANGAR
                };
                Some((end, false))
            }
        }
    }

    /// The walk goes on from the weather cell with `left` pips: none ends it there (a
    /// normal end of a walk), an enemy stack on the cell blocks it, else it walks on.
    fn beyond_cell(&mut self, cell: Progress, left: u8) -> Option<(Progress, bool)> {
        if left == 0 {
            return Some((self.land_forward(cell), false));
        }
        let options = &self.game.options;
        if options.finish == Finish::ExactOnly && cell.get() + left > 56 {
            return None;
        }
        if options.stacks == Stacks::Block
            && let Some(s) = square(self.colour, cell)
            && self.board.enemy_count(s) >= 2
        {
            return Some(self.blocked(cell, left, false));
        }
        self.forward::<false>(cell, left)
    }
}

/// One pip forward on the route; under circle the loop follows square 55.
#[inline]
fn step_forward(p: Progress, circle: bool) -> Progress {
    let v = p.get();
    let next = match v {
        55 if circle => 57,
        60 => 57,
        v => v + 1,
    };
    Progress::new(next).expect("forward steps stay on the route")
}

/// One pip back (a turned-back walk): never past the launch pad (F-D-PAD); on the loop it
/// goes on backwards if the walk started there (F-D-CIRCLE).
#[inline]
fn step_back(p: Progress, started_on_loop: bool) -> Progress {
    let v = p.get();
    let prev = match v {
        0 => 0,
        57 if started_on_loop => 60,
        57 => 55,
        v => v - 1,
    };
    Progress::new(prev).expect("backward steps stay on the route")
}

impl Game {
    /// Resolves moving `plane` of `colour` by `roll` (walking [`Game::pips`]), without
    /// changing the game; `None` if that plane cannot move. Events are pushed only when the
    /// move is legal, except that a walk turned illegal by a tailwind past the finish under
    /// `exact-only` may have pushed some: callers with a real sink check legality first.
    pub(crate) fn resolve<S: EventSink>(
        &self,
        board: &Occupancy,
        colour: Colour,
        plane: u8,
        roll: u8,
        sink: &mut S,
    ) -> Option<Move> {
        let from = self.plane(colour, plane);
        if from.is_finished() {
            return None;
        }
        if from.is_hangar() {
            if !self.options.is_takeoff(roll) {
                return None;
            }
            sink.push(Event::TookOff { colour, plane });
            return Some(Move {
                plane,
                from,
                to: Progress::PAD,
                captured: 0,
                sits: false,
                picked: 0,
            });
        }
        let pips = self.pips(roll);
        let mut walk = Walk {
            game: self,
            board,
            colour,
            plane,
            roll,
            captured: 0,
            picked: 0,
            sink,
        };
        let (end, sits) = walk.forward::<true>(from, pips)?;
        let (captured, picked) = (walk.captured, walk.picked);
        self.report_stack(&mut walk, from, end);
        Some(Move {
            plane,
            from,
            to: end,
            captured,
            sits,
            picked,
        })
    }

    /// Pushes `Stacked` when the mover comes to rest with planes of its side.
    fn report_stack<S: EventSink>(&self, walk: &mut Walk<'_, S>, from: Progress, end: Progress) {
        if !S::ENABLED {
            return;
        }
        let Some(s) = square(walk.colour, end) else {
            return;
        };
        let side = walk.game.on_board() & !walk.board.enemies;
        let mut height = walk.game.planes_on(s, side).count_ones() as u16;
        // planes_on counts the mover at its old spot only when it ends where it began.
        if square(walk.colour, from) != Some(s) {
            height += 1;
        }
        if height >= 2 {
            walk.sink.push(Event::Stacked {
                colour: walk.colour,
                plane: walk.plane,
                at: end,
                height: height as u8,
            });
        }
    }
}
