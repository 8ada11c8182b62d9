//! Skill ratings: a player's ratings and rating history, a game's leaderboard by rating, and two
//! players' head-to-head record.

use actix_web::{get, web, HttpRequest};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use utoipa::IntoParams;

use super::households::space;
use super::params::InHousehold;
use super::responses::*;
use crate::games::GameKind;
use crate::households::Need;
use crate::problem::Problem;
use crate::ratings::{self, HeadToHead, PlayerRatings, RatingBoard, RatingHistory};
use crate::store::stat_reads::Period;
use crate::store::Store;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RatingHistoryQuery {
    /// Only results that finished at or after this instant (RFC 3339).
    pub from: Option<DateTime<Utc>>,
    /// Only results that finished before this instant (RFC 3339).
    pub to: Option<DateTime<Utc>>,
    /// Where the next page starts: `next_cursor` from the page before (a place in the rating
    /// order).
    #[param(pattern = "^r[0-9]{1,18}$")]
    pub cursor: Option<String>,
    /// Points, 1 to 500 (default 100).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RatingBoardQuery {
    /// Only players rated at or after this instant, at their rating after their last result in
    /// the period (RFC 3339).
    pub from: Option<DateTime<Utc>>,
    /// Only players rated before this instant (RFC 3339).
    pub to: Option<DateTime<Utc>>,
    /// Where the next page starts: `next_cursor` from the page before.
    #[param(pattern = "^[0-9a-f]{16}-.+$")]
    pub cursor: Option<String>,
    /// Rows, 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct HeadToHeadQuery {
    /// Only this game.
    pub game: Option<GameKind>,
    /// Only results that finished at or after this instant (RFC 3339).
    pub from: Option<DateTime<Utc>>,
    /// Only results that finished before this instant (RFC 3339).
    pub to: Option<DateTime<Utc>>,
    /// Where the next page of shared results starts: `next_cursor` from the page before.
    #[param(pattern = "^[0-9]{1,16}-[0-9a-f]{32}$")]
    pub cursor: Option<String>,
    /// Shared results, 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// A player's skill rating in each game they have a rated result in (names compared as
/// everywhere): the Weng-Lin estimate (`mu`, `sigma`), the conservative `rating`
/// (`mu - 3 sigma`) that rankings show, and their place on the game's leaderboard by rating. A
/// player with no rated result has no games (docs/ratings.md).
#[utoipa::path(
    tag = "ratings",
    params(("name" = String, Path, example = "Ann", pattern = "^[^\\u0000]+$"), InHousehold),
    responses(
        (status = 200, body = PlayerRatings),
        QueryProblems,
    )
)]
#[get("/players/{name}/ratings")]
pub async fn player_ratings(
    store: web::Data<Store>,
    path: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<PlayerRatings>, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    Ok(web::Json(ratings::player(&store, space, &path).await?))
}

/// A player's rating history in one game: one point per rated result, in the order the results
/// were rated (the order they reached the service), with the rating before and after it, when
/// it finished and how the player finished.
#[utoipa::path(
    tag = "ratings",
    params(
        ("name" = String, Path, example = "Ann", pattern = "^[^\\u0000]+$"),
        ("game" = GameKind, Path),
        RatingHistoryQuery,
        InHousehold,
    ),
    responses(
        (status = 200, body = RatingHistory),
        PublicReadProblems,
    )
)]
#[get("/players/{name}/ratings/{game}")]
pub async fn rating_history(
    store: web::Data<Store>,
    path: web::Path<(String, String)>,
    query: web::Query<RatingHistoryQuery>,
    request: HttpRequest,
) -> Result<web::Json<RatingHistory>, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    let (name, game) = path.into_inner();
    let game = super::games::game(&game)?;
    let period = Period {
        from: query.from,
        to: query.to,
    };
    Ok(web::Json(
        ratings::history(
            &store,
            space,
            &name,
            game,
            period,
            query.cursor.as_deref(),
            query.limit,
        )
        .await?,
    ))
}

/// A game's leaderboard by rating, highest first; equal ratings share a place. All time, each
/// player's current rating; over a period, the players rated in it, at their rating after their
/// last result in it.
#[utoipa::path(
    tag = "ratings",
    params(("game" = GameKind, Path), RatingBoardQuery, InHousehold),
    responses(
        (status = 200, body = RatingBoard),
        PublicReadProblems,
    )
)]
#[get("/games/{game}/ratings")]
pub async fn rating_board(
    store: web::Data<Store>,
    path: web::Path<String>,
    query: web::Query<RatingBoardQuery>,
    request: HttpRequest,
) -> Result<web::Json<RatingBoard>, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    let game = super::games::game(&path)?;
    let period = Period {
        from: query.from,
        to: query.to,
    };
    Ok(web::Json(
        ratings::board(
            &store,
            space,
            game,
            period,
            query.cursor.as_deref(),
            query.limit,
        )
        .await?,
    ))
}

/// Two players' head-to-head record: per game, the rated results both sat at and who finished
/// ahead (ranked better), with each one's current rating; then their shared results, newest
/// first.
#[utoipa::path(
    tag = "ratings",
    params(
        ("name" = String, Path, example = "Ann", pattern = "^[^\\u0000]+$"),
        ("opponent" = String, Path, example = "Ben", pattern = "^[^\\u0000]+$"),
        HeadToHeadQuery,
        InHousehold,
    ),
    responses(
        (status = 200, body = HeadToHead),
        RuledQueryProblems,
    )
)]
#[get("/players/{name}/versus/{opponent}")]
pub async fn head_to_head(
    store: web::Data<Store>,
    path: web::Path<(String, String)>,
    query: web::Query<HeadToHeadQuery>,
    request: HttpRequest,
) -> Result<web::Json<HeadToHead>, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    let (name, opponent) = path.into_inner();
    let period = Period {
        from: query.from,
        to: query.to,
    };
    Ok(web::Json(
        ratings::head_to_head(
            &store,
            space,
            (&name, &opponent),
            query.game,
            period,
            query.cursor.as_deref(),
            query.limit,
        )
        .await?,
    ))
}
