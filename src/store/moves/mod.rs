//! The move pipeline's storage, in one place: the live match cache, the optimistic retry, the
//! group commit of appends, the finishing transaction and the locked fallback. The services layer
//! hands [`Store::play`] a judge (authenticate, referee, reply) and gets the reply back once the
//! move is committed; it never sees how the match was read or how the move was written.
//!
//! A move does not take a lock. It is judged on the cached match (or the match read without a
//! lock), and its events are appended only if the stored match is still that one: still in
//! progress, with the same seat access and no event after the version it was judged at (the
//! log's key `(match_id, ply)` backs that up when two instances append at once). A move that does
//! not end its match writes its events and, every [`MoveSettings::snapshot_every`] plies, the
//! snapshot on the match row; moves to different matches that arrive together share one
//! statement and one commit ([`batch`]). A move that ends its match also writes the seats'
//! results and the players' running totals, in one transaction under the same checks. A move
//! that lost the race, or was refused on a cached copy, is read and judged again (up to three
//! tries); one that keeps losing is judged and written with the match row locked.

pub mod batch;
mod cache;
mod grouped;
pub mod probe;
pub mod solo;

use std::marker::PhantomData;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use self::batch::{lost_race, Append, GroupCommit};
use self::cache::MoveCache;
pub use self::cache::{LiveMatch, LiveState, TypedState};
use self::probe::{GroupProbe, Probe, RematchLinks};
use self::solo::SoloConnections;
use super::matches::{self as q, EventRow};
use super::results::Happened;
use super::schema::{match_events, matches};
use super::snapshot::{FinishedMatch, Snapshot};
use super::write::{Change, Decision, Events, Judge, Locked, Write};
use super::{Store, StoreError, UnknownRecord};
use crate::config::MoveSettings;
use crate::vocabulary::{MatchKind, MatchStatus};

/// What the judge decided about a request, given the match as it stands.
pub enum Plan<R, E> {
    /// Nothing to store: answer this (an idempotent retry's first answer).
    Answer(R),
    /// Refused. A refusal judged on a cached copy is judged again on the stored match, which
    /// another instance may have moved on.
    Refused(E),
    /// Store this move, then answer `R`.
    Store(Move, R),
}

/// What a move adds to its match.
pub struct Move {
    /// The match's version after the move: the ply of its last event.
    pub version: i64,
    /// The state after the move.
    pub state: Box<dyn TypedState>,
    pub events: Vec<EventRow>,
    /// Set when the move ends the match.
    pub finished: Option<FinishedMatch>,
    pub now: DateTime<Utc>,
}

/// This instance's live matches and move writers.
pub(super) struct Moves {
    cache: MoveCache,
    batches: GroupCommit,
    probes: GroupProbe,
    snapshot_every: i64,
}

impl Moves {
    pub(super) fn new(
        pool: diesel_async::pooled_connection::deadpool::Pool<AsyncPgConnection>,
        solo: std::sync::Arc<SoloConnections>,
        settings: MoveSettings,
        runtime: &tokio::runtime::Handle,
    ) -> Self {
        Self {
            cache: MoveCache::new(settings.cached_matches),
            batches: GroupCommit::new(pool.clone(), solo.clone(), settings.batch_max, runtime),
            probes: GroupProbe::new(pool, solo, settings.batch_max, runtime),
            snapshot_every: settings.snapshot_every.max(1),
        }
    }
}

impl Store {
    /// Judges a request on match `id` and stores what the judge plans, answering only after the
    /// commit. `judge` may run more than once (after a lost race, or a refusal of a cached copy)
    /// and must not have effects of its own; it gets the earlier event stored under
    /// `idempotency_key`, if any.
    pub async fn play<R, E>(
        &self,
        id: Uuid,
        idempotency_key: Option<&str>,
        mut judge: impl FnMut(&LiveMatch, Option<EventRow>) -> Result<Plan<R, E>, E> + Send,
    ) -> Result<R, E>
    where
        R: Send,
        E: From<StoreError> + From<UnknownRecord> + From<DieselError> + Send,
    {
        let cache = &self.moves.cache;
        // Moves on one match queue here, so that within this instance they never race.
        let slot = cache.slot(id);
        let mut cached = slot.lock().await;
        for _ in 0..3 {
            let from_cache = cached.is_some();
            let live = match cached.take() {
                Some(live) => live,
                None => match self.read_live(id).await? {
                    Some(live) => live,
                    None => {
                        cache.forget(id);
                        return Err(UnknownRecord::hosted(id).into());
                    }
                },
            };
            let earlier = match idempotency_key {
                Some(key) => q::event_by_idempotency_key(&mut *self.conn().await?, id, key).await?,
                None => None,
            };
            let plan = judge(&live, earlier).inspect_err(|_| cache.forget(id))?;
            let (mv, reply) = match plan {
                Plan::Answer(reply) => {
                    cache.forget(id);
                    return Ok(reply);
                }
                // Another instance may have moved, or re-issued the token: judge it again on
                // the stored match.
                Plan::Refused(_) if from_cache => continue,
                // A refusal changed nothing: the copy stays good while the match goes on.
                Plan::Refused(refusal) => {
                    if live.row.kind == MatchKind::Hosted
                        && live.row.status == MatchStatus::InProgress
                    {
                        *cached = Some(live);
                    } else {
                        cache.forget(id);
                    }
                    return Err(refusal);
                }
                Plan::Store(mv, reply) => (mv, reply),
            };
            let (over, version, at) = (mv.finished.is_some(), mv.version, mv.now);
            match self.store_if_current(&live, mv).await {
                Ok(Stored::Yes { state, snapshot }) => {
                    if over {
                        cache.forget(id);
                    } else {
                        *cached = Some(live.moved_to(version, state, snapshot, at));
                    }
                    return Ok(reply);
                }
                Ok(Stored::Raced) => continue,
                // After a database failure the write may or may not have landed: the next move
                // reads the match again.
                Err(error) => {
                    cache.forget(id);
                    return Err(error.into());
                }
            }
        }
        cache.forget(id);
        let locked = LockedMove {
            judge,
            answers: PhantomData,
        };
        self.write_held(id, idempotency_key, locked).await
    }

    /// Holds this instance's moves on match `id` back until the guard drops, and drops its cached
    /// copy: for a write outside this pipeline that moves the match (a mending), so that no move
    /// here is judged on the match as it was. Another instance's move on a stale copy loses its
    /// race as usual.
    pub async fn hold(&self, id: Uuid) -> Held {
        let mut slot = self.moves.cache.slot(id).lock_owned().await;
        *slot = None;
        Held(slot)
    }

    /// Answers a read of match `id` from this instance's live copy of it, if it holds one that
    /// is still the stored match: `read` gets the copy and the match's rematch links. One small
    /// probe checks the copy (the match's status, seat access and last ply, and the links), where
    /// a read from the database costs the row, its seats, the events after its snapshot and the
    /// state's decoding. A copy another instance moved past, or whose seats changed since, is not
    /// used. None: read the match from the database.
    pub async fn read_live_copy<R>(
        &self,
        id: Uuid,
        read: impl FnOnce(&LiveMatch, RematchLinks) -> R,
    ) -> Result<Option<R>, StoreError> {
        let Some(slot) = self.moves.cache.existing(id) else {
            return Ok(None);
        };
        if slot.lock().await.is_none() {
            return Ok(None);
        }
        let Some(Probe {
            status,
            access_version,
            last_ply,
            links,
        }) = self.moves.probes.probe(id).await?
        else {
            return Ok(None);
        };
        let cached = slot.lock().await;
        Ok(cached
            .as_ref()
            .filter(|live| {
                status == MatchStatus::InProgress
                    && live.row.kind == MatchKind::Hosted
                    && live.row.status == status
                    && live.row.access_version == access_version
                    && live.row.version == last_ply.unwrap_or(0)
            })
            .map(|live| read(live, links)))
    }

    /// The match as stored: its row and seats, and the events after its snapshot.
    async fn read_live(&self, id: Uuid) -> Result<Option<LiveMatch>, StoreError> {
        let mut conn = self.conn().await?;
        Ok(q::find_current(&mut conn, id)
            .await?
            .map(|(row, seats, tail)| LiveMatch::new(row, seats, tail)))
    }

    /// Stores `mv` if the match is still as `live` says: an append (through the group commit),
    /// with the snapshot when it is due, or the finishing transaction.
    async fn store_if_current(&self, live: &LiveMatch, mv: Move) -> Result<Stored, StoreError> {
        let Move {
            version,
            state,
            events,
            finished,
            now,
        } = mv;
        if let Some(finished) = finished {
            let mut conn = self.conn().await?;
            let stored = finish_if_current(
                &mut conn,
                live,
                version,
                state.value(),
                &events,
                &finished,
                now,
            )
            .await?;
            return Ok(if stored {
                Stored::Yes {
                    state,
                    snapshot: Some(version),
                }
            } else {
                Stored::Raced
            });
        }
        let due = version - live.snapshot >= self.moves.snapshot_every;
        let append = Append {
            id: live.row.id,
            read_version: live.row.version,
            read_access_version: live.row.access_version,
            read_snapshot: live.snapshot,
            version,
            snapshot: due.then(|| state.text()),
            now,
            events,
        };
        Ok(if self.moves.batches.write(append).await? {
            Stored::Yes {
                state,
                snapshot: due.then_some(version),
            }
        } else {
            Stored::Raced
        })
    }
}

/// The last resort of a move that keeps losing races: the same judge, run by the locked write
/// ([`Store::write`]), so nothing can move the match meanwhile.
struct LockedMove<J, R, E> {
    judge: J,
    answers: PhantomData<fn() -> (R, E)>,
}

impl<J, R, E> Judge for LockedMove<J, R, E>
where
    J: FnMut(&LiveMatch, Option<EventRow>) -> Result<Plan<R, E>, E> + Send,
    R: Send,
    E: From<StoreError> + From<UnknownRecord> + From<DieselError> + Send,
{
    type Log = Events;
    type Reply = R;
    type Output = R;
    type Error = E;

    async fn judge(
        mut self,
        conn: &mut AsyncPgConnection,
        locked: Locked<EventRow>,
    ) -> Result<Decision<EventRow, R, R>, E> {
        let tail = q::events_after(conn, locked.row.id, locked.row.version).await?;
        let live = LiveMatch::new(locked.row, locked.seats, tail);
        let (mv, reply) = match (self.judge)(&live, locked.earlier)? {
            Plan::Store(mv, reply) => (mv, reply),
            Plan::Answer(reply) => return Ok(Decision::Answer(reply)),
            Plan::Refused(refusal) => return Err(refusal),
        };
        let write = Write {
            record: live.row,
            version: mv.version,
            entries: mv.events,
            change: Change::Advance {
                state: mv.state.value(),
                finished: mv.finished,
            },
            now: mv.now,
        };
        Ok(Decision::Write(Box::new(write), reply))
    }

    async fn answer(_: &mut AsyncPgConnection, _: Uuid, reply: R) -> Result<R, E> {
        Ok(reply)
    }
}

/// Match moves held back on this instance ([`Store::hold`]) while the guard lives.
pub struct Held(#[allow(dead_code)] tokio::sync::OwnedMutexGuard<Option<LiveMatch>>);

/// What became of a write that applies only to the match as it was read.
enum Stored {
    /// Stored: the state, and the snapshot's new version if one was written.
    Yes {
        state: Box<dyn TypedState>,
        snapshot: Option<i64>,
    },
    /// Another move was stored first, or the seats or the status changed: nothing was written.
    Raced,
}

/// Why the finishing transaction stopped.
enum Unfinished {
    /// Another move was appended first.
    Raced,
    Failed(StoreError),
}

impl From<DieselError> for Unfinished {
    fn from(error: DieselError) -> Self {
        if lost_race(&error) {
            Unfinished::Raced
        } else {
            Unfinished::Failed(error.into())
        }
    }
}

impl From<StoreError> for Unfinished {
    fn from(error: StoreError) -> Self {
        Unfinished::Failed(error)
    }
}

/// The write of a move that ends its match, in one transaction: the finished snapshot, the
/// events, the seats' results and the players' totals, provided the match is still in progress
/// at `live`'s version with the same seat access. False when another move got there first; then
/// nothing is written.
async fn finish_if_current(
    conn: &mut AsyncPgConnection,
    live: &LiveMatch,
    version: i64,
    state: Value,
    events: &[EventRow],
    finished: &FinishedMatch,
    now: DateTime<Utc>,
) -> Result<bool, StoreError> {
    let row = &live.row;
    let finished = finished.as_finished();
    let written = conn
        .transaction(async |conn| {
            // The conditional update comes first: it takes the row lock that every writer of
            // the match takes, and matches no row if the match moved since it was read.
            let appended_since = match_events::table
                .filter(match_events::match_id.eq(row.id))
                .filter(match_events::ply.gt(row.version));
            let current = matches::table
                .filter(matches::id.eq(row.id))
                .filter(matches::version.eq(live.snapshot))
                .filter(matches::access_version.eq(row.access_version))
                .filter(matches::status.eq(MatchStatus::InProgress))
                .filter(diesel::dsl::not(diesel::dsl::exists(appended_since)));
            let updated = diesel::update(current)
                .set(Snapshot::new(version, &state, Some(finished), now))
                .execute(conn)
                .await?;
            if updated == 0 {
                return Err(Unfinished::Raced);
            }
            diesel::insert_into(match_events::table)
                .values(events)
                .execute(conn)
                .await?;
            let happened = Happened::Finished {
                before: row,
                seats: finished.seats,
            };
            crate::store::results::record(conn, happened).await?;
            Ok(())
        })
        .await;
    match written {
        Ok(()) => Ok(true),
        Err(Unfinished::Raced) => Ok(false),
        Err(Unfinished::Failed(error)) => Err(error),
    }
}
