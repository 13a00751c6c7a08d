//! Arenas the hall makes by itself (P-ARENA): `hangar serve --arena-schedule
//! GAME:EVERY:MINUTES[:TURN_SECONDS]`, e.g. `jungle:60:30:15` (an hourly Jungle blitz of 30
//! minutes, 15 s per decision) or `flight:120:60` (a flight arena every two hours). Starts
//! fall on whole multiples of EVERY minutes since the Unix epoch (each full hour for 60), and
//! the next arena of each schedule is made ahead, so that the hall lists it with its countdown.

use std::str::FromStr;

use hangar_protocol::GameKind;

use super::create::{MINUTES, TURN_SECONDS};

/// One repeated arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaSchedule {
    /// The game.
    pub game: GameKind,
    /// Minutes from one start to the next.
    pub every_minutes: i64,
    /// How long each runs, minutes (at most `every_minutes`).
    pub minutes: i64,
    /// Seconds per decision in its games.
    pub turn_seconds: u64,
}

impl ArenaSchedule {
    /// The first start after `now` (Unix ms).
    pub fn next_start(&self, now: i64) -> i64 {
        let every = self.every_minutes * 60_000;
        (now.div_euclid(every) + 1) * every
    }

    /// The name its arenas carry, e.g. `Jungle arena, 30 min, every 60 min`.
    pub fn name(&self) -> String {
        let game = match self.game {
            GameKind::Jungle => "Jungle",
            GameKind::Flight => "Flight",
        };
        format!(
            "{game} arena, {} min, every {} min",
            self.minutes, self.every_minutes
        )
    }
}

impl FromStr for ArenaSchedule {
    type Err = String;

    fn from_str(spec: &str) -> Result<Self, String> {
        let usage = || format!("arena schedule {spec:?}: GAME:EVERY:MINUTES[:TURN_SECONDS]");
        let parts: Vec<&str> = spec.split(':').collect();
        if !(3..=4).contains(&parts.len()) {
            return Err(usage());
        }
        let game = GameKind::from_name(parts[0])
            .ok_or_else(|| format!("{}: no game {:?} (jungle or flight)", usage(), parts[0]))?;
        let number = |s: &str| s.parse::<i64>().map_err(|_| usage());
        let every_minutes = number(parts[1])?;
        let minutes = number(parts[2])?;
        let turn_seconds = match parts.get(3) {
            Some(s) => s.parse::<u64>().map_err(|_| usage())?,
            None => 20,
        };
        if !MINUTES.contains(&minutes) || !(minutes..=7 * 24 * 60).contains(&every_minutes) {
            return Err(format!(
                "{}: 1–1440 minutes long, starting again every MINUTES to 10080 minutes",
                usage()
            ));
        }
        if !TURN_SECONDS.contains(&turn_seconds) {
            return Err(format!("{}: 5–120 seconds per decision", usage()));
        }
        Ok(ArenaSchedule {
            game,
            every_minutes,
            minutes,
            turn_seconds,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_arena_schedules_read_and_start_on_the_hour() {
        let hourly: ArenaSchedule = "jungle:60:30:15".parse().expect("reads");
        assert_eq!(
            hourly,
            ArenaSchedule {
                game: GameKind::Jungle,
                every_minutes: 60,
                minutes: 30,
                turn_seconds: 15
            }
        );
        let hour = 3_600_000;
        assert_eq!(hourly.next_start(5 * hour + 1), 6 * hour);
        assert_eq!(hourly.next_start(5 * hour), 6 * hour);
        let flight: ArenaSchedule = "flight:120:60".parse().expect("reads");
        assert_eq!(
            (flight.turn_seconds, flight.next_start(hour)),
            (20, 2 * hour)
        );
        for bad in [
            "chess:60:30",
            "jungle:60",
            "jungle:20:30",
            "jungle:60:0",
            "jungle:60:30:1",
            "x",
        ] {
            assert!(bad.parse::<ArenaSchedule>().is_err(), "{bad}");
        }
    }
}
