//! `hangar attack`: what an abusive client costs a hall, measured from outside it
//! (docs/benchmarks.md, "Under attack"). Three attacks, each against a `hangar serve` with its
//! default limits, except that the caps per address are off (every attacker here is loopback,
//! and what is measured is the defence that holds against many addresses):
//!
//! - `logins`: many connections send a wrong password for one account at once — the hall's
//!   peak memory above its footprint (each password check runs argon2 at ~19 MiB);
//! - `flood`: one client sends large frames as fast as it can, reconnecting each time it is
//!   closed — the hall's CPU share while it does;
//! - `idle`: many connections open and stay silent — the hall's memory per connection.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use hangar_client::Connection;
use hangar_protocol::{HallCommand, ServerMessage};

use super::load::{proc_cpu_seconds, proc_kib, spawn_server, wait_until_up};

/// Which attack.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Attack {
    /// Concurrent logins with a wrong password.
    Logins,
    /// One client flooding large frames, reconnecting when closed.
    Flood,
    /// Silent connections.
    Idle,
}

/// Arguments of `hangar attack`.
#[derive(Args, Debug)]
pub struct AttackArgs {
    /// The attack.
    #[arg(value_enum)]
    pub attack: Attack,
    /// Connections (`logins`, `idle`).
    #[arg(long, default_value_t = 300)]
    pub count: usize,
    /// How long to flood, in seconds (`flood`).
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// Bytes of each flooding frame (`flood`): a JSON array, larger than the message limit.
    #[arg(long, default_value_t = 60_000)]
    pub bytes: usize,
}

/// `hangar attack`.
pub fn attack(args: &AttackArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.count > 0, "--count: at least one connection");
    anyhow::ensure!(args.seconds > 0, "--seconds: at least one second");
    super::huge_pages::disable();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run(args))
}

async fn run(args: &AttackArgs) -> anyhow::Result<()> {
    let (addr, server) = spawn_server(
        None,
        &[
            "--max-connections-per-address",
            "0",
            "--login-failures-per-address",
            "0",
            "--guests-per-address-per-hour",
            "0",
        ],
    )?;
    wait_until_up(&addr).await?;
    let pid = server.pid();
    let url = format!("ws://{addr}/ws");
    // The footprint with the hall up and nobody connected.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let start_kib = proc_kib(pid, "VmRSS:").unwrap_or(0);
    match args.attack {
        Attack::Logins => logins(&url, args.count, pid, start_kib).await,
        Attack::Flood => flood(&url, args, pid).await,
        Attack::Idle => idle(&url, args.count, pid, start_kib).await,
    }
}

/// Connects and reads the welcome frame.
async fn connect(url: &str) -> anyhow::Result<Connection> {
    Ok(Connection::connect(url).await?)
}

/// The next answer on `connection`: the error code of a refusal, `ok` for an ack.
async fn answer(connection: &mut Connection) -> anyhow::Result<String> {
    loop {
        if let ServerMessage::Answer(answer) = connection.next().await? {
            return Ok(match answer.into_outcome() {
                Ok(_) => "ok".to_owned(),
                Err(error) => serde_json::to_value(error.code)?
                    .as_str()
                    .unwrap_or("?")
                    .to_owned(),
            });
        }
    }
}

async fn logins(url: &str, count: usize, pid: Option<u32>, start_kib: u64) -> anyhow::Result<()> {
    let mut owner = connect(url).await?;
    owner
        .send(&HallCommand::Register {
            name: "target".into(),
            password: "the right one".into(),
            client: None,
        })
        .await?;
    answer(&mut owner).await?;
    let mut sockets = Vec::with_capacity(count);
    for _ in 0..count {
        sockets.push(connect(url).await?);
    }
    println!("{count} connections open; each sends a wrong password at once");
    let started = Instant::now();
    let tasks: Vec<_> = sockets
        .into_iter()
        .enumerate()
        .map(|(n, mut socket)| {
            tokio::spawn(async move {
                socket
                    .send(&HallCommand::Login {
                        name: "target".into(),
                        password: format!("wrong {n}"),
                        client: None,
                    })
                    .await?;
                answer(&mut socket).await
            })
        })
        .collect();
    let mut codes = BTreeMap::<String, usize>::new();
    for task in tasks {
        let code = task.await?.unwrap_or_else(|e| format!("failed: {e}"));
        *codes.entry(code).or_default() += 1;
    }
    println!(
        "answers         {codes:?} in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let peak = proc_kib(pid, "VmHWM:").unwrap_or(0);
    println!(
        "server memory   {start_kib} KiB before, peak {peak} KiB: {:.1} MB above",
        peak.saturating_sub(start_kib) as f64 / 1024.0
    );
    Ok(())
}

async fn flood(url: &str, args: &AttackArgs, pid: Option<u32>) -> anyhow::Result<()> {
    // A JSON array of the size asked: parsing it would be the expensive part.
    let frame = format!("[{}0]", "0,".repeat(args.bytes.saturating_sub(3) / 2));
    let cpu_start = proc_cpu_seconds(pid).unwrap_or(0.0);
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds);
    let (mut connections, mut frames, mut answered) = (0_u64, 0_u64, 0_u64);
    while Instant::now() < deadline {
        let Ok(socket) = connect(url).await else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        connections += 1;
        let (mut write, mut read) = socket.into_socket().split();
        let reader = tokio::spawn(async move {
            let mut answers = 0_u64;
            while let Some(Ok(message)) = read.next().await {
                if message.is_text() {
                    answers += 1;
                }
            }
            answers
        });
        // Send until the hall closes the connection (or the time is up).
        while Instant::now() < deadline && write.send(Message::text(frame.clone())).await.is_ok() {
            frames += 1;
            if reader.is_finished() {
                break;
            }
        }
        drop(write);
        answered += tokio::time::timeout(Duration::from_secs(1), reader)
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or(0);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = proc_cpu_seconds(pid).unwrap_or(0.0) - cpu_start;
    println!(
        "flood           {frames} frames of {} bytes over {connections} connections in {elapsed:.1} s; {answered} answers",
        frame.len()
    );
    println!(
        "server cpu      {cpu:.2} s: {:.1} % of a core; {:.0} µs per connection closed",
        100.0 * cpu / elapsed,
        1e6 * cpu / connections.max(1) as f64
    );
    Ok(())
}

async fn idle(url: &str, count: usize, pid: Option<u32>, start_kib: u64) -> anyhow::Result<()> {
    let mut sockets = Vec::with_capacity(count);
    for _ in 0..count {
        sockets.push(connect(url).await?);
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let now = proc_kib(pid, "VmRSS:").unwrap_or(0);
    println!(
        "idle            {count} connections open: {start_kib} → {now} KiB, {:.1} KiB per connection",
        now.saturating_sub(start_kib) as f64 / count as f64
    );
    drop(sockets);
    Ok(())
}
