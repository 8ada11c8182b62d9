//! Hosted matches: the referee applied to state kept in PostgreSQL.
//!
//! Each file answers one question: what the endpoints take and answer (`wire`), who may see and
//! do what (`access`), how a match is created and read (`create`), how a move or chance report
//! is played and written (`submit`), what the log, an earlier ply, the result and the export say
//! (`replay`), how matches are listed (`list`), and how a match's live streams are fed (`feed`). What matches share with score sheets lives
//! in [`crate::records`].
//!
//! A move is not one locked transaction. Each instance keeps its live matches in memory
//! ([`crate::store::cache`]): a move plays on that copy (or on the match read without a lock) and
//! is written with a single statement that appends its events and moves the snapshot forward only
//! if the match still stands at the version and seat access it was read at
//! ([`crate::store::group`], which also lets moves to different matches share that statement and
//! its commit). A move that lost that race, or was refused on a cached copy, is read and played
//! again (up to three tries). A move that ends the match, which also writes the seats' results
//! and the players' running totals, is one version-checked transaction; one that keeps losing the
//! race is played in a transaction with the match row locked. A retry with a known
//! `Idempotency-Key` gets the stored first answer.

mod access;
mod create;
mod feed;
mod list;
mod lobby;
mod replay;
mod submit;
mod wire;

pub use access::{authenticate, Credential};
pub use create::{create, read};
pub use feed::{Feeds, Followed, Follower, Frame, Framing, MatchStreamEvent};
pub use list::list;
pub use lobby::{
    abandon_match, abandon_sheet, invite, redeem_invite, reissue_invite, reissue_token, rematch,
    rename_seat, InviteError, InviteInfo, RedeemedInvite, Rematch, RenameSeat,
};
pub use replay::{at_ply, export, log, result, verify_export};
pub use submit::{submit_chance, submit_move};
pub use wire::{
    AnyCreateMatch, AnyCreatedMatch, AnyMatchDetail, AnyMatchExport, AnyMatchLog, AnyMatchResult,
    AnyMoveReply, AnyPlyView, CreateMatch, CreatedMatch, ExportedInput, ListQuery, LogEntry,
    MatchDetail, MatchExport, MatchLog, MatchPage, MatchResult, MatchSummary, MoveReply, PlyView,
    SeatInvite, SeatToken, SubmitChance, SubmitMove,
};
// Kept under `matches` too, where they were first defined.
pub use crate::records::{NewSeat, SeatInfo};
