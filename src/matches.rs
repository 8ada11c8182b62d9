//! Hosted matches: the referee applied to state kept in PostgreSQL.
//!
//! Accepting a move is one transaction: lock the match row, check the token, replay an
//! idempotent retry or check the version, let the referee play the move (and, for server
//! randomness, every chance event it triggers), append the events, move the snapshot forward.

use chrono::{DateTime, Utc};
use diesel_async::{AsyncConnection, AsyncPgConnection};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::{Game, GameKind, Seat, Standings, Viewer};
use crate::problem::Problem;
use crate::referee::{self, GameInput, Input, RefereeError, ScoreReply};
use crate::seed::Seed;
use crate::store::matches::{self as q, EventRow, MatchRow, SeatResult, SeatRow};
use crate::store::Store;
use crate::{tokens, with_game};

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
    fn as_str(self) -> &'static str {
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

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "game": "lucky-jack",
    "seats": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cleo"}],
    "options": {"rounds": 3},
    "randomness": "server"
}))]
pub struct CreateMatch {
    pub game: GameKind,
    /// One entry per seat, clockwise from seat 0 (as many as the game seats: see the catalogue).
    #[schema(min_items = 2, max_items = 8)]
    pub seats: Vec<NewSeat>,
    /// The game's options (see the catalogue); omitted fields take their defaults.
    #[schema(value_type = Option<crate::games::any::AnyOptions>)]
    pub options: Option<Value>,
    #[serde(default)]
    pub randomness: RandomnessMode,
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

/// A match as one viewer may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchDetail {
    pub id: Uuid,
    pub game: GameKind,
    pub rules_version: String,
    pub randomness: RandomnessMode,
    pub status: MatchStatus,
    /// Number of events in the log; send it back as `expected_version`.
    pub version: i64,
    #[schema(value_type = crate::games::any::AnyOptions)]
    pub options: Value,
    pub seats: Vec<SeatInfo>,
    /// Whose eyes `view` is for: the token's seat, the owner (full), or a spectator. Once the
    /// match is over everything is public.
    pub viewer: Viewer,
    pub to_act: Vec<Seat>,
    pub chance_pending: bool,
    /// The game's view of the state for `viewer` (its schema is the game's `View`).
    #[schema(value_type = crate::games::any::AnyView)]
    pub view: Value,
    pub standings: Standings,
    /// SHA-256 of the seed (server randomness), published from the start.
    pub seed_sha256: Option<String>,
    /// The seed itself, revealed once the match is over.
    pub seed: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatToken {
    pub seat: Seat,
    pub name: String,
    /// Send as `Authorization: Bearer <token>` to move for this seat. Shown only once.
    pub token: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreatedMatch {
    /// Full view, chance reports, moves for any seat, export before the end. Shown only once.
    pub owner_token: String,
    pub seat_tokens: Vec<SeatToken>,
    #[serde(rename = "match")]
    pub detail: MatchDetail,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expected_version": 1, "move": {"type": "discard", "card": "bell"}}))]
pub struct SubmitMove {
    /// The match version the client last saw; a different current version is a 409.
    pub expected_version: Option<i64>,
    /// The seat to move for: implied by a seat token, required with the owner token.
    pub seat: Option<Seat>,
    /// The game's move (its schema is the game's `Move`).
    #[serde(rename = "move")]
    #[schema(value_type = crate::games::any::AnyMove)]
    pub mv: Value,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expected_version": 3, "outcome": {"kind": "draw", "cards": ["bell", "lemon"]}}))]
pub struct SubmitChance {
    pub expected_version: Option<i64>,
    /// What happened at the table (its schema is the game's `Chance`).
    #[schema(value_type = crate::games::any::AnyChance)]
    pub outcome: Value,
}

/// One ply of the log as a viewer may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LogEntry {
    pub ply: i64,
    /// The seat that moved; absent for chance (a deal, a draw, a roll).
    pub seat: Option<Seat>,
    /// The move as submitted: shown to its seat and to the owner.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::games::any::AnyMove>)]
    pub mv: Option<Value>,
    /// The chance outcome: shown to the owner only (it holds hidden cards).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::games::any::AnyChance>)]
    pub chance: Option<Value>,
    /// What happened, with cards the viewer may not see left out.
    #[schema(value_type = Vec<crate::games::any::AnyEvent>)]
    pub events: Vec<Value>,
    pub at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MoveReply {
    pub version: i64,
    pub status: MatchStatus,
    pub to_act: Vec<Seat>,
    pub chance_pending: bool,
    /// The plies this request added: the move, then any chance it triggered.
    pub entries: Vec<LogEntry>,
    /// The state after the move, for the submitter.
    #[schema(value_type = crate::games::any::AnyView)]
    pub view: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchLog {
    pub version: i64,
    pub entries: Vec<LogEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlyView {
    pub ply: i64,
    pub to_act: Vec<Seat>,
    pub chance_pending: bool,
    pub over: bool,
    #[schema(value_type = crate::games::any::AnyView)]
    pub view: Value,
    pub standings: Standings,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchResult {
    pub status: MatchStatus,
    pub seats: Vec<SeatInfo>,
    /// Names of the winners (several on a shared win); empty while the match is in progress.
    pub winners: Vec<String>,
    #[serde(flatten)]
    pub score: ScoreReply,
}

/// One log input as exported: a seat's move or a chance outcome.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportedInput {
    pub ply: i64,
    pub seat: Option<Seat>,
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::games::any::AnyMove>)]
    pub mv: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::games::any::AnyChance>)]
    pub chance: Option<Value>,
}

/// Everything needed to replay a match and check it: rules version, options, players, the whole
/// log and, once over, the seed whose hash was published at creation.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchExport {
    /// Always `referee.match/1`.
    pub format: String,
    pub id: Uuid,
    pub game: GameKind,
    pub rules_version: String,
    #[schema(value_type = crate::games::any::AnyOptions)]
    pub options: Value,
    /// Player names by seat.
    pub players: Vec<String>,
    pub randomness: RandomnessMode,
    pub seed_sha256: Option<String>,
    pub seed: Option<String>,
    pub status: MatchStatus,
    pub version: i64,
    pub log: Vec<ExportedInput>,
    pub result: Option<ScoreReply>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// A row of the match list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchSummary {
    pub id: Uuid,
    pub kind: MatchKind,
    pub game: GameKind,
    pub status: MatchStatus,
    pub version: i64,
    pub players: Vec<String>,
    pub winners: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchPage {
    pub items: Vec<MatchSummary>,
    /// How many matches the filters select in all pages.
    pub total: i64,
    /// Pass as `cursor` for the next (older) page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// What a presented token proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    Owner,
    Seat(Seat),
    Anonymous,
}

fn unknown_match(id: Uuid) -> Problem {
    Problem::not_found(
        "unknown_match",
        format!("no hosted match has id {id} (score sheets are under /v1/sheets)"),
    )
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

fn mode_of(row: &MatchRow) -> RandomnessMode {
    if row.randomness == "table" {
        RandomnessMode::Table
    } else {
        RandomnessMode::Server
    }
}

fn seed_of(row: &MatchRow) -> Result<Option<Seed>, Problem> {
    row.seed
        .as_deref()
        .map(|hex| Seed::from_hex(hex).ok_or_else(|| Problem::internal("stored seed is not hex")))
        .transpose()
}

/// Checks a presented token against the match's owner and seats. A token that matches nothing is
/// refused rather than downgraded to a spectator, so a typo never looks like "no moves allowed".
pub fn authenticate(
    row: &MatchRow,
    seats: &[SeatRow],
    token: Option<&str>,
) -> Result<Credential, Problem> {
    let Some(token) = token else {
        return Ok(Credential::Anonymous);
    };
    let presented = tokens::hash(token);
    if tokens::constant_time_eq(&presented, &row.owner_token_hash) {
        return Ok(Credential::Owner);
    }
    seats
        .iter()
        .find(|s| {
            s.token_hash
                .as_deref()
                .is_some_and(|hash| tokens::constant_time_eq(&presented, hash))
        })
        .map(|s| Credential::Seat(s.seat as Seat))
        .ok_or_else(|| Problem::unauthorized("the token belongs to no seat of this match"))
}

fn viewer_for(row: &MatchRow, credential: Credential) -> Viewer {
    if row.status == "finished" {
        return Viewer::Full;
    }
    match credential {
        Credential::Owner => Viewer::Full,
        Credential::Seat(seat) => Viewer::Seat(seat),
        Credential::Anonymous => Viewer::Spectator,
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

// ---------------------------------------------------------------------------------------------
// Creating and reading

pub async fn create(store: &Store, request: CreateMatch) -> Result<CreatedMatch, Problem> {
    let names = request
        .seats
        .iter()
        .map(|s| check_name(&s.name))
        .collect::<Result<Vec<_>, _>>()?;
    let now = Utc::now();
    let id = Uuid::new_v4();
    let (owner_token, owner_hash) = tokens::issue("own").map_err(Problem::internal)?;
    let mut seat_tokens = Vec::new();
    let mut seat_rows = Vec::new();
    for (seat, name) in names.iter().enumerate() {
        let (token, token_hash) = tokens::issue("seat").map_err(Problem::internal)?;
        seat_rows.push(SeatRow {
            match_id: id,
            seat: seat as i32,
            player_name: name.clone(),
            token_hash: Some(token_hash),
            final_score: None,
            final_rank: None,
            winner: None,
            highlights: None,
        });
        seat_tokens.push(SeatToken {
            seat,
            name: name.clone(),
            token,
        });
    }
    let seed = match request.randomness {
        RandomnessMode::Server => Some(Seed::generate().map_err(Problem::internal)?),
        RandomnessMode::Table => None,
    };

    let (row, events) = with_game!(request.game, G => {
        let options = referee::options::<G>(request.options.clone(), names.len())?;
        let mut state = G::setup(options.clone(), names.len());
        let mut events = Vec::new();
        if let Some(seed) = &seed {
            for (index, (outcome, _)) in
                referee::resolve_from_seed::<G>(&mut state, seed, 1).into_iter().enumerate()
            {
                events.push(event_row(id, index as i64 + 1, None, referee::to_json(&outcome), now));
            }
        }
        let over = G::is_over(&state);
        let row = MatchRow {
            id,
            game: G::KIND.slug().to_owned(),
            rules_version: G::RULES_VERSION.to_owned(),
            options: referee::to_json(&options),
            randomness: request.randomness.as_str().to_owned(),
            seed: seed.as_ref().map(Seed::to_hex),
            seed_sha256: seed.as_ref().map(Seed::sha256_hex),
            owner_token_hash: owner_hash,
            status: if over { "finished" } else { "in_progress" }.to_owned(),
            version: events.len() as i64,
            state: referee::to_json(&state),
            result: None,
            created_at: now,
            updated_at: now,
            finished_at: over.then_some(now),
            kind: "hosted".to_owned(),
        };
        (row, events)
    });

    let mut conn = store.conn().await?;
    q::insert(&mut conn, &row, &seat_rows, &events).await?;
    let detail = detail(&row, &seat_rows, Credential::Owner)?;
    Ok(CreatedMatch {
        owner_token,
        seat_tokens,
        detail,
    })
}

fn event_row(
    id: Uuid,
    ply: i64,
    seat: Option<Seat>,
    payload: Value,
    now: DateTime<Utc>,
) -> EventRow {
    EventRow {
        match_id: id,
        ply,
        seat: seat.map(|s| s as i32),
        payload,
        idempotency_key: None,
        request_hash: None,
        response: None,
        created_at: now,
    }
}

fn detail(
    row: &MatchRow,
    seats: &[SeatRow],
    credential: Credential,
) -> Result<MatchDetail, Problem> {
    let viewer = viewer_for(row, credential);
    let kind = kind_of(row)?;
    let finished = row.status == "finished";
    with_game!(kind, G => {
        let state: <G as Game>::State = stored("state", row.state.clone())?;
        Ok(MatchDetail {
            id: row.id,
            game: kind,
            rules_version: row.rules_version.clone(),
            randomness: mode_of(row),
            status: MatchStatus::of(&row.status),
            version: row.version,
            options: row.options.clone(),
            seats: seat_infos(seats),
            viewer,
            to_act: G::to_act(&state),
            chance_pending: G::chance_pending(&state),
            view: referee::to_json(&G::view(&state, viewer)),
            standings: G::standings(&state),
            seed_sha256: row.seed_sha256.clone(),
            seed: if finished { row.seed.clone() } else { None },
            created_at: row.created_at,
            updated_at: row.updated_at,
            finished_at: row.finished_at,
        })
    })
}

/// Loads a match and checks the presented token.
async fn load(
    store: &Store,
    id: Uuid,
    token: Option<&str>,
) -> Result<(crate::store::Conn, MatchRow, Vec<SeatRow>, Credential), Problem> {
    let mut conn = store.conn().await?;
    let row = q::find(&mut conn, id)
        .await?
        .filter(|r| r.kind == "hosted")
        .ok_or_else(|| unknown_match(id))?;
    let seats = q::seats(&mut conn, id).await?;
    let credential = authenticate(&row, &seats, token)?;
    Ok((conn, row, seats, credential))
}

pub async fn read(store: &Store, id: Uuid, token: Option<&str>) -> Result<MatchDetail, Problem> {
    let (_, row, seats, credential) = load(store, id, token).await?;
    detail(&row, &seats, credential)
}

// ---------------------------------------------------------------------------------------------
// Moves and chance reports

/// A fingerprint of what a request asked for, to tell an honest retry from a reused key.
fn fingerprint(credential: Credential, seat: Option<Seat>, body: &Value) -> Vec<u8> {
    let text = format!("{credential:?}|{seat:?}|{body}");
    Sha256::digest(text.as_bytes()).to_vec()
}

/// An idempotent retry: the first answer again, or a refusal if the key was used for another
/// request.
fn earlier_answer(previous: EventRow, request_hash: &[u8]) -> Result<MoveReply, Problem> {
    if previous.request_hash.as_deref() != Some(request_hash) {
        return Err(Problem::unprocessable(
            "idempotency_key_reused",
            "this Idempotency-Key was already used for a different request on this match",
        ));
    }
    let answer = previous
        .response
        .ok_or_else(|| Problem::internal("idempotent event has no stored response"))?;
    stored("response", answer)
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

/// What one request wants to add to a log, before the token says which seat it is for.
enum Submission {
    Move { seat: Option<Seat>, mv: Value },
    Chance(Value),
}

struct Request {
    id: Uuid,
    token: Option<String>,
    expected_version: Option<i64>,
    idempotency_key: Option<String>,
}

pub async fn submit_move(
    store: &Store,
    id: Uuid,
    token: Option<String>,
    idempotency_key: Option<String>,
    body: SubmitMove,
) -> Result<MoveReply, Problem> {
    let request = Request {
        id,
        token,
        expected_version: body.expected_version,
        idempotency_key,
    };
    let submission = Submission::Move {
        seat: body.seat,
        mv: body.mv,
    };
    submit(store, request, submission).await
}

pub async fn submit_chance(
    store: &Store,
    id: Uuid,
    token: Option<String>,
    idempotency_key: Option<String>,
    body: SubmitChance,
) -> Result<MoveReply, Problem> {
    let request = Request {
        id,
        token,
        expected_version: body.expected_version,
        idempotency_key,
    };
    submit(store, request, Submission::Chance(body.outcome)).await
}

async fn submit(
    store: &Store,
    request: Request,
    submission: Submission,
) -> Result<MoveReply, Problem> {
    let mut conn = store.conn().await?;
    let submission = &submission;
    let request = &request;
    // Most moves take the optimistic path: read without a lock, then write with one statement
    // that applies only if the match is still where it was read. A move that loses that race
    // is read and played again; a move that ends the match (it also updates the players'
    // totals) or keeps losing takes the locked transaction.
    for _ in 0..3 {
        match run_submission(&mut conn, request, submission, Write::IfCurrent).await? {
            Played::Done(reply) => return Ok(reply),
            Played::Raced => continue,
            Played::NeedsLock => break,
        }
    }
    let played = conn
        .transaction(async |conn| run_submission(conn, request, submission, Write::Locked).await)
        .await?;
    match played {
        Played::Done(reply) => Ok(reply),
        Played::Raced | Played::NeedsLock => {
            Err(Problem::internal("a locked move cannot lose a race"))
        }
    }
}

/// How a submission reads and writes the match.
#[derive(Clone, Copy, PartialEq)]
enum Write {
    /// Inside a transaction, with the match row locked.
    Locked,
    /// Unlocked read, and a write that applies only if the match has not moved since.
    IfCurrent,
}

enum Played {
    Done(MoveReply),
    /// Another move was stored first: nothing was written.
    Raced,
    /// This move needs the locked transaction; nothing was written.
    NeedsLock,
}

async fn run_submission(
    conn: &mut AsyncPgConnection,
    request: &Request,
    submission: &Submission,
    write: Write,
) -> Result<Played, Problem> {
    let row = match write {
        Write::Locked => q::find_for_update(conn, request.id).await?,
        Write::IfCurrent => q::find(conn, request.id).await?,
    };
    let row = row
        .filter(|r| r.kind == "hosted")
        .ok_or_else(|| unknown_match(request.id))?;
    let seats = q::seats(conn, request.id).await?;
    let credential = authenticate(&row, &seats, request.token.as_deref())?;
    if credential == Credential::Anonymous {
        return Err(Problem::unauthorized(
            "send a seat token or the owner token as `Authorization: Bearer <token>`",
        ));
    }
    let (seat, payload) = match submission {
        Submission::Move { seat, mv } => (Some(acting_seat(credential, *seat)?), mv),
        Submission::Chance(outcome) => {
            if mode_of(&row) == RandomnessMode::Server {
                return Err(Problem::conflict(
                    "server_randomness",
                    "this match draws its own chance from its seed; outcomes cannot be reported",
                ));
            }
            (None, outcome)
        }
    };
    let request_hash = fingerprint(credential, seat, payload);
    if let Some(key) = &request.idempotency_key {
        if let Some(previous) = q::event_by_idempotency_key(conn, request.id, key).await? {
            return earlier_answer(previous, &request_hash).map(Played::Done);
        }
    }
    check_open(&row, request.expected_version)?;
    let accepted = Accepted {
        viewer: viewer_for(&row, credential),
        seat,
        payload: payload.clone(),
        idempotency_key: request.idempotency_key.clone(),
        request_hash,
    };
    let kind = kind_of(&row)?;
    let is_move = accepted.seat.is_some();
    let outcome = with_game!(kind, G => advance::<G>(conn, &row, accepted, write).await);
    match &outcome {
        Ok(Played::Raced | Played::NeedsLock) => {}
        _ if !is_move => {}
        Ok(Played::Done(_)) => crate::metrics::METRICS.record_move(kind.slug(), None),
        Err(problem) => crate::metrics::METRICS.record_move(kind.slug(), Some(&problem.code)),
    }
    outcome
}

/// The seat a move is for: the seat token's own, or the one the owner names.
fn acting_seat(credential: Credential, requested: Option<Seat>) -> Result<Seat, Problem> {
    match (credential, requested) {
        (Credential::Seat(own), None) => Ok(own),
        (Credential::Seat(own), Some(seat)) if seat == own => Ok(own),
        (Credential::Seat(own), Some(seat)) => Err(Problem::forbidden(
            "wrong_seat",
            format!("this token is for seat {own}, not seat {seat}"),
        )),
        (Credential::Owner, Some(seat)) => Ok(seat),
        (Credential::Owner, None) => Err(Problem::unprocessable(
            "seat_required",
            "with the owner token, name the seat to move for in `seat`",
        )),
        (Credential::Anonymous, _) => Err(Problem::unauthorized("a token is required")),
    }
}

/// A request that passed the match-level checks.
struct Accepted {
    viewer: Viewer,
    seat: Option<Seat>,
    payload: Value,
    idempotency_key: Option<String>,
    request_hash: Vec<u8>,
}

/// Plays the request, resolves server chance, appends the events and moves the snapshot forward.
async fn advance<G: Game>(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    accepted: Accepted,
    write: Write,
) -> Result<Played, Problem> {
    let mut state: G::State = stored("state", row.state.clone())?;
    let input: GameInput<G> = match accepted.seat {
        Some(seat) => Input::Move {
            seat,
            mv: parse_for_match("move", &accepted.payload)?,
        },
        None => Input::Chance(parse_for_match("chance", &accepted.payload)?),
    };
    let first_events = referee::play_input::<G>(&mut state, &input)?;
    // The parsed input is what is stored, not the raw text: serde ignores unknown fields of unit
    // variants (`{"type": "draw", "x": …}`), and jsonb cannot hold what they may carry (`\u0000`).
    let payload = match &input {
        Input::Move { mv, .. } => referee::to_json(mv),
        Input::Chance(outcome) => referee::to_json(outcome),
    };
    let mut plies = vec![(accepted.seat, payload, first_events)];
    if let Some(seed) = seed_of(row)? {
        let next_ply = row.version as u64 + 2;
        for (outcome, events) in referee::resolve_from_seed::<G>(&mut state, &seed, next_ply) {
            plies.push((None, referee::to_json(&outcome), events));
        }
    }

    let now = Utc::now();
    let over = G::is_over(&state);
    let viewer = if over { Viewer::Full } else { accepted.viewer };
    let version = row.version + plies.len() as i64;
    let reply = MoveReply {
        version,
        status: if over {
            MatchStatus::Finished
        } else {
            MatchStatus::InProgress
        },
        to_act: G::to_act(&state),
        chance_pending: G::chance_pending(&state),
        entries: plies
            .iter()
            .enumerate()
            .map(|(i, (seat, payload, events))| {
                log_entry::<G>(
                    row.version + 1 + i as i64,
                    *seat,
                    payload,
                    events,
                    viewer,
                    now,
                )
            })
            .collect(),
        view: referee::to_json(&G::view(&state, viewer)),
    };

    let mut rows: Vec<EventRow> = plies
        .into_iter()
        .enumerate()
        .map(|(i, (seat, payload, _))| {
            event_row(row.id, row.version + 1 + i as i64, seat, payload, now)
        })
        .collect();
    // The answer is kept only where a retry may ask for it again: most moves carry no key, and
    // writing every reply would multiply what each move writes.
    if accepted.idempotency_key.is_some() {
        rows[0].idempotency_key = accepted.idempotency_key;
        rows[0].request_hash = Some(accepted.request_hash);
        rows[0].response = Some(referee::to_json(&reply));
    }
    let state_json = referee::to_json(&state);
    if write == Write::IfCurrent {
        if over {
            return Ok(Played::NeedsLock);
        }
        let stored = q::advance_if_current(conn, row, version, &state_json, &rows, now).await?;
        return Ok(if stored {
            Played::Done(reply)
        } else {
            Played::Raced
        });
    }
    q::append_events(conn, &rows).await?;
    if over {
        let standings = G::standings(&state);
        let result = referee::to_json(&score_of::<G>(&state));
        let seat_results = SeatResult::of(&standings, &G::highlights(&state));
        q::advance(
            conn,
            row,
            version,
            &state_json,
            Some((&result, &seat_results)),
            now,
        )
        .await?;
    } else {
        q::advance(conn, row, version, &state_json, None, now).await?;
    }
    Ok(Played::Done(reply))
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

fn score_of<G: Game>(state: &G::State) -> ScoreReply {
    ScoreReply {
        breakdown: referee::to_json(&G::score(state)),
        standings: G::standings(state),
        over: G::is_over(state),
    }
}

fn log_entry<G: Game>(
    ply: i64,
    seat: Option<Seat>,
    payload: &Value,
    events: &[G::Event],
    viewer: Viewer,
    at: DateTime<Utc>,
) -> LogEntry {
    let full = viewer == Viewer::Full;
    let own_move = seat.is_some_and(|s| viewer == Viewer::Seat(s));
    LogEntry {
        ply,
        seat,
        mv: (seat.is_some() && (full || own_move)).then(|| payload.clone()),
        chance: (seat.is_none() && full).then(|| payload.clone()),
        events: events
            .iter()
            .map(|e| referee::to_json(&G::redact_event(e, viewer)))
            .collect(),
        at,
    }
}

// ---------------------------------------------------------------------------------------------
// The log, replay, result, export and list

fn typed_inputs<G: Game>(rows: &[EventRow]) -> Result<Vec<GameInput<G>>, Problem> {
    rows.iter()
        .map(|r| {
            Ok(match r.seat {
                Some(seat) => Input::Move {
                    seat: seat as Seat,
                    mv: stored("move", r.payload.clone())?,
                },
                None => Input::Chance(stored("chance", r.payload.clone())?),
            })
        })
        .collect()
}

fn replayed<G: Game>(
    row: &MatchRow,
    players: usize,
    rows: &[EventRow],
    upto: Option<usize>,
) -> Result<referee::Replayed<G>, Problem> {
    let inputs = typed_inputs::<G>(rows)?;
    let options: G::Options = stored("options", row.options.clone())?;
    referee::replay::<G>(options, players, &inputs, upto).map_err(|(ply, e)| {
        Problem::internal(format!(
            "match {} fails to replay at ply {ply}: {e}",
            row.id
        ))
    })
}

pub async fn log(store: &Store, id: Uuid, token: Option<&str>) -> Result<MatchLog, Problem> {
    let (mut conn, row, seats, credential) = load(store, id, token).await?;
    let viewer = viewer_for(&row, credential);
    let rows = q::events(&mut conn, id).await?;
    let entries = with_game!(kind_of(&row)?, G => {
        let (_, events) = replayed::<G>(&row, seats.len(), &rows, None)?;
        rows.iter()
            .zip(&events)
            .map(|(r, evs)| log_entry::<G>(r.ply, r.seat.map(|s| s as Seat), &r.payload, evs, viewer, r.created_at))
            .collect()
    });
    Ok(MatchLog {
        version: row.version,
        entries,
    })
}

/// The match as it stood after `ply` events, rebuilt from the log.
pub async fn at_ply(
    store: &Store,
    id: Uuid,
    ply: i64,
    token: Option<&str>,
) -> Result<PlyView, Problem> {
    let (mut conn, row, seats, credential) = load(store, id, token).await?;
    if !(0..=row.version).contains(&ply) {
        return Err(Problem::not_found(
            "unknown_ply",
            format!(
                "ply {ply} is outside this match's log (0 to {})",
                row.version
            ),
        ));
    }
    let viewer = viewer_for(&row, credential);
    let rows = q::events(&mut conn, id).await?;
    with_game!(kind_of(&row)?, G => {
        let (state, _) = replayed::<G>(&row, seats.len(), &rows, Some(ply as usize))?;
        Ok(PlyView {
            ply,
            to_act: G::to_act(&state),
            chance_pending: G::chance_pending(&state),
            over: G::is_over(&state),
            view: referee::to_json(&G::view(&state, viewer)),
            standings: G::standings(&state),
        })
    })
}

pub async fn result(store: &Store, id: Uuid, token: Option<&str>) -> Result<MatchResult, Problem> {
    let (_, row, seats, _) = load(store, id, token).await?;
    let score = match &row.result {
        Some(result) => stored("result", result.clone())?,
        None => with_game!(kind_of(&row)?, G => {
            score_of::<G>(&stored::<<G as Game>::State>("state", row.state.clone())?)
        }),
    };
    let winners = score
        .standings
        .winners
        .iter()
        .filter_map(|&s| seats.get(s).map(|seat| seat.player_name.clone()))
        .collect();
    Ok(MatchResult {
        status: MatchStatus::of(&row.status),
        seats: seat_infos(&seats),
        winners,
        score,
    })
}

pub async fn export(store: &Store, id: Uuid, token: Option<&str>) -> Result<MatchExport, Problem> {
    let (mut conn, row, seats, credential) = load(store, id, token).await?;
    let finished = row.status == "finished";
    if !finished && credential != Credential::Owner {
        return Err(Problem::forbidden(
            "owner_only",
            "before the match is over only the owner token may export it (the log holds hidden cards)",
        ));
    }
    let rows = q::events(&mut conn, id).await?;
    Ok(MatchExport {
        format: "referee.match/1".to_owned(),
        id: row.id,
        game: kind_of(&row)?,
        rules_version: row.rules_version.clone(),
        options: row.options.clone(),
        players: seats.iter().map(|s| s.player_name.clone()).collect(),
        randomness: mode_of(&row),
        seed_sha256: row.seed_sha256.clone(),
        seed: if finished { row.seed.clone() } else { None },
        status: MatchStatus::of(&row.status),
        version: row.version,
        log: rows
            .into_iter()
            .map(|r| {
                let seat = r.seat.map(|s| s as Seat);
                ExportedInput {
                    ply: r.ply,
                    seat,
                    mv: seat.is_some().then(|| r.payload.clone()),
                    chance: seat.is_none().then_some(r.payload),
                }
            })
            .collect(),
        result: row
            .result
            .clone()
            .map(|r| stored("result", r))
            .transpose()?,
        created_at: row.created_at,
        finished_at: row.finished_at,
    })
}

/// Replays an export from scratch and returns the final score: anyone can check a match this way.
pub fn verify_export(export: &MatchExport) -> Result<ScoreReply, RefereeError> {
    with_game!(export.game, G => {
        let options = referee::options::<G>(Some(export.options.clone()), export.players.len())?;
        let mut state = G::setup(options, export.players.len());
        for input in &export.log {
            let typed: GameInput<G> = match (input.seat, &input.mv, &input.chance) {
                (Some(seat), Some(mv), None) => Input::Move { seat, mv: referee::parse("move", mv.clone())? },
                (None, None, Some(chance)) => Input::Chance(referee::parse("chance", chance.clone())?),
                _ => return Err(RefereeError::Malformed {
                    what: "log",
                    detail: format!("ply {} needs either a seat and a move, or a chance outcome", input.ply),
                }),
            };
            referee::play_input::<G>(&mut state, &typed)?;
        }
        Ok(score_of::<G>(&state))
    })
}

#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only hosted matches or only score sheets (default: both).
    pub kind: Option<MatchKind>,
    /// Only this game (its slug, e.g. `lucky-jack`).
    pub game: Option<GameKind>,
    /// Only matches with a seat of this name (case-insensitive).
    #[param(pattern = "^[^\\u0000]*$")]
    pub player: Option<String>,
    /// Only matches this player (case-insensitive) won or shared the win of.
    #[param(pattern = "^[^\\u0000]*$")]
    pub winner: Option<String>,
    pub status: Option<MatchStatus>,
    /// Only matches created at or after this instant (RFC 3339).
    pub from: Option<DateTime<Utc>>,
    /// Only matches created before this instant (RFC 3339).
    pub to: Option<DateTime<Utc>>,
    /// Page size, 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page.
    #[param(pattern = "^[0-9]{1,16}-[0-9a-f]{32}$")]
    pub cursor: Option<String>,
}

/// A cursor is the last row's creation time (microseconds since the epoch) and id: plain enough
/// for the spec to say exactly which strings are cursors, so any string of that form is accepted.
pub(crate) fn encode_cursor(created_at: DateTime<Utc>, id: Uuid) -> String {
    format!("{}-{}", created_at.timestamp_micros(), id.simple())
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

pub async fn list(store: &Store, query: ListQuery) -> Result<MatchPage, Problem> {
    let limit = query.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(Problem::bad_request("invalid_limit", "limit is 1 to 100"));
    }
    let before = query
        .cursor
        .as_deref()
        .map(|c| {
            decode_cursor(c).ok_or_else(|| {
                Problem::bad_request(
                    "invalid_cursor",
                    "the cursor is not one this service issued",
                )
            })
        })
        .transpose()?;
    for name in [&query.player, &query.winner].into_iter().flatten() {
        check_player_filter(name)?;
    }
    let filter = q::ListFilter {
        kind: query.kind.map(|k| k.as_str().to_owned()),
        game: query.game.map(|g| g.slug().to_owned()),
        status: query.status.map(|s| s.as_str().to_owned()),
        player: query.player.clone(),
        winner: query.winner.clone(),
        from: query.from,
        to: query.to,
        before,
    };
    let mut conn = store.conn().await?;
    // One row more than asked tells whether another page exists.
    let mut rows = q::list(&mut conn, &filter, limit + 1).await?;
    let total = q::count(&mut conn, &filter).await?;
    let more = rows.len() as i64 > limit;
    rows.truncate(limit as usize);
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let seats = q::seats_of(&mut conn, &ids).await?;
    let next_cursor = more
        .then(|| rows.last().map(|r| encode_cursor(r.created_at, r.id)))
        .flatten();
    let items = rows
        .into_iter()
        .map(|r| {
            let mine: Vec<&SeatRow> = seats.iter().filter(|s| s.match_id == r.id).collect();
            Ok(MatchSummary {
                id: r.id,
                kind: MatchKind::of(&r.kind),
                game: GameKind::from_slug(&r.game)
                    .ok_or_else(|| Problem::internal(format!("unknown stored game {}", r.game)))?,
                status: MatchStatus::of(&r.status),
                version: r.version,
                players: mine.iter().map(|s| s.player_name.clone()).collect(),
                winners: mine
                    .iter()
                    .filter(|s| s.winner == Some(true))
                    .map(|s| s.player_name.clone())
                    .collect(),
                created_at: r.created_at,
                finished_at: r.finished_at,
            })
        })
        .collect::<Result<Vec<_>, Problem>>()?;
    Ok(MatchPage {
        items,
        total,
        next_cursor,
    })
}
