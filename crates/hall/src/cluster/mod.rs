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

mod arenas;
mod commands;
mod link;
mod news;
mod stand_in;
mod takeover;
mod wire;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use async_nats::Client;
use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot, watch};

use crate::arena::ArenaRequest;
use crate::challenges::ChallengeEvent;
use crate::hall::Hall;
use crate::outbox::{ConnId, Outbox};
use crate::peers::{ListingChange, Peers};
use crate::room::{Answered, RemoteRooms, RoomClosed, RoomRequest};
use crate::sessions::{SIGNED_OUT_CODE, SIGNED_OUT_REASON};
use futures_util::future::BoxFuture;
use hangar_protocol::Outcome;
use link::{Links, inbox_subject};
use news::{ListingNews, challenge_news, queue_challenge};
use wire::{
    CHALLENGE_SUBJECT, GONE_SUBJECT, HELLO_SUBJECT, LISTING_SUBJECT, NodeMessage, RemoteAnswer,
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
    /// Changes of this node's rooms in the hall list, the latest of each room, published by
    /// one task.
    listing_changes: Arc<ListingNews>,
    /// Changes of open challenges made on this node, published in order by one task.
    challenge_changes: mpsc::Sender<ChallengeEvent>,
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
        let listing_changes = Arc::new(ListingNews::default());
        tokio::spawn(listing_changes.clone().publish(nats.clone()));
        let challenge_changes = challenge_news(nats.clone(), node.clone());
        let links = Arc::new(Links::new(&node, nats.clone()));
        let cluster = Arc::new(Cluster {
            node,
            nats,
            hall: Arc::downgrade(hall),
            conns: Mutex::default(),
            stand_ins: Mutex::default(),
            fenced: watch::Sender::new(false),
            listing_changes,
            challenge_changes,
            links,
            pending: Mutex::default(),
        });
        hall.set_peers(cluster.clone());
        cluster.subscribe_all().await?;
        tokio::spawn(cluster.clone().keep_lease());
        // Rooms stored before (a single node's, or of nodes gone while none ran) are adopted
        // now; the other nodes' lists come in answer to the hello.
        cluster.adopt(hall, true).await;
        cluster
            .nats
            .publish(
                HELLO_SUBJECT,
                NodeMessage::Hello {
                    from: cluster.node.clone(),
                }
                .encode()
                .into(),
            )
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
        for subject in [
            inbox_subject(&self.node),
            LISTING_SUBJECT.to_owned(),
            HELLO_SUBJECT.to_owned(),
            SIGNED_OUT_SUBJECT.to_owned(),
            CHALLENGE_SUBJECT.to_owned(),
            GONE_SUBJECT.to_owned(),
        ] {
            let mut messages = self.nats.subscribe(subject.clone()).await?;
            let me = self.clone();
            tokio::spawn(async move {
                while let Some(message) = messages.next().await {
                    match NodeMessage::decode(&message.payload) {
                        Ok(read) => me.receive_message(read),
                        Err(e) => {
                            metrics::counter!(crate::metrics::CLUSTER_UNREADABLE).increment(1);
                            tracing::warn!(%subject, error = %e, "an unreadable message from another node");
                        }
                    }
                }
            });
        }
        Ok(())
    }

    /// Takes one message of another node.
    fn receive_message(self: &Arc<Self>, message: NodeMessage) {
        match message {
            NodeMessage::Link { from, records } => self.receive(&from, records),
            NodeMessage::Listing(change) => {
                if let Some(hall) = self.hall()
                    && change.node != self.node
                {
                    hall.apply_listing(change);
                }
            }
            NodeMessage::Hello { from } => {
                if from != self.node
                    && let Some(hall) = self.hall()
                {
                    for change in hall.own_listings(&self.node) {
                        self.publish_listing(change);
                    }
                }
            }
            NodeMessage::SignedOut { from, player } => {
                if from != self.node
                    && let Some(hall) = self.hall()
                {
                    hall.sessions
                        .close_all(player, SIGNED_OUT_CODE, SIGNED_OUT_REASON);
                }
            }
            NodeMessage::Challenge { from, event } => {
                if from != self.node
                    && let Some(hall) = self.hall()
                {
                    crate::challenge_news::apply(&hall, event);
                }
            }
            NodeMessage::Gone { node } => self.node_gone(&node),
        }
    }

    /// Tells every node of a change of an open challenge made on this node (in order).
    pub fn publish_challenge(&self, event: ChallengeEvent) {
        queue_challenge(&self.challenge_changes, event);
    }

    /// Tells the other nodes that `player` signed out everywhere: they close the player's
    /// connections (this node closed its own).
    pub fn signed_out_everywhere(&self, player: i64) {
        let nats = self.nats.clone();
        let body = NodeMessage::SignedOut {
            from: self.node.clone(),
            player,
        }
        .encode();
        tokio::spawn(async move {
            let _ = nats.publish(SIGNED_OUT_SUBJECT, body.into()).await;
        });
    }

    /// Tells every node that a room of this node changed in the hall list (in order).
    pub fn publish_listing(&self, change: ListingChange) {
        self.listing_changes.push(change);
    }
}

impl RemoteRooms for Cluster {
    fn forward<'a>(
        &'a self,
        node: &'a str,
        code: &'a str,
        request: RoomRequest,
    ) -> BoxFuture<'a, Result<Answered, RoomClosed>> {
        Box::pin(Cluster::forward(self, node, code, request))
    }

    fn detach(&self, node: &str, code: Option<&str>, conn: ConnId) {
        Cluster::detach(self, node, code, conn);
    }
}

impl Peers for Cluster {
    fn node(&self) -> &str {
        &self.node
    }

    fn publish_listing(&self, change: ListingChange) {
        Cluster::publish_listing(self, change);
    }

    fn connection_closed(&self, conn: ConnId) {
        Cluster::connection_closed(self, conn);
    }

    fn signed_out_everywhere(&self, player: i64) {
        Cluster::signed_out_everywhere(self, player);
    }

    fn publish_challenge(&self, event: ChallengeEvent) {
        Cluster::publish_challenge(self, event);
    }

    fn forward_arena<'a>(&'a self, node: &'a str, request: ArenaRequest) -> BoxFuture<'a, Outcome> {
        Box::pin(Cluster::forward_arena(self, node, request))
    }

    fn seated_by_arena(&self, conn: ConnId, code: &str) {
        Cluster::seated_by_arena(self, conn, code);
    }
}
