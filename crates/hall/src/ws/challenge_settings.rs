//! Who may challenge a player, and blocks (P-CHALLENGE): `challenge_settings`,
//! `set_challenge_policy`, `block`, `unblock`, and the check that a challenge may be made.

use super::{Conn, internal, invalid};
use crate::accounts::Player;
use crate::store::{BlockRefusal, MAX_BLOCKS};
use hangar_protocol::{Ack, ChallengePolicy, ChallengeSettings, ErrorCode, Outcome, ProtoError};

impl Conn {
    /// `challenge_settings`: who may challenge the signed-in player, whom they blocked.
    pub(super) async fn challenge_settings(&self) -> Outcome {
        let player = self.require_player()?.id;
        self.settings_of(player).await
    }

    /// `set_challenge_policy`: who may challenge the signed-in player from now on.
    pub(super) async fn set_challenge_policy(&self, policy: ChallengePolicy) -> Outcome {
        let player = self.require_player()?.id;
        crate::room::storage_available(&self.hall.store)?;
        self.hall
            .store
            .set_challenge_policy(player, policy)
            .await
            .map_err(internal)?;
        self.settings_of(player).await
    }

    /// `block`: the signed-in player blocks `other`.
    pub(super) async fn block(&self, other: i64) -> Outcome {
        let player = self.require_player()?.id;
        crate::room::storage_available(&self.hall.store)?;
        match self
            .hall
            .store
            .block(player, other)
            .await
            .map_err(internal)?
        {
            Ok(()) => self.settings_of(player).await,
            Err(BlockRefusal::Oneself) => Err(invalid("you cannot block yourself".to_owned())),
            Err(BlockRefusal::NoPlayer) => Err(ProtoError::new(
                ErrorCode::NoPlayer,
                format!("no player {other}"),
            )),
            Err(BlockRefusal::Full) => Err(invalid(format!(
                "at most {MAX_BLOCKS} players may be blocked: unblock one first"
            ))),
        }
    }

    /// `unblock`: the signed-in player takes back a block of `other`.
    pub(super) async fn unblock(&self, other: i64) -> Outcome {
        let player = self.require_player()?.id;
        crate::room::storage_available(&self.hall.store)?;
        self.hall
            .store
            .unblock(player, other)
            .await
            .map_err(internal)?;
        self.settings_of(player).await
    }

    async fn settings_of(&self, player: i64) -> Outcome {
        let store = &self.hall.store;
        let challenges = store.challenge_policy(player).await.map_err(internal)?;
        let blocked = store.blocked_by(player).await.map_err(internal)?;
        Ok(Ack::ChallengeSettings(ChallengeSettings {
            challenges,
            blocked: blocked.iter().map(Player::view).collect(),
        }))
    }

    /// Whether `to` takes a challenge from `from` (their settings, a block either way). The
    /// refusal does not say which: a blocked player is not told they are blocked.
    pub(super) async fn check_may_challenge(
        &self,
        from: &Player,
        to: &Player,
    ) -> Result<(), ProtoError> {
        let store = &self.hall.store;
        let allowed = match store.challenge_policy(to.id).await.map_err(internal)? {
            ChallengePolicy::Everyone => true,
            ChallengePolicy::Registered => !from.guest,
            ChallengePolicy::Nobody => false,
        };
        let blocked = !store
            .blocked_either_way(from.id, &[to.id])
            .await
            .map_err(internal)?
            .is_empty();
        if allowed && !blocked {
            return Ok(());
        }
        Err(ProtoError::new(
            ErrorCode::ChallengeRefused,
            format!("{} does not take challenges from you", to.name),
        ))
    }
}
