//! Statistics over finished matches and score sheets.

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
use crate::stats::{self, LeaderboardRow, Period, PlayerStats};
use crate::store::Store;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PlayerStatsQuery {
    /// Only this game.
    pub game: Option<GameKind>,
    /// Only matches that ended at or after this instant (RFC 3339), e.g. this year's.
    pub from: Option<DateTime<Utc>>,
    /// Only matches that ended before this instant (RFC 3339).
    pub to: Option<DateTime<Utc>>,
}

/// A player's record (names compared ignoring case, width, invisible characters and look-alike
/// letters): played, won, win rate, average and best score, current and longest winning streak,
/// each game's brag figures, and `abandoned`: matches abandoned after play began, apart from
/// `played` (one abandoned before play counts nowhere). An abandoned match "ended" when it was
/// abandoned, for `from` and `to`.
#[utoipa::path(
    tag = "history",
    params(("name" = String, Path, example = "Ann", pattern = "^[^\\u0000]+$"), PlayerStatsQuery, InHousehold),
    responses(
        (status = 200, body = PlayerStats),
        QueryProblems,
    )
)]
#[get("/players/{name}/stats")]
pub async fn player_stats(
    store: web::Data<Store>,
    path: web::Path<String>,
    query: web::Query<PlayerStatsQuery>,
    request: HttpRequest,
) -> Result<web::Json<PlayerStats>, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    let period = Period {
        from: query.from,
        to: query.to,
    };
    Ok(web::Json(
        stats::player(&store, space, &path, query.game, period).await?,
    ))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// Rows, 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// Only matches that ended at or after this instant (RFC 3339), e.g. this year's.
    pub from: Option<DateTime<Utc>>,
    /// Only matches that ended before this instant (RFC 3339).
    pub to: Option<DateTime<Utc>>,
}

/// A game's players ranked by wins, then win rate, then games played, each with the matches
/// they sat at that were abandoned after play began; all time, or over the matches that ended
/// (or were abandoned) between `from` and `to`.
#[utoipa::path(
    tag = "history",
    params(("game" = GameKind, Path), LeaderboardQuery, InHousehold),
    responses(
        (status = 200, body = Vec<LeaderboardRow>),
        QueryProblems,
    )
)]
#[get("/games/{game}/leaderboard")]
pub async fn leaderboard(
    store: web::Data<Store>,
    path: web::Path<String>,
    query: web::Query<LeaderboardQuery>,
    request: HttpRequest,
) -> Result<web::Json<Vec<LeaderboardRow>>, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    let game = super::games::game(&path)?;
    let limit = crate::records::page_limit(query.limit, 20, 100)?;
    let period = Period {
        from: query.from,
        to: query.to,
    };
    Ok(web::Json(
        stats::leaderboard(&store, space, game, limit, period).await?,
    ))
}
