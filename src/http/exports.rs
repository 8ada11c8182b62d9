//! History exports: a player's matches as NDJSON or CSV, a finished play for BG Stats, and a
//! score sheet as one self-contained document.

use actix_web::{get, web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::responses::*;
use crate::exports::{self, BgStatsFile, HistoryLine};
use crate::problem::Problem;
use crate::sheets::{self, SheetDetail};
use crate::store::Store;
use crate::vocabulary::MatchKind;
use crate::wire::{Json, Payloads};

#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HistoryFormat {
    /// One JSON document per line (`application/x-ndjson`).
    #[default]
    Ndjson,
    /// A header row then one row per match (`text/csv`).
    Csv,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    #[param(inline)]
    pub format: Option<HistoryFormat>,
}

/// Every match and score sheet of a player (names compared ignoring case, width, invisible characters and look-alike letters), newest first.
#[utoipa::path(
    tag = "history",
    params(("name" = String, Path, example = "Ann", pattern = "^[^\\u0000]+$"), HistoryQuery),
    responses(
        (status = 200, content(
            (HistoryLine = "application/x-ndjson"),
            (String = "text/csv"),
        )),
        QueryProblems,
    )
)]
#[get("/players/{name}/history")]
pub async fn player_history(
    store: web::Data<Store>,
    path: web::Path<String>,
    query: web::Query<HistoryQuery>,
) -> Result<HttpResponse, Problem> {
    let lines = exports::player_history(&store, &path).await?;
    Ok(match query.format.unwrap_or_default() {
        HistoryFormat::Ndjson => HttpResponse::Ok()
            .content_type("application/x-ndjson")
            .body(exports::to_ndjson(&lines)),
        HistoryFormat::Csv => HttpResponse::Ok()
            .content_type("text/csv; charset=utf-8")
            .insert_header((
                "Content-Disposition",
                "attachment; filename=\"history.csv\"",
            ))
            .body(exports::to_csv(&lines)),
    })
}

/// A finished hosted match as a play in the BG Stats import format.
#[utoipa::path(
    tag = "history",
    responses(
        (status = 200, body = BgStatsFile),
        PublicStateProblems,
    )
)]
#[get("/matches/{id}/bgstats")]
pub async fn match_bgstats(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
) -> Result<web::Json<BgStatsFile>, Problem> {
    Ok(web::Json(
        exports::bgstats(&store, path.into_inner(), MatchKind::Hosted).await?,
    ))
}

/// A finished score sheet as a play in the BG Stats import format.
#[utoipa::path(
    tag = "history",
    responses(
        (status = 200, body = BgStatsFile),
        PublicStateProblems,
    )
)]
#[get("/sheets/{id}/bgstats")]
pub async fn sheet_bgstats(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
) -> Result<web::Json<BgStatsFile>, Problem> {
    Ok(web::Json(
        exports::bgstats(&store, path.into_inner(), MatchKind::Sheet).await?,
    ))
}

/// A score sheet as one self-contained document: rules version, options, players, every entry
/// (corrections included) and the scored rounds, so anyone can re-score and check it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct SheetExport<P: Payloads = Json> {
    /// Always `referee.sheet/1`.
    pub format: String,
    pub game: P::Game,
    pub sheet: SheetDetail<P>,
}

crate::one_of_games!(AnySheetExport = SheetExport);

#[utoipa::path(
    tag = "history",
    responses(
        (status = 200, body = AnySheetExport),
        PublicReadProblems,
    )
)]
#[get("/sheets/{id}/export")]
pub async fn export_sheet(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
) -> Result<web::Json<SheetExport>, Problem> {
    let sheet = sheets::read(&store, path.into_inner()).await?;
    Ok(web::Json(SheetExport {
        format: "referee.sheet/1".to_owned(),
        game: sheet.game,
        sheet,
    }))
}
