//! The vocabulary hosted matches and score sheets share: both are rows of the same tables, with
//! the same status, kind and randomness, the same player-name rules, the same version checks and
//! the same pinning of a stored record to the rules version it was played under.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::games::{Game, GameKind, Seat};
use crate::problem::Problem;
use crate::referee;
use crate::store::matches::{MatchRow, SeatRow};
use crate::with_game;

/// Who decides chance: the server from a secret seed, or the physical table, which reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RandomnessMode {
    /// The server deals and rolls from a per-match seed, published as a SHA-256 commitment at
    /// creation and revealed when the match is over.
    #[default]
    Server,
    /// Players use real cards and dice and report each outcome to `/chance`.
    Table,
}

impl RandomnessMode {
    pub fn as_str(self) -> &'static str {
        match self {
            RandomnessMode::Server => "server",
            RandomnessMode::Table => "table",
        }
    }
}

/// How a match is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// Hosted by the service, which referees every move.
    Hosted,
    /// Played with real cards and dice and recorded round by round on a score sheet.
    Sheet,
}

impl MatchKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchKind::Hosted => "hosted",
            MatchKind::Sheet => "sheet",
        }
    }
    pub(crate) fn of(kind: &str) -> Self {
        if kind == "sheet" {
            MatchKind::Sheet
        } else {
            MatchKind::Hosted
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchStatus {
    InProgress,
    Finished,
}

impl MatchStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchStatus::InProgress => "in_progress",
            MatchStatus::Finished => "finished",
        }
    }
    pub(crate) fn of(row_status: &str) -> Self {
        if row_status == "finished" {
            MatchStatus::Finished
        } else {
            MatchStatus::InProgress
        }
    }
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSeat {
    /// The player's name: 1 to 64 characters once trimmed, no control characters.
    #[schema(
        example = "Ann",
        min_length = 1,
        pattern = "^[^\\u0000-\\u001F\\u007F-\\u009F]*$"
    )]
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatInfo {
    pub seat: Seat,
    pub name: String,
    /// Filled once the match is over.
    pub final_score: Option<i64>,
    pub rank: Option<i32>,
    pub winner: Option<bool>,
}

pub(crate) fn stored<T: serde::de::DeserializeOwned>(
    what: &str,
    value: Value,
) -> Result<T, Problem> {
    serde_json::from_value(value)
        .map_err(|e| Problem::internal(format!("stored {what} does not parse: {e}")))
}

/// The game of a stored match, pinned to the rules version it was played under: a match is only
/// ever replayed or continued by an engine implementing exactly that version, so a later rules
/// fix (which bumps the version) can never change how an old match replays.
pub(crate) fn kind_of(row: &MatchRow) -> Result<GameKind, Problem> {
    let kind = GameKind::from_slug(&row.game)
        .ok_or_else(|| Problem::internal(format!("stored match has unknown game {}", row.game)))?;
    let implemented = with_game!(kind, G => G::RULES_VERSION);
    if row.rules_version != implemented {
        let mut problem = Problem::conflict(
            "rules_version_unsupported",
            format!(
                "this match was played under rules {} but this service implements {implemented}; \
                 its history, result and export stay readable",
                row.rules_version
            ),
        );
        problem.params = Some(serde_json::json!({
            "rules_version": row.rules_version,
            "implemented": implemented,
        }));
        return Err(problem);
    }
    Ok(kind)
}

pub(crate) fn mode_of(row: &MatchRow) -> RandomnessMode {
    if row.randomness == "table" {
        RandomnessMode::Table
    } else {
        RandomnessMode::Server
    }
}

pub(crate) fn seat_infos(seats: &[SeatRow]) -> Vec<SeatInfo> {
    seats
        .iter()
        .map(|s| SeatInfo {
            seat: s.seat as Seat,
            name: s.player_name.clone(),
            final_score: s.final_score,
            rank: s.final_rank,
            winner: s.winner,
        })
        .collect()
}

/// A player name to search by: PostgreSQL text cannot hold NUL, and a blank name simply matches
/// no one.
pub(crate) fn check_player_filter(name: &str) -> Result<(), Problem> {
    if name.contains('\0') {
        return Err(Problem::bad_request(
            "invalid_player",
            "a player name has no NUL characters",
        ));
    }
    Ok(())
}

pub(crate) fn check_name(name: &str) -> Result<String, Problem> {
    let trimmed = name.trim();
    let length = trimmed.chars().count();
    if length == 0 || length > 64 || trimmed.chars().any(char::is_control) {
        return Err(Problem::unprocessable(
            "invalid_player_name",
            "a player name has 1 to 64 characters and no control characters",
        ));
    }
    Ok(trimmed.to_owned())
}

pub(crate) fn check_open(row: &MatchRow, expected_version: Option<i64>) -> Result<(), Problem> {
    if row.status == "finished" {
        return Err(Problem::conflict("match_finished", "the match is over"));
    }
    check_version(row, expected_version)
}

/// A stale `expected_version` is a 409 naming the current version.
pub(crate) fn check_version(row: &MatchRow, expected_version: Option<i64>) -> Result<(), Problem> {
    match expected_version {
        Some(expected) if expected != row.version => {
            let mut problem = Problem::conflict(
                "stale_version",
                format!(
                    "expected version {expected} but the match is at version {}; reload it",
                    row.version
                ),
            );
            problem.params =
                Some(serde_json::json!({"expected": expected, "current": row.version}));
            Err(problem)
        }
        _ => Ok(()),
    }
}

/// Parses a stored match's move, chance outcome or tally entry. The API documents these as "any
/// game's", since the match decides which: one that is another game's is well-formed but does not
/// apply here (422); one that is no game's is malformed (400). Both under the same code.
pub(crate) fn parse_for_match<T: DeserializeOwned + serde::Serialize>(
    what: &'static str,
    payload: &Value,
) -> Result<T, Problem> {
    referee::parse(what, payload.clone()).map_err(|error| {
        if referee::is_some_games(what, payload) {
            Problem::unprocessable(
                error.code(),
                format!("this is another game's {what}, not this match's: {error}"),
            )
        } else {
            error.into()
        }
    })
}
