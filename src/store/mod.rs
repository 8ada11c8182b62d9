//! PostgreSQL persistence: the connection pool, start-up (create the database, run the embedded
//! migrations) and the mapping of database failures to "unavailable", "busy" or "internal".
//!
//! Every query lives under this module: `matches` (matches, seats, move logs, the match list),
//! `moves` (the move pipeline: live matches, appends, the finishing transaction),
//! `sheets` (score-sheet entries), `stats` (finished seats, leaderboards, running totals) and
//! `history` (a player's matches); `columns` reads and writes the typed text columns.
//!
//! History reads (lists, statistics, leaderboards, exports of finished matches) go through
//! [`Store::read`], the one place that sends them to a read replica when one is configured
//! ([`replica`]); everything else uses [`Store::conn`], the primary.
//!
//! The service starts even when PostgreSQL is down: a background task keeps trying to prepare the
//! database, match endpoints answer 503 until it has, and stateless endpoints never need it.

pub mod columns;
pub mod created;
pub mod events;
pub mod hands;
pub mod history;
pub mod households;
pub mod lobby;
pub mod matches;
pub mod moves;
pub mod names;
pub mod plays;
pub mod rating_reads;
pub mod replica;
pub mod results;
pub mod schema;
pub mod sheets;
pub mod snapshot;
pub mod stat_reads;
pub mod watches;
pub mod write;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::config::{DatabaseTimeouts, MoveSettings};
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel::{Connection, ConnectionError, ConnectionResult};
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_async::pooled_connection::deadpool::{Object, Pool};
use diesel_async::pooled_connection::{
    AsyncDieselConnectionManager, ManagerConfig, RecyclingMethod,
};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

pub type Conn = Object<AsyncPgConnection>;

/// A connection from `pool`, or `Unavailable` if none can be had.
pub(crate) async fn checkout(pool: &Pool<AsyncPgConnection>) -> Result<Conn, StoreError> {
    pool.get()
        .await
        .map_err(|e| StoreError::Unavailable(e.to_string()))
}

/// No match or sheet of this kind has this id (or it is another household's: the same answer).
#[derive(Debug, Clone, Copy)]
pub struct UnknownRecord {
    pub kind: crate::vocabulary::MatchKind,
    pub id: uuid::Uuid,
}

impl UnknownRecord {
    pub fn hosted(id: uuid::Uuid) -> Self {
        Self {
            kind: crate::vocabulary::MatchKind::Hosted,
            id,
        }
    }

    pub fn sheet(id: uuid::Uuid) -> Self {
        Self {
            kind: crate::vocabulary::MatchKind::Sheet,
            id,
        }
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreError {
    /// PostgreSQL cannot be reached, or cannot write or allocate now; the request may be retried.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// A statement waited for a lock or ran past its timeout, or lost a deadlock or a
    /// serialization conflict: the request may be retried at once.
    #[error("database busy: {0}")]
    Busy(String),
    #[error("database error: {0}")]
    Internal(String),
    /// The database is being prepared (migrations at start-up): nothing is wrong, and a request
    /// may be retried in a moment.
    #[error("database being prepared")]
    Preparing,
    /// A dry run's writes, taken back on purpose: never reaches a caller.
    #[error("a dry run's writes were taken back")]
    TakenBack,
}

/// PostgreSQL's transient failures, told apart by their messages: diesel-async keeps the message
/// but drops the SQLSTATE. These are the server's English texts (`lc_messages` C or en).
const BUSY_MESSAGES: &[&str] = &[
    // 55P03 lock_not_available (lock_timeout, NOWAIT) and 57014 query_canceled
    // (statement_timeout, cancel requests).
    "canceling statement due to",
    "could not obtain lock",
    // 40P01 deadlock_detected, 40001 serialization_failure.
    "deadlock detected",
    "could not serialize access",
];

/// PostgreSQL out of a resource, shutting down, starting up or in recovery.
const UNAVAILABLE_MESSAGES: &[&str] = &[
    // 53100 disk_full, 53200 out_of_memory, 53300 too_many_connections.
    "No space left on device",
    "out of memory",
    "too many clients",
    "too many connections",
    // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now.
    "terminating connection",
    "the database system is",
];

impl From<DieselError> for StoreError {
    fn from(error: DieselError) -> Self {
        let message_says = |texts: &[&str]| match &error {
            DieselError::DatabaseError(_, info) => {
                texts.iter().any(|text| info.message().contains(text))
            }
            _ => false,
        };
        let unavailable = matches!(
            error,
            DieselError::DatabaseError(
                DatabaseErrorKind::ClosedConnection
                    | DatabaseErrorKind::UnableToSendCommand
                    // 25006: a standby, or a database made read-only, refuses every write.
                    | DatabaseErrorKind::ReadOnlyTransaction,
                _,
            ) | DieselError::BrokenTransactionManager
        ) || message_says(UNAVAILABLE_MESSAGES);
        let busy = matches!(
            error,
            DieselError::DatabaseError(DatabaseErrorKind::SerializationFailure, _)
        ) || message_says(BUSY_MESSAGES);
        if unavailable {
            StoreError::Unavailable(error.to_string())
        } else if busy {
            StoreError::Busy(error.to_string())
        } else {
            StoreError::Internal(error.to_string())
        }
    }
}

/// The pool plus whether the database has been prepared.
#[derive(Clone)]
pub struct Store {
    pool: Pool<AsyncPgConnection>,
    ready: Arc<AtomicBool>,
    url: String,
    /// Each worker thread's own connections, kept across [`Store::with_moves`].
    solo: Arc<moves::solo::SoloConnections>,
    /// This instance's live matches and move writers (see [`moves`]).
    moves: Arc<moves::Moves>,
    /// Where history reads go when it has caught up (see [`replica`]).
    replica: Option<Arc<replica::ReadReplica>>,
    /// The keys invite codes are stored under (see [`crate::tokens::InviteKeys`]).
    invite_keys: Arc<crate::tokens::InviteKeys>,
}

/// What `/readyz` found: whether the database takes writes.
#[derive(diesel::QueryableByName)]
struct Writable {
    #[diesel(sql_type = diesel::sql_types::Bool)]
    read_only: bool,
}

impl Store {
    /// A pool that connects lazily, with the default [`DatabaseTimeouts`].
    pub fn new(database_url: &str, size: usize) -> Self {
        Self::with_timeouts(database_url, size, DatabaseTimeouts::default())
    }

    /// A pool that connects lazily; nothing is contacted until [`Store::prepare_in_background`]
    /// or the first request. Every connection it opens has these lock and statement timeouts.
    pub fn with_timeouts(database_url: &str, size: usize, timeouts: DatabaseTimeouts) -> Self {
        let pool = pool(database_url, size, timeouts);
        let solo = Arc::new(moves::solo::SoloConnections::new(database_url, timeouts));
        Self {
            ready: Arc::new(AtomicBool::new(false)),
            url: database_url.to_owned(),
            moves: Arc::new(moves::Moves::new(
                pool.clone(),
                solo.clone(),
                MoveSettings::default(),
                connection_runtime(),
            )),
            pool,
            solo,
            replica: None,
            invite_keys: Arc::default(),
        }
    }

    /// The same store sending history reads ([`Store::read`]) to a streaming replica of its
    /// database while the replica keeps up.
    pub fn with_read_replica(mut self, settings: &crate::config::ReadReplicaSettings) -> Self {
        self.replica = Some(replica::ReadReplica::new(settings));
        self
    }

    /// Runs a history read: on the replica if there is one and it has replayed every write
    /// acknowledged before this call, otherwise on the primary. `query` may run twice (on the
    /// replica, then on the primary if the replica failed it), so it must only read.
    pub async fn read<T>(
        &self,
        query: impl AsyncFn(&mut AsyncPgConnection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        if let Some(replica) = &self.replica {
            let fallback = if replica.breaker_open() {
                replica::Fallback::BreakerOpen
            } else {
                // The primary connection goes back to the pool before the replica is asked.
                let target = {
                    let mut primary = self.conn().await?;
                    replica::ReadReplica::position(&mut primary).await?
                };
                match replica.caught_up(&target).await {
                    Ok(mut conn) => match query(&mut *conn).await {
                        Ok(found) => {
                            crate::metrics::METRICS.record_history_read(None);
                            return Ok(found);
                        }
                        Err(error) => replica.failed(error),
                    },
                    Err(fallback) => fallback,
                }
            };
            crate::metrics::METRICS.record_history_read(Some(fallback.as_str()));
        }
        let mut conn = self.conn().await?;
        query(&mut *conn).await
    }

    /// The same store issuing and finding invite codes under `keys`.
    pub fn with_invite_keys(mut self, keys: crate::tokens::InviteKeys) -> Self {
        self.invite_keys = Arc::new(keys);
        self
    }

    pub fn invite_keys(&self) -> &crate::tokens::InviteKeys {
        &self.invite_keys
    }

    /// The same pool keeping live matches and writing moves as `settings` say.
    pub fn with_moves(mut self, settings: MoveSettings) -> Self {
        self.moves = Arc::new(moves::Moves::new(
            self.pool.clone(),
            self.solo.clone(),
            settings,
            connection_runtime(),
        ));
        self
    }

    pub fn is_ready(&self) -> bool {
        AtomicBool::load(&self.ready, Ordering::Acquire)
    }

    /// Resolves once the database is prepared ([`Store::prepare_in_background`]).
    pub async fn wait_ready(&self) {
        while !self.is_ready() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Creates the database if needed and runs pending migrations, once.
    pub async fn prepare(&self) -> Result<(), String> {
        create_database_if_missing(&self.url).await?;
        let url = self.url.clone();
        // The migration harness is synchronous: it runs on its own thread with its own runtime.
        let (done, wait) = tokio::sync::oneshot::channel();
        std::thread::spawn(move || {
            let result = <AsyncConnectionWrapper<AsyncPgConnection> as Connection>::establish(&url)
                .map_err(|e| e.to_string())
                .and_then(|mut conn| {
                    conn.run_pending_migrations(MIGRATIONS)
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                });
            let _ = done.send(result);
        });
        wait.await
            .map_err(|_| "migration thread died".to_owned())??;
        // Keys no migration can compute (confusable skeletons), before anything reads them.
        let mut conn = AsyncPgConnection::establish(&self.url)
            .await
            .map_err(|e| e.to_string())?;
        names::rekey_names(&mut conn)
            .await
            .map_err(|e| format!("re-keying player names: {e}"))?;
        // Ratings no migration can compute: results finished before this scheme.
        results::rating::catch_up(&mut conn)
            .await
            .map_err(|e| format!("computing skill ratings: {e}"))?;
        self.ready.store(true, Ordering::Release);
        Ok(())
    }

    /// Keeps trying [`Store::prepare`] until it succeeds, so the service heals by itself when
    /// PostgreSQL comes up after it.
    pub fn prepare_in_background(&self) {
        let store = self.clone();
        tokio::spawn(async move {
            let mut delay = Duration::from_millis(250);
            loop {
                match store.prepare().await {
                    Ok(()) => {
                        tracing::info!("database ready");
                        return;
                    }
                    Err(error) => {
                        tracing::warn!(%error, retry_in = ?delay, "database not ready");
                        tokio::time::sleep(delay).await;
                        delay = (delay * 2).min(Duration::from_secs(5));
                    }
                }
            }
        });
    }

    /// A pooled connection, or `Unavailable` if the database is not prepared or not reachable.
    pub async fn conn(&self) -> Result<Conn, StoreError> {
        if !self.is_ready() {
            return Err(StoreError::Preparing);
        }
        let conn = checkout(&self.pool).await;
        let status = self.pool.status();
        crate::metrics::METRICS.record_pool(status.size, status.available, status.waiting);
        conn
    }

    /// Whether the database answers now and would take a write: a standby, or a database whose
    /// sessions default to read-only, is reachable but cannot store a move. One cheap query, no
    /// write.
    pub async fn ping(&self) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        let found: Writable = diesel::sql_query(
            "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only')::bool \
             AS read_only",
        )
        .get_result(&mut conn)
        .await?;
        if found.read_only {
            return Err(StoreError::Unavailable(
                "the database is read-only or in recovery".into(),
            ));
        }
        Ok(())
    }
}

/// The runtime that drives the pool's connections. A connection's I/O runs as a task on the
/// runtime that opened it, and each HTTP worker has its own runtime, which ends with the worker:
/// at a graceful shutdown an idle worker stops at once and would close the connections it opened
/// under requests still running on the other workers. This one lives as long as the process.
// Runs once, at the first connection: without a runtime and its thread no request can be served.
#[allow(clippy::expect_used)]
fn connection_runtime() -> &'static tokio::runtime::Handle {
    static HANDLE: OnceLock<tokio::runtime::Handle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime for database connections");
        let handle = runtime.handle().clone();
        std::thread::Builder::new()
            .name("db-connections".into())
            .spawn(move || runtime.block_on(std::future::pending::<()>()))
            .expect("a thread for database connections");
        handle
    })
}

/// Which runtime drives a pool's connections.
#[derive(Clone, Copy)]
pub(super) enum Driven {
    /// The connection runtime's thread, whichever worker uses the connection.
    OnConnectionThread,
    /// The runtime of the task that opens the connection: for a pool only its own thread uses.
    Here,
}

/// A pool of `size` connections that connects lazily, each connection with these lock and
/// statement timeouts, driven where `driven` says; a checkout waits at most `wait` for a free
/// connection and `connect` for a new one.
// Startup: a pool given a runtime and timeouts always builds.
#[allow(clippy::expect_used)]
pub(super) fn pool_with_waits(
    url: &str,
    size: usize,
    timeouts: DatabaseTimeouts,
    (wait, connect): (Duration, Duration),
    driven: Driven,
) -> Pool<AsyncPgConnection> {
    let mut config = ManagerConfig::default();
    // No ping per checkout: `Fast` still refuses a connection whose socket has closed or whose
    // transaction broke (diesel-async checks both before any recycling method), so a PostgreSQL
    // restart replaces the pool's connections; a connection that dies unnoticed fails its
    // request with a 503 and is then discarded.
    config.recycling_method = RecyclingMethod::Fast;
    config.custom_setup = Box::new(move |url| {
        let url = url.to_owned();
        Box::pin(async move {
            match driven {
                Driven::OnConnectionThread => connection_runtime()
                    .spawn(async move { establish(&url, timeouts).await })
                    .await
                    .unwrap_or_else(|e| Err(ConnectionError::BadConnection(e.to_string()))),
                Driven::Here => establish(&url, timeouts).await,
            }
        })
    });
    let manager = AsyncDieselConnectionManager::new_with_config(url, config);
    Pool::builder(manager)
        .max_size(size)
        .wait_timeout(Some(wait))
        .create_timeout(Some(connect))
        .recycle_timeout(Some(connect))
        .runtime(deadpool::Runtime::Tokio1)
        .build()
        .expect("a pool with a runtime and timeouts always builds")
}

/// The primary's waits for a free connection and for a new one: short, so that during an outage
/// a request gets its 503 quickly.
pub(super) const PRIMARY_WAITS: (Duration, Duration) =
    (Duration::from_secs(5), Duration::from_secs(3));

/// The primary's pool.
fn pool(url: &str, size: usize, timeouts: DatabaseTimeouts) -> Pool<AsyncPgConnection> {
    pool_with_waits(
        url,
        size,
        timeouts,
        PRIMARY_WAITS,
        Driven::OnConnectionThread,
    )
}

/// Opens a connection, its I/O driven by a task on the current runtime, and sets its timeouts
/// for the session.
async fn establish(url: &str, timeouts: DatabaseTimeouts) -> ConnectionResult<AsyncPgConnection> {
    let mut conn = AsyncPgConnection::establish(url).await?;
    conn.batch_execute(&format!(
        "SET lock_timeout = {}; SET statement_timeout = {}",
        timeouts.lock.as_millis(),
        timeouts.statement.as_millis()
    ))
    .await
    .map_err(ConnectionError::CouldntSetupConfiguration)?;
    Ok(conn)
}

/// Connects to the server's `postgres` database and creates the target database if it is absent.
async fn create_database_if_missing(url: &str) -> Result<(), String> {
    let parsed = url::Url::parse(url).map_err(|e| format!("DATABASE_URL: {e}"))?;
    let name = parsed.path().trim_start_matches('/').to_owned();
    if name.is_empty() || name == "postgres" {
        return Ok(());
    }
    let mut admin_url = parsed.clone();
    admin_url.set_path("/postgres");
    let mut conn = AsyncPgConnection::establish(admin_url.as_str())
        .await
        .map_err(|e| e.to_string())?;

    #[derive(diesel::QueryableByName)]
    struct Found {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        #[allow(dead_code)]
        one: i32,
    }
    let found: Vec<Found> =
        diesel::sql_query("SELECT 1 AS one FROM pg_database WHERE datname = $1")
            .bind::<diesel::sql_types::Text, _>(&name)
            .load(&mut conn)
            .await
            .map_err(|e| e.to_string())?;
    if found.is_empty() {
        let quoted = format!("\"{}\"", name.replace('"', "\"\""));
        match diesel::sql_query(format!("CREATE DATABASE {quoted}"))
            .execute(&mut conn)
            .await
        {
            Ok(_) => tracing::info!(database = %name, "created database"),
            // Another instance created it between our check and our CREATE: fine.
            Err(e) if e.to_string().contains("already exists") => {}
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(kind: DatabaseErrorKind, message: &str) -> StoreError {
        DieselError::DatabaseError(kind, Box::new(message.to_owned())).into()
    }

    /// PostgreSQL's own texts for the SQLSTATEs a client may retry.
    #[test]
    fn transient_and_resource_failures_are_retryable_and_the_rest_internal() {
        use DatabaseErrorKind::{ReadOnlyTransaction, SerializationFailure, Unknown};
        let busy = [
            (Unknown, "canceling statement due to lock timeout"), // 55P03
            (
                Unknown,
                "could not obtain lock on row in relation \"matches\"",
            ), // 55P03
            (Unknown, "canceling statement due to statement timeout"), // 57014
            (Unknown, "canceling statement due to user request"), // 57014
            (Unknown, "deadlock detected"),                       // 40P01
            (
                SerializationFailure,
                "could not serialize access due to concurrent update",
            ), // 40001
        ];
        let unavailable = [
            (
                Unknown,
                "could not extend file \"base/1/2\": No space left on device",
            ), // 53100
            (Unknown, "out of memory"),                   // 53200
            (Unknown, "sorry, too many clients already"), // 53300
            (
                Unknown,
                "terminating connection due to administrator command",
            ), // 57P01
            (Unknown, "the database system is shutting down"), // 57P03
            (
                ReadOnlyTransaction,
                "cannot execute INSERT in a read-only transaction",
            ), // 25006
            (DatabaseErrorKind::ClosedConnection, "connection closed"),
        ];
        for (kind, message) in busy {
            assert!(
                matches!(failure(kind, message), StoreError::Busy(_)),
                "{message}"
            );
        }
        for (kind, message) in unavailable {
            assert!(
                matches!(failure(kind, message), StoreError::Unavailable(_)),
                "{message}"
            );
        }
        let internal = failure(Unknown, "column \"nope\" does not exist");
        assert!(matches!(internal, StoreError::Internal(_)));
        let unique = failure(DatabaseErrorKind::UniqueViolation, "duplicate key value");
        assert!(matches!(unique, StoreError::Internal(_)));
    }
}
