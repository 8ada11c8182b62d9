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
        })
    }
}
