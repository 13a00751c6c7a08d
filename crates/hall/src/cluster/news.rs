//! What this node tells every other node of its own changes: its rooms in the hall list and
//! its open challenges. Both are published by one task each, so that they leave in order, and
//! both queues are bounded (docs/architecture.md, "Queues and their bounds"):
//!
//! - a room's listing is a whole snapshot of the room, so only its latest one waits: the queue
//!   holds one change per room of this node, however fast the rooms change;
//! - challenge changes are kept in order up to [`CHALLENGE_QUEUE`]; beyond, a change is
//!   dropped and counted (every node lapses its copies of a challenge by itself, so a dropped
//!   change costs the other nodes' parties a notice, never a stuck challenge).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_nats::Client;
use tokio::sync::{Notify, mpsc};

use super::wire::{CHALLENGE_SUBJECT, LISTING_SUBJECT, NodeMessage};
use crate::challenges::ChallengeEvent;
use crate::peers::ListingChange;

/// Challenge changes waiting to be published; beyond, a change is dropped.
pub const CHALLENGE_QUEUE: usize = 1024;

/// The latest listing of each room of this node not yet published.
#[derive(Default)]
pub struct ListingNews {
    waiting: Mutex<HashMap<String, ListingChange>>,
    wake: Notify,
}

impl ListingNews {
    /// Queues `change`, replacing an older change of the same room that has not left yet.
    pub fn push(&self, change: ListingChange) {
        self.lock().insert(change.code.clone(), change);
        self.wake.notify_one();
    }

    /// Publishes the waiting changes as they come, for as long as the node runs.
    pub async fn publish(self: Arc<Self>, nats: Client) {
        loop {
            self.wake.notified().await;
            let changes: Vec<ListingChange> = self.lock().drain().map(|(_, c)| c).collect();
            for change in changes {
                let body = NodeMessage::Listing(change).encode();
                if let Err(e) = nats.publish(LISTING_SUBJECT, body.into()).await {
                    tracing::warn!(error = %e, "a hall list change could not be published");
                }
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, ListingChange>> {
        self.waiting.lock().expect("listing news lock")
    }
}

/// The queue of this node's challenge changes, in order, and its publisher.
pub fn challenge_news(nats: Client, node: String) -> mpsc::Sender<ChallengeEvent> {
    let (changes, mut events) = mpsc::channel::<ChallengeEvent>(CHALLENGE_QUEUE);
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            let from = node.clone();
            let body = NodeMessage::Challenge { from, event }.encode();
            if let Err(e) = nats.publish(CHALLENGE_SUBJECT, body.into()).await {
                tracing::warn!(error = %e, "a challenge's change could not be published");
            }
        }
    });
    changes
}

/// Queues a challenge change, or drops and counts it when [`CHALLENGE_QUEUE`] wait already.
pub fn queue_challenge(changes: &mpsc::Sender<ChallengeEvent>, event: ChallengeEvent) {
    if let Err(mpsc::error::TrySendError::Full(_)) = changes.try_send(event) {
        metrics::counter!(crate::metrics::CLUSTER_DROPPED, "queue" => "challenges").increment(1);
        tracing::warn!("a challenge's change was dropped: too many wait to be published");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hangar_protocol::GameKind;

    fn change(code: &str, free_seats: usize) -> ListingChange {
        ListingChange {
            node: "n1".to_owned(),
            code: code.to_owned(),
            game: GameKind::Jungle,
            summary: None,
            free_seats,
            taken_seats: 0,
            players: Vec::new(),
        }
    }

    #[test]
    fn a_room_changing_fast_keeps_one_change_waiting_its_latest() {
        let news = ListingNews::default();
        for free in 0..10_000 {
            news.push(change("ROOM", free % 4));
        }
        news.push(change("OTHER", 1));
        news.push(change("ROOM", 3));
        let waiting = news.lock();
        assert_eq!(waiting.len(), 2, "one change per room waits");
        assert_eq!(
            waiting["ROOM"].free_seats, 3,
            "the latest change of the room"
        );
    }

    #[tokio::test]
    async fn challenge_changes_beyond_the_bound_are_dropped_without_waiting() {
        let (changes, events) = mpsc::channel(CHALLENGE_QUEUE);
        for n in 0..CHALLENGE_QUEUE + 10 {
            let event = ChallengeEvent::Accepted {
                id: format!("c{n}"),
                player: 1,
            };
            queue_challenge(&changes, event);
        }
        assert_eq!(
            events.len(),
            CHALLENGE_QUEUE,
            "the queue holds its bound, no more"
        );
    }
}
