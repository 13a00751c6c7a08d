//! The engine process: started with `sh -c COMMAND`, asked one line at a time with a time
//! limit, restarted with a back-off when it dies, given up after repeated crashes (P-ENGINE,
//! docs/engine.md). Every miss is logged on standard error; the caller lets the built-in
//! auto-play bot choose instead.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::thread;
use std::time::{Duration, Instant};

use hangar_games::engine_line::{Answer, BadAnswer, parse_answer};
use serde_json::{Map, Value};

/// Crashes in a row (with no valid answer between them) after which the engine is given up.
pub const MAX_CRASHES: u32 = 5;

/// The first restart's delay; each crash in a row doubles it.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);

/// Extra time for the first question after a start: an interpreter's start-up (Python's
/// takes tens of milliseconds, much more on a loaded machine) is not thinking time.
pub const START_GRACE: Duration = Duration::from_secs(5);

/// Lines read ahead of the questions at most (see [`Process::start`]).
const LINES_KEPT: usize = 64;

/// The longest answer line read; longer ones are refused (and read to their end).
const MAX_LINE: u64 = 64 * 1024;

/// Why an engine gave no answer to take: the caller's auto-play chooses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Miss {
    /// No answer within the time.
    Late,
    /// An answer line that is not an answer to the question.
    Invalid(String),
    /// The process died (or could not be started) before answering.
    Crashed(String),
    /// The engine crashed [`MAX_CRASHES`] times in a row and is not restarted any more.
    GivenUp,
}

/// How often the engine answered, and how often auto-play chose instead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineStats {
    /// Questions asked.
    pub asked: u64,
    /// Valid answers in time.
    pub answered: u64,
    /// No answer in time.
    pub late: u64,
    /// Answers that were not answers.
    pub invalid: u64,
    /// Times the process died or could not start.
    pub crashes: u64,
    /// Questions not asked because the engine was given up.
    pub given_up: u64,
}

impl EngineStats {
    /// Decisions auto-play made for the engine.
    pub fn auto_played(&self) -> u64 {
        self.late + self.invalid + self.crashes + self.given_up
    }
}

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Result<String, String>>,
}

impl Process {
    fn start(command: &str) -> std::io::Result<Process> {
        let mut builder = Command::new("sh");
        builder
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // Its own process group, so that stopping it stops what `sh` started too.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut builder, 0);
        let mut child = builder.spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        // Bounded: an engine that writes without end is held up by its own output pipe, not
        // kept in memory here.
        let (send, lines) = sync_channel(LINES_KEPT);
        // The reader thread ends when the engine closes its output (it exited): the closed
        // channel is how a crash is seen.
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                let item = if line.last() != Some(&b'\n') && line.len() as u64 == MAX_LINE {
                    // Skip the rest of the overlong line.
                    let mut rest = Vec::new();
                    if reader.read_until(b'\n', &mut rest).is_err() {
                        return;
                    }
                    Err(format!("a line longer than {MAX_LINE} bytes"))
                } else {
                    String::from_utf8(line).map_err(|_| "a line that is not UTF-8".to_owned())
                };
                if send.send(item).is_err() {
                    return;
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }

    /// How the process ended (it is stopped first if it still runs).
    fn stop(mut self) -> String {
        // The whole group: what `sh` started too. `sh` is not reaped yet, so the group id
        // is still its own; the group may be empty already (then this does nothing).
        #[cfg(target_os = "linux")]
        let _ = rustix::process::kill_process_group(
            rustix::process::Pid::from_child(&self.child),
            rustix::process::Signal::KILL,
        );
        let _ = self.child.kill();
        match self.child.wait() {
            Ok(status) => status.to_string(),
            Err(e) => format!("unknown status ({e})"),
        }
    }
}

/// An engine: its command, the running process (started at the first question), and the
/// count of crashes in a row.
pub struct Engine {
    command: String,
    label: String,
    process: Option<Process>,
    ask: u64,
    crashes_in_row: u32,
    given_up: bool,
    stats: EngineStats,
}

impl Engine {
    /// An engine run as `sh -c command`; `label` starts its log lines.
    pub fn new(command: &str, label: &str) -> Engine {
        Engine {
            command: command.to_owned(),
            label: label.to_owned(),
            process: None,
            ask: 0,
            crashes_in_row: 0,
            given_up: false,
            stats: EngineStats::default(),
        }
    }

    /// The counts so far.
    pub fn stats(&self) -> EngineStats {
        self.stats
    }

    /// Whether the engine was given up after repeated crashes.
    pub fn is_given_up(&self) -> bool {
        self.given_up
    }

    /// Writes a log line about the engine on standard error.
    pub fn log(&self, message: &str) {
        eprintln!("{}: {message}", self.label);
    }

    /// Asks `question` (the line without `ask`, which is added here) offering `actions`
    /// actions, and waits up to `timeout` for the answer.
    pub fn ask(
        &mut self,
        mut question: Map<String, Value>,
        actions: usize,
        timeout: Duration,
    ) -> Result<Answer, Miss> {
        self.stats.asked += 1;
        if self.given_up {
            self.stats.given_up += 1;
            return Err(Miss::GivenUp);
        }
        self.ask += 1;
        let ask = self.ask;
        question.insert("ask".into(), ask.into());
        let mut text = Value::Object(question).to_string();
        text.push('\n');
        let outcome = self.exchange(&text, ask, actions, timeout);
        match &outcome {
            Ok(_) => {
                self.stats.answered += 1;
                self.crashes_in_row = 0;
            }
            Err(Miss::Late) => {
                self.stats.late += 1;
                self.log(&format!(
                    "no answer to question {ask} within {} ms: auto-play chooses",
                    timeout.as_millis()
                ));
            }
            Err(Miss::Invalid(reason)) => {
                self.stats.invalid += 1;
                self.log(&format!(
                    "invalid answer to question {ask} ({reason}): auto-play chooses"
                ));
            }
            Err(Miss::Crashed(how)) => {
                self.stats.crashes += 1;
                self.crashes_in_row += 1;
                if self.crashes_in_row >= MAX_CRASHES {
                    self.given_up = true;
                    self.log(&format!(
                        "the engine crashed {MAX_CRASHES} times in a row ({how}); it is not restarted again: auto-play chooses for it from now on"
                    ));
                } else {
                    self.log(&format!(
                        "the engine stopped before answering question {ask} ({how}): auto-play chooses; restarting it in {} ms",
                        self.backoff().as_millis()
                    ));
                }
            }
            Err(Miss::GivenUp) => {}
        }
        outcome
    }

    /// The delay before the next start: doubled by every crash in a row.
    fn backoff(&self) -> Duration {
        match self.crashes_in_row {
            0 => Duration::ZERO,
            n => FIRST_BACKOFF * (1 << (n - 1).min(6)),
        }
    }

    fn exchange(
        &mut self,
        text: &str,
        ask: u64,
        actions: usize,
        timeout: Duration,
    ) -> Result<Answer, Miss> {
        let mut timeout = timeout;
        if self.process.is_none() {
            thread::sleep(self.backoff());
            let process = Process::start(&self.command)
                .map_err(|e| Miss::Crashed(format!("could not start `sh`: {e}")))?;
            self.process = Some(process);
            timeout += START_GRACE;
        }
        // Lines already waiting answered earlier questions after their time, or were never
        // asked for: skipped, and told once.
        let mut skipped = 0;
        let mut first = None;
        while let Ok(stale) = self
            .process
            .as_mut()
            .expect("started above")
            .lines
            .try_recv()
        {
            skipped += 1;
            first = first.or(stale.ok());
        }
        if skipped > 0 {
            self.log(&format!(
                "{skipped} line(s) written since the last answer skipped (a late answer, or output not asked for); the first: {}",
                first.unwrap_or_default().trim()
            ));
        }
        let process = self.process.as_mut().expect("started above");
        if let Err(e) = process
            .stdin
            .write_all(text.as_bytes())
            .and_then(|()| process.stdin.flush())
        {
            return Err(self.crashed(&format!("its input is closed: {e}")));
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let process = self.process.as_mut().expect("running");
            match process.lines.recv_timeout(left) {
                Ok(Ok(line)) if line.trim().is_empty() => continue,
                Ok(Ok(line)) => match parse_answer(&line, ask, actions) {
                    Ok(answer) => return Ok(answer),
                    Err(BadAnswer::Stale(n)) => {
                        self.log(&format!("a late answer to question {n} skipped"));
                    }
                    Err(BadAnswer::Invalid(reason)) => return Err(Miss::Invalid(reason)),
                },
                Ok(Err(reason)) => return Err(Miss::Invalid(reason)),
                Err(RecvTimeoutError::Timeout) => return Err(Miss::Late),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crashed("its output closed"));
                }
            }
        }
    }

    /// The process died: reaps it and says how.
    fn crashed(&mut self, what: &str) -> Miss {
        let status = self.process.take().map(Process::stop).unwrap_or_default();
        Miss::Crashed(format!("{what}; {status}"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(process) = self.process.take() {
            process.stop();
        }
    }
}
