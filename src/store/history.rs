//! A player's history: every match they sat at, newest first.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::columns::GameColumn;
use super::matches::SeatRow;
use super::schema::{match_seats, matches};
use super::StoreError;
use crate::vocabulary::{MatchKind, MatchStatus, Space};

/// One match of a player's history: the match and the player's own seat.
#[derive(Debug, Clone, Queryable)]
pub struct HistoryRow {
    pub id: Uuid,
    pub kind: MatchKind,
    pub game: GameColumn,
    pub status: MatchStatus,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub seat: SeatRow,
}

/// Every match with a seat of this player (compared by [`name_key`]), newest first.
pub async fn player_matches(
    conn: &mut AsyncPgConnection,
    space: Space,
    name: &str,
) -> Result<Vec<HistoryRow>, StoreError> {
    Ok(match_seats::table
        .inner_join(matches::table)
        .filter(match_seats::player_key.eq(space.player_key(name)))
        .order((matches::created_at.desc(), matches::id.desc()))
        .select((
            matches::id,
            matches::kind,
            matches::game,
            matches::status,
            matches::created_at,
            matches::finished_at,
            SeatRow::as_select(),
        ))
        .load(conn)
        .await?)
}
