//! Rows and queries for the entries of score sheets.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::schema::sheet_entries;
use super::StoreError;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = sheet_entries)]
pub struct SheetEntryRow {
    pub match_id: Uuid,
    pub seq: i64,
    pub round: i32,
    pub tally: Value,
    pub corrects: Option<i64>,
    pub note: Option<String>,
    pub created_at: DateTime<Utc>,
    /// The `Idempotency-Key` the entry was sent with, and a fingerprint of its request.
    pub idempotency_key: Option<String>,
    pub request_hash: Option<Vec<u8>>,
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
