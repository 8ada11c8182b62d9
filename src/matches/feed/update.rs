//! What a feed and its streams pass between them: the events of a match stream, the classes of
//! viewers a feed builds frames for, an update (one class's frames after one change, joined once
//! per framing, with who may act for each seat as of that change), and what a stream finds when
//! it joins a feed.

use std::sync::Arc;

use actix_web::web::Bytes;
use serde::Serialize;
use tokio::sync::broadcast;
use utoipa::ToSchema;

use crate::frames::{join, Frame, Framing};
use crate::games::Seat;
use crate::matches::access::Credential;
use crate::matches::wire::{LogEntry, MatchDetail};
use crate::problem::{Problem, ProblemDocument};
use crate::store::matches::{MatchRow, SeatRow};
use crate::vocabulary::MatchStatus;

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
    pub(super) fn frame(&self) -> Frame {
        let (name, version) = match self {
            Self::Entry { version, .. } => ("entry", Some(*version)),
            Self::View { version, .. } => ("view", Some(*version)),
            Self::End { version, .. } => ("end", Some(*version)),
            Self::Error { .. } => ("error", None),
            Self::Heartbeat => ("heartbeat", None),
        };
        Frame::encode(name, version, self)
    }

    pub(super) fn error(problem: &Problem) -> Self {
        Self::Error {
            problem: (**problem).clone(),
        }
    }
}

/// Who may act for each seat as of one read: a seat stream ends when its token no longer does.
#[derive(Debug, Default)]
pub(super) struct Access {
    /// `matches.access_version` when read: bumped by every re-issued token and renamed seat.
    pub(super) version: i64,
    pub(super) seats: Vec<Option<Vec<u8>>>,
}

impl Access {
    pub(super) fn of(row: &MatchRow, seats: &[SeatRow]) -> Self {
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
pub(super) struct Update {
    pub(super) frames: Vec<Arc<Frame>>,
    pub(super) sse: Bytes,
    pub(super) ndjson: Bytes,
    pub(super) access: Arc<Access>,
}

impl Update {
    pub(super) fn new(frames: Vec<Arc<Frame>>, access: Arc<Access>) -> Self {
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
pub(super) enum Class {
    Owner,
    Seat(Seat),
    Spectator,
}

impl Class {
    pub(super) fn of(credential: Credential) -> Self {
        match credential {
            Credential::Owner => Self::Owner,
            Credential::Seat(seat) => Self::Seat(seat),
            Credential::Anonymous => Self::Spectator,
        }
    }

    pub(super) fn credential(self) -> Credential {
        match self {
            Self::Owner => Credential::Owner,
            Self::Seat(seat) => Credential::Seat(seat),
            Self::Spectator => Credential::Anonymous,
        }
    }
}

/// What a stream sees of a match when it joins its feed.
pub(super) struct Joined {
    pub(super) updates: broadcast::Receiver<Arc<Update>>,
    /// The version the feed has applied: updates bring what follows it.
    pub(super) version: i64,
    /// The view at `version` (with `after` as its id when a resume point is ahead of the feed).
    pub(super) view: Option<Arc<Frame>>,
    /// The end, if the match is over.
    pub(super) end: Option<Arc<Frame>>,
    pub(super) closed: bool,
}

/// A feed as its streams and its registry hold it, whatever its game.
pub(super) trait Handle: Send + Sync {
    fn join(&self, class: Class, after: Option<i64>) -> Joined;
    /// Whether the feed has stopped reading (the match is over, or a read failed): a new stream
    /// starts a new feed.
    fn retired(&self) -> bool;
}
