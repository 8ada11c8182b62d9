//! The vocabulary hosted matches and score sheets share: both are rows of the same tables, with
//! the same status, kind and randomness, the same player-name rules, the same version checks and
//! the same pinning of a stored record to the rules version it was played under.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::games::{Game, GameKind, Seat, Standings};
use crate::problem::Problem;
use crate::referee;
use crate::store::matches::{MatchRow, SeatRow};
use crate::with_game;

/// The names a closed set of values is stored and sent under (the same for both): the store maps
/// columns through them, and an unknown stored name is an error, never a default.
pub trait StoredName: Copy + Sized + 'static {
    const ALL: &'static [Self];
    fn as_str(self) -> &'static str;
    fn from_stored(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|value| value.as_str() == name)
    }
}

/// Defines a closed set of stored names: the enum, its serde names and its [`StoredName`].
macro_rules! stored_names {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
        #[derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow)]
        #[diesel(sql_type = diesel::sql_types::Text)]
        // The stored names are the serde names (a test checks it); utoipa reads `rename_all`.
        #[serde(rename_all = "snake_case")]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl StoredName for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];
            fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl $name {
            pub fn as_str(self) -> &'static str {
                StoredName::as_str(self)
            }
        }
    };
}

stored_names! {
    /// Who decides chance: the server from a secret seed, or the physical table, which reports it.
    #[derive(Default)]
    pub enum RandomnessMode {
        /// The server deals and rolls from a per-match seed, published as a SHA-256 commitment at
        /// creation and revealed when the match is over.
        #[default]
        Server = "server",
        /// Players use real cards and dice and report each outcome to `/chance`.
        Table = "table",
    }
}

stored_names! {
    /// Who may report the chance outcomes of a table-randomness match. The owner always may; the
    /// rest is the table's choice.
    #[derive(Default)]
    pub enum ChanceReporters {
        /// Only the owner (a referee or host at the table) reports outcomes.
        Owner = "owner",
        /// The owner; a seat reports the outcomes of its own action (its draw, its roll) and the
        /// dealer's seat the deal and shared outcomes (a flip, a shared die).
        #[default]
        OwnerAndActingSeat = "owner_and_acting_seat",
        /// The owner and every seat report any outcome (a table whose players trust each other).
        AnySeat = "any_seat",
    }
}

stored_names! {
    /// How a match is recorded.
    pub enum MatchKind {
        /// Hosted by the service, which referees every move.
        Hosted = "hosted",
        /// Played with real cards and dice and recorded round by round on a score sheet.
        Sheet = "sheet",
    }
}

stored_names! {
    pub enum MatchStatus {
        InProgress = "in_progress",
        Finished = "finished",
    }
}

impl MatchStatus {
    pub fn of_over(over: bool) -> Self {
        if over {
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

/// Reads a stored JSON document by reference: a match's full state is never cloned to be read.
pub(crate) fn stored<T: DeserializeOwned>(what: &str, value: &Value) -> Result<T, Problem> {
    T::deserialize(value)
        .map_err(|e| Problem::internal(format!("stored {what} does not parse: {e}")))
}

/// Names the game in the current service span, once the stored record says which it is.
pub(crate) fn note_game(kind: GameKind) {
    tracing::Span::current().record("game", kind.slug());
}

/// The game of a stored match, pinned to the rules version it was played under: a match is only
/// ever replayed or continued by an engine implementing exactly that version, so a later rules
/// fix (which bumps the version) can never change how an old match replays.
pub(crate) fn kind_of(row: &MatchRow) -> Result<GameKind, Problem> {
    let kind = row.game.kind();
    note_game(kind);
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

/// The players at one match's table and those who won, by name, from seats of many matches.
pub(crate) fn table_names(seats: &[SeatRow], match_id: uuid::Uuid) -> (Vec<String>, Vec<String>) {
    let table = seats.iter().filter(|s| s.match_id == match_id);
    let players = table.clone().map(|s| s.player_name.clone()).collect();
    let winners = table
        .filter(|s| s.winner == Some(true))
        .map(|s| s.player_name.clone())
        .collect();
    (players, winners)
}

/// The names of the winning seats.
pub(crate) fn winner_names(standings: &Standings, seats: &[SeatRow]) -> Vec<String> {
    standings
        .winners
        .iter()
        .filter_map(|&s| seats.get(s).map(|seat| seat.player_name.clone()))
        .collect()
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
    if row.status == MatchStatus::Finished {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn names_match_serde<T: StoredName + Serialize>() {
        for &value in T::ALL {
            assert_eq!(serde_json::to_value(value).unwrap(), value.as_str());
            assert!(T::from_stored(value.as_str()).is_some());
        }
        assert!(T::from_stored("unknown").is_none());
    }

    #[test]
    fn stored_names_are_the_serde_names_and_unknown_names_are_refused() {
        names_match_serde::<MatchStatus>();
        names_match_serde::<MatchKind>();
        names_match_serde::<RandomnessMode>();
        names_match_serde::<ChanceReporters>();
    }
}
