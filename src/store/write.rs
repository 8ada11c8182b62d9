//! The one way a record (a hosted match or a score sheet) is written with its row locked: a
//! take-back or a correction, every sheet write, and a move that keeps losing the optimistic race
//! of [`Store::play`]. The steps are always the same and always here: hold this instance's moves
//! on the record back (matches only), lock the row, read its seats and the entry a retry's
//! `Idempotency-Key` names, let the judge decide, then append the entries and move the record on
//! (the snapshot and, when a result changes, the writer of results) in the same transaction.
//!
//! The services layer only judges: a [`Judge`] gets the locked record and answers with what to
//! write and what to reply; it never locks, appends or counts a result itself.

use std::future::Future;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::matches::{self as q, EventRow, MatchRow, SeatRow};
use super::schema::sheet_entries;
use super::sheets::{self as sheet_rows, SheetEntryRow};
use super::snapshot;
use super::snapshot::FinishedMatch;
use super::{Store, StoreError, UnknownRecord};
use crate::vocabulary::MatchKind;

/// The log a record appends to: a match's events or a sheet's entries.
pub trait Log: Send + Sync + 'static {
    type Entry: Send + Sync;
    /// Whether writes hold the record's moves back on this instance (a match's live copy).
    const HOLDS_MOVES: bool;
    /// The kind of record whose log this is.
    const KIND: MatchKind;

    /// The entry stored under `key`, if any.
    fn earlier<'a>(
        conn: &'a mut AsyncPgConnection,
        id: Uuid,
        key: &'a str,
    ) -> impl Future<Output = Result<Option<Self::Entry>, StoreError>> + Send + 'a;

    fn append<'a>(
        conn: &'a mut AsyncPgConnection,
        entries: &'a [Self::Entry],
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'a;
}

/// A hosted match's log of moves, chance outcomes and mendings.
pub struct Events;

impl Log for Events {
    type Entry = EventRow;
    const HOLDS_MOVES: bool = true;
    const KIND: MatchKind = MatchKind::Hosted;

    fn earlier<'a>(
        conn: &'a mut AsyncPgConnection,
        id: Uuid,
        key: &'a str,
    ) -> impl Future<Output = Result<Option<EventRow>, StoreError>> + Send + 'a {
        q::event_by_idempotency_key(conn, id, key)
    }

    fn append<'a>(
        conn: &'a mut AsyncPgConnection,
        entries: &'a [EventRow],
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'a {
        q::append_events(conn, entries)
    }
}

/// A score sheet's entries.
pub struct SheetEntries;

impl Log for SheetEntries {
    type Entry = SheetEntryRow;
    const HOLDS_MOVES: bool = false;
    const KIND: MatchKind = MatchKind::Sheet;

    async fn earlier(
        conn: &mut AsyncPgConnection,
        id: Uuid,
        key: &str,
    ) -> Result<Option<SheetEntryRow>, StoreError> {
        Ok(sheet_entries::table
            .filter(sheet_entries::match_id.eq(id))
            .filter(sheet_entries::idempotency_key.eq(key))
            .select(SheetEntryRow::as_select())
            .first(conn)
            .await
            .optional()?)
    }

    async fn append(
        conn: &mut AsyncPgConnection,
        entries: &[SheetEntryRow],
    ) -> Result<(), StoreError> {
        for entry in entries {
            sheet_rows::append_sheet_entry(conn, entry).await?;
        }
        Ok(())
    }
}

/// The record as the judge finds it: its row locked, its seats, and the entry stored under the
/// request's `Idempotency-Key` (a retry), if any.
pub struct Locked<E> {
    pub row: MatchRow,
    pub seats: Vec<SeatRow>,
    pub earlier: Option<E>,
}

/// What the judge decided.
pub enum Decision<E, R, O> {
    /// Nothing to write: answer this (a retry's first answer).
    Answer(O),
    /// Write this, then answer from `R` ([`Judge::answer`]).
    Write(Box<Write<E>>, R),
}

/// What a write adds to its record.
pub struct Write<E> {
    /// The record as judged, at the version its log stands at.
    pub record: MatchRow,
    /// The record's version after the write: the number of its last entry.
    pub version: i64,
    pub entries: Vec<E>,
    pub change: Change,
    pub now: DateTime<Utc>,
}

/// How the record moves on with its new entries.
pub enum Change {
    /// A new state (snapshot), and the result when the write ends the record.
    Advance {
        state: Value,
        finished: Option<FinishedMatch>,
    },
    /// A sheet's seat takes a new name; the rounds and the result stay as they are.
    Rename { seat: SeatRow, name: String },
}

/// What judge `J` decides.
pub type DecisionOf<J> =
    Decision<<<J as Judge>::Log as Log>::Entry, <J as Judge>::Reply, <J as Judge>::Output>;

/// A service's decision about one write, made on the locked record.
pub trait Judge: Send {
    type Log: Log;
    /// What the decision carries to the answer after the write.
    type Reply: Send;
    /// The answer.
    type Output: Send;
    type Error: From<StoreError> + From<UnknownRecord> + From<diesel::result::Error> + Send;

    /// Decides; `conn` is the locked transaction's, for what the judge must read beyond the row
    /// and its seats (a log, entries).
    fn judge(
        self,
        conn: &mut AsyncPgConnection,
        locked: Locked<<Self::Log as Log>::Entry>,
    ) -> impl Future<Output = Result<DecisionOf<Self>, Self::Error>> + Send;

    /// The answer once the write is done, in the same transaction.
    fn answer(
        conn: &mut AsyncPgConnection,
        id: Uuid,
        reply: Self::Reply,
    ) -> impl Future<Output = Result<Self::Output, Self::Error>> + Send;
}

impl Store {
    /// Writes to record `id` as `judge` decides, with the row locked, in one transaction.
    pub async fn write<J: Judge>(
        &self,
        id: Uuid,
        idempotency_key: Option<&str>,
        judge: J,
    ) -> Result<J::Output, J::Error> {
        let _held = if <J::Log as Log>::HOLDS_MOVES {
            Some(self.hold(id).await)
        } else {
            None
        };
        self.write_held(id, idempotency_key, judge).await
    }

    /// [`Store::write`] for a caller that holds the record's moves back already.
    pub(super) async fn write_held<J: Judge>(
        &self,
        id: Uuid,
        idempotency_key: Option<&str>,
        judge: J,
    ) -> Result<J::Output, J::Error> {
        let mut conn = self.conn().await?;
        conn.transaction(async |conn| write_locked(conn, id, idempotency_key, judge).await)
            .await
    }
}

async fn write_locked<J: Judge>(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    idempotency_key: Option<&str>,
    judge: J,
) -> Result<J::Output, J::Error> {
    let Some(row) = q::find_for_update(conn, id).await? else {
        let kind = <J::Log as Log>::KIND;
        return Err(UnknownRecord { kind, id }.into());
    };
    let seats = q::seats(conn, id).await?;
    let earlier = match idempotency_key {
        Some(key) => <J::Log as Log>::earlier(conn, id, key).await?,
        None => None,
    };
    let locked = Locked {
        row,
        seats,
        earlier,
    };
    let (write, reply) = match judge.judge(conn, locked).await? {
        Decision::Answer(answer) => return Ok(answer),
        Decision::Write(write, reply) => (write, reply),
    };
    <J::Log as Log>::append(conn, &write.entries).await?;
    match &write.change {
        Change::Advance { state, finished } => {
            let finished = finished.as_ref().map(FinishedMatch::as_finished);
            snapshot::advance(
                conn,
                &write.record,
                write.version,
                state,
                finished,
                write.now,
            )
            .await?;
        }
        Change::Rename { seat, name } => {
            sheet_rows::rename_sheet_seat(conn, &write.record, seat, name).await?;
            sheet_rows::touch(conn, id, write.version, write.now).await?;
        }
    }
    J::answer(conn, id, reply).await
}
