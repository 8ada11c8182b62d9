//! Connections driven by the thread that uses them, for the statements of a quiet instance.
//!
//! The pool's connections are driven on the `db-connections` thread (see
//! [`connection_runtime`](crate::store)), so every statement hops there and back: two thread
//! wake-ups, which is what a single move waits for beside its own statement and commit. Under
//! load that hop is what lets the group commit batch moves from every HTTP worker together. When
//! nothing else of its kind is queued or in flight, there is nothing to batch with: the statement
//! is then sent on a connection the request's own thread drives ([`Grouped::submit`]'s `alone`).
//!
//! Each thread keeps its own small pool per store. A connection is opened by a request on that
//! thread and used only by requests on that thread, so a worker stopping at a shutdown closes
//! only connections its own finished requests used.
//!
//! [`Grouped::submit`]: super::grouped::Grouped::submit

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::AsyncPgConnection;

use crate::config::DatabaseTimeouts;
use crate::store::{pool_with_waits, Driven};

/// Connections per thread and store. Only a request that finds nothing of its kind pending
/// comes here, so an instance has at most one append and one probe alone at a time; should both
/// be on one thread, the second waits for the first's statement.
const PER_THREAD: usize = 1;

/// Where a store's threads find their own connections.
pub struct SoloConnections {
    /// Tells this store's pools from another store's on the same thread (tests run several).
    key: u64,
    url: String,
    timeouts: DatabaseTimeouts,
}

thread_local! {
    static POOLS: RefCell<HashMap<u64, Pool<AsyncPgConnection>>> = RefCell::default();
}

impl SoloConnections {
    pub fn new(url: &str, timeouts: DatabaseTimeouts) -> Self {
        static KEYS: AtomicU64 = AtomicU64::new(0);
        Self {
            key: KEYS.fetch_add(1, Ordering::Relaxed),
            url: url.to_owned(),
            timeouts,
        }
    }

    /// This thread's pool, opened on first use; its connections connect lazily.
    pub fn pool(&self) -> Pool<AsyncPgConnection> {
        POOLS.with_borrow_mut(|pools| {
            pools
                .entry(self.key)
                .or_insert_with(|| {
                    pool_with_waits(
                        &self.url,
                        PER_THREAD,
                        self.timeouts,
                        crate::store::PRIMARY_WAITS,
                        Driven::Here,
                    )
                })
                .clone()
        })
    }
}
