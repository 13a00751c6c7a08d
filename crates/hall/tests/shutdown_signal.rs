//! The hall's stop signal is caught from the moment `shutdown_signal` is called.
//!
//! Its own test binary: a SIGTERM that is not caught ends the whole process, which is the
//! failure this test exists to show.

#![cfg(unix)]

use std::process::Command;
use std::time::Duration;

/// `hangar serve` logs "the hall is open" and then starts serving; an orchestrator (or a test)
/// that sends SIGTERM as soon as it reads the line must get a drain, not the default action.
#[tokio::test]
async fn a_sigterm_sent_before_the_future_is_first_polled_is_caught() {
    let stop = hangar_hall::shutdown_signal();
    let me = std::process::id().to_string();
    let sent = Command::new("kill").args(["-TERM", &me]).status().unwrap();
    assert!(sent.success(), "kill -TERM {me}");
    tokio::time::timeout(Duration::from_secs(10), stop)
        .await
        .expect("the stop future completes once the signal has arrived");
}
