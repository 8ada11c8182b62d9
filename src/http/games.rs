//! The catalogue and the stateless referee: every answer is computed from the request alone.

use actix_web::{get, post, web};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{PartialSchema, ToSchema};

use super::body::{Body, RawBody};
use crate::games::{Game, GameKind, Seat, Viewer};
use crate::problem::{Problem, ProblemDocument};
use crate::referee::{self, Refusal, ScoreReply, StateReply, TallyReply};
use crate::seed::Seed;
use crate::with_game;

/// A game the service referees.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameEntry {
    pub slug: GameKind,
    pub title: String,
    pub min_players: usize,
    pub max_players: usize,
    /// Changes whenever a rules fix could change how a match replays.
    pub rules_version: String,
    /// Every option with its default value.
    #[schema(value_type = crate::games::any::AnyOptions)]
    pub default_options: Value,
    /// JSON Schema of the options: types, allowed values and what each one does.
    #[schema(value_type = Object)]
    pub options_schema: Value,
}

/// A schema with every `$ref` replaced by the component it names, so it stands alone.
fn inline_refs(schema: Value, components: &serde_json::Map<String, Value>) -> Value {
    match schema {
        Value::Object(map) => {
            let target = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.rsplit('/').next())
                .and_then(|name| components.get(if name == "usize" { "Seat" } else { name }));
            match target {
                Some(component) => inline_refs(component.clone(), components),
                None => Value::Object(
                    map.into_iter()
                        .map(|(k, v)| (k, inline_refs(v, components)))
                        .collect(),
                ),
            }
        }
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|v| inline_refs(v, components))
                .collect(),
        ),
        other => other,
    }
}

fn entry(kind: GameKind) -> GameEntry {
    static COMPONENTS: std::sync::OnceLock<serde_json::Map<String, Value>> =
        std::sync::OnceLock::new();
    let components = COMPONENTS.get_or_init(|| {
        super::openapi()
            .pointer("/components/schemas")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    });
    with_game!(kind, G => GameEntry {
        slug: kind,
        title: kind.title().to_owned(),
        min_players: G::MIN_PLAYERS,
        max_players: G::MAX_PLAYERS,
        rules_version: G::RULES_VERSION.to_owned(),
        default_options: referee::to_json(&<G as Game>::Options::default()),
        options_schema: inline_refs(
            referee::to_json(&<<G as Game>::Options as PartialSchema>::schema()),
            components,
        ),
    })
}

pub(super) fn game(slug: &str) -> Result<GameKind, Problem> {
    GameKind::from_slug(slug).ok_or_else(|| {
        let known: Vec<&str> = GameKind::ALL.iter().map(|k| k.slug()).collect();
        Problem::not_found(
            "unknown_game",
            format!(
                "no game is called {slug:?}; known games: {}",
                known.join(", ")
            ),
        )
    })
}

/// List the games with their player counts, options and rules versions.
#[utoipa::path(
    tag = "games",
    responses(
        (status = 200, body = Vec<GameEntry>),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[get("/games")]
pub async fn list_games() -> web::Json<Vec<GameEntry>> {
    web::Json(GameKind::ALL.iter().map(|&k| entry(k)).collect())
}

/// One game of the catalogue.
#[utoipa::path(
    tag = "games",
    params(("game" = GameKind, Path, description = "The game's slug")),
    responses(
        (status = 200, body = GameEntry),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game}")]
pub async fn get_game(path: web::Path<String>) -> Result<web::Json<GameEntry>, Problem> {
    Ok(web::Json(entry(game(&path)?)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"players": 3, "options": {"rounds": 3}, "seed": "0000000000000000000000000000000000000000000000000000000000000001"}))]
pub struct SetupRequest {
    #[schema(minimum = 1, maximum = 16)]
    pub players: usize,
    /// Omitted fields take their defaults.
    #[schema(value_type = Option<crate::games::any::AnyOptions>)]
    pub options: Option<Value>,
    /// 64 hex digits. With a seed the deal is made from it; without one the state waits for the
    /// deal to be reported to `/chance`, as at a physical table.
    #[schema(pattern = "^[0-9a-fA-F]{64}$")]
    pub seed: Option<String>,
}

/// Set up a new state from options (and a seed, or a deal reported later).
#[utoipa::path(
    tag = "stateless",
    params(("game" = GameKind, Path)),
    request_body = SetupRequest,
    responses(
        (status = 200, body = StateReply),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/states")]
pub async fn setup_state(
    path: web::Path<String>,
    body: Body<SetupRequest>,
) -> Result<web::Json<StateReply>, Problem> {
    let kind = game(&path)?;
    let body = body.into_inner();
    let seed = body
        .seed
        .as_deref()
        .map(|s| {
            Seed::from_hex(s)
                .ok_or_else(|| Problem::bad_request("invalid_seed", "a seed is 64 hex digits"))
        })
        .transpose()?;
    Ok(web::Json(referee::any_setup(
        kind,
        body.players,
        body.options,
        seed.as_ref(),
    )?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": {}, "seat": 1, "move": {"type": "discard", "card": "bell"}}))]
pub struct CheckRequest {
    /// A full state, as returned by the other stateless endpoints.
    #[schema(value_type = crate::games::any::AnyState)]
    pub state: Value,
    pub seat: Seat,
    /// The game's move, e.g. `{"type": "discard", "card": "bell"}`.
    #[serde(rename = "move")]
    #[schema(value_type = crate::games::any::AnyMove)]
    pub mv: Value,
}

/// Whether a move is legal, why not if it is not, and what it leads to.
#[derive(Debug, Serialize, ToSchema)]
pub struct CheckReply {
    pub legal: bool,
    /// Why the move is refused (absent when it is legal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<Refusal>,
    /// The next state and events (absent when the move is refused).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<StateReply>,
}

/// Check a move against a supplied state: legal or the precise refusal, plus the next state.
///
/// A refused move is still a successful check (200, `legal: false`). A state that play could not
/// have produced is a 422 `inconsistent_state`.
#[utoipa::path(
    tag = "stateless",
    params(("game" = GameKind, Path)),
    request_body = CheckRequest,
    responses(
        (status = 200, body = CheckReply),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/check")]
pub async fn check_move(
    path: web::Path<String>,
    body: Body<CheckRequest>,
) -> Result<web::Json<CheckReply>, Problem> {
    let kind = game(&path)?;
    let body = body.into_inner();
    check_reply(
        kind,
        referee::any_move(kind, body.state, body.seat, body.mv),
    )
}

/// A check request parsed straight into one game's state (the move stays a `Value`: it is small,
/// and [`referee::parse`] has a rule for it that a typed parse would skip). The state types refuse
/// unknown fields, so a parse that succeeds here succeeds the general way too, to the same state.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
struct GameCheckRequest<G: Game> {
    state: G::State,
    seat: Seat,
    #[serde(rename = "move")]
    mv: Value,
}

/// The check endpoint of one game, at its literal path (`/v1/games/lucky-jack/check`): the router
/// compares a string instead of matching `{game}`, and the body is parsed once, into the game's
/// state. A body that does not parse so goes the general way ([`check_move`]'s), which finds the
/// exact refusal and its code. Unknown games still reach [`check_move`], which answers
/// `unknown_game`; the OpenAPI document describes the two as one.
pub(super) fn check_resource(kind: GameKind) -> actix_web::Resource {
    async fn check<G: Game>(body: RawBody) -> Result<web::Json<CheckReply>, Problem> {
        let checked = match serde_json::from_str::<GameCheckRequest<G>>(body.get()) {
            Ok(request) => referee::parsed_state_move::<G>(request.state, request.seat, request.mv),
            Err(_) => {
                let request: CheckRequest = super::body::parse(body.get())?;
                referee::any_move(G::KIND, request.state, request.seat, request.mv)
            }
        };
        check_reply(G::KIND, checked)
    }
    with_game!(kind, G => web::resource(format!("/v1/games/{}/check", kind.slug()))
        .route(web::post().to(check::<G>)))
}

/// A check's answer: a refused move is a successful check; broken input is a problem.
fn check_reply(
    kind: GameKind,
    checked: Result<StateReply, referee::RefereeError>,
) -> Result<web::Json<CheckReply>, Problem> {
    let rejected = checked.as_ref().err().filter(|e| e.is_rule_refusal());
    if checked.is_ok() || rejected.is_some() {
        crate::metrics::METRICS.record_move(kind.slug(), rejected.map(|e| e.code()));
    }
    let reply = match checked {
        Ok(next) => CheckReply {
            legal: true,
            refusal: None,
            next: Some(next),
        },
        Err(error) if error.is_rule_refusal() => CheckReply {
            legal: false,
            refusal: Some(Refusal::from(&error)),
            next: None,
        },
        Err(error) => return Err(error.into()),
    };
    Ok(web::Json(reply))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": {}, "outcome": {"kind": "draw", "cards": ["bell", "lemon"]}}))]
pub struct ChanceRequest {
    #[schema(value_type = crate::games::any::AnyState)]
    pub state: Value,
    /// What happened at the table: the game's `Chance` (a deal, drawn cards, dice faces).
    #[schema(value_type = crate::games::any::AnyChance)]
    pub outcome: Value,
}

/// Apply a chance outcome reported from a physical table, after checking it was possible.
#[utoipa::path(
    tag = "stateless",
    params(("game" = GameKind, Path)),
    request_body = ChanceRequest,
    responses(
        (status = 200, body = StateReply),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/chance")]
pub async fn report_chance(
    path: web::Path<String>,
    body: Body<ChanceRequest>,
) -> Result<web::Json<StateReply>, Problem> {
    let kind = game(&path)?;
    let body = body.into_inner();
    Ok(web::Json(referee::any_chance(
        kind,
        body.state,
        body.outcome,
    )?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatStateRequest {
    #[schema(value_type = crate::games::any::AnyState)]
    pub state: Value,
    pub seat: Seat,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LegalMovesReply {
    pub seat: Seat,
    /// Every move the seat may make now (empty when it may not act).
    #[schema(value_type = Vec<crate::games::any::AnyMove>)]
    pub moves: Vec<Value>,
}

/// Every legal move of a seat in a supplied state.
#[utoipa::path(
    tag = "stateless",
    params(("game" = GameKind, Path)),
    request_body = SeatStateRequest,
    responses(
        (status = 200, body = LegalMovesReply),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/legal-moves")]
pub async fn legal_moves(
    path: web::Path<String>,
    body: Body<SeatStateRequest>,
) -> Result<web::Json<LegalMovesReply>, Problem> {
    let kind = game(&path)?;
    let body = body.into_inner();
    let moves = referee::any_legal_moves(kind, body.state, body.seat)?;
    Ok(web::Json(LegalMovesReply {
        seat: body.seat,
        moves,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StateRequest {
    #[schema(value_type = crate::games::any::AnyState)]
    pub state: Value,
}

/// Score a supplied state: the itemised breakdown, totals, ranks and winners.
#[utoipa::path(
    tag = "stateless",
    params(("game" = GameKind, Path)),
    request_body = StateRequest,
    responses(
        (status = 200, body = ScoreReply),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/score")]
pub async fn score_state(
    path: web::Path<String>,
    body: Body<StateRequest>,
) -> Result<web::Json<ScoreReply>, Problem> {
    let kind = game(&path)?;
    Ok(web::Json(referee::any_score(
        kind,
        body.into_inner().state,
    )?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": {}, "viewer": {"seat": 0}}))]
pub struct ViewRequest {
    #[schema(value_type = crate::games::any::AnyState)]
    pub state: Value,
    /// `{"seat": n}`, `"spectator"` or `"full"`.
    pub viewer: Viewer,
}

/// What one viewer may see of a supplied state: hidden cards of others are left out.
#[utoipa::path(
    tag = "stateless",
    params(("game" = GameKind, Path)),
    request_body = ViewRequest,
    responses(
        (status = 200, body = crate::games::any::AnyView),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/view")]
pub async fn view_state(
    path: web::Path<String>,
    body: Body<ViewRequest>,
) -> Result<web::Json<Value>, Problem> {
    let kind = game(&path)?;
    let body = body.into_inner();
    Ok(web::Json(referee::any_view(kind, body.state, body.viewer)?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "players": 3,
    "options": {"rounds": 3},
    "rounds": [
        {"jackpot": {"seat": 0, "symbol": "bell", "size": 3}},
        {"jackpot": null},
        {"jackpot": {"seat": 2, "symbol": "jack", "size": 4}}
    ]
}))]
pub struct TallyRequest {
    #[schema(minimum = 1, maximum = 16)]
    pub players: usize,
    #[schema(value_type = Option<crate::games::any::AnyOptions>)]
    pub options: Option<Value>,
    /// The rounds (or hands) played so far, in order, as the table describes them.
    #[schema(value_type = Vec<crate::games::any::AnyTally>)]
    pub rounds: Vec<Value>,
}

/// Score a physical game from what the table counts: each round described in the game's terms
/// (a Lucky Jack jackpot, ...), checked against the rules and scored with the engine's code.
#[utoipa::path(
    tag = "stateless",
    params(("game" = GameKind, Path)),
    request_body = TallyRequest,
    responses(
        (status = 200, body = TallyReply),
        (status = "4XX", body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game}/tally")]
pub async fn tally(
    path: web::Path<String>,
    body: Body<TallyRequest>,
) -> Result<web::Json<TallyReply>, Problem> {
    let kind = game(&path)?;
    let body = body.into_inner();
    Ok(web::Json(referee::any_tally(
        kind,
        body.players,
        body.options,
        body.rounds,
    )?))
}
