//! What a feed holds and builds, behind its lock: the match's typed state, row and seats as last
//! read, and, per class of viewer that has streams, its channel and the view last sent. On each
//! read it plays the new inputs on its state and publishes each class's new entries, view and
//! end, each viewer's built once; a stream joining it gets its view at the feed's version.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::Value;
use tokio::sync::{broadcast, oneshot};
use uuid::Uuid;

use super::update::{Access, Class, Handle, Joined, MatchStreamEvent, Update};
use crate::frames::{Frame, Framing};
use crate::games::{Consistent, Game, Viewer};
use crate::matches::access::viewer_for;
use crate::matches::create::detail_of;
use crate::matches::current::Logged;
use crate::matches::replay::log_entry;
use crate::matches::wire::MatchDetail;
use crate::problem::Problem;
use crate::records::stored;
use crate::referee;
use crate::store::matches::{EventRow, MatchRow, SeatRow};
use crate::store::stat_reads::Abandoned;
use crate::vocabulary::{MatchStatus, RandomnessMode};

/// Updates a class of viewers may fall behind by before its slowest streams are ended.
const BACKLOG: usize = 256;

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

/// A feed's state, behind its lock: only the feed's reader changes it, joining streams read it.
pub(super) struct Core<G: Game> {
    /// The match as last read, with the feed's `version`, `status`, `updated_at` and
    /// `finished_at` (see [`Core::absorb`]); its `state` is not kept (the typed one is).
    row: MatchRow,
    seats: Vec<SeatRow>,
    /// The match this one is a rematch of, and its rematch.
    links: (Option<Uuid>, Option<Uuid>),
    /// Once abandoned: by whom, when and at which version, as a read shows it.
    pub(super) abandoned: Option<Abandoned>,
    state: Consistent<G>,
    /// The last ply applied to `state`.
    pub(super) version: i64,
    /// Whether `row` describes `state` (it may be newer for a moment; views wait then).
    viewable: bool,
    pub(super) access: Arc<Access>,
    channels: HashMap<Class, Channel>,
}

/// One stored input and the events it made.
type Ply<G> = (EventRow, Vec<<G as Game>::Event>);

impl<G: Game> Core<G> {
    /// The match as `row` (its state at `row.version`) and the events after it make it.
    pub(super) fn new(
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
    pub(super) fn absorb(
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
    pub(super) fn closed(&self) -> bool {
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
    pub(super) fn publish(&mut self, plies: &[Ply<G>], changed: bool, access_changed: bool) {
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
    pub(super) fn fail(&mut self, problem: &Problem) {
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

pub(super) struct Shared<G: Game> {
    pub(super) core: Mutex<Core<G>>,
    pub(super) retired: AtomicBool,
    /// Dropped with the feed, which ends its reader.
    pub(super) _stop: oneshot::Sender<()>,
}

impl<G: Game> Shared<G> {
    pub(super) fn lock(&self) -> MutexGuard<'_, Core<G>> {
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
