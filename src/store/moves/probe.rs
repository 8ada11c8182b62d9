//! Probes of live copies read together: reads of different matches that arrive together check
//! their copies with one statement ([`super::grouped`]).
//!
//! A read answered from this instance's live copy of a match first asks the database whether
//! the copy is still the stored match (see [`Store::read_live_copy`](crate::store::Store)); like
//! the appends of [`super::batch`], those probes are served together.

use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use std::sync::Arc;

use super::grouped::{statement_text, Batch, Grouped};
use super::solo::SoloConnections;
use crate::store::{checkout, StoreError};
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
    pool: &Pool<AsyncPgConnection>,
    ids: &[Uuid],
) -> Result<Vec<(Uuid, Probe)>, StoreError> {
    let mut conn = checkout(pool).await?;
    let rows: Vec<ProbeRow> = ProbeMatches { ids }.load(&mut conn).await?;
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

/// The probe's text as each connection prepares it, its values left out: for checking the plan
/// PostgreSQL keeps for it.
pub fn probe_statement() -> String {
    statement_text(&ProbeMatches { ids: &[] })
}

/// The probes of a list of matches, one statement whose text is the same for any number of
/// them, so each connection prepares it once. The last ply is a scalar subquery: one backward
/// probe of the log's key per match.
///
/// The list is read through a subquery, `unnest((SELECT $1))`, so that no plan sees its length:
/// PostgreSQL then keeps one generic plan after five executions. Given the array itself it
/// planned every execution afresh, as a custom plan fitted to the list's length, and that
/// planning cost more than running the probe.
///
/// Each match (and its rematch links) is looked up on its own, in a `LATERAL` subquery that
/// `OFFSET 0` keeps from being merged into a join, so the only plan is a lookup by key per id. As
/// a plain join, the plan kept on a young database (a list of ten ids assumed, a small table)
/// hashed the list and read the whole `matches` table for every probe, a cost that grew with
/// the table for as long as the connection lived.
struct ProbeMatches<'a> {
    ids: &'a [Uuid],
}

impl QueryId for ProbeMatches<'_> {
    type QueryId = ProbeMatches<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl Query for ProbeMatches<'_> {
    type SqlType = diesel::sql_types::Untyped;
}

impl QueryFragment<diesel::pg::Pg> for ProbeMatches<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, diesel::pg::Pg>) -> QueryResult<()> {
        use diesel::sql_types::{Array, Uuid as SqlUuid};
        out.push_sql(
            "SELECT m.id, m.status, m.access_version, \
                 (SELECT max(e.ply) FROM match_events AS e WHERE e.match_id = m.id) AS last_ply, \
                 l.rematch_of, l.rematch \
             FROM unnest((SELECT ",
        );
        out.push_bind_param::<Array<SqlUuid>, _>(&self.ids)?;
        out.push_sql(
            "::uuid[])) AS probed (id) \
             CROSS JOIN LATERAL (SELECT id, status, access_version FROM matches \
                 WHERE id = probed.id OFFSET 0) AS m \
             LEFT JOIN LATERAL (SELECT rematch_of, rematch FROM match_rematch_links \
                 WHERE match_id = m.id OFFSET 0) AS l ON true",
        );
        Ok(())
    }
}

/// The queue of probes and its reader tasks. With a batch bound of 1 there is no queue: each
/// read sends its own probe.
pub struct GroupProbe {
    pool: Pool<AsyncPgConnection>,
    queue: Option<Grouped<Uuid, Option<Probe>>>,
    solo: Arc<SoloConnections>,
}

/// Reader tasks per instance: probe statements in flight at once.
const READERS: usize = 2;

impl GroupProbe {
    /// Readers on `runtime` taking up to `max_batch` probes each; `max_batch` ≤ 1 turns grouping
    /// off.
    pub fn new(
        pool: Pool<AsyncPgConnection>,
        solo: Arc<SoloConnections>,
        max_batch: usize,
        runtime: &tokio::runtime::Handle,
    ) -> Self {
        let readers = pool.clone();
        let queue = Grouped::start(runtime, READERS, max_batch, "probe readers", move |batch| {
            probe_batch(readers.clone(), batch)
        });
        Self { pool, queue, solo }
    }

    /// The stored match's probe; None when no match has this id.
    pub async fn probe(&self, id: Uuid) -> Result<Option<Probe>, StoreError> {
        match &self.queue {
            Some(queue) => {
                queue
                    .submit(id, async |id| probe_one(&self.solo.pool(), id).await)
                    .await
            }
            None => probe_one(&self.pool, id).await,
        }
    }
}

/// One match's probe, on a connection of `pool`.
async fn probe_one(pool: &Pool<AsyncPgConnection>, id: Uuid) -> Result<Option<Probe>, StoreError> {
    Ok(probe_all(pool, &[id]).await?.pop().map(|(_, probe)| probe))
}

/// Probes a batch's matches as one statement, and answers each with its own.
async fn probe_batch(pool: Pool<AsyncPgConnection>, batch: Batch<Uuid, Option<Probe>>) {
    let mut ids: Vec<Uuid> = batch.iter().map(|job| job.request).collect();
    ids.sort_unstable();
    ids.dedup();
    match probe_all(&pool, &ids).await {
        Ok(probes) => {
            for job in batch {
                let found = probes.iter().find(|(id, _)| *id == job.request);
                let _ = job.done.send(Ok(found.map(|(_, probe)| probe.clone())));
            }
        }
        Err(error) => {
            for job in batch {
                let _ = job.done.send(Err(error.clone()));
            }
        }
    }
}
