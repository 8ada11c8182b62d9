//! Score sheets for games played with real cards and dice.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use uuid::Uuid;

use super::body::Body;
use super::caching::{as_precondition, cached, expected_version};
use super::params::{Guarded, IdempotencyKey, IfNoneMatch, NewEntry, NewSheet};
use super::responses::*;
use super::{idempotency_key, required_bearer};
use crate::examples;
use crate::problem::Problem;
use crate::sheets::{
    self, AnyCreateSheet, AnyCreatedSheet, AnySheetDetail, AppendEntry, CreateSheet, SheetDetail,
};
use crate::store::Store;

/// Start a score sheet: the game, the players and the options (e.g. 3 or 5 rounds). Returns the
/// owner token that adds entries (shown only here). An `Idempotency-Key` makes retries safe: a
/// retry within 24 hours gets the first answer (the same sheet and token) and creates nothing.
#[utoipa::path(
    tag = "sheets",
    params(IdempotencyKey<NewSheet>),
    request_body(content = AnyCreateSheet, example = json!(examples::create_sheet())),
    responses(
        // Its links are in `links::CreatedLinks`.
        (status = 201, body = AnyCreatedSheet, headers(("Location" = String))),
        CreateProblems,
    )
)]
#[post("/sheets")]
pub async fn create_sheet(
    store: web::Data<Store>,
    request: HttpRequest,
    body: Body<CreateSheet>,
) -> Result<HttpResponse, Problem> {
    let created = sheets::create(&store, body.into_inner(), idempotency_key(&request)?).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/v1/sheets/{}", created.sheet.id)))
        .json(created))
}

/// A sheet: the rounds as corrected and scored, totals, ranks, winners, and every entry ever made.
#[utoipa::path(
    tag = "sheets",
    params(("id" = Uuid, Path), IfNoneMatch),
    responses(
        (status = 200, body = AnySheetDetail),
        NotModified,
        PublicReadProblems,
    )
)]
#[get("/sheets/{id}")]
pub async fn get_sheet(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<HttpResponse, Problem> {
    let sheet = sheets::read(&store, path.into_inner()).await?;
    Ok(cached(&request, sheet.version, &sheet))
}

/// Add the next round in the game's terms, or correct an earlier entry (`corrects`). The entry is
/// checked against the rules and scored with the game's own scoring. An `Idempotency-Key` makes
/// retries safe: a retry gets the first answer and stores nothing twice.
#[utoipa::path(
    tag = "sheets",
    params(("id" = Uuid, Path), Guarded<NewEntry>),
    request_body(content = AppendEntry, example = json!(examples::append_entry())),
    security(("token" = [])),
    responses(
        (status = 200, body = AnySheetDetail),
        WriteProblems,
    )
)]
#[post("/sheets/{id}/entries")]
pub async fn append_entry(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
    body: Body<AppendEntry>,
) -> Result<web::Json<SheetDetail>, Problem> {
    let token = required_bearer(&request)?;
    let mut body = body.into_inner();
    let (expected, by_if_match) = expected_version(&request, body.expected_version)?;
    body.expected_version = expected;
    Ok(web::Json(
        sheets::append(
            &store,
            path.into_inner(),
            token,
            idempotency_key(&request)?,
            body,
        )
        .await
        .map_err(|problem| as_precondition(problem, by_if_match))?,
    ))
}
