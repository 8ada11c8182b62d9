//! Statistics queries: a player's finished seats, a game's leaderboard, and the running totals
//! per player and game that finishing a match keeps up to date.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Double, Nullable, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::columns::GameColumn;
use super::schema::player_game_stats as stats;
use super::schema::{match_seats, matches};
use super::StoreError;
use crate::games::GameKind;
use crate::vocabulary::{name_key, MatchStatus};

/// One finished seat of a player, as statistics read it.
#[derive(Debug, Clone, Queryable)]
pub struct FinishedSeat {
    pub game: GameColumn,
    /// Which end of the totals won that match.
    pub lowest_wins: Option<bool>,
    pub player_name: String,
    pub final_score: Option<i64>,
    pub winner: Option<bool>,
    pub highlights: Option<Value>,
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

/// The finished seats of a player (compared by [`name_key`]), optionally of one game and of
/// matches that ended in a period, in the order the matches ended.
pub async fn finished_seats(
    conn: &mut AsyncPgConnection,
    name: &str,
    game: Option<GameKind>,
    period: Period,
) -> Result<Vec<FinishedSeat>, StoreError> {
    let mut query = match_seats::table
        .inner_join(matches::table)
        .filter(match_seats::player_key.eq(name_key(name)))
        .filter(matches::status.eq(MatchStatus::Finished))
        .order((matches::finished_at, matches::id))
        .select((
            matches::game,
            matches::lowest_wins,
            match_seats::player_name,
            match_seats::final_score,
            match_seats::winner,
            match_seats::highlights,
        ))
        .into_boxed();
    if let Some(game) = game {
        query = query.filter(matches::game.eq(GameColumn(game)));
    }
    if let Some(from) = period.from {
        query = query.filter(matches::finished_at.ge(from));
    }
    if let Some(to) = period.to {
        query = query.filter(matches::finished_at.lt(to));
    }
    Ok(query.load(conn).await?)
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
}

/// Players of a game ranked by wins, then win rate, then games played. All time, it reads the
/// running totals kept as matches finish (a few index rows, whatever the number of matches);
/// over a period, it counts the seats of the matches that ended in it.
pub async fn leaderboard(
    conn: &mut AsyncPgConnection,
    game: GameKind,
    limit: i64,
    period: Period,
) -> Result<Vec<LeaderboardRow>, StoreError> {
    if !period.is_all_time() {
        return Ok(diesel::sql_query(
            "SELECT (array_agg(s.player_name ORDER BY m.finished_at DESC))[1] AS player, \
                    count(*) AS played, \
                    count(*) FILTER (WHERE s.winner) AS won, \
                    (count(*) FILTER (WHERE s.winner))::float8 / count(*) AS win_rate, \
                    coalesce(avg(s.final_score), 0)::float8 AS average_score \
             FROM match_seats s JOIN matches m ON m.id = s.match_id \
             WHERE m.game = $1 AND m.status = 'finished' \
               AND ($3::timestamptz IS NULL OR m.finished_at >= $3) \
               AND ($4::timestamptz IS NULL OR m.finished_at < $4) \
             GROUP BY s.player_key \
             ORDER BY won DESC, win_rate DESC, played DESC, s.player_key \
             LIMIT $2",
        )
        .bind::<Text, _>(GameColumn(game))
        .bind::<BigInt, _>(limit)
        .bind::<Nullable<Timestamptz>, _>(period.from)
        .bind::<Nullable<Timestamptz>, _>(period.to)
        .load(conn)
        .await?);
    }
    Ok(diesel::sql_query(
        "SELECT player_name AS player, played, won, \
                won::float8 / played AS win_rate, \
                score_sum::float8 / played AS average_score \
         FROM player_game_stats \
         WHERE game = $1 AND played > 0 \
         ORDER BY won DESC, win_rate DESC, played DESC, player_key \
         LIMIT $2",
    )
    .bind::<Text, _>(GameColumn(game))
    .bind::<BigInt, _>(limit)
    .load(conn)
    .await?)
}

/// Adds to (or, with negative figures, takes from) a player's running totals for a game.
pub(super) async fn add_player_stats(
    conn: &mut AsyncPgConnection,
    game: GameKind,
    name: &str,
    played: i64,
    won: i64,
    score: i64,
) -> Result<(), StoreError> {
    use diesel::upsert::excluded;
    if played < 0 {
        // Taking results out: the row exists (they were put in), and an upsert's proposed row
        // would fail the table's non-negative checks.
        diesel::update(
            stats::table
                .filter(stats::game.eq(GameColumn(game)))
                .filter(stats::player_key.eq(name_key(name))),
        )
        .set((
            stats::played.eq(stats::played + played),
            stats::won.eq(stats::won + won),
            stats::score_sum.eq(stats::score_sum + score),
        ))
        .execute(conn)
        .await?;
        return Ok(());
    }
    diesel::insert_into(stats::table)
        .values((
            stats::game.eq(GameColumn(game)),
            stats::player_key.eq(name_key(name)),
            stats::player_name.eq(name),
            stats::played.eq(played),
            stats::won.eq(won),
            stats::score_sum.eq(score),
        ))
        .on_conflict((stats::game, stats::player_key))
        .do_update()
        .set((
            stats::player_name.eq(excluded(stats::player_name)),
            stats::played.eq(stats::played + excluded(stats::played)),
            stats::won.eq(stats::won + excluded(stats::won)),
            stats::score_sum.eq(stats::score_sum + excluded(stats::score_sum)),
        ))
        .execute(conn)
        .await?;
    Ok(())
}
