//! This instance's feeds, one per followed match: started by the first stream on a match (it
//! watches the match, then reads it), read again by the feed's reader on every change notice,
//! and dropped with the last stream. Opening a stream checks its token as a read would, joins the
//! feed and catches up from the log when the resume point lies behind it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use actix_web::web::Bytes;
use tokio::sync::oneshot;
use uuid::Uuid;

use super::follower::Follower;
use super::state::{Core, Shared};
use super::update::{Class, Handle, MatchStreamEvent};
use crate::frames::{chunk, Framing};
use crate::games::{Game, Seat};
use crate::live::{Hub, Subscription};
use crate::matches::access::{load, unknown_match, Credential, Who};
use crate::matches::replay::log_after;
use crate::matches::wire::LogEntry;
use crate::metrics::METRICS;
use crate::problem::{Code, Problem};
use crate::records::kind_of;
use crate::store::lobby::rematch_links;
use crate::store::matches::{
    find_current, find_with_events, EventRow, EventsAfter, MatchRow, SeatRow,
};
use crate::store::stat_reads::Abandoned;
use crate::store::{watches, Store};
use crate::vocabulary::{MatchKind, MatchStatus};
use crate::with_game;

/// This instance's feeds, by match id, and how many reads they made.
#[derive(Clone)]
pub struct Feeds {
    inner: Arc<Registry>,
}

struct Registry {
    store: Store,
    hub: Hub,
    feeds: Mutex<HashMap<Uuid, Weak<dyn Handle>>>,
    reads: AtomicU64,
}

impl Feeds {
    pub fn new(store: Store, hub: Hub) -> Self {
        Self {
            inner: Arc::new(Registry {
                store,
                hub,
                feeds: Mutex::default(),
                reads: AtomicU64::new(0),
            }),
        }
    }

    /// How many times this instance's feeds read a match's new events (once when a feed starts,
    /// then once per change), however many streams they serve.
    pub fn reads(&self) -> u64 {
        self.inner.reads.load(Ordering::Relaxed)
    }

    fn registry(&self) -> MutexGuard<'_, HashMap<Uuid, Weak<dyn Handle>>> {
        self.inner
            .feeds
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn running(&self, id: Uuid) -> Option<Arc<dyn Handle>> {
        self.registry()
            .get(&id)
            .and_then(Weak::upgrade)
            .filter(|feed| !feed.retired())
    }

    /// The match's feed, started if none runs.
    async fn feed(&self, id: Uuid) -> Result<Arc<dyn Handle>, Problem> {
        if let Some(feed) = self.running(id) {
            return Ok(feed);
        }
        let started = self.start(id).await?;
        let mut feeds = self.registry();
        // Another stream may have started one meanwhile: there is one feed per match.
        if let Some(feed) = feeds
            .get(&id)
            .and_then(Weak::upgrade)
            .filter(|feed| !feed.retired())
        {
            return Ok(feed);
        }
        feeds.retain(|_, feed| feed.strong_count() > 0);
        feeds.insert(id, Arc::downgrade(&started));
        Ok(started)
    }

    /// Starts a feed: watches the match first (in this instance's hub, and with a lease that
    /// makes its moves announced), so that no change committed after the reads below goes
    /// unread, then reads the row, the seats and any events after the row's version.
    async fn start(&self, id: Uuid) -> Result<Arc<dyn Handle>, Problem> {
        let watch = self.inner.hub.watch(id).map_err(|_| {
            Problem::new(
                Code::Draining,
                "this instance is shutting down and takes no new work; other instances do",
            )
        })?;
        self.inner.reads.fetch_add(1, Ordering::Relaxed);
        METRICS.record_feed_read();
        let mut conn = self.inner.store.conn().await?;
        if !watches::watch(&mut conn, id).await? {
            return Err(unknown_match(id));
        }
        let (row, seats, events) = find_current(&mut conn, id)
            .await?
            .filter(|(row, _, _)| row.kind == MatchKind::Hosted)
            .ok_or_else(|| unknown_match(id))?;
        let links = rematch_links(&mut conn, id).await?;
        let abandoned = abandon_trace(&mut conn, &row).await?;
        drop(conn);
        with_game!(kind_of(&row)?, G => self.spawn::<G>(watch, row, seats, events, links, abandoned))
    }

    fn spawn<G: Game>(
        &self,
        watch: Subscription,
        row: MatchRow,
        seats: Vec<SeatRow>,
        events: Vec<EventRow>,
        links: (Option<Uuid>, Option<Uuid>),
        abandoned: Option<Abandoned>,
    ) -> Result<Arc<dyn Handle>, Problem>
    where
        G::State: Send,
    {
        let id = row.id;
        let mut core = Core::<G>::new(row, seats, events, links)?;
        core.abandoned = abandoned;
        let closed = core.closed();
        let (stop, stopped) = oneshot::channel();
        let shared = Arc::new(Shared {
            core: Mutex::new(core),
            retired: AtomicBool::new(closed),
            _stop: stop,
        });
        if !closed {
            let reader = Reader {
                feed: Arc::downgrade(&shared),
                feeds: self.clone(),
                id,
                watch,
            };
            tokio::spawn(reader.run(stopped));
        }
        Ok(shared)
    }

    /// Opens a stream of match `id` for the holder of `token`: checks the token as a read would,
    /// joins the match's feed, and returns the first chunk (the entries after `after`, read from
    /// the log, then the current view, then the end if the match is over) and what follows.
    pub async fn follow(
        &self,
        id: Uuid,
        who: Who<'_>,
        after: Option<i64>,
        framing: Framing,
    ) -> Result<(Bytes, Follower), Problem> {
        let (conn, row, seats, credential) = load(&self.inner.store, id, who).await?;
        drop(conn);
        // Read from the primary (with the events past its snapshot): a version it has not
        // reached was never given out, so no event would ever follow it.
        if let Some(after) = after.filter(|after| *after > row.version) {
            return Err(resume_point_ahead(after, row.version));
        }
        let seat = match credential {
            Credential::Seat(seat) => seats
                .iter()
                .find(|s| s.seat as Seat == seat)
                .and_then(|s| s.token_hash.clone())
                .map(|hash| (seat, hash)),
            Credential::Owner | Credential::Anonymous => None,
        };
        let feed = self.feed(id).await?;
        let joined = feed.join(Class::of(credential), after);
        let mut frames = Vec::new();
        let mut sent = after.map_or(joined.version, |after| after.max(joined.version));
        let mut view = joined.view;
        // A feed that has yet to read the latest notice stands behind the match as just read:
        // what lies between is caught up from the log too, and the feed's older view is not
        // sent (its view at the newer version follows once it has read that far).
        let latest = joined.version.max(row.version);
        if let Some(after) = after.filter(|after| *after < latest) {
            let entries: Vec<LogEntry> =
                log_after(&self.inner.store, id, who, after).await?.entries;
            // The log is read after the feed was joined, so it reaches at least the feed's
            // version; it may be further on, if the feed has a notice still to read.
            let reached = entries.last().map_or(after, |e| e.ply);
            if reached < joined.version || entries.len() as i64 != reached - after {
                return Err(Problem::internal(format!(
                    "the log of match {id} does not hold every ply from {after} to {}",
                    joined.version
                )));
            }
            frames.extend(entries.into_iter().map(|entry| {
                let version = entry.ply;
                Arc::new(MatchStreamEvent::Entry { version, entry }.frame())
            }));
            if reached > joined.version {
                // The view follows from the feed once it has read that far.
                view = None;
            }
            sent = reached;
        }
        frames.extend(view);
        frames.extend(joined.end);
        let first = chunk(framing, &frames);
        let follower = Follower {
            _feed: feed,
            updates: joined.updates,
            framing,
            sent,
            seat,
            since: row.access_version,
            done: joined.closed,
        };
        Ok((first, follower))
    }
}

/// A feed's reader: reads what is new on each change notice and publishes it, until the feed is
/// dropped, the match is over, a read fails or the hub closes.
struct Reader<G: Game> {
    feed: Weak<Shared<G>>,
    feeds: Feeds,
    id: Uuid,
    watch: Subscription,
}

impl<G: Game> Reader<G>
where
    G::State: Send,
{
    async fn run(mut self, mut stopped: oneshot::Receiver<()>) {
        let mut renewal = tokio::time::interval_at(
            tokio::time::Instant::now() + watches::RENEW_EVERY,
            watches::RENEW_EVERY,
        );
        loop {
            tokio::select! {
                _ = &mut stopped => return,
                nudge = self.watch.changed() => if nudge.is_none() { return },
                // Renewed, then read as on a notice: should the lease have lapsed meanwhile,
                // the moves it missed are read now.
                _ = renewal.tick() => self.renew().await,
            }
            let Some(shared) = self.feed.upgrade() else {
                return;
            };
            let after = shared.lock().version;
            let read = self.read(after).await;
            let ended = {
                let mut core = shared.lock();
                let access = core.access.version;
                let published = read.and_then(|(row, seats, events, abandoned)| {
                    core.abandoned = abandoned;
                    let (plies, changed) = core.absorb(row, seats, events)?;
                    let access_changed = core.access.version != access;
                    core.publish(&plies, changed, access_changed);
                    Ok(core.closed())
                });
                published.unwrap_or_else(|problem| {
                    tracing::warn!(match_id = %self.id, code = %problem.code, "live feed failed");
                    core.fail(&problem);
                    true
                })
            };
            // Each stream wakes once, with its update (if any) ready.
            self.feeds.inner.hub.fed(self.id);
            if ended {
                shared.retired.store(true, Ordering::Release);
                return;
            }
        }
    }

    /// Renews the feed's lease. A failure is only logged: the next renewal tries again, and
    /// the read that follows meets the same database.
    async fn renew(&self) {
        let renewed = match self.feeds.inner.store.conn().await {
            Ok(mut conn) => watches::watch(&mut conn, self.id).await,
            Err(error) => Err(error),
        };
        if let Err(error) = renewed {
            tracing::warn!(match_id = %self.id, %error, "live feed's lease not renewed");
        }
    }

    async fn read(&self, after: i64) -> Result<Read, Problem> {
        self.feeds.inner.reads.fetch_add(1, Ordering::Relaxed);
        METRICS.record_feed_read();
        let mut conn = self.feeds.inner.store.conn().await?;
        let (row, seats, events) = find_with_events(&mut conn, self.id, EventsAfter::Ply(after))
            .await?
            .ok_or_else(|| unknown_match(self.id))?;
        let abandoned = abandon_trace(&mut conn, &row).await?;
        Ok((row, seats, events, abandoned))
    }
}

/// A resume point past the record's current version: no event would ever follow it (a match's
/// or a sheet's stream).
pub fn resume_point_ahead(after: i64, version: i64) -> Problem {
    let mut params = serde_json::Map::new();
    params.insert("after".into(), after.into());
    params.insert("version".into(), version.into());
    Problem::new(
        Code::ResumePointAhead,
        format!("the resume point {after} is past the current version {version}"),
    )
    .with_params(params)
}

/// What a feed reads on a change: the match row, its seats, the events after the feed's
/// version, and the abandon's trace once there is one.
type Read = (MatchRow, Vec<SeatRow>, Vec<EventRow>, Option<Abandoned>);

/// The trace of an abandoned match (none for one in play or finished: no extra read then).
async fn abandon_trace(
    conn: &mut crate::store::Conn,
    row: &MatchRow,
) -> Result<Option<Abandoned>, Problem> {
    if row.status != MatchStatus::Abandoned {
        return Ok(None);
    }
    Ok(crate::store::stat_reads::abandon_of(conn, row.id).await?)
}
