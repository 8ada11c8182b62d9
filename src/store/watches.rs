//! Leases on followed matches. A batch of moves announces only the matches that have a lease in
//! force (the `notice_for_followed_matches` migration says why and why no move is missed): a
//! match's feed takes one before its first read and renews it while it lives.

use std::time::Duration;

use diesel::sql_types::{Double, Text, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::StoreError;
use crate::vocabulary::MatchKind;

/// How long a lease lasts. A feed renews it every [`RENEW_EVERY`], so a lease lapses only if a
/// feed goes four renewals without reaching the database; its next renewal then reads again.
pub const LEASE: Duration = Duration::from_secs(600);
pub const RENEW_EVERY: Duration = Duration::from_secs(120);

/// Takes or renews the lease on match `id` for [`LEASE`]; false if there is no such hosted match
/// (a score sheet's changes are always announced). The match's row is locked (FOR NO KEY
/// UPDATE) until the lease commits: a writer of its events that did not see the lease has
/// committed by the time this returns, so a read made after it finds that writer's events, and
/// every later writer is announced. Lapsed leases are removed on the way (skipping any another
/// statement holds).
pub async fn watch(conn: &mut AsyncPgConnection, id: Uuid) -> Result<bool, StoreError> {
    let leased = diesel::sql_query(
        "WITH held AS (SELECT id FROM matches WHERE id = $1 AND kind = $3 FOR NO KEY UPDATE) \
         INSERT INTO match_watches (match_id, until) \
         SELECT id, now() + make_interval(secs => $2) FROM held \
         ON CONFLICT (match_id) DO UPDATE \
             SET until = greatest(match_watches.until, EXCLUDED.until)",
    )
    .bind::<SqlUuid, _>(id)
    .bind::<Double, _>(LEASE.as_secs_f64())
    .bind::<Text, _>(MatchKind::Hosted)
    .execute(conn)
    .await?;
    diesel::sql_query(
        "DELETE FROM match_watches WHERE match_id IN \
             (SELECT match_id FROM match_watches WHERE until < now() FOR UPDATE SKIP LOCKED)",
    )
    .execute(conn)
    .await?;
    Ok(leased == 1)
}
