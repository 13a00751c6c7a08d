//! Running the `hangar` binary as a real process in tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `hangar ARGS…` with `stdin` as its standard input; its exit status and output.
pub fn hangar(args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hangar binary runs");
    // The program may end (or quit) before reading everything: a closed pipe is fine.
    let _ = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_ref());
    child.wait_with_output().expect("hangar finishes")
}
