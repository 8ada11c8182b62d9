//! Taking history elsewhere: a player's matches as NDJSON or CSV, and a finished match or sheet
//! as a play in the BG Stats import format.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::GameKind;
use crate::problem::Problem;
use crate::records::{check_player_filter, note_game, table_names};
use crate::store::history;
use crate::store::matches as q;
use crate::store::stats::{abandons_of, Abandoned};
use crate::store::Store;
use crate::vocabulary::{MatchKind, MatchStatus};

/// One match of a player's history (one line of NDJSON, one row of CSV).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct HistoryLine {
    pub match_id: Uuid,
    pub kind: MatchKind,
    pub game: GameKind,
    pub status: MatchStatus,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// The player's seat and name as written in that match.
    pub seat: i32,
    pub player: String,
    pub score: Option<i64>,
    pub rank: Option<i32>,
    pub winner: Option<bool>,
    /// Everyone at the table, by seat.
    pub players: Vec<String>,
    pub winners: Vec<String>,
    /// An abandoned match: by whom, when, at which version, and whether play had begun (then it
    /// counts in each player's record as `abandoned`).
    pub abandoned: Option<Abandoned>,
}

/// Every match of a player (names compared ignoring case, width, invisible characters and look-alike letters), newest first.
#[tracing::instrument(skip_all, fields(player = name))]
pub async fn player_history(store: &Store, name: &str) -> Result<Vec<HistoryLine>, Problem> {
    check_player_filter(name)?;
    let (rows, tables, abandons) = store
        .read(async |conn| {
            let rows = history::player_matches(conn, name).await?;
            let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
            let tables = q::seats_of(conn, &ids).await?;
            let abandoned: Vec<Uuid> = rows
                .iter()
                .filter(|r| r.status == MatchStatus::Abandoned)
                .map(|r| r.id)
                .collect();
            let abandons = abandons_of(conn, &abandoned).await?;
            Ok((rows, tables, abandons))
        })
        .await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let (players, winners) = table_names(&tables, row.id);
            let seat = row.seat;
            HistoryLine {
                match_id: row.id,
                kind: row.kind,
                game: row.game.kind(),
                status: row.status,
                created_at: row.created_at,
                finished_at: row.finished_at,
                seat: seat.seat,
                player: seat.player_name,
                score: seat.final_score,
                rank: seat.final_rank,
                winner: seat.winner,
                players,
                winners,
                abandoned: abandons.iter().find(|a| a.match_id == row.id).cloned(),
            }
        })
        .collect())
}

// A history line holds only text, numbers, booleans and timestamps: it always serialises.
#[allow(clippy::expect_used)]
pub fn to_ndjson(lines: &[HistoryLine]) -> String {
    lines
        .iter()
        .map(|line| serde_json::to_string(line).expect("history lines serialise") + "\n")
        .collect()
}

/// A cell as RFC 4180 writes it: quoted when it holds a separator, a quote or a line break.
fn csv_cell(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Characters that make a spreadsheet read a cell as a formula (or split it) when they open it.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A cell of text someone typed (a player's name): one that a spreadsheet would run as a formula
/// is prefixed with a single quote and quoted, as OWASP's "CSV injection" advice says, so it
/// shows as typed and never runs. Numbers we write ourselves are not text cells and stay numbers.
fn csv_text_cell(text: &str) -> String {
    if text.starts_with(FORMULA_STARTS) {
        format!("\"'{}\"", text.replace('"', "\"\""))
    } else {
        csv_cell(text)
    }
}

/// RFC 4180 CSV with a header row; several names in one cell are separated by `; `. Cells of
/// typed text are neutralised against formula injection ([`csv_text_cell`]). An abandoned
/// match's trace is in the last four columns (added last, so older readers keep their columns).
pub fn to_csv(lines: &[HistoryLine]) -> String {
    fn opt<T: ToString>(value: &Option<T>) -> String {
        value.as_ref().map(T::to_string).unwrap_or_default()
    }
    let mut out = String::from(
        "match_id,kind,game,status,created_at,finished_at,seat,player,score,rank,winner,players,winners,\
         abandoned_by,abandoned_at,abandoned_at_version,abandoned_after_play\r\n",
    );
    for l in lines {
        let cells = [
            csv_cell(&l.match_id.to_string()),
            csv_cell(l.kind.as_str()),
            csv_cell(l.game.slug()),
            csv_cell(l.status.as_str()),
            csv_cell(&l.created_at.to_rfc3339()),
            csv_cell(&opt(&l.finished_at.map(|t| t.to_rfc3339()))),
            csv_cell(&l.seat.to_string()),
            csv_text_cell(&l.player),
            csv_cell(&opt(&l.score)),
            csv_cell(&opt(&l.rank)),
            csv_cell(&opt(&l.winner)),
            csv_text_cell(&l.players.join("; ")),
            csv_text_cell(&l.winners.join("; ")),
            csv_cell(&opt(&l.abandoned.as_ref().map(|a| a.by.as_str()))),
            csv_cell(&opt(&l.abandoned.as_ref().map(|a| a.at.to_rfc3339()))),
            csv_cell(&opt(&l.abandoned.as_ref().map(|a| a.at_version))),
            csv_cell(&opt(&l.abandoned.as_ref().map(|a| a.after_play))),
        ];
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
}

/// A BG Stats import file (the app's "import data" JSON) holding one play.
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
    pub play_date: String,
    pub duration_min: i64,
    pub ignored: bool,
    pub manual_winner: bool,
    pub rounds: i64,
    pub uses_teams: bool,
    pub player_scores: Vec<BgStatsScore>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BgStatsScore {
    pub player_ref_id: i64,
    /// BG Stats keeps scores as text.
    pub score: String,
    pub winner: bool,
    pub new_player: bool,
    pub start_player: bool,
    pub rank: i64,
    pub seat_order: i64,
}

/// Names are the identity here, so their BG Stats uuids derive from them.
fn name_uuid(kind: &str, name: &str) -> Uuid {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("referee/{kind}/{}", name.to_lowercase()));
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_sha1_bytes(bytes).into_uuid()
}

/// A finished match or sheet as a BG Stats play.
#[tracing::instrument(skip_all, fields(match_id = %id, kind = kind.as_str(), game = tracing::field::Empty))]
pub async fn bgstats(store: &Store, id: Uuid, kind: MatchKind) -> Result<BgStatsFile, Problem> {
    // Only a finished match is exported, and a finished match never changes: a history read.
    let (row, seats) = store
        .read(async |conn| {
            let Some(row) = q::find(conn, id).await?.filter(|r| r.kind == kind) else {
                return Ok(None);
            };
            let seats = q::seats(conn, id).await?;
            Ok(Some((row, seats)))
        })
        .await?
        .ok_or_else(|| {
            Problem::not_found("unknown_match", format!("no {} has id {id}", kind.as_str()))
        })?;
    if row.status != MatchStatus::Finished {
        return Err(Problem::conflict(
            "match_not_finished",
            "only a finished match can be exported as a play",
        ));
    }
    let game = row.game.kind();
    note_game(game);
    let lowest_wins = row.lowest_wins == Some(true);
    // A sheet's snapshot lists its scored rounds; a hosted game's breakdown may list its rounds.
    let rounds = match kind {
        MatchKind::Sheet => row.state.pointer("/rounds"),
        MatchKind::Hosted => row
            .result
            .as_ref()
            .and_then(|r| r.pointer("/breakdown/rounds")),
    }
    .and_then(|r| r.as_array())
    .map_or(0, |r| r.len() as i64);
    let finished_at = row.finished_at.unwrap_or(row.updated_at);
    Ok(BgStatsFile {
        players: seats
            .iter()
            .enumerate()
            .map(|(i, s)| BgStatsPlayer {
                id: i as i64 + 1,
                name: s.player_name.clone(),
                uuid: name_uuid("player", &s.player_name),
            })
            .collect(),
        locations: vec![BgStatsNamed {
            id: 1,
            name: if kind == MatchKind::Sheet {
                "At the table".to_owned()
            } else {
                "Tabletop referee".to_owned()
            },
            uuid: name_uuid("location", kind.as_str()),
        }],
        games: vec![BgStatsGame {
            id: 1,
            name: game.title().to_owned(),
            uuid: name_uuid("game", game.slug()),
            cooperative: false,
            highest_wins: !lowest_wins,
            no_points: false,
            uses_teams: false,
        }],
        plays: vec![BgStatsPlay {
            uuid: row.id,
            game_ref_id: 1,
            location_ref_id: 1,
            play_date: finished_at.format("%Y-%m-%d %H:%M:%S").to_string(),
            duration_min: (finished_at - row.created_at).num_minutes(),
            ignored: false,
            manual_winner: false,
            rounds,
            uses_teams: false,
            player_scores: seats
                .iter()
                .enumerate()
                .map(|(i, s)| BgStatsScore {
                    player_ref_id: i as i64 + 1,
                    score: s.final_score.unwrap_or_default().to_string(),
                    winner: s.winner == Some(true),
                    new_player: false,
                    start_player: false,
                    rank: i64::from(s.final_rank.unwrap_or_default()),
                    seat_order: i as i64,
                })
                .collect(),
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(player: &str) -> HistoryLine {
        HistoryLine {
            match_id: Uuid::nil(),
            kind: MatchKind::Sheet,
            game: GameKind::LuckyJack,
            status: MatchStatus::Finished,
            created_at: DateTime::from_timestamp(0, 0).unwrap(),
            finished_at: None,
            seat: 0,
            player: player.to_owned(),
            score: Some(5000),
            rank: Some(1),
            winner: Some(true),
            players: vec![player.to_owned(), "Ben".to_owned()],
            winners: vec![player.to_owned()],
            abandoned: None,
        }
    }

    #[test]
    fn csv_quotes_cells_with_commas_and_quotes_and_doubles_inner_quotes() {
        let csv = to_csv(&[line("Ann \"the Ace\", Jr")]);
        let row = csv.lines().nth(1).unwrap();
        assert!(row.contains("\"Ann \"\"the Ace\"\", Jr\""), "{row}");
        assert!(csv.starts_with("match_id,kind,game,"));
        assert!(row.contains(",5000,1,true,"));
    }

    #[test]
    fn text_cells_starting_a_formula_are_quoted_behind_a_single_quote_and_others_are_not() {
        for start in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
            let cell = csv_text_cell(start);
            assert!(cell.starts_with("\"'"), "{start:?} became {cell:?}");
        }
        assert_eq!(csv_text_cell("Ann"), "Ann");
        assert_eq!(csv_cell("-5"), "-5", "a number we write stays a number");
    }

    #[test]
    fn ndjson_is_one_json_document_per_line() {
        let text = to_ndjson(&[line("Ann"), line("Bo")]);
        let docs: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1]["player"], "Bo");
    }

    #[test]
    fn a_players_bgstats_uuid_depends_only_on_the_name_ignoring_case() {
        assert_eq!(name_uuid("player", "Ann"), name_uuid("player", "ANN"));
        assert_ne!(name_uuid("player", "Ann"), name_uuid("player", "Ben"));
    }
}
