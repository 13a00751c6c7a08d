//! Moving one plane by one roll (F-WALK … F-CROSS, F-CAPTURE, F-STACK, F-D-ORDER) and the
//! list of legal choices for a roll (F-CHOICE, F-D-SAME).

use std::ops::Deref;

use crate::board::{CROSSING, Progress, SHORTCUT_FROM, SHORTCUT_TO, Square, square};
use crate::colour::Colour;
use crate::event::{Event, EventSink, NoEvents, ReturnReason};
use crate::game::{Game, Phase};
use crate::options::{Finish, Stacks, ThreeSixes};

/// One legal choice for a roll: moving `plane`, with its result computed in advance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The plane's index within its colour.
    pub plane: u8,
    /// Where it starts.
    pub from: Progress,
    /// Where it ends: `FINISHED`, or `HANGAR` when it landed on an enemy stack under `block`.
    pub to: Progress,
    /// The enemy planes sent back, bit `4 × colour + plane` (see [`Move::captured_planes`]).
    pub captured: u16,
    /// Whether it ends sitting on an enemy stack (F-D-SIT).
    pub sits: bool,
}

impl Move {
    const NONE: Move = Move {
        plane: 0,
        from: Progress::HANGAR,
        to: Progress::HANGAR,
        captured: 0,
        sits: false,
    };

    /// The enemy planes this move sends back, as (colour, plane).
    pub fn captured_planes(&self) -> impl Iterator<Item = (Colour, u8)> + '_ {
        (0..16u8)
            .filter(|bit| self.captured & (1 << bit) != 0)
            .map(|bit| (Colour::from_index(bit as usize / 4), bit % 4))
    }

    /// Number of enemy planes this move sends back.
    pub fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }
}

/// The legal choices for a roll, one per distinct result (F-D-SAME): at most one per plane,
/// in plane order, held inline (no allocation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Moves {
    len: u8,
    items: [Move; 4],
}

impl Moves {
    /// No legal move.
    pub const EMPTY: Moves = Moves {
        len: 0,
        items: [Move::NONE; 4],
    };

    #[inline]
    fn push(&mut self, m: Move) {
        self.items[self.len as usize] = m;
        self.len += 1;
    }

    #[inline]
    fn remove(&mut self, index: usize) {
        let len = self.len as usize;
        self.items.copy_within(index + 1..len, index);
        self.len -= 1;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.items[..self.len as usize]
    }

    /// The choice that moves `plane`, if it is a listed representative.
    pub fn by_plane(&self, plane: u8) -> Option<&Move> {
        self.as_slice().iter().find(|m| m.plane == plane)
    }
}

impl Deref for Moves {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Moves {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// What the move resolver reads: shared-square occupancy and the enemy mask of the mover.
pub(crate) struct Board {
    occ: [u16; Square::COUNT],
    /// 0xF in each enemy colour's nibble.
    enemy_nibbles: u16,
    /// Enemy colours (bit per colour).
    enemies: u8,
}

impl Board {
    pub(crate) fn new(game: &Game, colour: Colour) -> Board {
        let enemies = game.enemies(colour);
        let mut enemy_nibbles = 0u16;
        for c in Colour::ALL {
            if enemies & (1 << c as u8) != 0 {
                enemy_nibbles |= 0xF << (4 * c as u16);
            }
        }
        Board {
            occ: game.occupancy(),
            enemy_nibbles,
            enemies,
        }
    }

    /// Enemy planes on square `s`.
    #[inline]
    pub(crate) fn enemy_count_at(&self, s: Square) -> u16 {
        self.enemy_count(s)
    }

    #[inline]
    fn enemy_count(&self, s: Square) -> u16 {
        let x = self.occ[s.0 as usize] & self.enemy_nibbles;
        (x & 0xF) + ((x >> 4) & 0xF) + ((x >> 8) & 0xF) + (x >> 12)
    }

    /// Planes of `colour`'s side on square `s`.
    fn side_count(&self, s: Square) -> u16 {
        let x = self.occ[s.0 as usize] & !self.enemy_nibbles;
        (x & 0xF) + ((x >> 4) & 0xF) + ((x >> 8) & 0xF) + (x >> 12)
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
        for i in 1..=roll {
            if !circle && pos.get() == 56 {
                break;
            }
            pos = step_forward(pos, circle);
            if block
                && let Some(s) = square(colour, pos)
                && board.enemy_count(s) >= 2
            {
                stack_at = i;
                break;
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
        let mut height = walk.board.side_count(s) + 1;
        if square(walk.colour, from) == Some(s) {
            height -= 1;
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

    /// The legal choices of the player on turn for `roll`, whatever the phase (bots use this
    /// to look ahead). One entry per distinct result (F-CHOICE, F-D-SAME); only the plane
    /// sitting on a stack when there is one (F-D-SIT). Ignores the three-sixes penalty.
    pub fn moves_for(&self, roll: u8) -> Moves {
        let mut moves = Moves::EMPTY;
        if self.phase == Phase::Over || !(1..=6).contains(&roll) {
            return moves;
        }
        let colour = self.turn;
        if let Some(plane) = self.forced {
            let board = Board::new(self, colour);
            if let Some(m) = self.resolve(&board, colour, plane, roll, &mut NoEvents) {
                moves.push(m);
            }
            return moves;
        }
        let takeoff = self.options.is_takeoff(roll);
        // The board is built only when a plane on it may move: early in a game most rolls
        // move nothing, and the simulation speed depends on it.
        let mut board: Option<Board> = None;
        let planes = &self.planes[colour.index()][..self.plane_count()];
        for (i, &p) in planes.iter().enumerate() {
            // Planes on one spot are interchangeable: only the first is listed.
            if p.is_finished() || planes[..i].contains(&p) {
                continue;
            }
            if p.is_hangar() {
                if takeoff {
                    moves.push(Move {
                        plane: i as u8,
                        from: p,
                        to: Progress::PAD,
                        captured: 0,
                        sits: false,
                    });
                }
                continue;
            }
            let board = board.get_or_insert_with(|| Board::new(self, colour));
            if let Some(m) = self.resolve(board, colour, i as u8, roll, &mut NoEvents) {
                moves.push(m);
            }
        }
        if moves.len >= 2 && !(roll == 6 && self.options.three_sixes == ThreeSixes::MovedToHangar) {
            merge_equivalent(&mut moves);
        }
        moves
    }

    /// The legal choices for the pending roll; empty unless a move is awaited.
    pub fn legal_moves(&self) -> Moves {
        match self.phase {
            Phase::Move { roll } => self.moves_for(roll),
            _ => Moves::EMPTY,
        }
    }

    /// Whether moving `plane` by the pending roll is legal (any plane of an equivalent group
    /// is accepted, not only the listed one).
    pub fn is_legal(&self, plane: u8) -> bool {
        let Phase::Move { roll } = self.phase else {
            return false;
        };
        if plane as usize >= self.plane_count() || self.forced.is_some_and(|f| f != plane) {
            return false;
        }
        let board = Board::new(self, self.turn);
        self.resolve(&board, self.turn, plane, roll, &mut NoEvents)
            .is_some()
    }
}

/// Two moves of planes on different spots give the same position only when neither
/// captures and they swap the two planes' spots or both change nothing (F-D-SAME).
fn merge_equivalent(moves: &mut Moves) {
    let mut i = 0;
    while i < moves.len as usize {
        let a = moves.items[i];
        let mut j = i + 1;
        while j < moves.len as usize {
            let b = moves.items[j];
            let quiet = a.captured == 0 && b.captured == 0 && !a.sits && !b.sits;
            let swap = a.to == b.from && b.to == a.from;
            let both_still = a.to == a.from && b.to == b.from;
            if quiet && (swap || both_still) {
                moves.remove(j);
            } else {
                j += 1;
            }
        }
        i += 1;
    }
}
