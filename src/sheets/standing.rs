//! Where a sheet stands, read from its entries: the rounds as corrected and scored by the game,
//! the standings, whether it is closed, and the sheet as `GET /v1/sheets/{id}` shows it (or as
//! an entry's retry was first answered).

use diesel_async::AsyncPgConnection;
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::{unknown_sheet, wire::*};
use crate::games::{Game, Standings};
use crate::problem::Problem;
use crate::records::{check_visible, kind_of, parse_for_match, seat_infos, stored, winner_names};
use crate::referee;
use crate::store::matches::{self as q, MatchRow, SeatRow};
use crate::store::sheets::{self as sheet_rows, SheetEntryRow};
use crate::store::Store;
use crate::vocabulary::{MatchKind, MatchStatus, SheetEntryKind, Space};
use crate::with_game;

/// A sheet's entries as they stand.
pub(super) struct Standing<'a> {
    /// Each round's latest entry, in round order (a removal takes the last round away).
    pub(super) rounds: Vec<&'a SheetEntryRow>,
    /// The early finish in force, if the owner ended the sheet early (a later removal undoes it).
    pub(super) finish: Option<&'a SheetEntryRow>,
    /// The final standings of a play brought in from another score keeper.
    pub(super) imported: Option<&'a SheetEntryRow>,
}

pub(super) fn standing(entries: &[SheetEntryRow]) -> Standing<'_> {
    let mut rounds: Vec<&SheetEntryRow> = Vec::new();
    let mut finish = None;
    let mut imported = None;
    for entry in entries {
        match entry.kind {
            SheetEntryKind::Round => {
                let index = entry.round as usize - 1;
                if index < rounds.len() {
                    rounds[index] = entry;
                } else {
                    rounds.push(entry);
                }
            }
            SheetEntryKind::Removal => {
                rounds.truncate((entry.round as usize).saturating_sub(1));
                finish = None;
            }
            SheetEntryKind::Rename => {}
            SheetEntryKind::Finish => finish = Some(entry),
            SheetEntryKind::Import => imported = Some(entry),
        }
    }
    Standing {
        rounds,
        finish,
        imported,
    }
}

/// The rounds scored by the game, or the refusal naming the round that breaks a rule.
pub(super) fn score<G: Game>(
    row: &MatchRow,
    players: usize,
    entries: &[&SheetEntryRow],
) -> Result<referee::Tallied<G>, Problem> {
    let options: G::Options = stored("options", &row.options)?;
    let tallies = entries
        .iter()
        .map(|e| {
            let tally = e.tally.as_ref().ok_or_else(|| {
                Problem::internal(format!("sheet entry {} is a round without a tally", e.seq))
            })?;
            parse_for_match::<G::Tally>(referee::What::Tally, tally)
        })
        .collect::<Result<Vec<_>, _>>()?;
    referee::tally::<G>(&options, players, &tallies).map_err(|(index, error)| {
        let mut problem = Problem::from(error);
        let mut params = problem
            .params
            .take()
            .unwrap_or_else(|| serde_json::json!({}));
        params["round"] = (index + 1).into();
        problem.params = Some(params);
        problem
    })
}

/// Where a sheet stands: its rounds scored, its standings, and whether it is closed (the game's
/// end rule is met, or the owner finished it early: then the standings name the winners).
pub(super) struct Outcome {
    pub(super) rounds: Vec<SheetRound>,
    pub(super) standings: Standings,
    /// Closed: by the game's end rule or by an early finish.
    pub(super) closed: bool,
    /// Closed by an early finish, the game's end rule not met.
    pub(super) early: bool,
    /// The game's brag figures per seat, once closed.
    pub(super) highlights: Vec<crate::games::Highlights>,
}

impl Outcome {
    pub(super) fn of(
        row: &MatchRow,
        players: usize,
        standing: &Standing<'_>,
    ) -> Result<Self, Problem> {
        if let Some(entry) = standing.imported {
            // An imported play has its final standings and no rounds: it arrived closed.
            let standings: Standings = stored(
                "imported standings",
                entry.imported.as_ref().unwrap_or(&Value::Null),
            )?;
            return Ok(Outcome {
                rounds: Vec::new(),
                standings,
                closed: true,
                early: false,
                highlights: Vec::new(),
            });
        }
        with_game!(kind_of(row)?, G => {
            let tallied = score::<G>(row, players, &standing.rounds)?;
            let early = standing.finish.is_some() && !tallied.over;
            let closed = tallied.over || early;
            let standings = if early {
                // The game's own totals and order, ranked as at the end: the leaders win.
                let s = tallied.standings;
                Standings::rank(s.totals, s.order, true)
            } else {
                tallied.standings
            };
            let rounds = standing
                .rounds
                .iter()
                .zip(&tallied.rounds)
                .map(|(entry, scored)| SheetRound {
                    round: entry.round,
                    entry: entry.seq,
                    points: G::tally_points(scored),
                    score: referee::to_json(scored),
                })
                .collect();
            let highlights = if closed {
                G::tally_highlights(players, &tallied.rounds)
            } else {
                Vec::new()
            };
            Ok(Outcome { rounds, standings, closed, early, highlights })
        })
    }

    /// The sheet's stored snapshot: its scored rounds and standings.
    pub(super) fn state(&self) -> Value {
        serde_json::json!({
            "rounds": self.rounds.iter().map(|r| r.score.clone()).collect::<Vec<_>>(),
            "standings": self.standings,
        })
    }
}

pub(super) fn renamed_of(entry: &SheetEntryRow) -> Option<SeatRenamed> {
    entry
        .renamed
        .as_ref()
        .and_then(|value| SeatRenamed::deserialize(value).ok())
}

pub(super) fn detail(
    row: &MatchRow,
    seats: &[SeatRow],
    entries: &[SheetEntryRow],
) -> Result<SheetDetail, Problem> {
    let kind = kind_of(row)?;
    let standing = standing(entries);
    let outcome = Outcome::of(row, seats.len(), &standing)?;
    let winners = winner_names(&outcome.standings, seats);
    let superseded_by = |seq: i64| {
        entries
            .iter()
            .find(|later| later.corrects == Some(seq))
            .map(|later| later.seq)
    };
    let finished_early = outcome.early && row.status == MatchStatus::Finished;
    Ok(SheetDetail {
        id: row.id,
        game: kind,
        rules_version: row.rules_version.clone(),
        options: row.options.clone(),
        status: row.status,
        version: row.version,
        players: seat_infos(seats),
        rounds: outcome.rounds,
        standings: outcome.standings,
        winners,
        finished_early,
        finished_early_at: standing
            .finish
            .filter(|_| finished_early)
            .map(|entry| entry.created_at),
        entries: entries
            .iter()
            .map(|e| SheetEntry {
                seq: e.seq,
                kind: e.kind,
                round: e.round,
                tally: e.tally.clone(),
                corrects: e.corrects,
                superseded_by: superseded_by(e.seq),
                note: e.note.clone(),
                at: e.created_at,
                by: EntryAuthor::Owner,
                renamed: renamed_of(e),
            })
            .collect(),
        created_at: row.created_at,
        updated_at: row.updated_at,
        finished_at: row.finished_at,
        abandoned: None,
        rematch_of: None,
        rematch: None,
    })
}

/// What a sheet's row alone does not say: how it was abandoned, and the sheets that play it
/// again or that it plays again.
pub(super) async fn complete(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    shown: &mut SheetDetail,
) -> Result<(), Problem> {
    if row.status == MatchStatus::Abandoned {
        shown.abandoned = crate::store::stat_reads::abandon_of(conn, row.id).await?;
    }
    (shown.rematch_of, shown.rematch) = crate::store::lobby::rematch_links(conn, row.id).await?;
    Ok(())
}

/// The answer an entry got when it was made (for a retry with its `Idempotency-Key`): the sheet
/// rebuilt from the entries up to it, with the results and the names it had then.
pub(super) fn answer_at(
    row: &MatchRow,
    seats: &[SeatRow],
    entries: &[SheetEntryRow],
    seq: i64,
) -> Result<SheetDetail, Problem> {
    let upto: Vec<SheetEntryRow> = entries.iter().filter(|e| e.seq <= seq).cloned().collect();
    let at = upto.last().map_or(row.updated_at, |entry| entry.created_at);
    let outcome = Outcome::of(row, seats.len(), &standing(&upto))?;
    let over = outcome.closed.then_some(outcome.standings);
    let mut then = row.clone();
    then.version = seq;
    then.updated_at = at;
    then.status = MatchStatus::of_over(over.is_some());
    then.finished_at = over.as_ref().map(|_| at);
    let mut seats = seats.to_vec();
    // The names as they were: the later renames undone, latest first.
    for later in entries.iter().rev().filter(|e| e.seq > seq) {
        if let Some(renamed) = renamed_of(later) {
            if let Some(seat) = seats.get_mut(renamed.seat) {
                seat.player_name = renamed.old_name;
            }
        }
    }
    let seats: Vec<SeatRow> = seats
        .into_iter()
        .map(|mut seat| {
            let index = seat.seat as usize;
            seat.final_score = over.as_ref().and_then(|s| s.totals.get(index).copied());
            seat.final_rank = over
                .as_ref()
                .and_then(|s| s.ranks.get(index).map(|&r| r as i32));
            seat.winner = over.as_ref().map(|s| s.winners.contains(&index));
            seat
        })
        .collect();
    detail(&then, &seats, &upto)
}

#[tracing::instrument(skip_all, fields(sheet_id = %id, game = tracing::field::Empty))]
pub async fn read(store: &Store, id: Uuid, space: Space) -> Result<SheetDetail, Problem> {
    let mut conn = store.conn().await?;
    let row = found(&mut conn, id).await?;
    check_visible(&row, space)?;
    shown(&mut conn, row).await
}

async fn found(conn: &mut AsyncPgConnection, id: Uuid) -> Result<MatchRow, Problem> {
    q::find(conn, id)
        .await?
        .filter(|r| r.kind == MatchKind::Sheet)
        .ok_or_else(|| unknown_sheet(id))
}

/// A sheet already read (its row) as `GET /v1/sheets/{id}` shows it.
pub(crate) async fn shown(
    conn: &mut AsyncPgConnection,
    row: MatchRow,
) -> Result<SheetDetail, Problem> {
    let id = row.id;
    let seats = q::seats(conn, id).await?;
    let entries = sheet_rows::sheet_entries(conn, id).await?;
    let mut shown = detail(&row, &seats, &entries)?;
    complete(conn, &row, &mut shown).await?;
    Ok(shown)
}
