//! Bots for Jungle (斗兽棋).
