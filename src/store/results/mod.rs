//! The one writer of what a result changes. Every path that finishes, corrects, reopens,
//! renames, abandons, imports, re-keys or moves records into a household calls [`record`] in its own transaction, after writing
//! what happened (the match's status and snapshot, a rename, an abandon's trace, an imported
//! sheet), and says which it was. [`record`] alone writes the seats' results, re-derives the
//! running totals (`player_game_stats`) of the players involved from the stored results, and
//! rates the board from the earliest place touched in the order results arrived ([`rating`]). Statistics and ratings are
//! read elsewhere (`store::stat_reads`, `store::rating_reads`) and written only here.

pub mod rating;
pub mod totals;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Text, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::columns::GameColumn;
use super::matches::{MatchRow, SeatResult};
use super::schema::{match_seats, matches};
use super::StoreError;
use crate::games::GameKind;
use crate::vocabulary::{MatchStatus, Space};

/// The results counted, ranked and rated together: one leaderboard, one rating order. A game in
/// one space: the public one, or a household's (the nil id for the public space); every query of
/// the writer is bounded by its board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    pub household: Uuid,
    pub game: GameKind,
}

impl Board {
    /// The board a match or sheet counts on.
    pub fn of(row: &MatchRow) -> Self {
        Board {
            household: row.household,
            game: row.game.kind(),
        }
    }

    /// Every board that holds a result (a household that never finished a game has nothing to
    /// count or rate), in one order for every writer that takes them all.
    pub async fn all(conn: &mut AsyncPgConnection) -> Result<Vec<Board>, StoreError> {
        let held: Vec<(Uuid, GameColumn)> = matches::table
            .filter(matches::status.ne(MatchStatus::InProgress))
            .select((matches::household, matches::game))
            .distinct()
            .load(conn)
            .await?;
        Ok(Board::in_turn(held.into_iter().map(|(household, game)| {
            Board {
                household,
                game: game.kind(),
            }
        })))
    }

    /// These boards once each, in the one order writers that take several turns take them, so
    /// that two such writers never wait on each other crosswise.
    fn in_turn(boards: impl Iterator<Item = Board>) -> Vec<Board> {
        let mut boards: Vec<Board> = boards.collect();
        boards.sort_by_key(|board| (board.household, board.game.slug()));
        boards.dedup();
        boards
    }
}

/// Where a result stands among results by date: when it finished, then its id (exports and
/// histories read in this order).
pub type Place = (DateTime<Utc>, Uuid);

/// Where a result stands in the order its board is rated: the order results arrived (a finish,
/// an import), from one sequence. A new result is always last, so it alone is rated.
pub type Order = i64;

/// What happened to a result. Each variant carries the match or sheet as it stood before the
/// change was written (its place in the rating order is where it was).
pub enum Happened<'a> {
    /// A match or sheet finished, or a finished sheet was corrected and is still finished: the
    /// seats' results as they are now.
    Finished {
        before: &'a MatchRow,
        seats: &'a [SeatResult],
    },
    /// A finished sheet was corrected back into play: its results are withdrawn.
    Reopened { before: &'a MatchRow },
    /// A seat of a sheet was renamed from the player key `was` (its results, if any, now count
    /// for the new name).
    Renamed { before: &'a MatchRow, was: &'a str },
    /// A match or sheet on `board` was abandoned (its trace written): if play had begun, each
    /// seat counts one more abandon.
    Abandoned { id: Uuid, board: Board },
    /// Plays were imported as closed sheets, their seats' results written with them.
    Imported { rows: &'a [&'a MatchRow] },
    /// Every seat's player key was computed again (look-alike names may now be one player).
    Rekeyed,
    /// Ended records left the board each names for the household `to`, their rows and seats
    /// moved already; `was` holds their seats' player keys before the move.
    Moved {
        records: &'a [(Uuid, Board)],
        was: &'a [String],
        to: Uuid,
    },
}

/// Writes everything `happened` changes: seat results, the running totals of the players
/// involved, and the ratings of the board from the earliest place touched. Call it in the
/// transaction that wrote what happened, after writing it. Writers on one board take turns
/// ([`lock`]), so each counts the results the others committed.
pub async fn record(
    conn: &mut AsyncPgConnection,
    happened: Happened<'_>,
) -> Result<(), StoreError> {
    match happened {
        Happened::Finished { before, seats } => {
            let board = Board::of(before);
            lock(conn, board).await?;
            write_seat_results(conn, before.id, seats).await?;
            recount_seated(conn, board, &[before.id], None).await?;
            // A corrected result keeps its place; a new one takes the next, the last.
            let order = arrive(conn, &[before.id]).await?;
            rating::rerate_from(conn, board, order, &[]).await?;
        }
        Happened::Reopened { before } => {
            let board = Board::of(before);
            lock(conn, board).await?;
            clear_seat_results(conn, before.id).await?;
            recount_seated(conn, board, &[before.id], None).await?;
            if let Some(order) = leave(conn, before.id).await? {
                rating::rerate_from(conn, board, Some(order), &[]).await?;
            }
        }
        Happened::Renamed { before, was } => {
            let board = Board::of(before);
            lock(conn, board).await?;
            recount_seated(conn, board, &[before.id], Some(was)).await?;
            if let Some(order) = order_of(conn, before.id).await? {
                rating::rerate_from(conn, board, Some(order), &[]).await?;
            }
        }
        Happened::Abandoned { id, board } => {
            lock(conn, board).await?;
            recount_seated(conn, board, &[id], None).await?;
        }
        Happened::Imported { rows } => {
            let boards = Board::in_turn(rows.iter().map(|row| Board::of(row)));
            // Every board's turn first.
            for &board in &boards {
                lock(conn, board).await?;
            }
            for board in boards {
                let here: Vec<&MatchRow> = rows
                    .iter()
                    .copied()
                    .filter(|row| Board::of(row) == board)
                    .collect();
                let ids: Vec<Uuid> = here.iter().map(|row| row.id).collect();
                recount_seated(conn, board, &ids, None).await?;
                // They arrive now, in the order of `rows`, after every result stored.
                let finished: Vec<Uuid> = here
                    .iter()
                    .filter(|row| row.status == MatchStatus::Finished)
                    .map(|row| row.id)
                    .collect();
                if let Some(first) = arrive(conn, &finished).await? {
                    rating::rerate_from(conn, board, Some(first), &[]).await?;
                }
            }
        }
        Happened::Moved { records, was, to } => {
            let now: Vec<String> = was
                .iter()
                .map(|key| Space::of(to).scoped(key.clone()))
                .collect();
            let left = Board::in_turn(records.iter().map(|&(_, board)| board));
            let joined = |board: Board| Board {
                household: to,
                game: board.game,
            };
            for board in Board::in_turn(left.iter().flat_map(|&board| [board, joined(board)])) {
                lock(conn, board).await?;
            }
            for board in left {
                let ids: Vec<Uuid> = records
                    .iter()
                    .filter(|&&(_, on)| on == board)
                    .map(|&(id, _)| id)
                    .collect();
                totals::recount(conn, board, Some(was)).await?;
                totals::recount(conn, joined(board), Some(&now)).await?;
                // Each result keeps its place in the order results arrived: both boards are
                // rated again from the earliest that moved, for the players it moved.
                if let Some(first) = earliest(conn, &ids).await? {
                    rating::forget(conn, &ids).await?;
                    rating::rerate_from(conn, board, Some(first), was).await?;
                    rating::rerate_from(conn, joined(board), Some(first), &now).await?;
                }
            }
        }
        Happened::Rekeyed => {
            for board in Board::all(conn).await? {
                lock(conn, board).await?;
                totals::recount(conn, board, None).await?;
            }
            rating::rerate_all(conn).await?;
        }
    }
    Ok(())
}

/// Waits for `board`'s turn, held until the transaction ends: the writer's statements then read
/// every result the board's earlier writers committed.
async fn lock(conn: &mut AsyncPgConnection, board: Board) -> Result<(), StoreError> {
    diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext('ratings/' || $1 || '/' || $2))")
        .bind::<Text, _>(crate::store::columns::GameColumn(board.game))
        .bind::<SqlUuid, _>(board.household)
        .execute(conn)
        .await?;
    Ok(())
}

#[derive(QueryableByName)]
struct Ordered {
    #[diesel(sql_type = BigInt)]
    rated_order: Order,
}

/// Gives these finished results their places in the rating order: the place each already has (a
/// corrected result), or the next ones in the order given, after every result that arrived
/// before; the earliest of them. Call it holding the board's turn, so that places follow the
/// order writers take turns in.
async fn arrive(conn: &mut AsyncPgConnection, ids: &[Uuid]) -> Result<Option<Order>, StoreError> {
    // The sequence is drawn after the sort: volatile functions wait for ORDER BY.
    let placed: Vec<Ordered> = diesel::sql_query(
        "UPDATE matches m SET rated_order = coalesce(m.rated_order, p.place) \
         FROM (SELECT id, nextval('result_arrivals') AS place \
               FROM unnest($1::uuid[]) WITH ORDINALITY AS w(id, n) ORDER BY n) p \
         WHERE m.id = p.id RETURNING m.rated_order",
    )
    .bind::<Array<SqlUuid>, _>(ids)
    .load(conn)
    .await?;
    Ok(placed.into_iter().map(|p| p.rated_order).min())
}

/// A reopened result gives up its place in the rating order; the place it had.
async fn leave(conn: &mut AsyncPgConnection, id: Uuid) -> Result<Option<Order>, StoreError> {
    let had = order_of(conn, id).await?;
    diesel::update(matches::table.find(id))
        .set(matches::rated_order.eq(None::<Order>))
        .execute(conn)
        .await?;
    Ok(had)
}

/// The earliest place in the rating order these results hold, if any holds one.
async fn earliest(conn: &mut AsyncPgConnection, ids: &[Uuid]) -> Result<Option<Order>, StoreError> {
    Ok(matches::table
        .filter(matches::id.eq_any(ids))
        .select(diesel::dsl::min(matches::rated_order))
        .get_result(conn)
        .await?)
}

/// A result's place in the rating order, if it has one.
async fn order_of(conn: &mut AsyncPgConnection, id: Uuid) -> Result<Option<Order>, StoreError> {
    Ok(matches::table
        .find(id)
        .select(matches::rated_order)
        .get_result(conn)
        .await?)
}

/// Counts again the totals on `board` of the players seated at these matches or sheets, and of
/// the player `also` (a seat's key before a rename).
async fn recount_seated(
    conn: &mut AsyncPgConnection,
    board: Board,
    ids: &[Uuid],
    also: Option<&str>,
) -> Result<(), StoreError> {
    let mut keys = keys_of(conn, ids).await?;
    keys.extend(also.map(str::to_owned));
    totals::recount(conn, board, Some(&keys)).await
}

#[derive(QueryableByName)]
struct Key {
    #[diesel(sql_type = Text)]
    player_key: String,
}

/// The player keys seated at these matches or sheets.
async fn keys_of(conn: &mut AsyncPgConnection, ids: &[Uuid]) -> Result<Vec<String>, StoreError> {
    let keys: Vec<Key> =
        diesel::sql_query("SELECT DISTINCT player_key FROM match_seats WHERE match_id = ANY($1)")
            .bind::<Array<SqlUuid>, _>(ids)
            .load(conn)
            .await?;
    Ok(keys.into_iter().map(|key| key.player_key).collect())
}

/// Each seat's result in a finished match or sheet.
async fn write_seat_results(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    results: &[SeatResult],
) -> Result<(), StoreError> {
    for seat in results {
        diesel::update(match_seats::table.find((id, seat.seat)))
            .set((
                match_seats::final_score.eq(seat.score),
                match_seats::final_rank.eq(seat.rank),
                match_seats::winner.eq(seat.winner),
                match_seats::highlights.eq(&seat.highlights),
            ))
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// A reopened sheet's seats have no result any more.
async fn clear_seat_results(conn: &mut AsyncPgConnection, id: Uuid) -> Result<(), StoreError> {
    diesel::update(match_seats::table.filter(match_seats::match_id.eq(id)))
        .set((
            match_seats::final_score.eq(None::<i64>),
            match_seats::final_rank.eq(None::<i32>),
            match_seats::winner.eq(None::<bool>),
            match_seats::highlights.eq(None::<Value>),
        ))
        .execute(conn)
        .await?;
    Ok(())
}
