//! `hangar bot`: an engine in a hall, signed in as a bot account (P-ENGINE, P-CHALLENGE).
//!
//! One connection: challenges of the accepted games are accepted while fewer than
//! `--concurrency` games run (and, with `--games N`, while fewer than N are played or under
//! way); each `challenge_room` is joined at its seat and readied; each turn of the bot's is put
//! to that game's engine process in a task of its own that takes the engine with it (so the
//! connection keeps reading, and no game waits for another's engine) and brings back the
//! engine's answer, or auto-play's choice when the answer window closes a margin before the
//! hall's deadline. A dropped connection is made again (with a back-off), signed in with the
//! token, and every room rejoined with `since`. With `--room CODE` the bot joins that one room
//! instead, plays its game and exits.

use std::collections::HashMap;
use std::time::Duration;

use anyhow::{Context, bail};
use hangar_client::Connection;
use hangar_games::engine_line::Answer;
use hangar_protocol::{
    Ack, Answer as Reply, HallCommand, RoomAction, RoomCommand, RoomMessage, ServerMessage,
};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::BotArgs;
use super::seat::{Choice, Sitting};
use super::supervisor::Engine;

/// The longest wait between two attempts to reach the hall.
const MOST_BACKOFF: Duration = Duration::from_secs(30);

/// A decision made: for which room, turn and connection, and what; with the engine, back
/// from the decision's task.
struct Decided {
    room: String,
    turn_v: u64,
    generation: u64,
    choice: Choice,
    engine: Option<Engine>,
}

/// The bot's state across connections.
struct Bot<'a> {
    args: &'a BotArgs,
    games: HashMap<String, Sitting>,
    /// Challenges accepted whose room has not come yet.
    accepted: Vec<String>,
    /// Commands sent, by id: the room joined (to learn the seat), if any.
    joins: HashMap<u64, String>,
    /// Last command id, carried over to the next connection.
    last_id: u64,
    /// Games finished (the `--room` mode ends after one).
    finished: u64,
    /// An engine was given up: no more challenges are accepted.
    stopping: bool,
    /// The connection's number: a decision of an earlier connection is not sent.
    generation: u64,
    /// The token the bot signs in with.
    token: String,
}

fn log(message: &str) {
    eprintln!("hangar bot: {message}");
}

/// Runs `hangar bot`.
pub async fn run(args: &BotArgs, token: String) -> anyhow::Result<()> {
    let mut bot = Bot {
        args,
        games: HashMap::new(),
        accepted: Vec::new(),
        joins: HashMap::new(),
        last_id: 0,
        finished: 0,
        stopping: false,
        generation: 0,
        token,
    };
    let (decided_tx, mut decided_rx) = mpsc::unbounded_channel();
    let mut backoff = Duration::from_secs(1);
    let mut first = true;
    loop {
        let mut conn = match sign_in(args, &bot.token, bot.last_id).await {
            Ok(conn) => conn,
            // A refused token will not be accepted later either.
            Err(e) if first => return Err(e),
            Err(e) => {
                log(&format!(
                    "cannot reach the hall ({e:#}); trying again in {} s",
                    backoff.as_secs()
                ));
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(MOST_BACKOFF);
                continue;
            }
        };
        backoff = Duration::from_secs(1);
        let outcome = bot
            .connected(&mut conn, first, &decided_tx, &mut decided_rx)
            .await;
        bot.last_id = conn.last_id();
        first = false;
        match outcome {
            Ok(()) => {
                let _ = conn.close().await;
                return Ok(());
            }
            Err(e) => log(&format!("connection lost ({e:#}); reconnecting")),
        }
    }
}

/// Connects and signs in with the token.
async fn sign_in(args: &BotArgs, token: &str, last_id: u64) -> anyhow::Result<Connection> {
    let mut conn = Connection::connect(&args.hall)
        .await
        .with_context(|| format!("connecting to {}", args.hall))?;
    conn.continue_ids_after(last_id);
    let authed = conn
        .call(&HallCommand::Auth {
            token: token.to_owned(),
            client: Some("hangar-bot".into()),
        })
        .await?;
    match authed {
        Ok(Ack::Authed(a)) => {
            log(&format!(
                "signed in as {} (id {})",
                a.player.name, a.player.id
            ));
            Ok(conn)
        }
        Ok(other) => bail!("auth answered {other:?}"),
        Err(e) => bail!("the hall refused the token: {}", e.message),
    }
}

impl Bot<'_> {
    /// Plays on one connection until the bot is done (`Ok`) or the connection fails.
    async fn connected(
        &mut self,
        conn: &mut Connection,
        first: bool,
        decided_tx: &mpsc::UnboundedSender<Decided>,
        decided_rx: &mut mpsc::UnboundedReceiver<Decided>,
    ) -> anyhow::Result<()> {
        // Decisions of the last connection are stale (their tasks still bring their engines
        // back, but their choices are not sent): each room's turn is decided again once the
        // rejoin has brought the picture up to date.
        self.generation += 1;
        for game in self.games.values_mut() {
            game.decided = None;
            game.wait_for = u64::MAX;
        }
        let rejoin: Vec<(String, usize, u64)> = self
            .games
            .values()
            .map(|g| (g.room.clone(), g.seat, g.v))
            .collect();
        for (room, seat, v) in rejoin {
            self.join(conn, &room, Some(seat), Some(v)).await?;
        }
        if first && let Some(room) = &self.args.room {
            self.join(conn, room, self.args.seat, None).await?;
        }
        loop {
            if self.done() {
                return Ok(());
            }
            tokio::select! {
                text = conn.next_text() => {
                    let text = text?;
                    self.frame(conn, &text).await?;
                }
                Some(decided) = decided_rx.recv() => {
                    let game = self.games.get_mut(&decided.room);
                    let current = decided.generation == self.generation
                        && game.as_ref().is_some_and(|g| g.turn_version() == decided.turn_v);
                    if let (Some(game), Some(engine)) = (game, decided.engine) {
                        game.stats = engine.stats();
                        game.given_up = engine.is_given_up();
                        game.engine = Some(engine);
                    }
                    if current {
                        let command = RoomCommand { room: decided.room, action: decided.choice.action() };
                        conn.send(&command).await?;
                    }
                }
            }
            self.decide(decided_tx);
        }
    }

    /// Whether there is nothing more to do: the one room's game is over, or the engine was
    /// given up and the games are over.
    fn done(&self) -> bool {
        (self.args.room.is_some() && self.finished > 0)
            || self.args.games.is_some_and(|n| self.finished >= n)
            || (self.stopping && self.games.is_empty() && self.accepted.is_empty())
    }

    async fn join(
        &mut self,
        conn: &mut Connection,
        room: &str,
        seat: Option<usize>,
        since: Option<u64>,
    ) -> anyhow::Result<()> {
        let id = conn
            .send(&RoomCommand {
                room: room.to_owned(),
                action: RoomAction::JoinRoom { seat, since },
            })
            .await?;
        self.joins.insert(id, room.to_owned());
        Ok(())
    }

    /// One frame from the hall.
    async fn frame(&mut self, conn: &mut Connection, text: &str) -> anyhow::Result<()> {
        let value: Value = serde_json::from_str(text)?;
        match value["type"].as_str() {
            Some("challenge") => return self.challenge(conn, &value["challenge"]).await,
            Some("challenge_room") => {
                let room = value["room"]
                    .as_str()
                    .context("challenge_room without room")?;
                let seat = value["seat"].as_u64().map(|s| s as usize);
                if let Some(id) = value["challenge"].as_str() {
                    self.accepted.retain(|c| c != id);
                }
                log(&format!("challenge room {room}: joining at seat {seat:?}"));
                return self.join(conn, room, seat, None).await;
            }
            Some("challenge_ended") => {
                let id = value["challenge"].as_str().unwrap_or_default();
                self.accepted.retain(|c| c != id);
                log(&format!(
                    "challenge {id} ended: {}",
                    value["reason"].as_str().unwrap_or("?")
                ));
                return Ok(());
            }
            _ => {}
        }
        match serde_json::from_value::<ServerMessage>(value)? {
            ServerMessage::Answer(reply) => self.answer(conn, reply).await?,
            ServerMessage::Room(RoomMessage::Snapshot { room, v, state }) => {
                if let Some(game) = self.games.get_mut(&room) {
                    game.snapshot(v, &state);
                }
            }
            ServerMessage::Room(RoomMessage::Event { room, v, event }) => {
                self.event(conn, &room, v, &event).await?;
            }
            // The hall list and the greeting say nothing to the bot.
            _ => {}
        }
        Ok(())
    }

    /// A `challenge`: accepted when its game is accepted and a game is free.
    async fn challenge(&mut self, conn: &mut Connection, challenge: &Value) -> anyhow::Result<()> {
        let id = challenge["id"].as_str().context("a challenge without id")?;
        let game = challenge["game"].as_str().unwrap_or_default();
        let from = challenge["from"]["name"].as_str().unwrap_or("?");
        let busy = self.games.len() + self.accepted.len();
        let refusal = if self.stopping {
            Some("the engine was given up".to_owned())
        } else if !self.args.accept.iter().any(|g| g == game) {
            Some(format!("{game} is not accepted"))
        } else if busy >= self.args.concurrency {
            Some(format!("{busy} games already"))
        } else if let Some(n) = self.args.games
            && self.finished + busy as u64 >= n
        {
            Some(format!("{n} games played or under way (--games {n})"))
        } else {
            None
        };
        let command = match &refusal {
            None => {
                self.accepted.push(id.to_owned());
                log(&format!("accepting {game} challenge {id} from {from}"));
                json!({"type": "accept_challenge", "challenge": id})
            }
            Some(why) => {
                log(&format!(
                    "declining {game} challenge {id} from {from}: {why}"
                ));
                json!({"type": "decline_challenge", "challenge": id})
            }
        };
        conn.send(&command).await?;
        Ok(())
    }

    /// An answer to one of the bot's commands.
    async fn answer(&mut self, conn: &mut Connection, reply: Reply) -> anyhow::Result<()> {
        let id = reply.id();
        let room = id.and_then(|id| self.joins.remove(&id));
        match (reply.into_outcome(), room) {
            (Ok(Ack::Joined(joined)), Some(room)) => match joined.seat {
                Some(seat) => {
                    let started = self.games.get(&room).is_some_and(Sitting::started);
                    if let Some(game) = self.games.get_mut(&room) {
                        game.wait_for = joined.v;
                    } else {
                        let label =
                            format!("hangar bot: room {room}: engine `{}`", self.args.engine);
                        // No start grace: the hall's clock is the only one. The process starts
                        // now, so that its start-up is done before the game's first turn.
                        let mut engine = Engine::new(&self.args.engine, &label, Duration::ZERO);
                        engine.warm_up();
                        self.games
                            .insert(room.clone(), Sitting::new(&room, seat, engine));
                        log(&format!("seated in room {room} at seat {seat}"));
                    }
                    // A seat taken again before the game (it was lost with the connection)
                    // must be readied again; during the game there is nothing to ready.
                    if !started {
                        conn.send(&RoomCommand {
                            room,
                            action: RoomAction::Ready { ready: true },
                        })
                        .await?;
                    }
                }
                None => {
                    log(&format!("room {room} has no seat for the bot; leaving it"));
                    self.games.remove(&room);
                    conn.send(&RoomCommand {
                        room,
                        action: RoomAction::LeaveRoom { escape: false },
                    })
                    .await?;
                    if self.args.room.is_some() {
                        bail!("no seat in the room");
                    }
                }
            },
            (Err(e), Some(room)) => {
                log(&format!("joining room {room} refused: {}", e.message));
                self.games.remove(&room);
                if self.args.room.is_some() {
                    bail!("cannot join room {room}: {}", e.message);
                }
            }
            (Err(e), None) => log(&format!("the hall refused command {id:?}: {}", e.message)),
            (Ok(_), None | Some(_)) => {}
        }
        Ok(())
    }

    /// A room event of a game the bot sits in.
    async fn event(
        &mut self,
        conn: &mut Connection,
        room: &str,
        v: u64,
        event: &Value,
    ) -> anyhow::Result<()> {
        let Some(game) = self.games.get_mut(room) else {
            return Ok(());
        };
        let seat = game.seat;
        match game.event(v, event).as_str() {
            // The hall's own auto-play took over (a missed turn): the engine takes back.
            "autoplay" if event["seat"] == seat && event["on"] == true => {
                log(&format!(
                    "room {room}: auto-play was switched on; switching it off"
                ));
                conn.send(&RoomCommand {
                    room: room.to_owned(),
                    action: RoomAction::Autoplay { on: false },
                })
                .await?;
            }
            "game_over" => {
                let result = &event["result"];
                let line = result["players"]
                    .as_array()
                    .and_then(|lines| lines.iter().find(|l| l["seat"] == seat))
                    .cloned()
                    .unwrap_or(Value::Null);
                // The engine's counts (as of its last decision, if a task has it now).
                let (stats, given_up) = match &game.engine {
                    Some(engine) => (engine.stats(), engine.is_given_up()),
                    None => (game.stats, game.given_up),
                };
                if given_up {
                    log("the engine was given up: no more challenges are accepted");
                    self.stopping = true;
                }
                log(&format!(
                    "room {room}: game {} over ({}): seat {seat} rank {} score change {}; the engine answered {} of {} questions",
                    result["game_id"],
                    result["reason"].as_str().unwrap_or("?"),
                    line["rank"],
                    line["delta"],
                    stats.answered,
                    stats.asked
                ));
                self.games.remove(room);
                self.finished += 1;
                conn.send(&RoomCommand {
                    room: room.to_owned(),
                    action: RoomAction::LeaveRoom { escape: false },
                })
                .await?;
            }
            "closed" => {
                log(&format!("room {room} closed"));
                self.games.remove(room);
            }
            _ => {}
        }
        Ok(())
    }

    /// Starts the decision of every game whose turn it is, each in a task of its own that
    /// takes the game's engine and brings it back with the choice. A game whose engine is
    /// still out (a decision of an earlier turn or connection) waits for it: that task ends
    /// by its own answer window.
    fn decide(&mut self, decided_tx: &mpsc::UnboundedSender<Decided>) {
        for game in self.games.values_mut() {
            if !game.to_decide() || game.engine.is_none() {
                continue;
            }
            let turn_v = game.turn_version();
            let decision = match game.decision() {
                Ok(decision) => decision,
                Err(why) => {
                    game.decided = Some(turn_v);
                    log(&format!(
                        "room {}: cannot decide ({why}); the hall's timer will",
                        game.room
                    ));
                    continue;
                }
            };
            let room = game.room.clone();
            let generation = self.generation;
            let Some(question) = decision.question else {
                // Nothing to choose: no engine needed.
                game.decided = Some(turn_v);
                let _ = decided_tx.send(Decided {
                    room,
                    turn_v,
                    generation,
                    choice: decision.choices[0].clone(),
                    engine: None,
                });
                continue;
            };
            if decision.timeout.is_zero() {
                game.decided = Some(turn_v);
                log(&format!(
                    "room {room}: no time left to ask the engine before the hall's deadline: auto-play chooses"
                ));
                let _ = decided_tx.send(Decided {
                    room,
                    turn_v,
                    generation,
                    choice: decision.fallback,
                    engine: None,
                });
                continue;
            }
            let Some(mut engine) = game.engine.take() else {
                continue; // checked above
            };
            game.decided = Some(turn_v);
            let tx = decided_tx.clone();
            tokio::spawn(async move {
                let actions = decision.choices.len();
                let choice = match engine.ask(question, actions, decision.timeout).await {
                    Ok(Answer::Action(id)) => decision.choices[id].clone(),
                    Ok(Answer::Resign) if decision.may_resign => Choice::Resign,
                    Ok(Answer::Resign) => {
                        engine.log("resignation is allowed after 15 turns: auto-play chooses");
                        decision.fallback
                    }
                    Err(_) => decision.fallback,
                };
                let _ = tx.send(Decided {
                    room,
                    turn_v,
                    generation,
                    choice,
                    engine: Some(engine),
                });
            });
        }
    }
}
