//! Settings from the environment, with defaults that work against the local PostgreSQL.

use std::net::SocketAddr;

/// Everything the service reads from its environment.
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

pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/referee";

impl Settings {
    pub fn from_env() -> Result<Self, String> {
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
