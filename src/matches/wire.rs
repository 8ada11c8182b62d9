//! What the match endpoints take and answer: request bodies, replies and the list's query.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::{GameKind, Seat, Standings, Viewer};
use crate::payloads::{Json, Payloads};
use crate::records::{NewSeat, SeatInfo};
use crate::referee::{Reporter, ScoreReply};
use crate::vocabulary::{ChanceReporters, MatchKind, MatchStatus, RandomnessMode};

crate::one_of_games!(
    /// A match to create, of whichever game `game` names.
    AnyCreateMatch = CreateMatch,
    example = crate::request_examples::create_match_of
);
crate::one_of_games!(
    /// A match as one viewer may see it, of whichever game.
    AnyMatchDetail = MatchDetail
);
crate::one_of_games!(AnyCreatedMatch = CreatedMatch);
crate::one_of_games!(AnyMoveReply = MoveReply);
crate::one_of_games!(AnyMatchLog = MatchLog);
crate::one_of_games!(AnyPlyView = PlyView);
crate::one_of_games!(AnyMatchResult = MatchResult);
crate::one_of_games!(AnyMatchExport = MatchExport);

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, bound = "")]
#[schema(bound = "P: Payloads")]
pub struct CreateMatch<P: Payloads = Json> {
    pub game: P::Game,
    /// One entry per seat, clockwise from seat 0 (as many as the game seats: see the catalogue).
    #[schema(min_items = 2, max_items = 8)]
    pub seats: Vec<NewSeat>,
    /// The game's options (see the catalogue); omitted fields take their defaults.
    pub options: Option<P::Options>,
    #[serde(default)]
    pub randomness: RandomnessMode,
    /// With table randomness, who may report chance outcomes (the owner always may).
    #[serde(default)]
    pub chance_reporters: ChanceReporters,
    /// Leave every seat open: the reply then holds one invite per seat (a short code and a link
    /// a QR code can carry), each redeemed once by a phone for that seat's token, instead of the
    /// seat tokens themselves.
    #[serde(default)]
    pub invites: bool,
}

/// A match as one viewer may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct MatchDetail<P: Payloads = Json> {
    pub id: Uuid,
    pub game: P::Game,
    pub rules_version: String,
    pub randomness: RandomnessMode,
    /// Who may report chance outcomes (table randomness only).
    pub chance_reporters: ChanceReporters,
    pub status: MatchStatus,
    /// Number of events in the log; send it back as `expected_version`.
    #[schema(minimum = 0)]
    pub version: i64,
    pub options: P::Options,
    pub seats: Vec<SeatInfo>,
    /// Whose eyes `view` is for: the token's seat, the owner (full), or a spectator. Once the
    /// match is over everything is public.
    pub viewer: Viewer,
    pub to_act: Vec<Seat>,
    pub chance_pending: bool,
    /// The game's view of the state for `viewer`.
    pub view: P::View,
    pub standings: Standings,
    /// SHA-256 of the seed (server randomness), published from the start.
    pub seed_sha256: Option<String>,
    /// The seed itself, revealed once the match is over.
    pub seed: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// The match this one is a rematch of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<Uuid>,
    /// This match's rematch, once the owner started one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<Uuid>,
    /// Once abandoned: by whom, when, at which version, and whether play had begun (then it
    /// counts in each seated player's record as `abandoned`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandoned: Option<crate::store::stat_reads::Abandoned>,
}

/// An open seat's invite: a phone redeems `code` once for the seat's token.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "seat": 1,
    "name": "Bo",
    "code": "7KQ2M9XW4D",
    "link": "/v1/invites/7KQ2M9XW4D",
    "join": "/#invite=7KQ2M9XW4D"
}))]
pub struct SeatInvite {
    pub seat: Seat,
    pub name: String,
    /// Ten characters of Crockford's base 32 (`0-9`, `A-Z` without `I`, `L`, `O`, `U`): 50
    /// random bits. Case, spaces and hyphens do not matter when it is typed back. Shown only once.
    #[schema(pattern = "^[0-9A-HJKMNP-TV-Z]{10}$")]
    pub code: String,
    /// Where the invite is read (`GET`) and redeemed (`POST .../redeem`) through the API.
    pub link: String,
    /// The table page's address that redeems the invite on the phone that opens it and shows
    /// that seat: what a QR code for people at the table should carry (after the service's
    /// own address).
    pub join: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatToken {
    pub seat: Seat,
    pub name: String,
    /// Send as `Authorization: Bearer <token>` to move for this seat. Shown only once.
    pub token: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct CreatedMatch<P: Payloads = Json> {
    /// Full view, chance reports, moves for any seat, export before the end. Shown only once.
    pub owner_token: String,
    /// One token per seat; empty when the seats were left open (`invites`).
    pub seat_tokens: Vec<SeatToken>,
    /// One invite per open seat (with `invites: true`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invites: Vec<SeatInvite>,
    /// Repeats the match's game, so that the reply can be told apart by it like the others.
    pub game: P::Game,
    #[serde(rename = "match")]
    pub detail: MatchDetail<P>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::request_examples::submit_move)]
pub struct SubmitMove {
    /// The match version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// The seat to move for: implied by a seat token, required with the owner token.
    pub seat: Option<Seat>,
    /// The game's move (its schema is the game's `Move`).
    #[serde(rename = "move")]
    #[schema(value_type = crate::payloads::any::AnyMove)]
    pub mv: Value,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::request_examples::submit_chance)]
pub struct SubmitChance {
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// What happened at the table (its schema is the game's `Chance`).
    #[schema(value_type = crate::payloads::any::AnyChance)]
    pub outcome: Value,
}

/// A take-back of the seat's own last move (docs/contract.md, "Mending a match").
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::request_examples::take_back)]
pub struct TakeBack {
    /// The match version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// The seat whose last move is taken back: implied by a seat token, required with the owner
    /// token.
    pub seat: Option<Seat>,
}

/// The outcome that really happened, replacing the last one reported (docs/contract.md,
/// "Mending a match").
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::request_examples::correct_chance)]
pub struct CorrectChance {
    /// The match version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// The outcome as it really was (its schema is the game's `Chance`).
    #[schema(value_type = crate::payloads::any::AnyChance)]
    pub outcome: Value,
}

/// One ply of the log as a viewer may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct LogEntry<P: Payloads = Json> {
    #[schema(minimum = 0)]
    pub ply: i64,
    /// The seat that moved, or that took back its move; absent for chance (a deal, a draw, a
    /// roll) and its corrections.
    pub seat: Option<Seat>,
    /// The move as submitted: shown to its seat and to the owner.
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    pub mv: Option<P::Move>,
    /// The chance outcome: shown to the owner only (it holds hidden cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<P::Chance>,
    /// A take-back: the ply of `seat`'s move that this entry takes back. The table is again as
    /// it was before that move; the move stays in the log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1)]
    pub takes_back: Option<i64>,
    /// A correction: the ply whose chance outcome this entry replaces. The table is again as it
    /// was before that outcome, then takes this one; the mistyped outcome stays in the log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1)]
    pub corrects: Option<i64>,
    /// At a table that reports its own chance: who reported this outcome or correction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_by: Option<Reporter>,
    /// What happened, with cards the viewer may not see left out.
    pub events: Vec<P::Event>,
    pub at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct MoveReply<P: Payloads = Json> {
    pub game: P::Game,
    #[schema(minimum = 0)]
    pub version: i64,
    pub status: MatchStatus,
    pub to_act: Vec<Seat>,
    pub chance_pending: bool,
    /// The plies this request added: the move, then any chance it triggered.
    pub entries: Vec<LogEntry<P>>,
    /// The state after the move, for the submitter.
    pub view: P::View,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct MatchLog<P: Payloads = Json> {
    pub game: P::Game,
    /// The match's version: the ply of the last entry of the whole log.
    #[schema(minimum = 0)]
    pub version: i64,
    /// The page's entries, in ply order: the plies after `after`, at most `limit` of them.
    pub entries: Vec<LogEntry<P>>,
    /// Pass as `after` for the next page (it is the last ply of this one); `null` on the last
    /// page. The `Link` header (`rel="next"`) holds the same next page as a link.
    #[schema(minimum = 1)]
    pub next_after: Option<i64>,
}

/// Which page of the log: the plies after `after`, at most `limit` of them.
#[derive(Debug, Clone, Copy, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LogQuery {
    /// The ply to start after: the page holds the plies from `after + 1` (default 0, the whole
    /// log from its start). Beyond the match's version: 404 `unknown_ply`. `next_after` of the
    /// previous page, or the version a client already has, to read only what is new.
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// Entries per page, 1 to 1 000 (default 200). Above 1 000: 400 `invalid_limit`.
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct PlyView<P: Payloads = Json> {
    pub game: P::Game,
    #[schema(minimum = 0)]
    pub ply: i64,
    pub to_act: Vec<Seat>,
    pub chance_pending: bool,
    pub over: bool,
    pub view: P::View,
    pub standings: Standings,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct MatchResult<P: Payloads = Json> {
    pub game: P::Game,
    pub status: MatchStatus,
    pub seats: Vec<SeatInfo>,
    /// Names of the winners (several on a shared win); empty while the match is in progress.
    pub winners: Vec<String>,
    /// The game's itemised breakdown (the fields of a [`ScoreReply`], spelled out here so that
    /// the document has one plain object rather than an `allOf`).
    pub breakdown: P::Score,
    pub standings: Standings,
    pub over: bool,
}

/// One log input as exported: a seat's move or a chance outcome.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, bound = "")]
#[schema(bound = "P: Payloads")]
pub struct ExportedInput<P: Payloads = Json> {
    #[schema(minimum = 0)]
    pub ply: i64,
    pub seat: Option<Seat>,
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    pub mv: Option<P::Move>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<P::Chance>,
    /// A take-back by `seat` of its move at this ply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1)]
    pub takes_back: Option<i64>,
    /// A correction: `chance` replaces the outcome at this ply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1)]
    pub corrects: Option<i64>,
    /// At a table that reports its own chance: who reported this outcome or correction (the
    /// replay checks that a correction was made by its reporter or the owner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_by: Option<Reporter>,
}

/// Everything needed to replay a match and check it: rules version, options, players, the whole
/// log and, once over, the seed whose hash was published at creation.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct MatchExport<P: Payloads = Json> {
    /// Always `referee.match/1`.
    pub format: String,
    pub id: Uuid,
    pub game: P::Game,
    pub rules_version: String,
    pub options: P::Options,
    /// Player names by seat.
    pub players: Vec<String>,
    pub randomness: RandomnessMode,
    pub seed_sha256: Option<String>,
    pub seed: Option<String>,
    pub status: MatchStatus,
    #[schema(minimum = 0)]
    pub version: i64,
    pub log: Vec<ExportedInput<P>>,
    pub result: Option<ScoreReply<P>>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// Once abandoned: by whom, when, at which version, and whether play had begun.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandoned: Option<crate::store::stat_reads::Abandoned>,
}

/// A row of the match list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MatchSummary {
    pub id: Uuid,
    pub kind: MatchKind,
    pub game: GameKind,
    pub status: MatchStatus,
    #[schema(minimum = 0)]
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

#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only hosted matches or only score sheets (default: both).
    pub kind: Option<MatchKind>,
    /// Only this game (its slug, e.g. `lucky-jack`).
    pub game: Option<GameKind>,
    /// Only matches with a seat of this player (names compared ignoring case, width, invisible characters and look-alike letters).
    #[param(pattern = "^[^\\u0000]*$")]
    pub player: Option<String>,
    /// Only matches this player won or shared the win of.
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
