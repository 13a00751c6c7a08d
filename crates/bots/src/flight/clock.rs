//! The clocks a decision budget can be measured by: the wall clock (the hall, where a person
//! waits for the bot) or the CPU time of the deciding thread (`hangar sim`, where a loaded
//! machine must not make a clocked bot weaker: a thread that is not scheduled spends no CPU
//! time, so a 50 ms budget buys the same work whatever else runs).

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use cpu_time::ThreadTime;

/// Which clock measures a decision's time budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Clock {
    /// Wall-clock time (what a waiting person feels; the hall's default).
    #[default]
    Wall,
    /// CPU time of the thread that decides (independent of the machine's load).
    Cpu,
}

impl Clock {
    /// The clock's name in bot specs and on the command line (`wall`, `cpu`).
    pub const fn name(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
        }
    }

    /// A deadline `budget` from now on this clock.
    pub fn deadline(self, budget: Duration) -> Deadline {
        match self {
            Clock::Wall => Deadline::Wall(Instant::now() + budget),
            Clock::Cpu => Deadline::Cpu(ThreadTime::now(), budget),
        }
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A clock name that is neither `wall` nor `cpu`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown clock `{0}` (expected wall or cpu)")]
pub struct UnknownClock(pub String);

impl FromStr for Clock {
    type Err = UnknownClock;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "wall" => Ok(Clock::Wall),
            "cpu" => Ok(Clock::Cpu),
            other => Err(UnknownClock(other.to_owned())),
        }
    }
}

/// The end of a decision's budget. CPU deadlines are for the thread that made them: a bot
/// decides on one thread, so it is checked where it was started.
#[derive(Clone, Copy, Debug)]
pub enum Deadline {
    /// Passed when the wall clock reaches this instant.
    Wall(Instant),
    /// Passed when this thread has used the budget of CPU time since the start.
    Cpu(ThreadTime, Duration),
}

impl Deadline {
    /// Whether the budget is spent.
    pub fn passed(&self) -> bool {
        match self {
            Deadline::Wall(at) => Instant::now() >= *at,
            Deadline::Cpu(start, budget) => start.elapsed() >= *budget,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_parse_and_print() {
        for clock in [Clock::Wall, Clock::Cpu] {
            assert_eq!(clock.name().parse::<Clock>().unwrap(), clock);
        }
        assert!("sundial".parse::<Clock>().is_err());
    }

    #[test]
    fn a_cpu_deadline_passes_only_after_work() {
        let cpu = Clock::Cpu.deadline(Duration::from_millis(5));
        let wall = Clock::Wall.deadline(Duration::from_millis(5));
        // Sleeping spends wall-clock time but no CPU time.
        std::thread::sleep(Duration::from_millis(20));
        assert!(wall.passed());
        assert!(!cpu.passed());
        // Busy work spends CPU time, so the CPU deadline passes in the end.
        let mut x = 1u64;
        while !cpu.passed() {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}
