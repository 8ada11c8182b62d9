//! In-process fan-out of change notices to live streams, with caps per match and per instance.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use tokio::sync::mpsc;
use uuid::Uuid;

use crate::config::LiveSettings;
use crate::metrics::METRICS;

/// Why a stream could not be opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscribeError {
    /// This match or sheet already has `streams_per_match` streams here.
    MatchFull(usize),
    /// This instance already serves `streams_per_instance` streams.
    InstanceFull(usize),
    /// This instance is stopping: its streams have ended and it opens no more.
    Stopping,
}

struct Subscriber {
    key: u64,
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
    pub fn new(settings: LiveSettings) -> Self {
        Self {
            inner: Arc::default(),
            next_key: Arc::new(AtomicU64::new(0)),
            started: Instant::now(),
            settings,
        }
    }

    pub fn settings(&self) -> &LiveSettings {
        &self.settings
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Subscribers> {
        // The map stays consistent whatever a panicking holder did: every change is one call.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a stream on `id`, within the caps.
    pub fn subscribe(&self, id: Uuid) -> Result<Subscription, SubscribeError> {
        self.register(id, true)
    }

    /// Registers the one reader that serves every stream of `id` in this instance (a match's
    /// feed): nudged like a stream, but not counted against the caps, and never dropped as slow
    /// (a read taking long is not a client that stopped reading). It ends when the hub closes.
    pub fn watch(&self, id: Uuid) -> Result<Subscription, SubscribeError> {
        self.register(id, false)
    }

    fn register(&self, id: Uuid, counted: bool) -> Result<Subscription, SubscribeError> {
        let (nudge, nudges) = mpsc::channel(1);
        let waiting_since = Arc::new(AtomicU64::new(0));
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        let mut subscribers = self.lock();
        if subscribers.closed {
            return Err(SubscribeError::Stopping);
        }
        if counted && subscribers.total >= self.settings.streams_per_instance {
            return Err(SubscribeError::InstanceFull(
                self.settings.streams_per_instance,
            ));
        }
        let on_id = subscribers.by_id.entry(id).or_default();
        if counted && counted_in(on_id) >= self.settings.streams_per_match {
            return Err(SubscribeError::MatchFull(self.settings.streams_per_match));
        }
        on_id.push(Subscriber {
            key,
            counted,
            nudge,
            waiting_since: waiting_since.clone(),
        });
        subscribers.total += usize::from(counted);
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
        let before = counted_in(on_id);
        on_id.retain(|s| s.key != key);
        let removed = before - counted_in(on_id);
        if on_id.is_empty() {
            subscribers.by_id.remove(&id);
        }
        subscribers.total -= removed;
        METRICS.set_open_streams(subscribers.total);
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
        let before = counted_in(on_id);
        on_id.retain(|s| {
            if !nudged(s) {
                return true;
            }
            match s.nudge.try_send(()) {
                Ok(()) => {
                    s.waiting_since.store(now, Ordering::Relaxed);
                    true
                }
                Err(mpsc::error::TrySendError::Full(())) => {
                    let since = s.waiting_since.load(Ordering::Relaxed);
                    let stuck = s.counted && since != 0 && now.saturating_sub(since) >= slow_after;
                    if stuck {
                        METRICS.record_stream_dropped("slow");
                    }
                    !stuck
                }
                // The stream has ended; its subscription is being dropped.
                Err(mpsc::error::TrySendError::Closed(())) => false,
            }
        });
        let removed = before - counted_in(on_id);
        if on_id.is_empty() {
            subscribers.by_id.remove(&id);
        }
        subscribers.total -= removed;
        METRICS.set_open_streams(subscribers.total);
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

/// The streams among `id`'s subscribers (a feed's watch is not one).
fn counted_in(on_id: &[Subscriber]) -> usize {
    on_id.iter().filter(|s| s.counted).count()
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
        Hub::new(LiveSettings {
            streams_per_match: per_match,
            streams_per_instance: per_instance,
            slow_subscriber: slow,
            ..LiveSettings::default()
        })
    }

    #[test]
    fn closing_the_hub_ends_every_stream_and_refuses_new_ones() {
        let hub = hub(4, 8, std::time::Duration::from_secs(30));
        let id = Uuid::new_v4();
        let mut open = hub.subscribe(id).unwrap();
        hub.close();
        assert_eq!(hub.open(), 0);
        let ended = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(open.changed());
        assert_eq!(ended, None, "the stream's subscription has ended");
        assert_eq!(hub.subscribe(id).err(), Some(SubscribeError::Stopping));
        drop(open);
        assert_eq!(hub.open(), 0);
    }

    #[test]
    fn caps_count_streams_per_match_and_per_instance_and_free_them_on_drop() {
        let hub = hub(2, 3, std::time::Duration::from_secs(30));
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let first = hub.subscribe(a).unwrap();
        let _second = hub.subscribe(a).unwrap();
        assert_eq!(hub.subscribe(a).err(), Some(SubscribeError::MatchFull(2)));
        let _third = hub.subscribe(b).unwrap();
        assert_eq!(
            hub.subscribe(b).err(),
            Some(SubscribeError::InstanceFull(3))
        );
        drop(first);
        assert_eq!(hub.open(), 2);
        assert!(hub.subscribe(a).is_ok());
    }

    #[tokio::test]
    async fn a_feeds_watch_takes_the_changes_and_no_place_under_the_caps_and_its_streams_are_fed_after(
    ) {
        let hub = hub(1, 1, std::time::Duration::ZERO);
        let id = Uuid::new_v4();
        let mut stream = hub.subscribe(id).unwrap();
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
        let mut behind = patient.subscribe(id).unwrap();
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
        let mut reader = strict.subscribe(id).unwrap();
        let mut idle = strict.subscribe(id).unwrap();
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
