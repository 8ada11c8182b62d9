//! What an import reads: the file as this service's export or BG Stats' own writes it, read
//! leniently, and checked as a whole (syntax, shape, the size limits, every play's game and
//! players, dates) before any play is planned. The first bad field refuses the whole file.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::file::RefereePlay;
use crate::problem::{Code, Problem};
use crate::records::limit_exceeded;
use crate::referee;

/// The largest file an import reads, in bytes.
pub const IMPORT_BYTES: usize = 8 * 1024 * 1024;
/// The most plays one file may hold.
pub const IMPORT_PLAYS: usize = 5_000;

/// A file to import: this service's BG Stats export, or BG Stats' own. Read leniently: keys
/// this service does not use are ignored (BG Stats writes many), and so are `locations`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BgStatsImport {
    #[serde(default)]
    pub(super) players: Vec<ImportPlayer>,
    #[serde(default)]
    pub(super) games: Vec<ImportGame>,
    /// At most 5 000.
    pub(super) plays: Vec<ImportPlay>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportPlayer {
    pub(super) id: i64,
    #[schema(example = "Mum")]
    pub(super) name: String,
    /// BG Stats' anonymous player, someone who played but is not kept: a seat of the play, in
    /// its standings, that nobody's totals or rating counts.
    #[serde(default)]
    pub(super) is_anonymous: bool,
}

/// A game, matched by name (its title or slug, ignoring case, spaces and punctuation) to the five.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportGame {
    pub(super) id: i64,
    #[schema(example = "Lucky Jack")]
    pub(super) name: String,
    #[serde(default)]
    pub(super) cooperative: bool,
    #[serde(default)]
    pub(super) uses_teams: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportPlay {
    /// The play's id, kept as the sheet's: the same play imported twice is found the second
    /// time. Without one, an id is derived from the play's content.
    #[serde(default)]
    pub(super) uuid: Option<String>,
    pub(super) game_ref_id: i64,
    /// When it was played, UTC, 1970 to 9999 (ignored when `referee` says it to the
    /// microsecond).
    #[schema(
        pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$",
        example = "2025-12-25 20:30:00"
    )]
    pub(super) play_date: String,
    #[serde(default)]
    pub(super) duration_min: Option<i64>,
    /// An abandoned match when `referee` says so; otherwise a play BG Stats leaves out of its
    /// statistics, which the import skips.
    #[serde(default)]
    pub(super) ignored: bool,
    #[serde(default)]
    pub(super) uses_teams: bool,
    pub(super) player_scores: Vec<ImportScore>,
    /// This service's own additions, as its export writes them.
    #[serde(default)]
    pub(super) referee: Option<RefereePlay>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportScore {
    pub(super) player_ref_id: i64,
    /// A whole number, as text (`"12"`, BG Stats' way) or as a number; empty for an abandoned
    /// play.
    #[serde(default)]
    #[schema(value_type = String, example = "120")]
    pub(super) score: Value,
    #[serde(default)]
    pub(super) winner: bool,
    /// 1 is first; 0 or absent: ranked by score in the game's order.
    #[serde(default)]
    pub(super) rank: i64,
}

/// The import's schemas, which describe a foreign format read leniently: their objects stay
/// open to keys they do not list.
pub const LENIENT_SCHEMAS: [&str; 5] = [
    "BgStatsImport",
    "ImportPlayer",
    "ImportGame",
    "ImportPlay",
    "ImportScore",
];

fn bad_file(field: impl Into<String>, detail: impl Into<String>) -> Problem {
    let field = field.into();
    let mut problem = Problem::new(Code::InvalidImport, format!("{field}: {}", detail.into()));
    problem.params = Some(serde_json::json!({ "field": field }));
    problem
}

/// A file read, with its games and players by id: each reference is one lookup, however many
/// the file lists (the first of an id counts, as a reader scanning the list would find it).
#[derive(Debug)]
pub(super) struct ImportFile {
    pub(super) file: BgStatsImport,
    games: HashMap<i64, usize>,
    players: HashMap<i64, usize>,
}

impl ImportFile {
    fn new(file: BgStatsImport) -> Self {
        let mut games = HashMap::with_capacity(file.games.len());
        for (index, game) in file.games.iter().enumerate() {
            games.entry(game.id).or_insert(index);
        }
        let mut players = HashMap::with_capacity(file.players.len());
        for (index, player) in file.players.iter().enumerate() {
            players.entry(player.id).or_insert(index);
        }
        Self {
            file,
            games,
            players,
        }
    }

    pub(super) fn game(&self, id: i64) -> Option<&ImportGame> {
        self.games.get(&id).map(|&index| &self.file.games[index])
    }

    pub(super) fn player(&self, id: i64) -> Option<&ImportPlayer> {
        self.players
            .get(&id)
            .map(|&index| &self.file.players[index])
    }
}

/// Reads a file: its syntax and shape, then its references (each play's game and players) and
/// dates. The first bad field refuses the whole file, named by its path. CPU-bound (a full file
/// takes a few hundred milliseconds): call it off the async workers.
pub(super) fn read_file(body: &[u8]) -> Result<ImportFile, Problem> {
    let mut value: Value = serde_json::from_slice(body)
        .map_err(|e| Problem::new(Code::MalformedBody, e.to_string()))?;
    // `3.0` is an integer, as everywhere in this API (JSON Schema says so).
    referee::integral_numbers_as_integers(&mut value);
    let file: BgStatsImport = serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        let detail = error.into_inner().to_string();
        // A missing field is reported at the object that lacks it: name the field itself.
        let missing = detail
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next());
        let field = match (path.as_str(), missing) {
            (".", Some(name)) => name.to_owned(),
            (".", None) => "file".to_owned(),
            (_, Some(name)) => format!("{path}.{name}"),
            (_, None) => path,
        };
        bad_file(field, detail)
    })?;
    if file.plays.len() > IMPORT_PLAYS {
        return Err(limit_exceeded(
            "import_plays",
            IMPORT_PLAYS,
            format!("a file holds at most {IMPORT_PLAYS} plays; split it"),
        ));
    }
    let read = ImportFile::new(file);
    for (i, play) in read.file.plays.iter().enumerate() {
        if read.game(play.game_ref_id).is_none() {
            return Err(bad_file(
                format!("plays[{i}].gameRefId"),
                format!("no game has id {}", play.game_ref_id),
            ));
        }
        if play.referee.is_none() {
            play_date(&play.play_date).ok_or_else(|| {
                bad_file(
                    format!("plays[{i}].playDate"),
                    "not YYYY-MM-DD HH:MM:SS from 1970 to 9999",
                )
            })?;
        }
        for (j, score) in play.player_scores.iter().enumerate() {
            if read.player(score.player_ref_id).is_none() {
                return Err(bad_file(
                    format!("plays[{i}].playerScores[{j}].playerRefId"),
                    format!("no player has id {}", score.player_ref_id),
                ));
            }
        }
    }
    Ok(read)
}

pub(super) fn play_date(text: &str) -> Option<DateTime<Utc>> {
    NaiveDateTime::parse_from_str(text.trim(), "%Y-%m-%d %H:%M:%S")
        .ok()
        .map(|d| d.and_utc())
        .filter(in_range)
}

/// Plays from 1970 to 9999: keyset cursors count microseconds since 1970, and RFC 3339 has
/// four-digit years.
pub(super) fn in_range(at: &DateTime<Utc>) -> bool {
    (0..253_402_300_800).contains(&at.timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_file_is_refused_naming_its_first_bad_field() {
        let problem = read_file(br#"{"plays": [{"gameRefId": "one"}]}"#).unwrap_err();
        assert_eq!(problem.code, "invalid_import");
        assert_eq!(
            problem.params.as_ref().unwrap()["field"],
            "plays[0].gameRefId"
        );
        let problem = read_file(
            br#"{"players": [{"id": 1, "name": "Ann"}], "games": [{"id": 1, "name": "Lucky Jack"}],
                "plays": [{"gameRefId": 1, "playDate": "2026-01-01 20:00:00",
                           "playerScores": [{"playerRefId": 2, "score": "1"}]}]}"#,
        )
        .unwrap_err();
        assert_eq!(
            problem.params.as_ref().unwrap()["field"],
            "plays[0].playerScores[0].playerRefId"
        );
    }
}
