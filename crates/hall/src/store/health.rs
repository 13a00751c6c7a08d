//! Whether the storage can be trusted, as the writer sees it: a SQLite file deleted or
//! replaced while the hall runs (for good: what was written since is lost), or writes failing
//! for longer than a bound (until one succeeds again). Either is a fault that `/health`
//! reports and that makes rooms refuse new games and actions at once (`unavailable`) instead
//! of queueing writes that cannot be stored. While writes fail the writer probes the database
//! now and then, so that the hall recovers by itself once it takes writes again.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long writes may fail before the storage counts as failing, unless the hall sets
/// another bound (`hangar serve --storage-failure-seconds`).
pub const DEFAULT_FAILURE_BOUND: Duration = Duration::from_secs(10);

/// How often the writer probes a database whose writes fail while no write comes.
pub(super) const PROBE_EVERY: Duration = Duration::from_millis(500);

/// The SQLite file the hall opened, by identity (device and inode): a file deleted or
/// replaced while the hall runs would take every later commit with it unnoticed (SQLite
/// writes on into the unlinked file), so the writer checks it before each commit.
pub(super) struct DbFile {
    path: std::path::PathBuf,
    identity: (u64, u64),
}

impl DbFile {
    /// The file of a `sqlite:PATH?…` URL as it is now (`None` for an in-memory database).
    pub(super) fn of(url: &str) -> Option<DbFile> {
        let path = url.strip_prefix("sqlite:")?;
        let path = path.split_once('?').map_or(path, |(path, _)| path);
        let path = std::path::PathBuf::from(path);
        let identity = identity(&path)?;
        Some(DbFile { path, identity })
    }

    /// Why the file is no longer the one opened, if it is not. Said without its path: the
    /// reason is shown on `/health` and in `unavailable` errors to anyone (the log, for the
    /// operators, names the file).
    fn changed(&self) -> Option<String> {
        let what = match identity(&self.path) {
            Some(now) if now == self.identity => return None,
            Some(_) => "was replaced",
            None => "is gone",
        };
        tracing::error!(file = %self.path.display(), "the database file {what}");
        Some(format!("the database file {what}"))
    }
}

/// `reason` with every word that looks like a filesystem path (it holds a `/` or a `\\`)
/// replaced by `[path]`: database errors may name files, and a fault is shown to anyone.
pub(super) fn without_paths(reason: &str) -> String {
    reason
        .split(' ')
        .map(|word| {
            if word.contains('/') || word.contains('\\') {
                "[path]"
            } else {
                word
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn identity(path: &std::path::Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.dev(), meta.ino()))
}

/// The fault shared with the rest of the hall (`None`: healthy), and the bound.
#[derive(Clone)]
pub(super) struct Shared {
    pub(super) fault: Arc<Mutex<Option<String>>>,
    /// Milliseconds writes may fail before the storage counts as failing.
    pub(super) bound_ms: Arc<AtomicU64>,
}

impl Shared {
    pub(super) fn new() -> Shared {
        Shared {
            fault: Arc::new(Mutex::new(None)),
            bound_ms: Arc::new(AtomicU64::new(millis(DEFAULT_FAILURE_BOUND))),
        }
    }

    fn set(&self, fault: Option<String>) {
        if let Ok(mut slot) = self.fault.lock() {
            *slot = fault;
        }
    }

    pub(super) fn set_bound(&self, bound: Duration) {
        self.bound_ms.store(millis(bound), Ordering::Relaxed);
    }

    fn bound(&self) -> Duration {
        Duration::from_millis(self.bound_ms.load(Ordering::Relaxed))
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The writer's view of the storage's health.
pub(super) struct Health {
    file: Option<DbFile>,
    shared: Shared,
    /// When the first of the writes failing now was tried.
    failing_since: Option<Instant>,
    /// A failing-writes fault is reported (cleared by the next success).
    reported: bool,
    /// The file was lost: reported for good.
    lost: bool,
}

impl Health {
    pub(super) fn new(file: Option<DbFile>, shared: Shared) -> Health {
        Health {
            file,
            shared,
            failing_since: None,
            reported: false,
            lost: false,
        }
    }

    /// An error for the batch when the database file is not the one opened; reports the
    /// fault the first time it is seen.
    pub(super) fn check_file(&mut self) -> Result<(), String> {
        let Some(reason) = self.file.as_ref().and_then(DbFile::changed) else {
            return Ok(());
        };
        if !self.lost {
            tracing::error!(reason = %reason, "storage lost: nothing more is acknowledged");
            self.shared.set(Some(reason.clone()));
            self.lost = true;
        }
        Err(reason)
    }

    /// A write tried at `started` failed with `reason`.
    pub(super) fn failed(&mut self, started: Instant, reason: &str) {
        if self.lost {
            return;
        }
        let since = *self.failing_since.get_or_insert(started);
        let bound = self.shared.bound();
        if since.elapsed() >= bound {
            let fault = format!(
                "writes have failed for {} s: {}",
                since.elapsed().as_secs(),
                without_paths(reason)
            );
            if !self.reported {
                tracing::error!(fault = %fault, "storage failing: new games and actions are refused until writes succeed");
            }
            self.shared.set(Some(fault));
            self.reported = true;
        }
    }

    /// A write succeeded: failing writes are over.
    pub(super) fn succeeded(&mut self) {
        self.failing_since = None;
        if self.reported && !self.lost {
            tracing::info!("storage recovered: writes succeed again");
            self.shared.set(None);
        }
        self.reported = false;
    }

    /// Whether writes are failing (and the writer should probe when idle).
    pub(super) fn failing(&self) -> bool {
        self.failing_since.is_some() && !self.lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_database_file_is_reported_without_its_path() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("hall.db");
        std::fs::write(&path, b"").expect("a file");
        let file = DbFile::of(&format!("sqlite:{}", path.display())).expect("the file");
        std::fs::remove_file(&path).expect("removed");
        let reason = file.changed().expect("the file is gone");
        assert_eq!(reason, "the database file is gone");
        assert!(!reason.contains(&dir.path().display().to_string()));
    }

    #[test]
    fn write_errors_are_shown_without_paths() {
        assert_eq!(
            without_paths("unable to open /srv/hangar/hangar.db: disk full"),
            "unable to open [path] disk full"
        );
    }
}
