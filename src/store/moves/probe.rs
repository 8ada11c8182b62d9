//! Probes of live copies read together: reads of different matches that arrive together check
//! their copies with one statement.
//!
//! A read answered from this instance's live copy of a match first asks the database whether
//! the copy is still the stored match (see [`Store::read_live_copy`](crate::store::Store)). Like
//! the appends of [`super::batch`], the probes queue and a few reader tasks each send whatever is
//! queued (up to a bound) as one statement: at low load a probe is sent at once, alone; under
//! load the probes that arrived while the previous statements were in flight go together.

use std::sync::Arc;

use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use tokio::sync::{mpsc, oneshot, Mutex};
use uuid::Uuid;

use crate::store::StoreError;
use crate::vocabulary::MatchStatus;

/// The match this one is a rematch of, and this one's rematch.
pub type RematchLinks = (Option<Uuid>, Option<Uuid>);

/// What a live copy is checked against: the stored match's status, seat access and last ply,
/// and its rematch links (which a read shows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    pub status: MatchStatus,
    pub access_version: i64,
    pub last_ply: Option<i64>,
    pub links: RematchLinks,
}

#[derive(QueryableByName)]
struct ProbeRow {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    id: Uuid,
    #[diesel(sql_type = diesel::sql_types::Text)]
    status: MatchStatus,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    access_version: i64,
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::BigInt>)]
    last_ply: Option<i64>,
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Uuid>)]
    rematch_of: Option<Uuid>,
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Uuid>)]
    rematch: Option<Uuid>,
}

/// The probes of these matches, one statement. A match that is not stored has no row.
async fn probe_all(
    conn: &mut AsyncPgConnection,
    ids: &[Uuid],
) -> Result<Vec<(Uuid, Probe)>, StoreError> {
    let rows: Vec<ProbeRow> = match ids {
        [id] => ProbeOne { id }.load(conn).await?,
        _ => ProbeMatches { ids }.load(conn).await?,
    };
    Ok(rows
        .into_iter()
        .map(|row| {
            let probe = Probe {
                status: row.status,
                access_version: row.access_version,
                last_ply: row.last_ply,
                links: (row.rematch_of, row.rematch),
            };
            (row.id, probe)
        })
        .collect())
}

/// The probe statement up to its filter on the match ids; the last ply as a scalar subquery,
/// one backward probe of the log's key per match.
const PROBE: &str = "SELECT m.id, m.status, m.access_version, \
        (SELECT max(e.ply) FROM match_events AS e WHERE e.match_id = m.id) AS last_ply, \
        l.rematch_of, l.rematch \
     FROM matches AS m LEFT JOIN match_rematch_links AS l ON l.match_id = m.id ";

/// One match's probe. Apart from the many-match form: PostgreSQL plans `= ANY` of an array
/// parameter for every execution (its size is unknown to a kept plan), and a probe alone is the
/// common case at low load.
struct ProbeOne<'a> {
    id: &'a Uuid,
}

/// Several matches' probes; the text is the same for any number of matches, so each
/// connection prepares it once.
struct ProbeMatches<'a> {
    ids: &'a [Uuid],
}

impl QueryFragment<diesel::pg::Pg> for ProbeOne<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, diesel::pg::Pg>) -> QueryResult<()> {
        out.push_sql(PROBE);
        out.push_sql("WHERE m.id = ");
        out.push_bind_param::<diesel::sql_types::Uuid, _>(self.id)?;
        Ok(())
    }
}

impl QueryFragment<diesel::pg::Pg> for ProbeMatches<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, diesel::pg::Pg>) -> QueryResult<()> {
        use diesel::sql_types::{Array, Uuid as SqlUuid};
        out.push_sql(PROBE);
        out.push_sql("WHERE m.id = ANY(");
        out.push_bind_param::<Array<SqlUuid>, _>(&self.ids)?;
        out.push_sql("::uuid[])");
        Ok(())
    }
}

/// Each form its own prepared statement.
macro_rules! prepared_once {
    ($($query:ident),*) => {$(
        impl QueryId for $query<'_> {
            type QueryId = $query<'static>;
            const HAS_STATIC_QUERY_ID: bool = true;
        }

        impl Query for $query<'_> {
            type SqlType = diesel::sql_types::Untyped;
        }
    )*};
}
prepared_once!(ProbeOne, ProbeMatches);

/// A queued probe and where its answer goes.
struct Job {
    id: Uuid,
    done: oneshot::Sender<Result<Option<Probe>, StoreError>>,
}

/// The queue of probes and its reader tasks. With a batch bound of 1 there is no queue: each
/// read sends its own probe.
pub struct GroupProbe {
    pool: Pool<AsyncPgConnection>,
    queue: Option<mpsc::Sender<Job>>,
}

/// Reader tasks per instance: probe statements in flight at once.
const READERS: usize = 2;

impl GroupProbe {
    /// Readers on `runtime` taking up to `max_batch` probes each; `max_batch` ≤ 1 turns grouping
    /// off.
    pub fn new(
        pool: Pool<AsyncPgConnection>,
        max_batch: usize,
        runtime: &tokio::runtime::Handle,
    ) -> Self {
        if max_batch <= 1 {
            return Self { pool, queue: None };
        }
        let (sender, receiver) = mpsc::channel(max_batch * READERS * 4);
        let receiver = Arc::new(Mutex::new(receiver));
        for _ in 0..READERS {
            runtime.spawn(reader(pool.clone(), receiver.clone(), max_batch));
        }
        Self {
            pool,
            queue: Some(sender),
        }
    }

    /// The stored match's probe; None when no match has this id.
    pub async fn probe(&self, id: Uuid) -> Result<Option<Probe>, StoreError> {
        let Some(queue) = &self.queue else {
            let mut conn = self.connection().await?;
            return Ok(probe_all(&mut conn, &[id]).await?.pop().map(|(_, p)| p));
        };
        let (done, answer) = oneshot::channel();
        queue
            .send(Job { id, done })
            .await
            .map_err(|_| StoreError::Unavailable("the probe readers have stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Unavailable("a probe reader stopped".into()))?
    }

    async fn connection(
        &self,
    ) -> Result<diesel_async::pooled_connection::deadpool::Object<AsyncPgConnection>, StoreError>
    {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::Unavailable(e.to_string()))
    }
}

async fn reader(
    pool: Pool<AsyncPgConnection>,
    queue: Arc<Mutex<mpsc::Receiver<Job>>>,
    max_batch: usize,
) {
    let mut batch = Vec::with_capacity(max_batch);
    loop {
        // Waits for one probe, then takes whatever else is queued, up to the bound.
        if queue.lock().await.recv_many(&mut batch, max_batch).await == 0 {
            return; // The service is shutting down.
        }
        let mut ids: Vec<Uuid> = batch.iter().map(|job| job.id).collect();
        ids.sort_unstable();
        ids.dedup();
        let probed = match pool.get().await {
            Ok(mut conn) => probe_all(&mut conn, &ids).await,
            Err(e) => Err(StoreError::Unavailable(e.to_string())),
        };
        match probed {
            Ok(probes) => {
                for job in batch.drain(..) {
                    let found = probes.iter().find(|(id, _)| *id == job.id);
                    let _ = job.done.send(Ok(found.map(|(_, probe)| probe.clone())));
                }
            }
            Err(error) => {
                for job in batch.drain(..) {
                    let _ = job.done.send(Err(error.clone()));
                }
            }
        }
    }
}
