//! The stateless referee, typed per game: every answer is computed from the request alone.
//!
//! Each game has its own seven operations at literal paths (`/v1/games/lucky-jack/check`...),
//! generated from the registry by [`crate::__stateless_operations`]: their requests and replies
//! are the generic types below instantiated for the game (`CheckRequest<LuckyJack>`, which the
//! document calls `LuckyJackCheckRequest`), so the OpenAPI document describes what the handlers
//! parse and answer. A body is parsed once, straight into the game's types; only a body that does
//! not parse so is read again as JSON ([`Json`]), part by part, to find the exact refusal code.

use actix_web::web;
use serde::de::{DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::body::RawBody;
use crate::games::{Seat, Viewer};
use crate::payloads::{Json, Payloads};
use crate::problem::{Code, Problem};
use crate::referee::{self, Engine, Refusal, ScoreReply, StateReply, TallyReply, Untrusted};
use crate::seed::Seed;

/// Reads a move, chance outcome or tally entry with [`referee::parse`]'s rule for a unit variant
/// sent with extra fields (serde alone would drop them and accept it).
fn strictly<'de, D: Deserializer<'de>, T: DeserializeOwned + Serialize>(
    deserializer: D,
) -> Result<T, D::Error> {
    referee::parse(referee::What::Part, Value::deserialize(deserializer)?)
        .map_err(serde::de::Error::custom)
}

/// [`strictly`] for every item of a list.
fn each_strictly<'de, D: Deserializer<'de>, T: DeserializeOwned + Serialize>(
    deserializer: D,
) -> Result<Vec<T>, D::Error> {
    Vec::<Value>::deserialize(deserializer)?
        .into_iter()
        .map(|value| referee::parse(referee::What::Part, value).map_err(serde::de::Error::custom))
        .collect()
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, bound = "")]
#[schema(bound = "P: Payloads")]
pub struct SetupRequest<P: Payloads = Json> {
    pub players: usize,
    /// Omitted fields take their defaults.
    pub options: Option<P::Options>,
    /// 64 hex digits. With a seed the deal is made from it; without one the state waits for the
    /// deal to be reported to `/chance`, as at a physical table.
    #[schema(pattern = "^[0-9a-fA-F]{64}$")]
    pub seed: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, bound = "")]
#[schema(bound = "P: Payloads")]
pub struct CheckRequest<P: Payloads = Json> {
    /// A full state, as returned by the other stateless endpoints.
    pub state: P::State,
    pub seat: Seat,
    #[serde(rename = "move", deserialize_with = "strictly")]
    pub mv: P::Move,
}

/// Whether a move is legal, why not if it is not, and what it leads to.
#[derive(Serialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct CheckReply<P: Payloads = Json> {
    pub legal: bool,
    /// Why the move is refused (absent when it is legal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<Refusal>,
    /// The next state and events (absent when the move is refused).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<StateReply<P>>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, bound = "")]
#[schema(bound = "P: Payloads")]
pub struct ChanceRequest<P: Payloads = Json> {
    pub state: P::State,
    /// What happened at the table: a deal, drawn cards, dice faces.
    #[serde(deserialize_with = "strictly")]
    pub outcome: P::Chance,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, bound = "")]
#[schema(bound = "P: Payloads")]
pub struct SeatStateRequest<P: Payloads = Json> {
    pub state: P::State,
    pub seat: Seat,
}

#[derive(Serialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct LegalMovesReply<P: Payloads = Json> {
    pub seat: Seat,
    /// Every move the seat may make now (empty when it may not act).
    pub moves: Vec<P::Move>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, bound = "")]
#[schema(bound = "P: Payloads")]
pub struct StateRequest<P: Payloads = Json> {
    pub state: P::State,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, bound = "")]
#[schema(bound = "P: Payloads")]
pub struct ViewRequest<P: Payloads = Json> {
    pub state: P::State,
    /// `{"seat": n}`, `"spectator"` or `"full"`.
    pub viewer: Viewer,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, bound = "")]
#[schema(bound = "P: Payloads")]
pub struct TallyRequest<P: Payloads = Json> {
    pub players: usize,
    pub options: Option<P::Options>,
    /// The rounds (or hands) played so far, in order, as the table describes them.
    #[serde(deserialize_with = "each_strictly")]
    pub rounds: Vec<P::Tally>,
}

/// One stateless operation: its request, whichever way its parts are held, and its reply for a
/// game.
pub trait Operation {
    type Request<P: Payloads>: DeserializeOwned;
    type Reply<G: Engine>: Serialize;
    fn run<G: Engine, P: Untrusted<G>>(
        request: Self::Request<P>,
    ) -> Result<Self::Reply<G>, Problem>;
}

/// Answers operation `O` for game `G`: the body parsed once into `G`'s types, or, when it does not
/// parse so, read as JSON and parsed part by part for the exact refusal.
pub async fn serve<O: Operation, G: Engine>(
    body: RawBody,
) -> Result<web::Json<O::Reply<G>>, Problem> {
    let reply = match serde_json::from_str::<O::Request<G>>(body.get()) {
        Ok(request) => O::run::<G, G>(request),
        Err(_) => O::run::<G, Json>(super::body::parse(body.get())?),
    };
    reply.map(web::Json)
}

pub struct Setup;
impl Operation for Setup {
    type Request<P: Payloads> = SetupRequest<P>;
    type Reply<G: Engine> = StateReply<G>;
    fn run<G: Engine, P: Untrusted<G>>(request: SetupRequest<P>) -> Result<StateReply<G>, Problem> {
        let seed = request
            .seed
            .as_deref()
            .map(|s| {
                Seed::from_hex(s)
                    .ok_or_else(|| Problem::new(Code::InvalidSeed, "a seed is 64 hex digits"))
            })
            .transpose()?;
        Ok(referee::setup::<G, P>(
            request.players,
            request.options,
            seed.as_ref(),
        )?)
    }
}

pub struct Check;
impl Operation for Check {
    type Request<P: Payloads> = CheckRequest<P>;
    type Reply<G: Engine> = CheckReply<G>;
    fn run<G: Engine, P: Untrusted<G>>(request: CheckRequest<P>) -> Result<CheckReply<G>, Problem> {
        let checked = referee::check::<G, P>(request.state, request.seat, request.mv);
        // A refused move is a successful check; broken input is a problem.
        let rejected = checked.as_ref().err().filter(|e| e.is_rule_refusal());
        if checked.is_ok() || rejected.is_some() {
            crate::metrics::METRICS.record_move(G::KIND.slug(), rejected.map(|e| e.code()));
        }
        match checked {
            Ok(next) => Ok(CheckReply {
                legal: true,
                refusal: None,
                next: Some(next),
            }),
            Err(error) if error.is_rule_refusal() => Ok(CheckReply {
                legal: false,
                refusal: Some(Refusal::from(&error)),
                next: None,
            }),
            Err(error) => Err(error.into()),
        }
    }
}

pub struct ReportChance;
impl Operation for ReportChance {
    type Request<P: Payloads> = ChanceRequest<P>;
    type Reply<G: Engine> = StateReply<G>;
    fn run<G: Engine, P: Untrusted<G>>(
        request: ChanceRequest<P>,
    ) -> Result<StateReply<G>, Problem> {
        Ok(referee::chance::<G, P>(request.state, request.outcome)?)
    }
}

pub struct LegalMoves;
impl Operation for LegalMoves {
    type Request<P: Payloads> = SeatStateRequest<P>;
    type Reply<G: Engine> = LegalMovesReply<G>;
    fn run<G: Engine, P: Untrusted<G>>(
        request: SeatStateRequest<P>,
    ) -> Result<LegalMovesReply<G>, Problem> {
        let moves = referee::legal_moves::<G, P>(request.state, request.seat)?;
        Ok(LegalMovesReply {
            seat: request.seat,
            moves,
        })
    }
}

pub struct Score;
impl Operation for Score {
    type Request<P: Payloads> = StateRequest<P>;
    type Reply<G: Engine> = ScoreReply<G>;
    fn run<G: Engine, P: Untrusted<G>>(request: StateRequest<P>) -> Result<ScoreReply<G>, Problem> {
        Ok(referee::score::<G, P>(request.state)?)
    }
}

pub struct View;
impl Operation for View {
    type Request<P: Payloads> = ViewRequest<P>;
    type Reply<G: Engine> = G::View;
    fn run<G: Engine, P: Untrusted<G>>(request: ViewRequest<P>) -> Result<G::View, Problem> {
        Ok(referee::view::<G, P>(request.state, request.viewer)?)
    }
}

pub struct Tally;
impl Operation for Tally {
    type Request<P: Payloads> = TallyRequest<P>;
    type Reply<G: Engine> = TallyReply<G>;
    fn run<G: Engine, P: Untrusted<G>>(request: TallyRequest<P>) -> Result<TallyReply<G>, Problem> {
        Ok(referee::tally_reply::<G, P>(
            request.players,
            request.options,
            request.rounds,
        )?)
    }
}

/// Example requests from real play: a table of a usual size with the default options, dealt from a
/// fixed seed, and the first legal move of the seat to act. Each is checked by the `examples` API
/// test; one that the engine could not produce is `null` there, and fails it.
pub mod examples {
    use serde_json::{json, Value};

    use crate::games::{Game, Seat};
    use crate::referee::{self, to_json, Engine};
    use crate::seed::Seed;

    /// The seed the examples deal from: `00…01`.
    fn seed() -> Seed {
        let mut bytes = [0; 32];
        bytes[31] = 1;
        Seed::from_bytes(bytes)
    }

    fn players<G: Game>() -> usize {
        3.clamp(G::MIN_PLAYERS, G::MAX_PLAYERS)
    }

    /// The dealt state and the first seat that may act in it.
    fn dealt<G: Engine>() -> Option<(G::State, Seat)> {
        let reply = referee::setup::<G, G>(players::<G>(), None, Some(&seed())).ok()?;
        let seat = reply.to_act.first().copied().unwrap_or(0);
        Some((reply.state, seat))
    }

    pub fn setup<G: Engine>() -> Value {
        json!({
            "players": players::<G>(),
            "options": to_json(&G::Options::default()),
            "seed": seed().to_hex(),
        })
    }

    pub fn check<G: Engine>() -> Value {
        dealt::<G>()
            .and_then(|(state, seat)| {
                let mv = G::legal_moves(&state, seat).into_iter().next()?;
                Some(json!({"state": to_json(&state), "seat": seat, "move": to_json(&mv)}))
            })
            .unwrap_or_default()
    }

    /// A table waiting for its first chance outcome (the deal, most often), and the outcome the
    /// fixed seed gives it.
    pub fn chance<G: Engine>() -> Value {
        let Ok(options) = G::validate_options(&G::Options::default(), players::<G>()) else {
            return Value::Null;
        };
        let mut state = crate::games::Consistent::<G>::new(options);
        // Games that start with moves reach their first chance after a few.
        for _ in 0..100 {
            if G::chance_pending(&state) {
                let outcome = G::sample_chance(&state, &mut seed().stream(1));
                return json!({"state": to_json(&state), "outcome": to_json(&outcome)});
            }
            let Some(seat) = G::to_act(&state).first().copied() else {
                break;
            };
            let Some(mv) = G::legal_moves(&state, seat).into_iter().next() else {
                break;
            };
            if referee::play_move::<G>(&mut state, seat, &mv).is_err() {
                break;
            }
        }
        Value::Null
    }

    pub fn legal_moves<G: Engine>() -> Value {
        dealt::<G>()
            .map(|(state, seat)| json!({"state": to_json(&state), "seat": seat}))
            .unwrap_or_default()
    }

    pub fn score<G: Engine>() -> Value {
        dealt::<G>()
            .map(|(state, _)| json!({"state": to_json(&state)}))
            .unwrap_or_default()
    }

    pub fn view<G: Engine>() -> Value {
        dealt::<G>()
            .map(|(state, seat)| json!({"state": to_json(&state), "viewer": {"seat": seat}}))
            .unwrap_or_default()
    }

    /// The round the game's tally type documents as its example, at the first table size the
    /// rules accept it for.
    pub fn tally<G: Engine>() -> Value {
        let documented = to_json(&<G::Tally as utoipa::PartialSchema>::schema());
        let Some(round) = documented
            .get("example")
            .or_else(|| documented.pointer("/examples/0"))
            .and_then(|example| {
                referee::parse::<G::Tally>(referee::What::Tally, example.clone()).ok()
            })
        else {
            return Value::Null;
        };
        let options = G::Options::default();
        (G::MIN_PLAYERS..=G::MAX_PLAYERS)
            .find(|&players| {
                referee::tally::<G>(&options, players, std::slice::from_ref(&round)).is_ok()
            })
            .map(|players| {
                json!({
                    "players": players,
                    "options": to_json(&options),
                    "rounds": [to_json(&round)],
                })
            })
            .unwrap_or_default()
    }
}

/// Each game's stateless operations, from the registry: a module per game with its seven handlers
/// at literal paths, the OpenAPI paths that describe them, and the routes that serve them.
#[doc(hidden)]
#[macro_export]
// The operations' summaries are one doc line each: utoipa keeps a wrapped line's break in them.
macro_rules! __stateless_operations {
    (() $($module:ident::$engine:ident: $variant:ident, $slug:tt, $title:tt;)*) => {
        $(
            pub mod $module {
                use actix_web::web;

                use super::examples;
                use super::{
                    serve, ChanceRequest, Check, CheckReply, CheckRequest, LegalMoves,
                    LegalMovesReply, ReportChance, Score, SeatStateRequest, Setup, SetupRequest,
                    StateRequest, Tally, TallyRequest, View, ViewRequest,
                };
                use $crate::games::Game;
                use $crate::http::body::RawBody;
                use $crate::http::responses::StatelessProblems;
                use $crate::problem::Problem;
                use $crate::referee::{ScoreReply, StateReply, TallyReply};

                type G = $crate::games::$module::$engine;
                type GameView = <G as Game>::View;

                // Each operation's path, written once: for the document and for the route.
                pub const SETUP_STATE: &str = concat!("/v1/games/", $slug, "/states");
                pub const CHECK_MOVE: &str = concat!("/v1/games/", $slug, "/check");
                pub const REPORT_CHANCE: &str = concat!("/v1/games/", $slug, "/chance");
                pub const LEGAL_MOVES: &str = concat!("/v1/games/", $slug, "/legal-moves");
                pub const SCORE_STATE: &str = concat!("/v1/games/", $slug, "/score");
                pub const VIEW_STATE: &str = concat!("/v1/games/", $slug, "/view");
                pub const TALLY: &str = concat!("/v1/games/", $slug, "/tally");
                pub const PATHS: [&str; 7] = [
                    SETUP_STATE, CHECK_MOVE, REPORT_CHANCE, LEGAL_MOVES, SCORE_STATE, VIEW_STATE, TALLY,
                ];

                /// Set up a new state from options (and a seed, or a deal reported later).
                #[utoipa::path(
                    post,
                    path = SETUP_STATE,
                    operation_id = concat!(stringify!($module), "_setup_state"),
                    tag = $title,
                    request_body(content = SetupRequest<G>, example = examples::setup::<G>),
                    responses(
                        (status = 200, body = StateReply<G>),
                        StatelessProblems,
                    )
                )]
                pub async fn setup_state(body: RawBody) -> Result<web::Json<StateReply<G>>, Problem> {
                    serve::<Setup, G>(body).await
                }

                /// Check a move against a supplied state: legal or the precise refusal, plus the next state.
                ///
                /// A refused move is still a successful check (200, `legal: false`). A state that play could not
                /// have produced is a 422 `inconsistent_state`.
                #[utoipa::path(
                    post,
                    path = CHECK_MOVE,
                    operation_id = concat!(stringify!($module), "_check_move"),
                    tag = $title,
                    request_body(content = CheckRequest<G>, example = examples::check::<G>),
                    responses(
                        (status = 200, body = CheckReply<G>),
                        StatelessProblems,
                    )
                )]
                pub async fn check_move(body: RawBody) -> Result<web::Json<CheckReply<G>>, Problem> {
                    serve::<Check, G>(body).await
                }

                /// Apply a chance outcome reported from a physical table, after checking it was possible.
                #[utoipa::path(
                    post,
                    path = REPORT_CHANCE,
                    operation_id = concat!(stringify!($module), "_report_chance"),
                    tag = $title,
                    request_body(content = ChanceRequest<G>, example = examples::chance::<G>),
                    responses(
                        (status = 200, body = StateReply<G>),
                        StatelessProblems,
                    )
                )]
                pub async fn report_chance(body: RawBody) -> Result<web::Json<StateReply<G>>, Problem> {
                    serve::<ReportChance, G>(body).await
                }

                /// Every legal move of a seat in a supplied state.
                #[utoipa::path(
                    post,
                    path = LEGAL_MOVES,
                    operation_id = concat!(stringify!($module), "_legal_moves"),
                    tag = $title,
                    request_body(content = SeatStateRequest<G>, example = examples::legal_moves::<G>),
                    responses(
                        (status = 200, body = LegalMovesReply<G>),
                        StatelessProblems,
                    )
                )]
                pub async fn legal_moves(body: RawBody) -> Result<web::Json<LegalMovesReply<G>>, Problem> {
                    serve::<LegalMoves, G>(body).await
                }

                /// Score a supplied state: the itemised breakdown, totals, ranks and winners.
                #[utoipa::path(
                    post,
                    path = SCORE_STATE,
                    operation_id = concat!(stringify!($module), "_score_state"),
                    tag = $title,
                    request_body(content = StateRequest<G>, example = examples::score::<G>),
                    responses(
                        (status = 200, body = ScoreReply<G>),
                        StatelessProblems,
                    )
                )]
                pub async fn score_state(body: RawBody) -> Result<web::Json<ScoreReply<G>>, Problem> {
                    serve::<Score, G>(body).await
                }

                /// What one viewer may see of a supplied state: hidden cards of others are left out.
                #[utoipa::path(
                    post,
                    path = VIEW_STATE,
                    operation_id = concat!(stringify!($module), "_view_state"),
                    tag = $title,
                    request_body(content = ViewRequest<G>, example = examples::view::<G>),
                    responses(
                        (status = 200, body = GameView),
                        StatelessProblems,
                    )
                )]
                pub async fn view_state(body: RawBody) -> Result<web::Json<GameView>, Problem> {
                    serve::<View, G>(body).await
                }

                /// Score a physical game from what the table counts: each round described in the game's terms, checked against the rules and scored with the engine's code.
                #[utoipa::path(
                    post,
                    path = TALLY,
                    operation_id = concat!(stringify!($module), "_tally"),
                    tag = $title,
                    request_body(content = TallyRequest<G>, example = examples::tally::<G>),
                    responses(
                        (status = 200, body = TallyReply<G>),
                        StatelessProblems,
                    )
                )]
                pub async fn tally(body: RawBody) -> Result<web::Json<TallyReply<G>>, Problem> {
                    serve::<Tally, G>(body).await
                }

                #[derive(utoipa::OpenApi)]
                #[openapi(paths(
                    setup_state, check_move, report_chance, legal_moves, score_state, view_state,
                    tally
                ))]
                pub struct Paths;

                /// The game's operations, each a resource at its literal path.
                pub fn resources() -> Vec<actix_web::Resource> {
                    vec![
                        web::resource(SETUP_STATE).route(web::post().to(setup_state)),
                        web::resource(CHECK_MOVE).route(web::post().to(check_move)),
                        web::resource(REPORT_CHANCE).route(web::post().to(report_chance)),
                        web::resource(LEGAL_MOVES).route(web::post().to(legal_moves)),
                        web::resource(SCORE_STATE).route(web::post().to(score_state)),
                        web::resource(VIEW_STATE).route(web::post().to(view_state)),
                        web::resource(TALLY).route(web::post().to(tally)),
                    ]
                }
            }
        )*

        /// The stateless operations' last path segments, as a route pattern's alternatives:
        /// `states|check|…`.
        pub fn operations() -> String {
            let mut segments: Vec<&str> = Vec::new();
            for path in [$($module::PATHS),*].into_iter().flatten() {
                let segment = path.rsplit('/').next().unwrap_or(path);
                if !segments.contains(&segment) {
                    segments.push(segment);
                }
            }
            segments.join("|")
        }

        /// Every game's stateless operations, with a tag per game.
        pub fn openapi() -> utoipa::openapi::OpenApi {
            let mut document = utoipa::openapi::OpenApi::default();
            $(
                let mut paths = <$module::Paths as utoipa::OpenApi>::openapi();
                paths.tags = Some(vec![utoipa::openapi::tag::TagBuilder::new()
                    .name($title)
                    .description(Some(concat!(
                        "Referee a ", $title, " state the client holds: set up, check a move, \
                         report chance, list legal moves, score, view, tally a physical game"
                    )))
                    .build()]);
                document.merge(paths);
            )*
            document
        }

        /// Every game's stateless resources.
        pub fn resources() -> Vec<actix_web::Resource> {
            let mut resources = Vec::new();
            $(resources.extend($module::resources());)*
            resources
        }
    };
}

crate::for_each_game!(__stateless_operations!);
