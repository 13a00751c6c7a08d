//! What the parties of a challenge (P-CHALLENGE) are told as it opens, is accepted, gets its
//! room or ends, on this node and, through [`ChallengeEvent`]s, on the others of a cluster.

use std::sync::Arc;

use tokio::time::Instant;

use crate::accounts::Player;
use crate::challenges::{ChallengeEvent, OpenChallenge, party_seats};
use crate::hall::Hall;
use hangar_protocol::{ChallengeEnd, ChallengeMessage};

/// Sends `message` to every connection on this node of every party of `challenge`.
fn tell_parties(hall: &Hall, challenge: &OpenChallenge, message: &ChallengeMessage) {
    let frame = message.to_text();
    for player in challenge.parties() {
        hall.tell(player, &frame);
    }
}

/// Tells the challenged players connected to this node of `challenge`, and lapses this node's
/// copy of it at its deadline.
fn announce(hall: &Arc<Hall>, challenge: &OpenChallenge) {
    let view = challenge.view(&hall.sessions);
    let frame = ChallengeMessage::Challenge {
        challenge: view.clone(),
    }
    .to_text();
    for (_, player) in &challenge.to {
        hall.tell(player.id, &frame);
    }
    // Every page of the challenger shows it pending, not only the one that sent it.
    let sent = ChallengeMessage::ChallengeSent { challenge: view }.to_text();
    hall.tell(challenge.from.id, &sent);
    let (hall, id, deadline) = (hall.clone(), challenge.id.clone(), challenge.deadline);
    tokio::spawn(async move {
        tokio::time::sleep_until(deadline).await;
        if let Some(challenge) = hall.challenges.remove(&id) {
            let message = ended_message(&challenge, ChallengeEnd::Lapsed, None);
            tell_parties(&hall, &challenge, &message);
        }
    });
}

fn ended_message(
    challenge: &OpenChallenge,
    reason: ChallengeEnd,
    by: Option<&Player>,
) -> ChallengeMessage {
    ChallengeMessage::ChallengeEnded {
        challenge: challenge.id.clone(),
        reason,
        by: by.map(Player::view),
    }
}

/// Tells the other nodes of a change (cluster mode; nothing on a single node).
fn publish(hall: &Hall, event: ChallengeEvent) {
    if let Some(peers) = hall.peers() {
        peers.publish_challenge(event);
    }
}

/// A challenge this node just opened: the parties here are told, and the other nodes.
pub fn opened(hall: &Arc<Hall>, challenge: &OpenChallenge) {
    announce(hall, challenge);
    let left = challenge.deadline.saturating_duration_since(Instant::now());
    publish(
        hall,
        ChallengeEvent::Opened {
            challenge: Box::new(challenge.clone()),
            left_ms: u64::try_from(left.as_millis()).unwrap_or(u64::MAX),
        },
    );
}

/// `player` accepted `challenge` on this node: the parties here are told, and the other
/// nodes.
pub fn accepted(hall: &Hall, challenge: &OpenChallenge, player: &Player) {
    tell_accepted(hall, challenge, player);
    let (id, player) = (challenge.id.clone(), player.id);
    publish(hall, ChallengeEvent::Accepted { id, player });
}

fn tell_accepted(hall: &Hall, challenge: &OpenChallenge, player: &Player) {
    let message = ChallengeMessage::ChallengeAccepted {
        challenge: challenge.id.clone(),
        player: player.view(),
    };
    tell_parties(hall, challenge, &message);
}

/// The room of `challenge` (taken out here) is open: every party is told its seat.
pub fn roomed(hall: &Hall, challenge: &OpenChallenge, room: &str) {
    tell_seats(hall, challenge, room);
    let (id, room) = (challenge.id.clone(), room.to_owned());
    publish(hall, ChallengeEvent::Roomed { id, room });
}

fn tell_seats(hall: &Hall, challenge: &OpenChallenge, room: &str) {
    for (seat, party) in party_seats(challenge) {
        let message = ChallengeMessage::ChallengeRoom {
            challenge: challenge.id.clone(),
            room: room.to_owned(),
            seat,
        };
        hall.tell(party.id, &message.to_text());
    }
}

/// `challenge` (taken out here) ended without a room: every party is told.
pub fn ended(hall: &Hall, challenge: &OpenChallenge, reason: ChallengeEnd, by: Option<&Player>) {
    tell_parties(hall, challenge, &ended_message(challenge, reason, by));
    publish(
        hall,
        ChallengeEvent::Ended {
            id: challenge.id.clone(),
            reason,
            by: by.cloned(),
        },
    );
}

/// A change another node made: this node's copy follows, and the parties connected here are
/// told what concerns them.
pub fn apply(hall: &Arc<Hall>, event: ChallengeEvent) {
    match event {
        ChallengeEvent::Opened { challenge, left_ms } => {
            let mut challenge = *challenge;
            challenge.deadline = Instant::now() + std::time::Duration::from_millis(left_ms);
            hall.challenges.insert_copy(challenge.clone());
            announce(hall, &challenge);
        }
        ChallengeEvent::Accepted { id, player } => {
            let updated = hall.challenges.update(&id, |c| {
                c.accepted.insert(player);
                Ok((false, ()))
            });
            if let Some(Ok((challenge, ()))) = updated
                && let Some((_, party)) = challenge.to.iter().find(|(_, p)| p.id == player)
            {
                tell_accepted(hall, &challenge, party);
            }
        }
        ChallengeEvent::Roomed { id, room } => {
            if let Some(challenge) = hall.challenges.remove(&id) {
                tell_seats(hall, &challenge, &room);
            }
        }
        ChallengeEvent::Ended { id, reason, by } => {
            if let Some(challenge) = hall.challenges.remove(&id) {
                let message = ended_message(&challenge, reason, by.as_ref());
                tell_parties(hall, &challenge, &message);
            }
        }
    }
}
