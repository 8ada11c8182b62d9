//! In-process fan-out of change notices to live streams, with caps per match and per instance.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use tokio::sync::mpsc;
use uuid::Uuid;

use super::peer::Connection;
use crate::config::{household, LiveSettings, Network};
use crate::metrics::METRICS;

/// Why a stream could not be opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscribeError {
    /// This match or sheet already has `streams_per_match` spectator streams here.
    MatchFull(usize),
    /// This client address already holds `streams_per_client` streams here.
    ClientFull(usize),
    /// This token already holds `streams_per_token` streams here.
    TokenFull(usize),
    /// This instance already serves `streams_per_instance` streams.
    InstanceFull(usize),
    /// This instance is stopping: its streams have ended and it opens no more.
    Stopping,
}

/// Who opens a stream: what its caps are counted by.
#[derive(Default)]
pub struct Opener {
    /// The client address (as the rate limiter sees it); `None` for a stream of no client.
    pub client: Option<IpAddr>,
    /// The token given, if any: a stream with one is the owner's or a seat's (the handler refuses
    /// it otherwise), counted per token and not under the per-match cap of spectators.
    pub token: Option<String>,
    /// The stream's connection, cut when the stream is dropped as slow.
    pub connection: Option<Connection>,
}

/// What a client address's streams are counted under: the address (an IPv6 /64), and whether
/// the streams carry a token. Spectators and token holders at one address have an allowance each,
/// so spectators at a family's router (or a café's) never hold a seat out of its own match.
type ClientKey = (IpAddr, bool);

struct Subscriber {
    key: u64,
    client: Option<ClientKey>,
    token: Option<u64>,
    connection: Option<Connection>,
    /// A stream, counted against the caps; a feed's watch (see [`Hub::watch`]) is not, and is
    /// never dropped as slow.
    counted: bool,
    /// Holds at most one nudge: nudges say only "read again", so one waiting covers any number.
    nudge: mpsc::Sender<()>,
    /// When the waiting nudge was sent (milliseconds since the hub started, plus one), or 0 when
    /// none waits; the stream clears it as it takes the nudge.
    waiting_since: Arc<AtomicU64>,
}

#[derive(Default)]
struct Subscribers {
    by_id: HashMap<Uuid, Vec<Subscriber>>,
    total: usize,
    by_client: HashMap<ClientKey, usize>,
    by_token: HashMap<u64, usize>,
    /// Set by [`Hub::close`]: no stream opens any more.
    closed: bool,
}

/// The subscribers of this instance, by match or sheet id.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Mutex<Subscribers>>,
    next_key: Arc<AtomicU64>,
    started: Instant,
    settings: LiveSettings,
    /// The instance's cap on streams (see [`LiveSettings::instance_cap`]).
    instance_cap: usize,
    /// Tokens are counted by a keyed hash, never kept.
    tokens: RandomState,
    /// `TRUSTED_PROXIES`, to tell a stream's client address as the rate limiter does.
    trusted_proxies: Arc<[Network]>,
}

/// One open stream's place in the [`Hub`]: nudged on every change to its id, removed on drop.
pub struct Subscription {
    hub: Hub,
    id: Uuid,
    key: u64,
    nudges: mpsc::Receiver<()>,
    waiting_since: Arc<AtomicU64>,
}

impl Hub {
    /// A hub for an instance of `connection_slots` connections (workers x `MAX_CONNECTIONS`).
    pub fn new(
        settings: LiveSettings,
        connection_slots: usize,
        trusted_proxies: &[Network],
    ) -> Self {
        Self {
            inner: Arc::default(),
            next_key: Arc::new(AtomicU64::new(0)),
            started: Instant::now(),
            instance_cap: settings.instance_cap(connection_slots),
            settings,
            tokens: RandomState::new(),
            trusted_proxies: trusted_proxies.into(),
        }
    }

    pub fn trusted_proxies(&self) -> &[Network] {
        &self.trusted_proxies
    }

    pub fn settings(&self) -> &LiveSettings {
        &self.settings
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Subscribers> {
        // The map stays consistent whatever a panicking holder did: every change is one call.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a stream on `id`, within the caps.
    pub fn subscribe(&self, id: Uuid, opener: Opener) -> Result<Subscription, SubscribeError> {
        self.register(id, Some(opener))
    }

    /// Registers the one reader that serves every stream of `id` in this instance (a match's
    /// feed): nudged like a stream, but not counted against the caps, and never dropped as slow
    /// (a read taking long is not a client that stopped reading). It ends when the hub closes.
    pub fn watch(&self, id: Uuid) -> Result<Subscription, SubscribeError> {
        self.register(id, None)
    }

    /// Whether the hub has closed (the instance stops).
    pub fn is_closed(&self) -> bool {
        self.lock().closed
    }

    fn register(&self, id: Uuid, opener: Option<Opener>) -> Result<Subscription, SubscribeError> {
        let counted = opener.is_some();
        let Opener {
            client,
            token,
            connection,
        } = opener.unwrap_or_default();
        let client = client.map(|c| (household(c), token.is_some()));
        let token = token.map(|t| self.tokens.hash_one(t));
        let spectator = counted && token.is_none();
        let (nudge, nudges) = mpsc::channel(1);
        let waiting_since = Arc::new(AtomicU64::new(0));
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        let mut subscribers = self.lock();
        if subscribers.closed {
            return Err(SubscribeError::Stopping);
        }
        if counted {
            // Spectators leave a quarter of the instance's streams to owners and seats.
            let cap = self.instance_cap;
            let open = if spectator { cap - cap / 4 } else { cap };
            if subscribers.total >= open {
                return Err(SubscribeError::InstanceFull(cap));
            }
            let per_client = self.settings.streams_per_client;
            if client
                .is_some_and(|c| subscribers.by_client.get(&c).copied().unwrap_or(0) >= per_client)
            {
                return Err(SubscribeError::ClientFull(per_client));
            }
            let per_token = self.settings.streams_per_token;
            if token
                .is_some_and(|t| subscribers.by_token.get(&t).copied().unwrap_or(0) >= per_token)
            {
                return Err(SubscribeError::TokenFull(per_token));
            }
        }
        let on_id = subscribers.by_id.entry(id).or_default();
        if spectator && spectators_in(on_id) >= self.settings.streams_per_match {
            return Err(SubscribeError::MatchFull(self.settings.streams_per_match));
        }
        on_id.push(Subscriber {
            key,
            client,
            token,
            connection,
            counted,
            nudge,
            waiting_since: waiting_since.clone(),
        });
        if counted {
            subscribers.total += 1;
            if let Some(client) = client {
                *subscribers.by_client.entry(client).or_default() += 1;
            }
            if let Some(token) = token {
                *subscribers.by_token.entry(token).or_default() += 1;
            }
        }
        METRICS.set_open_streams(subscribers.total);
        Ok(Subscription {
            hub: self.clone(),
            id,
            key,
            nudges,
            waiting_since,
        })
    }

    fn unsubscribe(&self, id: Uuid, key: u64) {
        let mut subscribers = self.lock();
        let Some(on_id) = subscribers.by_id.get_mut(&id) else {
            return;
        };
        let removed = take_out(on_id, |s| s.key == key);
        if on_id.is_empty() {
            subscribers.by_id.remove(&id);
        }
        subscribers.forget(removed);
    }

    /// A change to `id`: nudges the feed watching it, if one does (the feed reads the change,
    /// then nudges the streams with [`Hub::fed`]), else every stream of `id`.
    pub fn changed(&self, id: Uuid) {
        self.nudge(id, Nudged::Readers);
    }

    /// The feed of `id` has read a change and handed it to its streams: nudges them, so that
    /// each wakes once, with its update ready.
    pub fn fed(&self, id: Uuid) {
        self.nudge(id, Nudged::Streams);
    }

    /// Nudges the subscribers of `id` that `which` names. A stream that has left a nudge untaken
    /// for longer than `slow_subscriber` is stuck (its client stopped reading, so its stream is
    /// not polled): it is dropped and its stream ends, rather than holding its place for ever.
    fn nudge(&self, id: Uuid, which: Nudged) {
        // Never 0, which means "nothing waiting".
        let now = self.started.elapsed().as_millis() as u64 + 1;
        let slow_after = self.settings.slow_subscriber.as_millis() as u64;
        let mut subscribers = self.lock();
        let Some(on_id) = subscribers.by_id.get_mut(&id) else {
            return;
        };
        let watched = on_id.iter().any(|s| !s.counted);
        let nudged = |s: &Subscriber| match which {
            Nudged::Readers => s.counted != watched,
            Nudged::Streams => s.counted,
        };
        let removed = take_out(on_id, |s| {
            if !nudged(s) {
                return false;
            }
            match s.nudge.try_send(()) {
                Ok(()) => {
                    s.waiting_since.store(now, Ordering::Relaxed);
                    false
                }
                Err(mpsc::error::TrySendError::Full(())) => {
                    let since = s.waiting_since.load(Ordering::Relaxed);
                    let stuck = s.counted && since != 0 && now.saturating_sub(since) >= slow_after;
                    if stuck {
                        METRICS.record_stream_dropped("slow");
                        // Its body is not polled while the send buffer is full, so the stream
                        // cannot end itself: the connection is cut, or it would hold its buffers.
                        if let Some(connection) = &s.connection {
                            connection.cut();
                        }
                    }
                    stuck
                }
                // The stream has ended; its subscription is being dropped.
                Err(mpsc::error::TrySendError::Closed(())) => true,
            }
        });
        if on_id.is_empty() {
            subscribers.by_id.remove(&id);
        }
        subscribers.forget(removed);
    }

    /// Nudges every subscriber: after the listener reconnects, notices sent while it was away
    /// are lost, so every stream reads what it may have missed.
    pub fn changed_all(&self) {
        let ids: Vec<Uuid> = self.lock().by_id.keys().copied().collect();
        for id in ids {
            self.changed(id);
        }
    }

    /// Ends every stream and refuses new ones, when the instance stops: an open stream would
    /// otherwise hold its connection, and so the shutdown, until the stop timeout. Clients
    /// resume elsewhere with `Last-Event-ID`.
    pub fn close(&self) {
        let mut subscribers = self.lock();
        subscribers.closed = true;
        subscribers.by_id.clear();
        subscribers.total = 0;
        subscribers.by_client.clear();
        subscribers.by_token.clear();
        METRICS.set_open_streams(0);
    }

    /// Streams open now.
    pub fn open(&self) -> usize {
        self.lock().total
    }
}

/// Whom a nudge is for.
#[derive(Clone, Copy)]
enum Nudged {
    /// Whoever reads a change: the feed watching the id, or, without one, every stream.
    Readers,
    /// The streams, once their feed has read the change.
    Streams,
}

/// The spectator streams among `id`'s subscribers.
fn spectators_in(on_id: &[Subscriber]) -> usize {
    on_id
        .iter()
        .filter(|s| s.counted && s.token.is_none())
        .count()
}

/// Removes the subscribers `gone` picks, and returns them.
fn take_out(
    on_id: &mut Vec<Subscriber>,
    mut gone: impl FnMut(&Subscriber) -> bool,
) -> Vec<Subscriber> {
    let mut removed = Vec::new();
    let mut kept = Vec::with_capacity(on_id.len());
    for s in on_id.drain(..) {
        if gone(&s) {
            removed.push(s);
        } else {
            kept.push(s);
        }
    }
    *on_id = kept;
    removed
}

impl Subscribers {
    /// Takes removed subscribers off the counts.
    fn forget(&mut self, removed: Vec<Subscriber>) {
        for s in removed.into_iter().filter(|s| s.counted) {
            self.total -= 1;
            if let Some(client) = s.client {
                decrement(&mut self.by_client, client);
            }
            if let Some(token) = s.token {
                decrement(&mut self.by_token, token);
            }
        }
        METRICS.set_open_streams(self.total);
    }
}

fn decrement<K: std::hash::Hash + Eq>(counts: &mut HashMap<K, usize>, key: K) {
    if let Some(count) = counts.get_mut(&key) {
        *count -= 1;
        if *count == 0 {
            counts.remove(&key);
        }
    }
}

impl Subscription {
    /// The next nudge, or `None` once the hub has dropped this subscriber.
    pub async fn changed(&mut self) -> Option<()> {
        let nudge = self.nudges.recv().await;
        self.waiting_since.store(0, Ordering::Relaxed);
        nudge
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.hub.unsubscribe(self.id, self.key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hub(per_match: usize, per_instance: usize, slow: std::time::Duration) -> Hub {
        Hub::new(
            LiveSettings {
                streams_per_match: per_match,
                streams_per_instance: Some(per_instance),
                slow_subscriber: slow,
                streams_per_client: 100,
                ..LiveSettings::default()
            },
            1 << 20,
            &[],
        )
    }

    #[test]
    fn closing_the_hub_ends_every_stream_and_refuses_new_ones() {
        let hub = hub(4, 8, std::time::Duration::from_secs(30));
        let id = Uuid::new_v4();
        let mut open = hub.subscribe(id, Opener::default()).unwrap();
        hub.close();
        assert_eq!(hub.open(), 0);
        let ended = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(open.changed());
        assert_eq!(ended, None, "the stream's subscription has ended");
        assert_eq!(
            hub.subscribe(id, Opener::default()).err(),
            Some(SubscribeError::Stopping)
        );
        drop(open);
        assert_eq!(hub.open(), 0);
    }

    #[test]
    fn caps_count_streams_per_match_and_per_instance_and_free_them_on_drop() {
        let hub = hub(2, 3, std::time::Duration::from_secs(30));
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let first = hub.subscribe(a, Opener::default()).unwrap();
        let _second = hub.subscribe(a, Opener::default()).unwrap();
        assert_eq!(
            hub.subscribe(a, Opener::default()).err(),
            Some(SubscribeError::MatchFull(2))
        );
        let _third = hub.subscribe(b, Opener::default()).unwrap();
        assert_eq!(
            hub.subscribe(b, Opener::default()).err(),
            Some(SubscribeError::InstanceFull(3))
        );
        drop(first);
        assert_eq!(hub.open(), 2);
        assert!(hub.subscribe(a, Opener::default()).is_ok());
    }

    fn from(client: &str, token: Option<&str>) -> Opener {
        Opener {
            client: Some(client.parse().unwrap()),
            token: token.map(str::to_owned),
            connection: None,
        }
    }

    #[test]
    fn clients_and_tokens_have_their_own_caps_and_tokens_skip_the_spectators_cap() {
        let hub = Hub::new(
            LiveSettings {
                streams_per_match: 1,
                streams_per_instance: Some(16),
                streams_per_client: 3,
                streams_per_token: 2,
                ..LiveSettings::default()
            },
            1 << 20,
            &[],
        );
        let id = Uuid::new_v4();
        let _spectator = hub.subscribe(id, from("10.0.0.1", None)).unwrap();
        assert_eq!(
            hub.subscribe(id, from("10.0.0.2", None)).err(),
            Some(SubscribeError::MatchFull(1))
        );
        let seat = hub.subscribe(id, from("10.0.0.1", Some("seat"))).unwrap();
        let _seat_again = hub.subscribe(id, from("10.0.0.2", Some("seat"))).unwrap();
        assert_eq!(
            hub.subscribe(id, from("10.0.0.3", Some("seat"))).err(),
            Some(SubscribeError::TokenFull(2))
        );
        let _owner = hub.subscribe(id, from("10.0.0.1", Some("owner"))).unwrap();
        let _third = hub.subscribe(id, from("10.0.0.1", Some("third"))).unwrap();
        assert_eq!(
            hub.subscribe(Uuid::new_v4(), from("10.0.0.1", Some("fourth")))
                .err(),
            Some(SubscribeError::ClientFull(3)),
            "three token streams from 10.0.0.1"
        );
        // Spectators at that address have an allowance of their own, and fill only it.
        let _watching = hub
            .subscribe(Uuid::new_v4(), from("10.0.0.1", None))
            .unwrap();
        let _watching = hub
            .subscribe(Uuid::new_v4(), from("10.0.0.1", None))
            .unwrap();
        assert_eq!(
            hub.subscribe(Uuid::new_v4(), from("10.0.0.1", None)).err(),
            Some(SubscribeError::ClientFull(3))
        );
        // An IPv6 client is its /64.
        let _v6 = hub
            .subscribe(Uuid::new_v4(), from("2001:db8::1", Some("a")))
            .unwrap();
        let _v6 = hub
            .subscribe(Uuid::new_v4(), from("2001:db8::2", Some("b")))
            .unwrap();
        let _v6 = hub
            .subscribe(Uuid::new_v4(), from("2001:db8::3", Some("c")))
            .unwrap();
        assert_eq!(
            hub.subscribe(Uuid::new_v4(), from("2001:db8::4", Some("d")))
                .err(),
            Some(SubscribeError::ClientFull(3))
        );
        drop(seat);
        assert!(hub.subscribe(id, from("10.0.0.3", Some("seat"))).is_ok());
        assert_eq!(hub.open(), 9, "the last one was dropped at once");
    }

    #[test]
    fn spectators_leave_a_quarter_of_the_instance_to_owners_and_seats_and_the_cap_is_at_most_half_the_connections(
    ) {
        let settings = LiveSettings {
            streams_per_instance: Some(8),
            ..LiveSettings::default()
        };
        assert_eq!(settings.instance_cap(10), 5);
        assert_eq!(LiveSettings::default().instance_cap(2 * 1024), 1024);
        let hub = Hub::new(settings, 1 << 20, &[]);
        let held: Vec<_> = (0..6)
            .map(|_| hub.subscribe(Uuid::new_v4(), Opener::default()).unwrap())
            .collect();
        assert_eq!(
            hub.subscribe(Uuid::new_v4(), Opener::default()).err(),
            Some(SubscribeError::InstanceFull(8))
        );
        let seat = || Opener {
            token: Some("seat".into()),
            ..Opener::default()
        };
        let _a = hub.subscribe(Uuid::new_v4(), seat()).unwrap();
        let _b = hub
            .subscribe(
                Uuid::new_v4(),
                Opener {
                    token: Some("other".into()),
                    ..Opener::default()
                },
            )
            .unwrap();
        assert_eq!(
            hub.subscribe(Uuid::new_v4(), seat()).err(),
            Some(SubscribeError::InstanceFull(8))
        );
        drop(held);
    }

    #[tokio::test]
    async fn a_feeds_watch_takes_the_changes_and_no_place_under_the_caps_and_its_streams_are_fed_after(
    ) {
        let hub = hub(1, 1, std::time::Duration::ZERO);
        let id = Uuid::new_v4();
        let mut stream = hub.subscribe(id, Opener::default()).unwrap();
        hub.changed(id);
        assert_eq!(
            stream.changed().await,
            Some(()),
            "without a feed, streams read"
        );
        let mut watch = hub.watch(id).unwrap();
        assert_eq!(hub.open(), 1, "the watch is not a stream");
        hub.changed(id);
        hub.changed(id);
        assert_eq!(hub.open(), 1, "with a feed, the change is the feed's");
        assert_eq!(watch.changed().await, Some(()));
        assert!(
            stream.nudges.try_recv().is_err(),
            "the stream waits for its feed"
        );
        hub.fed(id);
        assert_eq!(hub.open(), 1, "a first nudge waits for the stream");
        hub.fed(id);
        assert_eq!(hub.open(), 0, "the stream that took no nudge is dropped");
        hub.changed(id);
        hub.changed(id);
        hub.close();
        assert_eq!(
            watch.changed().await,
            Some(()),
            "an idle watch is never dropped"
        );
        assert_eq!(
            watch.changed().await,
            None,
            "closing the hub ends the watch"
        );
    }

    #[tokio::test]
    async fn nudges_coalesce_and_a_subscriber_that_stops_taking_them_is_dropped() {
        let patient = hub(8, 8, std::time::Duration::from_secs(3600));
        let id = Uuid::new_v4();
        let mut behind = patient.subscribe(id, Opener::default()).unwrap();
        for _ in 0..100 {
            patient.changed(id);
        }
        assert_eq!(
            patient.open(),
            1,
            "a subscriber behind, but not stuck, stays"
        );
        assert_eq!(behind.changed().await, Some(()));
        assert!(
            behind.nudges.try_recv().is_err(),
            "one nudge covers them all"
        );

        let strict = hub(8, 8, std::time::Duration::ZERO);
        let mut reader = strict.subscribe(id, Opener::default()).unwrap();
        let mut idle = strict.subscribe(id, Opener::default()).unwrap();
        for _ in 0..3 {
            strict.changed(id);
            assert_eq!(reader.changed().await, Some(()));
        }
        assert_eq!(strict.open(), 1, "the idle subscriber is gone");
        // Its waiting nudge remains readable, then its stream learns it was dropped.
        assert_eq!(idle.changed().await, Some(()));
        assert_eq!(idle.changed().await, None);
    }
}
