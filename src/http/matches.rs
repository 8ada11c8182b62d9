//! Hosted matches. Tokens travel as `Authorization: Bearer <token>`.

use actix_web::http::header;
use actix_web::{get, post, put, web, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use uuid::Uuid;

use super::body::Body;
use super::caching::{answer, cached, cached_by_content};
use super::households::{space, who};
use super::params::InHousehold;
use super::params::{
    ChanceReport, CorrectionAttempt, Guarded, IdempotencyKey, IfNoneMatch, MoveAttempt, NewMatch,
    TakeBackAttempt,
};
use super::responses::*;
use super::writes::{guarded, Expecting};
use super::{bearer, idempotency_key};
use crate::games::Seat;
use crate::households::Need;
use crate::matches::{
    self, AnyCreateMatch, AnyCreatedMatch, AnyMatchDetail, AnyMatchExport, AnyMatchLog,
    AnyMatchResult, AnyMoveReply, AnyPlyView, CorrectChance, CreateMatch, EnterHand, EnteredHands,
    ListQuery, LogQuery, MatchLog, MatchPage, MatchResult, MoveReply, PlyView, SubmitChance,
    SubmitMove, TakeBack,
};
use crate::problem::Problem;
use crate::request_examples;
use crate::sheets::{self, Evening};
use crate::store::Store;
use crate::vocabulary::limits;
use crate::vocabulary::MatchKind;

/// Create a match: returns one secret token per seat and an owner token (shown only here). An
/// `Idempotency-Key` makes retries safe: a retry within 24 hours gets the first answer (the same
/// match and tokens) and creates nothing.
#[utoipa::path(
    tag = "matches",
    params(IdempotencyKey<NewMatch>, InHousehold),
    request_body(content = AnyCreateMatch, example = json!(request_examples::create_match())),
    responses(
        // Its links are in `links::CreatedLinks`.
        (status = 201, body = AnyCreatedMatch, headers(("Location" = String))),
        CreateProblems,
    )
)]
#[post("/matches")]
pub async fn create_match(
    store: web::Data<Store>,
    request: HttpRequest,
    body: Body<CreateMatch>,
) -> Result<HttpResponse, Problem> {
    let space = space(&store, &request, Need::Write).await?;
    let key = idempotency_key(&request)?;
    let created = matches::create(&store, body.into_inner(), key, space).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/v1/matches/{}", created.detail.id)))
        .json(created))
}

/// Matches, newest first, filtered by game, player and status, with keyset pagination.
#[utoipa::path(
    tag = "matches",
    params(ListQuery, InHousehold),
    responses(
        (status = 200, body = MatchPage),
        QueryProblems,
    )
)]
#[get("/matches")]
pub async fn list_matches(
    store: web::Data<Store>,
    query: web::Query<ListQuery>,
    request: HttpRequest,
) -> Result<web::Json<MatchPage>, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    Ok(web::Json(
        matches::list(&store, space, query.into_inner()).await?,
    ))
}

/// A match as the token's holder may see it: a seat sees its own hand, the owner sees all,
/// no token gives the spectator view.
///
/// The token is optional here (`Authorization: Bearer <token>`), so the operation declares no
/// security requirement: generated clients then accept a client with or without a token.
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), IfNoneMatch, InHousehold),
    responses(
        (status = 200, body = AnyMatchDetail),
        NotModified,
        ReadProblems,
    )
)]
#[get("/matches/{id}")]
pub async fn get_match(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<HttpResponse, Problem> {
    let token = bearer(&request)?;
    let detail = matches::read(
        &store,
        path.into_inner(),
        who(&store, &request, &token).await?,
    )
    .await?;
    Ok(answer(&request, &detail))
}

/// Submit a move as a seat. `expected_version` guards against stale views (409); an
/// `Idempotency-Key` makes retries safe: a retry gets the first answer and stores nothing twice.
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), Guarded<MoveAttempt>),
    request_body(content = SubmitMove, example = json!(request_examples::submit_move())),
    security(("token" = [])),
    responses(
        (status = 200, body = AnyMoveReply),
        WriteProblems,
    )
)]
#[post("/matches/{id}/moves")]
pub async fn submit_move(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
    body: Body<SubmitMove>,
) -> Result<web::Json<MoveReply>, Problem> {
    match_write(&store, path.into_inner(), &request, body, matches::submit).await
}

/// Report a chance outcome (the deal, a drawn card) in a `table`-randomness match.
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), Guarded<ChanceReport>),
    request_body(content = SubmitChance, example = json!(request_examples::submit_chance())),
    security(("token" = [])),
    responses(
        (status = 200, body = AnyMoveReply),
        WriteProblems,
    )
)]
#[post("/matches/{id}/chance")]
pub async fn submit_chance(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
    body: Body<SubmitChance>,
) -> Result<web::Json<MoveReply>, Problem> {
    match_write(&store, path.into_inner(), &request, body, matches::submit).await
}

/// Enter a seat's own hand for the deal a `table`-randomness match waits for (docs/contract.md,
/// "Hands entered at the table"), with that seat's token (or the owner's); entering again
/// replaces it. A deal then reported without `hands` takes every seat's entered hand. Nobody
/// sees another seat's entered cards. `409 no_deal_pending` when the match waits for no deal of
/// hands (Lucky Jack, Luck Plus and Plus & Minus deal them).
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), ("seat" = Seat, Path, minimum = 0), InHousehold),
    request_body(content = EnterHand),
    security(("token" = [])),
    responses(
        (status = 200, body = EnteredHands),
        WriteProblems,
    )
)]
#[put("/matches/{id}/hands/{seat}")]
pub async fn enter_hand(
    store: web::Data<Store>,
    path: web::Path<(Uuid, Seat)>,
    request: HttpRequest,
    body: Body<EnterHand>,
) -> Result<web::Json<EnteredHands>, Problem> {
    let (id, seat) = path.into_inner();
    let token = bearer(&request)?;
    let who = who(&store, &request, &token).await?;
    Ok(web::Json(
        matches::enter_hand(&store, id, seat, who, body.into_inner()).await?,
    ))
}

/// Which seats have entered their hand for the deal the match waits for (any of its tokens; a
/// seat also gets back its own cards).
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), InHousehold),
    security(("token" = [])),
    responses(
        (status = 200, body = EnteredHands),
        ReadProblems,
    )
)]
#[get("/matches/{id}/hands")]
pub async fn entered_hands(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<web::Json<EnteredHands>, Problem> {
    let token = bearer(&request)?;
    let who = who(&store, &request, &token).await?;
    Ok(web::Json(
        matches::entered_hands(&store, path.into_inner(), who).await?,
    ))
}

/// Take back a seat's own last move (docs/contract.md, "Mending a match"): allowed while no
/// other seat has acted since, no chance event (a drawn card, a roll) has happened since, and
/// neither that move nor a later one showed the table what was hidden; each refusal names the
/// condition that failed. The take-back is a new entry of the log (`takes_back`); the move stays
/// in it. With the owner token, name the `seat`. `If-Match`/`expected_version` and
/// `Idempotency-Key` work as on moves.
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), Guarded<TakeBackAttempt>),
    request_body(content = TakeBack, example = json!(request_examples::take_back())),
    security(("token" = [])),
    responses(
        (status = 200, body = AnyMoveReply),
        WriteProblems,
    )
)]
#[post("/matches/{id}/take-backs")]
pub async fn take_back(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
    body: Body<TakeBack>,
) -> Result<web::Json<MoveReply>, Problem> {
    match_write(&store, path.into_inner(), &request, body, matches::mend).await
}

/// Correct the last chance outcome reported at a `table`-randomness match (a mistyped die or
/// card), while no move has been made since (docs/contract.md, "Mending a match"). The seat
/// that reported it or the owner may; anyone else gets 403 `not_the_reporter`. Play goes on from
/// the corrected outcome; the correction is a new entry of the log (`corrects`), and the mistyped
/// outcome stays in it. `If-Match`/`expected_version` and `Idempotency-Key` work as on reports.
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), Guarded<CorrectionAttempt>),
    request_body(content = CorrectChance, example = json!(request_examples::correct_chance())),
    security(("token" = [])),
    responses(
        (status = 200, body = AnyMoveReply),
        WriteProblems,
    )
)]
#[post("/matches/{id}/corrections")]
pub async fn correct_chance(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
    body: Body<CorrectChance>,
) -> Result<web::Json<MoveReply>, Problem> {
    match_write(&store, path.into_inner(), &request, body, matches::mend).await
}

/// The move log, a page at a time, with what the token's holder may not see left out: the plies
/// after `after` (default 0), at most `limit` (default 200, at most 1 000). `next_after` and the
/// `Link` header (`rel="next"`) give the next page; on the last page `next_after` is `null` and
/// there is no `Link`. The token is optional (`Authorization: Bearer <token>`); without one, the
/// log is a spectator's.
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), LogQuery, IfNoneMatch, InHousehold),
    responses(
        (status = 200, body = AnyMatchLog, headers(
            ("Link" = String, description = "`</v1/matches/{id}/log?after=…&limit=…>; rel=\"next\"`: the next page, absent on the last page"),
        )),
        NotModified,
        ReadProblems,
    )
)]
#[get("/matches/{id}/log")]
pub async fn get_log(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    query: web::Query<LogQuery>,
    request: HttpRequest,
) -> Result<HttpResponse, Problem> {
    let token = bearer(&request)?;
    let id = path.into_inner();
    let query = query.into_inner();
    let log: MatchLog =
        matches::log_page(&store, id, who(&store, &request, &token).await?, query).await?;
    let mut response = cached(&request, log.version, &log);
    if let Some(after) = log.next_after {
        let limit = query.limit.unwrap_or(limits::LOG_PAGE_DEFAULT);
        let link = format!("</v1/matches/{id}/log?after={after}&limit={limit}>; rel=\"next\"");
        if let Ok(value) = header::HeaderValue::from_str(&link) {
            response.headers_mut().insert(header::LINK, value);
        }
    }
    Ok(response)
}

/// The match as it stood after `ply` events (0 = before anything), rebuilt by replaying the log.
/// The token is optional (`Authorization: Bearer <token>`); without one, the view is a
/// spectator's.
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), ("ply" = i64, Path, minimum = 0), IfNoneMatch, InHousehold),
    responses(
        (status = 200, body = AnyPlyView),
        NotModified,
        ReadProblems,
    )
)]
#[get("/matches/{id}/plies/{ply}")]
pub async fn get_ply(
    store: web::Data<Store>,
    path: web::Path<(Uuid, i64)>,
    request: HttpRequest,
) -> Result<HttpResponse, Problem> {
    let (id, ply) = path.into_inner();
    let token = bearer(&request)?;
    let view: PlyView =
        matches::at_ply(&store, id, ply, who(&store, &request, &token).await?).await?;
    // An earlier ply is fixed, but who may see what in it changes when the match ends.
    Ok(cached_by_content(&request, &view))
}

/// The evening a hosted match belongs to, as a sheet's evening is: the matches played again from
/// one another (its rematches) and, in a household, every other sheet and hosted match the same
/// people played that night, with each game's players, totals and winners, and each player's
/// games and wins.
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), IfNoneMatch, InHousehold),
    responses(
        (status = 200, body = Evening),
        NotModified,
        PublicReadProblems,
    )
)]
#[get("/matches/{id}/evening")]
pub async fn match_evening(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<HttpResponse, Problem> {
    let space = space(&store, &request, Need::Read).await?;
    let evening = sheets::evening(&store, path.into_inner(), MatchKind::Hosted, space).await?;
    Ok(cached_by_content(&request, &evening))
}

/// Scores with the itemised breakdown, ranks (shared places) and winners.
#[utoipa::path(
    tag = "matches",
    params(("id" = Uuid, Path), IfNoneMatch, InHousehold),
    responses(
        (status = 200, body = AnyMatchResult),
        NotModified,
        ReadProblems,
    )
)]
#[get("/matches/{id}/result")]
pub async fn get_result(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<HttpResponse, Problem> {
    let token = bearer(&request)?;
    let result: MatchResult = matches::result(
        &store,
        path.into_inner(),
        who(&store, &request, &token).await?,
    )
    .await?;
    Ok(cached_by_content(&request, &result))
}

/// Everything needed to replay and verify the match. Public once the match is over (with the
/// seed); before that, the owner token only (without the seed), sent as
/// `Authorization: Bearer <token>`. The document is streamed as it is read, so a long match is
/// never held in memory whole.
#[utoipa::path(
    tag = "matches",
    params(InHousehold),
    responses(
        (status = 200, body = AnyMatchExport),
        Problems<(BadRequest, Unauthorized, Forbidden, NotFound, OtherClientError, Unavailable)>,
    )
)]
#[get("/matches/{id}/export")]
pub async fn export_match(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<HttpResponse, Problem> {
    let token = bearer(&request)?;
    let export = matches::export(
        &store,
        path.into_inner(),
        who(&store, &request, &token).await?,
    )
    .await?;
    let body = export.into_stream().map(|part| match part {
        Ok(bytes) => Ok(web::Bytes::from(bytes)),
        Err(problem) => {
            // The status line is sent: the reader sees an unfinished document.
            tracing::error!(code = %problem.code, detail = %problem.detail, "export stopped midway");
            Err(std::io::Error::other(problem.detail.clone()))
        }
    });
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .streaming(body))
}

/// A guarded write to match `id` (a move, a chance report, a take-back, a correction): `service`
/// called with the writer's token and `Idempotency-Key`.
async fn match_write<B: Expecting>(
    store: &Store,
    id: Uuid,
    request: &HttpRequest,
    body: Body<B>,
    service: impl AsyncFnOnce(
        &Store,
        Uuid,
        Option<String>,
        Option<String>,
        B,
    ) -> Result<MoveReply, Problem>,
) -> Result<web::Json<MoveReply>, Problem> {
    guarded(request, body, async |writer, body| {
        service(store, id, Some(writer.token), writer.idempotency_key, body).await
    })
    .await
}
