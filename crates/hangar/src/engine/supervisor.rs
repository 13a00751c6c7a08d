//! The engine process (P-ENGINE, docs/engine.md): started with `sh -c COMMAND`, its pipes owned
//! by tasks of their own, asked one line at a time with a deadline, restarted with a back-off
//! when it dies or stops reading, given up after repeated crashes. Every miss is logged on
//! standard error; the caller lets the built-in auto-play bot choose instead.
//!
//! Nothing the engine does can hold the bridge up or fill its memory:
//!
//! - its standard input is written by a writer task through a channel of one question: a
//!   question that finds the channel still full (the engine has not read the questions
//!   before) stops the engine as hung and starts it again;
//! - its standard output is read by a reader task in lines of at most [`MAX_LINE`] bytes (a
//!   longer line is dropped as it is read, never held whole, and is a wrong answer), at most
//!   [`LINES_KEPT`] lines ahead: an engine that writes without end is held up by its own pipe;
//! - its standard error is read by a task of its own and written to the log at most
//!   [`STDERR_PER_SECOND`] lines a second (a burst of [`STDERR_BURST`]), each cut to
//!   [`STDERR_LINE`] bytes, with the count of the lines dropped;
//! - each question has a deadline ([`Engine::ask`]), and no wait (for a restart's back-off,
//!   for the answer) outlasts it.

use std::sync::Arc;
use std::time::Duration;

use hangar_games::engine_line::{Answer, BadAnswer, parse_answer};
use serde_json::{Map, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// Crashes in a row (with no valid answer between them) after which the engine is given up.
pub const MAX_CRASHES: u32 = 5;

/// The first restart's delay; each restart in a row doubles it.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);

/// Doublings of the back-off at most (100 ms · 2⁶ = 6.4 s).
const MOST_DOUBLINGS: u32 = 6;

/// Lines of the engine's output read ahead of the questions at most.
const LINES_KEPT: usize = 16;

/// The longest line of the engine's output read (1 MiB); a longer one is dropped as it is
/// read and counts as a wrong answer.
pub const MAX_LINE: usize = 1 << 20;

/// Lines of the engine's standard error logged a second at most, after a burst.
const STDERR_PER_SECOND: f64 = 10.0;

/// Lines of standard error logged at once before the rate applies.
const STDERR_BURST: f64 = 50.0;

/// The longest line of standard error logged; the rest of a longer one is cut off.
const STDERR_LINE: usize = 1024;

/// The environment variable of `hangar bot`'s credential: never passed on to the engine.
pub const TOKEN_VARIABLE: &str = "HANGAR_TOKEN";

/// Why an engine gave no answer to take: the caller's auto-play chooses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Miss {
    /// No answer within the time (or the engine was waiting for its restart, or had stopped
    /// reading and was restarted).
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
    /// Times the engine was stopped and started again because it did not read its questions.
    pub hangs: u64,
}

impl EngineStats {
    /// Decisions auto-play made for the engine.
    pub fn auto_played(&self) -> u64 {
        self.late + self.invalid + self.crashes + self.given_up
    }
}

/// A line of the engine's output as the reader task passes it on.
type Line = Result<String, String>;

/// A running engine process and the tasks that own its pipes.
struct Process {
    child: Child,
    /// Questions to the writer task (room for one: see the module's documentation).
    input: mpsc::Sender<Vec<u8>>,
    /// Lines from the reader task; closed when the engine closes its output.
    lines: mpsc::Receiver<Line>,
    tasks: Vec<JoinHandle<()>>,
    /// No question was asked of this process yet.
    fresh: bool,
}

impl Process {
    fn start(command: &str, label: &Arc<str>) -> std::io::Result<Process> {
        let mut builder = Command::new("sh");
        builder
            .arg("-c")
            .arg(command)
            .env_remove(TOKEN_VARIABLE)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        // Its own process group, so that stopping it stops what `sh` started too.
        #[cfg(unix)]
        builder.process_group(0);
        let mut child = builder.spawn()?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (input, mut questions) = mpsc::channel::<Vec<u8>>(1);
        let writer = tokio::spawn(async move {
            while let Some(text) = questions.recv().await {
                if stdin.write_all(&text).await.is_err() || stdin.flush().await.is_err() {
                    return;
                }
            }
        });
        let (send, lines) = mpsc::channel(LINES_KEPT);
        let reader = tokio::spawn(async move {
            let mut out = CappedLines::new(stdout, MAX_LINE);
            while let Some(line) = out.next().await {
                let item = match line {
                    Piece::Line(bytes) => {
                        String::from_utf8(bytes).map_err(|_| "a line that is not UTF-8".to_owned())
                    }
                    Piece::TooLong(_) => Err(format!(
                        "a line longer than {MAX_LINE} bytes, dropped unread"
                    )),
                };
                if send.send(item).await.is_err() {
                    return;
                }
            }
        });
        let errors = tokio::spawn(pass_stderr(stderr, label.clone()));
        Ok(Process {
            child,
            input,
            lines,
            tasks: vec![writer, reader, errors],
            fresh: true,
        })
    }

    /// Kills the whole process group (what `sh` started too).
    fn kill(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some(pid) = self
            .child
            .id()
            .and_then(|id| rustix::process::Pid::from_raw(id as i32))
        {
            // `sh` is not reaped yet, so the group id is still its own; the group may be
            // empty already (then this does nothing).
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
        let _ = self.child.start_kill();
        for task in &self.tasks[..2] {
            task.abort();
        }
    }

    /// Stops the process; how it ended.
    async fn stop(mut self) -> String {
        self.kill();
        match tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await {
            Ok(Ok(status)) => status.to_string(),
            Ok(Err(e)) => format!("unknown status ({e})"),
            Err(_) => "not reaped yet".to_owned(),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A piece of a pipe read in lines.
enum Piece {
    /// A whole line, without its end.
    Line(Vec<u8>),
    /// A line longer than the cap: its first bytes (the rest is skipped as it is read).
    TooLong(Vec<u8>),
}

/// Lines of a pipe, none held longer than `cap` bytes.
struct CappedLines<R> {
    reader: BufReader<R>,
    cap: usize,
    line: Vec<u8>,
    skipping: bool,
}

impl<R: AsyncRead + Unpin> CappedLines<R> {
    fn new(inner: R, cap: usize) -> CappedLines<R> {
        CappedLines {
            reader: BufReader::with_capacity(64 * 1024, inner),
            cap,
            line: Vec::new(),
            skipping: false,
        }
    }

    /// The next line; `None` at the end of the pipe (or a read error).
    async fn next(&mut self) -> Option<Piece> {
        loop {
            let available = match self.reader.fill_buf().await {
                Ok([]) | Err(_) => {
                    // A last line without its end.
                    let last = std::mem::take(&mut self.line);
                    return (!last.is_empty() && !self.skipping).then_some(Piece::Line(last));
                }
                Ok(bytes) => bytes,
            };
            let (len, ends) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (at, true),
                None => (available.len(), false),
            };
            let mut too_long = None;
            if !self.skipping {
                if self.line.len() + len > self.cap {
                    let room = self.cap - self.line.len();
                    self.line.extend_from_slice(&available[..room.min(len)]);
                    too_long = Some(std::mem::take(&mut self.line));
                    self.skipping = !ends;
                } else {
                    self.line.extend_from_slice(&available[..len]);
                }
            }
            self.reader.consume(len + usize::from(ends));
            if let Some(head) = too_long {
                return Some(Piece::TooLong(head));
            }
            if ends {
                if self.skipping {
                    self.skipping = false;
                } else {
                    return Some(Piece::Line(std::mem::take(&mut self.line)));
                }
            }
        }
    }
}

/// Passes the engine's standard error to the log, rate-limited, with the count dropped.
async fn pass_stderr(stderr: impl AsyncRead + Unpin, label: Arc<str>) {
    let mut lines = CappedLines::new(stderr, STDERR_LINE);
    let mut tokens = STDERR_BURST;
    let mut last = Instant::now();
    let mut dropped: u64 = 0;
    while let Some(piece) = lines.next().await {
        let now = Instant::now();
        tokens =
            (tokens + now.duration_since(last).as_secs_f64() * STDERR_PER_SECOND).min(STDERR_BURST);
        last = now;
        if tokens < 1.0 {
            dropped += 1;
            continue;
        }
        tokens -= 1.0;
        if dropped > 0 {
            eprintln!(
                "{label}: {dropped} line(s) of its standard error dropped (at most {STDERR_PER_SECOND} a second are logged)"
            );
            dropped = 0;
        }
        let (bytes, cut) = match piece {
            Piece::Line(bytes) => (bytes, ""),
            Piece::TooLong(head) => (head, " […]"),
        };
        eprintln!("{label}: stderr: {}{cut}", String::from_utf8_lossy(&bytes));
    }
    if dropped > 0 {
        eprintln!(
            "{label}: {dropped} line(s) of its standard error dropped (at most {STDERR_PER_SECOND} a second are logged)"
        );
    }
}

/// An engine: its command, the running process, and the count of crashes in a row.
pub struct Engine {
    command: String,
    label: Arc<str>,
    process: Option<Process>,
    /// Questions asked of the running process (`ask` counts from 1 for each process).
    ask: u64,
    /// Extra time for a fresh process's first question (none in a hall: the clock is the
    /// hall's).
    start_grace: Duration,
    /// Crashes in a row, for giving up.
    crashes_in_row: u32,
    /// Restarts in a row (crashes and hangs), for the back-off.
    restarts_in_row: u32,
    /// The earliest start of the next process (the back-off).
    next_start: Option<Instant>,
    given_up: bool,
    stats: EngineStats,
}

impl Engine {
    /// An engine run as `sh -c command`; `label` starts its log lines; a fresh process's first
    /// question gets `start_grace` more.
    pub fn new(command: &str, label: &str, start_grace: Duration) -> Engine {
        Engine {
            command: command.to_owned(),
            label: label.into(),
            process: None,
            ask: 0,
            start_grace,
            crashes_in_row: 0,
            restarts_in_row: 0,
            next_start: None,
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

    /// Starts the process ahead of its first question (so that an interpreter's start-up is
    /// not taken from a turn's time); a failure shows at the first question.
    pub fn warm_up(&mut self) {
        if self.process.is_none() && !self.given_up && self.next_start.is_none() {
            self.process = Process::start(&self.command, &self.label).ok();
            self.ask = 0;
        }
    }

    /// Asks `question` (the line without `ask`, which is added here) offering `actions`
    /// actions; the answer is waited for `window` at most (no wait of any kind outlasts it).
    pub async fn ask(
        &mut self,
        mut question: Map<String, Value>,
        actions: usize,
        window: Duration,
    ) -> Result<Answer, Miss> {
        let deadline = Instant::now() + window;
        self.stats.asked += 1;
        if self.given_up {
            self.stats.given_up += 1;
            return Err(Miss::GivenUp);
        }
        let outcome = self.exchange(&mut question, actions, deadline).await;
        let ask = self.ask;
        match &outcome {
            Ok(_) => {
                self.stats.answered += 1;
                self.crashes_in_row = 0;
                self.restarts_in_row = 0;
            }
            Err(Miss::Late) => {
                self.stats.late += 1;
                if self.process.is_some() {
                    self.log(&format!(
                        "no answer to question {ask} within {} ms: auto-play chooses",
                        window.as_millis()
                    ));
                }
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
                    let backoff = self.schedule_restart();
                    self.log(&format!(
                        "the engine stopped before answering question {ask} ({how}): auto-play chooses; restarting it in {} ms",
                        backoff.as_millis()
                    ));
                }
            }
            Err(Miss::GivenUp) => {}
        }
        outcome
    }

    /// Counts a restart in a row and sets the next start after its back-off: 100 ms, doubled
    /// by every restart in a row (crash or hang) up to 6.4 s.
    fn schedule_restart(&mut self) -> Duration {
        self.restarts_in_row += 1;
        let backoff = FIRST_BACKOFF * (1 << (self.restarts_in_row - 1).min(MOST_DOUBLINGS));
        self.next_start = Some(Instant::now() + backoff);
        backoff
    }

    async fn exchange(
        &mut self,
        question: &mut Map<String, Value>,
        actions: usize,
        mut deadline: Instant,
    ) -> Result<Answer, Miss> {
        if self.process.is_none() {
            if let Some(at) = self.next_start {
                if at > deadline {
                    tokio::time::sleep_until(deadline).await;
                    self.log(&format!(
                        "the engine restarts in {} ms: auto-play chooses",
                        at.saturating_duration_since(deadline).as_millis()
                    ));
                    return Err(Miss::Late);
                }
                tokio::time::sleep_until(at).await;
            }
            self.next_start = None;
            self.ask = 0;
            let process = Process::start(&self.command, &self.label)
                .map_err(|e| Miss::Crashed(format!("could not start `sh`: {e}")))?;
            self.process = Some(process);
        }
        let process = self.process.as_mut().expect("started above");
        if std::mem::take(&mut process.fresh) {
            deadline += self.start_grace;
        }
        // Lines already waiting answered earlier questions after their time, or were never
        // asked for: skipped, and told once.
        let mut skipped = 0;
        let mut first = None;
        let mut closed = false;
        loop {
            match process.lines.try_recv() {
                Ok(stale) => {
                    skipped += 1;
                    first = first.or(Some(stale.unwrap_or_else(|e| e)));
                }
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => {
                    closed = true;
                    break;
                }
            }
        }
        if skipped > 0 {
            self.log(&format!(
                "{skipped} line(s) written since the last answer skipped (a late answer, or output not asked for); the first: {}",
                first.unwrap_or_default().trim()
            ));
        }
        self.ask += 1;
        if closed {
            return Err(self.crashed("its output closed").await);
        }
        let ask = self.ask;
        question.insert("ask".into(), ask.into());
        let mut text = Value::Object(std::mem::take(question)).to_string();
        text.push('\n');
        let process = self.process.as_mut().expect("started above");
        match process.input.try_send(text.into_bytes()) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(_)) => {
                // The question before this one is not written yet: the engine does not read.
                self.stats.hangs += 1;
                if let Some(process) = self.process.take() {
                    process.stop().await;
                }
                let backoff = self.schedule_restart();
                self.log(&format!(
                    "the engine has not read its questions: it is stopped and restarted in {} ms; auto-play chooses question {ask}",
                    backoff.as_millis()
                ));
                return Err(Miss::Late);
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                return Err(self.crashed("its input is closed").await);
            }
        }
        loop {
            let process = self.process.as_mut().expect("running");
            match tokio::time::timeout_at(deadline, process.lines.recv()).await {
                Ok(Some(Ok(line))) if line.trim().is_empty() => continue,
                Ok(Some(Ok(line))) => match parse_answer(&line, ask, actions) {
                    Ok(answer) => return Ok(answer),
                    Err(BadAnswer::Stale(n)) => {
                        self.log(&format!("a late answer to question {n} skipped"));
                    }
                    Err(BadAnswer::Invalid(reason)) => return Err(Miss::Invalid(reason)),
                },
                Ok(Some(Err(reason))) => return Err(Miss::Invalid(reason)),
                Ok(None) => return Err(self.crashed("its output closed").await),
                Err(_) => return Err(Miss::Late),
            }
        }
    }

    /// The process died: reaps it and says how.
    async fn crashed(&mut self, what: &str) -> Miss {
        let status = match self.process.take() {
            Some(process) => process.stop().await,
            None => String::new(),
        };
        Miss::Crashed(format!("{what}; {status}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn pieces(input: &[u8], cap: usize) -> Vec<Result<String, String>> {
        let mut lines = CappedLines::new(input, cap);
        let mut out = Vec::new();
        while let Some(piece) = lines.next().await {
            out.push(match piece {
                Piece::Line(b) => Ok(String::from_utf8(b).unwrap_or_default()),
                Piece::TooLong(head) => Err(String::from_utf8(head).unwrap_or_default()),
            });
        }
        out
    }

    /// P-ENGINE: a line longer than the cap is reported once, with its first bytes only, and
    /// the lines after it are read as usual.
    #[tokio::test]
    async fn p_engine_an_over_long_line_is_dropped_and_the_next_is_read() {
        let mut input = b"1\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 100_000));
        input.extend(b"\n2\n{\"action\": 3}");
        let got = pieces(&input, 1000).await;
        assert_eq!(
            got,
            vec![
                Ok("1".to_owned()),
                Err("x".repeat(1000)),
                Ok("2".to_owned()),
                Ok("{\"action\": 3}".to_owned()),
            ]
        );
        // Exactly the cap is still a line; one more byte is not.
        let exact = format!("{}\n{}\n", "y".repeat(10), "z".repeat(11));
        let got = pieces(exact.as_bytes(), 10).await;
        assert_eq!(got, vec![Ok("y".repeat(10)), Err("z".repeat(10))]);
    }
}
