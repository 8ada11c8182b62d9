//! History exports: a player's matches as NDJSON or CSV, a finished play for BG Stats, and a
//! score sheet as one self-contained document.

use actix_web::{get, post, web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::households::space;
use super::params::InHousehold;
use super::responses::*;
use crate::bgstats::{self, BgStatsFile, BgStatsImport, ImportReport};
use crate::exports::{self, HistoryLine};
use crate::households::Need;
use crate::payloads::{Json, Payloads};
use crate::problem::Problem;
use crate::sheets::{self, SheetDetail};
use crate::store::Store;
use crate::vocabulary::MatchKind;

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
    params(("name" = String, Path, example = "Ann", pattern = "^[^\\u0000]+$"), HistoryQuery, InHousehold),
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
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    let lines = exports::player_history(&store, space, &path).await?;
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
    params(InHousehold),
    responses(
        (status = 200, body = BgStatsFile),
        PublicStateProblems,
    )
)]
#[get("/matches/{id}/bgstats")]
pub async fn match_bgstats(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: actix_web::HttpRequest,
) -> Result<web::Json<BgStatsFile>, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    Ok(web::Json(
        bgstats::one(&store, path.into_inner(), MatchKind::Hosted, space).await?,
    ))
}

/// A finished score sheet as a play in the BG Stats import format.
#[utoipa::path(
    tag = "history",
    params(InHousehold),
    responses(
        (status = 200, body = BgStatsFile),
        PublicStateProblems,
    )
)]
#[get("/sheets/{id}/bgstats")]
pub async fn sheet_bgstats(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: actix_web::HttpRequest,
) -> Result<web::Json<BgStatsFile>, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    Ok(web::Json(
        bgstats::one(&store, path.into_inner(), MatchKind::Sheet, space).await?,
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
    params(InHousehold),
    responses(
        (status = 200, body = AnySheetExport),
        PublicReadProblems,
    )
)]
#[get("/sheets/{id}/export")]
pub async fn export_sheet(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: actix_web::HttpRequest,
) -> Result<web::Json<SheetExport>, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    let sheet = sheets::read(&store, path.into_inner(), space).await?;
    Ok(web::Json(SheetExport {
        format: "referee.sheet/1".to_owned(),
        game: sheet.game,
        sheet,
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EverythingQuery {
    /// Only results that ended at or after this instant (RFC 3339).
    pub from: Option<chrono::DateTime<chrono::Utc>>,
    /// Only results that ended before this instant (RFC 3339).
    pub to: Option<chrono::DateTime<chrono::Utc>>,
}

/// Every result that counts in statistics, as one BG Stats file: each finished match and score
/// sheet, and each one abandoned after play began (as an `ignored` play), in the order they
/// ended, each seat with its rating change. Streamed a page at a time. Besides BG Stats' fields,
/// each play carries `referee` (BG Stats ignores it): what this service's import needs to
/// bring it back exactly. The status is sent before the plays: should the database fail while
/// they stream, the file is cut short (it no longer parses) rather than answered with a problem.
#[utoipa::path(
    tag = "history",
    params(EverythingQuery, InHousehold),
    responses(
        (status = 200, body = BgStatsFile),
        QueryProblems,
    )
)]
#[get("/exports/bgstats")]
pub async fn export_everything(
    store: web::Data<Store>,
    query: web::Query<EverythingQuery>,
    request: actix_web::HttpRequest,
) -> Result<HttpResponse, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    use futures_util::StreamExt;
    let period = crate::store::stat_reads::Period {
        from: query.from,
        to: query.to,
    };
    let stream = bgstats::everything(store.get_ref().clone(), space, period).map(|part| {
        part.map(web::Bytes::from).map_err(|problem| {
            // The status is sent: a failure past it can only cut the file short.
            tracing::error!(code = %problem.code, detail = %problem.detail, "export cut short");
            actix_web::error::ErrorInternalServerError(problem.detail.clone())
        })
    });
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((
            "Content-Disposition",
            "attachment; filename=\"bgstats-export.json\"",
        ))
        .streaming(stream))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// Only the report: what the import would create, match, refuse and note, and who the
    /// players are here, with nothing written (and no owner tokens).
    #[serde(default)]
    pub dry_run: bool,
}

/// Imports a BG Stats file: this service's own export, or BG Stats' export as far as its fields
/// map. Each play of one of the five games (matched by name) becomes a finished score sheet
/// with its results, its players matched by name as everywhere; a play already here (the same
/// id) is matched and not written again, so the same file twice creates nothing new; any other
/// play is skipped with a reason. Each play is written all or nothing, and ratings follow in
/// the order results finished. At most 8 MiB and 5 000 plays; a file that does not read gets
/// `422 invalid_import` naming its first bad field (`params.field`). BG Stats' anonymous player
/// keeps its seat and score but is nobody's result: no totals, no rating. A play whose ranks
/// contradict its scores is kept as the file ranks it, with a note. `dry_run=true` answers the
/// same report and writes nothing.
#[utoipa::path(
    tag = "history",
    params(InHousehold, ImportQuery),
    request_body(content = BgStatsImport, content_type = "application/json",
                 example = json!(crate::request_examples::import_bgstats())),
    responses(
        (status = 200, body = ImportReport),
        CreateProblems,
    )
)]
#[post("/imports/bgstats")]
pub async fn import_bgstats(
    store: web::Data<Store>,
    request: actix_web::HttpRequest,
    payload: web::Payload,
    query: web::Query<ImportQuery>,
) -> Result<web::Json<ImportReport>, Problem> {
    let space = space(&store, &request, Need::Write).await?;
    let body = super::body::read_upload(&request, payload, bgstats::IMPORT_BYTES).await?;
    Ok(web::Json(
        bgstats::import(&store, body, space, query.dry_run).await?,
    ))
}
