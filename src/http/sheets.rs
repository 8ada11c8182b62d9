//! Score sheets for games played with real cards and dice.

use actix_web::{get, patch, post, web, HttpRequest, HttpResponse};
use uuid::Uuid;

use super::body::Body;
use super::caching::{cached, cached_by_content};
use super::households::space;
use super::params::InHousehold;
use super::params::{Guarded, IdempotencyKey, IfNoneMatch, NewEntry, NewSheet};
use super::responses::*;
use super::writes::{guarded, Expecting};
use super::{idempotency_key, required_bearer};
use crate::games::Seat;
use crate::households::Need;
use crate::problem::Problem;
use crate::request_examples;
use crate::sheets::{
    self, AnyCreateSheet, AnyCreatedSheet, AnySheetDetail, AppendEntry, CreateSheet, Evening,
    FinishSheet, RemoveLastRound, RenameSheetPlayer, SheetDetail, SheetOwnerToken,
};
use crate::store::Store;
use crate::vocabulary::MatchKind;

/// Start a score sheet: the game, the players and the options (e.g. 3 or 5 rounds). Returns the
/// owner token that adds entries (shown only here). An `Idempotency-Key` makes retries safe: a
/// retry within 24 hours gets the first answer (the same sheet and token) and creates nothing.
#[utoipa::path(
    tag = "sheets",
    params(IdempotencyKey<NewSheet>, InHousehold),
    request_body(content = AnyCreateSheet, example = json!(request_examples::create_sheet())),
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
    let space = space(&store, &request, Need::Write).await?;
    let key = idempotency_key(&request)?;
    let created = sheets::create(&store, body.into_inner(), key, space).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/v1/sheets/{}", created.sheet.id)))
        .json(created))
}

/// A sheet: the rounds as corrected and scored, totals, ranks, winners, and every entry ever made.
#[utoipa::path(
    tag = "sheets",
    params(("id" = Uuid, Path), IfNoneMatch, InHousehold),
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
    let space = space(&store, &request, Need::Read).await?;
    let sheet = sheets::read(&store, path.into_inner(), space).await?;
    Ok(cached(&request, sheet.version, &sheet))
}

/// Add the next round in the game's terms, or correct an earlier entry (`corrects`). The entry is
/// checked against the rules and scored with the game's own scoring. An `Idempotency-Key` makes
/// retries safe: a retry gets the first answer and stores nothing twice.
#[utoipa::path(
    tag = "sheets",
    params(("id" = Uuid, Path), Guarded<NewEntry>),
    request_body(content = AppendEntry, example = json!(request_examples::append_entry())),
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
    sheet_write(&store, path.into_inner(), &request, body, sheets::append).await
}

/// Take the last round away (owner token), with a note saying why (required). It is recorded as
/// an entry of kind `removal` that supersedes the round's standing entry: nothing is deleted, the
/// entries list shows the removal, who made it, when and why. The sheet shows one round fewer with
/// its standings recomputed; a finished sheet (by its end rule or early) reopens and its results
/// leave the players' statistics. A sheet with no round standing: 409 `no_round`. `If-Match` /
/// `expected_version` and `Idempotency-Key` work as on entries.
#[utoipa::path(
    tag = "sheets",
    params(("id" = Uuid, Path), Guarded<NewEntry>),
    request_body(content = RemoveLastRound, example = json!(request_examples::remove_last_round())),
    security(("token" = [])),
    responses(
        (status = 200, body = AnySheetDetail),
        WriteProblems,
    )
)]
#[post("/sheets/{id}/remove-last-round")]
pub async fn remove_last_round(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
    body: Body<RemoveLastRound>,
) -> Result<web::Json<SheetDetail>, Problem> {
    sheet_write(
        &store,
        path.into_inner(),
        &request,
        body,
        sheets::remove_last_round,
    )
    .await
}

/// Rename a player of a sheet (owner token), at any time: the name is checked like a new one
/// (422 `duplicate_player` for a name, or a look-alike of a name, already at the table). The
/// player's identity follows: a sheet already counted in statistics (finished, or abandoned with
/// an entry) moves to the new name in the player's statistics, leaderboard and history. Recorded
/// as an entry of kind `rename` (the version grows). `If-Match` / `expected_version` and
/// `Idempotency-Key` work as on entries.
#[utoipa::path(
    tag = "sheets",
    params(("id" = Uuid, Path), ("seat" = Seat, Path, minimum = 0), Guarded<NewEntry>),
    request_body(content = RenameSheetPlayer, example = json!(request_examples::rename_sheet_player())),
    security(("token" = [])),
    responses(
        (status = 200, body = AnySheetDetail),
        WriteProblems,
    )
)]
#[patch("/sheets/{id}/seats/{seat}")]
pub async fn rename_sheet_player(
    store: web::Data<Store>,
    path: web::Path<(Uuid, Seat)>,
    request: HttpRequest,
    body: Body<RenameSheetPlayer>,
) -> Result<web::Json<SheetDetail>, Problem> {
    let (id, seat) = path.into_inner();
    guarded(&request, body, async |writer, body| {
        sheets::rename_player(&store, id, seat, writer.token, writer.idempotency_key, body).await
    })
    .await
}

/// Finish a sheet in progress early (owner token), with the standings of the rounds entered so
/// far: status `finished`, `finished_early: true`, ranks and winners from the game's own
/// standings, results and statistics recorded as at a normal end. Needs a round (409
/// `no_round`); a finished sheet is a 409 `match_finished`; a game whose rules have no standings
/// before their end (Lucky Luau) is a 422 `early_finish_not_allowed`. Corrections still apply
/// to an early-finished sheet; taking its last round away reopens it. `If-Match` /
/// `expected_version` and `Idempotency-Key` work as on entries.
#[utoipa::path(
    tag = "sheets",
    params(("id" = Uuid, Path), Guarded<NewEntry>),
    request_body(content = FinishSheet, example = json!(request_examples::finish_sheet())),
    security(("token" = [])),
    responses(
        (status = 200, body = AnySheetDetail),
        WriteProblems,
    )
)]
#[post("/sheets/{id}/finish")]
pub async fn finish_sheet(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
    body: Body<FinishSheet>,
) -> Result<web::Json<SheetDetail>, Problem> {
    sheet_write(
        &store,
        path.into_inner(),
        &request,
        body,
        sheets::finish_early,
    )
    .await
}

/// Play a finished or abandoned sheet again (owner token): a new sheet of the same game, options
/// and players in the same seats, with its own owner token (answered as `POST /v1/sheets`
/// answers). The new sheet names the old as `rematch_of`, the old the new as `rematch`, so a page
/// showing the old one can follow the evening to the new. A sheet in progress is a 409
/// `match_not_finished` (finish it early or abandon it first); a sheet is played again once (409
/// `rematch_exists` names the sheet that plays it again). No body.
#[utoipa::path(
    tag = "sheets",
    params(("id" = Uuid, Path)),
    security(("token" = [])),
    responses(
        (status = 201, body = AnyCreatedSheet, headers(("Location" = String))),
        Problems<(BadRequest, Unauthorized, NotFound, Conflict, OtherClientError, Unavailable)>,
    )
)]
#[post("/sheets/{id}/rematch")]
pub async fn rematch_sheet(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<HttpResponse, Problem> {
    let token = required_bearer(&request)?;
    let created = sheets::rematch(&store, path.into_inner(), &token).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/v1/sheets/{}", created.sheet.id)))
        .json(created))
}

/// Hand a sheet to another phone (owner token): a new owner token for the sheet, shown only in
/// this answer; the token presented stops working at once, so the phone that gave the sheet away
/// (and any copy of its token) can no longer write to it. No body.
#[utoipa::path(
    tag = "sheets",
    params(("id" = Uuid, Path)),
    security(("token" = [])),
    responses(
        (status = 200, body = SheetOwnerToken),
        Problems<(BadRequest, Unauthorized, NotFound, OtherClientError, Unavailable)>,
    )
)]
#[post("/sheets/{id}/owner-token")]
pub async fn reissue_sheet_owner_token(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<web::Json<SheetOwnerToken>, Problem> {
    let token = required_bearer(&request)?;
    Ok(web::Json(
        sheets::reissue_owner_token(&store, path.into_inner(), &token).await?,
    ))
}

/// The evening a sheet belongs to: the chain of sheets played again from one another (its last
/// 50), first to last, each with its players, totals and winners, and each player's sheets and
/// wins over the evening. `current` is the latest sheet: a page sharing the evening's first link
/// shows that one.
#[utoipa::path(
    tag = "sheets",
    params(("id" = Uuid, Path), IfNoneMatch, InHousehold),
    responses(
        (status = 200, body = Evening),
        NotModified,
        PublicReadProblems,
    )
)]
#[get("/sheets/{id}/evening")]
pub async fn sheet_evening(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<HttpResponse, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    let evening = sheets::evening(&store, path.into_inner(), MatchKind::Sheet, space).await?;
    Ok(cached_by_content(&request, &evening))
}

/// A guarded write to sheet `id` (a round or correction, a removal, an early finish): `service`
/// called with the owner's token and `Idempotency-Key`.
async fn sheet_write<B: Expecting>(
    store: &Store,
    id: Uuid,
    request: &HttpRequest,
    body: Body<B>,
    service: impl AsyncFnOnce(&Store, Uuid, String, Option<String>, B) -> Result<SheetDetail, Problem>,
) -> Result<web::Json<SheetDetail>, Problem> {
    guarded(request, body, async |writer, body| {
        service(store, id, writer.token, writer.idempotency_key, body).await
    })
    .await
}
