//! An optional streaming replica for history reads (`DATABASE_READ_URL`).
//!
//! Consistency rule: a replica read first takes the primary's current WAL position and waits,
//! for a bounded time, until the replica has replayed up to it. Any write acknowledged before the
//! read began was flushed at or below that position, so the read sees it, whichever instance
//! took the write. (The position is the primary's WAL write position: an acknowledged commit is
//! behind it under any `synchronous_commit` but `off`, with which a commit may be acknowledged
//! while still in memory.) A replica that lags past the bound, fails or cannot be reached is
//! skipped: the read goes to the primary, and the replica is left alone for a while (a circuit
//! breaker), so that a stopped replica costs neither errors nor a connect attempt per request.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use diesel::sql_types::{Bool, Nullable, Text};
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use super::{Conn, StoreError};
use crate::config::ReadReplicaSettings;

/// The name replica sessions carry in `pg_stat_activity`, unless the URL names one.
pub const APPLICATION_NAME: &str = "referee-history";

/// Why a history read went to the primary instead of the replica (the metric's `reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// The replica had not replayed the primary's position within the bound.
    Lag,
    /// The replica could not be reached, or its connection broke.
    Unavailable,
    /// The replica answered the read with an error (e.g. a query cancelled by recovery).
    Error,
    /// The replica failed or lagged recently; it is left alone for a while.
    BreakerOpen,
    /// The replica is not in recovery (promoted, or the primary itself): no position to compare.
    NotStandby,
}

impl Fallback {
    pub fn as_str(self) -> &'static str {
        match self {
            Fallback::Lag => "lag",
            Fallback::Unavailable => "replica_unavailable",
            Fallback::Error => "replica_error",
            Fallback::BreakerOpen => "breaker_open",
            Fallback::NotStandby => "not_standby",
        }
    }
}

pub struct ReadReplica {
    pool: Pool<AsyncPgConnection>,
    max_lag: Duration,
    pause: Duration,
    /// Milliseconds since [`epoch`] before which the replica is not tried (0: closed).
    skip_until: AtomicU64,
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_millis() -> u64 {
    epoch().elapsed().as_millis() as u64
}

#[derive(diesel::QueryableByName)]
struct Position {
    #[diesel(sql_type = Text)]
    lsn: String,
}

#[derive(diesel::QueryableByName)]
struct Replayed {
    #[diesel(sql_type = Nullable<Bool>)]
    caught_up: Option<bool>,
}

/// The replica URL with a session name and a short connect timeout, unless it sets them (only
/// URL-form settings can be extended; a `key=value` string is taken as it is).
fn with_defaults(url: &str, connect_timeout: Duration) -> String {
    let Ok(mut parsed) = url::Url::parse(url) else {
        return url.to_owned();
    };
    let has = |key: &str| parsed.query_pairs().any(|(k, _)| k == key);
    let missing: Vec<(&str, String)> = [
        ("application_name", APPLICATION_NAME.to_owned()),
        (
            "connect_timeout",
            connect_timeout.as_secs().max(1).to_string(),
        ),
    ]
    .into_iter()
    .filter(|(key, _)| !has(key))
    .collect();
    for (key, value) in missing {
        parsed.query_pairs_mut().append_pair(key, &value);
    }
    parsed.into()
}

impl ReadReplica {
    pub fn new(settings: &ReadReplicaSettings) -> Arc<Self> {
        let url = with_defaults(&settings.url, settings.connect_timeout);
        // Short waits: a replica that does not answer quickly is skipped, not waited for.
        let pool = super::pool_with_waits(
            &url,
            settings.pool_size,
            settings.timeouts,
            (settings.connect_timeout, settings.connect_timeout),
            super::Driven::OnConnectionThread,
        );
        Arc::new(Self {
            pool,
            max_lag: settings.max_lag,
            pause: settings.retry_after,
            skip_until: AtomicU64::new(0),
        })
    }

    pub(super) fn breaker_open(&self) -> bool {
        now_millis() < AtomicU64::load(&self.skip_until, Ordering::Relaxed)
    }

    /// Leaves the replica alone for a while: reads go straight to the primary.
    pub(super) fn trip(&self) {
        let until = now_millis() + self.pause.as_millis() as u64;
        self.skip_until.store(until, Ordering::Relaxed);
    }

    /// The primary's current WAL position. Taken before the replica is contacted: every write
    /// acknowledged before a read began is at or below it.
    pub(super) async fn position(primary: &mut AsyncPgConnection) -> Result<String, StoreError> {
        let target: Position = diesel::sql_query("SELECT pg_current_wal_lsn()::text AS lsn")
            .get_result(primary)
            .await?;
        Ok(target.lsn)
    }

    /// A replica connection that has replayed the primary's WAL up to `target`, or why not.
    pub(super) async fn caught_up(&self, target: &str) -> Result<Conn, Fallback> {
        let started = Instant::now();
        let mut conn = self.pool.get().await.map_err(|error| {
            tracing::warn!(%error, "read replica unreachable; reading from the primary");
            self.trip();
            Fallback::Unavailable
        })?;
        let mut pause = Duration::from_millis(1);
        let mut checks = 0;
        loop {
            let replayed: Replayed =
                diesel::sql_query("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up")
                    .bind::<Text, _>(target)
                    .get_result(&mut *conn)
                    .await
                    .map_err(|error| self.failed(error.into()))?;
            match replayed.caught_up {
                Some(true) => {
                    crate::metrics::METRICS.record_replica_wait(started.elapsed());
                    return Ok(conn);
                }
                None => {
                    self.trip();
                    return Err(Fallback::NotStandby);
                }
                Some(false) if started.elapsed() >= self.max_lag => {
                    tracing::info!(max_lag = ?self.max_lag, "read replica behind; reading from the primary");
                    self.trip();
                    return Err(Fallback::Lag);
                }
                // The first checks go back to back: one round trip is about as long as a replica
                // on a nearby host stays behind a busy primary, and far shorter than a timer tick.
                Some(false) if checks < 4 => checks += 1,
                Some(false) => {
                    tokio::time::sleep(pause.min(self.max_lag.saturating_sub(started.elapsed())))
                        .await;
                    pause = (pause * 2).min(Duration::from_millis(16));
                }
            }
        }
    }

    /// What a failed replica query means for the next reads.
    pub(super) fn failed(&self, error: StoreError) -> Fallback {
        match error {
            StoreError::Unavailable(error) => {
                tracing::warn!(%error, "read replica failed; reading from the primary");
                self.trip();
                Fallback::Unavailable
            }
            // One query cancelled (e.g. by a conflict with recovery): this read only.
            StoreError::Busy(error) | StoreError::Internal(error) => {
                tracing::info!(%error, "read replica query failed; reading from the primary");
                Fallback::Error
            }
            StoreError::Preparing | StoreError::TakenBack => Fallback::Error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replica_url_gets_a_session_name_and_a_connect_timeout_unless_it_has_them() {
        let url = with_defaults("postgres://u@h:5433/db", Duration::from_secs(2));
        assert_eq!(
            url,
            "postgres://u@h:5433/db?application_name=referee-history&connect_timeout=2"
        );
        let given = "postgres://u@h/db?application_name=mine&connect_timeout=9";
        assert_eq!(with_defaults(given, Duration::from_secs(2)), given);
        assert_eq!(
            with_defaults("host=h dbname=db", Duration::from_secs(2)),
            "host=h dbname=db"
        );
    }
}
