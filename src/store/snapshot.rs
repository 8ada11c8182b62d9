//! A match's snapshot, moved forward as its log grows: its version, state, status and result,
//! and, when a result comes, goes or changes, the writer of results told what happened.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;

use super::matches::{MatchRow, SeatResult};
use super::results::Happened;
use super::schema::matches;
use super::StoreError;
use crate::vocabulary::MatchStatus;

/// What a match records as it finishes (or, for a corrected score sheet, finishes again).
#[derive(Clone, Copy)]
pub struct Finished<'a> {
    pub result: &'a Value,
    /// Which end of the totals won.
    pub lowest_wins: bool,
    pub seats: &'a [SeatResult],
}

/// The match's columns a snapshot or a correction rewrites.
#[derive(AsChangeset)]
#[diesel(table_name = matches, treat_none_as_null = true)]
pub(super) struct Snapshot<'a> {
    version: i64,
    state: &'a Value,
    status: MatchStatus,
    result: Option<&'a Value>,
    lowest_wins: Option<bool>,
    updated_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
}

impl<'a> Snapshot<'a> {
    pub(super) fn new(
        version: i64,
        state: &'a Value,
        finished: Option<Finished<'a>>,
        now: DateTime<Utc>,
    ) -> Self {
        Self {
            version,
            state,
            status: MatchStatus::of_over(finished.is_some()),
            result: finished.map(|f| f.result),
            lowest_wins: finished.map(|f| f.lowest_wins),
            updated_at: now,
            finished_at: finished.is_some().then_some(now),
        }
    }

    /// A correction of a finished sheet that leaves it finished keeps when it finished: the
    /// game was played then, and its result keeps its place in the order ratings follow.
    fn keeping_finish_of(mut self, row: &MatchRow) -> Self {
        if row.status == MatchStatus::Finished && self.finished_at.is_some() {
            self.finished_at = row.finished_at;
        }
        self
    }
}

/// Moves the snapshot forward to `version` after new events were appended (every event up to it).
/// `row` is the match as it stood before; `finished` carries the result when the match is over.
/// A match that finishes, or a finished sheet corrected (finished again or reopened), goes to the
/// writer of results, which keeps the seats' results, the players' totals and the ratings in step.
pub async fn advance(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    version: i64,
    state: &Value,
    finished: Option<Finished<'_>>,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    diesel::update(matches::table.find(row.id))
        .set(Snapshot::new(version, state, finished, now).keeping_finish_of(row))
        .execute(conn)
        .await?;
    let happened = match finished {
        Some(finished) => Happened::Finished {
            before: row,
            seats: finished.seats,
        },
        // Only a corrected score sheet goes from finished back to open.
        None if row.status == MatchStatus::Finished => Happened::Reopened { before: row },
        None => return Ok(()),
    };
    super::results::record(conn, happened).await
}

/// What a match records as it ends.
/// (Owned: what a write carries until it is stored as [`Finished`].)
pub struct FinishedMatch {
    pub result: Value,
    /// Which end of the totals won.
    pub lowest_wins: bool,
    pub seats: Vec<SeatResult>,
}

impl FinishedMatch {
    pub fn as_finished(&self) -> Finished<'_> {
        Finished {
            result: &self.result,
            lowest_wins: self.lowest_wins,
            seats: &self.seats,
        }
    }
}
