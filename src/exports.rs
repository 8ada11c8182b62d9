//! Taking history elsewhere: a player's matches as NDJSON or CSV, each with the player's rating
//! change. The BG Stats format, in and out, is [`crate::bgstats`]'s.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::GameKind;
use crate::problem::Problem;
use crate::ratings::RatingChange;
use crate::records::{check_player_filter, table_names};
use crate::store::history;
use crate::store::matches as q;
use crate::store::stat_reads::{abandons_of, Abandoned};
use crate::store::Store;
use crate::vocabulary::{MatchKind, MatchStatus, Space};

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
    /// The player's rating in the game before and after this result, if it was rated.
    pub rating: Option<RatingChange>,
}

/// Every match of a player (names compared ignoring case, width, invisible characters and look-alike letters), newest first.
#[tracing::instrument(skip_all, fields(player = name))]
pub async fn player_history(
    store: &Store,
    space: Space,
    name: &str,
) -> Result<Vec<HistoryLine>, Problem> {
    check_player_filter(name)?;
    let (rows, tables, abandons, changes) = store
        .read(async |conn| {
            let rows = history::player_matches(conn, space, name).await?;
            let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
            let tables = q::seats_of(conn, &ids).await?;
            let abandoned: Vec<Uuid> = rows
                .iter()
                .filter(|r| r.status == MatchStatus::Abandoned)
                .map(|r| r.id)
                .collect();
            let abandons = abandons_of(conn, &abandoned).await?;
            let changes = crate::store::rating_reads::changes_of(conn, &ids).await?;
            Ok((rows, tables, abandons, changes))
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
                rating: changes
                    .iter()
                    .find(|c| c.match_id == row.id && c.seat == seat.seat)
                    .map(RatingChange::of),
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
/// match's trace is in four columns, then the player's rating change in six: rating (`mu - 3
/// sigma`) before and after, then each `mu` and `sigma` (columns are added last, so older
/// readers keep theirs).
pub fn to_csv(lines: &[HistoryLine]) -> String {
    fn opt<T: ToString>(value: &Option<T>) -> String {
        value.as_ref().map(T::to_string).unwrap_or_default()
    }
    let mut out = String::from(
        "match_id,kind,game,status,created_at,finished_at,seat,player,score,rank,winner,players,winners,\
         abandoned_by,abandoned_at,abandoned_at_version,abandoned_after_play,\
         rating_before,rating_after,mu_before,sigma_before,mu_after,sigma_after\r\n",
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
            csv_cell(&opt(&l.rating.map(|r| r.before.rating))),
            csv_cell(&opt(&l.rating.map(|r| r.after.rating))),
            csv_cell(&opt(&l.rating.map(|r| r.before.mu))),
            csv_cell(&opt(&l.rating.map(|r| r.before.sigma))),
            csv_cell(&opt(&l.rating.map(|r| r.after.mu))),
            csv_cell(&opt(&l.rating.map(|r| r.after.sigma))),
        ];
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
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
            rating: None,
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
}
