//! The catalogue of games, and the answer to a stateless request for a game there is not.

use actix_web::{get, web};
use serde::Serialize;
use serde_json::Value;
use utoipa::openapi::schema::{AdditionalProperties, Object, ObjectBuilder, Type};
use utoipa::{PartialSchema, ToSchema};

use super::responses::{NotFound, OtherClientError, Problems};
use crate::games::{Game, GameKind};
use crate::payloads::{Json, Payloads};
use crate::problem::{Code, Problem};
use crate::referee;
use crate::with_game;

/// A game the service referees.
#[derive(Debug, Serialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct GameEntry<P: Payloads = Json> {
    pub slug: P::Game,
    pub title: String,
    pub min_players: usize,
    pub max_players: usize,
    /// Changes whenever a rules fix could change how a match replays.
    pub rules_version: String,
    /// Every option with its default value.
    pub default_options: P::Options,
    /// JSON Schema of the options: types, allowed values and what each one does.
    #[schema(schema_with = json_schema_document)]
    pub options_schema: Value,
    /// Whether the owner of a score sheet of this game may finish it early with the standings so
    /// far (`POST /v1/sheets/{id}/finish`); where not, the game's rules have no standings before
    /// their end (see the score-sheet walkthrough).
    pub sheet_finishes_early: bool,
}

crate::one_of_games!(
    /// A game of the catalogue, whichever it is: its `slug` says which.
    AnyGameEntry = GameEntry, by "slug"
);

/// A JSON Schema (draft 2020-12) document, standing alone: any of its keywords may appear.
fn json_schema_document() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(AdditionalProperties::FreeForm(true)))
        .description(Some(
            "A JSON Schema (draft 2020-12) with every reference inlined: feed it to a JSON Schema \
             validator or a form generator.",
        ))
        .build()
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
        sheet_finishes_early: crate::sheets::early_finish_refusal(kind).is_none(),
    })
}

pub(super) fn game(slug: &str) -> Result<GameKind, Problem> {
    GameKind::from_slug(slug).ok_or_else(|| {
        let known: Vec<&str> = GameKind::ALL.iter().map(|k| k.slug()).collect();
        Problem::new(
            Code::UnknownGame,
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
        (status = 200, body = Vec<AnyGameEntry>),
        Problems<(OtherClientError,)>,
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
        (status = 200, body = AnyGameEntry),
        Problems<(NotFound, OtherClientError)>,
    )
)]
#[get("/games/{game}")]
pub async fn get_game(path: web::Path<String>) -> Result<web::Json<GameEntry>, Problem> {
    Ok(web::Json(entry(game(&path)?)))
}

/// A stateless operation on a game the catalogue does not have (the games it has are served at
/// their literal paths, see `stateless`): `unknown_game`. Not in the OpenAPI document, which lists
/// each game's operations instead.
pub(super) async fn unknown_game(
    path: web::Path<(String, String)>,
) -> Result<web::Json<()>, Problem> {
    let (slug, operation) = path.into_inner();
    game(&slug)?;
    // A known game's operations match their literal paths first; this is a safeguard only.
    Err(Problem::new(
        Code::NotFound,
        format!("no route for /v1/games/{slug}/{operation}"),
    ))
}
