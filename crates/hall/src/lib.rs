//! The Hangar game hall: the online server for Aeroplane Chess and Jungle (`shared/spec/platform.md`).
