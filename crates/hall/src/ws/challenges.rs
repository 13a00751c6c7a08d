//! Bot accounts and challenges (P-BOT-ACCOUNT, P-CHALLENGE): `upgrade_to_bot`, `challenge`,
//! `accept_challenge`, `decline_challenge`, `cancel_challenge`, and the messages the parties
//! are sent.

use std::collections::HashSet;

use axum::extract::ws::Utf8Bytes;
use serde_json::Value;

use super::{Conn, Reply, internal, invalid};
use crate::accounts::Player;
use crate::challenge_news;
use crate::challenges::{OpenChallenge, new_id, party_seats};
use crate::room::{Answered, open_challenge_room};
use crate::store::BotRefusal;
use hangar_games::check_bot_level;
use hangar_protocol::{
    Ack, ChallengeEnd, ChallengeSeat, Challenged, ErrorCode, GameKind, Outcome, ProtoError,
    Upgraded, answer_frame,
};

fn forbidden(message: impl Into<String>) -> ProtoError {
    ProtoError::new(ErrorCode::Forbidden, message)
}

fn no_challenge(id: &str) -> ProtoError {
    invalid(format!(
        "no open challenge {id:?} (answered, cancelled or lapsed)"
    ))
}

impl Conn {
    /// Sends the answer of command `id` now, then runs `after` (messages that must follow
    /// the answer), and gives the frame for the memory of answered ids.
    fn answer_then(&self, id: u64, outcome: Outcome, after: impl FnOnce()) -> Reply {
        let ok = outcome.is_ok();
        let frame = Utf8Bytes::from(answer_frame(id, &outcome));
        self.outbox.send(frame.clone());
        if ok {
            after();
        }
        Reply::Sent(Answered { outcome, frame })
    }

    /// A sign-in's answer, then the open challenges for the player who signed in (P-CHALLENGE:
    /// a player who was away gets them on coming back within the minute).
    pub(super) fn signed_in_then_challenges(&self, id: u64, outcome: Outcome) -> Reply {
        let player = self.player.as_ref().map(|p| p.id);
        self.answer_then(id, outcome, || {
            let Some(player) = player else { return };
            for message in self.hall.challenges.for_player(&self.hall.sessions, player) {
                self.outbox.send_text(message.to_text());
            }
        })
    }

    /// `upgrade_to_bot` (P-BOT-ACCOUNT): the signed-in account becomes a bot account, for good.
    pub(super) async fn upgrade_to_bot(&mut self) -> Outcome {
        let player = self.require_player()?.clone();
        // Not while seated or in a room: the people there sat down with a person (P-BOT-ACCOUNT).
        let mut rooms = self.hall.seated_rooms(player.id);
        rooms.extend(
            self.rooms
                .iter()
                .filter(|(code, handle)| !handle.is_closed() && !rooms.contains(code))
                .map(|(code, _)| code.clone())
                .collect::<Vec<_>>(),
        );
        rooms.sort_unstable();
        // The store checks and changes in one write (a game may finish meanwhile).
        if let Err(refusal) = self
            .hall
            .store
            .make_bot(player.id, !rooms.is_empty())
            .await
            .map_err(internal)?
        {
            return Err(forbidden(match refusal {
                BotRefusal::Guest => "a guest cannot become a bot account: register first".to_owned(),
                BotRefusal::Played => {
                    "only an account without a finished game can become a bot account: register a new one for the program".to_owned()
                }
                BotRefusal::InRoom => format!(
                    "an account in a room cannot become a bot account: leave every room first ({})",
                    rooms.join(", ")
                ),
            }));
        }
        let player = Player {
            bot: true,
            ..player
        };
        self.player = Some(player.clone());
        // The player's other connections speak for the account as it was (a person's, free
        // to quick match): they sign in again and speak for the bot account.
        let reason = "the account became a bot account: sign in again";
        self.sessions
            .close_others_because(player.id, self.outbox.id, reason);
        Ok(Ack::Upgraded(Upgraded {
            player: player.view(),
        }))
    }

    /// `challenge` (P-CHALLENGE): checks everything, opens the challenge, tells the challenged.
    pub(super) async fn challenge(
        &mut self,
        id: u64,
        target: i64,
        game: GameKind,
        options: Value,
        seats: Vec<ChallengeSeat>,
    ) -> Reply {
        let challenge = match self.make_challenge(target, game, options, seats).await {
            Ok(challenge) => challenge,
            Err(e) => return Err(e).into(),
        };
        if let Err(e) = self.hall.challenges.insert(challenge.clone()) {
            return Err(e).into();
        }
        let ack = Ack::Challenged(Box::new(Challenged {
            challenge: challenge.view(&self.hall.sessions),
        }));
        self.answer_then(id, Ok(ack), || {
            challenge_news::opened(&self.hall, &challenge)
        })
    }

    /// The challenge a `challenge` command asks for, checked: nothing is opened yet.
    async fn make_challenge(
        &self,
        target: i64,
        game: GameKind,
        options: Value,
        seats: Vec<ChallengeSeat>,
    ) -> Result<OpenChallenge, ProtoError> {
        let from = self.require_player()?.clone();
        crate::room::storage_available(&self.hall.store)?;
        if game == GameKind::Jungle && !seats.is_empty() {
            return Err(invalid(
                "jungle has 2 seats: no \"seats\" to add".to_owned(),
            ));
        }
        // The table: the challenger, the named player, then the seats given.
        let seat_count = 2 + seats.len();
        let mut options = match options {
            Value::Null => serde_json::Map::new(),
            Value::Object(map) => map,
            other => return Err(invalid(format!("options is an object, not {other}"))),
        };
        // A flight table has as many seats as the challenge fills, also when no options are
        // given (the room would otherwise take the default of 4 and leave one empty).
        if game == GameKind::Flight {
            let given = options
                .entry("seats")
                .or_insert_with(|| Value::from(seat_count));
            if given.as_u64() != Some(seat_count as u64) {
                return Err(invalid(format!(
                    "options.seats {given} but the challenge makes a table of {seat_count}"
                )));
            }
        }
        let options = Value::Object(options);
        let (checked, _, _) =
            hangar_games::check_options(game, &options, self.hall.config.turn_seconds)?;
        let shown_options = serde_json::to_value(checked).map_err(|e| {
            tracing::error!(error = %e, "room options do not serialise");
            ProtoError::new(ErrorCode::Internal, "the options could not be shown")
        })?;
        // P-SCORE: everyone at the table covers the stake, the challenger first.
        let stake = checked.flight().map(|f| f.stake);
        crate::stakes::check_stake(&self.hall.store, from.id, stake).await?;
        let mut to = vec![(1, self.challenged(&from, target).await?)];
        let mut bots = Vec::new();
        let mut seen: HashSet<i64> = HashSet::from([from.id, target]);
        for (i, seat) in seats.iter().enumerate() {
            let index = i + 2;
            match seat {
                ChallengeSeat::Player { player } => {
                    if !seen.insert(*player) {
                        return Err(invalid(format!(
                            "player {player} is already at the table: one seat each"
                        )));
                    }
                    to.push((index, self.challenged(&from, *player).await?));
                }
                ChallengeSeat::Bot { bot } => bots.push((index, check_bot_level(game, bot)?)),
            }
        }
        if let Some(stake) = stake {
            // The store's score was just read (`challenged`): a challenged player who cannot
            // cover the stake is not asked.
            if let Some((_, poor)) = to.iter().find(|(_, p)| p.score < stake) {
                return Err(ProtoError::new(
                    ErrorCode::StakeUncovered,
                    format!(
                        "the stake is {stake} and {}'s score is {}: every player covers the stake",
                        poor.name, poor.score
                    ),
                ));
            }
        }
        Ok(OpenChallenge {
            id: new_id(),
            from,
            to,
            game,
            options,
            shown_options,
            seats,
            bots,
            accepted: HashSet::new(),
            deadline: tokio::time::Instant::now() + self.hall.config.challenge_lapse,
        })
    }

    /// The player `id` as one `from` may challenge: someone else, who exists, with an
    /// account (a guest has no name to be found by and may be gone for good).
    async fn challenged(&self, from: &Player, id: i64) -> Result<Player, ProtoError> {
        if id == from.id {
            return Err(invalid("you cannot challenge yourself".to_owned()));
        }
        let Some(player) = self.hall.store.player(id).await.map_err(internal)? else {
            return Err(ProtoError::new(
                ErrorCode::NoPlayer,
                format!("no player {id}"),
            ));
        };
        if player.guest {
            return Err(forbidden(format!(
                "{} is a guest: only accounts can be challenged",
                player.name
            )));
        }
        self.check_may_challenge(from, &player).await?;
        Ok(player)
    }

    /// `accept_challenge`: the sender accepts; once everyone has, the room opens.
    pub(super) async fn accept_challenge(&mut self, id: u64, challenge_id: String) -> Reply {
        let player = match self.require_player() {
            Ok(player) => player.clone(),
            Err(e) => return Err(e).into(),
        };
        let Some(open) = self.hall.challenges.get(&challenge_id) else {
            return Err(no_challenge(&challenge_id)).into();
        };
        if !open.challenges(player.id) {
            return Err(forbidden("this challenge is not for you")).into();
        }
        // P-SCORE: the one who accepts covers the stake (scores change between challenge
        // and answer).
        let stake =
            hangar_games::check_options(open.game, &open.options, self.hall.config.turn_seconds)
                .ok()
                .and_then(|(checked, _, _)| checked.flight().map(|f| f.stake));
        if let Err(e) = crate::stakes::check_stake(&self.hall.store, player.id, stake).await {
            return Err(e).into();
        }
        // Every party must have a seat to spare, or nothing changes.
        for party in open.parties() {
            if let Err(e) = self.hall.check_seat_limit(party) {
                let e = if party == player.id {
                    e
                } else {
                    ProtoError::new(
                        ErrorCode::RoomLimit,
                        format!("player {party} holds seats in too many rooms now: try later"),
                    )
                };
                return Err(e).into();
            }
        }
        let answered = self.hall.challenges.update(&challenge_id, |c| {
            c.accepted.insert(player.id);
            Ok((c.all_accepted(), ()))
        });
        let open = match answered {
            None => return Err(no_challenge(&challenge_id)).into(),
            Some(Err(e)) => return Err(e).into(),
            Some(Ok((open, ()))) => open,
        };
        if !open.all_accepted() {
            challenge_news::accepted(&self.hall, &open, &player);
            return Ok(Ack::DONE).into();
        }
        let room = open_challenge_room(
            self.hall.clone(),
            open.game,
            &open.options,
            party_seats(&open),
            open.bots.clone(),
        );
        let room = match room {
            Ok(room) => room,
            Err(e) => {
                // The challenge was taken out: its parties learn that it is over.
                challenge_news::ended(&self.hall, &open, ChallengeEnd::Cancelled, None);
                return Err(e).into();
            }
        };
        // In a cluster, parties on other nodes find the room by its stored owner: stored
        // before they are told (the room's task stores it too, a moment later).
        if self.hall.peers().is_some()
            && let Err(e) = self.hall.store.claim_room(room.code()).await
        {
            tracing::warn!(room = room.code(), error = %e, "a challenge room's owner was not stored yet");
        }
        self.answer_then(id, Ok(Ack::DONE), || {
            challenge_news::roomed(&self.hall, &open, room.code());
        })
    }

    /// `decline_challenge`: a challenged player says no; it ends for everyone.
    pub(super) fn decline_challenge(&mut self, id: u64, challenge_id: String) -> Reply {
        let player = match self.require_player() {
            Ok(player) => player.clone(),
            Err(e) => return Err(e).into(),
        };
        let ended = self.hall.challenges.update(&challenge_id, |c| {
            if c.challenges(player.id) {
                Ok((true, ()))
            } else {
                Err(forbidden("this challenge is not for you"))
            }
        });
        self.end_challenge(id, &challenge_id, ended, ChallengeEnd::Declined, &player)
    }

    /// `cancel_challenge`: the challenger takes it back; it ends for everyone.
    pub(super) fn cancel_challenge(&mut self, id: u64, challenge_id: String) -> Reply {
        let player = match self.require_player() {
            Ok(player) => player.clone(),
            Err(e) => return Err(e).into(),
        };
        let ended = self.hall.challenges.update(&challenge_id, |c| {
            if c.from.id == player.id {
                Ok((true, ()))
            } else {
                Err(forbidden("only the challenger may cancel a challenge"))
            }
        });
        self.end_challenge(id, &challenge_id, ended, ChallengeEnd::Cancelled, &player)
    }

    fn end_challenge(
        &self,
        id: u64,
        challenge_id: &str,
        ended: Option<Result<(OpenChallenge, ()), ProtoError>>,
        reason: ChallengeEnd,
        by: &Player,
    ) -> Reply {
        match ended {
            None => Err(no_challenge(challenge_id)).into(),
            Some(Err(e)) => Err(e).into(),
            Some(Ok((open, ()))) => self.answer_then(id, Ok(Ack::DONE), || {
                challenge_news::ended(&self.hall, &open, reason, Some(by));
            }),
        }
    }
}
