//! The ratings of a board, computed as its results are written: each rated result's before and
//! after per seat (`rating_changes`) and each player's current rating (`player_ratings`). Only
//! the writer of results ([`super::record`]) and the start-up's catch-up call it. The model is
//! [`crate::rating_model`]; docs/ratings.md says what is rated and in which order.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Double, Integer, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::{Board, Order};
use crate::rating_model::{Model, Rating};
use crate::store::columns::GameColumn;
use crate::store::StoreError;

/// The rating scheme the service computes: stored ratings of an older scheme are computed again
/// at start-up ([`catch_up`]). Raise it when the model, its parameters or what is rated change.
pub const RATING_SCHEME: i32 = 1;

#[derive(QueryableByName)]
struct RatedSeat {
    #[diesel(sql_type = SqlUuid)]
    match_id: Uuid,
    #[diesel(sql_type = Timestamptz)]
    finished_at: DateTime<Utc>,
    #[diesel(sql_type = BigInt)]
    rated_order: Order,
    #[diesel(sql_type = Integer)]
    seat: i32,
    #[diesel(sql_type = Text)]
    player_key: String,
    #[diesel(sql_type = Text)]
    player_name: String,
    #[diesel(sql_type = Integer)]
    rank: i32,
}

/// A stored rating change: the rating a result left a player with.
#[derive(QueryableByName)]
struct StoredChange {
    #[diesel(sql_type = SqlUuid)]
    match_id: Uuid,
    #[diesel(sql_type = BigInt)]
    rated_order: Order,
    #[diesel(sql_type = Text)]
    player_key: String,
    #[diesel(sql_type = Double)]
    mu: f64,
    #[diesel(sql_type = Double)]
    sigma: f64,
}

/// Rows written per statement when many results are rated at once.
const WRITE_BATCH: usize = 5_000;

/// Rates `board`'s results again from `from` (every one, without it) to the newest, in the order
/// they arrived, each player's current rating following; the players `moved` (whose results
/// from `from` on joined or left the board) are reached from the start. A new result (a finish, an import)
/// arrives last and is the only one rated. A corrected, reopened or renamed result at `from`
/// changes its players' ratings, and through them those of every later result one of them (or
/// anyone rated with them since) sat at: those results are rated again, from the ratings stored
/// just before each; a later result none of them reached keeps what is stored, which nothing it
/// depends on changed. Call it inside the transaction that wrote the results, holding the
/// board's turn (`super::lock`), so concurrent writers on a board rate one at a time and each
/// reads what the other wrote. Returns how many results were rated.
pub(super) async fn rerate_from(
    conn: &mut AsyncPgConnection,
    board: Board,
    from: Option<Order>,
    moved: &[String],
) -> Result<usize, StoreError> {
    let column = GameColumn(board.game);
    // From the first result, every result is rated again (a new scheme, re-keyed players).
    let everything = from.is_none();
    let from = from.unwrap_or(Order::MIN);
    let seats: Vec<RatedSeat> = diesel::sql_query(
        "SELECT m.id AS match_id, m.finished_at, m.rated_order, s.seat, s.player_key, \
                s.player_name, s.final_rank AS rank \
         FROM matches m JOIN match_seats s ON s.match_id = m.id \
         WHERE m.game = $1 AND m.household = $3 AND m.rated_order >= $2 \
           AND m.status = 'finished' AND s.final_rank IS NOT NULL AND NOT s.anonymous \
         ORDER BY m.rated_order, s.seat",
    )
    .bind::<Text, _>(column)
    .bind::<BigInt, _>(from)
    .bind::<SqlUuid, _>(board.household)
    .load(conn)
    .await?;
    // What is stored from `from` on: the ratings each result left, for the results a change
    // does not reach; the players rated at `from` itself (a renamed seat's old key, a reopened
    // result's players) are reached by it.
    // (Rating everything again keeps nothing stored: it need not read it.)
    let stored: Vec<StoredChange> = diesel::sql_query(
        "SELECT match_id, rated_order, player_key, mu_after AS mu, sigma_after AS sigma \
         FROM rating_changes \
         WHERE game = $1 AND household = $4 AND rated_order >= $2 AND NOT $3",
    )
    .bind::<Text, _>(column)
    .bind::<BigInt, _>(from)
    .bind::<diesel::sql_types::Bool, _>(everything)
    .bind::<SqlUuid, _>(board.household)
    .load(conn)
    .await?;
    let mut reached: HashSet<String> = stored
        .iter()
        .filter(|c| c.rated_order == from)
        .map(|c| c.player_key.clone())
        .chain(
            seats
                .iter()
                .filter(|s| s.rated_order == from)
                .map(|s| s.player_key.clone()),
        )
        .chain(moved.iter().cloned())
        .collect();
    let mut stored_after: HashMap<Uuid, HashMap<String, Rating>> = HashMap::new();
    for change in stored {
        let rating = Rating {
            mu: change.mu,
            sigma: change.sigma,
        };
        stored_after
            .entry(change.match_id)
            .or_default()
            .insert(change.player_key, rating);
    }

    let mut players: HashSet<&str> = reached.iter().map(String::as_str).collect();
    players.extend(seats.iter().map(|s| s.player_key.as_str()));
    if players.is_empty() {
        return Ok(0);
    }
    let keys: Vec<&str> = players.into_iter().collect();
    let latest: Vec<StoredChange> = diesel::sql_query(
        "SELECT DISTINCT ON (player_key) match_id, rated_order, player_key, mu_after AS mu, \
                sigma_after AS sigma \
         FROM rating_changes WHERE game = $1 AND player_key = ANY($2) AND rated_order < $3 \
         ORDER BY player_key, rated_order DESC",
    )
    .bind::<Text, _>(column)
    .bind::<Array<Text>, _>(&keys)
    .bind::<BigInt, _>(from)
    .load(conn)
    .await?;
    let model = Model::default();
    let mut current: HashMap<String, Rating> = latest
        .into_iter()
        .map(|l| {
            let rating = Rating {
                mu: l.mu,
                sigma: l.sigma,
            };
            (l.player_key, rating)
        })
        .collect();

    // Written once the results to replace are known, a batch per statement.
    let (mut batches, mut changes) = (Vec::new(), Changes::default());
    let mut rerated: Vec<Uuid> = Vec::new();
    let mut rated = 0;
    for table in seats.chunk_by(|a, b| a.match_id == b.match_id) {
        let id = table[0].match_id;
        if !everything && !table.iter().any(|s| reached.contains(&s.player_key)) {
            // Untouched: what it stored stands, and its players' ratings follow it.
            for (key, rating) in stored_after.remove(&id).unwrap_or_default() {
                current.insert(key, rating);
            }
            continue;
        }
        rerated.push(id);
        reached.extend(table.iter().map(|s| s.player_key.clone()));
        // One seat alone has no one to be ranked against.
        if table.len() < 2 {
            continue;
        }
        let before: Vec<Rating> = table
            .iter()
            .map(|s| {
                current
                    .get(&s.player_key)
                    .copied()
                    .unwrap_or(model.initial())
            })
            .collect();
        let ranks: Vec<u32> = table.iter().map(|s| s.rank.max(1) as u32).collect();
        let after = model.rate(&before, &ranks);
        if changes.len() >= WRITE_BATCH {
            batches.push(std::mem::take(&mut changes));
        }
        for ((seat, before), after) in table.iter().zip(&before).zip(&after) {
            current.insert(seat.player_key.clone(), *after);
            changes.push(board, seat, before, after);
        }
        rated += 1;
    }
    // The rows of the results rated again, and of the result at `from` whatever it is now.
    diesel::sql_query(
        "DELETE FROM rating_changes \
         WHERE game = $1 AND household = $5 \
           AND ($4 OR rated_order = $2 OR match_id = ANY($3))",
    )
    .bind::<Text, _>(column)
    .bind::<BigInt, _>(from)
    .bind::<Array<SqlUuid>, _>(&rerated)
    .bind::<diesel::sql_types::Bool, _>(everything)
    .bind::<SqlUuid, _>(board.household)
    .execute(conn)
    .await?;
    batches.push(changes);
    for mut changes in batches {
        changes.write(conn).await?;
    }
    let mut touched: Vec<String> = reached.into_iter().collect();
    if everything {
        // Players with no rated result left (re-keyed away) have no rating either.
        diesel::sql_query("DELETE FROM player_ratings WHERE game = $1 AND household = $2")
            .bind::<Text, _>(column)
            .bind::<SqlUuid, _>(board.household)
            .execute(conn)
            .await?;
        touched.extend(seats.into_iter().map(|s| s.player_key));
        touched.sort_unstable();
        touched.dedup();
    }
    refresh_players(conn, board, &touched).await?;
    Ok(rated)
}

/// Rating changes waiting to be written, as the columns of one `unnest` insert.
#[derive(Default)]
struct Changes {
    match_id: Vec<Uuid>,
    seat: Vec<i32>,
    game: String,
    household: Uuid,
    player_key: Vec<String>,
    player_name: Vec<String>,
    rated_at: Vec<DateTime<Utc>>,
    rated_order: Vec<Order>,
    rank: Vec<i32>,
    mu_before: Vec<f64>,
    sigma_before: Vec<f64>,
    mu_after: Vec<f64>,
    sigma_after: Vec<f64>,
}

impl Changes {
    fn len(&self) -> usize {
        self.match_id.len()
    }

    fn push(&mut self, board: Board, seat: &RatedSeat, before: &Rating, after: &Rating) {
        self.match_id.push(seat.match_id);
        self.seat.push(seat.seat);
        self.game = board.game.slug().to_owned();
        self.household = board.household;
        self.player_key.push(seat.player_key.clone());
        self.player_name.push(seat.player_name.clone());
        self.rated_at.push(seat.finished_at);
        self.rated_order.push(seat.rated_order);
        self.rank.push(seat.rank);
        self.mu_before.push(before.mu);
        self.sigma_before.push(before.sigma);
        self.mu_after.push(after.mu);
        self.sigma_after.push(after.sigma);
    }

    async fn write(&mut self, conn: &mut AsyncPgConnection) -> Result<(), StoreError> {
        if self.len() == 0 {
            return Ok(());
        }
        let game = std::mem::take(&mut self.game);
        diesel::sql_query(
            "INSERT INTO rating_changes (match_id, seat, game, player_key, player_name, rated_at, \
                                         rank, mu_before, sigma_before, mu_after, sigma_after, \
                                         rated_order, household) \
             SELECT c.match_id, c.seat, $3, c.player_key, c.player_name, c.rated_at, c.rank, \
                    c.mu_before, c.sigma_before, c.mu_after, c.sigma_after, c.rated_order, \
                    $13 \
             FROM unnest($1::uuid[], $2::int4[], $4::text[], $5::text[], $6::timestamptz[], \
                         $7::int4[], $8::float8[], $9::float8[], $10::float8[], $11::float8[], \
                         $12::int8[]) \
                  AS c(match_id, seat, player_key, player_name, rated_at, rank, mu_before, \
                       sigma_before, mu_after, sigma_after, rated_order)",
        )
        .bind::<Array<SqlUuid>, _>(&self.match_id)
        .bind::<Array<Integer>, _>(&self.seat)
        .bind::<Text, _>(&game)
        .bind::<Array<Text>, _>(&self.player_key)
        .bind::<Array<Text>, _>(&self.player_name)
        .bind::<Array<Timestamptz>, _>(&self.rated_at)
        .bind::<Array<Integer>, _>(&self.rank)
        .bind::<Array<Double>, _>(&self.mu_before)
        .bind::<Array<Double>, _>(&self.sigma_before)
        .bind::<Array<Double>, _>(&self.mu_after)
        .bind::<Array<Double>, _>(&self.sigma_after)
        .bind::<Array<BigInt>, _>(&self.rated_order)
        .bind::<SqlUuid, _>(self.household)
        .execute(conn)
        .await?;
        *self = Self::default();
        Ok(())
    }
}

/// Sets these players' current ratings on a board from their latest changes; a player left with
/// no rated result (renamed away, a result reopened) has none.
async fn refresh_players(
    conn: &mut AsyncPgConnection,
    board: Board,
    keys: &[String],
) -> Result<(), StoreError> {
    let column = GameColumn(board.game);
    diesel::sql_query("DELETE FROM player_ratings WHERE game = $1 AND player_key = ANY($2)")
        .bind::<Text, _>(column)
        .bind::<Array<Text>, _>(keys)
        .execute(conn)
        .await?;
    diesel::sql_query(
        "INSERT INTO player_ratings \
             (game, player_key, player_name, mu, sigma, rated, won, last_rated_at, household) \
         SELECT DISTINCT ON (player_key) game, player_key, player_name, mu_after, sigma_after, \
                count(*) OVER (PARTITION BY player_key), \
                count(*) FILTER (WHERE rank = 1) OVER (PARTITION BY player_key), rated_at, \
                household \
         FROM rating_changes WHERE game = $1 AND player_key = ANY($2) \
         ORDER BY player_key, rated_order DESC",
    )
    .bind::<Text, _>(column)
    .bind::<Array<Text>, _>(keys)
    .execute(conn)
    .await?;
    Ok(())
}

/// Drops the rating changes of these results, which left their board.
pub(super) async fn forget(conn: &mut AsyncPgConnection, ids: &[Uuid]) -> Result<(), StoreError> {
    diesel::sql_query("DELETE FROM rating_changes WHERE match_id = ANY($1)")
        .bind::<Array<SqlUuid>, _>(ids)
        .execute(conn)
        .await?;
    Ok(())
}

/// Rates every board's results again from the first, holding every board's turn.
pub async fn rerate_all(conn: &mut AsyncPgConnection) -> Result<usize, StoreError> {
    let boards = Board::all(conn).await?;
    for &board in &boards {
        super::lock(conn, board).await?;
    }
    let mut rated = 0;
    for board in boards {
        rated += rerate_from(conn, board, None, &[]).await?;
    }
    Ok(rated)
}

#[derive(QueryableByName)]
struct Scheme {
    #[diesel(sql_type = Integer)]
    scheme: i32,
}

/// Brings stored ratings to [`RATING_SCHEME`], once: one transaction holds the scheme row's lock,
/// so instances starting together take turns and the later ones find the work done.
pub async fn catch_up(conn: &mut AsyncPgConnection) -> Result<usize, StoreError> {
    use diesel_async::AsyncConnection;
    conn.transaction(async |conn| {
        let stored: Scheme = diesel::sql_query("SELECT scheme FROM rating_scheme FOR UPDATE")
            .get_result(conn)
            .await?;
        if stored.scheme >= RATING_SCHEME {
            return Ok(0);
        }
        let rated = rerate_all(conn).await?;
        diesel::sql_query("UPDATE rating_scheme SET scheme = $1")
            .bind::<Integer, _>(RATING_SCHEME)
            .execute(conn)
            .await?;
        tracing::info!(results = rated, scheme = RATING_SCHEME, "ratings computed");
        Ok(rated)
    })
    .await
}
