//! Hosted matches: the referee applied to state kept in PostgreSQL.
//!
//! Each file answers one question: what the endpoints take and answer (`wire`), who may see and
//! do what (`access`), how a match is created and read (`create`), how a move or chance report
//! is played and written (`submit`), what the log, an earlier ply, the result and the export say
//! (`replay`), how matches are listed (`list`), and how a match's live streams are fed (`feed`).
//! What matches share with score sheets lives in [`crate::records`].
//!
//! The log is the truth: a move appends its events, and the state on the match row is a snapshot
//! written every few plies and when the match ends ([`current`] plays the events after it). How
//! a move is read, retried and written is the store's ([`crate::store::moves`]): `submit` only
//! judges it (authenticate, referee, reply) and hands that over. A retry with a known
//! `Idempotency-Key` gets the stored first answer.

mod access;
mod create;
mod current;
mod feed;
mod hands;
mod list;
mod lobby;
mod mend;
mod replay;
mod submit;
mod wire;

pub use access::{authenticate, Credential, Who};
pub use create::{create, read};
pub use feed::{resume_point_ahead, Feeds, Followed, Follower, MatchStreamEvent};
pub use hands::{enter_hand, entered_hands, EnterHand, EnteredHands};
pub use list::list;
pub use lobby::{
    abandon_match, abandon_sheet, check_invite_code, invite, redeem_invite, reissue_invite,
    reissue_token, rematch, rename_seat, InviteError, InviteInfo, RedeemedInvite, Rematch,
    RenameSeat,
};
pub use mend::{mend, Mending, MendingBody};
pub use replay::{at_ply, export, log_page, result, verify_export, ExportBody};
pub use submit::{submit, Submission, SubmissionBody};
pub use wire::{
    AnyCreateMatch, AnyCreatedMatch, AnyMatchDetail, AnyMatchExport, AnyMatchLog, AnyMatchResult,
    AnyMoveReply, AnyPlyView, CorrectChance, CreateMatch, CreatedMatch, ExportedInput, ListQuery,
    LogEntry, LogQuery, MatchDetail, MatchExport, MatchLog, MatchPage, MatchResult, MatchSummary,
    MoveReply, PlyView, SeatInvite, SeatToken, SubmitChance, SubmitMove, TakeBack,
};
