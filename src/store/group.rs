//! Group commit of moves: moves to different matches that arrive together share one statement and
//! one commit.
//!
//! A move that does not end its match is one version-checked write (see [`write_moves`]). Instead
//! of each request sending its own, requests queue their writes and a few writer tasks each take
//! whatever is queued (up to a bound) and send it as one statement. Nothing waits on a timer: at
//! low load a batch is one move, written at once; under load the moves that arrived while the
//! previous statements were in flight go together. Each move is still checked on its own row, and
//! its request is answered only after the shared commit. If the shared statement fails, each
//! move is written alone, so one bad move never fails its batch mates.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot, Mutex};
use uuid::Uuid;

use super::matches::EventRow;
use super::StoreError;
use crate::vocabulary::MatchStatus;

/// One move's write: its events and the snapshot after them, stored only if the match is still in
/// progress at `read_version` with its seats' access unchanged (`read_access_version`).
#[derive(Debug, Clone)]
pub struct MoveWrite {
    pub id: Uuid,
    pub read_version: i64,
    pub read_access_version: i64,
    pub version: i64,
    pub state: Value,
    pub now: DateTime<Utc>,
    pub events: Vec<EventRow>,
}

/// Writes each move whose match is still where it was read, in one statement (one commit); for
/// each move, whether it was stored. Moves must be of different matches.
pub async fn write_moves(
    conn: &mut AsyncPgConnection,
    moves: &[&MoveWrite],
) -> Result<Vec<bool>, StoreError> {
    let advanced: Vec<Advanced> = WriteMoves::of(moves).load(conn).await?;
    Ok(moves
        .iter()
        .map(|m| advanced.iter().any(|a| a.id == m.id))
        .collect())
}

#[derive(QueryableByName)]
struct Advanced {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    id: Uuid,
}

/// The statement of [`write_moves`], its values as arrays: its text is the same for any number
/// of moves, so each connection prepares it once (a `sql_query` would be parsed every time).
struct WriteMoves<'a> {
    ids: Vec<Uuid>,
    read_versions: Vec<i64>,
    read_access_versions: Vec<i64>,
    versions: Vec<i64>,
    states: Vec<&'a Value>,
    times: Vec<DateTime<Utc>>,
    event_matches: Vec<Uuid>,
    plies: Vec<i64>,
    seats: Vec<Option<i32>>,
    payloads: Vec<&'a Value>,
    keys: Vec<Option<&'a str>>,
    request_hashes: Vec<Option<&'a [u8]>>,
    responses: Vec<Option<&'a Value>>,
    event_times: Vec<DateTime<Utc>>,
    in_progress: MatchStatus,
}

impl<'a> WriteMoves<'a> {
    fn of(moves: &[&'a MoveWrite]) -> Self {
        let events = || moves.iter().flat_map(|m| m.events.iter());
        Self {
            ids: moves.iter().map(|m| m.id).collect(),
            read_versions: moves.iter().map(|m| m.read_version).collect(),
            read_access_versions: moves.iter().map(|m| m.read_access_version).collect(),
            versions: moves.iter().map(|m| m.version).collect(),
            states: moves.iter().map(|m| &m.state).collect(),
            times: moves.iter().map(|m| m.now).collect(),
            event_matches: events().map(|e| e.match_id).collect(),
            plies: events().map(|e| e.ply).collect(),
            seats: events().map(|e| e.seat).collect(),
            payloads: events().map(|e| &e.payload).collect(),
            keys: events().map(|e| e.idempotency_key.as_deref()).collect(),
            request_hashes: events().map(|e| e.request_hash.as_deref()).collect(),
            responses: events().map(|e| e.response.as_ref()).collect(),
            event_times: events().map(|e| e.created_at).collect(),
            in_progress: MatchStatus::InProgress,
        }
    }
}

impl QueryId for WriteMoves<'_> {
    type QueryId = WriteMoves<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl Query for WriteMoves<'_> {
    type SqlType = diesel::sql_types::Untyped;
}

impl QueryFragment<diesel::pg::Pg> for WriteMoves<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, diesel::pg::Pg>) -> QueryResult<()> {
        use diesel::sql_types::{Array, BigInt, Bytea, Integer, Jsonb, Nullable, Text};
        use diesel::sql_types::{Timestamptz, Uuid as SqlUuid};
        // The events are inserted only for the matches the update advanced; a data-modifying
        // WITH runs to completion whether or not the final SELECT reads it.
        out.push_sql("WITH input AS (SELECT * FROM unnest(");
        out.push_bind_param::<Array<SqlUuid>, _>(&self.ids)?;
        out.push_sql("::uuid[], ");
        out.push_bind_param::<Array<BigInt>, _>(&self.read_versions)?;
        out.push_sql("::bigint[], ");
        out.push_bind_param::<Array<BigInt>, _>(&self.read_access_versions)?;
        out.push_sql("::bigint[], ");
        out.push_bind_param::<Array<BigInt>, _>(&self.versions)?;
        out.push_sql("::bigint[], ");
        out.push_bind_param::<Array<Jsonb>, _>(&self.states)?;
        out.push_sql("::jsonb[], ");
        out.push_bind_param::<Array<Timestamptz>, _>(&self.times)?;
        out.push_sql(
            "::timestamptz[]) AS i (id, read_version, read_access_version, version, state, at)), \
             advanced AS (UPDATE matches AS m \
                 SET version = i.version, state = i.state, updated_at = i.at \
                 FROM input AS i \
                 WHERE m.id = i.id AND m.version = i.read_version \
                   AND m.access_version = i.read_access_version AND m.status = ",
        );
        out.push_bind_param::<Text, _>(&self.in_progress)?;
        out.push_sql(
            " RETURNING m.id), \
             stored AS (INSERT INTO match_events \
                 (match_id, ply, seat, payload, idempotency_key, request_hash, response, \
                  created_at) \
             SELECT e.* FROM unnest(",
        );
        out.push_bind_param::<Array<SqlUuid>, _>(&self.event_matches)?;
        out.push_sql("::uuid[], ");
        out.push_bind_param::<Array<BigInt>, _>(&self.plies)?;
        out.push_sql("::bigint[], ");
        out.push_bind_param::<Array<Nullable<Integer>>, _>(&self.seats)?;
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
            "::timestamptz[]) AS e (match_id, ply, seat, payload, idempotency_key, \
                                    request_hash, response, created_at) \
             WHERE e.match_id IN (SELECT id FROM advanced)) \
             SELECT id FROM advanced",
        );
        Ok(())
    }
}

/// A queued write and where its answer goes.
struct Job {
    write: MoveWrite,
    done: oneshot::Sender<Result<bool, StoreError>>,
}

/// The queue of move writes and its writer tasks. With a batch bound of 1 there is no queue:
/// each request writes its own move.
pub struct GroupCommit {
    pool: Pool<AsyncPgConnection>,
    queue: Option<mpsc::Sender<Job>>,
}

/// Writer tasks per instance: statements in flight at once, each carrying a batch.
const WRITERS: usize = 2;

impl GroupCommit {
    /// Writers on `runtime` taking up to `max_batch` moves each; `max_batch` ≤ 1 turns grouping off.
    pub fn new(
        pool: Pool<AsyncPgConnection>,
        max_batch: usize,
        runtime: &tokio::runtime::Handle,
    ) -> Self {
        if max_batch <= 1 {
            return Self { pool, queue: None };
        }
        let (sender, receiver) = mpsc::channel(max_batch * WRITERS * 4);
        let receiver = Arc::new(Mutex::new(receiver));
        for _ in 0..WRITERS {
            runtime.spawn(writer(pool.clone(), receiver.clone(), max_batch));
        }
        Self {
            pool,
            queue: Some(sender),
        }
    }

    /// Stores the move if its match is still where it was read: true when stored, false when the
    /// match moved or its access changed (then nothing was written).
    pub async fn write(&self, write: MoveWrite) -> Result<bool, StoreError> {
        let Some(queue) = &self.queue else {
            return write_alone(&self.pool, &write).await;
        };
        let (done, answer) = oneshot::channel();
        queue
            .send(Job { write, done })
            .await
            .map_err(|_| StoreError::Unavailable("the move writers have stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Unavailable("a move writer stopped".into()))?
    }
}

async fn write_alone(
    pool: &Pool<AsyncPgConnection>,
    write: &MoveWrite,
) -> Result<bool, StoreError> {
    let mut conn = pool
        .get()
        .await
        .map_err(|e| StoreError::Unavailable(e.to_string()))?;
    let stored = write_moves(&mut conn, &[write]).await?;
    Ok(stored == [true])
}

async fn writer(
    pool: Pool<AsyncPgConnection>,
    queue: Arc<Mutex<mpsc::Receiver<Job>>>,
    max_batch: usize,
) {
    let mut batch = Vec::with_capacity(max_batch);
    loop {
        // Waits for one write, then takes whatever else is queued, up to the bound.
        if queue.lock().await.recv_many(&mut batch, max_batch).await == 0 {
            return; // The service is shutting down.
        }
        crate::metrics::METRICS.record_move_batch(batch.len());
        let writes: Vec<&MoveWrite> = batch.iter().map(|job| &job.write).collect();
        let together = match pool.get().await {
            Ok(mut conn) => write_moves(&mut conn, &writes).await,
            Err(e) => Err(StoreError::Unavailable(e.to_string())),
        };
        match together {
            Ok(stored) => {
                for (job, stored) in batch.drain(..).zip(stored) {
                    let _ = job.done.send(Ok(stored));
                }
            }
            // The connection failed: whether the statement committed is unknown, so no move may
            // be written again or reported as not stored. Each request answers 503.
            Err(StoreError::Unavailable(message)) => {
                for job in batch.drain(..) {
                    let _ = job.done.send(Err(StoreError::Unavailable(message.clone())));
                }
            }
            Err(error) if batch.len() == 1 => {
                if let Some(job) = batch.pop() {
                    let _ = job.done.send(Err(error));
                }
            }
            // PostgreSQL refused the statement, so nothing of it was stored: written alone, each
            // move meets only its own failure.
            Err(_) => {
                for job in batch.drain(..) {
                    let _ = job.done.send(write_alone(&pool, &job.write).await);
                }
            }
        }
    }
}
