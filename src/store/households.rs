//! Households and their keys. A key is stored as its hash only, in a table keyed by that hash
//! (a presented key is looked up before its household is known); a household holds one owner key
//! and one reader key at a time.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{Array, Integer, Text, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::columns::GameColumn;
use super::names::SeatKeys;
use super::results::{self, Board, Happened};
use super::schema::{household_keys, households, match_seats, matches};
use super::StoreError;
use crate::vocabulary::{MatchKind, MatchStatus, Space};

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

/// A public record one of the players a bring-in names sat at.
#[derive(Debug, QueryableByName)]
pub struct PublicRecord {
    #[diesel(sql_type = SqlUuid)]
    pub id: Uuid,
    #[diesel(sql_type = Text)]
    pub kind: MatchKind,
    #[diesel(sql_type = Text)]
    pub game: GameColumn,
    #[diesel(sql_type = Text)]
    pub status: MatchStatus,
    #[diesel(sql_type = Array<Integer>)]
    pub seats: Vec<i32>,
    #[diesel(sql_type = Array<Text>)]
    pub names: Vec<String>,
    #[diesel(sql_type = Array<Text>)]
    pub keys: Vec<String>,
}

impl PublicRecord {
    /// Whether it may move into a household: it has ended, and every player at it is named.
    pub fn movable(&self, named: &HashSet<String>) -> bool {
        self.status != MatchStatus::InProgress
            && self
                .keys
                .iter()
                .all(|key| !needs_naming(key) || named.contains(key))
    }
}

/// Whether a public seat's player must be named for its record to move: an anonymous seat
/// (the public space's empty key) is nobody, and moves with the record.
pub fn needs_naming(key: &str) -> bool {
    !key.is_empty()
}

/// Every public record a player of `keys` sat at, newest first, and, unless `dry_run`, the
/// ones that may move ([`PublicRecord::movable`]) moved into `household`: the records and their
/// seats' player keys, with everything their results count for following ([`results::record`]).
/// The records that move are locked first, so a correction or rename waits for the move and
/// then works on the moved record. Answers the records and the ids of those that moved.
pub async fn bring_in(
    conn: &mut AsyncPgConnection,
    household: Uuid,
    keys: &[String],
    dry_run: bool,
) -> Result<(Vec<PublicRecord>, Vec<Uuid>), StoreError> {
    conn.transaction(async |conn| {
        let public = Space::PUBLIC.id();
        let locked: Vec<Uuid> = if dry_run {
            Vec::new()
        } else {
            matches::table
                .filter(matches::household.eq(public))
                .filter(matches::status.ne(MatchStatus::InProgress))
                .filter(
                    matches::id.eq_any(
                        match_seats::table
                            .filter(match_seats::player_key.eq_any(keys))
                            .select(match_seats::match_id),
                    ),
                )
                .select(matches::id)
                .order(matches::id)
                .for_update()
                .load(conn)
                .await?
        };
        let records: Vec<PublicRecord> = diesel::sql_query(
            "SELECT m.id, m.kind, m.game, m.status, \
                    array_agg(s.seat ORDER BY s.seat) AS seats, \
                    array_agg(s.player_name ORDER BY s.seat) AS names, \
                    array_agg(s.player_key ORDER BY s.seat) AS keys \
             FROM matches m JOIN match_seats s ON s.match_id = m.id \
             WHERE m.household = $2 \
               AND m.id IN (SELECT match_id FROM match_seats WHERE player_key = ANY($1)) \
             GROUP BY m.id \
             ORDER BY coalesce(m.finished_at, m.updated_at) DESC, m.id",
        )
        .bind::<Array<Text>, _>(keys)
        .bind::<SqlUuid, _>(public)
        .load(conn)
        .await?;
        if dry_run {
            return Ok((records, Vec::new()));
        }
        let named: HashSet<String> = keys.iter().cloned().collect();
        let locked: HashSet<Uuid> = locked.into_iter().collect();
        let moving: Vec<&PublicRecord> = records
            .iter()
            .filter(|record| record.movable(&named) && locked.contains(&record.id))
            .collect();
        if moving.is_empty() {
            return Ok((records, Vec::new()));
        }
        let ids: Vec<Uuid> = moving.iter().map(|record| record.id).collect();
        diesel::update(matches::table.filter(matches::id.eq_any(&ids)))
            .set(matches::household.eq(household))
            .execute(conn)
            .await?;
        let into = Space::of(household);
        let mut keys = SeatKeys::default();
        for record in &moving {
            for (&seat, key) in record.seats.iter().zip(&record.keys) {
                keys.push(record.id, seat, into.scoped(key.clone()));
            }
        }
        keys.write(conn).await?;
        let left: Vec<(Uuid, Board)> = moving
            .iter()
            .map(|record| {
                let board = Board {
                    household: public,
                    game: record.game.kind(),
                };
                (record.id, board)
            })
            .collect();
        let mut was: Vec<String> = moving.iter().flat_map(|r| r.keys.clone()).collect();
        was.sort_unstable();
        was.dedup();
        results::record(
            conn,
            Happened::Moved {
                records: &left,
                was: &was,
                to: household,
            },
        )
        .await?;
        Ok((records, ids))
    })
    .await
}
