//! Aeroplane Chess (飞行棋) rules, as specified in `shared/spec/flight.md`.
