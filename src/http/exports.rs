//! History exports: a player's matches as NDJSON or CSV, a finished play for BG Stats, and a
//! score sheet as one self-contained document.

use actix_web::{get, web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::exports::{self, BgStatsFile, HistoryLine};
use crate::problem::{Problem, ProblemDocument};
use crate::records::MatchKind;
use crate::sheets::{self, SheetDetail};
use crate::store::Store;

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

/// Every match and score sheet of a player (names compared ignoring case, width and invisible characters), newest first.
#[utoipa::path(
    tag = "history",
    params(("name" = String, Path, example = "Ann", pattern = "^[^\\u0000]+$"), HistoryQuery),
    responses(
        (status = 200, content(
            (HistoryLine = "application/x-ndjson"),
            (String = "text/csv"),
        )),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
        (status = "5XX", body = ProblemDocument, content_type = "application/problem+json"),
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
    params(("id" = Uuid, Path)),
    responses(
        (status = 200, body = BgStatsFile),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
        (status = "5XX", body = ProblemDocument, content_type = "application/problem+json"),
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
    params(("id" = Uuid, Path)),
    responses(
        (status = 200, body = BgStatsFile),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
        (status = "5XX", body = ProblemDocument, content_type = "application/problem+json"),
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
pub struct SheetExport {
    /// Always `referee.sheet/1`.
    pub format: String,
    pub sheet: SheetDetail,
}

#[utoipa::path(
    tag = "history",
    params(("id" = Uuid, Path)),
    responses(
        (status = 200, body = SheetExport),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
        (status = "5XX", body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[get("/sheets/{id}/export")]
pub async fn export_sheet(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
) -> Result<web::Json<SheetExport>, Problem> {
    Ok(web::Json(SheetExport {
        format: "referee.sheet/1".to_owned(),
        sheet: sheets::read(&store, path.into_inner()).await?,
    }))
}
