//! Reads of the stored skill ratings: a player's current ratings, a board's players by rating,
//! a player's rating history, head-to-heads and the rating changes of results. They are written
//! only by the writer of results (`store::results::rating`); docs/ratings.md says what is rated
//! and in which order.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{
    Array, BigInt, Double, Integer, Nullable, Text, Timestamptz, Uuid as SqlUuid,
};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::columns::GameColumn;
use super::results::{Order, Place};
use super::stat_reads::Period;
use super::StoreError;
use crate::games::GameKind;
use crate::vocabulary::{MatchKind, Space};

/// A player's current rating in one game, with their place among the game's rated players
/// (equal ratings share a place).
#[derive(Debug, Clone, QueryableByName)]
pub struct PlayerRatingRow {
    #[diesel(sql_type = Text)]
    pub game: GameColumn,
    #[diesel(sql_type = Text)]
    pub player_name: String,
    #[diesel(sql_type = Double)]
    pub mu: f64,
    #[diesel(sql_type = Double)]
    pub sigma: f64,
    #[diesel(sql_type = BigInt)]
    pub rated: i64,
    #[diesel(sql_type = BigInt)]
    pub won: i64,
    #[diesel(sql_type = Timestamptz)]
    pub last_rated_at: DateTime<Utc>,
    #[diesel(sql_type = BigInt)]
    pub place: i64,
    #[diesel(sql_type = BigInt)]
    pub players: i64,
}

/// A player's current rating in each game they have a rated result in.
pub async fn player_ratings(
    conn: &mut AsyncPgConnection,
    space: Space,
    name: &str,
) -> Result<Vec<PlayerRatingRow>, StoreError> {
    Ok(diesel::sql_query(
        "SELECT r.game, r.player_name, r.mu, r.sigma, r.rated, r.won, r.last_rated_at, \
                (SELECT count(*) FROM player_ratings o \
                 WHERE o.household = r.household AND o.game = r.game \
                   AND o.ordinal > r.ordinal) + 1 AS place, \
                (SELECT count(*) FROM player_ratings o \
                 WHERE o.household = r.household AND o.game = r.game) AS players \
         FROM player_ratings r WHERE r.player_key = $1 ORDER BY r.game",
    )
    .bind::<Text, _>(space.player_key(name))
    .load(conn)
    .await?)
}

/// A row of a game's leaderboard by rating.
#[derive(Debug, Clone, QueryableByName)]
pub struct BoardRow {
    #[diesel(sql_type = Text)]
    pub player_key: String,
    #[diesel(sql_type = Text)]
    pub player_name: String,
    #[diesel(sql_type = Double)]
    pub mu: f64,
    #[diesel(sql_type = Double)]
    pub sigma: f64,
    #[diesel(sql_type = Double)]
    pub ordinal: f64,
    #[diesel(sql_type = BigInt)]
    pub rated: i64,
    #[diesel(sql_type = BigInt)]
    pub won: i64,
    #[diesel(sql_type = Timestamptz)]
    pub last_rated_at: DateTime<Utc>,
    #[diesel(sql_type = BigInt)]
    pub place: i64,
}

/// Where a page of the leaderboard by rating starts: after this rating and player key.
pub type BoardCursor = (f64, String);

/// A game's players by rating, highest first (equal ratings share a place, then by key). All
/// time, the current ratings; over a period, the players rated in it, each at their rating
/// after their last result in it, with the results and first places of the period.
pub async fn board(
    conn: &mut AsyncPgConnection,
    space: Space,
    game: GameKind,
    period: Period,
    after: Option<&BoardCursor>,
    limit: i64,
) -> Result<Vec<BoardRow>, StoreError> {
    let rows = if period.is_all_time() {
        "SELECT player_key, player_name, mu, sigma, ordinal, rated, won, last_rated_at \
         FROM player_ratings WHERE household = $7 AND game = $1"
    } else {
        // Each player's totals over the period in one hashed pass over the period's rows (the
        // order index's range, whatever the plan), then their last change in it, one index probe
        // each: a sort of every row in the period took 3 times as long (docs/benchmarks.md).
        "SELECT t.player_key, l.player_name, l.mu_after AS mu, l.sigma_after AS sigma, \
                l.mu_after - 3 * l.sigma_after AS ordinal, t.rated, t.won, t.last_rated_at \
         FROM (SELECT player_key, count(*) AS rated, count(*) FILTER (WHERE rank = 1) AS won, \
                      max(rated_at) AS last_rated_at, max(rated_order) AS last_order \
               FROM rating_changes \
               WHERE household = $7 AND game = $1 \
                 AND rated_at >= coalesce($2::timestamptz, '-infinity') \
                 AND rated_at < coalesce($3::timestamptz, 'infinity') \
               GROUP BY player_key) t \
         CROSS JOIN LATERAL \
              (SELECT c.player_name, c.mu_after, c.sigma_after FROM rating_changes c \
               WHERE c.player_key = t.player_key AND c.game = $1 \
                 AND c.rated_order = t.last_order LIMIT 1) l"
    };
    let (after_rating, after_key) = after.cloned().unzip();
    Ok(diesel::sql_query(format!(
        "WITH board AS ({rows}), \
              placed AS (SELECT *, rank() OVER (ORDER BY ordinal DESC) AS place FROM board) \
         SELECT * FROM placed \
         WHERE $4::float8 IS NULL OR ordinal < $4 OR (ordinal = $4 AND player_key > $5) \
         ORDER BY ordinal DESC, player_key LIMIT $6"
    ))
    .bind::<Text, _>(GameColumn(game))
    .bind::<Nullable<Timestamptz>, _>(period.from)
    .bind::<Nullable<Timestamptz>, _>(period.to)
    .bind::<Nullable<Double>, _>(after_rating)
    .bind::<Nullable<Text>, _>(after_key)
    .bind::<BigInt, _>(limit)
    .bind::<SqlUuid, _>(space.id())
    .load(conn)
    .await?)
}

/// One rated result of a player: their rating before and after it, and how they finished.
#[derive(Debug, Clone, QueryableByName)]
pub struct HistoryPoint {
    #[diesel(sql_type = SqlUuid)]
    pub match_id: Uuid,
    #[diesel(sql_type = BigInt)]
    pub rated_order: Order,
    #[diesel(sql_type = Text)]
    pub kind: MatchKind,
    #[diesel(sql_type = Timestamptz)]
    pub rated_at: DateTime<Utc>,
    #[diesel(sql_type = Double)]
    pub mu_before: f64,
    #[diesel(sql_type = Double)]
    pub sigma_before: f64,
    #[diesel(sql_type = Double)]
    pub mu_after: f64,
    #[diesel(sql_type = Double)]
    pub sigma_after: f64,
    #[diesel(sql_type = Integer)]
    pub rank: i32,
    #[diesel(sql_type = Nullable<BigInt>)]
    pub score: Option<i64>,
    #[diesel(sql_type = Nullable<diesel::sql_types::Bool>)]
    pub winner: Option<bool>,
    #[diesel(sql_type = BigInt)]
    pub players: i64,
}

/// A player's rated results in one game in the order they were rated, after `after` and with
/// dates within `period`.
pub async fn history(
    conn: &mut AsyncPgConnection,
    space: Space,
    name: &str,
    game: GameKind,
    period: Period,
    after: Option<Order>,
    limit: i64,
) -> Result<Vec<HistoryPoint>, StoreError> {
    Ok(diesel::sql_query(
        "SELECT c.match_id, c.rated_order, m.kind, c.rated_at, c.mu_before, c.sigma_before, \
                c.mu_after, \
                c.sigma_after, c.rank, s.final_score AS score, s.winner, \
                (SELECT count(*) FROM match_seats x WHERE x.match_id = c.match_id) AS players \
         FROM rating_changes c \
         JOIN matches m ON m.id = c.match_id \
         JOIN match_seats s ON s.match_id = c.match_id AND s.seat = c.seat \
         WHERE c.player_key = $1 AND c.game = $2 \
           AND ($3::timestamptz IS NULL OR c.rated_at >= $3) \
           AND ($4::timestamptz IS NULL OR c.rated_at < $4) \
           AND ($5::int8 IS NULL OR c.rated_order > $5) \
         ORDER BY c.rated_order LIMIT $6",
    )
    .bind::<Text, _>(space.player_key(name))
    .bind::<Text, _>(GameColumn(game))
    .bind::<Nullable<Timestamptz>, _>(period.from)
    .bind::<Nullable<Timestamptz>, _>(period.to)
    .bind::<Nullable<BigInt>, _>(after)
    .bind::<BigInt, _>(limit)
    .load(conn)
    .await?)
}

/// Two players' record at the same tables in one game.
#[derive(Debug, Clone, QueryableByName)]
pub struct VersusGame {
    #[diesel(sql_type = Text)]
    pub game: GameColumn,
    #[diesel(sql_type = BigInt)]
    pub played: i64,
    #[diesel(sql_type = BigInt)]
    pub player_ahead: i64,
    #[diesel(sql_type = BigInt)]
    pub opponent_ahead: i64,
    #[diesel(sql_type = BigInt)]
    pub level: i64,
}

/// The rated results both players sat at, per game: who finished ahead of whom.
pub async fn versus_games(
    conn: &mut AsyncPgConnection,
    space: Space,
    player: &str,
    opponent: &str,
    game: Option<GameKind>,
    period: Period,
) -> Result<Vec<VersusGame>, StoreError> {
    Ok(diesel::sql_query(
        "SELECT a.game, count(*) AS played, \
                count(*) FILTER (WHERE a.rank < b.rank) AS player_ahead, \
                count(*) FILTER (WHERE a.rank > b.rank) AS opponent_ahead, \
                count(*) FILTER (WHERE a.rank = b.rank) AS level \
         FROM rating_changes a \
         JOIN rating_changes b ON b.match_id = a.match_id AND b.player_key = $2 \
         WHERE a.player_key = $1 AND ($3::text IS NULL OR a.game = $3) \
           AND ($4::timestamptz IS NULL OR a.rated_at >= $4) \
           AND ($5::timestamptz IS NULL OR a.rated_at < $5) \
         GROUP BY a.game ORDER BY a.game",
    )
    .bind::<Text, _>(space.player_key(player))
    .bind::<Text, _>(space.player_key(opponent))
    .bind::<Nullable<Text>, _>(game.map(GameColumn))
    .bind::<Nullable<Timestamptz>, _>(period.from)
    .bind::<Nullable<Timestamptz>, _>(period.to)
    .load(conn)
    .await?)
}

/// One result two players shared: each one's seat as it finished.
#[derive(Debug, Clone, QueryableByName)]
pub struct SharedResult {
    #[diesel(sql_type = SqlUuid)]
    pub match_id: Uuid,
    #[diesel(sql_type = Text)]
    pub kind: MatchKind,
    #[diesel(sql_type = Text)]
    pub game: GameColumn,
    #[diesel(sql_type = Timestamptz)]
    pub rated_at: DateTime<Utc>,
    #[diesel(sql_type = Text)]
    pub player_name: String,
    #[diesel(sql_type = Integer)]
    pub player_rank: i32,
    #[diesel(sql_type = Nullable<BigInt>)]
    pub player_score: Option<i64>,
    #[diesel(sql_type = Nullable<diesel::sql_types::Bool>)]
    pub player_winner: Option<bool>,
    #[diesel(sql_type = Text)]
    pub opponent_name: String,
    #[diesel(sql_type = Integer)]
    pub opponent_rank: i32,
    #[diesel(sql_type = Nullable<BigInt>)]
    pub opponent_score: Option<i64>,
    #[diesel(sql_type = Nullable<diesel::sql_types::Bool>)]
    pub opponent_winner: Option<bool>,
}

/// The rated results both players sat at, newest first, before `before`.
pub async fn shared_results(
    conn: &mut AsyncPgConnection,
    space: Space,
    (player, opponent): (&str, &str),
    game: Option<GameKind>,
    period: Period,
    before: Option<Place>,
    limit: i64,
) -> Result<Vec<SharedResult>, StoreError> {
    let (before_at, before_id) = before.unzip();
    Ok(diesel::sql_query(
        // The page first, then its matches and seats: a pair with many shared results joins
        // only the page's.
        "WITH page AS ( \
             SELECT a.match_id, a.game, a.rated_at, a.seat AS player_seat, \
                    a.player_name, a.rank AS player_rank, b.seat AS opponent_seat, \
                    b.player_name AS opponent_name, b.rank AS opponent_rank \
             FROM rating_changes a \
             JOIN rating_changes b ON b.match_id = a.match_id AND b.player_key = $2 \
             WHERE a.player_key = $1 AND ($3::text IS NULL OR a.game = $3) \
               AND ($4::timestamptz IS NULL OR a.rated_at >= $4) \
               AND ($5::timestamptz IS NULL OR a.rated_at < $5) \
               AND ($6::timestamptz IS NULL OR (a.rated_at, a.match_id) < ($6, $7)) \
             ORDER BY a.rated_at DESC, a.match_id DESC LIMIT $8) \
         SELECT p.match_id, m.kind, p.game, p.rated_at, p.player_name, p.player_rank, \
                sa.final_score AS player_score, sa.winner AS player_winner, p.opponent_name, \
                p.opponent_rank, sb.final_score AS opponent_score, \
                sb.winner AS opponent_winner \
         FROM page p \
         JOIN matches m ON m.id = p.match_id \
         JOIN match_seats sa ON sa.match_id = p.match_id AND sa.seat = p.player_seat \
         JOIN match_seats sb ON sb.match_id = p.match_id AND sb.seat = p.opponent_seat \
         ORDER BY p.rated_at DESC, p.match_id DESC",
    )
    .bind::<Text, _>(space.player_key(player))
    .bind::<Text, _>(space.player_key(opponent))
    .bind::<Nullable<Text>, _>(game.map(GameColumn))
    .bind::<Nullable<Timestamptz>, _>(period.from)
    .bind::<Nullable<Timestamptz>, _>(period.to)
    .bind::<Nullable<Timestamptz>, _>(before_at)
    .bind::<Nullable<SqlUuid>, _>(before_id)
    .bind::<BigInt, _>(limit)
    .load(conn)
    .await?)
}

/// Each seat's rating before and after these results (for exports): none for an unrated one.
#[derive(Debug, Clone, QueryableByName)]
pub struct SeatChange {
    #[diesel(sql_type = SqlUuid)]
    pub match_id: Uuid,
    #[diesel(sql_type = Integer)]
    pub seat: i32,
    #[diesel(sql_type = Double)]
    pub mu_before: f64,
    #[diesel(sql_type = Double)]
    pub sigma_before: f64,
    #[diesel(sql_type = Double)]
    pub mu_after: f64,
    #[diesel(sql_type = Double)]
    pub sigma_after: f64,
}

pub async fn changes_of(
    conn: &mut AsyncPgConnection,
    ids: &[Uuid],
) -> Result<Vec<SeatChange>, StoreError> {
    Ok(diesel::sql_query(
        "SELECT match_id, seat, mu_before, sigma_before, mu_after, sigma_after \
         FROM rating_changes WHERE match_id = ANY($1)",
    )
    .bind::<Array<SqlUuid>, _>(ids)
    .load(conn)
    .await?)
}
