//! Group commit of appends: moves to different matches that arrive together share one statement
//! and one commit.
//!
//! A move that does not end its match is one statement that appends its events (see
//! [`append_moves`]). Instead of each request sending its own, requests queue their appends and a
//! few writer tasks each take whatever is queued (up to a bound) and send it as one statement.
//! Nothing waits on a timer: at low load a batch is one move, written at once; under load the
//! moves that arrived while the previous statements were in flight go together. Each move is
//! still checked on its own match, and its request is answered only after the shared commit. If
//! the shared statement fails, each move is written alone, so one bad move never fails its batch
//! mates.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use std::sync::Arc;

use super::grouped::{statement_text, Batch, Grouped};
use super::solo::SoloConnections;
use crate::store::matches::EventRow;
use crate::store::{checkout, StoreError};
use crate::vocabulary::MatchStatus;

/// One move's append. It is stored only if the match is still in progress with the seat access
/// it was read with (`read_access_version`) and holds no event after `read_version`; the match
/// row is locked (shared) meanwhile, so a seat change or an abandon waits for it or wins before
/// it. With a `snapshot`, the row's snapshot moves from `read_snapshot` to `version` in the same
/// statement, and is kept for the log's readers (`match_snapshots`); without one the row is not
/// written at all.
#[derive(Debug, Clone)]
pub struct Append {
    pub id: Uuid,
    pub read_version: i64,
    pub read_access_version: i64,
    pub read_snapshot: i64,
    pub version: i64,
    /// The state's text after the move, when the snapshot is due.
    pub snapshot: Option<Box<str>>,
    pub now: DateTime<Utc>,
    pub events: Vec<EventRow>,
}

/// Appends each move whose match is still where it was read, in one statement (one commit); for
/// each move, whether it was stored. Moves must be of different matches.
///
/// Two instances appending to one match at once both pass the checks, and the second then breaks
/// the log's key `(match_id, ply)`: that refuses the whole statement, which is why a failed batch
/// is written again move by move, and why [`append_alone`] reads a broken key as a lost race.
pub async fn append_moves(
    conn: &mut AsyncPgConnection,
    moves: &[&Append],
) -> Result<Vec<bool>, DieselError> {
    let stored: Vec<Stored> = AppendMoves::of(moves).load(conn).await?;
    Ok(moves
        .iter()
        .map(|m| stored.iter().any(|a| a.id == m.id))
        .collect())
}

/// The append's text as each connection prepares it, its values left out: for checking the plan
/// PostgreSQL keeps for it.
pub fn append_statement() -> String {
    statement_text(&AppendMoves::of(&[]))
}

#[derive(QueryableByName)]
struct Stored {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    id: Uuid,
}

/// The statement of [`append_moves`], its values as arrays: its text is the same for any number
/// of moves, so each connection prepares it once (a `sql_query` would be parsed every time).
struct AppendMoves<'a> {
    ids: Vec<Uuid>,
    read_versions: Vec<i64>,
    read_access_versions: Vec<i64>,
    read_snapshots: Vec<i64>,
    versions: Vec<i64>,
    snapshots: Vec<Option<&'a str>>,
    times: Vec<DateTime<Utc>>,
    event_matches: Vec<Uuid>,
    plies: Vec<i64>,
    seats: Vec<Option<i32>>,
    reporters: Vec<Option<i32>>,
    payloads: Vec<&'a serde_json::Value>,
    keys: Vec<Option<&'a str>>,
    request_hashes: Vec<Option<&'a [u8]>>,
    responses: Vec<Option<&'a serde_json::Value>>,
    event_times: Vec<DateTime<Utc>>,
    in_progress: MatchStatus,
}

impl<'a> AppendMoves<'a> {
    fn of(moves: &[&'a Append]) -> Self {
        let events = || moves.iter().flat_map(|m| m.events.iter());
        Self {
            ids: moves.iter().map(|m| m.id).collect(),
            read_versions: moves.iter().map(|m| m.read_version).collect(),
            read_access_versions: moves.iter().map(|m| m.read_access_version).collect(),
            read_snapshots: moves.iter().map(|m| m.read_snapshot).collect(),
            versions: moves.iter().map(|m| m.version).collect(),
            snapshots: moves.iter().map(|m| m.snapshot.as_deref()).collect(),
            times: moves.iter().map(|m| m.now).collect(),
            event_matches: events().map(|e| e.match_id).collect(),
            plies: events().map(|e| e.ply).collect(),
            seats: events().map(|e| e.seat).collect(),
            reporters: events().map(|e| e.reported_by).collect(),
            payloads: events().map(|e| &e.payload).collect(),
            keys: events().map(|e| e.idempotency_key.as_deref()).collect(),
            request_hashes: events().map(|e| e.request_hash.as_deref()).collect(),
            responses: events().map(|e| e.response.as_ref()).collect(),
            event_times: events().map(|e| e.created_at).collect(),
            in_progress: MatchStatus::InProgress,
        }
    }
}

impl QueryId for AppendMoves<'_> {
    type QueryId = AppendMoves<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl Query for AppendMoves<'_> {
    type SqlType = diesel::sql_types::Untyped;
}

impl QueryFragment<diesel::pg::Pg> for AppendMoves<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, diesel::pg::Pg>) -> QueryResult<()> {
        use diesel::sql_types::{Array, BigInt, Bytea, Integer, Jsonb, Nullable, Text};
        use diesel::sql_types::{Timestamptz, Uuid as SqlUuid};
        // `snapshot` writes the row of the moves whose snapshot is due (and `kept` keeps that
        // snapshot for the log's readers), `appending` only locks
        // the others' rows (shared: appends to different matches never wait on each other); a
        // move passes either only if its match's log still ends at the version it read (a
        // scalar subquery, so that it stays one probe of the log's key per move: as `NOT
        // EXISTS` the planner may hash the whole log instead). The events
        // go in only for the moves that passed; a data-modifying WITH runs to completion whether
        // or not the final SELECT reads it. The status is compared with `IS NOT DISTINCT FROM`
        // (the column is never null), which no index serves: with `=` the status index ties
        // with the key on a small table, and the plan a connection keeps for good then walked
        // every match in progress for each batch.
        out.push_sql("WITH input AS (SELECT * FROM unnest(");
        out.push_bind_param::<Array<SqlUuid>, _>(&self.ids)?;
        out.push_sql("::uuid[], ");
        out.push_bind_param::<Array<BigInt>, _>(&self.read_versions)?;
        out.push_sql("::bigint[], ");
        out.push_bind_param::<Array<BigInt>, _>(&self.read_access_versions)?;
        out.push_sql("::bigint[], ");
        out.push_bind_param::<Array<BigInt>, _>(&self.read_snapshots)?;
        out.push_sql("::bigint[], ");
        out.push_bind_param::<Array<BigInt>, _>(&self.versions)?;
        out.push_sql("::bigint[], ");
        out.push_bind_param::<Array<Nullable<Text>>, _>(&self.snapshots)?;
        out.push_sql("::text[], ");
        out.push_bind_param::<Array<Timestamptz>, _>(&self.times)?;
        out.push_sql(
            "::timestamptz[]) AS i (id, read_version, read_access_version, read_snapshot, \
                                    version, snapshot, at)), \
             unmoved AS (SELECT i.* FROM input AS i WHERE i.read_version = \
                 (SELECT coalesce(max(e.ply), 0) FROM match_events AS e \
                  WHERE e.match_id = i.id)), \
             snapshot AS (UPDATE matches AS m \
                 SET version = i.version, state = i.snapshot::jsonb, updated_at = i.at \
                 FROM unmoved AS i \
                 WHERE i.snapshot IS NOT NULL AND m.id = i.id AND m.version = i.read_snapshot \
                   AND m.access_version = i.read_access_version \
                   AND m.status IS NOT DISTINCT FROM ",
        );
        out.push_bind_param::<Text, _>(&self.in_progress)?;
        out.push_sql(
            " RETURNING m.id, m.version, m.state), \
             kept AS (INSERT INTO match_snapshots (match_id, ply, state) \
                 SELECT id, version, state FROM snapshot), \
             appending AS (SELECT m.id FROM matches AS m JOIN unmoved AS i ON m.id = i.id \
                 WHERE i.snapshot IS NULL \
                   AND m.access_version = i.read_access_version \
                   AND m.status IS NOT DISTINCT FROM ",
        );
        out.push_bind_param::<Text, _>(&self.in_progress)?;
        out.push_sql(
            " FOR SHARE OF m), \
             passed AS (SELECT id FROM snapshot UNION ALL SELECT id FROM appending), \
             stored AS (INSERT INTO match_events \
                 (match_id, ply, seat, reported_by, payload, idempotency_key, request_hash, \
                  response, created_at) \
             SELECT e.* FROM unnest(",
        );
        out.push_bind_param::<Array<SqlUuid>, _>(&self.event_matches)?;
        out.push_sql("::uuid[], ");
        out.push_bind_param::<Array<BigInt>, _>(&self.plies)?;
        out.push_sql("::bigint[], ");
        out.push_bind_param::<Array<Nullable<Integer>>, _>(&self.seats)?;
        out.push_sql("::integer[], ");
        out.push_bind_param::<Array<Nullable<Integer>>, _>(&self.reporters)?;
        out.push_sql("::integer[], ");
        out.push_bind_param::<Array<Jsonb>, _>(&self.payloads)?;
        out.push_sql("::jsonb[], ");
        out.push_bind_param::<Array<Nullable<Text>>, _>(&self.keys)?;
        out.push_sql("::text[], ");
        out.push_bind_param::<Array<Nullable<Bytea>>, _>(&self.request_hashes)?;
        out.push_sql("::bytea[], ");
        out.push_bind_param::<Array<Nullable<Jsonb>>, _>(&self.responses)?;
        out.push_sql("::jsonb[], ");
        out.push_bind_param::<Array<Timestamptz>, _>(&self.event_times)?;
        out.push_sql(
            "::timestamptz[]) AS e (match_id, ply, seat, reported_by, payload, \
                                    idempotency_key, request_hash, response, created_at) \
             WHERE e.match_id IN (SELECT id FROM passed)) \
             SELECT id FROM passed",
        );
        Ok(())
    }
}

/// The queue of move writes and its writer tasks. With a batch bound of 1 there is no queue:
/// each request writes its own move.
pub struct GroupCommit {
    pool: Pool<AsyncPgConnection>,
    queue: Option<Grouped<Append, bool>>,
    solo: Arc<SoloConnections>,
}

/// Writer tasks per instance: statements in flight at once, each carrying a batch.
const WRITERS: usize = 2;

impl GroupCommit {
    /// Writers on `runtime` taking up to `max_batch` moves each; `max_batch` ≤ 1 turns grouping off.
    pub fn new(
        pool: Pool<AsyncPgConnection>,
        solo: Arc<SoloConnections>,
        max_batch: usize,
        runtime: &tokio::runtime::Handle,
    ) -> Self {
        let writers = pool.clone();
        let queue = Grouped::start(runtime, WRITERS, max_batch, "move writers", move |batch| {
            write_batch(writers.clone(), batch)
        });
        Self { pool, queue, solo }
    }

    /// Stores the move if its match is still where it was read: true when stored, false when the
    /// match moved or its access changed (then nothing was written).
    pub async fn write(&self, write: Append) -> Result<bool, StoreError> {
        match &self.queue {
            Some(queue) => {
                let alone = async |write: Append| {
                    crate::metrics::METRICS.record_move_batch(1);
                    write_alone(&self.solo.pool(), &write).await
                };
                queue.submit(write, alone).await
            }
            None => write_alone(&self.pool, &write).await,
        }
    }
}

/// One move's append on its own connection.
async fn write_alone(pool: &Pool<AsyncPgConnection>, write: &Append) -> Result<bool, StoreError> {
    let mut conn = checkout(pool).await?;
    stored_alone(append_moves(&mut conn, &[write]).await)
}

/// Whether a move written alone was stored: a broken log key means another instance appended
/// first, a lost race like any other.
fn stored_alone(written: Result<Vec<bool>, DieselError>) -> Result<bool, StoreError> {
    match written {
        Ok(stored) => Ok(stored == [true]),
        Err(error) if lost_race(&error) => Ok(false),
        Err(error) => Err(error.into()),
    }
}

/// A write refused because another one took its place in a log first.
pub(super) fn lost_race(error: &DieselError) -> bool {
    matches!(
        error,
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)
    )
}

/// Writes a batch of moves as one statement, and answers each.
async fn write_batch(pool: Pool<AsyncPgConnection>, mut batch: Batch<Append, bool>) {
    crate::metrics::METRICS.record_move_batch(batch.len());
    let writes: Vec<&Append> = batch.iter().map(|job| &job.request).collect();
    let together = match checkout(&pool).await {
        Ok(mut conn) => append_moves(&mut conn, &writes).await,
        Err(unavailable) => {
            for job in batch {
                let _ = job.done.send(Err(unavailable.clone()));
            }
            return;
        }
    };
    match together {
        Ok(stored) => {
            for (job, stored) in batch.into_iter().zip(stored) {
                let _ = job.done.send(Ok(stored));
            }
        }
        Err(error) if batch.len() == 1 => {
            if let Some(job) = batch.pop() {
                let _ = job.done.send(stored_alone(Err(error)));
            }
        }
        Err(error) => match StoreError::from(error) {
            // The connection failed: whether the statement committed is unknown, so no move may
            // be written again or reported as not stored. Each request answers 503.
            StoreError::Unavailable(message) => {
                for job in batch {
                    let _ = job.done.send(Err(StoreError::Unavailable(message.clone())));
                }
            }
            // PostgreSQL refused the statement, so nothing of it was stored: written alone, each
            // move meets only its own failure.
            _ => {
                for job in batch {
                    let _ = job.done.send(write_alone(&pool, &job.request).await);
                }
            }
        },
    }
}
