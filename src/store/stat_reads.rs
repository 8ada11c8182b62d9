//! Statistics reads: a player's counted seats, a game's leaderboard (all time from the running
//! totals the writer of results keeps, over a period from the results themselves) and how
//! matches were abandoned.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{
    BigInt, Bool, Double, Jsonb, Nullable, Text, Timestamptz, Uuid as SqlUuid,
};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::columns::GameColumn;
use super::StoreError;
use crate::games::GameKind;
use crate::vocabulary::{AbandonedBy, Space};

/// One seat of a player that statistics count: of a finished match, or of one abandoned after
/// play began (`abandoned`, with no result).
#[derive(Debug, Clone, QueryableByName)]
pub struct FinishedSeat {
    #[diesel(sql_type = Text)]
    pub game: GameColumn,
    /// Which end of the totals won that match.
    #[diesel(sql_type = Nullable<Bool>)]
    pub lowest_wins: Option<bool>,
    #[diesel(sql_type = Text)]
    pub player_name: String,
    #[diesel(sql_type = Nullable<BigInt>)]
    pub final_score: Option<i64>,
    #[diesel(sql_type = Nullable<Bool>)]
    pub winner: Option<bool>,
    #[diesel(sql_type = Nullable<Jsonb>)]
    pub highlights: Option<Value>,
    #[diesel(sql_type = Bool)]
    pub abandoned: bool,
}

/// When matches ended, for statistics over a period: `from` included, `to` excluded.
#[derive(Debug, Clone, Copy, Default)]
pub struct Period {
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
}

impl Period {
    pub fn is_all_time(&self) -> bool {
        self.from.is_none() && self.to.is_none()
    }
}

/// The counted seats of a player (compared by [`name_key`]): of finished matches and of matches
/// abandoned after play began, optionally of one game and of matches that ended (finished or
/// were abandoned) in a period, in the order they ended.
pub async fn finished_seats(
    conn: &mut AsyncPgConnection,
    space: Space,
    name: &str,
    game: Option<GameKind>,
    period: Period,
) -> Result<Vec<FinishedSeat>, StoreError> {
    Ok(diesel::sql_query(
        "SELECT m.game, m.lowest_wins, s.player_name, s.final_score, s.winner, s.highlights, \
                m.status = 'abandoned' AS abandoned \
         FROM match_seats s JOIN matches m ON m.id = s.match_id \
         LEFT JOIN match_abandons a ON a.match_id = m.id \
         WHERE s.player_key = $1 \
           AND (m.status = 'finished' OR (m.status = 'abandoned' AND a.after_play)) \
           AND ($2::text IS NULL OR m.game = $2) \
           AND ($3::timestamptz IS NULL OR coalesce(m.finished_at, a.abandoned_at) >= $3) \
           AND ($4::timestamptz IS NULL OR coalesce(m.finished_at, a.abandoned_at) < $4) \
         ORDER BY coalesce(m.finished_at, a.abandoned_at), m.id",
    )
    .bind::<Text, _>(space.player_key(name))
    .bind::<Nullable<Text>, _>(game.map(GameColumn))
    .bind::<Nullable<Timestamptz>, _>(period.from)
    .bind::<Nullable<Timestamptz>, _>(period.to)
    .load(conn)
    .await?)
}

/// A row of a game's leaderboard.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, QueryableByName)]
pub struct LeaderboardRow {
    #[diesel(sql_type = Text)]
    pub player: String,
    #[diesel(sql_type = BigInt)]
    pub played: i64,
    #[diesel(sql_type = BigInt)]
    pub won: i64,
    #[diesel(sql_type = Double)]
    pub win_rate: f64,
    #[diesel(sql_type = Double)]
    pub average_score: f64,
    /// Matches of the game this player sat at that were abandoned after play began (not in
    /// `played`).
    #[diesel(sql_type = BigInt)]
    pub abandoned: i64,
}

/// Players of a game ranked by wins, then win rate, then games played. All time, it reads the
/// running totals kept as matches finish (a few index rows, whatever the number of matches);
/// over a period, it counts the seats of the matches that ended in it.
pub async fn leaderboard(
    conn: &mut AsyncPgConnection,
    space: Space,
    game: GameKind,
    limit: i64,
    period: Period,
) -> Result<Vec<LeaderboardRow>, StoreError> {
    if !period.is_all_time() {
        return Ok(diesel::sql_query(
            "SELECT (array_agg(s.player_name ORDER BY coalesce(m.finished_at, a.abandoned_at) DESC))[1] \
                        AS player, \
                    count(*) FILTER (WHERE m.status = 'finished') AS played, \
                    count(*) FILTER (WHERE s.winner) AS won, \
                    coalesce((count(*) FILTER (WHERE s.winner))::float8 \
                             / nullif(count(*) FILTER (WHERE m.status = 'finished'), 0), 0) \
                        AS win_rate, \
                    coalesce(avg(s.final_score), 0)::float8 AS average_score, \
                    count(*) FILTER (WHERE m.status = 'abandoned') AS abandoned \
             FROM match_seats s JOIN matches m ON m.id = s.match_id \
             LEFT JOIN match_abandons a ON a.match_id = m.id \
             WHERE m.game = $1 AND m.household = $5 AND NOT s.anonymous \
               AND (m.status = 'finished' OR (m.status = 'abandoned' AND a.after_play)) \
               AND ($3::timestamptz IS NULL OR coalesce(m.finished_at, a.abandoned_at) >= $3) \
               AND ($4::timestamptz IS NULL OR coalesce(m.finished_at, a.abandoned_at) < $4) \
             GROUP BY s.player_key \
             ORDER BY won DESC, win_rate DESC, played DESC, s.player_key \
             LIMIT $2",
        )
        .bind::<Text, _>(GameColumn(game))
        .bind::<BigInt, _>(limit)
        .bind::<Nullable<Timestamptz>, _>(period.from)
        .bind::<Nullable<Timestamptz>, _>(period.to)
        .bind::<SqlUuid, _>(space.id())
        .load(conn)
        .await?);
    }
    Ok(diesel::sql_query(
        "SELECT player_name AS player, played, won, \
                coalesce(won::float8 / nullif(played, 0), 0) AS win_rate, \
                coalesce(score_sum::float8 / nullif(played, 0), 0) AS average_score, abandoned \
         FROM player_game_stats \
         WHERE household = $3 AND game = $1 AND (played > 0 OR abandoned > 0) \
         ORDER BY won DESC, win_rate DESC, played DESC, player_key \
         LIMIT $2",
    )
    .bind::<Text, _>(GameColumn(game))
    .bind::<BigInt, _>(limit)
    .bind::<SqlUuid, _>(space.id())
    .load(conn)
    .await?)
}

/// How a match or sheet was abandoned: shown with it wherever its status is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema, Queryable)]
pub struct Abandoned {
    #[serde(skip)]
    #[schema(ignore)]
    pub match_id: uuid::Uuid,
    /// Who gave it up.
    pub by: AbandonedBy,
    pub at: DateTime<Utc>,
    /// Its version then: a hosted match's last ply, a sheet's number of entries.
    pub at_version: i64,
    /// Whether play had begun (a seat had moved, a sheet had an entry): then it counts in each
    /// seated player's record as `abandoned`; if not, it counts nowhere.
    pub after_play: bool,
}

/// The abandons of these matches (those that were abandoned).
pub async fn abandons_of(
    conn: &mut AsyncPgConnection,
    ids: &[uuid::Uuid],
) -> Result<Vec<Abandoned>, StoreError> {
    use super::schema::match_abandons as a;
    Ok(a::table
        .filter(a::match_id.eq_any(ids))
        .select((
            a::match_id,
            a::abandoned_by,
            a::abandoned_at,
            a::at_version,
            a::after_play,
        ))
        .load(conn)
        .await?)
}

/// How this match or sheet was abandoned, if it was.
pub async fn abandon_of(
    conn: &mut AsyncPgConnection,
    id: uuid::Uuid,
) -> Result<Option<Abandoned>, StoreError> {
    Ok(abandons_of(conn, &[id]).await?.pop())
}
