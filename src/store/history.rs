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

/// A record near an evening: when it began, when it was last played, and who sat at it.
#[derive(Debug, Clone, QueryableByName)]
pub struct NearbyRecord {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    pub id: Uuid,
    #[diesel(sql_type = diesel::sql_types::Timestamptz)]
    pub created_at: DateTime<Utc>,
    #[diesel(sql_type = diesel::sql_types::Timestamptz)]
    pub last_played: DateTime<Utc>,
    #[diesel(sql_type = diesel::sql_types::Array<diesel::sql_types::Text>)]
    pub keys: Vec<String>,
}

/// The household's sheets and hosted matches begun from `from` to `to`, in the order they began
/// (the first 200), with their players' keys.
pub async fn records_between(
    conn: &mut AsyncPgConnection,
    household: Uuid,
    (from, to): (DateTime<Utc>, DateTime<Utc>),
) -> Result<Vec<NearbyRecord>, StoreError> {
    use diesel::sql_types::{Timestamptz, Uuid as SqlUuid};
    Ok(diesel::sql_query(
        "SELECT m.id, m.created_at, coalesce(m.finished_at, m.updated_at) AS last_played, \
                array_agg(s.player_key) FILTER (WHERE NOT s.anonymous) AS keys \
         FROM matches m JOIN match_seats s ON s.match_id = m.id \
         WHERE m.household = $1 AND m.created_at >= $2 AND m.created_at <= $3 \
         GROUP BY m.id ORDER BY m.created_at, m.id LIMIT 200",
    )
    .bind::<SqlUuid, _>(household)
    .bind::<Timestamptz, _>(from)
    .bind::<Timestamptz, _>(to)
    .load(conn)
    .await?)
}
