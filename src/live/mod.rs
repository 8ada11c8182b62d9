//! Live streams: who is subscribed to which match or sheet in this instance, and how they learn
//! that something changed.
//!
//! A statement that moves matches or sheets forward fires one
//! `pg_notify('referee_changes', '<id>:<v>,<id>:<v>,…')` for all of them (statement triggers, see
//! the `move_log` migration): a batch of moves is one notice, not one per match. One [`listener`] task per instance
//! holds a plain connection that `LISTEN`s on that channel and passes each notice to the [`Hub`],
//! which nudges the subscribers of that id. A nudge carries no content: what is new is read from
//! the tables (for a match, once by its feed for all its streams, see `crate::matches::Feeds`;
//! for a sheet, by each stream), so a stream shows exactly what the viewer's `/log` would, and a
//! lost or duplicated nudge costs at most one extra read. Every instance on the database gets
//! every notice, so a move made through any of them reaches the subscribers of all. Moves are
//! announced only for matches some feed follows (`crate::store::watches`).

mod hub;
mod listener;
mod peer;

pub use hub::{Hub, Opener, SubscribeError, Subscription};
pub use listener::listen;
pub use peer::{remember as remember_connection, Connection};
