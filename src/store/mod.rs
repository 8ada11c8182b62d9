//! PostgreSQL persistence: the connection pool, start-up (create the database, run the embedded
//! migrations) and the mapping of database failures to "unavailable" or "internal".
//!
//! Every query lives under this module: `matches` (matches, seats, move logs, the match list),
//! `sheets` (score-sheet entries), `stats` (finished seats, leaderboards, running totals) and
//! `history` (a player's matches); `columns` reads and writes the typed text columns.
//!
//! The service starts even when PostgreSQL is down: a background task keeps trying to prepare the
//! database, match endpoints answer 503 until it has, and stateless endpoints never need it.

pub mod columns;
pub mod history;
pub mod matches;
pub mod schema;
pub mod sheets;
pub mod stats;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel::{Connection, ConnectionError, ConnectionResult};
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_async::pooled_connection::deadpool::{Object, Pool};
use diesel_async::pooled_connection::{AsyncDieselConnectionManager, ManagerConfig};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

pub type Conn = Object<AsyncPgConnection>;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// PostgreSQL cannot be reached now; the request may be retried.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    #[error("database error: {0}")]
    Internal(String),
}

impl From<DieselError> for StoreError {
    fn from(error: DieselError) -> Self {
        let lost_connection = match &error {
            DieselError::DatabaseError(
                DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
                _,
            )
            | DieselError::BrokenTransactionManager => true,
            // A server shutting down or starting up reports itself with these messages (SQLSTATE
            // 57P01 / 57P03), which diesel files under Unknown.
            DieselError::DatabaseError(DatabaseErrorKind::Unknown, info) => {
                let message = info.message();
                message.contains("terminating connection")
                    || message.contains("the database system is")
            }
            _ => false,
        };
        if lost_connection {
            StoreError::Unavailable(error.to_string())
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
}

impl Store {
    /// A pool that connects lazily; nothing is contacted until [`Store::prepare_in_background`]
    /// or the first request.
    // Startup: a pool given a runtime and timeouts always builds.
    #[allow(clippy::expect_used)]
    pub fn new(database_url: &str, size: usize) -> Self {
        let mut config = ManagerConfig::default();
        config.custom_setup = Box::new(establish_on_connection_runtime);
        let manager = AsyncDieselConnectionManager::new_with_config(database_url, config);
        // Short timeouts: during an outage a request should get its 503 quickly, not hang.
        let pool = Pool::builder(manager)
            .max_size(size)
            .wait_timeout(Some(Duration::from_secs(5)))
            .create_timeout(Some(Duration::from_secs(3)))
            .recycle_timeout(Some(Duration::from_secs(3)))
            .runtime(deadpool::Runtime::Tokio1)
            .build()
            .expect("a pool with a runtime and timeouts always builds");
        Self {
            pool,
            ready: Arc::new(AtomicBool::new(false)),
            url: database_url.to_owned(),
        }
    }

    pub fn is_ready(&self) -> bool {
        AtomicBool::load(&self.ready, Ordering::Acquire)
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
            return Err(StoreError::Unavailable("database not prepared yet".into()));
        }
        let conn = self
            .pool
            .get()
            .await
            .map_err(|e| StoreError::Unavailable(e.to_string()));
        let status = self.pool.status();
        crate::metrics::METRICS.record_pool(status.size, status.available, status.waiting);
        conn
    }

    /// Whether the database answers a trivial query now.
    pub async fn ping(&self) -> Result<(), StoreError> {
        let mut conn = self.conn().await?;
        diesel::sql_query("SELECT 1").execute(&mut conn).await?;
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

/// Opens a pool connection on [`connection_runtime`].
fn establish_on_connection_runtime(
    url: &str,
) -> std::pin::Pin<
    Box<dyn std::future::Future<Output = ConnectionResult<AsyncPgConnection>> + Send + '_>,
> {
    let url = url.to_owned();
    Box::pin(async move {
        connection_runtime()
            .spawn(async move { AsyncPgConnection::establish(&url).await })
            .await
            .unwrap_or_else(|e| Err(ConnectionError::BadConnection(e.to_string())))
    })
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
