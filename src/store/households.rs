//! Households and their keys. A key is stored as its hash only, in a table keyed by that hash
//! (a presented key is looked up before its household is known); a household holds one owner key
//! and one reader key at a time.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::schema::{household_keys, households};
use super::StoreError;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = households)]
pub struct HouseholdRow {
    pub id: Uuid,
    pub name: String,
    pub created_at: DateTime<Utc>,
}

/// Which of a household's keys: the owner's (writes and reads), or the reader's (reads only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeyRole {
    Owner,
    Reader,
}

impl KeyRole {
    /// As stored, and as the path names it.
    fn column(self) -> &'static str {
        match self {
            KeyRole::Owner => "owner",
            KeyRole::Reader => "reader",
        }
    }

    /// The readable start of a key of this role (`hh_owner_…`, `hh_reader_…`).
    pub fn prefix(self) -> String {
        format!("hh_{}", self.column())
    }
}

/// Stores a new household with the hashes of its two keys.
pub async fn insert(
    conn: &mut AsyncPgConnection,
    row: &HouseholdRow,
    owner_key_hash: &[u8],
    reader_key_hash: &[u8],
) -> Result<(), StoreError> {
    let keys = [
        key_row(owner_key_hash, row.id, KeyRole::Owner),
        key_row(reader_key_hash, row.id, KeyRole::Reader),
    ];
    conn.transaction(async |conn| {
        diesel::insert_into(households::table)
            .values(row)
            .execute(conn)
            .await?;
        diesel::insert_into(household_keys::table)
            .values(&keys)
            .execute(conn)
            .await?;
        Ok::<_, StoreError>(())
    })
    .await
}

#[derive(Insertable)]
#[diesel(table_name = household_keys)]
struct KeyRow {
    key_hash: Vec<u8>,
    household: Uuid,
    role: &'static str,
}

fn key_row(key_hash: &[u8], household: Uuid, role: KeyRole) -> KeyRow {
    KeyRow {
        key_hash: key_hash.to_vec(),
        household,
        role: role.column(),
    }
}

/// The household a key hash opens, and what it may do there.
pub async fn by_key(
    conn: &mut AsyncPgConnection,
    key_hash: &[u8],
) -> Result<Option<(Uuid, KeyRole)>, StoreError> {
    let found: Option<(Uuid, String)> = household_keys::table
        .find(key_hash)
        .select((household_keys::household, household_keys::role))
        .first(conn)
        .await
        .optional()?;
    Ok(found.map(|(household, role)| {
        let role = if role == KeyRole::Owner.column() {
            KeyRole::Owner
        } else {
            KeyRole::Reader
        };
        (household, role)
    }))
}

pub async fn find(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> Result<Option<HouseholdRow>, StoreError> {
    Ok(households::table
        .find(id)
        .select(HouseholdRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Replaces the household's key of `role` by the one hashed `new_hash`: the old one opens
/// nothing from the commit on.
pub async fn replace_key(
    conn: &mut AsyncPgConnection,
    household: Uuid,
    role: KeyRole,
    new_hash: &[u8],
) -> Result<(), StoreError> {
    let key = key_row(new_hash, household, role);
    conn.transaction(async |conn| {
        diesel::delete(
            household_keys::table
                .filter(household_keys::household.eq(household))
                .filter(household_keys::role.eq(role.column())),
        )
        .execute(conn)
        .await?;
        diesel::insert_into(household_keys::table)
            .values(&key)
            .execute(conn)
            .await?;
        Ok::<_, StoreError>(())
    })
    .await
}
