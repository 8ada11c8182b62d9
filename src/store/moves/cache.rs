//! Live matches kept in the instance between moves, so that a typical move reads nothing from the
//! database and writes with one statement.
//!
//! A cached match is only ever a guess: the append is conditional on the match's seat access and
//! status still being the cached ones and on no event beyond the cached version, so a copy made
//! stale by another instance (a move, a re-issued token, a renamed seat, an abandoned match)
//! writes nothing; the move then reads the match afresh and plays again. Moves on one match
//! within this instance queue on its slot, so they never race each other.
//!
//! The state is kept as its JSON text rather than a `serde_json::Value` tree: a few kilobytes per
//! match instead of several times that, and parsing it into the game's own type is what a move
//! does with it anyway.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use uuid::Uuid;

use crate::store::matches::{EventRow, MatchRow, SeatRow};

/// What a move needs of its match: the row (its `state` column left empty; its `version` the
/// version the match stands at), the seats (token hashes, players), the state's text at
/// `state_at`, and the events after `state_at` which that state does not hold yet.
pub struct LiveMatch {
    pub row: MatchRow,
    pub seats: Vec<SeatRow>,
    pub state: Box<str>,
    pub state_at: i64,
    /// The events after `state_at`, up to `row.version`: a match read from the database stands
    /// at its snapshot, and its log may run ahead of it. Empty for a match moved here.
    pub tail: Vec<EventRow>,
    /// The version of the snapshot stored on the match row.
    pub snapshot: i64,
}

impl LiveMatch {
    /// A match as read from the database: its snapshot, moved out of the row into text, and the
    /// events after it.
    pub fn new(mut row: MatchRow, seats: Vec<SeatRow>, tail: Vec<EventRow>) -> Self {
        let state = std::mem::take(&mut row.state).to_string().into_boxed_str();
        let snapshot = row.version;
        row.version = tail.last().map_or(snapshot, |event| event.ply);
        Self {
            row,
            seats,
            state,
            state_at: snapshot,
            tail,
            snapshot,
        }
    }

    /// The match after a stored move that did not end it; `snapshot` if it wrote one.
    pub(super) fn moved_to(mut self, version: i64, state: Box<str>, snapshot: Option<i64>) -> Self {
        self.row.version = version;
        self.state = state;
        self.state_at = version;
        self.tail.clear();
        if let Some(snapshot) = snapshot {
            self.snapshot = snapshot;
        }
        self
    }
}

/// One match's place in the cache: empty until a move reads the match, emptied when a write finds
/// the copy stale.
pub type Slot = tokio::sync::Mutex<Option<LiveMatch>>;

/// At most `capacity` live matches, the least recently moved forgotten first.
pub struct MoveCache {
    capacity: usize,
    slots: Mutex<Slots>,
}

#[derive(Default)]
struct Slots {
    by_match: HashMap<Uuid, (Arc<Slot>, u64)>,
    clock: u64,
}

impl MoveCache {
    /// A cache of `capacity` matches; 0 turns caching off (every move reads its match).
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity,
            slots: Mutex::default(),
        }
    }

    /// The match's slot, created empty on first use. Lock it for the whole move.
    pub fn slot(&self, id: Uuid) -> Arc<Slot> {
        if self.capacity == 0 {
            return Arc::default();
        }
        // A panic elsewhere while holding the lock leaves the map consistent: keep using it.
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots.clock += 1;
        let now = slots.clock;
        let slot = match slots.by_match.get_mut(&id) {
            Some((slot, used)) => {
                *used = now;
                slot.clone()
            }
            None => {
                let slot = Arc::<Slot>::default();
                slots.by_match.insert(id, (slot.clone(), now));
                slot
            }
        };
        if slots.by_match.len() > self.capacity {
            slots.forget_oldest(self.capacity);
        }
        slot
    }

    /// Drops the match (finished, abandoned, or changed in a way moves do not track).
    pub fn forget(&self, id: Uuid) {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots.by_match.remove(&id);
    }

    /// How many matches have a slot.
    #[cfg(test)]
    fn len(&self) -> usize {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots.by_match.len()
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Slots {
    /// Shrinks to seven eighths of `capacity` at once, so the sort is paid once per many new
    /// matches rather than on each. A move still holding a forgotten slot finishes normally.
    fn forget_oldest(&mut self, capacity: usize) {
        let keep = capacity - capacity / 8;
        let mut ages: Vec<u64> = self.by_match.values().map(|(_, used)| *used).collect();
        let cut = ages.len() - keep;
        let (_, oldest_kept, _) = ages.select_nth_unstable(cut);
        let oldest_kept = *oldest_kept;
        self.by_match.retain(|_, (_, used)| *used >= oldest_kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_never_holds_more_matches_than_its_capacity() {
        let cache = MoveCache::new(100);
        for _ in 0..1_000 {
            cache.slot(Uuid::new_v4());
            assert!(cache.len() <= 100);
        }
        assert!(cache.len() >= 87, "it keeps seven eighths after shrinking");
    }

    #[test]
    fn the_least_recently_moved_match_is_forgotten_first() {
        let cache = MoveCache::new(8);
        let kept = Uuid::new_v4();
        let first = cache.slot(kept);
        for _ in 0..20 {
            // Touch the kept match between newcomers: it is always among the most recent.
            assert!(Arc::ptr_eq(&first, &cache.slot(kept)));
            cache.slot(Uuid::new_v4());
        }
    }

    #[test]
    fn a_forgotten_match_gets_a_fresh_empty_slot() {
        let cache = MoveCache::new(8);
        let id = Uuid::new_v4();
        let slot = cache.slot(id);
        cache.forget(id);
        assert!(!Arc::ptr_eq(&slot, &cache.slot(id)));
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn a_cache_of_capacity_zero_keeps_nothing() {
        let cache = MoveCache::new(0);
        let id = Uuid::new_v4();
        assert!(!Arc::ptr_eq(&cache.slot(id), &cache.slot(id)));
        assert!(cache.is_empty());
    }
}
