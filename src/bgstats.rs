//! The BG Stats play file, in and out. Out: a finished match or sheet as one play, or every
//! result that counts in statistics as one file, streamed. In: a file of plays (the service's
//! own, or BG Stats' export as far as its fields map) becomes finished score sheets, each play
//! all or nothing, and a report says what was created, what was already here and what was
//! skipped, and why.
//!
//! BG Stats' fields carry the play; what they cannot (the game's slug, options, the instants to
//! the microsecond, each seat's brag figures and rating change, an abandon) rides in one extra
//! key per play, `referee`, which BG Stats ignores and this service's import reads back, so an
//! export of everything imported into an empty service gives the same statistics, leaderboards
//! and ratings (docs/walkthroughs/import.md).

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, NaiveDateTime, SubsecRound, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::{Game, GameKind, Highlights, Order, Standings};
use crate::problem::{Code, Problem};
use crate::ratings::RatingChange;
use crate::records::{check_names, limit_exceeded, note_game};
use crate::referee;
use crate::sheets;
use crate::store::matches::{self as q, MatchRow, SeatRow};
use crate::store::plays::{self, CountedResult, NewPlay, Written};
use crate::store::sheets::SheetEntryRow;
use crate::store::stat_reads::Period;
use crate::store::Store;
use crate::tokens;
use crate::vocabulary::{AbandonedBy, MatchKind, MatchStatus, SheetEntryKind};
use crate::with_game;

/// A BG Stats import file (the app's "import data" JSON).
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
    #[schema(example = "2026-11-20 21:15:00")]
    pub play_date: String,
    pub duration_min: i64,
    /// An abandoned match (counted apart in statistics, with no result).
    pub ignored: bool,
    pub manual_winner: bool,
    pub rounds: i64,
    pub uses_teams: bool,
    pub player_scores: Vec<BgStatsScore>,
    /// What this service adds and BG Stats ignores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub referee: Option<RefereePlay>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BgStatsScore {
    pub player_ref_id: i64,
    /// BG Stats keeps scores as text.
    #[schema(example = "120")]
    pub score: String,
    pub winner: bool,
    pub new_player: bool,
    pub start_player: bool,
    pub rank: i64,
    pub seat_order: i64,
}

/// A play as this service stored it, beyond BG Stats' fields.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefereePlay {
    pub kind: MatchKind,
    pub game: GameKind,
    /// The game's options, keyed as that game's options schema in the catalogue.
    #[schema(schema_with = options_schema)]
    pub options: Value,
    pub created_at: DateTime<Utc>,
    /// When it finished, or was abandoned, to the microsecond: its place in the order ratings
    /// follow.
    pub ended_at: DateTime<Utc>,
    /// One per player score, in their order.
    pub seats: Vec<RefereeSeat>,
    /// Set when the play is an abandoned match (then `ignored` is true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandoned_by: Option<AbandonedBy>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefereeSeat {
    /// The game's brag figures for this seat (e.g. `jackpots_jack`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<BTreeMap<String, i64>>)]
    pub highlights: Option<Highlights>,
    /// The seat's rating before and after this result, if it was rated. Informative: an
    /// import rates its results again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingChange>,
}

/// Any game's options: an object whose keys depend on the game (`GET /v1/games/{game}`).
fn options_schema() -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(AdditionalProperties::FreeForm(true)))
        .build()
}

/// Names are the identity here, so their BG Stats uuids derive from them.
fn name_uuid(kind: &str, name: &str) -> Uuid {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("referee/{kind}/{}", name.to_lowercase()));
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_sha1_bytes(bytes).into_uuid()
}

/// The locations plays are at: a score sheet's table, or the service's hosted table.
fn location_id(kind: MatchKind) -> i64 {
    match kind {
        MatchKind::Sheet => 1,
        MatchKind::Hosted => 2,
    }
}

fn locations() -> Vec<BgStatsNamed> {
    [
        (MatchKind::Sheet, "At the table"),
        (MatchKind::Hosted, "Tabletop referee"),
    ]
    .into_iter()
    .map(|(kind, name)| BgStatsNamed {
        id: location_id(kind),
        name: name.to_owned(),
        uuid: name_uuid("location", kind.as_str()),
    })
    .collect()
}

fn game_id(game: GameKind) -> i64 {
    GameKind::ALL
        .iter()
        .position(|&g| g == game)
        .unwrap_or_default() as i64
        + 1
}

fn game_entry(game: GameKind, lowest_wins: bool) -> BgStatsGame {
    BgStatsGame {
        id: game_id(game),
        name: game.title().to_owned(),
        uuid: name_uuid("game", game.slug()),
        cooperative: false,
        highest_wins: !lowest_wins,
        no_points: false,
        uses_teams: false,
    }
}

/// A counted result as a play; `player_id` numbers each name as written.
fn play_of(result: &CountedResult, player_id: impl Fn(&str) -> i64) -> BgStatsPlay {
    let row = &result.row;
    // A sheet's snapshot lists its scored rounds; a hosted game's breakdown may list its rounds.
    let rounds = match row.kind {
        MatchKind::Sheet => row.state.pointer("/rounds"),
        MatchKind::Hosted => row
            .result
            .as_ref()
            .and_then(|r| r.pointer("/breakdown/rounds")),
    }
    .and_then(|r| r.as_array())
    .map_or(0, |r| r.len() as i64);
    let ended_at = result.ended.0;
    let abandoned = row.status == MatchStatus::Abandoned;
    BgStatsPlay {
        uuid: row.id,
        game_ref_id: game_id(row.game.kind()),
        location_ref_id: location_id(row.kind),
        play_date: ended_at.format("%Y-%m-%d %H:%M:%S").to_string(),
        duration_min: (ended_at - row.created_at).num_minutes(),
        ignored: abandoned,
        manual_winner: false,
        rounds,
        uses_teams: false,
        player_scores: result
            .seats
            .iter()
            .map(|s| BgStatsScore {
                player_ref_id: player_id(&s.player_name),
                score: s.final_score.map(|n| n.to_string()).unwrap_or_default(),
                winner: s.winner == Some(true),
                new_player: false,
                start_player: false,
                rank: i64::from(s.final_rank.unwrap_or_default()),
                seat_order: i64::from(s.seat),
            })
            .collect(),
        referee: Some(RefereePlay {
            kind: row.kind,
            game: row.game.kind(),
            options: row.options.clone(),
            created_at: row.created_at,
            ended_at,
            seats: result
                .seats
                .iter()
                .map(|s| RefereeSeat {
                    highlights: s
                        .highlights
                        .as_ref()
                        .and_then(|h| serde_json::from_value(h.clone()).ok()),
                    rating: result
                        .changes
                        .iter()
                        .find(|c| c.seat == s.seat)
                        .map(RatingChange::of),
                })
                .collect(),
            abandoned_by: result.abandon.as_ref().map(|a| a.by).filter(|_| abandoned),
        }),
    }
}

/// A finished match or sheet as a BG Stats file of one play.
#[tracing::instrument(skip_all, fields(match_id = %id, kind = kind.as_str(), game = tracing::field::Empty))]
pub async fn one(store: &Store, id: Uuid, kind: MatchKind) -> Result<BgStatsFile, Problem> {
    // Only a finished match is exported, and a finished match never changes: a history read.
    let (row, seats, changes) = store
        .read(async |conn| {
            let Some(row) = q::find(conn, id).await?.filter(|r| r.kind == kind) else {
                return Ok(None);
            };
            let seats = q::seats(conn, id).await?;
            let changes = crate::store::rating_reads::changes_of(conn, &[id]).await?;
            Ok(Some((row, seats, changes)))
        })
        .await?
        .ok_or_else(|| {
            Problem::new(
                Code::UnknownMatch,
                format!("no {} has id {id}", kind.as_str()),
            )
        })?;
    if row.status != MatchStatus::Finished {
        return Err(Problem::new(
            Code::MatchNotFinished,
            "only a finished match can be exported as a play",
        ));
    }
    let game = row.game.kind();
    note_game(game);
    let lowest_wins = row.lowest_wins == Some(true);
    let result = CountedResult {
        ended: (row.finished_at.unwrap_or(row.updated_at), row.id),
        row,
        seats,
        abandon: None,
        changes,
    };
    let names: Vec<String> = result.seats.iter().map(|s| s.player_name.clone()).collect();
    let player_id =
        |name: &str| names.iter().position(|n| n == name).unwrap_or_default() as i64 + 1;
    Ok(BgStatsFile {
        players: names
            .iter()
            .map(|name| BgStatsPlayer {
                id: player_id(name),
                name: name.clone(),
                uuid: name_uuid("player", name),
            })
            .collect(),
        locations: locations()
            .into_iter()
            .filter(|l| l.id == location_id(kind))
            .collect(),
        games: vec![game_entry(game, lowest_wins)],
        plays: vec![play_of(&result, player_id)],
    })
}

/// Plays read per query while streaming everything.
const EXPORT_PAGE: i64 = 200;

/// Every result that counts in statistics (finished, or abandoned after play began) of the
/// period, as one BG Stats file, in the order they ended. Streamed: the players, locations and
/// games first, then the plays a page at a time, so memory stays a page whatever the history.
pub fn everything(
    store: Store,
    period: Period,
) -> impl futures_util::Stream<Item = Result<String, Problem>> {
    enum Next {
        Head,
        Plays(Option<crate::store::results::Place>, HashMap<String, i64>),
        Done,
    }
    futures_util::stream::unfold(Next::Head, move |next| {
        let store = store.clone();
        async move {
            match next {
                Next::Head => {
                    let names = match store
                        .read(async |conn| plays::counted_names(conn, period).await)
                        .await
                    {
                        Ok(names) => names,
                        Err(error) => return Some((Err(Problem::from(error)), Next::Done)),
                    };
                    let ids: HashMap<String, i64> = names
                        .iter()
                        .enumerate()
                        .map(|(i, n)| (n.clone(), i as i64 + 1))
                        .collect();
                    let players: Vec<BgStatsPlayer> = names
                        .into_iter()
                        .map(|name| BgStatsPlayer {
                            id: ids[&name],
                            uuid: name_uuid("player", &name),
                            name,
                        })
                        .collect();
                    let games: Vec<BgStatsGame> = GameKind::ALL
                        .iter()
                        .map(|&g| game_entry(g, default_order(g) == Order::LowestWins))
                        .collect();
                    let head = format!(
                        "{{\"players\":{},\"locations\":{},\"games\":{},\"plays\":[",
                        json_text(&players),
                        json_text(&locations()),
                        json_text(&games)
                    );
                    Some((Ok(head), Next::Plays(None, ids)))
                }
                Next::Plays(after, ids) => {
                    let page = match store
                        .read(async |conn| {
                            plays::counted_page(conn, period, after, EXPORT_PAGE).await
                        })
                        .await
                    {
                        Ok(page) => page,
                        Err(error) => return Some((Err(Problem::from(error)), Next::Done)),
                    };
                    let Some(last) = page.last().map(|r| r.ended) else {
                        return Some((Ok("]}\n".to_owned()), Next::Done));
                    };
                    let mut text = String::new();
                    for result in &page {
                        if after.is_some() || !text.is_empty() {
                            text.push(',');
                        }
                        let play = play_of(result, |name| ids.get(name).copied().unwrap_or(0));
                        text.push_str(&json_text(&play));
                    }
                    Some((Ok(text), Next::Plays(Some(last), ids)))
                }
                Next::Done => None,
            }
        }
    })
}

// The file's parts hold only text, numbers, booleans and ids: they always serialise.
#[allow(clippy::expect_used)]
fn json_text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("BG Stats parts serialise")
}

/// Which end of the totals wins a game played with its default options.
fn default_order(game: GameKind) -> Order {
    with_game!(game, G => {
        let options = <G as Game>::Options::default();
        G::tally_standings(&options, 2, &[]).0.order
    })
}

// ---------------------------------------------------------------------------------------------
// Import

/// The largest file an import reads, in bytes.
pub const IMPORT_BYTES: usize = 8 * 1024 * 1024;
/// The most plays one file may hold.
pub const IMPORT_PLAYS: usize = 5_000;
/// The largest score (either way) an imported play may hold, far above any the five games
/// reach, so that totals summed over a lifetime of plays stay far from overflowing.
const MAX_SCORE: i64 = 1_000_000_000;
/// Plays written per transaction (each in its own savepoint).
const IMPORT_BATCH: usize = 100;

/// A file to import: this service's BG Stats export, or BG Stats' own. Read leniently: keys
/// this service does not use are ignored (BG Stats writes many), and so are `locations`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BgStatsImport {
    #[serde(default)]
    players: Vec<ImportPlayer>,
    #[serde(default)]
    games: Vec<ImportGame>,
    /// At most 5 000.
    plays: Vec<ImportPlay>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ImportPlayer {
    id: i64,
    #[schema(example = "Mum")]
    name: String,
}

/// A game, matched by name (its title or slug, ignoring case, spaces and punctuation) to the five.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportGame {
    id: i64,
    #[schema(example = "Lucky Jack")]
    name: String,
    #[serde(default)]
    cooperative: bool,
    #[serde(default)]
    uses_teams: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportPlay {
    /// The play's id, kept as the sheet's: the same play imported twice is found the second
    /// time. Without one, an id is derived from the play's content.
    #[serde(default)]
    uuid: Option<String>,
    game_ref_id: i64,
    /// When it was played, UTC, 1970 to 9999 (ignored when `referee` says it to the
    /// microsecond).
    #[schema(
        pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$",
        example = "2025-12-25 20:30:00"
    )]
    play_date: String,
    #[serde(default)]
    duration_min: Option<i64>,
    /// An abandoned match when `referee` says so; otherwise a play BG Stats leaves out of its
    /// statistics, which the import skips.
    #[serde(default)]
    ignored: bool,
    #[serde(default)]
    uses_teams: bool,
    player_scores: Vec<ImportScore>,
    /// This service's own additions, as its export writes them.
    #[serde(default)]
    referee: Option<RefereePlay>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportScore {
    player_ref_id: i64,
    /// A whole number, as text (`"12"`, BG Stats' way) or as a number; empty for an abandoned
    /// play.
    #[serde(default)]
    #[schema(value_type = String, example = "120")]
    score: Value,
    #[serde(default)]
    winner: bool,
    /// 1 is first; 0 or absent: ranked by score in the game's order.
    #[serde(default)]
    rank: i64,
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

/// What became of one play of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayOutcome {
    /// A new score sheet.
    Created,
    /// A match or sheet with this play's id is already stored (the same play imported before,
    /// or exported from here): nothing was written.
    Matched,
    /// Not imported; `reason` says why.
    Skipped,
}

/// Why a play was skipped: a stable code and a sentence.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SkipReason {
    #[schema(example = "unknown_game")]
    pub code: String,
    pub detail: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ImportedPlay {
    /// The play's place in the file's `plays`, from 0.
    pub index: usize,
    pub outcome: PlayOutcome,
    /// The sheet (created) or the stored match or sheet (matched).
    pub id: Option<Uuid>,
    pub game: Option<GameKind>,
    /// The new sheet's owner token (created only): send it as `Authorization: Bearer` to rename
    /// its players or play it again. Shown once.
    pub owner_token: Option<String>,
    pub reason: Option<SkipReason>,
}

/// A player of the file's imported plays, matched by name key to the players already here.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ImportedPlayer {
    /// The name as the file writes it.
    pub name: String,
    /// The name this service already knew the player by, or null for a new player.
    pub known_as: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ImportReport {
    pub created: usize,
    pub matched: usize,
    pub skipped: usize,
    /// One per play of the file, in its order.
    pub plays: Vec<ImportedPlay>,
    /// The players of the plays created or matched.
    pub players: Vec<ImportedPlayer>,
}

fn bad_file(field: impl Into<String>, detail: impl Into<String>) -> Problem {
    let field = field.into();
    let mut problem = Problem::new(Code::InvalidImport, format!("{field}: {}", detail.into()));
    problem.params = Some(serde_json::json!({ "field": field }));
    problem
}

/// A play skipped for what the service would refuse of a sheet: the same code and words.
fn skipped_for(problem: &Problem) -> SkipReason {
    skip(&problem.code, problem.detail.clone())
}

fn skip(code: &str, detail: impl Into<String>) -> SkipReason {
    SkipReason {
        code: code.to_owned(),
        detail: detail.into(),
    }
}

/// Reads a file: its syntax and shape, then its references (each play's game and players) and
/// dates. The first bad field refuses the whole file, named by its path.
fn read_file(body: &[u8]) -> Result<BgStatsImport, Problem> {
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
    for (i, play) in file.plays.iter().enumerate() {
        if !file.games.iter().any(|g| g.id == play.game_ref_id) {
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
            if !file.players.iter().any(|p| p.id == score.player_ref_id) {
                return Err(bad_file(
                    format!("plays[{i}].playerScores[{j}].playerRefId"),
                    format!("no player has id {}", score.player_ref_id),
                ));
            }
        }
    }
    Ok(file)
}

fn play_date(text: &str) -> Option<DateTime<Utc>> {
    NaiveDateTime::parse_from_str(text.trim(), "%Y-%m-%d %H:%M:%S")
        .ok()
        .map(|d| d.and_utc())
        .filter(in_range)
}

/// Plays from 1970 to 9999: keyset cursors count microseconds since 1970, and RFC 3339 has
/// four-digit years.
fn in_range(at: &DateTime<Utc>) -> bool {
    (0..253_402_300_800).contains(&at.timestamp())
}

/// One of the five games, by its slug or its title, ignoring case, spaces and punctuation.
fn game_named(name: &str) -> Option<GameKind> {
    let plain = |text: &str| -> String {
        text.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted = plain(name);
    GameKind::ALL
        .iter()
        .copied()
        .find(|g| plain(g.slug()) == wanted || plain(g.title()) == wanted)
}

/// A score written as a whole number (`"12"`, `12`, `"12.0"`).
fn whole(score: &Value) -> Option<i64> {
    match score {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                .map(|f| f as i64)
        }),
        Value::String(text) => {
            let text = text.trim();
            text.parse::<i64>().ok().or_else(|| {
                text.parse::<f64>()
                    .ok()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                    .map(|f| f as i64)
            })
        }
        _ => None,
    }
}

/// Highlights as brag figures: a few short keys with figures no larger than a score.
fn checked_highlights(highlights: Option<&Highlights>) -> Option<Value> {
    let highlights = highlights?;
    (highlights.len() <= 32
        && highlights.keys().all(|k| k.len() <= 64)
        && highlights.values().all(|v| v.abs() <= MAX_SCORE))
    .then(|| serde_json::to_value(highlights).ok())
    .flatten()
}

/// A play's id: its own when it is a UUID (BG Stats' and this service's are), else one derived
/// from the play's content, so the same play imported twice is found the second time.
fn play_id(play: &ImportPlay, names: &[String], scores: &[i64]) -> Uuid {
    if let Some(id) = play
        .uuid
        .as_deref()
        .and_then(|u| Uuid::try_parse(u.trim()).ok())
    {
        return id;
    }
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!(
        "referee/import/{}/{}/{names:?}/{scores:?}",
        play.game_ref_id, play.play_date
    ));
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_sha1_bytes(bytes).into_uuid()
}

/// A play of the file checked and made into a closed sheet, or the reason it is skipped.
struct Planned {
    play: NewPlay,
    owner_token: String,
}

fn plan(
    file: &BgStatsImport,
    play: &ImportPlay,
    now: DateTime<Utc>,
) -> Result<Planned, SkipReason> {
    let listed = file.games.iter().find(|g| g.id == play.game_ref_id);
    let game_name = listed.map_or("", |g| g.name.as_str());
    let game = match &play.referee {
        Some(ours) => ours.game,
        None => game_named(game_name).ok_or_else(|| {
            skip(
                "unknown_game",
                format!("{game_name:?} is none of the games this service referees"),
            )
        })?,
    };
    if play.uses_teams || listed.is_some_and(|g| g.uses_teams || g.cooperative) {
        return Err(skip(
            "teams_not_supported",
            "a team or cooperative play has no place in these games' standings",
        ));
    }
    let abandoned_by = play.referee.as_ref().and_then(|r| r.abandoned_by);
    if play.ignored && abandoned_by.is_none() {
        return Err(skip(
            "ignored_play",
            "BG Stats leaves this play out of its statistics, and so does the import",
        ));
    }
    let typed: Vec<&str> = play
        .player_scores
        .iter()
        .map(|s| {
            file.players
                .iter()
                .find(|p| p.id == s.player_ref_id)
                .map_or("", |p| p.name.as_str())
        })
        .collect();
    let names = check_names(typed.iter().copied()).map_err(|p| skipped_for(&p))?;
    let scores: Vec<Option<i64>> = play.player_scores.iter().map(|s| whole(&s.score)).collect();
    let finished = abandoned_by.is_none();
    if finished && scores.iter().any(Option::is_none) {
        return Err(skip(
            "score_not_whole",
            "every player of a finished play needs a whole-number score",
        ));
    }
    if scores.iter().flatten().any(|s| s.abs() > MAX_SCORE) {
        return Err(skip(
            "score_out_of_range",
            format!("a score is between -{MAX_SCORE} and {MAX_SCORE}"),
        ));
    }
    let options_sent = play.referee.as_ref().map(|r| r.options.clone());
    let (options, order) = with_game!(game, G => {
        let options = referee::options::<G>(options_sent, names.len())
            .map_err(|e| skipped_for(&Problem::from(e)))?;
        let order = G::tally_standings(options.options(), names.len(), &[]).0.order;
        (referee::to_json(options.options()), order)
    });
    let totals: Vec<i64> = scores.iter().map(|s| s.unwrap_or_default()).collect();
    let standings = standings_of(play, &totals, order, finished);
    let ended_at = match &play.referee {
        Some(ours) => ours.ended_at,
        None => play_date(&play.play_date).unwrap_or(now),
    };
    if !in_range(&ended_at) {
        return Err(skip(
            "play_date_out_of_range",
            "a play is dated from 1970 to 9999",
        ));
    }
    let started = match &play.referee {
        Some(ours) => ours.created_at.min(ended_at),
        None => {
            ended_at - chrono::Duration::minutes(play.duration_min.unwrap_or(0).clamp(0, 24 * 60))
        }
    };
    let created_at = if in_range(&started) {
        started
    } else {
        ended_at
    };
    let id = play_id(play, &names, &totals);
    let (owner_token, owner_hash) =
        tokens::issue("own").map_err(|e| skip("internal", e.to_string()))?;
    let seat_extras = play
        .referee
        .as_ref()
        .map(|r| r.seats.as_slice())
        .unwrap_or_default();
    let standings_json =
        serde_json::to_value(&standings).map_err(|e| skip("internal", e.to_string()))?;
    let state = serde_json::json!({"rounds": [], "standings": standings_json});
    let (blank, blank_seats) =
        sheets::new_rows(id, game, options, owner_hash, &names, state, created_at);
    let row = MatchRow {
        status: if finished {
            MatchStatus::Finished
        } else {
            MatchStatus::Abandoned
        },
        version: 1,
        result: finished.then(|| serde_json::json!({"standings": standings_json})),
        updated_at: ended_at,
        finished_at: finished.then_some(ended_at),
        lowest_wins: finished.then_some(order == Order::LowestWins),
        ..blank
    };
    let seats: Vec<SeatRow> = blank_seats
        .into_iter()
        .map(|seat| {
            let index = seat.seat as usize;
            let extras = seat_extras.get(index).and_then(|s| s.highlights.as_ref());
            SeatRow {
                final_score: finished.then(|| standings.totals[index]),
                final_rank: finished.then(|| standings.ranks[index] as i32),
                winner: finished.then(|| standings.winners.contains(&index)),
                highlights: finished.then(|| checked_highlights(extras)).flatten(),
                ..seat
            }
        })
        .collect();
    let entry = SheetEntryRow {
        match_id: id,
        seq: 1,
        kind: SheetEntryKind::Import,
        round: 0,
        tally: None,
        corrects: None,
        note: Some("Imported from a BG Stats file".to_owned()),
        created_at: now,
        idempotency_key: None,
        request_hash: None,
        renamed: None,
        imported: Some(standings_json),
    };
    Ok(Planned {
        play: NewPlay {
            row,
            seats,
            entry,
            abandoned: abandoned_by.map(|by| (by, ended_at)),
        },
        owner_token,
    })
}

/// The play's standings: its ranks when every player has one from 1 to the number of players,
/// else ranked by score in the game's order; its winners when the file marks some, else those
/// ranked first. An abandoned play has no winners.
fn standings_of(play: &ImportPlay, totals: &[i64], order: Order, finished: bool) -> Standings {
    let players = totals.len() as i64;
    let ranked = Standings::rank(totals.to_vec(), order, finished);
    let given: Vec<u32> = play.player_scores.iter().map(|s| s.rank as u32).collect();
    let ranks = if play
        .player_scores
        .iter()
        .all(|s| (1..=players).contains(&s.rank))
    {
        given
    } else {
        ranked.ranks
    };
    let marked: Vec<usize> = (0..totals.len())
        .filter(|&i| play.player_scores[i].winner)
        .collect();
    let winners = if !finished {
        Vec::new()
    } else if marked.is_empty() {
        (0..totals.len()).filter(|&i| ranks[i] == 1).collect()
    } else {
        marked
    };
    Standings {
        order,
        totals: totals.to_vec(),
        ranks,
        winners,
    }
}

/// Imports a file of plays: each play checked on its own (skipped with a reason if it cannot be
/// one of these games' results) and written all or nothing; plays already stored are matched,
/// not written again. Ratings follow, in the order results finished.
#[tracing::instrument(skip_all, fields(bytes = body.len()))]
pub async fn import(store: &Store, body: &[u8]) -> Result<ImportReport, Problem> {
    let file = read_file(body)?;
    let now = Utc::now().trunc_subsecs(6);
    let mut plays: Vec<ImportedPlay> = Vec::with_capacity(file.plays.len());
    let mut planned: Vec<(usize, Planned)> = Vec::new();
    for (index, play) in file.plays.iter().enumerate() {
        match plan(&file, play, now) {
            Ok(ready) => planned.push((index, ready)),
            Err(reason) => plays.push(ImportedPlay {
                index,
                outcome: PlayOutcome::Skipped,
                id: None,
                game: None,
                owner_token: None,
                reason: Some(reason),
            }),
        }
    }
    // In the order they ended: a file of old plays into an empty service rates each batch once.
    planned.sort_by_key(|(_, p)| {
        let row = &p.play.row;
        (row.finished_at.unwrap_or(row.updated_at), row.id)
    });
    let mut keys: Vec<String> = planned
        .iter()
        .flat_map(|(_, p)| p.play.seats.iter().map(|s| s.player_key.clone()))
        .collect();
    keys.sort();
    keys.dedup();
    let mut conn = store.conn().await?;
    let known = plays::known_players(&mut conn, &keys).await?;
    let mut first_names: BTreeMap<String, String> = BTreeMap::new();
    for batch in planned.chunks(IMPORT_BATCH) {
        let new: Vec<&NewPlay> = batch.iter().map(|(_, p)| &p.play).collect();
        let written = plays::insert_plays(&mut conn, &new).await?;
        for ((index, ready), written) in batch.iter().zip(written) {
            for seat in &ready.play.seats {
                first_names
                    .entry(seat.player_key.clone())
                    .or_insert_with(|| seat.player_name.clone());
            }
            let created = written == Written::Created;
            plays.push(ImportedPlay {
                index: *index,
                outcome: if created {
                    PlayOutcome::Created
                } else {
                    PlayOutcome::Matched
                },
                id: Some(ready.play.row.id),
                game: Some(ready.play.row.game.kind()),
                owner_token: created.then(|| ready.owner_token.clone()),
                reason: None,
            });
        }
    }
    plays.sort_by_key(|p| p.index);
    let count = |outcome| plays.iter().filter(|p| p.outcome == outcome).count();
    Ok(ImportReport {
        created: count(PlayOutcome::Created),
        matched: count(PlayOutcome::Matched),
        skipped: count(PlayOutcome::Skipped),
        players: first_names
            .into_iter()
            .map(|(key, name)| ImportedPlayer {
                known_as: known.get(&key).cloned(),
                name,
            })
            .collect(),
        plays,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_players_bgstats_uuid_depends_only_on_the_name_ignoring_case() {
        assert_eq!(name_uuid("player", "Ann"), name_uuid("player", "ANN"));
        assert_ne!(name_uuid("player", "Ann"), name_uuid("player", "Ben"));
    }

    #[test]
    fn games_are_found_by_title_or_slug_ignoring_case_spaces_and_punctuation() {
        assert_eq!(game_named("Plus & Minus"), Some(GameKind::PlusMinus));
        assert_eq!(game_named("plus-minus"), Some(GameKind::PlusMinus));
        assert_eq!(game_named("LUCKY JACK"), Some(GameKind::LuckyJack));
        assert_eq!(game_named("Catan"), None);
    }

    #[test]
    fn scores_are_whole_numbers_written_as_text_or_numbers() {
        assert_eq!(whole(&Value::from("12")), Some(12));
        assert_eq!(whole(&Value::from(" -3 ")), Some(-3));
        assert_eq!(whole(&Value::from("40.0")), Some(40));
        assert_eq!(whole(&serde_json::json!(7)), Some(7));
        assert_eq!(whole(&Value::from("12.5")), None);
        assert_eq!(whole(&Value::from("")), None);
        assert_eq!(whole(&Value::Null), None);
    }

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
