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
//!
//! Each file answers one question: what a feed and its streams pass between them (`update`), what
//! a feed holds and builds on each change (`state`), how feeds are started, read and joined
//! (`registry`), and what one stream writes of each update (`follower`). How the events are
//! framed on the wire is [`crate::frames`]'s, shared with the sheet streams.

mod follower;
mod registry;
mod state;
mod update;

pub use follower::{Followed, Follower};
pub use registry::{resume_point_ahead, Feeds};
pub use update::MatchStreamEvent;
