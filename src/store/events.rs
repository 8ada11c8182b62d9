//! Reading a match's event log in bounded chunks: a log is read by keyset (`ply > last ORDER BY
//! ply LIMIT n`), so a reader holds one chunk at a time however long the match is.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::schema::match_events;
use super::StoreError;

/// Rows per query of a chunked read: large enough that a long match takes few round trips,
/// small enough that a chunk of the largest payloads stays well under a megabyte.
pub const CHUNK_ROWS: i64 = 500;

/// What replaying and showing a ply needs of its stored event (no idempotency data).
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = match_events)]
pub struct LoggedEvent {
    pub ply: i64,
    /// The seat that moved; `None` for a chance outcome.
    pub seat: Option<i32>,
    pub payload: Value,
    pub created_at: DateTime<Utc>,
    /// A mending: the ply it takes back (with a seat) or corrects (a chance outcome).
    pub revises: Option<i64>,
    /// The seat that reported this chance outcome (none: the owner, or the server's draw).
    pub reported_by: Option<i32>,
    /// A mending: the state it returns the table to.
    pub restores: Option<Value>,
}

/// The events of match `id` with `after < ply <= upto`, in ply order, at most `limit` of them.
/// The next chunk starts after the last ply of this one.
pub async fn chunk(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    after: i64,
    upto: i64,
    limit: i64,
) -> Result<Vec<LoggedEvent>, StoreError> {
    Ok(match_events::table
        .filter(match_events::match_id.eq(id))
        .filter(match_events::ply.gt(after))
        .filter(match_events::ply.le(upto))
        .order(match_events::ply)
        .limit(limit)
        .select(LoggedEvent::as_select())
        .load(conn)
        .await?)
}
