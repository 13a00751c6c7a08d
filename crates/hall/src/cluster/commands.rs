//! The command path between nodes: a connection of this node forwards commands to a room of
//! another and waits for the answer; the owner runs what other nodes send it, each command on a
//! task of its own, and answers.

use std::collections::HashSet;
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::oneshot;

use super::wire::{Detach, Record, RemoteAnswer, RemoteCommand};
use super::{Cluster, FORWARD_TIMEOUT};
use crate::answers::worth_remembering;
use crate::outbox::{ConnId, Outbox};
use crate::room::{Answered, RoomClosed, RoomRequest};
use hangar_protocol::{Answer, ErrorCode, ProtoError, error_frame};

impl Cluster {
    /// Runs a command in room `code` of `node` for a connection of this node; the room sends
    /// the answer and the events to the connection through its stand-in there.
    pub async fn forward(
        &self,
        node: &str,
        code: &str,
        request: RoomRequest,
    ) -> Result<Answered, RoomClosed> {
        let outbox = request.outbox.clone();
        let id = request.id;
        let command = RemoteCommand {
            code: code.to_owned(),
            conn: outbox.id,
            player: request.player.as_ref().map(Into::into),
            client: request.client.as_deref().map(str::to_owned),
            id,
            order: request.order,
        };
        match self
            .exchange(node, &outbox, id, Record::Command(command))
            .await
        {
            Some(RemoteAnswer::Answered { outcome, frame }) => Ok(Answered {
                outcome,
                frame: Utf8Bytes::from(frame),
            }),
            Some(RemoteAnswer::NoRoom) => Err(RoomClosed),
            Some(RemoteAnswer::Unavailable | RemoteAnswer::Arena(_)) | None => {
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

    /// Sends `record`, command `id` of the connection of `outbox`, to `node` and waits for its
    /// answer; `None` when none came in time (or the link to the node is full).
    pub(super) async fn exchange(
        &self,
        node: &str,
        outbox: &Outbox,
        id: u64,
        record: Record,
    ) -> Option<RemoteAnswer> {
        {
            let mut conns = self.conns.lock().expect("conns lock");
            let entry = conns
                .entry(outbox.id)
                .or_insert_with(|| (outbox.clone(), HashSet::new()));
            if !entry.1.contains(node) {
                entry.1.insert(node.to_owned());
            }
        }
        let (answer_to, answer) = oneshot::channel();
        self.pending
            .lock()
            .expect("pending lock")
            .insert((outbox.id, id), (node.to_owned(), answer_to));
        let started = std::time::Instant::now();
        // A command that found the link full is not waited for: the node is stalled.
        let answer = if self.links.send(node, record) {
            tokio::time::timeout(FORWARD_TIMEOUT, answer).await
        } else {
            Ok(Ok(RemoteAnswer::Unavailable))
        };
        crate::metrics::round_trip(started.elapsed());
        self.pending
            .lock()
            .expect("pending lock")
            .remove(&(outbox.id, id));
        answer.ok().and_then(Result::ok)
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
    pub(super) fn receive(self: &Arc<Self>, from: &str, records: Vec<Record>) {
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
                Record::Arena(command) => {
                    let (conn, id) = (command.conn, command.id);
                    let answer = self.run_arena_command(from, command);
                    self.links.send(from, Record::Answer { conn, id, answer });
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

    pub(super) async fn run_command(&self, from: &str, command: RemoteCommand) -> RemoteAnswer {
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
            && let Some(outcome) = hall.answers.peek(player.id, client, command.id)
        {
            let frame = Answer::new(command.id, &outcome).repeated().to_text();
            stand_in.send(Utf8Bytes::from(frame.clone()));
            return RemoteAnswer::Answered { outcome, frame };
        }
        let asker = command
            .player
            .as_ref()
            .map(|player| player.id)
            .zip(command.client.clone());
        let request = RoomRequest {
            outbox: stand_in,
            player: command.player.map(Into::into),
            client: command.client.map(Arc::from),
            id: command.id,
            order: command.order,
        };
        match room.command(request).await {
            Ok(answered) => {
                // The room's node remembers the answer too: a client whose own node dies
                // before the answer reaches it comes back through any node, and the command
                // it sends again reaches this node, which answers it as a repeat (§2).
                if let Some((player, client)) = asker
                    && worth_remembering(&answered.outcome)
                {
                    let cache = hall.answers.cache(player, &client);
                    cache.lock().expect("cache lock").put(
                        command.id,
                        &answered.outcome,
                        answered.frame.len(),
                    );
                    hall.answers.release(cache);
                }
                RemoteAnswer::Answered {
                    outcome: answered.outcome,
                    frame: answered.frame.as_str().to_owned(),
                }
            }
            Err(RoomClosed) => RemoteAnswer::NoRoom,
        }
    }
}
