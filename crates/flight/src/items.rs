//! Items (道具, flight.md §7, option `items`) as data: what each kind does, the item bar and
//! items lying on the board (F-ITEM-SPAWN, F-ITEM-PICK, F-ITEM-USE).
//!
//! The rule code never names a kind: it reads [`Item::effect`], so a new kind is one more
//! variant, one more row in [`Item::ALL`] and one more arm in [`Item::effect`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::board::Square;

/// A kind of item. The originals name these two and no others (spec §7, Decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    /// 6数骰: the roll is a 6, thrown at once.
    SixDie,
    /// 动力装置: the die is thrown at once and the moved plane walks twice the roll.
    Booster,
}

/// What an item does when used (F-ITEM-USE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ItemEffect {
    /// The roll is `value`, thrown at once without the die: a thrown `value` with all its
    /// consequences (take-off, bonus roll, three sixes, sitting on a stack).
    FixedRoll {
        /// The roll.
        value: u8,
    },
    /// The die is thrown at once and the moved plane walks `factor` times the roll; the die
    /// itself (not the pips) decides take-off, bonus roll, three sixes and sitting on a stack.
    MultiplyPips {
        /// How many times the roll.
        factor: u8,
    },
}

impl Item {
    /// Every kind, in the order the item draw indexes them (see `docs/rules-flight.md`).
    pub const ALL: [Item; 2] = [Item::SixDie, Item::Booster];

    /// What using this item does.
    pub const fn effect(self) -> ItemEffect {
        match self {
            Item::SixDie => ItemEffect::FixedRoll { value: 6 },
            Item::Booster => ItemEffect::MultiplyPips { factor: 2 },
        }
    }

    /// The name used in JSON and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Item::SixDie => "six_die",
            Item::Booster => "booster",
        }
    }

    /// The Chinese name of the originals.
    pub const fn chinese(self) -> &'static str {
        match self {
            Item::SixDie => "6数骰",
            Item::Booster => "动力装置",
        }
    }

    /// Pips walked for `roll` while this item is in use.
    #[inline]
    pub(crate) const fn pips(self, roll: u8) -> u8 {
        match self.effect() {
            ItemEffect::MultiplyPips { factor } => roll * factor,
            ItemEffect::FixedRoll { .. } => roll,
        }
    }

    /// The position of this kind in [`Item::ALL`].
    pub(crate) fn code(self) -> u16 {
        Item::ALL
            .iter()
            .position(|&i| i == self)
            .expect("every item is listed in ALL") as u16
    }
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no item.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown item {0:?} (expected six_die or booster)")]
pub struct UnknownItem(pub String);

impl FromStr for Item {
    type Err = UnknownItem;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().replace('-', "_");
        Item::ALL
            .into_iter()
            .find(|i| i.name().eq_ignore_ascii_case(&wanted) || i.chinese() == wanted)
            .ok_or_else(|| UnknownItem(s.to_owned()))
    }
}

/// An item lying on a track square, waiting to be picked up (F-ITEM-SPAWN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemOnBoard {
    /// The track square (0..=51).
    pub square: Square,
    /// The kind.
    pub item: Item,
}

/// At most this many items lie on the board at once (F-ITEM-SPAWN).
pub const MAX_ITEMS_ON_BOARD: usize = 2;

/// A player's item bar (道具栏): at most [`ItemBar::CAPACITY`] items in the order they were
/// picked up (F-ITEM-PICK). Packed in 16 bits (three 4-bit slots holding the kind's code + 1)
/// so that the game state stays one cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ItemBar(u16);

impl ItemBar {
    /// How many items a bar holds; a fourth one picked up is lost.
    pub const CAPACITY: usize = 3;

    /// An empty bar.
    pub const EMPTY: ItemBar = ItemBar(0);

    fn slot(self, i: usize) -> Option<Item> {
        let code = (self.0 >> (4 * i)) & 0xF;
        (code != 0).then(|| Item::ALL[code as usize - 1])
    }

    /// Number of items held.
    pub fn len(self) -> usize {
        (0..Self::CAPACITY)
            .filter(|&i| self.slot(i).is_some())
            .count()
    }

    /// Whether the bar is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The items, oldest first.
    pub fn items(self) -> impl Iterator<Item = Item> {
        (0..Self::CAPACITY).filter_map(move |i| self.slot(i))
    }

    /// Whether the bar holds an item of this kind.
    pub fn contains(self, item: Item) -> bool {
        self.items().any(|i| i == item)
    }

    /// Adds `item` at the end; returns `false` (and keeps the bar) when it is full.
    pub(crate) fn push(&mut self, item: Item) -> bool {
        let len = self.len();
        if len >= Self::CAPACITY {
            return false;
        }
        self.0 |= (item.code() + 1) << (4 * len);
        true
    }

    /// Removes the oldest item of this kind; returns whether there was one.
    pub(crate) fn remove(&mut self, item: Item) -> bool {
        let kept: Vec<Item> = self.items().collect();
        let Some(at) = kept.iter().position(|&i| i == item) else {
            return false;
        };
        let mut bar = ItemBar::EMPTY;
        for (i, &k) in kept.iter().enumerate() {
            if i != at {
                bar.push(k);
            }
        }
        *self = bar;
        true
    }

    /// A bar holding `items` in order; `None` when there are more than it holds.
    pub fn from_items(items: &[Item]) -> Option<ItemBar> {
        let mut bar = ItemBar::EMPTY;
        for &item in items {
            if !bar.push(item) {
                return None;
            }
        }
        Some(bar)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_keeps_order_refuses_a_fourth_and_removes_the_oldest_of_a_kind() {
        let mut bar = ItemBar::EMPTY;
        assert!(bar.push(Item::Booster));
        assert!(bar.push(Item::SixDie));
        assert!(bar.push(Item::Booster));
        assert!(!bar.push(Item::SixDie), "F-ITEM-PICK: a fourth is lost");
        assert_eq!(bar.len(), 3);
        assert!(bar.remove(Item::Booster));
        assert_eq!(
            bar.items().collect::<Vec<_>>(),
            vec![Item::SixDie, Item::Booster]
        );
        assert!(!ItemBar::EMPTY.contains(Item::SixDie));
        assert!(!bar.clone().remove(Item::SixDie) || bar.contains(Item::SixDie));
    }

    #[test]
    fn names_round_trip() {
        for item in Item::ALL {
            assert_eq!(item.name().parse::<Item>().unwrap(), item);
            assert_eq!(item.chinese().parse::<Item>().unwrap(), item);
        }
        assert_eq!("six-die".parse::<Item>().unwrap(), Item::SixDie);
        assert!("shield".parse::<Item>().is_err());
    }
}
