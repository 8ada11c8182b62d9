//! In-process fan-out of change notices to live streams, with caps per match and per instance.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

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
}

struct Subscriber {
    key: u64,
    nudge: mpsc::Sender<()>,
}

#[derive(Default)]
struct Subscribers {
    by_id: HashMap<Uuid, Vec<Subscriber>>,
    total: usize,
}

/// The subscribers of this instance, by match or sheet id.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Mutex<Subscribers>>,
    next_key: Arc<AtomicU64>,
    settings: LiveSettings,
}

/// One open stream's place in the [`Hub`]: nudged on every change to its id, removed on drop.
pub struct Subscription {
    hub: Hub,
    id: Uuid,
    key: u64,
    nudges: mpsc::Receiver<()>,
}

impl Hub {
    pub fn new(settings: LiveSettings) -> Self {
        Self {
            inner: Arc::default(),
            next_key: Arc::new(AtomicU64::new(0)),
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
        let (nudge, nudges) = mpsc::channel(self.settings.subscriber_buffer.max(1));
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        let mut subscribers = self.lock();
        if subscribers.total >= self.settings.streams_per_instance {
            return Err(SubscribeError::InstanceFull(
                self.settings.streams_per_instance,
            ));
        }
        let on_id = subscribers.by_id.entry(id).or_default();
        if on_id.len() >= self.settings.streams_per_match {
            return Err(SubscribeError::MatchFull(self.settings.streams_per_match));
        }
        on_id.push(Subscriber { key, nudge });
        subscribers.total += 1;
        METRICS.set_open_streams(subscribers.total);
        Ok(Subscription {
            hub: self.clone(),
            id,
            key,
            nudges,
        })
    }

    fn unsubscribe(&self, id: Uuid, key: u64) {
        let mut subscribers = self.lock();
        let Some(on_id) = subscribers.by_id.get_mut(&id) else {
            return;
        };
        let before = on_id.len();
        on_id.retain(|s| s.key != key);
        let removed = before - on_id.len();
        if on_id.is_empty() {
            subscribers.by_id.remove(&id);
        }
        subscribers.total -= removed;
        METRICS.set_open_streams(subscribers.total);
    }

    /// Nudges every subscriber of `id`. One whose nudges pile up past its buffer is reading too
    /// slowly: it is dropped (its stream ends) instead of being buffered for without limit.
    pub fn changed(&self, id: Uuid) {
        let mut subscribers = self.lock();
        let Some(on_id) = subscribers.by_id.get_mut(&id) else {
            return;
        };
        let before = on_id.len();
        on_id.retain(|s| match s.nudge.try_send(()) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(())) => {
                METRICS.record_stream_dropped("slow");
                false
            }
            // The stream has ended; its subscription is being dropped.
            Err(mpsc::error::TrySendError::Closed(())) => false,
        });
        let removed = before - on_id.len();
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

    /// Streams open now.
    pub fn open(&self) -> usize {
        self.lock().total
    }
}

impl Subscription {
    /// The next nudge, or `None` once the hub has dropped this subscriber.
    pub async fn changed(&mut self) -> Option<()> {
        self.nudges.recv().await
    }

    /// Discards nudges already waiting: the read that follows covers them.
    pub fn drain(&mut self) {
        while self.nudges.try_recv().is_ok() {}
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

    fn hub(per_match: usize, per_instance: usize, buffer: usize) -> Hub {
        Hub::new(LiveSettings {
            streams_per_match: per_match,
            streams_per_instance: per_instance,
            subscriber_buffer: buffer,
            ..LiveSettings::default()
        })
    }

    #[test]
    fn caps_count_streams_per_match_and_per_instance_and_free_them_on_drop() {
        let hub = hub(2, 3, 4);
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
    async fn a_subscriber_that_stops_reading_is_dropped_once_its_buffer_is_full() {
        let hub = hub(8, 8, 2);
        let id = Uuid::new_v4();
        let mut reader = hub.subscribe(id).unwrap();
        let mut idle = hub.subscribe(id).unwrap();
        for _ in 0..3 {
            hub.changed(id);
            assert_eq!(reader.changed().await, Some(()));
        }
        assert_eq!(hub.open(), 1, "the idle subscriber is gone");
        // Its two buffered nudges remain readable, then its stream learns it was dropped.
        assert_eq!(idle.changed().await, Some(()));
        assert_eq!(idle.changed().await, Some(()));
        assert_eq!(idle.changed().await, None);
    }
}
