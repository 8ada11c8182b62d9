//! The owner's writes to a sheet: a round or its correction, taking the last round away, a
//! rename, finishing early. Each is judged here on the locked sheet ([`SheetWrite`]) and written
//! by the store's one write engine ([`crate::store::write`]).

use chrono::{SubsecRound, Utc};
use diesel_async::AsyncPgConnection;
use serde_json::Value;
use uuid::Uuid;

use super::{owners, standing::*, unknown_sheet, wire::*};
use crate::games::{GameKind, Order, Seat};
use crate::problem::{Code, Problem};
use crate::records::{
    check_name, check_names, check_not_abandoned, check_open, check_version, fingerprint,
    idempotency_key_reused, kind_of, limit_exceeded, seat_of,
};
use crate::store::matches::{self as q, MatchRow, SeatResult, SeatRow};
use crate::store::sheets::{self as sheet_rows, SheetEntryRow};
use crate::store::snapshot::FinishedMatch;
use crate::store::write::{Change, Decision, DecisionOf, Judge, Locked, SheetEntries, Write};
use crate::store::Store;
use crate::vocabulary::{limits, SheetEntryKind};

pub(super) fn has_nul(value: &serde_json::Value) -> bool {
    use serde_json::Value;
    match value {
        Value::String(text) => text.contains('\0'),
        Value::Array(items) => items.iter().any(has_nul),
        Value::Object(map) => map.iter().any(|(k, v)| k.contains('\0') || has_nul(v)),
        _ => false,
    }
}

/// The length in characters of the longest text (key or value) in a tally.
pub(super) fn longest_text(value: &Value) -> usize {
    match value {
        Value::String(text) => text.chars().count(),
        Value::Array(items) => items.iter().map(longest_text).max().unwrap_or(0),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| k.chars().count().max(longest_text(v)))
            .max()
            .unwrap_or(0),
        _ => 0,
    }
}

/// A note is kept as typed: no NUL, at most [`limits::NOTE_CHARS`] characters.
pub(super) fn check_note(note: Option<&str>) -> Result<(), Problem> {
    if note.is_some_and(|n| n.contains('\0')) {
        return Err(Problem::new(
            Code::InvalidNote,
            "a note has no NUL characters",
        ));
    }
    if note.is_some_and(|n| n.chars().count() > limits::NOTE_CHARS) {
        return Err(limit_exceeded(
            "note_chars",
            limits::NOTE_CHARS,
            format!("a note has at most {} characters", limits::NOTE_CHARS),
        ));
    }
    Ok(())
}

#[tracing::instrument(skip_all, fields(sheet_id = %id, game = tracing::field::Empty))]
pub async fn append(
    store: &Store,
    id: Uuid,
    token: String,
    idempotency_key: Option<String>,
    request: AppendEntry,
) -> Result<SheetDetail, Problem> {
    check_note(request.note.as_deref())?;
    // The tally is stored as sent (jsonb), which cannot hold `\u0000`, e.g. in a Lucky Luau
    // player name. Well-formed JSON the store cannot keep: 422.
    if has_nul(&request.tally) {
        return Err(Problem::new(
            Code::InvalidTally,
            "text in a tally has no NUL characters",
        ));
    }
    if longest_text(&request.tally) > limits::TALLY_TEXT_CHARS {
        return Err(limit_exceeded(
            "tally_text_chars",
            limits::TALLY_TEXT_CHARS,
            format!(
                "a text in a tally has at most {} characters",
                limits::TALLY_TEXT_CHARS
            ),
        ));
    }
    let write = SheetWrite {
        token: &token,
        idempotency_key: idempotency_key.as_deref(),
        request_hash: fingerprint(&request),
        plan: |row: &MatchRow, _: &[SeatRow], entries: &[SheetEntryRow]| {
            plan_entry(row, entries, &request)
        },
    };
    store.write(id, idempotency_key.as_deref(), write).await
}

/// A round, or the correction of one.
pub(super) fn plan_entry(
    row: &MatchRow,
    entries: &[SheetEntryRow],
    request: &AppendEntry,
) -> Result<Planned, Problem> {
    let round = match request.corrects {
        Some(seq) => {
            let target = entries.iter().find(|e| e.seq == seq).ok_or_else(|| {
                Problem::new(Code::UnknownEntry, format!("this sheet has no entry {seq}"))
            })?;
            if target.kind != SheetEntryKind::Round {
                let mut problem = Problem::new(
                    Code::EntryNotARound,
                    format!(
                        "entry {seq} is a {}, not a round: only rounds are corrected",
                        target.kind.as_str()
                    ),
                );
                problem.params = Some(serde_json::json!({"entry": seq, "kind": target.kind}));
                return Err(problem);
            }
            if entries.iter().any(|e| e.corrects == Some(seq)) {
                return Err(Problem::new(
                    Code::EntrySuperseded,
                    format!("entry {seq} was already corrected; correct the latest entry"),
                ));
            }
            check_not_abandoned(row)?;
            check_version(row, request.expected_version)?;
            // Every entry of the round since it was last taken away, but its first, is a
            // correction.
            let since = entries
                .iter()
                .filter(|e| e.kind == SheetEntryKind::Removal && e.round == target.round)
                .map(|e| e.seq)
                .max()
                .unwrap_or(0);
            let corrections = entries
                .iter()
                .filter(|e| {
                    e.kind == SheetEntryKind::Round && e.round == target.round && e.seq > since
                })
                .count()
                .saturating_sub(1);
            if corrections >= limits::CORRECTIONS_PER_ROUND {
                return Err(limit_exceeded(
                    "corrections_per_round",
                    limits::CORRECTIONS_PER_ROUND,
                    format!(
                        "a round may be corrected at most {} times",
                        limits::CORRECTIONS_PER_ROUND
                    ),
                ));
            }
            target.round
        }
        None => {
            // Closed sheets take corrections only.
            check_open(row, request.expected_version)?;
            standing(entries).rounds.len() as i32 + 1
        }
    };
    Ok(Planned {
        kind: SheetEntryKind::Round,
        round,
        tally: Some(request.tally.clone()),
        corrects: request.corrects,
        note: request.note.clone(),
        rename: None,
    })
}

/// Takes the last round away: an entry that supersedes the round's standing entry. The sheet
/// shows one round fewer; a sheet that was finished (by its end rule or early) reopens, and its
/// results leave its players' statistics.
#[tracing::instrument(skip_all, fields(sheet_id = %id, game = tracing::field::Empty))]
pub async fn remove_last_round(
    store: &Store,
    id: Uuid,
    token: String,
    idempotency_key: Option<String>,
    request: RemoveLastRound,
) -> Result<SheetDetail, Problem> {
    check_note(Some(&request.note))?;
    if request.note.trim().is_empty() {
        return Err(Problem::new(
            Code::NoteRequired,
            "say in the note why the round is taken away",
        ));
    }
    let write = SheetWrite {
        token: &token,
        idempotency_key: idempotency_key.as_deref(),
        request_hash: fingerprint(&request),
        plan: |row: &MatchRow, _: &[SeatRow], entries: &[SheetEntryRow]| {
            check_not_abandoned(row)?;
            check_version(row, request.expected_version)?;
            let standing = standing(entries);
            let last = standing.rounds.last().ok_or_else(no_round)?;
            Ok(Planned {
                kind: SheetEntryKind::Removal,
                round: last.round,
                tally: None,
                corrects: Some(last.seq),
                note: Some(request.note.clone()),
                rename: None,
            })
        },
    };
    store.write(id, idempotency_key.as_deref(), write).await
}

pub(super) fn no_round() -> Problem {
    Problem::new(
        Code::NoRound,
        "this sheet has no round standing: there is no last round to take away or to finish on",
    )
}

/// Renames a player. The seat's name and identity key follow, and whatever the sheet already
/// counts in the players' statistics moves to the new name in the same transaction.
#[tracing::instrument(skip_all, fields(sheet_id = %id, game = tracing::field::Empty))]
pub async fn rename_player(
    store: &Store,
    id: Uuid,
    seat: Seat,
    token: String,
    idempotency_key: Option<String>,
    request: RenameSheetPlayer,
) -> Result<SheetDetail, Problem> {
    check_note(request.note.as_deref())?;
    let name = check_name(&request.name)?;
    let write = SheetWrite {
        token: &token,
        idempotency_key: idempotency_key.as_deref(),
        request_hash: fingerprint(&(seat, &request)),
        plan: |row: &MatchRow, seats: &[SeatRow], entries: &[SheetEntryRow]| {
            check_version(row, request.expected_version)?;
            let current = seat_of(seats, seat, "sheet")?;
            if current.player_name == name {
                return Err(Problem::new(
                    Code::SameName,
                    format!("seat {seat} is already {name:?}"),
                ));
            }
            check_names(seats.iter().map(|s| {
                if s.seat as Seat == seat {
                    name.as_str()
                } else {
                    s.player_name.as_str()
                }
            }))?;
            let renamed = SeatRenamed {
                seat,
                old_name: current.player_name.clone(),
                new_name: name.clone(),
            };
            Ok(Planned {
                kind: SheetEntryKind::Rename,
                round: standing(entries).rounds.len() as i32,
                tally: None,
                corrects: None,
                note: request.note.clone(),
                rename: Some(renamed),
            })
        },
    };
    store.write(id, idempotency_key.as_deref(), write).await
}

/// Why a game's sheet may not be finished early, if it may not: its rules leave no standings to
/// end on before their own end (docs/walkthroughs/score-sheets.md, per game).
pub fn early_finish_refusal(game: GameKind) -> Option<&'static str> {
    match game {
        // The number of rounds (3 or 5) is the table's choice; the most points wins.
        GameKind::LuckyJack => None,
        // Hands or points towards a target the table sets; the game's own order ranks them.
        GameKind::LuckPlus => None,
        // The rulebook's own variant ends on the most coasters won so far.
        GameKind::LuckyDice => None,
        // Rounds until each player has dealt; the highest total wins.
        GameKind::PlusMinus => None,
        GameKind::LuckyLuau => Some(
            "a Lucky Luau game is scored once, when no card is left in the centre: its sheet has \
             one entry, the final leis, and no standings before it",
        ),
    }
}

/// Ends a sheet in progress with the standings so far: ranks and winners from the game's own
/// standings over the rounds entered, the results recorded as at a normal end.
#[tracing::instrument(skip_all, fields(sheet_id = %id, game = tracing::field::Empty))]
pub async fn finish_early(
    store: &Store,
    id: Uuid,
    token: String,
    idempotency_key: Option<String>,
    request: FinishSheet,
) -> Result<SheetDetail, Problem> {
    check_note(request.note.as_deref())?;
    let write = SheetWrite {
        token: &token,
        idempotency_key: idempotency_key.as_deref(),
        request_hash: fingerprint(&request),
        plan: |row: &MatchRow, _: &[SeatRow], entries: &[SheetEntryRow]| {
            check_open(row, request.expected_version)?;
            let game = kind_of(row)?;
            if let Some(why) = early_finish_refusal(game) {
                let mut problem = Problem::new(
                    Code::EarlyFinishNotAllowed,
                    format!("{} sheets cannot be finished early: {why}", game.slug()),
                );
                problem.params = Some(serde_json::json!({"game": game}));
                return Err(problem);
            }
            let rounds = standing(entries).rounds.len();
            if rounds == 0 {
                return Err(no_round());
            }
            Ok(Planned {
                kind: SheetEntryKind::Finish,
                round: rounds as i32,
                tally: None,
                corrects: None,
                note: request.note.clone(),
                rename: None,
            })
        },
    };
    store.write(id, idempotency_key.as_deref(), write).await
}

/// What a write adds to a sheet, once its own checks passed.
pub(super) struct Planned {
    kind: SheetEntryKind,
    round: i32,
    tally: Option<Value>,
    corrects: Option<i64>,
    note: Option<String>,
    rename: Option<SeatRenamed>,
}

/// One write to a sheet by its owner, judged on the locked sheet: every kind of entry goes
/// through the same steps (the owner, a retry's first answer, the limit, the write's own checks),
/// and the store writes the entry and what it changes (rounds, standings, results, names).
pub(super) struct SheetWrite<'a, P> {
    token: &'a str,
    idempotency_key: Option<&'a str>,
    request_hash: Vec<u8>,
    plan: P,
}

impl<P> Judge for SheetWrite<'_, P>
where
    P: FnOnce(&MatchRow, &[SeatRow], &[SheetEntryRow]) -> Result<Planned, Problem> + Send,
{
    type Log = SheetEntries;
    /// The sheet's entries with the new one, to answer from.
    type Reply = Vec<SheetEntryRow>;
    type Output = SheetDetail;
    type Error = Problem;

    async fn judge(
        self,
        conn: &mut AsyncPgConnection,
        locked: Locked<SheetEntryRow>,
    ) -> Result<DecisionOf<Self>, Problem> {
        let Locked {
            row,
            seats,
            earlier,
        } = locked;
        let row = owners(row, self.token)?;
        let id = row.id;
        let mut entries = sheet_rows::sheet_entries(conn, id).await?;
        if let Some(earlier) = earlier {
            if earlier.request_hash.as_deref() != Some(&self.request_hash[..]) {
                return Err(idempotency_key_reused("on this sheet"));
            }
            return answer_at(&row, &seats, &entries, earlier.seq).map(Decision::Answer);
        }
        if entries.len() >= limits::SHEET_ENTRIES {
            return Err(limit_exceeded(
                "sheet_entries",
                limits::SHEET_ENTRIES,
                format!(
                    "a sheet holds at most {} entries, corrections and other changes included",
                    limits::SHEET_ENTRIES
                ),
            ));
        }
        let planned = (self.plan)(&row, &seats, &entries)?;
        // Microseconds, as the store keeps them: a retry's rebuilt answer shows the same instants.
        let now = Utc::now().trunc_subsecs(6);
        let entry = SheetEntryRow {
            match_id: id,
            seq: row.version + 1,
            kind: planned.kind,
            round: planned.round,
            tally: planned.tally,
            corrects: planned.corrects,
            note: planned.note,
            created_at: now,
            idempotency_key: self.idempotency_key.map(str::to_owned),
            request_hash: Some(self.request_hash),
            renamed: planned
                .rename
                .as_ref()
                .map(|r| serde_json::to_value(r).unwrap_or_default()),
            imported: None,
        };
        entries.push(entry.clone());
        let change = match &planned.rename {
            Some(rename) => {
                let seat = seats
                    .iter()
                    .find(|s| s.seat as Seat == rename.seat)
                    .ok_or_else(|| Problem::internal("a renamed seat went missing"))?;
                Change::Rename {
                    seat: seat.clone(),
                    name: rename.new_name.clone(),
                }
            }
            None => {
                let outcome = Outcome::of(&row, seats.len(), &standing(&entries))?;
                let state = outcome.state();
                let finished = outcome.closed.then(|| FinishedMatch {
                    result: serde_json::json!({"standings": state["standings"]}),
                    lowest_wins: outcome.standings.order == Order::LowestWins,
                    seats: SeatResult::of(&outcome.standings, &outcome.highlights),
                });
                Change::Advance { state, finished }
            }
        };
        let write = Write {
            version: entry.seq,
            record: row,
            entries: vec![entry],
            change,
            now,
        };
        Ok(Decision::Write(Box::new(write), entries))
    }

    async fn answer(
        conn: &mut AsyncPgConnection,
        id: Uuid,
        entries: Vec<SheetEntryRow>,
    ) -> Result<SheetDetail, Problem> {
        let row = q::find(conn, id).await?.ok_or_else(|| unknown_sheet(id))?;
        let seats = q::seats(conn, id).await?;
        let mut shown = detail(&row, &seats, &entries)?;
        complete(conn, &row, &mut shown).await?;
        Ok(shown)
    }
}
