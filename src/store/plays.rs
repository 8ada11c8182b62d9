//! Plays going out to, and coming in from, another score keeper: every result that counts in
//! statistics, a page at a time, for an export of everything; and imported plays written as
//! score sheets, each in its own savepoint, with their players' totals and ratings.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::columns::GameColumn;
use super::lobby::record_abandon;
use super::matches::{self as q, MatchRow, SeatRow};
use super::rating_reads::SeatChange;
use super::results::{record, Happened, Place};
use super::schema::matches;
use super::sheets::{append_sheet_entry, SheetEntryRow};
use super::stat_reads::{abandons_of, Abandoned, Period};
use super::StoreError;
use crate::vocabulary::{AbandonedBy, MatchStatus, Space};

/// Results that count in statistics: finished, or abandoned after play began; by when they
/// ended (finished or were abandoned), in the space `$3`.
const COUNTED: &str = "FROM matches m LEFT JOIN match_abandons a ON a.match_id = m.id \
     WHERE m.household = $3 \
       AND (m.status = 'finished' OR (m.status = 'abandoned' AND a.after_play)) \
       AND ($1::timestamptz IS NULL OR coalesce(m.finished_at, a.abandoned_at) >= $1) \
       AND ($2::timestamptz IS NULL OR coalesce(m.finished_at, a.abandoned_at) < $2)";

#[derive(QueryableByName)]
struct Name {
    #[diesel(sql_type = Text)]
    player_name: String,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    anonymous: bool,
}

/// Every name as written at a counted result's table in the period, sorted, each with whether
/// it names an anonymous seat (a name and an anonymous seat of that name are two players).
pub async fn counted_names(
    conn: &mut AsyncPgConnection,
    space: Space,
    period: Period,
) -> Result<Vec<(String, bool)>, StoreError> {
    let names: Vec<Name> = diesel::sql_query(format!(
        "SELECT DISTINCT s.player_name, s.anonymous FROM match_seats s \
         WHERE s.match_id IN (SELECT m.id {COUNTED}) ORDER BY 1, 2"
    ))
    .bind::<Nullable<Timestamptz>, _>(period.from)
    .bind::<Nullable<Timestamptz>, _>(period.to)
    .bind::<SqlUuid, _>(space.id())
    .load(conn)
    .await?;
    Ok(names
        .into_iter()
        .map(|n| (n.player_name, n.anonymous))
        .collect())
}

/// A counted result with what an export writes of it.
pub struct CountedResult {
    pub row: MatchRow,
    pub seats: Vec<SeatRow>,
    pub abandon: Option<Abandoned>,
    pub changes: Vec<SeatChange>,
    /// When it ended: its place in the export's order.
    pub ended: Place,
}

#[derive(QueryableByName)]
struct Ended {
    #[diesel(sql_type = SqlUuid)]
    id: Uuid,
    #[diesel(sql_type = Timestamptz)]
    ended: DateTime<Utc>,
}

/// Up to `limit` counted results of the period after `after`, in the order they ended.
pub async fn counted_page(
    conn: &mut AsyncPgConnection,
    space: Space,
    period: Period,
    after: Option<Place>,
    limit: i64,
) -> Result<Vec<CountedResult>, StoreError> {
    let (after_at, after_id) = after.unzip();
    let page: Vec<Ended> = diesel::sql_query(format!(
        "SELECT m.id, coalesce(m.finished_at, a.abandoned_at) AS ended {COUNTED} \
           AND ($4::timestamptz IS NULL \
                OR (coalesce(m.finished_at, a.abandoned_at), m.id) > ($4, $5)) \
         ORDER BY 2, 1 LIMIT $6"
    ))
    .bind::<Nullable<Timestamptz>, _>(period.from)
    .bind::<Nullable<Timestamptz>, _>(period.to)
    .bind::<SqlUuid, _>(space.id())
    .bind::<Nullable<Timestamptz>, _>(after_at)
    .bind::<Nullable<SqlUuid>, _>(after_id)
    .bind::<BigInt, _>(limit)
    .load(conn)
    .await?;
    let ids: Vec<Uuid> = page.iter().map(|p| p.id).collect();
    let rows: Vec<MatchRow> = matches::table
        .filter(matches::id.eq_any(&ids))
        .select(MatchRow::as_select())
        .load(conn)
        .await?;
    let mut rows: BTreeMap<Uuid, MatchRow> = rows.into_iter().map(|r| (r.id, r)).collect();
    let seats = q::seats_of(conn, &ids).await?;
    let abandons = abandons_of(conn, &ids).await?;
    let changes = super::rating_reads::changes_of(conn, &ids).await?;
    Ok(page
        .into_iter()
        .filter_map(|p| {
            let row = rows.remove(&p.id)?;
            let mut table: Vec<SeatRow> = seats
                .iter()
                .filter(|s| s.match_id == p.id)
                .cloned()
                .collect();
            table.sort_by_key(|s| s.seat);
            Some(CountedResult {
                seats: table,
                abandon: abandons.iter().find(|a| a.match_id == p.id).cloned(),
                changes: changes
                    .iter()
                    .filter(|c| c.match_id == p.id)
                    .cloned()
                    .collect(),
                ended: (p.ended, p.id),
                row,
            })
        })
        .collect())
}

/// A play ready to be stored as a closed score sheet.
pub struct NewPlay {
    pub row: MatchRow,
    pub seats: Vec<SeatRow>,
    pub entry: SheetEntryRow,
    /// Abandoned after play began: by whom and when (the row's status says abandoned).
    pub abandoned: Option<(AbandonedBy, DateTime<Utc>)>,
}

/// What became of a play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    Created,
    /// A match or sheet with its id is already stored with the same game, players and scores
    /// (this file, or this play, came before).
    AlreadyStored,
    /// A match or sheet with its id is stored with another game, other players or other scores.
    Conflict,
}

/// Stores plays in one transaction, each all or nothing in its own savepoint: its sheet, seats
/// (with their results) and entry, or its abandon's trace; then the writer of results counts and
/// rates what was created. A play whose id is already stored is left alone.
pub async fn insert_plays(
    conn: &mut AsyncPgConnection,
    plays: &[&NewPlay],
) -> Result<Vec<Written>, StoreError> {
    conn.transaction(async |conn| {
        let mut written = Vec::with_capacity(plays.len());
        for play in plays {
            let outcome = conn
                .transaction(async |conn| insert_play(conn, play).await)
                .await?;
            written.push(outcome);
        }
        let created: Vec<&MatchRow> = plays
            .iter()
            .zip(&written)
            .filter(|(_, outcome)| **outcome == Written::Created)
            .map(|(play, _)| &play.row)
            .collect();
        if !created.is_empty() {
            record(conn, Happened::Imported { rows: &created }).await?;
        }
        Ok(written)
    })
    .await
}

/// What [`insert_plays`] would make of `plays`, all in one transaction taken back at the end:
/// the same outcomes, without rating anything (a dry run of an import holds no board's turn).
pub async fn try_plays(
    conn: &mut AsyncPgConnection,
    plays: &[&NewPlay],
) -> Result<Vec<Written>, StoreError> {
    let mut written = Vec::with_capacity(plays.len());
    let tried = conn
        .transaction(async |conn| {
            for play in plays {
                let outcome = conn
                    .transaction(async |conn| insert_play(conn, play).await)
                    .await?;
                written.push(outcome);
            }
            Err::<(), _>(StoreError::TakenBack)
        })
        .await;
    match tried {
        Ok(()) | Err(StoreError::TakenBack) => Ok(written),
        Err(error) => Err(error),
    }
}

async fn insert_play(conn: &mut AsyncPgConnection, play: &NewPlay) -> Result<Written, StoreError> {
    let stored: i64 = matches::table
        .filter(matches::id.eq(play.row.id))
        .count()
        .get_result(conn)
        .await?;
    if stored > 0 {
        return same_content(conn, play).await;
    }
    q::insert(conn, &play.row, &play.seats, &[]).await?;
    append_sheet_entry(conn, &play.entry).await?;
    if let (MatchStatus::Abandoned, Some((by, at))) = (play.row.status, play.abandoned) {
        record_abandon(conn, play.row.id, by, at).await?
    }
    Ok(Written::Created)
}

/// Whether the stored match or sheet with a play's id is that play: the same game, and the same
/// players (by name key) with the same scores, seat by seat. The first to import an id cannot
/// make a later import of other content say `matched`.
async fn same_content(conn: &mut AsyncPgConnection, play: &NewPlay) -> Result<Written, StoreError> {
    let game: GameColumn = matches::table
        .find(play.row.id)
        .select(matches::game)
        .get_result(conn)
        .await?;
    let mut seats = q::seats_of(conn, &[play.row.id]).await?;
    seats.sort_by_key(|s| s.seat);
    let same = game.kind() == play.row.game.kind()
        && seats.len() == play.seats.len()
        && seats.iter().zip(&play.seats).all(|(stored, new)| {
            stored.player_key == new.player_key && stored.final_score == new.final_score
        });
    Ok(if same {
        Written::AlreadyStored
    } else {
        Written::Conflict
    })
}

#[derive(QueryableByName)]
struct Known {
    #[diesel(sql_type = Text)]
    player_key: String,
    #[diesel(sql_type = Text)]
    player_name: String,
}

/// Of these player keys, those already seated somewhere here, with their latest name.
pub async fn known_players(
    conn: &mut AsyncPgConnection,
    keys: &[String],
) -> Result<BTreeMap<String, String>, StoreError> {
    use diesel::sql_types::Array;
    let known: Vec<Known> = diesel::sql_query(
        "SELECT DISTINCT ON (s.player_key) s.player_key, s.player_name \
         FROM match_seats s JOIN matches m ON m.id = s.match_id \
         WHERE s.player_key = ANY($1) ORDER BY s.player_key, m.created_at DESC",
    )
    .bind::<Array<Text>, _>(keys)
    .load(conn)
    .await?;
    Ok(known
        .into_iter()
        .map(|k| (k.player_key, k.player_name))
        .collect())
}
