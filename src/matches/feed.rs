//! Live feeds: what an instance reads and builds once per change of a match, for all of that
//! match's live streams.
//!
//! The first stream on a match starts its feed; the last one to leave drops it. A feed holds the
//! match's typed state, its row and seats, and the last ply it applied. On every change notice it
//! reads only what is new (one round trip: the row, the seats, the events after that ply), plays
//! the new inputs on its state, and, for each class of viewer that has streams (spectators, each
//! seat, the owner), builds that viewer's new entries and view once, as `/log` and
//! `GET /v1/matches/{id}` would show them, framed for both formats. Every stream of that class
//! gets the same bytes through a broadcast channel. A stream never reads the log again after it
//! joined; one that resumes from a point behind the feed catches up from the log first, then
//! goes on with the feed with no gap and no duplicate.
//!
//! The hub nudges a followed match's feed, not its streams; the feed nudges its streams once it
//! has published what it read, so each stream wakes once per change, its update ready.
//!
//! A stream checks on each update that its seat token still stands (a token re-issued ends it
//! with an `error` event, as a read with it would be refused); a stream whose client reads too
//! slowly falls behind the broadcast and is ended (it can resume with `Last-Event-ID`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use actix_web::web::Bytes;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{broadcast, oneshot};
use utoipa::ToSchema;
use uuid::Uuid;

use super::access::{load, unknown_match, viewer_for, Credential};
use super::create::detail_of;
use super::current::Logged;
use super::replay::{log_after, log_entry};
use super::wire::{LogEntry, MatchDetail};
use crate::frames::{chunk, join, record_written, Frame, Framing};
use crate::games::{Consistent, Game, Seat, Viewer};
use crate::live::{Hub, Subscription};
use crate::metrics::METRICS;
use crate::problem::{Code, Problem, ProblemDocument};
use crate::records::{kind_of, stored};
use crate::referee;
use crate::store::lobby::rematch_links;
use crate::store::matches::{
    find_current, find_with_events, EventRow, EventsAfter, MatchRow, SeatRow,
};
use crate::store::stat_reads::Abandoned;
use crate::store::Store;
use crate::vocabulary::{MatchKind, MatchStatus, RandomnessMode};
use crate::with_game;

/// Updates a class of viewers may fall behind by before its slowest streams are ended.
const BACKLOG: usize = 256;

/// One event of a match stream. In SSE its `type` is also the event name and its `version` the
/// event id; in NDJSON it is one line.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MatchStreamEvent {
    /// A new log entry, as this viewer's `/log` shows it; `version` is the version it made.
    Entry { version: i64, entry: LogEntry },
    /// The viewer's view after the entries sent before it (the match as `GET /v1/matches/{id}`
    /// answers it).
    View {
        version: i64,
        #[serde(rename = "match")]
        detail: Box<MatchDetail>,
    },
    /// The match is over and everything has been sent: the server closes the stream.
    End { version: i64, status: MatchStatus },
    /// The stream cannot go on (the token was revoked, the database is unreachable); the server
    /// closes it. Reconnect with `Last-Event-ID` once the cause is gone.
    Error { problem: ProblemDocument },
    /// Sent when nothing else was for a while (NDJSON only; SSE sends a comment line).
    Heartbeat,
}

impl MatchStreamEvent {
    fn frame(&self) -> Frame {
        let (name, version) = match self {
            Self::Entry { version, .. } => ("entry", Some(*version)),
            Self::View { version, .. } => ("view", Some(*version)),
            Self::End { version, .. } => ("end", Some(*version)),
            Self::Error { .. } => ("error", None),
            Self::Heartbeat => ("heartbeat", None),
        };
        Frame::encode(name, version, self)
    }

    fn error(problem: &Problem) -> Self {
        Self::Error {
            problem: (**problem).clone(),
        }
    }
}

/// Who may act for each seat as of one read: a seat stream ends when its token no longer does.
#[derive(Debug, Default)]
struct Access {
    /// `matches.access_version` when read: bumped by every re-issued token and renamed seat.
    version: i64,
    seats: Vec<Option<Vec<u8>>>,
}

impl Access {
    fn of(row: &MatchRow, seats: &[SeatRow]) -> Self {
        Self {
            version: row.access_version,
            seats: seats.iter().map(|s| s.token_hash.clone()).collect(),
        }
    }
}

/// What one class of viewers gets after one change: its frames in order, already joined for
/// each format (what every stream of the class writes, unless it must skip some), and who may
/// act for each seat as of that change.
#[derive(Debug)]
struct Update {
    frames: Vec<Arc<Frame>>,
    sse: Bytes,
    ndjson: Bytes,
    access: Arc<Access>,
}

impl Update {
    fn new(frames: Vec<Arc<Frame>>, access: Arc<Access>) -> Self {
        Self {
            sse: join(Framing::Sse, &frames),
            ndjson: join(Framing::Ndjson, &frames),
            frames,
            access,
        }
    }
}

/// The classes of viewers a feed builds frames for, by the credential a stream opened with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Class {
    Owner,
    Seat(Seat),
    Spectator,
}

impl Class {
    fn of(credential: Credential) -> Self {
        match credential {
            Credential::Owner => Self::Owner,
            Credential::Seat(seat) => Self::Seat(seat),
            Credential::Anonymous => Self::Spectator,
        }
    }

    fn credential(self) -> Credential {
        match self {
            Self::Owner => Credential::Owner,
            Self::Seat(seat) => Credential::Seat(seat),
            Self::Spectator => Credential::Anonymous,
        }
    }
}

/// The view last built for a class: its version, a fingerprint of its text, and its frame.
struct Viewed {
    version: i64,
    fingerprint: u64,
    frame: Arc<Frame>,
}

/// One class's channel, and the view its streams were last sent.
struct Channel {
    sender: broadcast::Sender<Arc<Update>>,
    viewed: Option<Viewed>,
}

/// What a stream sees of a match when it joins its feed.
struct Joined {
    updates: broadcast::Receiver<Arc<Update>>,
    /// The version the feed has applied: updates bring what follows it.
    version: i64,
    /// The view at `version` (with `after` as its id when a resume point is ahead of the feed).
    view: Option<Arc<Frame>>,
    /// The end, if the match is over.
    end: Option<Arc<Frame>>,
    closed: bool,
}

/// A feed's state, behind its lock: only the feed's reader changes it, joining streams read it.
struct Core<G: Game> {
    /// The match as last read, with the feed's `version`, `status`, `updated_at` and
    /// `finished_at` (see [`Core::absorb`]); its `state` is not kept (the typed one is).
    row: MatchRow,
    seats: Vec<SeatRow>,
    /// The match this one is a rematch of, and its rematch.
    links: (Option<Uuid>, Option<Uuid>),
    /// Once abandoned: by whom, when and at which version, as a read shows it.
    abandoned: Option<Abandoned>,
    state: Consistent<G>,
    /// The last ply applied to `state`.
    version: i64,
    /// Whether `row` describes `state` (it may be newer for a moment; views wait then).
    viewable: bool,
    access: Arc<Access>,
    channels: HashMap<Class, Channel>,
}

/// One stored input and the events it made.
type Ply<G> = (EventRow, Vec<<G as Game>::Event>);

impl<G: Game> Core<G> {
    /// The match as `row` (its state at `row.version`) and the events after it make it.
    fn new(
        row: MatchRow,
        seats: Vec<SeatRow>,
        events: Vec<EventRow>,
        links: (Option<Uuid>, Option<Uuid>),
    ) -> Result<Self, Problem> {
        let state: G::State = stored("state", &row.state)?;
        let state = referee::consistent::<G>(state)
            .map_err(|e| Problem::internal(format!("stored state is not consistent: {e}")))?;
        let mut core = Self {
            version: row.version,
            access: Arc::new(Access::of(&row, &seats)),
            row,
            seats: Vec::new(),
            links,
            abandoned: None,
            state,
            viewable: true,
            channels: HashMap::new(),
        };
        let row = core.row.clone();
        core.absorb(row, seats, events)?;
        Ok(core)
    }

    /// Plays the events after the feed's version and takes the row and seats as read. Returns the
    /// plies played and whether what a view shows besides the state changed.
    fn absorb(
        &mut self,
        mut row: MatchRow,
        seats: Vec<SeatRow>,
        events: Vec<EventRow>,
    ) -> Result<(Vec<Ply<G>>, bool), Problem> {
        let mut plies = Vec::new();
        for event in events {
            if event.ply <= self.version {
                continue;
            }
            if event.ply != self.version + 1 {
                return Err(Problem::internal(format!(
                    "match {} has no ply {} in its log",
                    row.id,
                    self.version + 1
                )));
            }
            let played = Logged::<G>::of((&event).into())?
                .play(&mut self.state)
                .map_err(|e| {
                    Problem::internal(format!(
                        "match {} fails to replay at ply {}: {e}",
                        row.id, event.ply
                    ))
                })?;
            self.version = event.ply;
            plies.push((event, played));
        }
        row.state = Value::Null;
        self.viewable = row.version <= self.version;
        if row.version < self.version {
            // The log is ahead of the row: what the row says of the match's progress is taken
            // from the log instead, as the row will say it.
            let at = plies.last().map_or(row.updated_at, |(e, _)| e.created_at);
            row.version = self.version;
            row.updated_at = at;
            if row.status == MatchStatus::InProgress && G::is_over(&self.state) {
                row.status = MatchStatus::Finished;
                row.finished_at = Some(at);
            }
        }
        let changed = shown(&row, &seats) != shown(&self.row, &self.seats);
        self.access = Arc::new(Access::of(&row, &seats));
        self.row = row;
        self.seats = seats;
        Ok((plies, changed))
    }

    /// Whether the match is over for its streams (finished or abandoned, and shown as such).
    fn closed(&self) -> bool {
        self.viewable && self.row.status != MatchStatus::InProgress
    }

    fn viewer(&self, class: Class) -> Viewer {
        viewer_for(&self.row, class.credential())
    }

    fn detail(&self, viewer: Viewer) -> MatchDetail {
        let mut detail = detail_of::<G>(&self.row, &self.seats, viewer, &self.state);
        (detail.rematch_of, detail.rematch) = self.links;
        detail.abandoned = self.abandoned.clone();
        detail
    }

    /// The view frame for `viewer` at the feed's version, and its fingerprint.
    fn view_frame(&self, viewer: Viewer) -> (u64, Arc<Frame>) {
        let event = MatchStreamEvent::View {
            version: self.version,
            detail: Box::new(self.detail(viewer)),
        };
        let frame = event.frame();
        (fingerprint(frame.bytes(Framing::Ndjson)), Arc::new(frame))
    }

    fn end_frame(&self) -> Arc<Frame> {
        Arc::new(
            MatchStreamEvent::End {
                version: self.version,
                status: self.row.status,
            }
            .frame(),
        )
    }

    /// Sends each class that has streams what is new for it: the entries of `plies` as that
    /// class sees them, then its view if it changed, then the end if the match is over. Each
    /// viewer's entries and view are built once, whatever the number of classes and streams.
    fn publish(&mut self, plies: &[Ply<G>], changed: bool, access_changed: bool) {
        let mut channels = std::mem::take(&mut self.channels);
        channels.retain(|_, channel| channel.sender.receiver_count() > 0);
        let mut entries: Vec<(Viewer, Vec<Arc<Frame>>)> = Vec::new();
        let mut views: Vec<(Viewer, (u64, Arc<Frame>))> = Vec::new();
        let end = self.closed().then(|| self.end_frame());
        for (class, channel) in &mut channels {
            let viewer = self.viewer(*class);
            let mut frames = match entries.iter().find(|(v, _)| *v == viewer) {
                Some((_, built)) => built.clone(),
                None => {
                    let built = self.entry_frames(plies, viewer);
                    entries.push((viewer, built.clone()));
                    built
                }
            };
            let stale = channel
                .viewed
                .as_ref()
                .is_none_or(|v| v.version != self.version);
            if self.viewable && (changed || stale || !plies.is_empty()) {
                let (fingerprint, frame) = match views.iter().find(|(v, _)| *v == viewer) {
                    Some((_, built)) => built.clone(),
                    None => {
                        let built = self.view_frame(viewer);
                        views.push((viewer, built.clone()));
                        built
                    }
                };
                let same = channel
                    .viewed
                    .as_ref()
                    .is_some_and(|v| v.version == self.version && v.fingerprint == fingerprint);
                if !same || !plies.is_empty() {
                    frames.push(frame.clone());
                }
                channel.viewed = Some(Viewed {
                    version: self.version,
                    fingerprint,
                    frame,
                });
            }
            frames.extend(end.clone());
            if frames.is_empty() && !access_changed {
                continue;
            }
            // A class whose last stream just left has no receiver: nothing to do.
            let _ = channel
                .sender
                .send(Arc::new(Update::new(frames, self.access.clone())));
        }
        self.channels = channels;
    }

    fn entry_frames(&self, plies: &[Ply<G>], viewer: Viewer) -> Vec<Arc<Frame>> {
        let table = self.row.randomness == RandomnessMode::Table;
        plies
            .iter()
            .map(|(row, events)| {
                let entry = log_entry::<G>(row.into(), table, events, viewer);
                Arc::new(
                    MatchStreamEvent::Entry {
                        version: row.ply,
                        entry,
                    }
                    .frame(),
                )
            })
            .collect()
    }

    /// Sends every class `problem` as an `error` event: its streams end.
    fn fail(&mut self, problem: &Problem) {
        let frame = Arc::new(MatchStreamEvent::error(problem).frame());
        for channel in self.channels.values() {
            let _ = channel.sender.send(Arc::new(Update::new(
                vec![frame.clone()],
                self.access.clone(),
            )));
        }
    }

    /// Registers a stream of `class`: the updates after now, the version they follow and the
    /// frames to send first.
    fn join(&mut self, class: Class, after: Option<i64>) -> Joined {
        let viewer = self.viewer(class);
        let version = self.version;
        let channel = self.channels.entry(class).or_insert_with(|| Channel {
            sender: broadcast::channel(BACKLOG).0,
            viewed: None,
        });
        let updates = channel.sender.subscribe();
        let mut view = None;
        if self.viewable {
            view = Some(match after.filter(|after| *after > version) {
                // A resume point ahead of the feed (the feed has a notice still to read): the
                // view carries it as its id, as nothing up to it is sent again.
                Some(after) => Arc::new(
                    MatchStreamEvent::View {
                        version: after,
                        detail: Box::new(self.detail(viewer)),
                    }
                    .frame(),
                ),
                None => {
                    let cached = self.channels.get(&class).and_then(|c| {
                        c.viewed
                            .as_ref()
                            .filter(|v| v.version == version)
                            .map(|v| v.frame.clone())
                    });
                    match cached {
                        Some(frame) => frame,
                        None => {
                            let (fingerprint, frame) = self.view_frame(viewer);
                            if let Some(channel) = self.channels.get_mut(&class) {
                                channel.viewed = Some(Viewed {
                                    version,
                                    fingerprint,
                                    frame: frame.clone(),
                                });
                            }
                            frame
                        }
                    }
                }
            });
        }
        let closed = self.closed();
        Joined {
            updates,
            version,
            view,
            end: closed.then(|| self.end_frame()),
            closed,
        }
    }
}

/// What a view shows besides the state: a change to it sends the view again.
fn shown(row: &MatchRow, seats: &[SeatRow]) -> impl PartialEq {
    let seats: Vec<_> = seats
        .iter()
        .map(|s| (s.player_name.clone(), s.final_score, s.final_rank, s.winner))
        .collect();
    (row.status, row.updated_at, row.finished_at, seats)
}

fn fingerprint(bytes: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// A feed as its streams and its registry hold it, whatever its game.
trait Handle: Send + Sync {
    fn join(&self, class: Class, after: Option<i64>) -> Joined;
    /// Whether the feed has stopped reading (the match is over, or a read failed): a new stream
    /// starts a new feed.
    fn retired(&self) -> bool;
}

struct Shared<G: Game> {
    core: Mutex<Core<G>>,
    retired: AtomicBool,
    /// Dropped with the feed, which ends its reader.
    _stop: oneshot::Sender<()>,
}

impl<G: Game> Shared<G> {
    fn lock(&self) -> MutexGuard<'_, Core<G>> {
        // Each change to the core is made whole or the reader fails the feed.
        self.core.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<G: Game> Handle for Shared<G>
where
    G::State: Send,
{
    fn join(&self, class: Class, after: Option<i64>) -> Joined {
        self.lock().join(class, after)
    }

    fn retired(&self) -> bool {
        self.retired.load(Ordering::Acquire)
    }
}

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

    /// Starts a feed: watches the match first, so that no change committed after the reads
    /// below goes unread, then reads the row, the seats and any events after the row's version.
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
        token: Option<&str>,
        after: Option<i64>,
        framing: Framing,
    ) -> Result<(Bytes, Follower), Problem> {
        let (conn, row, seats, credential) = load(&self.inner.store, id, token).await?;
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
            let entries: Vec<LogEntry> = log_after(&self.inner.store, id, token, after)
                .await?
                .entries;
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
        loop {
            tokio::select! {
                _ = &mut stopped => return,
                nudge = self.watch.changed() => if nudge.is_none() { return },
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

/// One stream's place in its match's feed.
pub struct Follower {
    /// Keeps the feed running while the stream is open.
    _feed: Arc<dyn Handle>,
    updates: broadcast::Receiver<Arc<Update>>,
    framing: Framing,
    /// The last version sent: nothing up to it is sent again.
    sent: i64,
    /// A seat stream's seat and token hash: the stream ends once the seat has another token.
    seat: Option<(Seat, Vec<u8>)>,
    /// The access version the token was checked at.
    since: i64,
    done: bool,
}

/// What a stream gets from its feed.
pub enum Followed {
    /// The next chunk of the body; the stream ends after it if [`Follower::is_done`].
    Chunk(Bytes),
    /// The stream fell too far behind: it ends (its client can resume).
    Lagged,
    /// Nothing more will come.
    Ended,
}

impl Follower {
    /// Whether everything has been sent: the match is over, or the stream failed.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The next chunk the feed has for this stream. Cancel-safe.
    pub async fn next(&mut self) -> Followed {
        if self.done {
            return Followed::Ended;
        }
        loop {
            match self.updates.recv().await {
                Ok(update) => {
                    if let Some(chunk) = self.take(&update) {
                        return Followed::Chunk(chunk);
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => return Followed::Lagged,
                Err(broadcast::error::RecvError::Closed) => return Followed::Ended,
            }
        }
    }

    fn revoked(&self, access: &Access) -> bool {
        let Some((seat, hash)) = &self.seat else {
            return false;
        };
        // An update read before the token was checked knows nothing newer than the check.
        access.version >= self.since
            && access
                .seats
                .get(*seat)
                .is_none_or(|now| now.as_ref() != Some(hash))
    }

    /// What this stream writes of `update`: nothing it already sent, and an error instead of
    /// anything once its token has been replaced.
    fn take(&mut self, update: &Update) -> Option<Bytes> {
        if self.revoked(&update.access) {
            self.done = true;
            let problem = Problem::new(
                Code::InvalidToken,
                "the token belongs to no seat of this match",
            );
            let frame = Arc::new(MatchStreamEvent::error(&problem).frame());
            return Some(chunk(self.framing, [&frame]));
        }
        let fresh = |frame: &Frame, sent: i64| match (frame.name(), frame.version()) {
            ("entry", Some(version)) => version > sent,
            ("view", Some(version)) => version >= sent,
            _ => true,
        };
        let mut sent = self.sent;
        let mut all = true;
        let mut kept = Vec::with_capacity(update.frames.len());
        for frame in &update.frames {
            if fresh(frame, sent) {
                sent = sent.max(frame.version().unwrap_or(sent));
                self.done |= matches!(frame.name(), "end" | "error");
                kept.push(frame);
            } else {
                all = false;
            }
        }
        self.sent = sent;
        if kept.is_empty() {
            return None;
        }
        if !all {
            return Some(chunk(self.framing, kept));
        }
        record_written(&kept);
        Some(match self.framing {
            Framing::Sse => update.sse.clone(),
            Framing::Ndjson => update.ndjson.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(name: &'static str, version: Option<i64>) -> Arc<Frame> {
        Arc::new(Frame::encode(
            name,
            version,
            &serde_json::json!({"type": name}),
        ))
    }

    fn follower(sent: i64) -> (broadcast::Sender<Arc<Update>>, Follower) {
        struct Nothing;
        impl Handle for Nothing {
            fn join(&self, _: Class, _: Option<i64>) -> Joined {
                unreachable!()
            }
            fn retired(&self) -> bool {
                false
            }
        }
        let (sender, updates) = broadcast::channel(4);
        let follower = Follower {
            _feed: Arc::new(Nothing),
            updates,
            framing: Framing::Ndjson,
            sent,
            seat: Some((1, vec![1])),
            since: 5,
            done: false,
        };
        (sender, follower)
    }

    fn update(frames: Vec<Arc<Frame>>, access_version: i64, seat_one: u8) -> Arc<Update> {
        let access = Access {
            version: access_version,
            seats: vec![Some(vec![0]), Some(vec![seat_one])],
        };
        Arc::new(Update::new(frames, Arc::new(access)))
    }

    #[tokio::test]
    async fn a_follower_skips_what_it_sent_and_shares_the_bytes_of_the_rest() {
        let (sender, mut follower) = follower(4);
        let old = update(vec![frame("entry", Some(4)), frame("view", Some(4))], 5, 1);
        let new = update(vec![frame("entry", Some(5)), frame("view", Some(5))], 5, 1);
        for update in [&old, &new] {
            sender.send(update.clone()).unwrap();
        }
        let Followed::Chunk(first) = follower.next().await else {
            panic!("the view at the version sent is sent again")
        };
        assert_eq!(first, "{\"type\":\"view\"}\n");
        let Followed::Chunk(second) = follower.next().await else {
            panic!("what is new is sent")
        };
        assert_eq!(second.as_ptr(), new.ndjson.as_ptr(), "the shared bytes");
        assert!(!follower.is_done());
    }

    #[tokio::test]
    async fn a_seat_follower_ends_with_an_error_once_its_token_is_replaced() {
        let (sender, mut follower) = follower(4);
        // Read before the token was checked: it cannot revoke it.
        sender
            .send(update(vec![frame("entry", Some(5))], 4, 9))
            .unwrap();
        sender
            .send(update(vec![frame("entry", Some(6))], 6, 9))
            .unwrap();
        let Followed::Chunk(first) = follower.next().await else {
            panic!("an entry")
        };
        assert_eq!(first, "{\"type\":\"entry\"}\n");
        let Followed::Chunk(error) = follower.next().await else {
            panic!("an error")
        };
        let error: Value = serde_json::from_slice(&error).unwrap();
        assert_eq!(error["type"], "error");
        assert_eq!(error["problem"]["status"], 401);
        assert!(follower.is_done());
        assert!(matches!(follower.next().await, Followed::Ended));
    }

    #[tokio::test]
    async fn a_follower_that_falls_behind_the_backlog_is_told_so() {
        let (sender, mut follower) = follower(0);
        for version in 1..=6 {
            let _ = sender.send(update(vec![frame("entry", Some(version))], 5, 1));
        }
        assert!(matches!(follower.next().await, Followed::Lagged));
    }
}
