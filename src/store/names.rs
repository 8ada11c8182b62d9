//! Player keys: the identity a name stands for ([`name_key`]), recomputed over every stored seat
//! when the key scheme changes.

use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Integer, Text, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::results::{record, Happened};
use super::StoreError;
use crate::vocabulary::{Space, NAME_KEY_SCHEME};

#[derive(QueryableByName)]
struct Scheme {
    #[diesel(sql_type = Integer)]
    scheme: i32,
}

#[derive(QueryableByName)]
struct StoredSeat {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    match_id: uuid::Uuid,
    #[diesel(sql_type = Integer)]
    seat: i32,
    #[diesel(sql_type = Text)]
    player_name: String,
    #[diesel(sql_type = Text)]
    player_key: String,
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    household: uuid::Uuid,
}

/// Seats read, and re-keyed, per statement.
const REKEY_BATCH: i64 = 5_000;

/// Recomputes every stored player key under the current [`name_key`] scheme, once: SQL cannot
/// compute a confusable skeleton, so the migrations cannot. One transaction holds the lock on
/// `name_key_scheme`'s one row throughout, so instances starting at once take turns and the later
/// ones find the work done; a failure leaves the old keys and the old scheme, and the next start
/// tries again. Seats are read in primary-key order, a batch at a time, and re-keyed from their
/// stored names where the key differs; then the writer of results counts and rates every board
/// again under the new keys. Returns how many seats changed key.
pub async fn rekey_names(conn: &mut AsyncPgConnection) -> Result<u64, StoreError> {
    use diesel_async::AsyncConnection;
    conn.transaction(async |conn| {
        let current: Scheme = diesel::sql_query("SELECT scheme FROM name_key_scheme FOR UPDATE")
            .get_result(conn)
            .await?;
        if current.scheme >= NAME_KEY_SCHEME {
            return Ok(0);
        }
        let mut changed = 0;
        let mut after = (uuid::Uuid::nil(), -1);
        loop {
            let seats: Vec<StoredSeat> = diesel::sql_query(
                "SELECT s.match_id, s.seat, s.player_name, s.player_key, m.household \
                 FROM match_seats s JOIN matches m ON m.id = s.match_id \
                 WHERE (s.match_id, s.seat) > ($1, $2) AND NOT s.anonymous \
                 ORDER BY s.match_id, s.seat LIMIT $3",
            )
            .bind::<SqlUuid, _>(after.0)
            .bind::<Integer, _>(after.1)
            .bind::<BigInt, _>(REKEY_BATCH)
            .load(conn)
            .await?;
            let Some(last) = seats.last() else { break };
            after = (last.match_id, last.seat);
            let mut keys = SeatKeys::default();
            for seat in &seats {
                let key = Space::of(seat.household).player_key(&seat.player_name);
                if key != seat.player_key {
                    keys.push(seat.match_id, seat.seat, key);
                }
            }
            changed += keys.write(conn).await? as u64;
        }
        // Look-alikes that were several players are now one: one record, one rating history.
        if changed > 0 {
            record(conn, Happened::Rekeyed).await?;
        }
        diesel::sql_query("UPDATE name_key_scheme SET scheme = $1")
            .bind::<Integer, _>(NAME_KEY_SCHEME)
            .execute(conn)
            .await?;
        if changed > 0 {
            tracing::info!(
                seats = changed,
                scheme = NAME_KEY_SCHEME,
                "player keys recomputed"
            );
        }
        Ok(changed)
    })
    .await
}

/// Seats' new player keys, written in one statement.
#[derive(Default)]
pub(super) struct SeatKeys {
    ids: Vec<Uuid>,
    seats: Vec<i32>,
    keys: Vec<String>,
}

impl SeatKeys {
    pub(super) fn push(&mut self, id: Uuid, seat: i32, key: String) {
        self.ids.push(id);
        self.seats.push(seat);
        self.keys.push(key);
    }

    /// Writes them; how many seats changed.
    pub(super) async fn write(self, conn: &mut AsyncPgConnection) -> Result<usize, StoreError> {
        if self.keys.is_empty() {
            return Ok(0);
        }
        Ok(diesel::sql_query(
            "UPDATE match_seats s SET player_key = k.key \
             FROM unnest($1::uuid[], $2::int4[], $3::text[]) AS k(match_id, seat, key) \
             WHERE s.match_id = k.match_id AND s.seat = k.seat",
        )
        .bind::<Array<SqlUuid>, _>(&self.ids)
        .bind::<Array<Integer>, _>(&self.seats)
        .bind::<Array<Text>, _>(&self.keys)
        .execute(conn)
        .await?)
    }
}
