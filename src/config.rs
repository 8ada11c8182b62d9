//! Settings from the environment, with defaults that work against the local PostgreSQL.

use std::net::SocketAddr;
use std::time::Duration;

/// What the service reads from its environment (the database timeouts are [`DatabaseTimeouts`]).
#[derive(Clone, Debug)]
pub struct Settings {
    /// `DATABASE_URL`: the database is created on start if it does not exist.
    pub database_url: String,
    /// `BIND_ADDRESS`: where the HTTP server listens.
    pub bind_address: SocketAddr,
    /// `DATABASE_POOL_SIZE`: connections kept to PostgreSQL.
    pub pool_size: usize,
    /// `BODY_LIMIT_BYTES`: larger request bodies are refused with 413.
    pub body_limit_bytes: usize,
    /// `WORKERS`: HTTP worker threads (defaults to the number of cores).
    pub workers: Option<usize>,
    /// `RATE_LIMIT_PER_SECOND`: sustained requests per second per client IP; 0 turns limiting off.
    pub rate_limit_per_second: u32,
    /// `RATE_LIMIT_BURST`: requests a client IP may send at once before the sustained rate applies.
    pub rate_limit_burst: u32,
    /// `CORS_ALLOWED_ORIGINS`: comma-separated origins browsers may call from (`*` for any);
    /// empty (the default) sends no CORS headers.
    pub cors_allowed_origins: Vec<String>,
}

/// How long one database statement may wait or run before PostgreSQL cancels it and the request
/// gets a retryable `503`, so that a locked row or a slow disk cannot hold a request (and its
/// pooled connection) indefinitely. Zero turns a timeout off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DatabaseTimeouts {
    /// `DATABASE_LOCK_TIMEOUT_MS`: longest wait for a row or table lock (`lock_timeout`).
    pub lock: Duration,
    /// `DATABASE_STATEMENT_TIMEOUT_MS`: longest run of one statement (`statement_timeout`).
    pub statement: Duration,
}

impl Default for DatabaseTimeouts {
    fn default() -> Self {
        Self {
            lock: Duration::from_secs(2),
            statement: Duration::from_secs(5),
        }
    }
}

impl DatabaseTimeouts {
    pub fn from_env() -> Result<Self, String> {
        let default = Self::default();
        let millis = |name: &str, default: Duration| {
            parsed(name, default.as_millis() as u64).map(Duration::from_millis)
        };
        Ok(Self {
            lock: millis("DATABASE_LOCK_TIMEOUT_MS", default.lock)?,
            statement: millis("DATABASE_STATEMENT_TIMEOUT_MS", default.statement)?,
        })
    }
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn parsed<T: std::str::FromStr>(name: &str, default: T) -> Result<T, String> {
    match var(name) {
        None => Ok(default),
        Some(text) => text
            .trim()
            .parse()
            .map_err(|_| format!("{name}={text:?} is not valid")),
    }
}

pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/referee";

impl Settings {
    pub fn from_env() -> Result<Self, String> {
        Ok(Self {
            database_url: var("DATABASE_URL").unwrap_or_else(|| DEFAULT_DATABASE_URL.to_owned()),
            bind_address: parsed("BIND_ADDRESS", SocketAddr::from(([127, 0, 0, 1], 8080)))?,
            pool_size: parsed("DATABASE_POOL_SIZE", 8)?,
            body_limit_bytes: parsed("BODY_LIMIT_BYTES", 256 * 1024)?,
            workers: var("WORKERS").map(|_| parsed("WORKERS", 0)).transpose()?,
            rate_limit_per_second: parsed("RATE_LIMIT_PER_SECOND", 100)?,
            rate_limit_burst: parsed("RATE_LIMIT_BURST", 200)?,
            cors_allowed_origins: var("CORS_ALLOWED_ORIGINS")
                .map(|v| {
                    v.split(',')
                        .map(|o| o.trim().to_owned())
                        .filter(|o| !o.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
        })
    }
}
