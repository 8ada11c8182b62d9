//! Score sheets: games played with real cards and dice, recorded one round (or hand) at a time in
//! the game's own terms. Every entry is checked against the rules and scored by the game's own
//! scoring code; totals, ranks, the end of the game and the winners are computed, never typed.
//!
//! Entries are append-only. A correction is a new entry naming the one it supersedes; the sheet
//! shows the rounds as corrected and keeps every entry as the audit trail. What the owner mends or
//! decides is an entry too, never a rewrite: taking the last round away (a `removal`, which
//! supersedes the round's standing entry), renaming a player (a `rename`), ending the sheet early
//! with the standings so far (a `finish`). A sheet's version is always its number of entries.

use chrono::{DateTime, SubsecRound, Utc};
use diesel_async::AsyncPgConnection;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::{Game, GameKind, Order, Seat, Standings};
use crate::payloads::{Json, Payloads};
use crate::problem::{Code, Problem};
use crate::records::{
    check_name, check_names, check_not_abandoned, check_open, check_version, fingerprint,
    idempotency_key_reused, insert_created, kind_of, limit_exceeded, parse_for_match, seat_infos,
    stored, winner_names, NewSeat, SeatInfo,
};
use crate::referee;
use crate::store::created::NewParts;
use crate::store::matches::{self as q, MatchRow, SeatResult, SeatRow};
use crate::store::sheets::{self as sheet_rows, SheetEntryRow};
use crate::store::snapshot::FinishedMatch;
use crate::store::write::{Change, Decision, DecisionOf, Judge, Locked, SheetEntries, Write};
use crate::store::Store;
use crate::vocabulary::{limits, name_key, MatchKind, MatchStatus, RandomnessMode, SheetEntryKind};
use crate::{tokens, with_game};

mod evening;
pub use evening::{
    evening, reissue_owner_token, rematch, Evening, EveningPlayer, EveningSheet, SheetOwnerToken,
};

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
#[schema(example = crate::request_examples::append_entry)]
pub struct AppendEntry {
    /// The sheet version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// The round in the game's terms (the game's `Tally`).
    #[schema(value_type = crate::payloads::any::AnyTally)]
    pub tally: Value,
    /// To correct an entry, its `seq`: this entry then replaces it for the same round.
    #[schema(minimum = 1)]
    pub corrects: Option<i64>,
    /// Free text kept with the entry (up to 500 characters).
    pub note: Option<String>,
}

/// Take the last round away: it was entered by mistake. Recorded as an entry (`removal`) that
/// supersedes the round's standing entry; nothing is deleted.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::request_examples::remove_last_round)]
pub struct RemoveLastRound {
    /// The sheet version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// Why the round goes, kept with the removal (1 to 500 characters).
    #[schema(min_length = 1)]
    pub note: String,
}

/// A player's new name on a sheet.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::request_examples::rename_sheet_player)]
pub struct RenameSheetPlayer {
    /// Checked like a new player's name: no two seats may be one player (look-alikes are one).
    #[schema(min_length = 1)]
    pub name: String,
    /// The sheet version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// Free text kept with the rename (up to 500 characters).
    pub note: Option<String>,
}

/// End the sheet now, with the standings of the rounds entered so far.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::request_examples::finish_sheet)]
pub struct FinishSheet {
    /// The sheet version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// Free text kept with the finish (up to 500 characters).
    pub note: Option<String>,
}

/// Who made an entry: only the sheet's owner token writes to a sheet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EntryAuthor {
    #[default]
    Owner,
}

/// A rename as its entry records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeatRenamed {
    pub seat: Seat,
    /// The name before.
    pub old_name: String,
    /// The name after.
    pub new_name: String,
}

/// One entry as typed, for the audit trail.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct SheetEntry<P: Payloads = Json> {
    pub seq: i64,
    /// What the entry records: a round (or a correction of one), the last round's `removal`, a
    /// player's `rename`, or an early `finish`.
    #[serde(default)]
    #[schema(required = true)]
    pub kind: SheetEntryKind,
    /// A round: the round it describes. A removal: the round it took away. A rename or a finish:
    /// how many rounds stood then.
    pub round: i32,
    /// The round in the game's terms; `null` for the entries that are not rounds.
    #[schema(required = true)]
    pub tally: Option<P::Tally>,
    /// The entry this one corrected (a removal: the standing entry of the round it took away).
    pub corrects: Option<i64>,
    /// The later entry that corrected (or removed) this one; absent while it stands.
    pub superseded_by: Option<i64>,
    pub note: Option<String>,
    pub at: DateTime<Utc>,
    /// Who made it.
    #[serde(default)]
    #[schema(required = true)]
    pub by: EntryAuthor,
    /// A rename's seat, old name and new name.
    #[serde(default)]
    pub renamed: Option<SeatRenamed>,
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
    /// Names of the winners, once the game's end rule is met or the owner finished it early.
    pub winners: Vec<String>,
    /// Whether the owner ended the sheet before the game's end rule was met
    /// (`POST /v1/sheets/{id}/finish`): its result is the standings of the rounds entered.
    #[serde(default)]
    #[schema(required = true)]
    pub finished_early: bool,
    /// When it was finished early (its `finish` entry's time); `null` otherwise.
    #[serde(default)]
    pub finished_early_at: Option<DateTime<Utc>>,
    /// Every entry ever made, corrections included.
    pub entries: Vec<SheetEntry<P>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// Once abandoned: by whom, when, at which version (entries), and whether it had an entry
    /// (then it counts in each player's record as `abandoned`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandoned: Option<crate::store::stat_reads::Abandoned>,
    /// The sheet this one plays again (`POST /v1/sheets/{id}/rematch`), if any.
    #[serde(default)]
    pub rematch_of: Option<Uuid>,
    /// The sheet that plays this one again, once the owner started it: a page showing this sheet
    /// can follow the evening to it.
    #[serde(default)]
    pub rematch: Option<Uuid>,
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
    example = crate::request_examples::create_sheet_of
);
crate::one_of_games!(AnyCreatedSheet = CreatedSheet);
crate::one_of_games!(
    /// A score sheet of whichever game.
    AnySheetDetail = SheetDetail
);

/// The sheet's row, locked for the write to come, once `owner_token` is its owner's.
async fn owned_sheet(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    owner_token: &str,
) -> Result<MatchRow, Problem> {
    let row = q::find_for_update(conn, id)
        .await?
        .ok_or_else(|| unknown_sheet(id))?;
    owners(row, owner_token)
}

/// `row`, once it is a sheet and `owner_token` is its owner's.
fn owners(row: MatchRow, owner_token: &str) -> Result<MatchRow, Problem> {
    if row.kind != MatchKind::Sheet {
        return Err(unknown_sheet(row.id));
    }
    if !tokens::constant_time_eq(&tokens::hash(owner_token), &row.owner_token_hash) {
        return Err(Problem::new(
            Code::InvalidToken,
            "only the sheet's owner token may write to it",
        ));
    }
    Ok(row)
}

fn unknown_sheet(id: Uuid) -> Problem {
    Problem::new(Code::UnknownSheet, format!("no score sheet has id {id}"))
}

/// A sheet's entries as they stand.
struct Standing<'a> {
    /// Each round's latest entry, in round order (a removal takes the last round away).
    rounds: Vec<&'a SheetEntryRow>,
    /// The early finish in force, if the owner ended the sheet early (a later removal undoes it).
    finish: Option<&'a SheetEntryRow>,
    /// The final standings of a play brought in from another score keeper.
    imported: Option<&'a SheetEntryRow>,
}

fn standing(entries: &[SheetEntryRow]) -> Standing<'_> {
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
fn score<G: Game>(
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
struct Outcome {
    rounds: Vec<SheetRound>,
    standings: Standings,
    /// Closed: by the game's end rule or by an early finish.
    closed: bool,
    /// Closed by an early finish, the game's end rule not met.
    early: bool,
    /// The game's brag figures per seat, once closed.
    highlights: Vec<crate::games::Highlights>,
}

impl Outcome {
    fn of(row: &MatchRow, players: usize, standing: &Standing<'_>) -> Result<Self, Problem> {
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
    fn state(&self) -> Value {
        serde_json::json!({
            "rounds": self.rounds.iter().map(|r| r.score.clone()).collect::<Vec<_>>(),
            "standings": self.standings,
        })
    }
}

fn renamed_of(entry: &SheetEntryRow) -> Option<SeatRenamed> {
    entry
        .renamed
        .as_ref()
        .and_then(|value| SeatRenamed::deserialize(value).ok())
}

fn detail(
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
async fn complete(
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
fn answer_at(
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

#[tracing::instrument(skip_all, fields(game = request.game.slug(), sheet_id = tracing::field::Empty))]
pub async fn create(
    store: &Store,
    request: CreateSheet,
    idempotency_key: Option<String>,
) -> Result<CreatedSheet, Problem> {
    let request_hash = fingerprint(&request);
    let new = prepare(&request)?;
    tracing::Span::current().record("sheet_id", tracing::field::display(new.row.id));
    let NewSheet {
        row,
        seats,
        created,
    } = new;
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

/// A sheet checked and ready to store, with its answer (the owner token in it).
pub(crate) struct NewSheet {
    pub row: MatchRow,
    pub seats: Vec<SeatRow>,
    pub created: CreatedSheet,
}

impl NewSheet {
    pub fn parts(&self) -> NewParts<'_> {
        NewParts {
            row: &self.row,
            seats: &self.seats,
            events: &[],
            invites: &[],
        }
    }
}

/// Checks a new sheet's players and options, and makes its rows and a fresh owner token.
pub(crate) fn prepare(request: &CreateSheet) -> Result<NewSheet, Problem> {
    let names = check_names(request.players.iter().map(|p| p.name.as_str()))?;
    let now = Utc::now();
    let id = Uuid::new_v4();
    let (owner_token, owner_hash) = tokens::issue("own").map_err(Problem::internal)?;
    let (options, standings) = with_game!(request.game, G => {
        let options = referee::options::<G>(request.options.clone(), names.len())?;
        let (standings, _) = G::tally_standings(options.options(), names.len(), &[]);
        (referee::to_json(options.options()), standings)
    });
    let state = serde_json::json!({"rounds": [], "standings": standings});
    let (row, seats) = new_rows(id, request.game, options, owner_hash, &names, state, now);
    let sheet = detail(&row, &seats, &[])?;
    let created = CreatedSheet {
        game: sheet.game,
        owner_token,
        sheet,
    };
    Ok(NewSheet {
        row,
        seats,
        created,
    })
}

/// A new sheet's row and seats, before any entry: in progress at version 0, under the rules
/// version this service implements, with checked options and names and the owner token's hash.
/// An imported play starts from these too, and adds its result.
pub(crate) fn new_rows(
    id: Uuid,
    game: GameKind,
    options: Value,
    owner_token_hash: Vec<u8>,
    names: &[String],
    state: Value,
    now: DateTime<Utc>,
) -> (MatchRow, Vec<SeatRow>) {
    let row = MatchRow {
        id,
        game: game.into(),
        rules_version: with_game!(game, G => G::RULES_VERSION).to_owned(),
        options,
        randomness: RandomnessMode::Table,
        seed: None,
        seed_sha256: None,
        owner_token_hash,
        status: MatchStatus::InProgress,
        version: 0,
        state,
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
    let seats = names
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
    (row, seats)
}

#[tracing::instrument(skip_all, fields(sheet_id = %id, game = tracing::field::Empty))]
pub async fn read(store: &Store, id: Uuid) -> Result<SheetDetail, Problem> {
    read_on(&mut *store.conn().await?, id).await
}

/// A sheet as `GET /v1/sheets/{id}` shows it, read on `conn`.
pub(crate) async fn read_on(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> Result<SheetDetail, Problem> {
    let row = q::find(conn, id)
        .await?
        .filter(|r| r.kind == MatchKind::Sheet)
        .ok_or_else(|| unknown_sheet(id))?;
    let seats = q::seats(conn, id).await?;
    let entries = sheet_rows::sheet_entries(conn, id).await?;
    let mut shown = detail(&row, &seats, &entries)?;
    complete(conn, &row, &mut shown).await?;
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

/// A note is kept as typed: no NUL, at most [`limits::NOTE_CHARS`] characters.
fn check_note(note: Option<&str>) -> Result<(), Problem> {
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
fn plan_entry(
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

fn no_round() -> Problem {
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
            let current = seats
                .iter()
                .find(|s| s.seat as Seat == seat)
                .ok_or_else(|| {
                    let mut problem = Problem::new(
                        Code::UnknownSeat,
                        format!(
                            "this sheet has seats 0 to {}",
                            seats.len().saturating_sub(1)
                        ),
                    );
                    problem.params = Some(serde_json::json!({"seat": seat, "seats": seats.len()}));
                    problem
                })?;
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
struct Planned {
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
struct SheetWrite<'a, P> {
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

    fn unknown(id: Uuid) -> Problem {
        unknown_sheet(id)
    }

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
