//! Resolving one plane's move by one roll (F-WALK, F-FINISH, F-JUMP, F-FLY, F-CROSS,
//! F-CAPTURE, F-STACK-…, F-D-ORDER, F-D-PAD, F-D-SIT, F-D-CIRCLE), without changing the game.

use crate::board::{
    CROSSING, NO_SQUARE, Progress, SHORTCUT_FROM, SHORTCUT_TO, Square, TURN_IN, route_origin,
    square, square_bit,
};
use crate::colour::Colour;
use crate::event::{Event, EventSink, ReturnReason};
use crate::game::Game;
use crate::moves::Move;
use crate::options::{Finish, Stacks};

/// What the move resolver reads: where the mover's enemies stand, as bit sets of shared
/// squares (bit `s` for [`Square`] `s`), so that lookups are single instructions.
pub(crate) struct Board {
    /// Squares holding at least one enemy plane.
    one: u64,
    /// Squares holding two or more enemy planes: stacks (F-D-SINGLE).
    two: u64,
    /// Enemy colours (bit per colour).
    enemies: u8,
}

const TRACK_MASK: u64 = (1 << 52) - 1;

impl Board {
    #[inline]
    pub(crate) fn new(game: &Game, colour: Colour) -> Board {
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
        Board {
            one: one & shared,
            two: two & shared,
            enemies,
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

    /// Where a plane of `colour` at `from` (on the board, not finished) ends by `roll` when
    /// the move is a plain walk: no finish, no loop, no enemy stack on the way under
    /// `block`, no jump and no enemy at the end. `None` when the full resolver is needed.
    #[inline(always)]
    pub(crate) fn plain_walk(
        &self,
        options: &crate::Options,
        colour: Colour,
        from: Progress,
        roll: u8,
    ) -> Option<Progress> {
        let target = from.get() + roll;
        if target > 55 || options.finish == Finish::Circle {
            return None;
        }
        let to = Progress::new(target)?;
        if to.jumps() || self.one & (1u64 << square_bit(colour, to)) & !(1u64 << NO_SQUARE) != 0 {
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
    board: &'a Board,
    colour: Colour,
    plane: u8,
    captured: u16,
    sink: &'a mut S,
}

impl<S: EventSink> Walk<'_, S> {
    /// Settles a resting point (F-CAPTURE, F-STACK-…, F-D-COLLISION). Returns whether the
    /// mover survives (it does not when it lands on an enemy stack under `block`).
    #[inline]
    fn settle(&mut self, at: Progress) -> bool {
        let Some(s) = square(self.colour, at) else {
            return true;
        };
        let n = self.board.enemy_count(s);
        if n == 0 {
            return true;
        }
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
        true
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
    /// Resolves moving `plane` of `colour` by `roll`, without changing the game; `None` if
    /// that plane cannot move. Events are pushed only when the move is legal.
    pub(crate) fn resolve<S: EventSink>(
        &self,
        board: &Board,
        colour: Colour,
        plane: u8,
        roll: u8,
        sink: &mut S,
    ) -> Option<Move> {
        let from = self.plane(colour, plane);
        if from.is_finished() {
            return None;
        }
        let done = |to: Progress, captured: u16, sits: bool| Move {
            plane,
            from,
            to,
            captured,
            sits,
        };
        if from.is_hangar() {
            if !self.options.is_takeoff(roll) {
                return None;
            }
            sink.push(Event::TookOff { colour, plane });
            return Some(done(Progress::PAD, 0, false));
        }
        let circle = self.options.finish == Finish::Circle;
        if !circle && from.get() + roll > 56 && self.options.finish == Finish::ExactOnly {
            return None;
        }
        let block = self.options.stacks == Stacks::Block;

        // The forward walk, stopping at the first enemy stack under `block` (F-D-SINGLE).
        let mut pos = from;
        let mut stack_at = 0u8;
        if !circle {
            let target = (from.get() + roll).min(56);
            pos = Progress::new(target).expect("walks end on the route");
            if block
                && let Some(q) = board.first_stack_on_track(colour, from.get(), target.min(TURN_IN))
            {
                stack_at = q - from.get();
                pos = Progress::new(q).expect("stacks stand on the track");
            }
        } else {
            for i in 1..=roll {
                pos = step_forward(pos, circle);
                if block
                    && let Some(s) = square(colour, pos)
                    && board.enemy_count(s) >= 2
                {
                    stack_at = i;
                    break;
                }
            }
        }
        // The common case first: a plain walk to a square with no enemy and no jump.
        if stack_at == 0 && !circle && pos.get() < 56 && !pos.jumps() {
            let s = square_bit(colour, pos);
            if s == NO_SQUARE || board.one & (1u64 << s) == 0 {
                sink.push(Event::Walked {
                    colour,
                    plane,
                    from,
                    to: pos,
                });
                let mut walk = Walk {
                    game: self,
                    board,
                    colour,
                    plane,
                    captured: 0,
                    sink,
                };
                self.report_stack(&mut walk, from, pos);
                return Some(done(pos, 0, false));
            }
        }
        let mut walk = Walk {
            game: self,
            board,
            colour,
            plane,
            captured: 0,
            sink,
        };
        walk.sink.push(Event::Walked {
            colour,
            plane,
            from,
            to: pos,
        });

        if stack_at != 0 && stack_at < roll {
            if roll == 6 {
                // F-STACK-TRADITIONAL: a 6 stops on top of the stack; nothing is captured.
                walk.sink.push(Event::SatOnStack {
                    colour,
                    plane,
                    at: pos,
                });
                return Some(done(pos, 0, true));
            }
            let turn = pos;
            let started_on_loop = from.is_loop();
            for _ in stack_at..roll {
                pos = step_back(pos, started_on_loop);
            }
            walk.sink.push(Event::TurnedBack {
                colour,
                plane,
                from: turn,
                to: pos,
            });
            let end = if circle && pos == Progress::LOOP_START {
                walk.land_on_own_finish(pos)
            } else if walk.settle(pos) {
                pos
            } else {
                Progress::HANGAR
            };
            let captured = walk.captured;
            self.report_stack(&mut walk, from, end);
            return Some(done(end, captured, false));
        }

        let end = if !circle && pos.get() == 56 {
            let overshoot = from.get() + roll - 56;
            if overshoot == 0 || self.options.finish == Finish::Overshoot {
                walk.finished()
            } else {
                // F-FINISH bounce: back from the finish; the home column is private.
                let back = Progress::new(56 - overshoot).expect("bounces stay in the column");
                walk.sink.push(Event::Bounced {
                    colour,
                    plane,
                    from: pos,
                    to: back,
                });
                back
            }
        } else {
            walk.land_forward(pos)
        };
        let captured = walk.captured;
        self.report_stack(&mut walk, from, end);
        Some(done(end, captured, false))
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
