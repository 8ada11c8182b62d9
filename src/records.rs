//! What the services for hosted matches and score sheets share: both are rows of the same tables,
//! with the same player-name checks, the same version checks, the same creates under an
//! `Idempotency-Key`, and the same pinning of a stored record to the rules version it was played
//! under. The names they are stored under live in [`crate::vocabulary`].

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::{Game, GameKind, Seat, Standings};
use crate::problem::{Code, Problem};
use crate::referee;
use crate::store::created::Created;
use crate::store::matches::{MatchRow, SeatRow};
use crate::vocabulary::{
    disguising_letter, limits, name_key, normalise_name, MatchKind, MatchStatus, Space,
};
use crate::with_game;

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSeat {
    /// The player's name: Unicode NFKC and trimmed, then 1 to 64 characters with at least one
    /// visible one and no control characters. Names are compared as identities ignoring case
    /// and invisible characters: two seats may not share one.
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

/// A page size from a query: `default` when it is left out, else 1 to `max`.
pub(crate) fn page_limit(limit: Option<i64>, default: i64, max: i64) -> Result<i64, Problem> {
    let limit = limit.unwrap_or(default);
    if !(1..=max).contains(&limit) {
        let mut problem = Problem::new(Code::InvalidLimit, format!("limit is 1 to {max}"));
        problem.params = Some(serde_json::json!({ "max": max }));
        return Err(problem);
    }
    Ok(limit)
}

pub(crate) fn invalid_cursor() -> Problem {
    Problem::new(
        Code::InvalidCursor,
        "the cursor is not one this service issued",
    )
}

/// A keyset cursor is a row's time (a match list's creation time, a rating's finish time, in
/// microseconds since the epoch) and id: plain enough for the spec to say exactly which strings
/// are cursors, so any string of that form is accepted.
pub(crate) fn encode_cursor(created_at: DateTime<Utc>, id: Uuid) -> String {
    format!("{}-{}", created_at.timestamp_micros(), id.simple())
}

/// A query's `cursor`, if it sent one, as [`encode_cursor`] wrote it.
pub(crate) fn cursor_param(cursor: Option<&str>) -> Result<Option<(DateTime<Utc>, Uuid)>, Problem> {
    cursor
        .map(|c| decode_cursor(c).ok_or_else(invalid_cursor))
        .transpose()
}

fn decode_cursor(cursor: &str) -> Option<(DateTime<Utc>, Uuid)> {
    let (micros, id) = cursor.split_once('-')?;
    let digits = |text: &str, extra: &[u8]| {
        text.bytes()
            .all(|b| b.is_ascii_digit() || extra.contains(&b))
    };
    if !(1..=16).contains(&micros.len()) || !digits(micros, b"") {
        return None;
    }
    if id.len() != 32 || !digits(id, b"abcdef") {
        return None;
    }
    Some((
        DateTime::from_timestamp_micros(micros.parse().ok()?)?,
        Uuid::try_parse(id).ok()?,
    ))
}

/// The refusal of a write past one of the [`limits`]: `limit` names it, `max` is its value.
pub(crate) fn limit_exceeded(limit: &str, max: usize, detail: impl Into<String>) -> Problem {
    let mut problem = Problem::new(Code::LimitExceeded, detail);
    problem.params = Some(serde_json::json!({"limit": limit, "max": max}));
    problem
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
        let mut problem = Problem::new(
            Code::RulesVersionUnsupported,
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
pub(crate) fn table_names(seats: &[SeatRow], match_id: Uuid) -> (Vec<String>, Vec<String>) {
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
        return Err(Problem::new(
            Code::InvalidPlayer,
            "a player name has no NUL characters",
        ));
    }
    Ok(())
}

/// A player name as typed, checked and normalised ([`normalise_name`]).
pub(crate) fn check_name(name: &str) -> Result<String, Problem> {
    let normalised = normalise_name(name);
    if name_key(&normalised).is_empty() || normalised.chars().any(char::is_control) {
        return Err(Problem::new(
            Code::InvalidPlayerName,
            "a player name has at least one visible character and no control characters",
        ));
    }
    if let Some(letter) = disguising_letter(name) {
        let mut params = serde_json::Map::new();
        params.insert(
            "character".into(),
            format!("U+{:04X}", u32::from(letter)).into(),
        );
        return Err(Problem::new(
            Code::InvalidPlayerName,
            format!(
                "a player name may not use {letter:?} (U+{:04X}), a letter kept for technical, \
                 obsolete or compatibility use that can pass for an everyday one: write the \
                 everyday letter",
                u32::from(letter)
            ),
        )
        .with_params(params));
    }
    if normalised.chars().count() > limits::NAME_CHARS {
        return Err(limit_exceeded(
            "name_chars",
            limits::NAME_CHARS,
            format!(
                "a player name has at most {} characters",
                limits::NAME_CHARS
            ),
        ));
    }
    Ok(normalised)
}

/// The players of one match or sheet, checked and normalised, each only once: two names with
/// the same key ([`name_key`]) would be one player counted twice.
pub(crate) fn check_names<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<String>, Problem> {
    // Each name's key is computed once and looked up in a map: linear in the names sent.
    let mut checked: Vec<String> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for name in names {
        let name = check_name(name)?;
        let key = name_key(&name);
        if let Some(&earlier) = seen.get(&key) {
            let earlier = &checked[earlier];
            let mut problem = Problem::new(
                Code::DuplicatePlayer,
                format!("{name:?} and {earlier:?} are the same player; each player sits once"),
            );
            problem.params = Some(serde_json::json!({"name": name}));
            return Err(problem);
        }
        seen.insert(key, checked.len());
        checked.push(name);
    }
    Ok(checked)
}

/// Seat `seat` of a match or sheet (`record` names which, for the refusal).
pub(crate) fn seat_of<'a>(
    seats: &'a [SeatRow],
    seat: Seat,
    record: &str,
) -> Result<&'a SeatRow, Problem> {
    seats
        .iter()
        .find(|s| s.seat as Seat == seat)
        .ok_or_else(|| {
            let mut problem = Problem::new(
                Code::UnknownSeat,
                format!(
                    "this {record} has seats 0 to {}",
                    seats.len().saturating_sub(1)
                ),
            );
            problem.params = Some(serde_json::json!({"seat": seat, "seats": seats.len()}));
            problem
        })
}

/// A fingerprint of what a request asked for, to tell an honest retry (same key, same request)
/// from a key reused for another request.
pub(crate) fn fingerprint(request: &impl std::fmt::Debug) -> Vec<u8> {
    fingerprint_text(format_args!("{request:?}"))
}

/// [`fingerprint`] of a request already written out as text (a move keeps the form its stored
/// fingerprints have always had).
pub(crate) fn fingerprint_text(request: std::fmt::Arguments<'_>) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    Sha256::digest(request.to_string().as_bytes()).to_vec()
}

/// The refusal of an `Idempotency-Key` already used for a different request.
pub(crate) fn idempotency_key_reused(on: &str) -> Problem {
    Problem::new(
        Code::IdempotencyKeyReused,
        format!("this Idempotency-Key was already used for a different request {on}"),
    )
}

/// The answer to a create ([`insert_created`](crate::store::created::insert_created)): the stored or first answer, or a
/// refusal of an `Idempotency-Key` reused for another request.
pub(crate) fn created_answer<T>(created: Created<T>, scope: &str) -> Result<T, Problem> {
    match created {
        Created::Fresh(answer) | Created::Replayed(answer) => Ok(answer),
        Created::KeyReused => Err(idempotency_key_reused(&format!("to create a {scope}"))),
    }
}

/// A household's match or sheet is there only for a request in its household (or holding one of
/// its own tokens, which the caller checks first): to anyone else it is unknown, as if it did not
/// exist. A public one is there for everyone.
pub(crate) fn check_visible(row: &MatchRow, space: Space) -> Result<(), Problem> {
    if row.household.is_nil() || row.household == space.id() {
        return Ok(());
    }
    Err(crate::store::UnknownRecord {
        kind: row.kind,
        id: row.id,
    }
    .into())
}

/// Whether a match or sheet takes another move, report or entry: not abandoned, not over, not
/// at its length limit, and at the version the client expects.
pub(crate) fn check_open(row: &MatchRow, expected_version: Option<i64>) -> Result<(), Problem> {
    check_not_abandoned(row)?;
    if row.status == MatchStatus::Finished {
        return Err(Problem::new(Code::MatchFinished, "the match is over"));
    }
    check_length(row)?;
    check_version(row, expected_version)
}

/// A hosted match takes no move or chance report once its log holds [`limits::MATCH_PLIES`]
/// plies. The check is on the version the match is at, not on what the request would add: one
/// move may bring several chance plies with it (server randomness), so a match may end a little
/// past the limit, but never grows once it is there. Sheets have their own, smaller cap
/// ([`limits::SHEET_ENTRIES`]).
pub(crate) fn check_length(row: &MatchRow) -> Result<(), Problem> {
    if row.kind != MatchKind::Hosted || row.version < limits::MATCH_PLIES {
        return Ok(());
    }
    let mut problem = Problem::new(
        Code::MatchTooLong,
        format!(
            "this match has reached the limit of {} plies and takes no more moves or chance \
             reports; its log, plies, result and export stay readable",
            limits::MATCH_PLIES
        ),
    );
    problem.params = Some(serde_json::json!({
        "limit": "match_plies",
        "max": limits::MATCH_PLIES,
        "version": row.version,
    }));
    Err(problem)
}

/// An abandoned match or sheet takes no more moves, reports, entries or corrections.
pub(crate) fn check_not_abandoned(row: &MatchRow) -> Result<(), Problem> {
    if row.status == MatchStatus::Abandoned {
        return Err(Problem::new(
            Code::MatchAbandoned,
            "the owner abandoned this match; it stays in history but takes nothing more",
        ));
    }
    Ok(())
}

/// A stale `expected_version` is a 409 naming the current version.
pub(crate) fn check_version(row: &MatchRow, expected_version: Option<i64>) -> Result<(), Problem> {
    match expected_version {
        Some(expected) if expected != row.version => {
            let mut problem = Problem::new(
                Code::StaleVersion,
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
    what: referee::What,
    payload: &Value,
) -> Result<T, Problem> {
    referee::parse(what, payload.clone()).map_err(|error| {
        if referee::is_some_games(what, payload) {
            Problem::refusal(
                actix_web::http::StatusCode::UNPROCESSABLE_ENTITY,
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

    #[test]
    fn a_name_is_stored_in_nfkc_trimmed_and_control_characters_are_refused() {
        assert_eq!(check_name("  ｆｉnn\u{200B} ").unwrap(), "finn");
        assert_eq!(
            check_name("\u{FB01}nn").unwrap(),
            "finn",
            "the ligature becomes fi"
        );
        assert!(check_name("A\u{0}").is_err());
        assert!(check_name("\u{200B}\u{2060}").is_err());
        assert!(check_names(["Ann", "ANN"]).is_err());
        assert_eq!(check_names(["Ann", "Ben"]).unwrap(), ["Ann", "Ben"]);
    }
}
