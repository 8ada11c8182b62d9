//! Start-up: the one way the service is assembled from its [`Settings`]. `main.rs` and every test
//! harness call [`build`], so the tests run the service the binary runs, every setting honoured;
//! they differ only in what stops it ([`Application::run_until_stopped`] for the binary).

use std::net::{SocketAddr, TcpListener};

use actix_web::dev::Server;

use crate::config::Settings;
use crate::http::{self, Drain};
use crate::live::Hub;
use crate::matches::Feeds;
use crate::store::Store;

/// The service, listening but not yet serving.
pub struct Application {
    server: Server,
    address: SocketAddr,
    store: Store,
    hub: Hub,
    feeds: Feeds,
    drain: Drain,
    settings: Settings,
}

/// Assembles the service: the store (primary, replica, move cache and batch), the live hub and
/// its change listener, and the HTTP server bound to `settings.bind_address` (port 0 picks a free
/// port; see [`Application::address`]). The database is prepared in the background: stateless
/// endpoints serve at once, and match endpoints answer 503 until it is ready. Call it inside a
/// Tokio runtime.
pub fn build(settings: Settings) -> std::io::Result<Application> {
    let store = Store::with_timeouts(
        &settings.database_url,
        settings.pool_size,
        settings.database_timeouts,
    )
    .with_moves(settings.moves)
    .with_invite_keys(settings.invites.keys.clone());
    if settings.invites.keys.random {
        tracing::warn!(
            "INVITE_KEY is not set: invite codes are stored under a random key of this process, \
             so open invites stop working when it restarts and no other instance can redeem them"
        );
    }
    let store = match &settings.read_replica {
        Some(replica) => store.with_read_replica(replica),
        None => store,
    };
    store.prepare_in_background();
    // One hub and one change listener per instance, shared by every worker.
    let slots = settings.connection_slots();
    if settings.live.streams_per_instance > Some(settings.live.instance_cap(slots)) {
        tracing::warn!(
            cap = settings.live.instance_cap(slots),
            "LIVE_STREAMS_PER_INSTANCE is over half of the connection slots; lowered"
        );
    }
    let hub = Hub::new(settings.live, slots, &settings.trusted_proxies);
    // The database may not exist until the store has prepared it: listen from then on.
    let (prepared, database_url, listening) =
        (store.clone(), settings.database_url.clone(), hub.clone());
    tokio::spawn(async move {
        prepared.wait_ready().await;
        crate::live::listen(database_url, listening);
    });
    // One feed per followed match, shared by that match's streams in this instance.
    let feeds = Feeds::new(store.clone(), hub.clone());
    let listener = TcpListener::bind(settings.bind_address)?;
    let address = listener.local_addr()?;
    let drain = Drain::new(settings.shutdown_drain);
    let server = http::server(
        store.clone(),
        hub.clone(),
        feeds.clone(),
        drain.clone(),
        &settings,
        listener,
    )?;
    Ok(Application {
        server,
        address,
        store,
        hub,
        feeds,
        drain,
        settings,
    })
}

impl Application {
    /// Where the service listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The service's store, e.g. to wait until the database is ready.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The service's live feeds, e.g. to count how often they read.
    pub fn feeds(&self) -> &Feeds {
        &self.feeds
    }

    /// Serves until the runtime running it ends (a test's), handling no signals.
    pub async fn run(self) -> std::io::Result<()> {
        self.server.await
    }

    /// Serves until SIGTERM or SIGINT, then drains: `/readyz` answers 503 `draining` while
    /// everything else is still served for `SHUTDOWN_DRAIN_SECONDS`, so that a load balancer
    /// takes the instance out of rotation first; then the listener closes and the requests in
    /// flight finish. A second signal ends the drain early. Live streams end when the drain
    /// starts (their clients resume on another instance), so none holds the shutdown back.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let handle = self.server.handle();
        let period = self.settings.shutdown_drain;
        let drain = self.drain;
        let hub = self.hub;
        actix_web::rt::spawn(async move {
            let mut signals = match Signals::new() {
                Ok(signals) => signals,
                Err(error) => {
                    tracing::error!(%error, "cannot listen for stop signals; stopping");
                    handle.stop(true).await;
                    return;
                }
            };
            signals.next().await;
            drain.start();
            hub.close();
            if !period.is_zero() {
                tracing::info!(?period, "stop requested: draining (readiness fails)");
                tokio::select! {
                    () = actix_web::rt::time::sleep(period) => {}
                    () = signals.next() => tracing::info!("second stop signal: drain cut short"),
                }
            }
            tracing::info!("stopping: finishing the requests in flight");
            handle.stop(true).await;
        });
        tracing::info!(address = %self.address, "referee listening");
        let served = self.server.await;
        tracing::info!("stopped");
        served
    }
}

/// SIGTERM (what orchestrators send) and SIGINT (Ctrl-C), whichever comes.
struct Signals {
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
}

impl Signals {
    #[cfg(unix)]
    fn new() -> std::io::Result<Self> {
        use tokio::signal::unix::{signal, SignalKind};
        Ok(Self {
            terminate: signal(SignalKind::terminate())?,
            interrupt: signal(SignalKind::interrupt())?,
        })
    }

    #[cfg(not(unix))]
    fn new() -> std::io::Result<Self> {
        Ok(Self {})
    }

    #[cfg(unix)]
    async fn next(&mut self) {
        tokio::select! {
            _ = self.terminate.recv() => {}
            _ = self.interrupt.recv() => {}
        }
    }

    #[cfg(not(unix))]
    async fn next(&mut self) {
        let _ = tokio::signal::ctrl_c().await;
    }
}
