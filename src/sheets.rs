//! Score sheets: games played with real cards and dice, recorded one round (or hand) at a time in
//! the game's own terms. Every entry is checked against the rules and scored by the game's own
//! scoring code; totals, ranks, the end of the game and the winners are computed, never typed.
//!
//! Entries are append-only. A correction is a new entry naming the one it supersedes; the sheet
//! shows the rounds as corrected and keeps every entry as the audit trail.

use chrono::{DateTime, SubsecRound, Utc};
use diesel_async::{AsyncConnection, AsyncPgConnection};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::{Game, Order, Standings};
use crate::problem::Problem;
use crate::records::{
    check_names, check_not_abandoned, check_open, check_version, fingerprint,
    idempotency_key_reused, insert_created, kind_of, limit_exceeded, parse_for_match, seat_infos,
    stored, winner_names, NewSeat, SeatInfo,
};
use crate::referee;
use crate::store::created::NewParts;
use crate::store::matches::{self as q, Finished, MatchRow, SeatResult, SeatRow, SheetEntryRow};
use crate::store::Store;
use crate::vocabulary::{limits, name_key, MatchKind, MatchStatus, RandomnessMode};
use crate::wire::{Json, Payloads};
use crate::{tokens, with_game};

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, bound = "")]
#[schema(bound = "P: Payloads")]
pub struct CreateSheet<P: Payloads = Json> {
    pub game: P::Game,
    /// The players, clockwise from seat 0 (as many as the game seats: see the catalogue).
    #[schema(min_items = 2, max_items = 8)]
    pub players: Vec<NewSeat>,
    /// The game's options (e.g. Lucky Jack's `rounds`); omitted fields take their defaults.
    pub options: Option<P::Options>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::examples::append_entry)]
pub struct AppendEntry {
    /// The sheet version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// The round in the game's terms (the game's `Tally`).
    #[schema(value_type = crate::wire::any::AnyTally)]
    pub tally: Value,
    /// To correct an entry, its `seq`: this entry then replaces it for the same round.
    #[schema(minimum = 1)]
    pub corrects: Option<i64>,
    /// Free text kept with the entry (up to 500 characters).
    pub note: Option<String>,
}

/// One entry as typed, for the audit trail.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct SheetEntry<P: Payloads = Json> {
    pub seq: i64,
    pub round: i32,
    pub tally: P::Tally,
    /// The entry this one corrected.
    pub corrects: Option<i64>,
    /// The later entry that corrected this one; absent while it stands.
    pub superseded_by: Option<i64>,
    pub note: Option<String>,
    pub at: DateTime<Utc>,
}

/// A round as it stands after corrections, scored.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct SheetRound<P: Payloads = Json> {
    pub round: i32,
    /// The entry that recorded it (the latest correction, if any).
    pub entry: i64,
    /// Points per seat this round.
    pub points: Vec<i64>,
    /// The game's breakdown of the round.
    pub score: P::TallyScore,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct SheetDetail<P: Payloads = Json> {
    pub id: Uuid,
    pub game: P::Game,
    pub rules_version: String,
    pub options: P::Options,
    pub status: MatchStatus,
    /// Number of entries; send it back as `expected_version`.
    #[schema(minimum = 0)]
    pub version: i64,
    pub players: Vec<SeatInfo>,
    pub rounds: Vec<SheetRound<P>>,
    pub standings: Standings,
    /// Names of the winners, once the game's end rule is met.
    pub winners: Vec<String>,
    /// Every entry ever made, corrections included.
    pub entries: Vec<SheetEntry<P>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// Once abandoned: by whom, when, at which version (entries), and whether it had an entry
    /// (then it counts in each player's record as `abandoned`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandoned: Option<crate::store::stats::Abandoned>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct CreatedSheet<P: Payloads = Json> {
    /// Repeats the sheet's game, so that the reply can be told apart by it like the others.
    pub game: P::Game,
    /// Needed to add entries. Shown only once.
    pub owner_token: String,
    pub sheet: SheetDetail<P>,
}

crate::one_of_games!(
    /// A score sheet to start, of whichever game `game` names.
    AnyCreateSheet = CreateSheet,
    example = crate::examples::create_sheet_of
);
crate::one_of_games!(AnyCreatedSheet = CreatedSheet);
crate::one_of_games!(
    /// A score sheet of whichever game.
    AnySheetDetail = SheetDetail
);

fn unknown_sheet(id: Uuid) -> Problem {
    Problem::not_found("unknown_sheet", format!("no score sheet has id {id}"))
}

/// The rounds as they stand: each round's latest entry, in round order.
fn standing_entries(entries: &[SheetEntryRow]) -> Vec<&SheetEntryRow> {
    let mut rounds: Vec<&SheetEntryRow> = Vec::new();
    for entry in entries {
        let index = entry.round as usize - 1;
        if index < rounds.len() {
            rounds[index] = entry;
        } else {
            rounds.push(entry);
        }
    }
    rounds
}

/// The rounds scored by the game, or the refusal naming the round that breaks a rule.
fn score<G: Game>(
    row: &MatchRow,
    players: usize,
    entries: &[&SheetEntryRow],
) -> Result<referee::Tallied<G>, Problem> {
    let options: G::Options = stored("options", &row.options)?;
    let tallies = entries
        .iter()
        .map(|e| parse_for_match::<G::Tally>(referee::What::Tally, &e.tally))
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

fn detail(
    row: &MatchRow,
    seats: &[SeatRow],
    entries: &[SheetEntryRow],
) -> Result<SheetDetail, Problem> {
    let kind = kind_of(row)?;
    let standing = standing_entries(entries);
    let (rounds, standings) = with_game!(kind, G => {
        let tallied = score::<G>(row, seats.len(), &standing)?;
        let rounds = standing
            .iter()
            .zip(&tallied.rounds)
            .map(|(entry, scored)| SheetRound {
                round: entry.round,
                entry: entry.seq,
                points: G::tally_points(scored),
                score: referee::to_json(scored),
            })
            .collect::<Vec<_>>();
        (rounds, tallied.standings)
    });
    let winners = winner_names(&standings, seats);
    let superseded_by = |seq: i64| {
        entries
            .iter()
            .find(|later| later.corrects == Some(seq))
            .map(|later| later.seq)
    };
    Ok(SheetDetail {
        id: row.id,
        game: kind,
        rules_version: row.rules_version.clone(),
        options: row.options.clone(),
        status: row.status,
        version: row.version,
        players: seat_infos(seats),
        rounds,
        standings,
        winners,
        entries: entries
            .iter()
            .map(|e| SheetEntry {
                seq: e.seq,
                round: e.round,
                tally: e.tally.clone(),
                corrects: e.corrects,
                superseded_by: superseded_by(e.seq),
                note: e.note.clone(),
                at: e.created_at,
            })
            .collect(),
        created_at: row.created_at,
        updated_at: row.updated_at,
        finished_at: row.finished_at,
        abandoned: None,
    })
}

/// The answer an entry got when it was made (for a retry with its `Idempotency-Key`): the sheet
/// rebuilt from the entries up to it, with the results it had then.
fn answer_at(
    row: &MatchRow,
    seats: &[SeatRow],
    entries: &[SheetEntryRow],
    seq: i64,
) -> Result<SheetDetail, Problem> {
    let upto: Vec<SheetEntryRow> = entries.iter().filter(|e| e.seq <= seq).cloned().collect();
    let at = upto.last().map_or(row.updated_at, |entry| entry.created_at);
    let standing = standing_entries(&upto);
    let over = with_game!(kind_of(row)?, G => {
        let tallied = score::<G>(row, seats.len(), &standing)?;
        tallied.over.then_some(tallied.standings)
    });
    let mut then = row.clone();
    then.version = seq;
    then.updated_at = at;
    then.status = MatchStatus::of_over(over.is_some());
    then.finished_at = over.as_ref().map(|_| at);
    let seats: Vec<SeatRow> = seats
        .iter()
        .map(|seat| {
            let index = seat.seat as usize;
            let mut seat = seat.clone();
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

#[tracing::instrument(skip_all, fields(game = request.game.slug(), sheet_id = tracing::field::Empty))]
pub async fn create(
    store: &Store,
    request: CreateSheet,
    idempotency_key: Option<String>,
) -> Result<CreatedSheet, Problem> {
    let request_hash = fingerprint(&request);
    let names = check_names(request.players.iter().map(|p| p.name.as_str()))?;
    let now = Utc::now();
    let id = Uuid::new_v4();
    tracing::Span::current().record("sheet_id", tracing::field::display(id));
    let (owner_token, owner_hash) = tokens::issue("own").map_err(Problem::internal)?;
    let (options, rules_version, standings) = with_game!(request.game, G => {
        let options = referee::options::<G>(request.options.clone(), names.len())?;
        let (standings, _) = G::tally_standings(options.options(), names.len(), &[]);
        (referee::to_json(options.options()), G::RULES_VERSION, standings)
    });
    let row = MatchRow {
        id,
        game: request.game.into(),
        rules_version: rules_version.to_owned(),
        options,
        randomness: RandomnessMode::Table,
        seed: None,
        seed_sha256: None,
        owner_token_hash: owner_hash,
        status: MatchStatus::InProgress,
        version: 0,
        state: serde_json::json!({"rounds": [], "standings": standings}),
        result: None,
        created_at: now,
        updated_at: now,
        finished_at: None,
        kind: MatchKind::Sheet,
        lowest_wins: None,
        // A sheet has no chance to report: the column keeps its default.
        chance_reporters: Default::default(),
        access_version: 0,
    };
    let seats: Vec<SeatRow> = names
        .iter()
        .enumerate()
        .map(|(seat, name)| SeatRow {
            match_id: id,
            seat: seat as i32,
            player_name: name.clone(),
            player_key: name_key(name),
            token_hash: None,
            final_score: None,
            final_rank: None,
            winner: None,
            highlights: None,
        })
        .collect();
    let sheet = detail(&row, &seats, &[])?;
    let created = CreatedSheet {
        game: sheet.game,
        owner_token,
        sheet,
    };
    insert_created(
        store,
        "sheet",
        idempotency_key.as_deref(),
        request_hash,
        NewParts {
            row: &row,
            seats: &seats,
            events: &[],
            invites: &[],
        },
        created,
    )
    .await
}

#[tracing::instrument(skip_all, fields(sheet_id = %id, game = tracing::field::Empty))]
pub async fn read(store: &Store, id: Uuid) -> Result<SheetDetail, Problem> {
    let mut conn = store.conn().await?;
    let row = q::find(&mut conn, id)
        .await?
        .filter(|r| r.kind == MatchKind::Sheet)
        .ok_or_else(|| unknown_sheet(id))?;
    let seats = q::seats(&mut conn, id).await?;
    let entries = q::sheet_entries(&mut conn, id).await?;
    let mut shown = detail(&row, &seats, &entries)?;
    if row.status == MatchStatus::Abandoned {
        shown.abandoned = crate::store::stats::abandon_of(&mut conn, id).await?;
    }
    Ok(shown)
}

fn has_nul(value: &serde_json::Value) -> bool {
    use serde_json::Value;
    match value {
        Value::String(text) => text.contains('\0'),
        Value::Array(items) => items.iter().any(has_nul),
        Value::Object(map) => map.iter().any(|(k, v)| k.contains('\0') || has_nul(v)),
        _ => false,
    }
}

/// The length in characters of the longest text (key or value) in a tally.
fn longest_text(value: &Value) -> usize {
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

#[tracing::instrument(skip_all, fields(sheet_id = %id, game = tracing::field::Empty))]
pub async fn append(
    store: &Store,
    id: Uuid,
    token: String,
    idempotency_key: Option<String>,
    request: AppendEntry,
) -> Result<SheetDetail, Problem> {
    if request.note.as_deref().is_some_and(|n| n.contains('\0')) {
        return Err(Problem::unprocessable(
            "invalid_note",
            "a note has no NUL characters",
        ));
    }
    if request
        .note
        .as_deref()
        .is_some_and(|n| n.chars().count() > limits::NOTE_CHARS)
    {
        return Err(limit_exceeded(
            "note_chars",
            limits::NOTE_CHARS,
            format!("a note has at most {} characters", limits::NOTE_CHARS),
        ));
    }
    // The tally is stored as sent (jsonb), which cannot hold `\u0000`, e.g. in a Lucky Luau
    // player name. Well-formed JSON the store cannot keep: 422.
    if has_nul(&request.tally) {
        return Err(Problem::unprocessable(
            "invalid_tally",
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
    let mut conn = store.conn().await?;
    let request = &request;
    let token = &token;
    let key = idempotency_key.as_deref();
    conn.transaction(async |conn| append_in(conn, id, token, key, request).await)
        .await
}

async fn append_in(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    token: &str,
    idempotency_key: Option<&str>,
    request: &AppendEntry,
) -> Result<SheetDetail, Problem> {
    let row = q::find_for_update(conn, id)
        .await?
        .filter(|r| r.kind == MatchKind::Sheet)
        .ok_or_else(|| unknown_sheet(id))?;
    if !tokens::constant_time_eq(&tokens::hash(token), &row.owner_token_hash) {
        return Err(Problem::unauthorized(
            "only the sheet's owner token may add entries",
        ));
    }
    let seats = q::seats(conn, id).await?;
    let mut entries = q::sheet_entries(conn, id).await?;
    let request_hash = fingerprint(request);
    if let Some(key) = idempotency_key {
        if let Some(earlier) = entries
            .iter()
            .find(|e| e.idempotency_key.as_deref() == Some(key))
        {
            if earlier.request_hash.as_deref() != Some(&request_hash[..]) {
                return Err(idempotency_key_reused("on this sheet"));
            }
            return answer_at(&row, &seats, &entries, earlier.seq);
        }
    }
    if entries.len() >= limits::SHEET_ENTRIES {
        return Err(limit_exceeded(
            "sheet_entries",
            limits::SHEET_ENTRIES,
            format!(
                "a sheet holds at most {} entries, corrections included",
                limits::SHEET_ENTRIES
            ),
        ));
    }
    let round = match request.corrects {
        Some(seq) => {
            let target = entries.iter().find(|e| e.seq == seq).ok_or_else(|| {
                Problem::unprocessable("unknown_entry", format!("this sheet has no entry {seq}"))
            })?;
            if entries.iter().any(|e| e.corrects == Some(seq)) {
                return Err(Problem::unprocessable(
                    "entry_superseded",
                    format!("entry {seq} was already corrected; correct the latest entry"),
                ));
            }
            check_not_abandoned(&row)?;
            check_version(&row, request.expected_version)?;
            // Every entry of the round but its first is a correction.
            let corrections = entries.iter().filter(|e| e.round == target.round).count() - 1;
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
            check_open(&row, request.expected_version)?;
            standing_entries(&entries).len() as i32 + 1
        }
    };
    // Microseconds, as the store keeps them: a retry's rebuilt answer shows the same instants.
    let now = Utc::now().trunc_subsecs(6);
    let entry = SheetEntryRow {
        match_id: id,
        seq: row.version + 1,
        round,
        tally: request.tally.clone(),
        corrects: request.corrects,
        note: request.note.clone(),
        created_at: now,
        idempotency_key: idempotency_key.map(str::to_owned),
        request_hash: Some(request_hash),
    };
    entries.push(entry.clone());
    let standing = standing_entries(&entries);
    let (state, finished) = with_game!(kind_of(&row)?, G => {
        let tallied = score::<G>(&row, seats.len(), &standing)?;
        let state = serde_json::json!({
            "rounds": tallied.rounds.iter().map(referee::to_json).collect::<Vec<_>>(),
            "standings": tallied.standings,
        });
        let finished = tallied.over.then(|| {
            let highlights = G::tally_highlights(seats.len(), &tallied.rounds);
            let lowest_wins = tallied.standings.order == Order::LowestWins;
            (SeatResult::of(&tallied.standings, &highlights), lowest_wins)
        });
        (state, finished)
    });
    q::append_sheet_entry(conn, &entry).await?;
    let result = serde_json::json!({"standings": state["standings"]});
    q::advance(
        conn,
        &row,
        entry.seq,
        &state,
        finished.as_ref().map(|(seats, lowest_wins)| Finished {
            result: &result,
            lowest_wins: *lowest_wins,
            seats,
        }),
        now,
    )
    .await?;
    let row = q::find(conn, id).await?.ok_or_else(|| unknown_sheet(id))?;
    let seats = q::seats(conn, id).await?;
    detail(&row, &seats, &entries)
}
