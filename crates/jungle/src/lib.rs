//! Jungle (斗兽棋) rules, as specified in `shared/spec/jungle.md`.
