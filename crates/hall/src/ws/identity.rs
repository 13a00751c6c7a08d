//! Identity: guests, accounts, sign-in by password or token (P-GUEST, P-ACCOUNT).

use std::sync::Arc;

use super::{Answers, Conn, internal, invalid};
use crate::accounts::{
    Player, check_name, check_password, hash_password, name_shape, normalize_name,
    token_issued_after, token_well_formed, verify_password,
};
use crate::answers::MAX_CLIENT_BYTES;
use crate::hall::Hall;
use crate::new_identities::Identity;
use hangar_protocol::{Ack, Authed, ErrorCode, Outcome, ProtoError, SignedIn};

impl Conn {
    /// `guest`: a new guest player and its token (P-GUEST).
    pub(super) async fn guest(&mut self, name: String, client: Option<String>) -> Outcome {
        check_client(client.as_deref())?;
        let name = check_name(&name).map_err(|e| invalid(e.to_string()))?;
        // A guest never bears an account's name, nor one that looks the same (P-ACCOUNT).
        if self.hall.store.name_taken(&name).await.map_err(internal)? {
            return Err(ProtoError::new(
                ErrorCode::NameTaken,
                format!("the name {name:?} is an account's: choose another"),
            ));
        }
        self.take_identity(Identity::Guest)?;
        let (player, token) = self
            .hall
            .store
            .create_player(&name, None)
            .await
            .map_err(internal)?;
        self.sign_in(player.clone(), client.as_deref(), None)?;
        Ok(signed_in(token, &player))
    }

    /// `login`: an account by name and password, with a fresh token.
    pub(super) async fn login(
        &mut self,
        name: String,
        password: String,
        client: Option<String>,
    ) -> Outcome {
        check_client(client.as_deref())?;
        // Names are compared as accounts keep them: `Ａｎａ` signs in to `ana`.
        let name = normalize_name(&name);
        // A locked account or address is refused before anything is looked up or hashed.
        self.logins.check(&name, self.address)?;
        let wrong = || ProtoError::new(ErrorCode::BadCredentials, "wrong name or password");
        // No account has a name that fails the check: nothing to look up.
        let found = match name_shape(&name) {
            Ok(name) => self.hall.store.account(&name).await.map_err(internal)?,
            Err(_) => None,
        };
        let ok = match found {
            Some((player, hash)) => {
                let ok = self
                    .logins
                    .hash(move || verify_password(&password, &hash))
                    .await?;
                ok.then_some(player)
            }
            None => None,
        };
        let Some(player) = ok else {
            self.logins.failed(&name, self.address);
            return Err(wrong());
        };
        self.logins.succeeded(&name);
        refuse_banned(&self.hall, player.id).await?;
        let token = self
            .hall
            .store
            .issue_token(player.id)
            .await
            .map_err(internal)?;
        self.sign_in(player.clone(), client.as_deref(), None)?;
        Ok(signed_in(token, &player))
    }

    /// `auth`: the player of a saved token, and the rooms where it holds a seat.
    pub(super) async fn auth(&mut self, token: String, client: Option<String>) -> Outcome {
        check_client(client.as_deref())?;
        if !token_well_formed(&token) {
            return Err(ProtoError::new(
                ErrorCode::BadToken,
                "a token is 32 hexadecimal digits",
            ));
        }
        // A sign-out everywhere from this moment on revokes the token too late for the
        // lookup below to see it: the registry refuses the sign-in instead.
        let checked = tokio::time::Instant::now();
        let Some(player) = self
            .hall
            .store
            .player_by_token_since(
                &token,
                token_issued_after(self.hall.config.limits.token_lifetime),
            )
            .await
            .map_err(internal)?
        else {
            return Err(ProtoError::new(
                ErrorCode::BadToken,
                "unknown or expired token: sign in again",
            ));
        };
        refuse_banned(&self.hall, player.id).await?;
        self.sign_in(player.clone(), client.as_deref(), Some(checked))?;
        // The token's lifetime runs from its last use. A renewal that cannot be stored costs
        // the player nothing now (the token is good until its old end).
        if let Err(e) = self.hall.store.renew_token(&token).await {
            tracing::warn!(player = player.id, error = %e, "a token could not be renewed");
        }
        Ok(Ack::Authed(Authed {
            player: player.view(),
            rooms: self.hall.seated_rooms(player.id),
        }))
    }

    /// `sign_out_everywhere`: every token of the signed-in player is revoked, and the
    /// player's other connections on this hall are closed (this one stays signed in).
    pub(super) async fn sign_out_everywhere(&self) -> Outcome {
        let player = self.require_player()?;
        self.hall
            .store
            .revoke_tokens(player.id)
            .await
            .map_err(internal)?;
        let closed = self.sessions.close_others(player.id, self.outbox.id);
        if let Some(peers) = self.hall.peers() {
            peers.signed_out_everywhere(player.id);
        }
        tracing::info!(player = player.id, closed, "signed out everywhere");
        Ok(Ack::DONE)
    }

    /// The connection now speaks for `player`; repeated ids are remembered per player and
    /// `client` string when one is given (protocol.md §2). A sign-in with a token checked at
    /// `token_checked` is refused (`bad_token`, nothing changes) when the player signed out
    /// everywhere since.
    pub(super) fn sign_in(
        &mut self,
        player: Player,
        client: Option<&str>,
        token_checked: Option<tokio::time::Instant>,
    ) -> Result<(), ProtoError> {
        let hall = self.hall.clone();
        if let Some(before) = &self.player {
            self.sessions.signed_out(before.id, self.outbox.id);
        }
        if !self
            .sessions
            .signed_in(player.id, &self.outbox, token_checked)
        {
            if let Some(before) = &self.player {
                self.sessions.signed_in(before.id, &self.outbox, None);
            }
            return Err(ProtoError::new(
                ErrorCode::BadToken,
                "unknown or expired token: sign in again",
            ));
        }
        // Every sign-in holds a token issued or renewed now: the connection speaks for the
        // player as long as that token lives.
        self.signed_in_until =
            Some(tokio::time::Instant::now() + hall.config.limits.token_lifetime);
        if let Some(client) = client.filter(|c| !c.is_empty()) {
            let shared = Answers::Shared(hall.answer_cache(player.id, client));
            self.answers.replace(&hall, shared);
            self.client = Some(Arc::from(client));
        } else {
            // Another player's memory must not answer for this one.
            self.answers
                .replace(&hall, Answers::Local(hall.answers.local()));
            self.client = None;
        }
        self.player = Some(player);
        Ok(())
    }

    /// `register`: a new account, or the signed-in guest made one (P-ACCOUNT).
    pub(super) async fn register(
        &mut self,
        name: String,
        password: String,
        client: Option<String>,
    ) -> Outcome {
        check_client(client.as_deref())?;
        // Kept normalised: unique among accounts regardless of case and width.
        let name = check_name(&name).map_err(|e| invalid(e.to_string()))?;
        check_password(&password).map_err(|e| invalid(e.to_string()))?;
        if self.hall.store.name_taken(&name).await.map_err(internal)? {
            return Err(ProtoError::new(
                ErrorCode::NameTaken,
                format!("the name {name:?} is taken"),
            ));
        }
        // The guest of this connection becomes the account (same player, games and scores):
        // no new identity. Otherwise a new account is one (P-NEW-IDENTITY), counted before the
        // password is hashed.
        let guest = self.player.clone().filter(|p| p.guest);
        if guest.is_none() {
            self.take_identity(Identity::Account)?;
        }
        let hash = self.logins.hash(move || hash_password(&password)).await?;
        let (player, token) = match guest {
            Some(mut guest) => {
                refuse_banned(&self.hall, guest.id).await?;
                self.hall
                    .store
                    .upgrade_guest(guest.id, &name, &hash)
                    .await
                    .map_err(|_| {
                        ProtoError::new(ErrorCode::NameTaken, format!("the name {name:?} is taken"))
                    })?;
                // The guest's figures as stored now (its games since it signed in moved them).
                if let Some(stored) = self.hall.store.player(guest.id).await.map_err(internal)? {
                    guest = stored;
                }
                guest.name = name;
                guest.guest = false;
                let token = self
                    .hall
                    .store
                    .issue_token(guest.id)
                    .await
                    .map_err(internal)?;
                (guest, token)
            }
            None => self
                .hall
                .store
                .create_player(&name, Some(&hash))
                .await
                .map_err(|_| {
                    ProtoError::new(ErrorCode::NameTaken, format!("the name {name:?} is taken"))
                })?,
        };
        self.sign_in(player.clone(), client.as_deref(), None)?;
        Ok(signed_in(token, &player))
    }
}

impl Conn {
    /// Takes one new identity of `kind` from the allowance of this connection's network
    /// (P-NEW-IDENTITY), or refuses with `rate_limited`.
    fn take_identity(&self, kind: Identity) -> Result<(), ProtoError> {
        if self.hall.identities.take(kind, self.address) {
            return Ok(());
        }
        let per_hour = self.hall.identities.per_hour(kind);
        let what = match kind {
            Identity::Guest => "guests",
            Identity::Account => "accounts",
        };
        Err(ProtoError::new(
            ErrorCode::RateLimited,
            format!(
                "at most {per_hour} new {what} an hour come from one network: sign in with the token or account you have"
            ),
        ))
    }
}

/// Refuses a player the hall's administrators banned (`hangar admin ban`).
async fn refuse_banned(hall: &Hall, player_id: i64) -> Result<(), ProtoError> {
    match hall.store.ban_of(player_id).await.map_err(internal)? {
        None => Ok(()),
        Some(reason) => Err(ProtoError::new(
            ErrorCode::Banned,
            format!("this player is banned: {reason}"),
        )),
    }
}

/// Refuses a `client` string longer than [`MAX_CLIENT_BYTES`]: it names a memory the hall
/// keeps, so its size is the hall's to bound.
fn check_client(client: Option<&str>) -> Result<(), ProtoError> {
    match client {
        Some(client) if client.len() > MAX_CLIENT_BYTES => Err(invalid(format!(
            "client is at most {MAX_CLIENT_BYTES} bytes"
        ))),
        _ => Ok(()),
    }
}

/// The answer of a sign-in that issued a token.
fn signed_in(token: String, player: &Player) -> Ack {
    Ack::SignedIn(SignedIn {
        token,
        player: player.view(),
    })
}
