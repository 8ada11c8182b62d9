//! Live matches kept in the instance between moves, so that a typical move reads nothing from the
//! database and writes with one statement.
//!
//! A cached match is only ever a guess: the append is conditional on the match's seat access and
//! status still being the cached ones and on no event beyond the cached version, so a copy made
//! stale by another instance (a move, a re-issued token, a renamed seat, an abandoned match)
//! writes nothing; the move then reads the match afresh and plays again. Moves on one match
//! within this instance queue on its slot, so they never race each other.
//!
//! The state is kept as the services layer typed it (the game's own type), never as a
//! `serde_json::Value` tree: a move and a read start from it without parsing, and it is written
//! out as text only when a snapshot is stored. A match read from the database holds its
//! snapshot's text until its first move here.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, SubsecRound, Utc};
use uuid::Uuid;

use super::probe::RematchLinks;
use crate::games::Viewer;
use crate::store::matches::{EventRow, MatchRow, SeatRow};
use crate::tagged::Tagged;

/// A match's state in the game's own type, kept between moves.
pub trait TypedState: Any + Send + Sync {
    fn as_any(&self) -> &dyn Any;
    /// The state as JSON text, for a snapshot.
    fn text(&self) -> Box<str>;
    /// The state as a JSON value, for a write that stores one.
    fn value(&self) -> serde_json::Value;
}

/// A live match's state.
pub enum LiveState {
    /// As read from the database: the snapshot's text (the tail still to be played on it).
    Text(Box<str>),
    /// As the last move here left it.
    Typed(Box<dyn TypedState>),
}

/// What a move needs of its match: the row (its `state` column left empty; its `version` the
/// version the match stands at), the seats (token hashes, players), the state at `state_at`,
/// and the events after `state_at` which that state does not hold yet.
pub struct LiveMatch {
    pub row: MatchRow,
    pub seats: Vec<SeatRow>,
    pub state: LiveState,
    pub state_at: i64,
    /// The events after `state_at`, up to `row.version`: a match read from the database stands
    /// at its snapshot, and its log may run ahead of it. Empty for a match moved here.
    pub tail: Vec<EventRow>,
    /// The version of the snapshot stored on the match row.
    pub snapshot: i64,
    /// The reads answered from this copy, until its next move.
    pub answers: Answers,
}

impl LiveMatch {
    /// A match as read from the database: its snapshot, moved out of the row into text, and the
    /// events after it.
    pub fn new(mut row: MatchRow, mut seats: Vec<SeatRow>, tail: Vec<EventRow>) -> Self {
        let state = LiveState::Text(std::mem::take(&mut row.state).to_string().into_boxed_str());
        // Read rows come in a vector grown for more: a live copy keeps only what it holds (at
        // 10,000 live matches the spare room was 1.5 MiB).
        seats.shrink_to_fit();
        let snapshot = row.version;
        if let Some(last) = tail.last() {
            row.version = last.ply;
            row.updated_at = last.created_at;
        }
        Self {
            row,
            seats,
            state,
            state_at: snapshot,
            tail,
            snapshot,
            answers: Answers::default(),
        }
    }

    /// The match after a stored move that did not end it; `snapshot` if it wrote one.
    pub(super) fn moved_to(
        mut self,
        version: i64,
        state: Box<dyn TypedState>,
        snapshot: Option<i64>,
        at: DateTime<Utc>,
    ) -> Self {
        self.row.version = version;
        // As the database keeps it (microseconds), so a read from here and one from there agree.
        self.row.updated_at = at.trunc_subsecs(6);
        self.state = LiveState::Typed(state);
        self.state_at = version;
        // Its room goes too, not only the events: a copy moved here has no tail again (the room
        // kept was 8 MiB at 10,000 live matches).
        self.tail = Vec::new();
        if let Some(snapshot) = snapshot {
            self.snapshot = snapshot;
        }
        self.answers = Answers::default();
        self
    }
}

/// Reads answered from one version of a live match, each written out once for its audience and
/// the rematch links it showed: whoever asks again gets the same bytes. A copy's answers go with
/// it when it moves on (or is forgotten); across all live matches they hold at most
/// [`ANSWER_BYTES`]' limit, and a read beyond it is answered but not kept.
#[derive(Default)]
pub struct Answers {
    kept: Mutex<Vec<(Viewer, RematchLinks, Arc<Tagged>)>>,
}

impl Answers {
    /// The answer kept for `viewer`, if it showed these `links`.
    pub fn get(&self, viewer: Viewer, links: RematchLinks) -> Option<Arc<Tagged>> {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.iter()
            .find(|(v, l, _)| *v == viewer && *l == links)
            .map(|(_, _, answer)| answer.clone())
    }

    /// Keeps `answer` for `viewer` (in place of one with other links), if the limit allows.
    pub fn keep(&self, viewer: Viewer, links: RematchLinks, answer: Arc<Tagged>) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(at) = kept.iter().position(|(v, _, _)| *v == viewer) {
            let (_, _, old) = kept.swap_remove(at);
            ANSWER_BYTES.give(old.size());
        }
        if ANSWER_BYTES.take(answer.size()) {
            kept.push((viewer, links, answer));
        }
    }
}

impl Drop for Answers {
    fn drop(&mut self) {
        let kept = self.kept.get_mut().unwrap_or_else(PoisonError::into_inner);
        for (_, _, answer) in kept.drain(..) {
            ANSWER_BYTES.give(answer.size());
        }
    }
}

/// The bytes of kept answers across every live match: a few thousand views' worth, so that the
/// cache's memory stays bounded however many matches are read between moves.
static ANSWER_BYTES: ByteBudget = ByteBudget::new(8 << 20);

/// A count of bytes in use that refuses to pass its limit.
struct ByteBudget {
    used: AtomicUsize,
    limit: usize,
}

impl ByteBudget {
    const fn new(limit: usize) -> Self {
        Self {
            used: AtomicUsize::new(0),
            limit,
        }
    }

    /// Counts `bytes` as used if that stays within the limit; false (nothing counted) if not.
    fn take(&self, bytes: usize) -> bool {
        self.used
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                used.checked_add(bytes).filter(|total| *total <= self.limit)
            })
            .is_ok()
    }

    fn give(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
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

    /// The match's slot if it has one, without making it the most recently used: for a read.
    pub fn existing(&self, id: Uuid) -> Option<Arc<Slot>> {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots.by_match.get(&id).map(|(slot, _)| slot.clone())
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
    fn the_answers_budget_refuses_what_would_pass_its_limit_and_takes_back_what_is_given() {
        let budget = ByteBudget::new(100);
        assert!(budget.take(60));
        assert!(!budget.take(41), "60 + 41 passes the limit of 100");
        assert!(budget.take(40));
        budget.give(60);
        assert!(budget.take(60));
        assert!(!budget.take(1));
    }

    #[test]
    fn an_answer_is_kept_per_audience_and_links_and_replaced_when_the_links_change() {
        let answers = Answers::default();
        let answer = |tag: &str| {
            Arc::new(Tagged {
                tag: tag.to_owned(),
                body: actix_web::web::Bytes::from_static(b"{}"),
            })
        };
        let (none, linked) = ((None, None), (Some(Uuid::new_v4()), None));
        answers.keep(Viewer::Seat(0), none, answer("seat 0"));
        answers.keep(Viewer::Spectator, none, answer("spectator"));
        assert_eq!(answers.get(Viewer::Seat(0), none).unwrap().tag, "seat 0");
        assert_eq!(
            answers.get(Viewer::Spectator, none).unwrap().tag,
            "spectator"
        );
        assert!(answers.get(Viewer::Seat(1), none).is_none());
        assert!(answers.get(Viewer::Full, none).is_none());
        assert!(answers.get(Viewer::Seat(0), linked).is_none());
        answers.keep(Viewer::Seat(0), linked, answer("seat 0, linked"));
        assert_eq!(
            answers.get(Viewer::Seat(0), linked).unwrap().tag,
            "seat 0, linked"
        );
        assert!(answers.get(Viewer::Seat(0), none).is_none());
    }

    #[test]
    fn a_cache_of_capacity_zero_keeps_nothing() {
        let cache = MoveCache::new(0);
        let id = Uuid::new_v4();
        assert!(!Arc::ptr_eq(&cache.slot(id), &cache.slot(id)));
        assert!(cache.is_empty());
    }
}
