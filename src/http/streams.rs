//! Live streams of a match or a score sheet: Server-Sent Events, or NDJSON for clients that are
//! not browsers.
//!
//! A stream first sends what the log holds after the client's resume point (`Last-Event-ID` or
//! `?after=`), then the viewer's current view, then, on every change, the new entries and the new
//! view. Entries come from the same code as `/log` (for the token the stream was opened with),
//! so a stream never shows more than that viewer's `/log`. A stream ends after the final entries
//! and view of a match that is over (an `end` event), when its token stops being valid (an
//! `error` event) or when the client reads too slowly (it can resume where it stopped).
//!
//! A match stream follows its match's feed ([`crate::matches::Feeds`]), which reads and frames
//! each change once for all the streams of this instance; this module only subscribes (the caps),
//! sends heartbeats and writes what the feed hands it. A sheet stream reads its sheet on each
//! change: sheets are small, and a correction rewrites them. Both frame their events, and their
//! heartbeats, the one way [`crate::frames`] writes them.

use std::time::Duration;

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{get, web, HttpRequest, HttpResponse};
use futures_util::stream::{self, Stream};
use futures_util::StreamExt as _;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::bearer;
use super::params::InHousehold;
use super::params::LastEventId;
use super::responses::*;
use crate::frames::{self, Frame, Framing};
use crate::households::Need;
use crate::live::{Connection, Hub, Opener, SubscribeError, Subscription};
pub use crate::matches::MatchStreamEvent;
use crate::matches::{resume_point_ahead, Feeds, Followed, Follower};
use crate::metrics::METRICS;
use crate::problem::{Code, Problem, ProblemDocument};
use crate::sheets::{self, SheetDetail, SheetEntry};
use crate::store::Store;
use crate::vocabulary::{MatchStatus, Space};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StreamFormat {
    /// Server-Sent Events (`text/event-stream`): what a browser's `EventSource` reads.
    #[default]
    Sse,
    /// One JSON document per line (`application/x-ndjson`).
    Ndjson,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    #[param(inline)]
    pub format: Option<StreamFormat>,
    /// Resume after this version: the entries after it are sent first. `Last-Event-ID` (sent by
    /// `EventSource` when it reconnects) takes precedence. Without either, the stream starts
    /// with the current view. From 0 to the current version; a version past it is 409
    /// `resume_point_ahead`.
    #[param(minimum = 0, maximum = 999_999_999_999_999_i64)]
    pub after: Option<i64>,
}

/// One event of a score sheet stream.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SheetStreamEvent {
    /// A new entry; `version` is the sheet's version after it (its `seq`).
    Entry {
        version: i64,
        entry: SheetEntry,
    },
    /// The sheet after the entries sent before it: rounds, standings and winners.
    View {
        version: i64,
        sheet: Box<SheetDetail>,
    },
    /// The sheet was closed for good: the server closes the stream.
    End {
        version: i64,
        status: MatchStatus,
    },
    Error {
        problem: ProblemDocument,
    },
    Heartbeat,
}

/// A sheet stream's events: their framing, and how a sheet's read becomes events. (A match
/// stream's events are built by its feed.)
trait StreamEvent: Serialize {
    /// A log entry of the record, and the view of it that follows entries.
    type Entry;
    type View: Serialize;
    fn name(&self) -> &'static str;
    fn version(&self) -> Option<i64>;
    fn entry(version: i64, entry: Self::Entry) -> Self;
    fn view(version: i64, view: Self::View) -> Self;
    fn end(version: i64, status: MatchStatus) -> Self;
    fn error(problem: &Problem) -> Self;
    fn heartbeat() -> Self;
    /// Whether nothing more can happen to a record in `status`: its stream ends.
    fn closed(status: MatchStatus) -> bool;
}

impl StreamEvent for SheetStreamEvent {
    type Entry = SheetEntry;
    type View = SheetDetail;
    fn name(&self) -> &'static str {
        match self {
            Self::Entry { .. } => "entry",
            Self::View { .. } => "view",
            Self::End { .. } => "end",
            Self::Error { .. } => "error",
            Self::Heartbeat => "heartbeat",
        }
    }
    fn version(&self) -> Option<i64> {
        match self {
            Self::Entry { version, .. }
            | Self::View { version, .. }
            | Self::End { version, .. } => Some(*version),
            Self::Error { .. } | Self::Heartbeat => None,
        }
    }
    fn end(version: i64, status: MatchStatus) -> Self {
        Self::End { version, status }
    }
    fn error(problem: &Problem) -> Self {
        Self::Error {
            problem: (**problem).clone(),
        }
    }
    fn heartbeat() -> Self {
        Self::Heartbeat
    }
    fn entry(version: i64, entry: SheetEntry) -> Self {
        Self::Entry { version, entry }
    }
    fn view(version: i64, sheet: SheetDetail) -> Self {
        Self::View {
            version,
            sheet: Box::new(sheet),
        }
    }
    /// A finished sheet still takes corrections: only an abandoned one is closed.
    fn closed(status: MatchStatus) -> bool {
        match status {
            MatchStatus::InProgress | MatchStatus::Finished => false,
            MatchStatus::Abandoned => true,
        }
    }
}

/// A fingerprint of a view, to tell whether it changed since the last one sent.
fn fingerprint<T: Serialize>(view: &T) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    // Serialising our own answer types cannot fail.
    serde_json::to_vec(view)
        .unwrap_or_default()
        .hash(&mut hasher);
    hasher.finish()
}

/// One read of a record: its entries with the version each made, the version its entries were
/// read at, and its view with the view's own version and status.
struct Read<E: StreamEvent> {
    entries: Vec<(i64, E::Entry)>,
    logged: i64,
    view: E::View,
    viewed: i64,
    status: MatchStatus,
}

/// What a sheet stream reads on each change (kept apart from the sheet so that another kind of
/// record could be read the same way).
trait Source: Clone + 'static {
    type Event: StreamEvent;
    fn id(&self) -> Uuid;
    async fn read(&self, store: &Store) -> Result<Read<Self::Event>, Problem>;
}

/// A score sheet (which anyone may read).
#[derive(Clone)]
struct SheetSource {
    id: Uuid,
    /// The reader's space: a household's sheet streams to its household only.
    space: Space,
}

impl Source for SheetSource {
    type Event = SheetStreamEvent;
    fn id(&self) -> Uuid {
        self.id
    }
    async fn read(&self, store: &Store) -> Result<Read<SheetStreamEvent>, Problem> {
        let sheet = sheets::read(store, self.id, self.space).await?;
        Ok(Read {
            entries: sheet.entries.iter().map(|e| (e.seq, e.clone())).collect(),
            logged: sheet.version,
            viewed: sheet.version,
            status: sheet.status,
            view: sheet,
        })
    }
}

/// The events since `after` (everything new, then the view), and whether the record is closed.
struct Batch<E> {
    events: Vec<E>,
    /// The version the record's log has reached.
    reached: i64,
    version: i64,
    /// The fingerprint of the view at `version`, if it was read (and sent unless unchanged).
    view: Option<u64>,
    closed: bool,
}

/// Reads `source` and turns what is new since `after` into events; `viewed` is the fingerprint
/// of the last view sent, which is not sent again unless it changed or entries came.
async fn read_batch<S: Source>(
    source: &S,
    store: &Store,
    after: Option<i64>,
    viewed: Option<u64>,
) -> Result<Batch<S::Event>, Problem> {
    let read = source.read(store).await?;
    // The entries are read just after the version, so they may already hold a newer one: the
    // last entry is what the log really reached.
    let reached = read
        .entries
        .last()
        .map_or(read.logged, |(version, _)| (*version).max(read.logged));
    let after = after.unwrap_or(reached);
    let mut events: Vec<_> = read
        .entries
        .into_iter()
        .filter(|(version, _)| *version > after)
        .map(|(version, entry)| S::Event::entry(version, entry))
        .collect();
    let version = reached.max(after);
    if read.viewed != reached {
        // The view waits for the next read, which that newer entry's notice brings.
        return Ok(Batch {
            events,
            reached,
            version,
            view: None,
            closed: false,
        });
    }
    let closed = S::Event::closed(read.status);
    let view = fingerprint(&read.view);
    if viewed != Some(view) || !events.is_empty() {
        events.push(S::Event::view(version, read.view));
    }
    if closed {
        events.push(S::Event::end(version, read.status));
    }
    Ok(Batch {
        events,
        reached,
        version,
        view: Some(view),
        closed,
    })
}

/// A stream's state between two chunks of its body.
struct Live<S> {
    hub: Hub,
    store: Store,
    source: S,
    subscription: Subscription,
    framing: Framing,
    heartbeat: Duration,
    /// The last version whose entries were sent.
    sent: i64,
    /// The fingerprint of the last view sent: a view is sent again only if it changed (a new
    /// version, or a seat renamed).
    viewed: Option<u64>,
    done: bool,
}

impl<S: Source> Live<S> {
    /// Reads what changed and frames it: the next chunk of the body, or `None` if nothing did.
    async fn catch_up(&mut self) -> Result<Option<Bytes>, Problem> {
        let batch = read_batch(&self.source, &self.store, Some(self.sent), self.viewed).await?;
        if batch.view.is_some() {
            self.viewed = batch.view;
        }
        if batch.events.is_empty() {
            return Ok(None);
        }
        self.sent = batch.version;
        self.done = batch.closed;
        Ok(Some(frame(self.framing, &batch.events)))
    }

    /// The next chunk: new events after a change, or a heartbeat after a quiet spell; `None`
    /// ends the body.
    async fn next_chunk(mut self) -> Option<(Result<Bytes, actix_web::Error>, Self)> {
        if self.done {
            return None;
        }
        loop {
            let nudged = tokio::time::timeout(self.heartbeat, self.subscription.changed()).await;
            match nudged {
                Err(_quiet) => {
                    let beat = frames::heartbeat(self.framing, &S::Event::heartbeat());
                    return Some((Ok(beat), self));
                }
                Ok(None) => {
                    let hub = self.hub.clone();
                    return dropped(&hub, self);
                }
                Ok(Some(())) => match self.catch_up().await {
                    Ok(Some(chunk)) => return Some((Ok(chunk), self)),
                    Ok(None) => continue,
                    Err(problem) => {
                        self.done = true;
                        let chunk = frame(self.framing, &[S::Event::error(&problem)]);
                        return Some((Ok(chunk), self));
                    }
                },
            }
        }
    }
}

/// The wire format as the frames name it.
impl From<StreamFormat> for Framing {
    fn from(format: StreamFormat) -> Self {
        match format {
            StreamFormat::Sse => Self::Sse,
            StreamFormat::Ndjson => Self::Ndjson,
        }
    }
}

/// A sheet stream's events, framed as the match streams' are: the next chunk of its body.
fn frame<E: StreamEvent>(framing: Framing, events: &[E]) -> Bytes {
    frames::chunk(
        framing,
        events
            .iter()
            .map(|event| Frame::encode(event.name(), event.version(), event)),
    )
}

/// A match stream between two chunks of its body: its place in the hub (the caps; ended when the
/// hub drops it or closes) and in its match's feed.
struct Following {
    hub: Hub,
    subscription: Subscription,
    follower: Follower,
    framing: Framing,
    heartbeat: Duration,
}

impl Following {
    /// The next chunk: what the feed has for this stream, or a heartbeat after a quiet spell;
    /// `None` ends the body.
    async fn next_chunk(mut self) -> Option<(Result<Bytes, actix_web::Error>, Self)> {
        if self.follower.is_done() {
            return None;
        }
        // One timer for the whole wait, not one per nudge.
        let quiet = tokio::time::sleep(self.heartbeat);
        tokio::pin!(quiet);
        loop {
            tokio::select! {
                nudge = self.subscription.changed() => match nudge {
                    // The feed reads the change; the nudge only shows the stream is read.
                    Some(()) => continue,
                    None => {
                        let hub = self.hub.clone();
                        return dropped(&hub, self);
                    }
                },
                followed = self.follower.next() => match followed {
                    Followed::Chunk(chunk) => return Some((Ok(chunk), self)),
                    Followed::Lagged => {
                        METRICS.record_stream_dropped("slow");
                        return Some((Err(too_slow()), self));
                    }
                    Followed::Ended => return None,
                },
                () = &mut quiet => {
                    let beat = frames::heartbeat(self.framing, &MatchStreamEvent::Heartbeat);
                    return Some((Ok(beat), self));
                }
            }
        }
    }
}

/// The end of a stream the hub dropped: a clean end when the instance stops; else its client
/// stopped reading, and an error, which makes actix close the connection rather than keep it.
fn dropped<T>(hub: &Hub, state: T) -> Option<(Result<Bytes, actix_web::Error>, T)> {
    if hub.is_closed() {
        return None;
    }
    Some((Err(too_slow()), state))
}

fn too_slow() -> actix_web::Error {
    actix_web::error::ErrorRequestTimeout("the client stopped reading its stream")
}

/// Where to resume: `Last-Event-ID` (what `EventSource` sends when it reconnects), else `after`.
fn resume_point(request: &HttpRequest, query: &StreamQuery) -> Result<Option<i64>, Problem> {
    let invalid = || {
        Problem::new(
            Code::InvalidLastEventId,
            "Last-Event-ID and `after` are versions: whole numbers from 0",
        )
    };
    let after = match request.headers().get("Last-Event-ID") {
        Some(value) => Some(
            value
                .to_str()
                .ok()
                .and_then(|text| text.trim().parse::<i64>().ok())
                .ok_or_else(invalid)?,
        ),
        None => query.after,
    };
    match after {
        Some(version) if version < 0 => Err(invalid()),
        after => Ok(after),
    }
}

/// Who opens a stream from `request`: its client address (as the rate limiter sees it), its
/// token and its connection.
fn opener(request: &HttpRequest, hub: &Hub, token: Option<&str>) -> Opener {
    let client = request.peer_addr().map(|peer| {
        super::limits::client_address(peer.ip(), request.headers(), hub.trusted_proxies())
    });
    Opener {
        client,
        token: token.map(str::to_owned),
        connection: Connection::of(request),
    }
}

/// A stream refused: counted under `metric`, retried after `seconds`.
fn refused(code: Code, detail: String, metric: &'static str, seconds: u32) -> Problem {
    METRICS.record_stream_dropped(metric);
    Problem::new(code, detail).with_retry_after(seconds)
}

fn subscribe(hub: &Hub, id: Uuid, opener: Opener) -> Result<Subscription, Problem> {
    hub.subscribe(id, opener).map_err(|refusal| match refusal {
        SubscribeError::ClientFull(cap) => refused(
            Code::ClientStreamLimit,
            format!("this client address already holds {cap} live streams on this server"),
            "client_full",
            30,
        ),
        SubscribeError::TokenFull(cap) => refused(
            Code::TokenStreamLimit,
            format!("this token already holds {cap} live streams on this server"),
            "token_full",
            30,
        ),
        SubscribeError::MatchFull(cap) => refused(
            Code::TooManyStreams,
            format!("this match or sheet already has {cap} spectator streams on this server"),
            "match_full",
            30,
        ),
        SubscribeError::Stopping => refused(
            Code::Draining,
            "this instance is shutting down and takes no new work; other instances do".to_owned(),
            "stopping",
            1,
        ),
        SubscribeError::InstanceFull(cap) => refused(
            Code::StreamCapacity,
            format!("this server already holds {cap} live streams; retry shortly"),
            "instance_full",
            5,
        ),
    })
}

/// Opens a sheet stream: subscribes first (so no change committed after the first read is
/// missed), then reads, so that an unknown record or a bad token is an ordinary error answer.
async fn open<S: Source>(
    store: &Store,
    hub: &Hub,
    opener: Opener,
    source: S,
    after: Option<i64>,
    framing: Framing,
) -> Result<HttpResponse, Problem> {
    let subscription = subscribe(hub, source.id(), opener)?;
    let batch = read_batch(&source, store, after, None).await?;
    // Sheets are read from the primary: a version it has not reached was never given out.
    if let Some(after) = after.filter(|after| *after > batch.reached) {
        return Err(resume_point_ahead(after, batch.reached));
    }
    let first = frame(framing, &batch.events);
    let live = Live {
        hub: hub.clone(),
        store: store.clone(),
        source,
        subscription,
        framing,
        heartbeat: hub.settings().heartbeat,
        sent: batch.version,
        viewed: batch.view,
        done: batch.closed,
    };
    Ok(streaming(
        framing,
        first,
        Box::pin(stream::unfold(live, Live::next_chunk)),
    ))
}

type Body = std::pin::Pin<Box<dyn Stream<Item = Result<Bytes, actix_web::Error>>>>;

/// The streaming answer: `first`, then the rest of `body`.
fn streaming(framing: Framing, first: Bytes, body: Body) -> HttpResponse {
    let body = stream::once(async move { Ok::<_, actix_web::Error>(first) }).chain(body);
    HttpResponse::Ok()
        .content_type(framing.content_type())
        .insert_header((header::CACHE_CONTROL, "no-store"))
        // Proxies such as nginx would otherwise hold events back to fill a buffer.
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body)
}

const SSE_EXAMPLE: &str = "id: 3\nevent: entry\ndata: {\"type\":\"entry\",\"version\":3,\"entry\":{\"ply\":3,\"seat\":1,\"events\":[{\"type\":\"drew\",\"seat\":1}],\"at\":\"2026-11-23T20:15:03Z\"}}\n\nid: 3\nevent: view\ndata: {\"type\":\"view\",\"version\":3,\"match\":{\"...\":\"as GET /v1/matches/{id}\"}}\n\n: heartbeat\n\n";

/// A live stream of the match as the token's holder sees it (the token is optional, as for
/// `GET /v1/matches/{id}`): each new log entry redacted as that viewer's `/log` shows it, then
/// the viewer's new view, with the version as the event id. `Last-Event-ID` or `?after=` resumes
/// with no gap and no duplicate. A heartbeat (an SSE comment, or a `heartbeat` line) is sent
/// after 15 quiet seconds; the stream ends with an `end` event once the match is over.
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), LastEventId, StreamQuery, InHousehold),
    responses(
        (status = 200, description = "The stream; it stays open until the match is over",
         content(
            (String = "text/event-stream", example = json!(SSE_EXAMPLE)),
            (MatchStreamEvent = "application/x-ndjson"),
        )),
        Problems<(BadRequest, Unauthorized, NotFound, TooManyStreams, OtherClientError, Unavailable)>,
    )
)]
#[get("/matches/{id}/stream")]
pub async fn stream_match(
    store: web::Data<Store>,
    feeds: web::Data<Feeds>,
    hub: web::Data<Hub>,
    path: web::Path<Uuid>,
    query: web::Query<StreamQuery>,
    request: HttpRequest,
) -> Result<HttpResponse, Problem> {
    let after = resume_point(&request, &query)?;
    let id = path.into_inner();
    let token = bearer(&request)?;
    let framing = Framing::from(query.format.unwrap_or_default());
    // Subscribed first: the caps, and the instance's stop, apply before anything is read.
    let subscription = subscribe(&hub, id, opener(&request, &hub, token.as_deref()))?;
    let who = super::households::who(&store, &request, &token).await?;
    let (first, follower) = feeds.follow(id, who, after, framing).await?;
    let following = Following {
        hub: hub.get_ref().clone(),
        subscription,
        follower,
        framing,
        heartbeat: hub.settings().heartbeat,
    };
    Ok(streaming(
        framing,
        first,
        Box::pin(stream::unfold(following, Following::next_chunk)),
    ))
}

/// A live stream of a score sheet: each new entry, then the sheet with its new standings, with
/// the version as the event id; resumes and heartbeats as for matches. A finished sheet still
/// takes corrections, so its stream stays open.
#[utoipa::path(
    tag = "sheets",
    params(("id" = Uuid, Path), LastEventId, StreamQuery, InHousehold),
    responses(
        (status = 200, description = "The stream",
         content(
            (String = "text/event-stream"),
            (SheetStreamEvent = "application/x-ndjson"),
        )),
        Problems<(BadRequest, NotFound, TooManyStreams, OtherClientError, Unavailable)>,
    )
)]
#[get("/sheets/{id}/stream")]
pub async fn stream_sheet(
    store: web::Data<Store>,
    hub: web::Data<Hub>,
    path: web::Path<Uuid>,
    query: web::Query<StreamQuery>,
    request: HttpRequest,
) -> Result<HttpResponse, Problem> {
    let after = resume_point(&request, &query)?;
    let source = SheetSource {
        id: path.into_inner(),
        space: super::households::space(&store, &request, Need::Read).await?,
    };
    // Sheets take no token: every sheet stream is a spectator's.
    let opener = opener(&request, &hub, None);
    open(
        &store,
        &hub,
        opener,
        source,
        after,
        Framing::from(query.format.unwrap_or_default()),
    )
    .await
}
