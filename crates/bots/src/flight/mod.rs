//! Bots for Aeroplane Chess (飞行棋).

pub mod eval;
pub mod geometry;
pub mod snapshot;
