//! Bots for Aeroplane Chess (飞行棋).
