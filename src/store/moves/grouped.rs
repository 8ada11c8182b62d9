//! Requests of one kind served together: they queue, and a few tasks each take whatever is
//! queued (up to a bound) and serve it as one statement. Nothing waits on a timer: at low load a
//! batch is one request, served at once; under load the requests that arrived while the previous
//! statements were in flight go together. The group commit of appends ([`super::batch`]) and the
//! grouped probes of live copies ([`super::probe`]) are the two kinds.
//!
//! A request that finds nothing of its kind queued or being served has nothing to go with: it is
//! served alone by its caller, on a connection its own thread drives ([`super::solo`]), without
//! the hop to the serving tasks and back.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot, Mutex};

use crate::store::StoreError;

/// A queued request and where its answer goes.
pub struct Job<T, A> {
    pub request: T,
    pub done: oneshot::Sender<Result<A, StoreError>>,
}

/// A batch's jobs, each to be answered through its `done`.
pub type Batch<T, A> = Vec<Job<T, A>>;

/// The queue and its serving tasks.
pub struct Grouped<T, A> {
    queue: mpsc::Sender<Job<T, A>>,
    /// What the requests are, for the 503 when the tasks are gone ("move writers").
    servers: &'static str,
    /// Requests of this kind queued or being served, alone or together.
    pending: AtomicUsize,
}

/// Counts a request as pending until it is answered or given up.
struct Pending<'a>(&'a AtomicUsize);

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl<T: Send + 'static, A: Send + 'static> Grouped<T, A> {
    /// `tasks` tasks on `runtime`, each handing up to `max_batch` queued requests to `serve`;
    /// None when `max_batch` ≤ 1: then each request is served alone by its caller.
    pub fn start<F, Fut>(
        runtime: &tokio::runtime::Handle,
        tasks: usize,
        max_batch: usize,
        servers: &'static str,
        serve: F,
    ) -> Option<Self>
    where
        F: Fn(Batch<T, A>) -> Fut + Clone + Send + 'static,
        Fut: Future<Output = ()> + Send,
    {
        if max_batch <= 1 {
            return None;
        }
        let (sender, receiver) = mpsc::channel(max_batch * tasks * 4);
        let receiver = Arc::new(Mutex::new(receiver));
        for _ in 0..tasks {
            let (receiver, serve) = (receiver.clone(), serve.clone());
            runtime.spawn(async move {
                loop {
                    let mut batch = Vec::with_capacity(max_batch);
                    // Waits for one request, then takes whatever else is queued, up to the bound.
                    if receiver.lock().await.recv_many(&mut batch, max_batch).await == 0 {
                        return; // The service is shutting down.
                    }
                    serve(batch).await;
                }
            });
        }
        Some(Self {
            queue: sender,
            servers,
            pending: AtomicUsize::new(0),
        })
    }

    /// Serves `request` through `alone` when no other request of this kind is queued or being
    /// served, since there is nothing to put it with; otherwise queues it and waits for its
    /// answer.
    pub async fn submit(
        &self,
        request: T,
        alone: impl AsyncFnOnce(T) -> Result<A, StoreError>,
    ) -> Result<A, StoreError> {
        let first = self.pending.fetch_add(1, Ordering::AcqRel) == 0;
        let _pending = Pending(&self.pending);
        if first {
            return alone(request).await;
        }
        let stopped = || StoreError::Unavailable(format!("the {} have stopped", self.servers));
        let (done, answer) = oneshot::channel();
        self.queue
            .send(Job { request, done })
            .await
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

/// A grouped statement's SQL, without the values diesel's debug form lists after it: the text
/// each connection prepares, for checking the plan PostgreSQL keeps for it.
pub fn statement_text(query: &impl diesel::query_builder::QueryFragment<diesel::pg::Pg>) -> String {
    let text = diesel::debug_query::<diesel::pg::Pg, _>(query).to_string();
    match text.split_once(" -- binds:") {
        Some((sql, _)) => sql.to_owned(),
        None => text,
    }
}
