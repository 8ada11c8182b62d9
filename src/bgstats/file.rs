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
    /// The game's options, keyed as that game's options schema in the catalogue.
    #[schema(schema_with = options_schema)]
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
    /// import rates its results again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingChange>,
}

/// Any game's options: an object whose keys depend on the game (`GET /v1/games/{game}`).
fn options_schema() -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(AdditionalProperties::FreeForm(true)))
        .build()
}
