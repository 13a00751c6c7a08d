//! Administration through the database (`hangar admin`): bans, which every sign-in path
//! checks, and the orders that running nodes poll and apply (see [`crate::admin`]). Acting
//! through the database is what lets one command reach a running hall, or every node of a
//! cluster, without an administrative port.

use sqlx::Row;

use super::{Backend, Store, StoreError, player_from_row};
use crate::accounts::{Player, normalize_name};
use crate::time::now_ms;

/// What an order asks the nodes to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderKind {
    /// Close the player's connections: they were banned.
    Ban(i64),
    /// Close the player's connections: every token was revoked.
    Revoke(i64),
    /// Close the room, on the node that runs it.
    CloseRoom(String),
}

/// One stored order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdminOrder {
    /// Orders are applied in id order; a node starts after the highest id it finds.
    pub id: i64,
    /// What to do.
    pub kind: OrderKind,
}

impl Store {
    /// The players a name means, matched as the hall matches names: the account whose
    /// case-insensitive NFKC key it is, and the guests of that name (guest names are not
    /// unique: several may come back, the account first).
    pub async fn players_named(&self, name: &str) -> Result<Vec<Player>, StoreError> {
        let name = normalize_name(name);
        // The account and the guests of that name together: a name that matches both is
        // ambiguous (the caller asks for an id), never silently the account.
        let account = self.account(&name).await?.map(|(player, _)| player);
        // Guests keep their normalised name as given; `lower` makes ASCII case not matter.
        let rows = sqlx::query(
            "SELECT id, name, guest, bot, score FROM players \
             WHERE guest = 1 AND (name = $1 OR lower(name) = $2) ORDER BY id",
        )
        .bind(name.clone())
        .bind(name.to_lowercase())
        .fetch_all(&self.pool)
        .await?;
        let guests = rows.iter().map(player_from_row);
        account.map(Ok).into_iter().chain(guests).collect()
    }

    /// Bans a player: the ban is stored, every token revoked and the nodes told to close the
    /// player's connections, in one transaction. A second ban replaces the reason.
    pub async fn ban(&self, player_id: i64, reason: &str) -> Result<i64, StoreError> {
        let reason = reason.to_owned();
        self.write(move |conn| Box::pin(ban_in(conn, player_id, reason)))
            .await
    }

    /// Lifts a player's ban; false when the player was not banned.
    pub async fn unban(&self, player_id: i64) -> Result<bool, StoreError> {
        self.write(move |conn| {
            Box::pin(async move {
                let done = sqlx::query("DELETE FROM bans WHERE player_id = $1")
                    .bind(player_id)
                    .execute(&mut *conn)
                    .await?;
                Ok(done.rows_affected() > 0)
            })
        })
        .await
    }

    /// Revokes every token of a player and tells the nodes to close its connections.
    pub async fn revoke_everywhere(&self, player_id: i64) -> Result<i64, StoreError> {
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query("DELETE FROM tokens WHERE player_id = $1")
                    .bind(player_id)
                    .execute(&mut *conn)
                    .await?;
                insert_order(conn, "revoke", Some(player_id), None).await
            })
        })
        .await
    }

    /// Tells the node that runs room `code` to close it; the order's id.
    pub async fn order_close_room(&self, code: &str) -> Result<i64, StoreError> {
        let code = code.to_owned();
        self.write(move |conn| Box::pin(insert_order(conn, "close_room", None, Some(code))))
            .await
    }

    /// Why a player is banned, or `None` when it is not.
    pub async fn ban_of(&self, player_id: i64) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT reason FROM bans WHERE player_id = $1")
            .bind(player_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| row.try_get("reason")).transpose()?)
    }

    /// Whether a room of this code is open somewhere as far as the database knows: a running
    /// game, a stored waiting room, or (cluster) an owner.
    pub async fn room_known(&self, code: &str) -> Result<bool, StoreError> {
        let owners = if self.backend == Backend::Postgres {
            " UNION ALL SELECT code AS room FROM room_owners WHERE code = $1"
        } else {
            ""
        };
        let row = sqlx::query(&format!(
            "SELECT COUNT(*) AS n FROM (SELECT room FROM games WHERE room = $1 AND status = 'running' \
             UNION ALL SELECT code AS room FROM waiting_rooms WHERE code = $1{owners}) AS found"
        ))
        .bind(code.to_owned())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? > 0)
    }

    /// The highest order id so far (0 when there is none): a node applies only later ones.
    pub async fn last_admin_order(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COALESCE(MAX(id), 0) AS id FROM admin_orders")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("id")?)
    }

    /// The orders after `after`, oldest first (unknown kinds, from a newer version, skipped).
    pub async fn admin_orders_after(&self, after: i64) -> Result<Vec<AdminOrder>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, kind, player_id, room FROM admin_orders WHERE id > $1 ORDER BY id",
        )
        .bind(after)
        .fetch_all(&self.pool)
        .await?;
        let mut orders = Vec::with_capacity(rows.len());
        for row in &rows {
            let kind: String = row.try_get("kind")?;
            let player: Option<i64> = row.try_get("player_id")?;
            let room: Option<String> = row.try_get("room")?;
            let kind = match (kind.as_str(), player, room) {
                ("ban", Some(player), _) => OrderKind::Ban(player),
                ("revoke", Some(player), _) => OrderKind::Revoke(player),
                ("close_room", _, Some(room)) => OrderKind::CloseRoom(room),
                _ => continue,
            };
            orders.push(AdminOrder {
                id: row.try_get("id")?,
                kind,
            });
        }
        Ok(orders)
    }

    /// Notes that `node` applied an order (a closed room: the command waits for it).
    pub async fn order_applied(&self, id: i64, node: &str) -> Result<(), StoreError> {
        let node = node.to_owned();
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query(
                    "UPDATE admin_orders SET applied_by = $1, applied_at = $2 WHERE id = $3",
                )
                .bind(node)
                .bind(now_ms())
                .bind(id)
                .execute(&mut *conn)
                .await
                .map(drop)
            })
        })
        .await
    }

    /// The node that applied an order, once one has.
    pub async fn order_applied_by(&self, id: i64) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT applied_by FROM admin_orders WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row
            .map(|row| row.try_get::<Option<String>, _>("applied_by"))
            .transpose()?
            .flatten())
    }
}

/// Stores an order; its id.
async fn insert_order(
    conn: &mut sqlx::AnyConnection,
    kind: &str,
    player_id: Option<i64>,
    room: Option<String>,
) -> Result<i64, sqlx::Error> {
    let row = sqlx::query(
        "INSERT INTO admin_orders (kind, player_id, room, created_at) VALUES ($1, $2, $3, $4) \
         RETURNING id",
    )
    .bind(kind.to_owned())
    .bind(player_id)
    .bind(room)
    .bind(now_ms())
    .fetch_one(conn)
    .await?;
    row.try_get("id")
}

/// Stores a ban (replacing an earlier one's reason), revokes an account's tokens and tells the
/// nodes to close the player's connections: [`Store::ban`]'s part of a transaction; the
/// order's id.
pub(super) async fn ban_in(
    conn: &mut sqlx::AnyConnection,
    player_id: i64,
    reason: String,
) -> Result<i64, sqlx::Error> {
    sqlx::query("DELETE FROM bans WHERE player_id = $1")
        .bind(player_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query("INSERT INTO bans (player_id, reason, created_at) VALUES ($1, $2, $3)")
        .bind(player_id)
        .bind(reason)
        .bind(now_ms())
        .execute(&mut *conn)
        .await?;
    // A guest's token is its only identity: kept, so that its sign-in is answered `banned`
    // with the reason (every sign-in path refuses a banned player); an account's tokens go
    // (it is told at its next password login).
    sqlx::query(
        "DELETE FROM tokens WHERE player_id = $1 \
         AND player_id IN (SELECT id FROM players WHERE guest = 0)",
    )
    .bind(player_id)
    .execute(&mut *conn)
    .await?;
    insert_order(conn, "ban", Some(player_id), None).await
}
