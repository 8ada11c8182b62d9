//! The vocabulary hosted matches and score sheets share: both are rows of the same tables, with
//! the same status, kind and randomness, the same player-name rules, the same version checks and
//! the same pinning of a stored record to the rules version it was played under.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use unicode_normalization::UnicodeNormalization;
use utoipa::ToSchema;

use crate::games::{Game, GameKind, Seat, Standings};
use crate::problem::Problem;
use crate::referee;
use crate::store::lobby::InviteRow;
use crate::store::matches::{self as q, CreateKeyRow, EventRow, MatchRow, SeatRow};
use crate::store::Store;
use crate::with_game;
use diesel_async::AsyncPgConnection;

/// The names a closed set of values is stored and sent under (the same for both): the store maps
/// columns through them, and an unknown stored name is an error, never a default.
pub trait StoredName: Copy + Sized + 'static {
    const ALL: &'static [Self];
    fn as_str(self) -> &'static str;
    fn from_stored(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|value| value.as_str() == name)
    }
}

/// Defines a closed set of stored names: the enum, its serde names and its [`StoredName`].
macro_rules! stored_names {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
        #[derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow)]
        #[diesel(sql_type = diesel::sql_types::Text)]
        // The stored names are the serde names (a test checks it); utoipa reads `rename_all`.
        #[serde(rename_all = "snake_case")]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl StoredName for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];
            fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl $name {
            pub fn as_str(self) -> &'static str {
                StoredName::as_str(self)
            }
        }
    };
}

stored_names! {
    /// Who decides chance: the server from a secret seed, or the physical table, which reports it.
    #[derive(Default)]
    pub enum RandomnessMode {
        /// The server deals and rolls from a per-match seed, published as a SHA-256 commitment at
        /// creation and revealed when the match is over.
        #[default]
        Server = "server",
        /// Players use real cards and dice and report each outcome to `/chance`.
        Table = "table",
    }
}

stored_names! {
    /// Who may report the chance outcomes of a table-randomness match. The owner always may; the
    /// rest is the table's choice.
    #[derive(Default)]
    pub enum ChanceReporters {
        /// Only the owner (a referee or host at the table) reports outcomes.
        Owner = "owner",
        /// The owner; a seat reports the outcomes of its own action (its draw, its roll) and the
        /// dealer's seat the deal and shared outcomes (a flip, a shared die).
        #[default]
        OwnerAndActingSeat = "owner_and_acting_seat",
        /// The owner and every seat report any outcome (a table whose players trust each other).
        AnySeat = "any_seat",
    }
}

stored_names! {
    /// How a match is recorded.
    pub enum MatchKind {
        /// Hosted by the service, which referees every move.
        Hosted = "hosted",
        /// Played with real cards and dice and recorded round by round on a score sheet.
        Sheet = "sheet",
    }
}

stored_names! {
    pub enum MatchStatus {
        InProgress = "in_progress",
        Finished = "finished",
        /// Given up by its owner: kept in history and listings, left out of statistics, and
        /// closed to moves and entries.
        Abandoned = "abandoned",
    }
}

impl MatchStatus {
    pub fn of_over(over: bool) -> Self {
        if over {
            MatchStatus::Finished
        } else {
            MatchStatus::InProgress
        }
    }
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSeat {
    /// The player's name: Unicode NFKC and trimmed, then 1 to 64 characters with at least one
    /// visible one and no control characters. Names are compared as identities ignoring case
    /// and invisible characters: two seats may not share one.
    #[schema(
        example = "Ann",
        min_length = 1,
        pattern = "^[^\\u0000-\\u001F\\u007F-\\u009F]*$"
    )]
    pub name: String,
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

/// What one record may hold: every cap on what a client writes into a sheet or a match, in one
/// place (listed in docs/security.md). Past one, the write is refused with `422 limit_exceeded`
/// naming the limit and its maximum.
pub mod limits {
    /// Characters of a player's name, once normalised.
    pub const NAME_CHARS: usize = 64;
    /// Entries of one score sheet, corrections included.
    pub const SHEET_ENTRIES: usize = 500;
    /// Corrections of one round of a score sheet.
    pub const CORRECTIONS_PER_ROUND: usize = 20;
    /// Characters of any one text field of a tally (e.g. a Lucky Luau lei or player label).
    pub const TALLY_TEXT_CHARS: usize = 500;
    /// Characters of an entry's note.
    pub const NOTE_CHARS: usize = 500;
}

/// The refusal of a write past one of the [`limits`]: `limit` names it, `max` is its value.
pub(crate) fn limit_exceeded(limit: &str, max: usize, detail: impl Into<String>) -> Problem {
    let mut problem = Problem::unprocessable("limit_exceeded", detail);
    problem.params = Some(serde_json::json!({"limit": limit, "max": max}));
    problem
}

/// Reads a stored JSON document by reference: a match's full state is never cloned to be read.
pub(crate) fn stored<T: DeserializeOwned>(what: &str, value: &Value) -> Result<T, Problem> {
    T::deserialize(value)
        .map_err(|e| Problem::internal(format!("stored {what} does not parse: {e}")))
}

/// Names the game in the current service span, once the stored record says which it is.
pub(crate) fn note_game(kind: GameKind) {
    tracing::Span::current().record("game", kind.slug());
}

/// The game of a stored match, pinned to the rules version it was played under: a match is only
/// ever replayed or continued by an engine implementing exactly that version, so a later rules
/// fix (which bumps the version) can never change how an old match replays.
pub(crate) fn kind_of(row: &MatchRow) -> Result<GameKind, Problem> {
    let kind = row.game.kind();
    note_game(kind);
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

/// The players at one match's table and those who won, by name, from seats of many matches.
pub(crate) fn table_names(seats: &[SeatRow], match_id: uuid::Uuid) -> (Vec<String>, Vec<String>) {
    let table = seats.iter().filter(|s| s.match_id == match_id);
    let players = table.clone().map(|s| s.player_name.clone()).collect();
    let winners = table
        .filter(|s| s.winner == Some(true))
        .map(|s| s.player_name.clone())
        .collect();
    (players, winners)
}

/// The names of the winning seats.
pub(crate) fn winner_names(standings: &Standings, seats: &[SeatRow]) -> Vec<String> {
    standings
        .winners
        .iter()
        .filter_map(|&s| seats.get(s).map(|seat| seat.player_name.clone()))
        .collect()
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

/// Characters that show nothing: whitespace, controls, and the default-ignorable format
/// characters (zero-width spaces and joiners, bidi marks and isolates, variation selectors,
/// Hangul fillers, the soft hyphen, the BOM). A name made only of them names no one.
fn is_invisible(c: char) -> bool {
    c.is_control() || is_blank(c)
}

/// Whitespace and the default-ignorable characters, which trimming removes; other control
/// characters are not trimmed but refused.
fn is_blank(c: char) -> bool {
    c.is_whitespace()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}'
            | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{2800}' | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}')
}

/// A name as it is stored and shown: Unicode NFKC (so `ｆｕｌｌ-width` and `ﬁ` ligatures read as
/// the letters they look like), then trimmed of whitespace and invisible format characters.
pub fn normalise_name(name: &str) -> String {
    name.nfkc()
        .collect::<String>()
        .trim_matches(is_blank)
        .to_owned()
}

/// A player's identity: the normalised name without its invisible characters, each run of
/// spaces made one space, lower-cased (`str::to_lowercase`, Unicode's full lower-case mapping,
/// close to but not exactly Unicode case folding) and normalised again. `Dupe`, `dupe`,
/// `ＤＵＰＥ`, `Du\u{200B}pe` and ` dupe ` are one player, `Ann Lee` and `AnnLee` two;
/// statistics, histories and the player filters all compare these keys.
pub fn name_key(name: &str) -> String {
    let shown: String = name
        .nfkc()
        .filter(|&c| c.is_whitespace() || !is_invisible(c))
        .collect();
    let words: Vec<&str> = shown.split_whitespace().collect();
    words.join(" ").to_lowercase().nfkc().collect()
}

/// A player name as typed, checked and normalised ([`normalise_name`]).
pub(crate) fn check_name(name: &str) -> Result<String, Problem> {
    let normalised = normalise_name(name);
    if name_key(&normalised).is_empty() || normalised.chars().any(char::is_control) {
        return Err(Problem::unprocessable(
            "invalid_player_name",
            "a player name has at least one visible character and no control characters",
        ));
    }
    if normalised.chars().count() > limits::NAME_CHARS {
        return Err(limit_exceeded(
            "name_chars",
            limits::NAME_CHARS,
            format!(
                "a player name has at most {} characters",
                limits::NAME_CHARS
            ),
        ));
    }
    Ok(normalised)
}

/// The players of one match or sheet, checked and normalised, each only once: two names with
/// the same key ([`name_key`]) would be one player counted twice.
pub(crate) fn check_names<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<String>, Problem> {
    let mut checked: Vec<String> = Vec::new();
    for name in names {
        let name = check_name(name)?;
        if let Some(earlier) = checked.iter().find(|n| name_key(n) == name_key(&name)) {
            let mut problem = Problem::unprocessable(
                "duplicate_player",
                format!("{name:?} and {earlier:?} are the same player; each player sits once"),
            );
            problem.params = Some(serde_json::json!({"name": name}));
            return Err(problem);
        }
        checked.push(name);
    }
    Ok(checked)
}

/// A fingerprint of what a request asked for, to tell an honest retry (same key, same request)
/// from a key reused for another request.
pub(crate) fn fingerprint(request: &impl std::fmt::Debug) -> Vec<u8> {
    fingerprint_text(format_args!("{request:?}"))
}

/// [`fingerprint`] of a request already written out as text (a move keeps the form its stored
/// fingerprints have always had).
pub(crate) fn fingerprint_text(request: std::fmt::Arguments<'_>) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    Sha256::digest(request.to_string().as_bytes()).to_vec()
}

/// The refusal of an `Idempotency-Key` already used for a different request.
pub(crate) fn idempotency_key_reused(on: &str) -> Problem {
    Problem::unprocessable(
        "idempotency_key_reused",
        format!("this Idempotency-Key was already used for a different request {on}"),
    )
}

/// Seals (or, applied again, opens) a create's first answer with a ChaCha20 stream keyed by a
/// hash of its `Idempotency-Key`: the answer holds tokens, and the store keeps only a different
/// hash of the key, so a copy of the database alone cannot open it. Each key seals one answer
/// only (it is the table's primary key), so no stream is ever used twice.
fn seal(key: &str, bytes: &[u8]) -> Vec<u8> {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    use sha2::{Digest, Sha256};
    let seed: [u8; 32] = Sha256::digest(format!("referee/seal/{key}")).into();
    let mut stream = vec![0u8; bytes.len()];
    rand_chacha::ChaCha20Rng::from_seed(seed).fill_bytes(&mut stream);
    bytes.iter().zip(stream).map(|(b, k)| b ^ k).collect()
}

/// Stores a new match or sheet. With an `Idempotency-Key`, a retry of the same request gets the
/// first answer again and stores nothing; the key used for another request is a 422. Keys of
/// creates are remembered for [`q::CREATE_KEY_RETENTION_HOURS`].
#[allow(clippy::too_many_arguments)]
pub(crate) async fn insert_created<T>(
    store: &Store,
    scope: &str,
    key: Option<&str>,
    request_hash: Vec<u8>,
    row: &MatchRow,
    seats: &[SeatRow],
    events: &[EventRow],
    created: T,
) -> Result<T, Problem>
where
    T: Serialize + DeserializeOwned + Send + Sync,
{
    let parts = (row, seats, events, &[][..]);
    insert_created_with(store, scope, key, request_hash, parts, created).await
}

/// The parts of a new match: its row, seats, first events and open seats' invites.
pub(crate) type NewParts<'a> = (&'a MatchRow, &'a [SeatRow], &'a [EventRow], &'a [InviteRow]);

/// Stores a new match and its parts, all or nothing.
pub(crate) async fn insert_parts(
    conn: &mut AsyncPgConnection,
    (row, seats, events, invites): NewParts<'_>,
) -> Result<(), Problem> {
    use diesel_async::AsyncConnection;
    conn.transaction(async |conn| {
        q::insert(conn, row, seats, events).await?;
        crate::store::lobby::insert_invites(conn, invites).await
    })
    .await?;
    Ok(())
}

/// [`insert_created`] of a match with invites to its open seats.
pub(crate) async fn insert_created_with<T>(
    store: &Store,
    scope: &str,
    key: Option<&str>,
    request_hash: Vec<u8>,
    parts: NewParts<'_>,
    created: T,
) -> Result<T, Problem>
where
    T: Serialize + DeserializeOwned + Send + Sync,
{
    use diesel_async::AsyncConnection;
    use sha2::{Digest, Sha256};
    let row = parts.0;
    let mut conn = store.conn().await?;
    let Some(key) = key else {
        insert_parts(&mut conn, parts).await?;
        return Ok(created);
    };
    let key_hash = Sha256::digest(format!("referee/create/{scope}/{key}")).to_vec();
    let answer = serde_json::to_vec(&created)
        .map_err(|e| Problem::internal(format!("a created {scope} does not serialise: {e}")))?;
    let sealed = seal(key, &answer);
    let earlier = conn
        .transaction(async |conn| {
            if let Some(earlier) = q::claim_create_key(conn, &key_hash, row.created_at).await? {
                return Ok::<_, Problem>(Some(earlier));
            }
            insert_parts(conn, parts).await?;
            let remembered = CreateKeyRow {
                key_hash: key_hash.clone(),
                request_hash: request_hash.clone(),
                match_id: row.id,
                sealed_response: sealed,
                created_at: row.created_at,
            };
            q::remember_create_key(conn, &remembered).await?;
            Ok(None)
        })
        .await?;
    match earlier {
        None => Ok(created),
        Some(earlier) if earlier.request_hash != request_hash => {
            Err(idempotency_key_reused(&format!("to create a {scope}")))
        }
        Some(earlier) => serde_json::from_slice(&seal(key, &earlier.sealed_response))
            .map_err(|e| Problem::internal(format!("a remembered {scope} does not parse: {e}"))),
    }
}

pub(crate) fn check_open(row: &MatchRow, expected_version: Option<i64>) -> Result<(), Problem> {
    check_not_abandoned(row)?;
    if row.status == MatchStatus::Finished {
        return Err(Problem::conflict("match_finished", "the match is over"));
    }
    check_version(row, expected_version)
}

/// An abandoned match or sheet takes no more moves, reports, entries or corrections.
pub(crate) fn check_not_abandoned(row: &MatchRow) -> Result<(), Problem> {
    if row.status == MatchStatus::Abandoned {
        return Err(Problem::conflict(
            "match_abandoned",
            "the owner abandoned this match; it stays in history but takes nothing more",
        ));
    }
    Ok(())
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

/// Parses a stored match's move, chance outcome or tally entry. The API documents these as "any
/// game's", since the match decides which: one that is another game's is well-formed but does not
/// apply here (422); one that is no game's is malformed (400). Both under the same code.
pub(crate) fn parse_for_match<T: DeserializeOwned + serde::Serialize>(
    what: referee::What,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn names_match_serde<T: StoredName + Serialize>() {
        for &value in T::ALL {
            assert_eq!(serde_json::to_value(value).unwrap(), value.as_str());
            assert!(T::from_stored(value.as_str()).is_some());
        }
        assert!(T::from_stored("unknown").is_none());
    }

    #[test]
    fn a_name_key_ignores_case_width_and_invisible_characters() {
        for same in ["DUPE", "ｄｕｐｅ", " du\u{200B}pe\u{FEFF}", "Dupe\u{FE0F}"] {
            assert_eq!(name_key(same), "dupe", "{same:?}");
        }
        assert_eq!(name_key("ZO\u{0045}\u{0301}"), name_key("zoé"));
        assert_ne!(name_key("Ann"), name_key("Anne"));
        // Spaces separate words: a run of them is one, but they are never dropped.
        assert_eq!(name_key(" Ann \u{3000} Lee "), "ann lee");
        assert_ne!(name_key("Ann Lee"), name_key("AnnLee"));
    }

    #[test]
    fn a_name_is_stored_in_nfkc_trimmed_and_control_characters_are_refused() {
        assert_eq!(check_name("  ｆｉnn\u{200B} ").unwrap(), "finn");
        assert_eq!(
            check_name("\u{FB01}nn").unwrap(),
            "finn",
            "the ligature becomes fi"
        );
        assert!(check_name("A\u{0}").is_err());
        assert!(check_name("\u{200B}\u{2060}").is_err());
        assert!(check_names(["Ann", "ANN"]).is_err());
        assert_eq!(check_names(["Ann", "Ben"]).unwrap(), ["Ann", "Ben"]);
    }

    #[test]
    fn stored_names_are_the_serde_names_and_unknown_names_are_refused() {
        names_match_serde::<MatchStatus>();
        names_match_serde::<MatchKind>();
        names_match_serde::<RandomnessMode>();
        names_match_serde::<ChanceReporters>();
    }
}
