//! Cluster mode: several nodes serve one hall, on one PostgreSQL database, with NATS between
//! them (docs/architecture.md, "Cluster").
//!
//! Every room has one owner node, recorded in `room_owners` and guarded by the node's lease
//! (`store::cluster`); the owner's room task stays the one place where the game changes. A
//! connection on another node reaches the room through a [`RoomHandle`](crate::room::RoomHandle)
//! that forwards each command to the owner; on the owner the connection is represented by a
//! *stand-in*: an [`Outbox`] whose frames go to the connection's node, which queues them on the
//! real connection. So the rooms know nothing of the cluster. Everything a node sends another
//! travels on a [`link`]: one queue per destination, sent as one NATS message per burst.
//! The hall list travels as changes on one subject; a node whose lease runs out is taken over
//! by another, which rebuilds its rooms from the store (P-DURABLE) and tells everyone it is
//! gone: stand-ins of its connections are dropped (the players are away, P-DISCONNECT), and
//! connections in its rooms are closed with 1012 so that their clients come back and resume.

mod link;
mod wire;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use async_nats::Client;
use axum::extract::ws::Utf8Bytes;
use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot, watch};

use crate::hall::Hall;
use crate::outbox::{ConnId, Out, Outbox};
use crate::protocol::{Answer, ErrorCode, ProtoError, error_frame};
use crate::room::{Answered, RoomClosed, RoomRequest, restore_room, restore_waiting_room};
use crate::ws::{SIGNED_OUT_CODE, SIGNED_OUT_REASON};
use link::{Links, Record, inbox_subject};
pub use wire::ListingChange;
use wire::{
    Detach, GONE_SUBJECT, HELLO_SUBJECT, LISTING_SUBJECT, RemoteAnswer, RemoteCommand,
    SIGNED_OUT_SUBJECT,
};

/// How long a node's lease runs without renewal: past it, another node takes its rooms.
pub const LEASE: Duration = Duration::from_secs(5);

/// How often a node renews its lease and looks for nodes to take over.
const TICK: Duration = Duration::from_millis(500);

/// How often (in ticks) a node also looks for rooms no node owns: they appear only when a
/// room's ownership could not be stored, or from before the hall ran as a cluster (taken at
/// start), so the scan of the running games is rare.
const UNOWNED_EVERY: u32 = 120;

/// How long a command forwarded to another node may take before it counts as lost.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(8);

/// A connection of another node: (node, connection).
type RemoteConn = (String, ConnId);

/// An outbox and the rooms or nodes it reaches.
type Reaching = (Outbox, HashSet<String>);

/// A forwarded command waiting for its answer: the owner node, and who waits.
type Waiting = (String, oneshot::Sender<RemoteAnswer>);

/// This node's part in a cluster.
pub struct Cluster {
    /// This node's name (unique for each start of a process).
    pub node: String,
    nats: Client,
    hall: Weak<Hall>,
    /// Connections of this node that sent commands to rooms of other nodes: where frames for
    /// them go, and which nodes they reached.
    conns: Mutex<HashMap<ConnId, Reaching>>,
    /// Stand-ins on this node for connections of other nodes, and the rooms they are in.
    stand_ins: Mutex<HashMap<RemoteConn, Reaching>>,
    /// Turns true when this node lost its lease (it must stop: its rooms are another's now).
    fenced: watch::Sender<bool>,
    /// Changes of this node's rooms in the hall list, published in order by one task.
    listing_changes: mpsc::UnboundedSender<ListingChange>,
    /// Queues to the other nodes.
    links: Arc<Links>,
    /// Commands forwarded and not answered yet: (connection, id) → the owner node and who waits.
    pending: Mutex<HashMap<(ConnId, u64), Waiting>>,
}

impl Cluster {
    /// Connects to NATS and registers this node (its lease, its journal range) in the store;
    /// then serves the other nodes' requests, the hall list's changes, and the leases.
    pub async fn join(
        hall: &Arc<Hall>,
        nats_url: &str,
        address: &str,
    ) -> anyhow::Result<Arc<Cluster>> {
        let mut suffix = [0u8; 4];
        getrandom::fill(&mut suffix)?;
        let node = format!("n{}-{}", std::process::id(), hex::encode(suffix));
        let nats = async_nats::ConnectOptions::new()
            .name(&node)
            .connect(nats_url)
            .await
            .map_err(|e| anyhow::anyhow!("cannot reach NATS at {nats_url}: {e}"))?;
        hall.store.register_node(&node, address, LEASE).await?;
        let (listing_changes, mut changes) = mpsc::unbounded_channel::<ListingChange>();
        let publisher = nats.clone();
        tokio::spawn(async move {
            while let Some(change) = changes.recv().await {
                let body = serde_json::to_vec(&change).expect("a listing serialises");
                if let Err(e) = publisher.publish(LISTING_SUBJECT, body.into()).await {
                    tracing::warn!(error = %e, "a hall list change could not be published");
                }
            }
        });
        let links = Arc::new(Links::new(&node, nats.clone()));
        let cluster = Arc::new(Cluster {
            node,
            nats,
            hall: Arc::downgrade(hall),
            conns: Mutex::default(),
            stand_ins: Mutex::default(),
            fenced: watch::Sender::new(false),
            listing_changes,
            links,
            pending: Mutex::default(),
        });
        hall.set_cluster(cluster.clone());
        cluster.subscribe_all().await?;
        tokio::spawn(cluster.clone().keep_lease());
        // Rooms stored before (a single node's, or of nodes gone while none ran) are adopted
        // now; the other nodes' lists come in answer to the hello.
        cluster.adopt(hall, true).await;
        cluster
            .nats
            .publish(HELLO_SUBJECT, cluster.node.clone().into())
            .await?;
        tracing::info!(node = %cluster.node, "joined the cluster");
        Ok(cluster)
    }

    /// Completes when this node lost its lease and must stop.
    pub async fn fenced(&self) {
        let mut seen = self.fenced.subscribe();
        let _ = seen.wait_for(|fenced| *fenced).await;
    }

    fn hall(&self) -> Option<Arc<Hall>> {
        self.hall.upgrade()
    }

    async fn subscribe_all(self: &Arc<Self>) -> anyhow::Result<()> {
        let mut inbox = self.nats.subscribe(inbox_subject(&self.node)).await?;
        let me = self.clone();
        tokio::spawn(async move {
            while let Some(message) = inbox.next().await {
                match link::decode(&message.payload) {
                    Some((from, records)) => me.receive(&from, records),
                    None => tracing::warn!("an unreadable message from another node"),
                }
            }
        });
        let mut listings = self.nats.subscribe(LISTING_SUBJECT).await?;
        let me = self.clone();
        tokio::spawn(async move {
            while let Some(message) = listings.next().await {
                if let (Ok(change), Some(hall)) = (
                    serde_json::from_slice::<ListingChange>(&message.payload),
                    me.hall(),
                ) && change.node != me.node
                {
                    hall.apply_listing(change);
                }
            }
        });
        let mut hellos = self.nats.subscribe(HELLO_SUBJECT).await?;
        let me = self.clone();
        tokio::spawn(async move {
            while let Some(message) = hellos.next().await {
                if message.payload.as_ref() != me.node.as_bytes()
                    && let Some(hall) = me.hall()
                {
                    for change in hall.own_listings(&me.node) {
                        me.publish_listing(change);
                    }
                }
            }
        });
        let mut signed_out = self.nats.subscribe(SIGNED_OUT_SUBJECT).await?;
        let me = self.clone();
        tokio::spawn(async move {
            while let Some(message) = signed_out.next().await {
                let player = std::str::from_utf8(&message.payload)
                    .ok()
                    .and_then(|p| p.split_once(' '))
                    .filter(|(node, _)| *node != me.node)
                    .and_then(|(_, id)| id.parse::<i64>().ok());
                if let (Some(player), Some(hall)) = (player, me.hall()) {
                    hall.sessions
                        .close_all(player, SIGNED_OUT_CODE, SIGNED_OUT_REASON);
                }
            }
        });
        let mut gone = self.nats.subscribe(GONE_SUBJECT).await?;
        let me = self.clone();
        tokio::spawn(async move {
            while let Some(message) = gone.next().await {
                if let Ok(node) = std::str::from_utf8(&message.payload) {
                    me.node_gone(node);
                }
            }
        });
        Ok(())
    }

    /// Tells the other nodes that `player` signed out everywhere: they close the player's
    /// connections (this node closed its own).
    pub fn signed_out_everywhere(&self, player: i64) {
        let nats = self.nats.clone();
        let body = format!("{} {player}", self.node);
        tokio::spawn(async move {
            let _ = nats.publish(SIGNED_OUT_SUBJECT, body.into()).await;
        });
    }

    /// Tells every node that a room of this node changed in the hall list (in order).
    pub fn publish_listing(&self, change: ListingChange) {
        let _ = self.listing_changes.send(change);
    }

    /// Runs a command in room `code` of `node` for a connection of this node; the room sends
    /// the answer and the events to the connection through its stand-in there.
    pub async fn forward(
        &self,
        node: &str,
        code: &str,
        request: RoomRequest,
    ) -> Result<Answered, RoomClosed> {
        let outbox = request.outbox.clone();
        {
            let mut conns = self.conns.lock().expect("conns lock");
            let entry = conns
                .entry(outbox.id)
                .or_insert_with(|| (outbox.clone(), HashSet::new()));
            if !entry.1.contains(node) {
                entry.1.insert(node.to_owned());
            }
        }
        let id = request.id;
        let command = RemoteCommand {
            code: code.to_owned(),
            conn: outbox.id,
            player: request.player.as_ref().map(Into::into),
            client: request.client.as_deref().map(str::to_owned),
            id,
            order: request.order,
        };
        let (answer_to, answer) = oneshot::channel();
        self.pending
            .lock()
            .expect("pending lock")
            .insert((outbox.id, id), (node.to_owned(), answer_to));
        let started = std::time::Instant::now();
        self.links.send(node, Record::Command(command));
        let answer = tokio::time::timeout(FORWARD_TIMEOUT, answer).await;
        metrics::histogram!(crate::metrics::NATS_ROUND_TRIP)
            .record(started.elapsed().as_secs_f64());
        self.pending
            .lock()
            .expect("pending lock")
            .remove(&(outbox.id, id));
        match answer {
            Ok(Ok(RemoteAnswer::Answered { frame })) => Ok(answered(frame)),
            Ok(Ok(RemoteAnswer::NoRoom)) => Err(RoomClosed),
            Ok(Ok(RemoteAnswer::Unavailable) | Err(_)) | Err(_) => {
                // The owner did not answer (gone, stopping, or cut off): nothing is known to
                // have happened; the client may send the same command again.
                let error = ProtoError::new(
                    ErrorCode::Unavailable,
                    "the room's node did not answer; try again in a moment",
                );
                let frame = Utf8Bytes::from(error_frame(Some(id), &error));
                outbox.send(frame.clone());
                Ok(Answered {
                    outcome: Err(error),
                    frame,
                })
            }
        }
    }

    /// A connection of this node leaves room `code` of `node` (`None`: every room there).
    pub fn detach(&self, node: &str, code: Option<&str>, conn: ConnId) {
        let detach = Detach {
            conn,
            code: code.map(str::to_owned),
        };
        self.links.send(node, Record::Detach(detach));
    }

    /// A connection of this node closed: every node it reached lets its stand-in go.
    pub fn connection_closed(&self, conn: ConnId) {
        let entry = self.conns.lock().expect("conns lock").remove(&conn);
        if let Some((_, nodes)) = entry {
            for node in nodes {
                self.detach(&node, None, conn);
            }
        }
    }

    /// Takes what node `from` sent, in order: commands run each on a task of its own (a slow
    /// room holds up no other), the rest at once.
    fn receive(self: &Arc<Self>, from: &str, records: Vec<Record>) {
        for record in records {
            match record {
                Record::Command(command) => {
                    let me = self.clone();
                    let from = from.to_owned();
                    tokio::spawn(async move {
                        let (conn, id) = (command.conn, command.id);
                        let answer = me.run_command(&from, command).await;
                        me.links.send(&from, Record::Answer { conn, id, answer });
                    });
                }
                Record::Answer { conn, id, answer } => {
                    let waiting = self
                        .pending
                        .lock()
                        .expect("pending lock")
                        .remove(&(conn, id));
                    if let Some((_, answer_to)) = waiting {
                        let _ = answer_to.send(answer);
                    }
                }
                Record::Frames { conn, frames } => {
                    if let Some((outbox, _)) = self.conns.lock().expect("conns lock").get(&conn) {
                        outbox.send_batch(frames);
                    }
                }
                Record::Close { conn, code } => {
                    if let Some((outbox, _)) = self.conns.lock().expect("conns lock").get(&conn) {
                        outbox.close(code, "closed by the room's node");
                    }
                }
                Record::Detach(detach) => self.detach_stand_in(from, &detach),
            }
        }
    }

    async fn run_command(&self, from: &str, command: RemoteCommand) -> RemoteAnswer {
        let Some(hall) = self.hall() else {
            return RemoteAnswer::NoRoom;
        };
        if hall.is_closing() {
            return RemoteAnswer::Unavailable;
        }
        let Some(room) = hall.local_room(&command.code) else {
            return RemoteAnswer::NoRoom;
        };
        let stand_in = self.stand_in(from, command.conn, &command.code);
        // A command this node's room stored before (rebuilt after a takeover, with the
        // commands that asked for its actions), sent again by a client whose acknowledgement
        // was lost with the old owner: answered as a repeat, not run twice.
        if let (Some(player), Some(client)) = (&command.player, &command.client)
            && let Some(frame) = hall.answers.peek(player.id, client, command.id)
        {
            let frame = Answer::repeat_frame(&frame);
            stand_in.send(Utf8Bytes::from(frame.clone()));
            return RemoteAnswer::Answered { frame };
        }
        let request = RoomRequest {
            outbox: stand_in,
            player: command.player.map(Into::into),
            client: command.client.map(Arc::from),
            id: command.id,
            order: command.order,
        };
        match room.command(request).await {
            Ok(answered) => RemoteAnswer::Answered {
                frame: answered.frame.as_str().to_owned(),
            },
            Err(RoomClosed) => RemoteAnswer::NoRoom,
        }
    }

    /// The stand-in of connection `conn` of node `from`, made on first use: an outbox whose
    /// frames are published to that node.
    fn stand_in(&self, from: &str, conn: ConnId, code: &str) -> Outbox {
        let mut stand_ins = self.stand_ins.lock().expect("stand-ins lock");
        let key = (from.to_owned(), conn);
        if let Some((outbox, rooms)) = stand_ins.get_mut(&key) {
            rooms.insert(code.to_owned());
            return outbox.clone();
        }
        let (outbox, mut rx) = Outbox::new();
        let links = self.links.clone();
        let to = from.to_owned();
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(16);
            while rx.recv_many(&mut batch, 64).await > 0 {
                let mut frames: Vec<Utf8Bytes> = Vec::new();
                let mut close = None;
                for out in batch.drain(..) {
                    match out {
                        Out::Text(text) => frames.push(text),
                        Out::Batch(mut more) => frames.append(&mut more),
                        Out::Close(code, _) => close = Some(code),
                    }
                }
                if !frames.is_empty() {
                    links.send(&to, Record::Frames { conn, frames });
                }
                if let Some(code) = close {
                    links.send(&to, Record::Close { conn, code });
                }
            }
        });
        stand_ins.insert(key, (outbox.clone(), HashSet::from([code.to_owned()])));
        outbox
    }

    /// A connection of another node leaves a room (or all) of this node.
    fn detach_stand_in(&self, from: &str, detach: &Detach) {
        let key = (from.to_owned(), detach.conn);
        let mut stand_ins = self.stand_ins.lock().expect("stand-ins lock");
        let Some((outbox, rooms)) = stand_ins.get_mut(&key) else {
            return;
        };
        let leaving: Vec<String> = match &detach.code {
            Some(code) => rooms.take(code).into_iter().collect(),
            None => rooms.drain().collect(),
        };
        let id = outbox.id;
        if rooms.is_empty() {
            stand_ins.remove(&key);
        }
        drop(stand_ins);
        if let Some(hall) = self.hall() {
            for code in leaving {
                if let Some(room) = hall.local_room(&code) {
                    room.detach(id);
                }
            }
        }
    }

    /// Another node is gone (its rooms were taken over): its connections' stand-ins leave
    /// this node's rooms (their players are away), its rooms leave the list, and this node's
    /// connections that were in its rooms are told to reconnect (1012), so that they resume
    /// in the rooms' new home.
    fn node_gone(&self, node: &str) {
        if node == self.node {
            return;
        }
        self.links.forget(node);
        // Commands waiting for that node get no answer: they end now (unavailable).
        self.pending
            .lock()
            .expect("pending lock")
            .retain(|_, (owner, _)| owner != node);
        let gone: Vec<Reaching> = {
            let mut stand_ins = self.stand_ins.lock().expect("stand-ins lock");
            let keys: Vec<_> = stand_ins
                .keys()
                .filter(|(n, _)| n == node)
                .cloned()
                .collect();
            keys.iter().filter_map(|k| stand_ins.remove(k)).collect()
        };
        if let Some(hall) = self.hall() {
            for (outbox, rooms) in gone {
                for code in rooms {
                    if let Some(room) = hall.local_room(&code) {
                        room.detach(outbox.id);
                    }
                }
            }
            hall.forget_listings_of(node);
        }
        let conns = self.conns.lock().expect("conns lock");
        for (outbox, nodes) in conns.values() {
            if nodes.contains(node) {
                outbox.close(1012, "the room moved to another node: reconnect");
            }
        }
    }

    /// Renews this node's lease while it is connected to NATS, and takes over the nodes whose
    /// leases ran out. A node that could not renew for almost a whole lease stops acting
    /// (`fenced`): by then another node may own its rooms, and the store refuses its writes.
    async fn keep_lease(self: Arc<Self>) {
        let mut renewed = tokio::time::Instant::now();
        let mut tick = tokio::time::interval(TICK);
        let mut ticks = 0u32;
        loop {
            tick.tick().await;
            ticks = ticks.wrapping_add(1);
            let Some(hall) = self.hall() else {
                return;
            };
            if hall.is_closing() {
                return;
            }
            let connected =
                self.nats.connection_state() == async_nats::connection::State::Connected;
            if connected && hall.store.renew_lease(LEASE).await.is_ok() {
                renewed = tokio::time::Instant::now();
            } else if renewed.elapsed() >= LEASE - TICK * 2 {
                tracing::error!(node = %self.node, "the cluster lease could not be renewed: this node stops");
                self.fenced.send_replace(true);
                return;
            }
            if connected {
                self.adopt(&hall, ticks.is_multiple_of(UNOWNED_EVERY)).await;
            }
        }
    }

    /// Takes over the rooms of nodes whose lease ran out (and, when `unowned`, the rooms no
    /// node owns), and rebuilds them here.
    async fn adopt(&self, hall: &Arc<Hall>, unowned: bool) {
        let mut adopted = Vec::new();
        let mut taken_over = Vec::new();
        match hall.store.expired_nodes().await {
            Ok(dead) => {
                for node in dead.iter().filter(|n| **n != self.node) {
                    match hall.store.adopt_rooms_of(node).await {
                        // Another node was first.
                        Ok(None) => {}
                        Ok(Some(codes)) => {
                            tracing::warn!(dead = %node, rooms = codes.len(), "took over a node whose lease ran out");
                            metrics::counter!(crate::metrics::LEASE_TAKEOVERS).increment(1);
                            adopted.extend(codes);
                            taken_over.push(node.clone());
                        }
                        Err(e) => tracing::warn!(dead = %node, error = %e, "taking over failed"),
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "the cluster's nodes could not be read"),
        }
        if unowned && let Ok(codes) = hall.store.adopt_unowned_rooms().await {
            adopted.extend(codes);
        }
        for code in adopted {
            rebuild(hall, &code).await;
        }
        // Only now are the players told to come back: their rooms are here to take them.
        for node in taken_over {
            let _ = self.nats.publish(GONE_SUBJECT, node.into()).await;
        }
    }
}

/// Rebuilds an adopted room from the store: its running game, else its waiting room; a room
/// with neither has closed and loses its owner row.
async fn rebuild(hall: &Arc<Hall>, code: &str) {
    if hall.local_room(code).is_some() {
        return;
    }
    let rebuilt = match hall.store.running_game_of_room(code).await {
        Ok(Some(game)) => restore_room(hall, &game).await,
        Ok(None) => match hall.store.waiting_room(code).await {
            Ok(Some(room)) => restore_waiting_room(hall, &room).await,
            Ok(None) => hall.store.release_room(code).await.map_err(Into::into),
            Err(e) => Err(e.into()),
        },
        Err(e) => Err(e.into()),
    };
    if let Err(e) = rebuilt {
        tracing::error!(room = %code, error = %e, "an adopted room could not be rebuilt");
    }
}

/// A remote answer frame as the typed answer a local room gives.
fn answered(frame: String) -> Answered {
    let outcome = match serde_json::from_str::<Answer>(&frame) {
        Ok(Answer::Ack { result, .. }) => Ok(result),
        Ok(Answer::Error { code, message, .. }) => Err(ProtoError::new(code, message)),
        Err(e) => Err(ProtoError::new(ErrorCode::Internal, e.to_string())),
    };
    Answered {
        outcome,
        frame: Utf8Bytes::from(frame),
    }
}
