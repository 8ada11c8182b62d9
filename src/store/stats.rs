//! Statistics queries: a player's finished seats, a game's leaderboard, and the running totals
//! per player and game that finishing a match keeps up to date.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Double, Integer, Jsonb, Nullable, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::columns::GameColumn;
use super::schema::player_game_stats as stats;
use super::StoreError;
use crate::games::GameKind;
use crate::vocabulary::{name_key, AbandonedBy, NAME_KEY_SCHEME};

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
    .bind::<Text, _>(name_key(name))
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
             WHERE m.game = $1 \
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
        .load(conn)
        .await?);
    }
    Ok(diesel::sql_query(
        "SELECT player_name AS player, played, won, \
                coalesce(won::float8 / nullif(played, 0), 0) AS win_rate, \
                coalesce(score_sum::float8 / nullif(played, 0), 0) AS average_score, abandoned \
         FROM player_game_stats \
         WHERE game = $1 AND (played > 0 OR abandoned > 0) \
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

#[derive(QueryableByName)]
struct AbandonTrace {
    #[diesel(sql_type = Bool)]
    after_play: bool,
}

/// Leaves the trace of an abandon just written (call it in that transaction, after the update
/// that locked the row): who, when, at which version (a hosted match's log's last ply, a sheet's
/// version), and whether play had begun, that is, a seat had moved (a deal or any chance outcome
/// alone is not play) or a sheet had an entry. If it had, each seated player's running totals
/// count one more `abandoned`.
pub(super) async fn record_abandon(
    conn: &mut AsyncPgConnection,
    match_id: uuid::Uuid,
    by: AbandonedBy,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    use diesel::sql_types::Uuid as SqlUuid;
    let trace: AbandonTrace = diesel::sql_query(
        "INSERT INTO match_abandons (match_id, abandoned_by, abandoned_at, at_version, after_play) \
         SELECT m.id, $2, $3, \
                CASE WHEN m.kind = 'hosted' \
                     THEN greatest(m.version, coalesce((SELECT max(e.ply) FROM match_events e \
                                                        WHERE e.match_id = m.id), 0)) \
                     ELSE m.version END, \
                CASE WHEN m.kind = 'hosted' \
                     THEN EXISTS (SELECT 1 FROM match_events e \
                                  WHERE e.match_id = m.id AND e.seat IS NOT NULL) \
                     ELSE m.version > 0 END \
         FROM matches m WHERE m.id = $1 \
         RETURNING after_play",
    )
    .bind::<SqlUuid, _>(match_id)
    .bind::<Text, _>(by.as_str())
    .bind::<Timestamptz, _>(now)
    .get_result(conn)
    .await?;
    if trace.after_play {
        diesel::sql_query(
            "INSERT INTO player_game_stats \
                 (game, player_key, player_name, played, won, score_sum, abandoned) \
             SELECT m.game, s.player_key, s.player_name, 0, 0, 0, 1 \
             FROM match_seats s JOIN matches m ON m.id = s.match_id WHERE m.id = $1 \
             ON CONFLICT (game, player_key) \
             DO UPDATE SET abandoned = player_game_stats.abandoned + 1",
        )
        .bind::<SqlUuid, _>(match_id)
        .execute(conn)
        .await?;
    }
    Ok(())
}

#[derive(QueryableByName)]
struct Scheme {
    #[diesel(sql_type = Integer)]
    scheme: i32,
}

#[derive(QueryableByName)]
struct StoredSeat {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    match_id: uuid::Uuid,
    #[diesel(sql_type = Integer)]
    seat: i32,
    #[diesel(sql_type = Text)]
    player_name: String,
    #[diesel(sql_type = Text)]
    player_key: String,
}

/// Seats read, and re-keyed, per statement.
const REKEY_BATCH: i64 = 5_000;

/// Recomputes every stored player key under the current [`name_key`] scheme, once: SQL cannot
/// compute a confusable skeleton, so the migrations cannot. One transaction holds the lock on
/// `name_key_scheme`'s one row throughout, so instances starting at once take turns and the later
/// ones find the work done; a failure leaves the old keys and the old scheme, and the next start
/// tries again. Seats are read in primary-key order, a batch at a time, and re-keyed from their
/// stored names where the key differs; then the running totals are recounted under the new keys
/// (look-alikes that were several players are now one). Returns how many seats changed key.
pub async fn rekey_names(conn: &mut AsyncPgConnection) -> Result<u64, StoreError> {
    use diesel::sql_types::{Array, Uuid as SqlUuid};
    use diesel_async::AsyncConnection;
    conn.transaction(async |conn| {
        let current: Scheme =
            diesel::sql_query("SELECT scheme FROM name_key_scheme FOR UPDATE")
                .get_result(conn)
                .await?;
        if current.scheme >= NAME_KEY_SCHEME {
            return Ok(0);
        }
        let mut changed = 0;
        let mut after = (uuid::Uuid::nil(), -1);
        loop {
            let seats: Vec<StoredSeat> = diesel::sql_query(
                "SELECT match_id, seat, player_name, player_key FROM match_seats \
                 WHERE (match_id, seat) > ($1, $2) ORDER BY match_id, seat LIMIT $3",
            )
            .bind::<SqlUuid, _>(after.0)
            .bind::<Integer, _>(after.1)
            .bind::<BigInt, _>(REKEY_BATCH)
            .load(conn)
            .await?;
            let Some(last) = seats.last() else { break };
            after = (last.match_id, last.seat);
            let (mut ids, mut numbers, mut keys) = (Vec::new(), Vec::new(), Vec::new());
            for seat in &seats {
                let key = name_key(&seat.player_name);
                if key != seat.player_key {
                    ids.push(seat.match_id);
                    numbers.push(seat.seat);
                    keys.push(key);
                }
            }
            if keys.is_empty() {
                continue;
            }
            changed += diesel::sql_query(
                "UPDATE match_seats s SET player_key = k.key \
                 FROM unnest($1::uuid[], $2::int4[], $3::text[]) AS k(match_id, seat, key) \
                 WHERE s.match_id = k.match_id AND s.seat = k.seat",
            )
            .bind::<Array<SqlUuid>, _>(&ids)
            .bind::<Array<Integer>, _>(&numbers)
            .bind::<Array<Text>, _>(&keys)
            .execute(conn)
            .await? as u64;
        }
        diesel::sql_query("DELETE FROM player_game_stats")
            .execute(conn)
            .await?;
        diesel::sql_query(
            "INSERT INTO player_game_stats \
                 (game, player_key, player_name, played, won, score_sum, abandoned) \
             SELECT m.game, s.player_key, \
                    (array_agg(s.player_name ORDER BY coalesce(m.finished_at, a.abandoned_at) DESC))[1], \
                    count(*) FILTER (WHERE m.status = 'finished'), \
                    count(*) FILTER (WHERE m.status = 'finished' AND s.winner), \
                    coalesce(sum(s.final_score) FILTER (WHERE m.status = 'finished'), 0), \
                    count(*) FILTER (WHERE m.status = 'abandoned') \
             FROM match_seats s JOIN matches m ON m.id = s.match_id \
             LEFT JOIN match_abandons a ON a.match_id = m.id \
             WHERE m.status = 'finished' OR (m.status = 'abandoned' AND a.after_play) \
             GROUP BY m.game, s.player_key",
        )
        .execute(conn)
        .await?;
        // Look-alikes that were several players are now one: their ratings are one history too.
        if changed > 0 {
            super::ratings::rerate_all(conn).await?;
        }
        diesel::sql_query("UPDATE name_key_scheme SET scheme = $1")
            .bind::<Integer, _>(NAME_KEY_SCHEME)
            .execute(conn)
            .await?;
        if changed > 0 {
            tracing::info!(seats = changed, scheme = NAME_KEY_SCHEME, "player keys recomputed");
        }
        Ok(changed)
    })
    .await
}
