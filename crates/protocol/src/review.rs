//! What the hall sends a connection that asked for a game's review (`review`, P-REVIEW,
//! `docs/protocol.md` §9): where the review stands while it is computed, then the review or
//! why there is none.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Where a review being computed stands, as `GET /api/games/{id}/review` answers it (202).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ReviewState {
    /// Waiting for a worker: `position` reviews to go before it, this one included (1: next).
    Queued {
        /// Its place in the queue, from 1.
        position: usize,
    },
    /// Being computed: `done` of `of` steps (Jungle positions searched, flight actions
    /// judged; `of` is 0 while the record is read).
    Running {
        /// Steps done.
        done: usize,
        /// Steps in all.
        of: usize,
    },
}

/// A message about a review the connection asked for with `review`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ReviewMessage {
    /// The review is being computed: sent when where it stands changes, at most about four
    /// times a second.
    ReviewProgress {
        /// The game's id.
        game: i64,
        /// Its place in the queue or its progress.
        #[serde(flatten)]
        state: ReviewState,
    },
    /// The review, once: exactly the JSON `GET /api/games/{id}/review` serves (the hall
    /// writes it into the frame as it is, see [`ReviewMessage::ready_frame`]).
    ReviewReady {
        /// The game's id.
        game: i64,
        /// The review (`docs/review.md` gives every field).
        review: Value,
    },
    /// The review cannot be computed (a record that does not replay to the end, a fault).
    ReviewFailed {
        /// The game's id.
        game: i64,
        /// Why, in words.
        message: String,
    },
}

impl ReviewMessage {
    /// The frame's text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a review message serialises")
    }

    /// The frame of [`ReviewMessage::ReviewReady`] for game `game` whose review's JSON is
    /// `review` (one JSON object, as computed): the review is carried byte for byte, not read
    /// and written again.
    pub fn ready_frame(game: i64, review: &str) -> String {
        format!(r#"{{"type":"review_ready","game":{game},"review":{review}}}"#)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn review_messages_are_the_documented_json() {
        let queued = ReviewMessage::ReviewProgress {
            game: 41,
            state: ReviewState::Queued { position: 2 },
        };
        let read: Value = serde_json::from_str(&queued.to_text()).unwrap();
        assert_eq!(
            read,
            json!({"type": "review_progress", "game": 41, "state": "queued", "position": 2})
        );
        let running = ReviewMessage::ReviewProgress {
            game: 41,
            state: ReviewState::Running { done: 14, of: 41 },
        };
        let text = running.to_text();
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            json!({"type": "review_progress", "game": 41, "state": "running", "done": 14, "of": 41})
        );
        assert_eq!(
            serde_json::from_str::<ReviewMessage>(&text).unwrap(),
            running
        );

        let review = r#"{"format":"hangar-review/1","game_id":41,"moves":[1,2]}"#;
        let frame = ReviewMessage::ready_frame(41, review);
        assert!(frame.contains(review), "{frame}");
        assert_eq!(
            serde_json::from_str::<ReviewMessage>(&frame).unwrap(),
            ReviewMessage::ReviewReady {
                game: 41,
                review: serde_json::from_str(review).unwrap(),
            }
        );
        // A client reading anything the server sends tells it apart.
        assert!(matches!(
            serde_json::from_str::<crate::ServerMessage>(&frame).unwrap(),
            crate::ServerMessage::Review(ReviewMessage::ReviewReady { game: 41, .. })
        ));
        assert!(matches!(
            serde_json::from_str::<crate::ServerMessage>(&text).unwrap(),
            crate::ServerMessage::Review(ReviewMessage::ReviewProgress { game: 41, .. })
        ));
        let failed = ReviewMessage::ReviewFailed {
            game: 41,
            message: "no".into(),
        };
        assert_eq!(
            serde_json::from_str::<ReviewMessage>(&failed.to_text()).unwrap(),
            failed
        );
    }
}
