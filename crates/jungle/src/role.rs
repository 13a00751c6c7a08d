//! The eight animals (J-PIECES) and a piece: an animal of one side.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::color::Color;
use crate::rules::Order;

/// One of the eight animals. The order of the variants is the default ranking, weakest first
/// (J-PIECES); [`Role::strength`] gives the rank under a chosen [`Order`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// 鼠, rank 1: swims, captures the elephant from land, blocks leaps.
    Rat = 0,
    /// 猫, rank 2.
    Cat = 1,
    /// 狼 (or 狐, fox), rank 3 (4 with `order = wolf-over-dog`).
    Wolf = 2,
    /// 狗, rank 4 (3 with `order = wolf-over-dog`).
    Dog = 3,
    /// 豹, rank 5 (leaps sideways with the `leopard-leaps` option).
    Leopard = 4,
    /// 虎, rank 6: leaps over the rivers.
    Tiger = 5,
    /// 狮, rank 7: leaps over the rivers.
    Lion = 6,
    /// 象, rank 8: cannot capture the rat (unless `elephant-takes-rat`).
    Elephant = 7,
}

impl Role {
    /// Every animal, weakest first in the default order.
    pub const ALL: [Role; 8] = [
        Role::Rat,
        Role::Cat,
        Role::Wolf,
        Role::Dog,
        Role::Leopard,
        Role::Tiger,
        Role::Lion,
        Role::Elephant,
    ];

    /// The index of the animal in arrays, 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank of the animal (1 rat … 8 elephant) under `order` (J-PIECES).
    #[inline]
    pub const fn strength(self, order: Order) -> u8 {
        match (self, order) {
            (Role::Wolf, Order::WolfOverDog) => 4,
            (Role::Dog, Order::WolfOverDog) => 3,
            _ => self as u8 + 1,
        }
    }

    /// The upper-case letter of the animal in position text (§5): E L T P D W C R.
    pub const fn upper_char(self) -> char {
        match self {
            Role::Rat => 'R',
            Role::Cat => 'C',
            Role::Wolf => 'W',
            Role::Dog => 'D',
            Role::Leopard => 'P',
            Role::Tiger => 'T',
            Role::Lion => 'L',
            Role::Elephant => 'E',
        }
    }

    /// The animal of a letter, either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'R' => Some(Role::Rat),
            'C' => Some(Role::Cat),
            'W' => Some(Role::Wolf),
            'D' => Some(Role::Dog),
            'P' => Some(Role::Leopard),
            'T' => Some(Role::Tiger),
            'L' => Some(Role::Lion),
            'E' => Some(Role::Elephant),
            _ => None,
        }
    }

    /// The English name, lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Rat => "rat",
            Role::Cat => "cat",
            Role::Wolf => "wolf",
            Role::Dog => "dog",
            Role::Leopard => "leopard",
            Role::Tiger => "tiger",
            Role::Lion => "lion",
            Role::Elephant => "elephant",
        }
    }

    /// The Chinese character of the animal, as printed on the pieces.
    pub const fn chinese(self) -> char {
        match self {
            Role::Rat => '鼠',
            Role::Cat => '猫',
            Role::Wolf => '狼',
            Role::Dog => '狗',
            Role::Leopard => '豹',
            Role::Tiger => '虎',
            Role::Lion => '狮',
            Role::Elephant => '象',
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An animal of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Which animal it is.
    pub role: Role,
}

impl Piece {
    /// The letter in position text: upper case for red, lower case for yellow (§5).
    pub const fn char(self) -> char {
        let upper = self.role.upper_char();
        match self.color {
            Color::Red => upper,
            Color::Yellow => upper.to_ascii_lowercase(),
        }
    }

    /// The piece of a position-text letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        let Some(role) = Role::from_char(c) else {
            return None;
        };
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Yellow
        };
        Some(Piece { color, role })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn j_pieces_ranks_follow_the_chosen_order() {
        // J-PIECES: 象8 狮7 虎6 豹5 狗4 狼3 猫2 鼠1, or 狼4 狗3 with wolf-over-dog.
        let d = Order::DogOverWolf;
        let expected = [1, 2, 3, 4, 5, 6, 7, 8];
        for (role, want) in Role::ALL.iter().zip(expected) {
            assert_eq!(role.strength(d), want, "{role}");
        }
        let w = Order::WolfOverDog;
        assert_eq!(Role::Wolf.strength(w), 4);
        assert_eq!(Role::Dog.strength(w), 3);
        assert_eq!(Role::Lion.strength(w), 7);
    }

    #[test]
    fn piece_letters_round_trip() {
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                assert_eq!(Piece::from_char(piece.char()), Some(piece));
            }
        }
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(Piece::from_char('5'), None);
    }
}
