//! Rows and queries for the entries of score sheets.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::matches::{MatchRow, SeatRow};
use super::results::Happened;
use super::schema::{match_seats, matches, sheet_entries};
use super::StoreError;
use crate::vocabulary::{MatchStatus, SheetEntryKind, Space};

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = sheet_entries)]
pub struct SheetEntryRow {
    pub match_id: Uuid,
    pub seq: i64,
    /// What the entry records: a round (or its correction), a removal, a rename, a finish.
    pub kind: SheetEntryKind,
    /// A round: the round it describes. A removal: the round it took away. A rename or a
    /// finish: how many rounds stood then.
    pub round: i32,
    /// A round's tally; nothing for the other kinds.
    pub tally: Option<Value>,
    pub corrects: Option<i64>,
    pub note: Option<String>,
    pub created_at: DateTime<Utc>,
    /// The `Idempotency-Key` the entry was sent with, and a fingerprint of its request.
    pub idempotency_key: Option<String>,
    pub request_hash: Option<Vec<u8>>,
    /// A rename's seat, old name and new name (`{"seat", "old_name", "new_name"}`).
    pub renamed: Option<Value>,
    /// An imported play's final standings.
    pub imported: Option<Value>,
}

pub async fn sheet_entries(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> Result<Vec<SheetEntryRow>, StoreError> {
    Ok(sheet_entries::table
        .filter(sheet_entries::match_id.eq(id))
        .order(sheet_entries::seq)
        .select(SheetEntryRow::as_select())
        .load(conn)
        .await?)
}

pub async fn append_sheet_entry(
    conn: &mut AsyncPgConnection,
    entry: &SheetEntryRow,
) -> Result<(), StoreError> {
    diesel::insert_into(sheet_entries::table)
        .values(entry)
        .execute(conn)
        .await?;
    Ok(())
}

/// Moves a sheet to `version` for an entry that changes neither its rounds nor its result (a
/// rename): the version grows, so caches and streams see the change.
pub async fn touch(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    version: i64,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    diesel::update(matches::table.find(id))
        .set((matches::version.eq(version), matches::updated_at.eq(now)))
        .execute(conn)
        .await?;
    Ok(())
}

/// Renames one seat of a sheet: its name and identity key change, and whatever the sheet already
/// counts in the players' records (a finished sheet's result, an abandoned one's abandon) counts
/// for the new name from then on, and nothing of it under the old one (the writer of results).
/// Call it in the transaction that locked the row.
pub async fn rename_sheet_seat(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    seat: &SeatRow,
    name: &str,
) -> Result<(), StoreError> {
    diesel::update(match_seats::table.find((row.id, seat.seat)))
        .set((
            match_seats::player_name.eq(name),
            match_seats::player_key.eq(Space::of(row.household).player_key(name)),
            // A named seat is somebody's, an anonymous one included.
            match_seats::anonymous.eq(false),
        ))
        .execute(conn)
        .await?;
    if row.status == MatchStatus::InProgress {
        return Ok(());
    }
    let happened = Happened::Renamed {
        before: row,
        was: &seat.player_key,
    };
    super::results::record(conn, happened).await
}
