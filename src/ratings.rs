//! Skill ratings as the service reports them: a player's rating per game, their rating history,
//! a game's leaderboard by rating, and two players' head-to-head record. The model is
//! [`crate::rating_model`]; ratings are stored as results finish ([`crate::store::rating_reads`]).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::GameKind;
use crate::problem::{Code, Problem};
use crate::rating_model::Rating;
use crate::records::{
    check_player_filter, cursor_param, encode_cursor, invalid_cursor, page_limit,
};
use crate::store::rating_reads::{self as q, BoardCursor};
use crate::store::results::{Order, Place};
use crate::store::stat_reads::Period;
use crate::store::Store;
use crate::vocabulary::{name_key, normalise_name, MatchKind, Space};

/// A skill estimate: `mu` and its uncertainty `sigma` (Weng-Lin), and `rating`, the value
/// rankings show: `mu - 3 sigma`, a skill the player very probably has at least. A newcomer has
/// mu 25, sigma 25/3, rating 0.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SkillRating {
    #[schema(example = 27.6)]
    pub mu: f64,
    #[schema(example = 6.1)]
    pub sigma: f64,
    #[schema(example = 9.3)]
    pub rating: f64,
}

impl SkillRating {
    pub fn of(mu: f64, sigma: f64) -> Self {
        Self {
            mu,
            sigma,
            rating: Rating { mu, sigma }.ordinal(),
        }
    }
}

/// A player's rating before and after one result.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RatingChange {
    pub before: SkillRating,
    pub after: SkillRating,
}

impl RatingChange {
    pub fn of(change: &q::SeatChange) -> Self {
        Self {
            before: SkillRating::of(change.mu_before, change.sigma_before),
            after: SkillRating::of(change.mu_after, change.sigma_after),
        }
    }
}

/// A player's current rating in one game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameRating {
    pub game: GameKind,
    pub rating: SkillRating,
    /// Results rated (finished with at least one other player).
    pub rated: i64,
    /// Of them, those the player finished first in (ties included).
    pub won: i64,
    /// Place on the game's leaderboard by rating (equal ratings share a place)...
    pub place: i64,
    /// ...out of this many rated players.
    pub players: i64,
    pub last_rated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerRatings {
    /// The name as last written.
    pub player: String,
    /// One per game the player has a rated result in.
    pub games: Vec<GameRating>,
}

/// One rated result in a player's rating history.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingPoint {
    pub match_id: Uuid,
    pub kind: MatchKind,
    /// When the result finished: its place in the order results are rated.
    pub finished_at: DateTime<Utc>,
    pub before: SkillRating,
    pub after: SkillRating,
    /// The player's rank (1 is first; equal ranks tied).
    pub rank: i32,
    /// Players at the table.
    pub players: i64,
    pub score: Option<i64>,
    pub winner: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingHistory {
    pub player: String,
    pub game: GameKind,
    /// In the order rated: each point's `before` is the previous point's `after`.
    pub items: Vec<RatingPoint>,
    /// Pass as `cursor` for the next (later) page; null on the last.
    pub next_cursor: Option<String>,
}

/// A row of a game's leaderboard by rating.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingRow {
    /// 1 is the highest rating; equal ratings share a place.
    pub place: i64,
    /// The name at the player's latest rated result.
    pub player: String,
    pub rating: SkillRating,
    /// Results rated (in the period, if one is given).
    pub rated: i64,
    /// Of them, those the player finished first in.
    pub won: i64,
    pub last_rated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingBoard {
    pub game: GameKind,
    pub items: Vec<RatingRow>,
    /// Pass as `cursor` for the next page; null on the last.
    pub next_cursor: Option<String>,
}

/// Two players' record at the same tables in one game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VersusRecord {
    pub game: GameKind,
    /// Rated results both sat at.
    pub played: i64,
    /// Results the player finished ahead of (ranked better than) the opponent.
    pub player_ahead: i64,
    pub opponent_ahead: i64,
    /// Results they finished level (the same rank).
    pub level: i64,
    /// Each one's current rating in the game.
    pub player_rating: Option<SkillRating>,
    pub opponent_rating: Option<SkillRating>,
}

/// A seat of a shared result.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VersusSeat {
    /// The name as written at that table.
    pub name: String,
    pub rank: i32,
    pub score: Option<i64>,
    pub winner: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SharedResult {
    pub match_id: Uuid,
    pub kind: MatchKind,
    pub game: GameKind,
    pub finished_at: DateTime<Utc>,
    pub player: VersusSeat,
    pub opponent: VersusSeat,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct HeadToHead {
    pub player: String,
    pub opponent: String,
    /// One per game they have a rated result together in.
    pub games: Vec<VersusRecord>,
    /// Their shared results, newest first.
    pub items: Vec<SharedResult>,
    /// Pass as `cursor` for the next (older) page; null on the last.
    pub next_cursor: Option<String>,
}

/// A result's place as a cursor: microseconds since the epoch and the id, as the match list's.
fn place_cursor(place: Place) -> String {
    encode_cursor(place.0, place.1)
}

/// A result's place in the rating order as a cursor.
fn order_cursor(order: Order) -> String {
    format!("r{order}")
}

/// A rating-order cursor (`r` and up to 18 digits, as the schema says: always an `Order`).
fn decode_order(cursor: Option<&str>) -> Result<Option<Order>, Problem> {
    cursor
        .map(|c| {
            c.strip_prefix('r')
                .filter(|n| (1..=18).contains(&n.len()) && n.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|n| n.parse::<Order>().ok())
                .ok_or_else(invalid_cursor)
        })
        .transpose()
}

/// A board cursor: the rating's bits in hex (exact, and any f64), then the player key.
fn board_cursor(rating: f64, key: &str) -> String {
    format!("{:016x}-{key}", rating.to_bits())
}

fn decode_board(cursor: Option<&str>) -> Result<Option<BoardCursor>, Problem> {
    cursor
        .map(|c| {
            let (bits, key) = c.split_once('-').ok_or_else(invalid_cursor)?;
            // A player key is text PostgreSQL can hold: no NUL.
            if bits.len() != 16 || key.is_empty() || key.contains('\0') {
                return Err(invalid_cursor());
            }
            let bits = u64::from_str_radix(bits, 16).map_err(|_| invalid_cursor())?;
            let rating = f64::from_bits(bits);
            if !rating.is_finite() {
                return Err(invalid_cursor());
            }
            Ok((rating, key.to_owned()))
        })
        .transpose()
}

/// A player's current rating in each game they have a rated result in.
#[tracing::instrument(skip_all, fields(player = name))]
pub async fn player(store: &Store, space: Space, name: &str) -> Result<PlayerRatings, Problem> {
    check_player_filter(name)?;
    let rows = store
        .read(async |conn| q::player_ratings(conn, space, name).await)
        .await?;
    Ok(PlayerRatings {
        player: rows
            .iter()
            .max_by_key(|r| r.last_rated_at)
            .map(|r| r.player_name.clone())
            .unwrap_or_else(|| normalise_name(name)),
        games: rows
            .into_iter()
            .map(|r| GameRating {
                game: r.game.kind(),
                rating: SkillRating::of(r.mu, r.sigma),
                rated: r.rated,
                won: r.won,
                place: r.place,
                players: r.players,
                last_rated_at: r.last_rated_at,
            })
            .collect(),
    })
}

/// A player's rating history in one game: a point per rated result, in the order they were
/// rated (the order results arrived, docs/ratings.md).
#[tracing::instrument(skip_all, fields(player = name, game = game.slug()))]
pub async fn history(
    store: &Store,
    space: Space,
    name: &str,
    game: GameKind,
    period: Period,
    cursor: Option<&str>,
    limit: Option<i64>,
) -> Result<RatingHistory, Problem> {
    check_player_filter(name)?;
    let limit = page_limit(limit, 100, 500)?;
    let after = decode_order(cursor)?;
    let (mut points, player) = store
        .read(async |conn| {
            let points = q::history(conn, space, name, game, period, after, limit + 1).await?;
            let player = q::player_ratings(conn, space, name).await?;
            Ok((points, player))
        })
        .await?;
    let next_cursor = (points.len() as i64 > limit).then(|| {
        points.truncate(limit as usize);
        points.last().map(|p| order_cursor(p.rated_order))
    });
    Ok(RatingHistory {
        player: player
            .into_iter()
            .find(|r| r.game.kind() == game)
            .map(|r| r.player_name)
            .unwrap_or_else(|| normalise_name(name)),
        game,
        items: points
            .into_iter()
            .map(|p| RatingPoint {
                match_id: p.match_id,
                kind: p.kind,
                finished_at: p.rated_at,
                before: SkillRating::of(p.mu_before, p.sigma_before),
                after: SkillRating::of(p.mu_after, p.sigma_after),
                rank: p.rank,
                players: p.players,
                score: p.score,
                winner: p.winner,
            })
            .collect(),
        next_cursor: next_cursor.flatten(),
    })
}

/// Leaderboards over a period read every rating change dated in it (all time reads the ratings
/// kept per player): one at a time per instance, so that their readers cannot take the database
/// from everyone else's reads (issue 38, finding 4). A reader waits its turn up to
/// [`PERIOD_BOARD_WAIT`], then is told to come back.
static PERIOD_BOARDS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);
const PERIOD_BOARD_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// A game's leaderboard by rating.
#[tracing::instrument(skip_all, fields(game = game.slug()))]
pub async fn board(
    store: &Store,
    space: Space,
    game: GameKind,
    period: Period,
    cursor: Option<&str>,
    limit: Option<i64>,
) -> Result<RatingBoard, Problem> {
    let limit = page_limit(limit, 20, 100)?;
    let after = decode_board(cursor)?;
    let _turn = match period.is_all_time() {
        true => None,
        false => Some(
            tokio::time::timeout(PERIOD_BOARD_WAIT, PERIOD_BOARDS.acquire())
                .await
                .map_err(|_| Problem::busy())?
                .map_err(|e| Problem::internal(format!("the period boards' turn closed: {e}")))?,
        ),
    };
    let mut rows = store
        .read(async |conn| q::board(conn, space, game, period, after.as_ref(), limit + 1).await)
        .await?;
    let next_cursor = (rows.len() as i64 > limit).then(|| {
        rows.truncate(limit as usize);
        rows.last().map(|r| board_cursor(r.ordinal, &r.player_key))
    });
    Ok(RatingBoard {
        game,
        items: rows
            .into_iter()
            .map(|r| RatingRow {
                place: r.place,
                player: r.player_name,
                rating: SkillRating::of(r.mu, r.sigma),
                rated: r.rated,
                won: r.won,
                last_rated_at: r.last_rated_at,
            })
            .collect(),
        next_cursor: next_cursor.flatten(),
    })
}

/// Two players' record at the same tables, per game, and their shared results.
#[tracing::instrument(skip_all, fields(player = player, opponent = opponent))]
pub async fn head_to_head(
    store: &Store,
    space: Space,
    (player, opponent): (&str, &str),
    game: Option<GameKind>,
    period: Period,
    cursor: Option<&str>,
    limit: Option<i64>,
) -> Result<HeadToHead, Problem> {
    check_player_filter(player)?;
    check_player_filter(opponent)?;
    if name_key(player) == name_key(opponent) {
        return Err(Problem::new(
            Code::SamePlayer,
            "a head-to-head needs two different players",
        ));
    }
    let limit = page_limit(limit, 20, 100)?;
    let before = cursor_param(cursor)?;
    let (games, mut items, player_ratings, opponent_ratings) = store
        .read(async |conn| {
            let games = q::versus_games(conn, space, player, opponent, game, period).await?;
            let items = q::shared_results(
                conn,
                space,
                (player, opponent),
                game,
                period,
                before,
                limit + 1,
            )
            .await?;
            let mine = q::player_ratings(conn, space, player).await?;
            let theirs = q::player_ratings(conn, space, opponent).await?;
            Ok((games, items, mine, theirs))
        })
        .await?;
    let next_cursor = (items.len() as i64 > limit).then(|| {
        items.truncate(limit as usize);
        items.last().map(|r| place_cursor((r.rated_at, r.match_id)))
    });
    let rating_in = |ratings: &[q::PlayerRatingRow], game: GameKind| {
        ratings
            .iter()
            .find(|r| r.game.kind() == game)
            .map(|r| SkillRating::of(r.mu, r.sigma))
    };
    let name_of = |ratings: &[q::PlayerRatingRow], typed: &str| {
        ratings
            .iter()
            .max_by_key(|r| r.last_rated_at)
            .map(|r| r.player_name.clone())
            .unwrap_or_else(|| normalise_name(typed))
    };
    Ok(HeadToHead {
        player: name_of(&player_ratings, player),
        opponent: name_of(&opponent_ratings, opponent),
        games: games
            .into_iter()
            .map(|g| VersusRecord {
                game: g.game.kind(),
                played: g.played,
                player_ahead: g.player_ahead,
                opponent_ahead: g.opponent_ahead,
                level: g.level,
                player_rating: rating_in(&player_ratings, g.game.kind()),
                opponent_rating: rating_in(&opponent_ratings, g.game.kind()),
            })
            .collect(),
        items: items
            .into_iter()
            .map(|r| SharedResult {
                match_id: r.match_id,
                kind: r.kind,
                game: r.game.kind(),
                finished_at: r.rated_at,
                player: VersusSeat {
                    name: r.player_name,
                    rank: r.player_rank,
                    score: r.player_score,
                    winner: r.player_winner,
                },
                opponent: VersusSeat {
                    name: r.opponent_name,
                    rank: r.opponent_rank,
                    score: r.opponent_score,
                    winner: r.opponent_winner,
                },
            })
            .collect(),
        next_cursor: next_cursor.flatten(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_cursor_round_trips_any_rating_exactly() {
        for rating in [0.0, -3.25, 14.123_456_789_012_345, f64::MIN_POSITIVE] {
            let cursor = board_cursor(rating, "ann-b");
            assert_eq!(
                decode_board(Some(&cursor)).unwrap(),
                Some((rating, "ann-b".to_owned()))
            );
        }
    }

    #[test]
    fn a_cursor_this_service_did_not_issue_is_refused() {
        for bad in [
            "",
            "x",
            "7ff8000000000000-ann",
            "12-ann",
            "0000000000000000-",
        ] {
            assert!(decode_board(Some(bad)).is_err(), "{bad:?}");
        }
    }
}
