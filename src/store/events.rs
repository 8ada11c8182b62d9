//! Reading a match's event log in bounded chunks: a log is read by keyset (`ply > last ORDER BY
//! ply LIMIT n`), so a reader holds one chunk at a time however long the match is; a replay
//! starts from the kept snapshot nearest before the plies it wants.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::schema::{match_events, match_snapshots};
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

/// The newest kept snapshot of match `id` at ply `at_most` or before: its ply and the state
/// after it. A replay that starts there plays only the plies after it.
pub async fn snapshot_at_or_before(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    at_most: i64,
) -> Result<Option<(i64, Value)>, StoreError> {
    Ok(match_snapshots::table
        .filter(match_snapshots::match_id.eq(id))
        .filter(match_snapshots::ply.le(at_most))
        .order(match_snapshots::ply.desc())
        .select((match_snapshots::ply, match_snapshots::state))
        .first(conn)
        .await
        .optional()?)
}

#[derive(QueryableByName)]
struct RunRow {
    #[diesel(sql_type = Integer)]
    seat: i32,
    #[diesel(sql_type = BigInt)]
    take_backs: i64,
}

/// The seat whose entries end match `id`'s log at `ply`, back to the last entry of another seat
/// or a chance outcome, and how many of those entries take a move back; none if the entry at
/// `ply` is a chance outcome (or there is none). Reads only that run.
pub async fn run_at(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    ply: i64,
) -> Result<Option<(i32, i64)>, StoreError> {
    let run: Option<RunRow> = diesel::sql_query(
        "SELECT l.seat, \
                (SELECT count(*) FROM match_events e \
                 WHERE e.match_id = $1 AND e.ply <= $2 AND e.revises IS NOT NULL \
                   AND e.ply > coalesce((SELECT max(x.ply) FROM match_events x \
                                         WHERE x.match_id = $1 AND x.ply <= $2 \
                                           AND x.seat IS DISTINCT FROM l.seat), 0)) \
                AS take_backs \
         FROM match_events l WHERE l.match_id = $1 AND l.ply = $2 AND l.seat IS NOT NULL",
    )
    .bind::<SqlUuid, _>(id)
    .bind::<BigInt, _>(ply)
    .get_result(conn)
    .await
    .optional()?;
    Ok(run.map(|run| (run.seat, run.take_backs)))
}

/// The newest mending (a take-back or a correction) of match `id` before ply `before`: the log
/// read backwards from there, only as far as that entry.
pub async fn last_mending_before(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    before: i64,
) -> Result<Option<LoggedEvent>, StoreError> {
    Ok(match_events::table
        .filter(match_events::match_id.eq(id))
        .filter(match_events::ply.lt(before))
        .filter(match_events::revises.is_not_null())
        .order(match_events::ply.desc())
        .select(LoggedEvent::as_select())
        .first(conn)
        .await
        .optional()?)
}
