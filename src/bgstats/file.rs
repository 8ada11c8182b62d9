//! The BG Stats play file as this service writes it, and the `referee` key it adds to each
//! play: the wire types of the export, whose `referee` part the import reads back.
//!
//! BG Stats' fields carry the play; what they cannot (the game's slug, options, the instants to
//! the microsecond, each seat's brag figures and rating change, an abandon) rides in one extra
//! key per play, `referee`, which BG Stats ignores and this service's import reads back, so an
//! export of everything imported into an empty service gives the same statistics, leaderboards
//! and ratings (docs/walkthroughs/import.md).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::{GameKind, Highlights};
use crate::ratings::RatingChange;
use crate::vocabulary::{AbandonedBy, MatchKind};

/// A BG Stats import file (the app's "import data" JSON).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BgStatsFile {
    pub players: Vec<BgStatsPlayer>,
    pub locations: Vec<BgStatsNamed>,
    pub games: Vec<BgStatsGame>,
    pub plays: Vec<BgStatsPlay>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BgStatsPlayer {
    pub id: i64,
    pub name: String,
    /// Stable per player name, so repeated imports merge rather than duplicate.
    pub uuid: Uuid,
    /// An anonymous seat's player, as BG Stats marks its own anonymous player.
    pub is_anonymous: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BgStatsNamed {
    pub id: i64,
    pub name: String,
    pub uuid: Uuid,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BgStatsGame {
    pub id: i64,
    pub name: String,
    pub uuid: Uuid,
    pub cooperative: bool,
    pub highest_wins: bool,
    pub no_points: bool,
    pub uses_teams: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BgStatsPlay {
    /// The match id: importing the same match twice updates one play.
    pub uuid: Uuid,
    pub game_ref_id: i64,
    pub location_ref_id: i64,
    /// `YYYY-MM-DD HH:MM:SS`, UTC.
    #[schema(example = "2026-11-20 21:15:00")]
    pub play_date: String,
    pub duration_min: i64,
    /// An abandoned match (counted apart in statistics, with no result).
    pub ignored: bool,
    pub manual_winner: bool,
    pub rounds: i64,
    pub uses_teams: bool,
    pub player_scores: Vec<BgStatsScore>,
    /// What this service adds and BG Stats ignores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub referee: Option<RefereePlay>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BgStatsScore {
    pub player_ref_id: i64,
    /// BG Stats keeps scores as text.
    #[schema(example = "120")]
    pub score: String,
    pub winner: bool,
    pub new_player: bool,
    pub start_player: bool,
    pub rank: i64,
    pub seat_order: i64,
}

/// A play as this service stored it, beyond BG Stats' fields.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefereePlay {
    pub kind: MatchKind,
    pub game: GameKind,
    /// The game's options, keyed as that game's options schema in the catalogue: one of the
    /// games' options schemas, whose numbers are bounded as every number of a body is.
    #[schema(value_type = crate::payloads::any::AnyOptions)]
    pub options: Value,
    pub created_at: DateTime<Utc>,
    /// When it finished, or was abandoned, to the microsecond: its place in the order ratings
    /// follow.
    pub ended_at: DateTime<Utc>,
    /// One per player score, in their order.
    pub seats: Vec<RefereeSeat>,
    /// Set when the play is an abandoned match (then `ignored` is true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandoned_by: Option<AbandonedBy>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefereeSeat {
    /// The game's brag figures for this seat (e.g. `jackpots_jack`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<BTreeMap<String, i64>>)]
    pub highlights: Option<Highlights>,
    /// The seat's rating before and after this result, if it was rated. Informative: an
    /// import rates its results again. (The schema's words are [`rating_change_schema`]'s.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = rating_change_schema)]
    pub rating: Option<RatingChange>,
}

/// The largest number a body may carry, in size: 2^53 − 1. The body reader refuses any number
/// beyond it (`400 malformed_body`, docs/contract.md), so the file's schema says so wherever it
/// has a number the derived schema leaves unbounded: a rating's figures. (Integers are bounded
/// by the document's own pass, `http::spec`.)
const BODY_NUMBER_MAX: i64 = (1 << 53) - 1;

/// A number of the file: a double within the body reader's bounds.
fn bounded_number() -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
    ObjectBuilder::new()
        .schema_type(Type::Number)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Double)))
        .minimum(Some(-BODY_NUMBER_MAX))
        .maximum(Some(BODY_NUMBER_MAX))
        .build()
}

/// [`RatingChange`] as a file carries it (or `null`): `before` and `after`, each a
/// [`crate::ratings::SkillRating`]'s `mu`, `sigma` and `rating`, bounded as every number of a
/// body is. A test keeps its fields those of the types it describes
/// (`tests/api/openapi.rs`).
fn rating_change_schema() -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    let rating = ["mu", "sigma", "rating"]
        .into_iter()
        .fold(
            ObjectBuilder::new().schema_type(Type::Object),
            |rating, figure| rating.property(figure, bounded_number()).required(figure),
        )
        .build();
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Object, Type::Null]))
        .description(Some(
            "The seat's rating before and after this result, if it was rated (each figure a \
             double of at most 2^53 - 1 in size). Informative: an import rates its results again.",
        ))
        .property("before", rating.clone())
        .required("before")
        .property("after", rating)
        .required("after")
        .build()
}
