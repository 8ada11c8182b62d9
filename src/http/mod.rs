//! The HTTP API: thin handlers that parse, call the referee or the match service, and answer.
//! Every error is a [`Problem`]; every route is in the OpenAPI document, which also drives the
//! 405 answers for known paths called with the wrong method.

mod body;
mod caching;
mod exports;
mod games;
mod gate;
mod headers;
mod households;
mod limits;
mod links;
mod lobby;
mod matches;
mod ops;
pub use ops::Drain;
mod page;
mod params;
mod ratings;
mod request_log;
mod responses;
mod sheets;
mod spec;
mod stateless;
mod stats;
mod streams;
mod writes;

use std::net::TcpListener;

use actix_web::dev::{Server, ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method};
use actix_web::{middleware, web, App, HttpRequest, HttpServer, ResponseError};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::OpenApi as Spec;
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::{scope, AppExt};
use utoipa_swagger_ui::{Config, SwaggerUi};

use crate::config::Settings;
use crate::live::Hub;
use crate::matches::Feeds;
use crate::problem::{Code, Problem};
use crate::store::Store;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tabletop referee",
        description = "Move legality, itemised scoring and match history for Luck Plus, Lucky Jack, \
                       Lucky Dice, Lucky Luau and Plus & Minus. Errors are RFC 9457 problem \
                       documents with a stable `code`."
    ),
    modifiers(&BearerToken),
    tags(
        (name = "games", description = "The catalogue of games and their options"),
        (name = "matches", description = "Matches hosted and stored by the service, and the history \
                                          of all matches (hosted and score sheets)"),
        (name = "sheets", description = "Score sheets for games played with real cards and dice"),
        (name = "lobby", description = "Open seats claimed by invite code, and the owner's actions \
                                        around play: re-issued tokens, renamed seats, abandoned \
                                        matches and sheets, rematches"),
        (name = "history", description = "Statistics, leaderboards and exports over finished matches \
                                          and score sheets"),
        (name = "ratings", description = "Skill ratings per game (Weng-Lin, the OpenSkill model) \
                                          over finished matches and score sheets: ratings, their \
                                          history, leaderboards by rating, head-to-head"),
        (name = "households", description = "Groups that own their records: a household's \
                                             sheets, matches, players, statistics, boards and \
                                             ratings are read with one of its keys only"),
        (name = "operations", description = "Health and readiness"),
    )
)]
struct ApiDoc;

struct BearerToken;

impl Modify for BearerToken {
    fn modify(&self, openapi: &mut Spec) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A seat token or the owner token returned when the match was created",
                    ))
                    .build(),
            ),
        );
    }
}

fn routes(config: &mut utoipa_actix_web::service_config::ServiceConfig) {
    config.service(ops::healthz).service(ops::readyz).service(
        scope::scope("/v1")
            .service(games::list_games)
            .service(games::get_game)
            .service(matches::create_match)
            .service(matches::list_matches)
            .service(matches::get_match)
            .service(matches::submit_move)
            .service(matches::submit_chance)
            .service(matches::enter_hand)
            .service(matches::entered_hands)
            .service(matches::take_back)
            .service(matches::correct_chance)
            .service(matches::get_log)
            .service(matches::get_ply)
            .service(matches::get_result)
            .service(matches::match_evening)
            .service(matches::export_match)
            .service(streams::stream_match)
            .service(sheets::create_sheet)
            .service(sheets::get_sheet)
            .service(sheets::append_entry)
            .service(sheets::remove_last_round)
            .service(sheets::rename_sheet_player)
            .service(sheets::finish_sheet)
            .service(sheets::rematch_sheet)
            .service(sheets::reissue_sheet_owner_token)
            .service(sheets::sheet_evening)
            .service(streams::stream_sheet)
            .service(lobby::get_invite)
            .service(lobby::redeem_invite)
            .service(lobby::reissue_seat_token)
            .service(lobby::reissue_seat_invite)
            .service(lobby::rename_seat)
            .service(lobby::abandon_match)
            .service(lobby::abandon_sheet)
            .service(lobby::rematch)
            .service(stats::player_stats)
            .service(stats::leaderboard)
            .service(ratings::player_ratings)
            .service(ratings::rating_history)
            .service(ratings::rating_board)
            .service(ratings::head_to_head)
            .service(exports::player_history)
            .service(exports::match_bgstats)
            .service(exports::sheet_bgstats)
            .service(exports::export_sheet)
            .service(exports::export_everything)
            .service(exports::import_bgstats)
            .service(households::create_household)
            .service(households::get_household)
            .service(households::reissue_key)
            .service(households::bring_in),
    );
}

/// The OpenAPI document, as served at `/openapi.json` and committed in `openapi/`. It stays JSON
/// after [`spec::refine`]: utoipa's own types cannot read back every schema JSON Schema allows
/// (`{}`, "any value", for one).
// Built once at startup from derived types; a failure is a programming error caught by tests.
#[allow(clippy::expect_used)]
pub fn openapi() -> serde_json::Value {
    let mut derived = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi().merge_from(stateless::openapi()))
        .configure(routes)
        .split_for_parts()
        .1;
    // After the routes' paths are in: each works on operations or schemas they bring.
    let modifiers: [&dyn Modify; 7] = [
        &links::CreatedLinks,
        &responses::CachedReads,
        &spec::NdjsonStreams,
        &spec::AnyGameUnions,
        &spec::TaggedVariantTitles,
        &spec::DefaultsInDescriptions,
        &spec::HeadersNeverNull,
    ];
    for modifier in modifiers {
        modifier.modify(&mut derived);
    }
    spec::refine(serde_json::to_value(derived).expect("the spec serialises"))
}

/// The OpenAPI document as served: compact JSON.
struct SpecJson(actix_web::web::Bytes);

async fn served_spec(spec: web::Data<SpecJson>) -> actix_web::HttpResponse {
    actix_web::HttpResponse::Ok()
        .insert_header(header::ContentType::json())
        .body(spec.0.clone())
}

/// The document as the committed file holds it: pretty-printed, ending in a newline.
pub fn openapi_text() -> String {
    // Serialising a `Value` cannot fail.
    serde_json::to_string_pretty(&openapi()).unwrap_or_default() + "\n"
}

/// Known paths and their methods, so a wrong method is a 405 with `Allow`, not a 404.
fn method_table(spec: &serde_json::Value) -> Vec<(actix_web::dev::ResourceDef, Vec<Method>)> {
    let mut table: Vec<_> = spec["paths"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(path, item)| {
            let methods = [
                Method::GET,
                Method::POST,
                Method::PUT,
                Method::PATCH,
                Method::DELETE,
            ]
            .into_iter()
            .filter(|m| item.get(m.as_str().to_ascii_lowercase()).is_some())
            .collect();
            (actix_web::dev::ResourceDef::new(path.as_str()), methods)
        })
        .collect();
    let served = ["/openapi.json", "/docs", "/docs/{tail}*", "/metrics"];
    for path in served.into_iter().chain(page::PATHS) {
        table.push((actix_web::dev::ResourceDef::new(path), vec![Method::GET]));
    }
    table
}

async fn fallback(
    request: ServiceRequest,
    table: web::Data<Vec<(actix_web::dev::ResourceDef, Vec<Method>)>>,
) -> Result<ServiceResponse, actix_web::Error> {
    let allowed = table
        .iter()
        .find(|(def, _)| def.is_match(request.path()))
        .map(|(_, methods)| methods.clone());
    let response = match allowed {
        Some(methods) => {
            let allow = methods
                .iter()
                .map(Method::as_str)
                .collect::<Vec<_>>()
                .join(", ");
            let problem = Problem::new(
                Code::MethodNotAllowed,
                format!("{} is not allowed here; allowed: {allow}", request.method()),
            );
            let mut response = problem.error_response();
            // Method names are always header-safe; a value that were not would only lose `Allow`.
            if let Ok(value) = header::HeaderValue::from_str(&allow) {
                response.headers_mut().insert(header::ALLOW, value);
            }
            response
        }
        None => Problem::new(Code::NotFound, format!("no route for {}", request.path()))
            .error_response(),
    };
    Ok(request.into_response(response))
}

fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(|error, _| {
            use actix_web::error::JsonPayloadError as E;
            let problem = match &error {
                E::OverflowKnownLength { .. } | E::Overflow { .. } => {
                    Problem::new(Code::BodyTooLarge, error.to_string())
                }
                E::ContentType => Problem::new(
                    Code::UnsupportedMediaType,
                    "send the body as application/json",
                ),
                E::Deserialize(cause) => Problem::new(Code::MalformedBody, cause.to_string()),
                _ => Problem::new(Code::MalformedBody, error.to_string()),
            };
            problem.into()
        })
}

fn query_config() -> web::QueryConfig {
    web::QueryConfig::default()
        .error_handler(|error, _| Problem::new(Code::InvalidQuery, error.to_string()).into())
}

fn path_config() -> web::PathConfig {
    web::PathConfig::default()
        .error_handler(|error, _| Problem::new(Code::NotFound, error.to_string()).into())
}

/// The token in `Authorization: Bearer <token>`, if any. Any other Authorization is refused.
pub(crate) fn bearer(request: &HttpRequest) -> Result<Option<String>, Problem> {
    let Some(value) = request.headers().get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .and_then(|v| v.split_once(' '))
        // RFC 9110: the scheme is case-insensitive.
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| Some(t.trim().to_owned()))
        .ok_or_else(|| Problem::new(Code::InvalidToken, "use `Authorization: Bearer <token>`"))
}

/// The bearer token of a request that must carry one.
pub(crate) fn required_bearer(request: &HttpRequest) -> Result<String, Problem> {
    bearer(request)?.ok_or_else(|| {
        Problem::new(
            Code::InvalidToken,
            "send a seat token or the owner token as `Authorization: Bearer <token>`",
        )
    })
}

/// The `Idempotency-Key` header: 1 to 255 visible ASCII characters.
pub(crate) fn idempotency_key(request: &HttpRequest) -> Result<Option<String>, Problem> {
    let Some(value) = request.headers().get("Idempotency-Key") else {
        return Ok(None);
    };
    let key = value.to_str().unwrap_or_default();
    if key.is_empty() || key.len() > 255 || !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Problem::new(
            Code::InvalidIdempotencyKey,
            "Idempotency-Key is 1 to 255 visible ASCII characters",
        ));
    }
    Ok(Some(key.to_owned()))
}

/// The HTTP server on `listener`, not yet started. It handles no signals: whoever runs it stops
/// it (the start-up module).
pub(crate) fn server(
    store: Store,
    hub: Hub,
    feeds: Feeds,
    drain: Drain,
    settings: &Settings,
    listener: TcpListener,
) -> std::io::Result<Server> {
    let spec = openapi();
    let table = web::Data::new(method_table(&spec));
    // Served as the bytes it serialises to, one copy shared by the workers: the document's tree
    // (several MiB for 1 MB of JSON) is not kept, nor a copy of it per worker.
    let spec = web::Data::new(SpecJson(
        serde_json::to_vec(&spec).unwrap_or_default().into(),
    ));
    let store = web::Data::new(store);
    let limit = settings.body_limit_bytes;
    // Built once: every worker's limiter shares the same buckets.
    let rate_limit = limits::rate_limit(settings).map(web::Data::new);
    let invite_guard = web::Data::new(lobby::InviteGuard::new(settings));
    let body_timeout = body::BodyTimeout(settings.body_timeout);
    let origins = settings.cors_allowed_origins.clone();
    let prometheus = crate::metrics::METRICS.http.clone();
    let hub = web::Data::new(hub);
    let feeds = web::Data::new(feeds);
    let drain = web::Data::new(drain);
    let mut server = HttpServer::new(move || {
        let table = table.clone();
        let mut app = App::new();
        if let Some(rate_limit) = &rate_limit {
            app = app.app_data(rate_limit.clone());
        }
        let mut app = app
            // Inside CORS, so that its refusals carry CORS headers (a preflight is answered by
            // the CORS layer alone).
            .wrap(middleware::from_fn(gate::gate))
            .wrap(middleware::Condition::new(
                !origins.is_empty(),
                limits::cors(&origins),
            ))
            .wrap(prometheus.clone())
            // Invite codes are in paths: the logged target has them redacted.
            .wrap(tracing_actix_web::TracingLogger::<
                request_log::RedactedRootSpan,
            >::new())
            .app_data(store.clone())
            .app_data(hub.clone())
            .app_data(feeds.clone())
            .app_data(drain.clone())
            .app_data(invite_guard.clone())
            .app_data(json_config(limit))
            .app_data(body_timeout)
            .app_data(query_config())
            .app_data(path_config());
        // Registered before the `/v1` scope, so they are tried first: each game's stateless
        // operations at their literal paths, then the same operations of a game there is not.
        let unknown_game = web::resource(format!(
            "/v1/games/{{game}}/{{operation:{}}}",
            stateless::operations()
        ))
        .route(web::post().to(games::unknown_game));
        for resource in stateless::resources().into_iter().chain([unknown_game]) {
            let table = table.clone();
            // A wrong method gets the same 405 problem, with `Allow`, as on any other path.
            app =
                app.service(resource.default_service(move |request: ServiceRequest| {
                    fallback(request, table.clone())
                }));
        }
        app.into_utoipa_app()
            .configure(routes)
            .into_app()
            .configure(page::configure)
            .app_data(spec.clone())
            .route("/openapi.json", web::get().to(served_spec))
            .service(SwaggerUi::new("/docs/{tail}*").config(Config::new(["/openapi.json"])))
            .route(
                "/docs",
                web::get().to(|| async {
                    actix_web::HttpResponse::PermanentRedirect()
                        .insert_header((header::LOCATION, "/docs/"))
                        .finish()
                }),
            )
            .default_service(move |request: ServiceRequest| fallback(request, table.clone()))
    })
    // Bodies are bounded in time (see `body`), connections in number: a crowd of slow clients
    // waits in the listen queue instead of holding memory.
    .max_connections(settings.max_connections.max(1))
    // A client that closes its end is gone: without this, actix keeps a streaming response
    // going (and its stream's place under the caps) until a write fails, ~30 s later.
    .h1_allow_half_closed(false)
    // A streamed body (an export, a log, a live stream) is written a piece at a time: with
    // Nagle's algorithm on, a piece written while the last is unacknowledged waits for the
    // client's delayed ACK, 40 ms on Linux.
    .tcp_nodelay(true)
    .on_connect(crate::live::remember_connection)
    .listen(listener)?;
    if let Some(workers) = settings.workers {
        server = server.workers(workers.max(1));
    }
    Ok(server.disable_signals().run())
}
