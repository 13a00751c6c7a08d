//! P-SCORE: a person sits at a flight table only with a score of at least its stake, the most
//! a game there can cost beyond an escape. A puppet account that cannot cover the stake
//! cannot be farmed for it.

use hangar_protocol::{ErrorCode, ProtoError};

use crate::store::Store;

/// Refuses player `player` a seat at a table of `stake` (`None`: a table with no stake, a
/// Jungle one) when its score, as the store has it now, is below the stake. The message names
/// both figures ("the stake is 500 and your score is 120"), which the page shows in its own
/// words.
pub async fn check_stake(store: &Store, player: i64, stake: Option<i64>) -> Result<(), ProtoError> {
    let Some(stake) = stake else {
        return Ok(());
    };
    let score = store
        .player(player)
        .await
        .map_err(|e| {
            tracing::error!(player, error = %e, "a score could not be read");
            ProtoError::new(ErrorCode::Internal, "the score could not be read")
        })?
        .map_or(0, |p| p.score);
    refuse_uncovered(stake, score)
}

/// The refusal of a stake that a score does not cover.
pub fn refuse_uncovered(stake: i64, score: i64) -> Result<(), ProtoError> {
    if score >= stake {
        return Ok(());
    }
    Err(ProtoError::new(
        ErrorCode::StakeUncovered,
        format!(
            "the stake is {stake} and your score is {score}: a flight table needs a score of at least its stake"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_score_a_stake_is_covered_by_a_score_of_at_least_it() {
        assert!(refuse_uncovered(100, 100).is_ok());
        assert!(refuse_uncovered(100, 5000).is_ok());
        let refused = refuse_uncovered(500, 120).unwrap_err();
        assert_eq!(refused.code, ErrorCode::StakeUncovered);
        assert!(
            refused.message.contains("stake is 500"),
            "{}",
            refused.message
        );
        assert!(
            refused.message.contains("score is 120"),
            "{}",
            refused.message
        );
    }
}
