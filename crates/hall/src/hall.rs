//! The hall: every room's handle, the live room lists (P-HALL), quick match (P-QUICK), and
//! the per-player command-id memory that makes repeated ids run once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use axum::extract::ws::Utf8Bytes;

use crate::answers::{AnswerCache, AnswerMemory};

use crate::config::Config;
use crate::outbox::{ConnId, Outbox, Stopper};
use crate::peers::{ListingChange, Peers};
use crate::room::{RoomHandle, RoomHost};
use crate::sessions::Sessions;
use crate::slots::Slots;
use crate::store::Store;
use hangar_protocol::{ErrorCode, GameKind, HallMessage, ProtoError, RoomStatus, RoomSummary};

/// A listed room as the hall shows it.
#[derive(Clone, Debug)]
struct Listing {
    /// The node that owns the room, in cluster mode when it is another node.
    node: Option<String>,
    game: GameKind,
    summary: RoomSummary,
    free_seats: usize,
    taken_seats: usize,
    /// The people seated (for quick match by rating).
    players: Vec<i64>,
}

/// Most rooms in one message of the hall list (the first view, a page).
pub const HALL_PAGE: usize = 100;

/// Most rooms one player holds seats in at a time.
pub const MAX_SEATS_PER_PLAYER: usize = 3;

/// A waiting public room quick match may put a player in (P-QUICK).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuickCandidate {
    /// The room's code.
    pub code: String,
    /// Seats taken (people and bots).
    pub taken: usize,
    /// The people seated.
    pub players: Vec<i64>,
}

impl Listing {
    /// Whether the room waits for players (seats may be free).
    fn waiting(&self) -> bool {
        self.summary.status == RoomStatus::Waiting
    }
}

/// The text frame of a hall message.
fn hall_frame(message: &HallMessage) -> Utf8Bytes {
    Utf8Bytes::from(serde_json::to_string(message).expect("a hall message serialises"))
}

/// Shared state of the whole hall: cheap to clone behind an `Arc`.
pub struct Hall {
    /// The settings the hall was started with (limits, timers, delays).
    pub config: Config,
    /// Where players, games and waiting rooms are kept.
    pub store: Store,
    rooms: Mutex<HashMap<String, RoomHandle>>,
    listings: Mutex<HashMap<String, Listing>>,
    subscribers: Mutex<HashMap<ConnId, (GameKind, Outbox)>>,
    /// Answers given, for repeated ids (bounded: see [`crate::answers`]).
    pub answers: AnswerMemory,
    seats: Mutex<HashMap<i64, Vec<String>>>,
    /// Open WebSocket connections, in all and per address.
    pub slots: Arc<Slots>,
    /// Turns true when the hall shuts down: every WebSocket closes with 1012 ("restart").
    closing: AtomicBool,
    /// The open WebSocket connections of this node, to stop when the hall shuts down.
    connections: Mutex<HashMap<ConnId, Stopper>>,
    /// The other nodes of the cluster (cluster mode only).
    peers: OnceLock<Arc<dyn Peers>>,
    /// The players' open connections on this node (for signing out everywhere).
    pub sessions: Arc<Sessions>,
    /// New guests and accounts made per network in the last hour (P-NEW-IDENTITY).
    pub identities: crate::new_identities::NewIdentities,
    /// The open challenges made on this node (P-CHALLENGE).
    pub challenges: crate::challenges::Challenges,
    /// The arena tournaments this node runs (P-ARENA).
    pub arenas: crate::arena::Arenas,
    /// The game reviews this node computes (P-REVIEW): its queue and workers.
    pub reviews: Arc<crate::review::Reviews>,
}

impl Hall {
    /// A hall with no rooms.
    pub fn new(config: Config, store: Store) -> Arc<Hall> {
        let identities = crate::new_identities::NewIdentities::new(
            config.limits.guests_per_address_per_hour,
            config.limits.accounts_per_network_per_hour,
            config.limits.identity_networks,
        );
        let reviews = Arc::new(crate::review::Reviews::new(&config.limits.review));
        Arc::new(Hall {
            answers: AnswerMemory::new(config.limits.answer_bytes, config.limits.answer_window),
            config,
            store,
            rooms: Mutex::default(),
            listings: Mutex::default(),
            subscribers: Mutex::default(),
            seats: Mutex::default(),
            slots: Arc::default(),
            closing: AtomicBool::new(false),
            connections: Mutex::default(),
            peers: OnceLock::new(),
            sessions: Arc::default(),
            identities,
            challenges: crate::challenges::Challenges::default(),
            arenas: crate::arena::Arenas::default(),
            reviews,
        })
    }

    /// Joins the hall to a cluster (once, at start).
    pub fn set_peers(&self, peers: Arc<dyn Peers>) {
        let _ = self.peers.set(peers);
    }

    /// The other nodes of the cluster, in cluster mode.
    pub fn peers(&self) -> Option<&Arc<dyn Peers>> {
        self.peers.get()
    }

    /// Sends `frame` to every connection of `player` on this node.
    pub fn tell(&self, player: i64, frame: &str) {
        self.sessions.send(player, frame);
    }

    /// Counts a WebSocket connection in until [`Hall::connection_closed`], so that a shutdown
    /// stops it. False when the hall is shutting down already: the connection closes at once.
    pub fn connection_opened(&self, outbox: &Outbox) -> bool {
        self.connections
            .lock()
            .expect("connections lock")
            .insert(outbox.id, outbox.stopper());
        // Read after the insertion: a shutdown that began before it did not see this one.
        !self.is_closing()
    }

    /// Bytes queued for the WebSocket connections of this node and not yet written (a frame
    /// shared by many counted in each), for `/metrics`.
    pub fn queued_bytes(&self) -> usize {
        self.connections
            .lock()
            .expect("connections lock")
            .values()
            .map(Stopper::queued_bytes)
            .sum()
    }

    /// A WebSocket connection ended.
    pub fn connection_closed(&self, id: ConnId) {
        self.connections
            .lock()
            .expect("connections lock")
            .remove(&id);
    }

    /// Whether the hall is shutting down (see [`Hall::close_connections`]).
    pub fn is_closing(&self) -> bool {
        self.closing.load(Ordering::Acquire)
    }

    /// Tells every WebSocket to close with 1012 (the hall restarts: reconnect), so that clients
    /// reconnect at once instead of waiting to notice a dead socket.
    pub fn close_connections(&self) {
        self.closing.store(true, Ordering::Release);
        for stopper in self.connections.lock().expect("connections lock").values() {
            stopper.restart();
        }
    }

    /// The room with this code, wherever it is: on this node, or (cluster mode) on the node
    /// the hall list or the store names as its owner.
    pub async fn find_room(&self, code: &str) -> Option<RoomHandle> {
        let code = code.to_ascii_uppercase();
        if let Some(room) = self.local_room(&code) {
            return Some(room);
        }
        let peers = self.peers.get()?;
        let listed = self
            .listings
            .lock()
            .expect("listings lock")
            .get(&code)
            .and_then(|l| l.node.clone());
        if let Some(node) = listed {
            return Some(RoomHandle::remote(&code, &node, peers.clone()));
        }
        let node = self.store.room_owner(&code).await.ok().flatten()?;
        (node != peers.node()).then(|| RoomHandle::remote(&code, &node, peers.clone()))
    }

    /// The room with this code, if this node runs it.
    pub fn local_room(&self, code: &str) -> Option<RoomHandle> {
        self.rooms
            .lock()
            .expect("rooms lock")
            .get(&code.to_ascii_uppercase())
            .cloned()
    }

    /// Registers a new room.
    pub fn add_room(&self, handle: RoomHandle) {
        self.rooms
            .lock()
            .expect("rooms lock")
            .insert(handle.code().to_owned(), handle);
    }

    /// A room ended: forget it and take it off the lists.
    pub fn remove_room(&self, code: &str) {
        self.rooms.lock().expect("rooms lock").remove(code);
        self.unlist(code);
    }

    /// Every room handle (for shutdown).
    pub fn all_rooms(&self) -> Vec<RoomHandle> {
        self.rooms
            .lock()
            .expect("rooms lock")
            .values()
            .cloned()
            .collect()
    }

    /// How many rooms are open.
    pub fn room_count(&self) -> usize {
        self.rooms.lock().expect("rooms lock").len()
    }

    /// A fresh room code: 6 characters without look-alikes.
    pub fn new_code(&self) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        loop {
            let mut bytes = [0u8; 6];
            getrandom::fill(&mut bytes).expect("the operating system must provide randomness");
            let code: String = bytes
                .iter()
                .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
                .collect();
            if !self.rooms.lock().expect("rooms lock").contains_key(&code) {
                return code;
            }
        }
    }

    /// A room's entry in the live list changed (`None`: it left the list).
    pub fn list(
        &self,
        code: &str,
        game: GameKind,
        summary: Option<RoomSummary>,
        free_seats: usize,
        taken_seats: usize,
        players: Vec<i64>,
    ) {
        let Some(summary) = summary else {
            self.unlist(code);
            return;
        };
        if let Some(peers) = self.peers.get() {
            peers.publish_listing(ListingChange {
                node: peers.node().to_owned(),
                code: code.to_owned(),
                game,
                summary: Some(summary.clone()),
                free_seats,
                taken_seats,
                players: players.clone(),
            });
        }
        self.insert_listing(
            code,
            Listing {
                node: None,
                game,
                summary,
                free_seats,
                taken_seats,
                players,
            },
        );
    }

    fn insert_listing(&self, code: &str, listing: Listing) {
        let frame = hall_frame(&HallMessage::HallRoom {
            game: listing.game,
            room: listing.summary.clone(),
        });
        let game = listing.game;
        self.listings
            .lock()
            .expect("listings lock")
            .insert(code.to_owned(), listing);
        self.tell_subscribers(game, frame);
    }

    /// A room of another node changed in the hall list (cluster mode).
    pub fn apply_listing(&self, change: ListingChange) {
        match change.summary {
            Some(summary) => self.insert_listing(
                &change.code,
                Listing {
                    node: Some(change.node),
                    game: change.game,
                    summary,
                    free_seats: change.free_seats,
                    taken_seats: change.taken_seats,
                    players: change.players,
                },
            ),
            None => self.remove_listing(&change.code),
        }
    }

    /// This node's rooms in the list, as changes to send a node that starts.
    pub fn own_listings(&self, node: &str) -> Vec<ListingChange> {
        let listings = self.listings.lock().expect("listings lock");
        listings
            .iter()
            .filter(|(_, l)| l.node.is_none())
            .map(|(code, l)| ListingChange {
                node: node.to_owned(),
                code: code.clone(),
                game: l.game,
                summary: Some(l.summary.clone()),
                free_seats: l.free_seats,
                taken_seats: l.taken_seats,
                players: l.players.clone(),
            })
            .collect()
    }

    /// A node is gone: its rooms leave the list (their new owner lists them again).
    pub fn forget_listings_of(&self, node: &str) {
        let codes: Vec<String> = self
            .listings
            .lock()
            .expect("listings lock")
            .iter()
            .filter(|(_, l)| l.node.as_deref() == Some(node))
            .map(|(code, _)| code.clone())
            .collect();
        for code in codes {
            self.remove_listing(&code);
        }
    }

    fn unlist(&self, code: &str) {
        let game = self
            .listings
            .lock()
            .expect("listings lock")
            .get(code)
            .map(|l| (l.game, l.node.is_none()));
        if let (Some((game, true)), Some(peers)) = (game, self.peers.get()) {
            peers.publish_listing(ListingChange {
                node: peers.node().to_owned(),
                code: code.to_owned(),
                game,
                summary: None,
                free_seats: 0,
                taken_seats: 0,
                players: Vec::new(),
            });
        }
        self.remove_listing(code);
    }

    fn remove_listing(&self, code: &str) {
        let removed = self.listings.lock().expect("listings lock").remove(code);
        if let Some(listing) = removed {
            let frame = hall_frame(&HallMessage::HallRoomRemoved {
                game: listing.game,
                code: code.to_owned(),
            });
            self.tell_subscribers(listing.game, frame);
        }
    }

    fn tell_subscribers(&self, game: GameKind, frame: Utf8Bytes) {
        let subscribers = self.subscribers.lock().expect("subscribers lock");
        for (kind, outbox) in subscribers.values() {
            if *kind == game {
                outbox.send(frame.clone());
            }
        }
    }

    /// Follows one game's list: sends its first page now (at most [`HALL_PAGE`] rooms, with
    /// the number listed), then every change, one room per message: no frame grows with the
    /// number of rooms.
    pub fn subscribe(&self, game: GameKind, outbox: &Outbox) {
        let (rooms, total) = self.page(game, 0, HALL_PAGE, false);
        self.subscribers
            .lock()
            .expect("subscribers lock")
            .insert(outbox.id, (game, outbox.clone()));
        outbox.send(hall_frame(&HallMessage::Hall { game, rooms, total }));
    }

    /// A page of one game's list — rooms to sit in first, then rooms to watch, each by code —
    /// with the number of rooms listed; `open` keeps only waiting rooms with a free seat.
    pub fn page(
        &self,
        game: GameKind,
        offset: usize,
        limit: usize,
        open: bool,
    ) -> (Vec<RoomSummary>, usize) {
        let listings = self.listings.lock().expect("listings lock");
        let mut rooms: Vec<&Listing> = listings
            .values()
            .filter(|l| l.game == game && (!open || (l.waiting() && l.free_seats > 0)))
            .collect();
        rooms.sort_by(|a, b| (!a.waiting(), &a.summary.code).cmp(&(!b.waiting(), &b.summary.code)));
        let total = rooms.len();
        let page = rooms
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(|l| l.summary.clone())
            .collect();
        (page, total)
    }

    /// Stops following the list.
    pub fn unsubscribe(&self, conn: ConnId) {
        self.subscribers
            .lock()
            .expect("subscribers lock")
            .remove(&conn);
    }

    /// Waiting public quick-match rooms of a game with a free seat, fullest first (P-QUICK): a
    /// room whose host chose its stake or options is never one; the caller orders equally
    /// full rooms by their players' ratings.
    pub fn quick_candidates(&self, game: GameKind) -> Vec<QuickCandidate> {
        let listings = self.listings.lock().expect("listings lock");
        let mut found: Vec<QuickCandidate> = listings
            .iter()
            .filter(|(_, l)| l.game == game && l.summary.quick && l.waiting() && l.free_seats > 0)
            .map(|(code, l)| QuickCandidate {
                code: code.clone(),
                taken: l.taken_seats,
                players: l.players.clone(),
            })
            .collect();
        found.sort_by(|a, b| b.taken.cmp(&a.taken).then_with(|| a.code.cmp(&b.code)));
        found
    }

    /// The answer memory of a player's client (created on first use).
    pub fn answer_cache(&self, player: i64, client: &str) -> Arc<Mutex<AnswerCache>> {
        self.answers.cache(player, client)
    }

    /// Records that a player holds (or no longer holds) a seat in a room.
    pub fn set_seated(&self, player: i64, code: &str, seated: bool) {
        let mut seats = self.seats.lock().expect("seats lock");
        let rooms = seats.entry(player).or_default();
        rooms.retain(|c| c != code);
        if seated {
            rooms.push(code.to_owned());
        }
        if rooms.is_empty() {
            seats.remove(&player);
        }
    }

    /// Refuses a seat in one more room to a player who holds [`MAX_SEATS_PER_PLAYER`]
    /// already: one connection sitting in every public room would block them all.
    pub fn check_seat_limit(&self, player: i64) -> Result<(), ProtoError> {
        let held = self.seated_rooms(player);
        if held.len() >= MAX_SEATS_PER_PLAYER {
            return Err(ProtoError::new(
                ErrorCode::RoomLimit,
                format!(
                    "you hold seats in {MAX_SEATS_PER_PLAYER} rooms already ({}): leave one first",
                    held.join(", ")
                ),
            ));
        }
        Ok(())
    }

    /// Rooms where a player holds a seat.
    pub fn seated_rooms(&self, player: i64) -> Vec<String> {
        self.seats
            .lock()
            .expect("seats lock")
            .get(&player)
            .cloned()
            .unwrap_or_default()
    }

    /// Open WebSocket connections.
    pub fn connection_count(&self) -> usize {
        self.slots.open()
    }
}

impl Hall {
    /// How many different opponents a player needs to be on a leaderboard (P-RATING).
    pub fn listed_after(&self) -> i64 {
        i64::from(self.config.fair.listed_after_opponents)
    }
}

impl RoomHost for Hall {
    fn config(&self) -> &Config {
        &self.config
    }

    fn store(&self) -> &Store {
        &self.store
    }

    fn is_closing(&self) -> bool {
        Hall::is_closing(self)
    }

    fn cluster_node(&self) -> Option<&str> {
        self.peers.get().map(|peers| peers.node())
    }

    fn new_code(&self) -> String {
        Hall::new_code(self)
    }

    fn add_room(&self, handle: RoomHandle) {
        Hall::add_room(self, handle);
    }

    fn remove_room(&self, code: &str) {
        Hall::remove_room(self, code);
    }

    fn list(
        &self,
        code: &str,
        game: GameKind,
        summary: Option<RoomSummary>,
        free_seats: usize,
        taken_seats: usize,
        players: Vec<i64>,
    ) {
        Hall::list(self, code, game, summary, free_seats, taken_seats, players);
    }

    fn check_seat_limit(&self, player: i64) -> Result<(), ProtoError> {
        Hall::check_seat_limit(self, player)
    }

    fn set_seated(&self, player: i64, code: &str, seated: bool) {
        Hall::set_seated(self, player, code, seated);
    }

    fn answer_cache(&self, player: i64, client: &str) -> Arc<Mutex<AnswerCache>> {
        Hall::answer_cache(self, player, client)
    }

    fn arena_of(&self, code: &str) -> Option<i64> {
        self.arenas.arena_of_room(code)
    }

    fn game_over(&self, code: &str, result: &hangar_protocol::GameResult) {
        self.arenas.game_over(code, result);
    }
}
