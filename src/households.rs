//! Households: a group that owns its records (docs/households.md). A household is made with one
//! call and answered with two keys: the owner key, which also writes (sheets, matches and
//! imports made with it belong to the household), and the reader key, which only reads. Either
//! key, sent as the `Household-Key` header, puts a request in the household's space: its players,
//! statistics, boards, ratings and records. Without one a request is in the public space, where
//! everything made without a key lives; a household's records are never seen from there.

use chrono::{DateTime, SubsecRound, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use std::collections::{BTreeMap, HashSet};

use crate::games::GameKind;
use crate::problem::{Code, Problem};
use crate::records::{check_name, check_names, limit_exceeded};
pub use crate::store::households::KeyRole;
use crate::store::households::{self as q, needs_naming, HouseholdRow, PublicRecord};
use crate::store::Store;
use crate::tokens;
use crate::vocabulary::{limits, name_key, MatchKind, MatchStatus, Space};

/// The header that carries a household key.
pub const HOUSEHOLD_KEY: &str = "Household-Key";

/// A new household's name.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "The Lees"}))]
pub struct CreateHousehold {
    /// Checked like a player's name: shown on the phones that join.
    pub name: String,
}

/// A household as its keys' holders see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Household {
    pub id: Uuid,
    pub name: String,
    pub created_at: DateTime<Utc>,
}

/// A new household and its two keys, shown only in this answer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "household": {"id": "5b1f0a52-7d7e-4c43-9f3e-2f4d8c1a9b10", "name": "The Lees",
                  "created_at": "2026-11-28T18:00:00Z"},
    "owner_key": "hh_owner_Qm9yZWQgYnV0IHJhbmRvbSBieXRlcyBvZiBhIGtleQ",
    "reader_key": "hh_reader_UmFuZG9tIGJ5dGVzIGZvciByZWFkaW5nIG9ubHk"
}))]
pub struct CreatedHousehold {
    pub household: Household,
    /// Send as `Household-Key` to make records in the household and to read them. Keep it
    /// on the phones of those who keep score.
    pub owner_key: String,
    /// Send as `Household-Key` to read the household's records, boards and ratings only: for
    /// a phone or an app that follows along.
    pub reader_key: String,
}

/// A household key just issued in place of the one before, which opens nothing any more.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct HouseholdKey {
    pub household_id: Uuid,
    pub key: String,
}

/// What a request needs of the space it works in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Reading: either key of a household, or none for the public space.
    Read,
    /// Making a record: the owner key of a household, or none for the public space.
    Write,
}

pub async fn create(store: &Store, request: CreateHousehold) -> Result<CreatedHousehold, Problem> {
    let name = check_name(&request.name)?;
    let (owner_key, owner_hash) =
        tokens::issue(&KeyRole::Owner.prefix()).map_err(Problem::internal)?;
    let (reader_key, reader_hash) =
        tokens::issue(&KeyRole::Reader.prefix()).map_err(Problem::internal)?;
    let row = HouseholdRow {
        id: Uuid::new_v4(),
        name,
        created_at: Utc::now().trunc_subsecs(6),
    };
    let mut conn = store.conn().await?;
    q::insert(&mut conn, &row, &owner_hash, &reader_hash).await?;
    Ok(CreatedHousehold {
        household: household(row),
        owner_key,
        reader_key,
    })
}

/// The space a request works in: the household `key` opens (refused if it opens none, or if
/// it only reads and `need` writes), or the public space without a key.
pub async fn space(store: &Store, key: Option<&str>, need: Need) -> Result<Space, Problem> {
    let Some(key) = key else {
        return Ok(Space::PUBLIC);
    };
    let (household, role) = opened(store, key).await?;
    if need == Need::Write && role == KeyRole::Reader {
        return Err(Problem::new(
            Code::HouseholdReaderKey,
            "this household key only reads: records are made with the household's owner key",
        ));
    }
    Ok(Space::of(household))
}

/// The household `id`, to a holder of one of its keys.
pub async fn read(store: &Store, id: Uuid, key: &str) -> Result<Household, Problem> {
    let (household, _) = opened(store, key).await?;
    if household != id {
        return Err(unknown_household(id));
    }
    let mut conn = store.conn().await?;
    let row = q::find(&mut conn, id)
        .await?
        .ok_or_else(|| unknown_household(id))?;
    Ok(self::household(row))
}

/// A new key of `role` for the household `id` (owner key only); the one before stops at once.
pub async fn reissue_key(
    store: &Store,
    id: Uuid,
    owner_key: &str,
    role: KeyRole,
) -> Result<HouseholdKey, Problem> {
    if space(store, Some(owner_key), Need::Write).await? != Space::of(id) {
        return Err(unknown_household(id));
    }
    let (key, hash) = tokens::issue(&role.prefix()).map_err(Problem::internal)?;
    let mut conn = store.conn().await?;
    q::replace_key(&mut conn, id, role, &hash).await?;
    Ok(HouseholdKey {
        household_id: id,
        key,
    })
}

/// Public records to bring into a household: those of the players named.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"players": ["Mum", "Dad", "Zoé"], "dry_run": true}))]
pub struct BringIn {
    /// The household's players as the public records name them, each once (look-alike names
    /// are one player, as everywhere). A public record moves into the household when it has
    /// ended and everyone at it is named here.
    #[schema(min_items = 1, max_items = 64)]
    pub players: Vec<String>,
    /// Only say what would move, and move nothing.
    #[serde(default)]
    pub dry_run: bool,
}

/// What a bring-in moved (or, as a dry run, would move) and what stays public.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "dry_run": false, "moved": 3,
    "games": [{"game": "lucky-jack", "records": 2}, {"game": "lucky-luau", "records": 1}],
    "players": [{"name": "Mum", "records": 3}, {"name": "Dad", "records": 3},
                {"name": "Zoé", "records": 1}],
    "stayed": 1,
    "left_behind": [{"id": "0b9f6c3e-4d2a-4f7e-9c1b-5a8e2d7f3c61", "kind": "sheet",
                     "game": "lucky-dice", "players": ["Mum", "Grandpa"],
                     "reason": "other_players", "others": ["Grandpa"]}]
}))]
pub struct BroughtIn {
    pub dry_run: bool,
    /// Records (sheets and hosted matches) that moved into the household.
    pub moved: usize,
    /// How many of them per game.
    pub games: Vec<GameRecords>,
    /// Each player named, as asked, and how many moved records they sat at: 0 means no public
    /// record of theirs could move (a misspelt name, or every record has someone not named).
    pub players: Vec<PlayerRecords>,
    /// Public records of the players named that stay public.
    pub stayed: usize,
    /// The newest of those (at most 50), each with why it stays.
    pub left_behind: Vec<LeftBehind>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameRecords {
    pub game: GameKind,
    pub records: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerRecords {
    pub name: String,
    pub records: usize,
}

/// A public record of the players named that stays public.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LeftBehind {
    pub id: Uuid,
    pub kind: MatchKind,
    pub game: GameKind,
    /// Everyone at it, by seat.
    pub players: Vec<String>,
    pub reason: StayReason,
    /// The players at it who were not named (for `other_players`).
    pub others: Vec<String>,
}

/// Why a public record stays public.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StayReason {
    /// It is still being played: bring it in once it has ended.
    InPlay,
    /// Someone at it was not named: name them too to bring it in.
    OtherPlayers,
}

/// How many records a bring-in's report lists one by one.
const LEFT_BEHIND_LISTED: usize = 50;

/// Brings the public records of the players `request` names into the household `id` (its owner
/// key), or says what would move: records that have ended and at which everyone is named.
/// Their players become the household's, with their statistics and ratings; what stays public
/// is reported with why. Asking again moves nothing new.
pub async fn bring_in(
    store: &Store,
    id: Uuid,
    owner_key: &str,
    request: BringIn,
) -> Result<BroughtIn, Problem> {
    if space(store, Some(owner_key), Need::Write).await? != Space::of(id) {
        return Err(unknown_household(id));
    }
    if request.players.len() > limits::BRING_IN_PLAYERS {
        return Err(limit_exceeded(
            "bring_in_players",
            limits::BRING_IN_PLAYERS,
            format!(
                "a bring-in names at most {} players",
                limits::BRING_IN_PLAYERS
            ),
        ));
    }
    let names = check_names(request.players.iter().map(String::as_str))?;
    if names.is_empty() {
        return Err(Problem::new(
            Code::InvalidPlayer,
            "name at least one player whose public records to bring in",
        ));
    }
    let keys: Vec<String> = names.iter().map(|name| name_key(name)).collect();
    let mut conn = store.conn().await?;
    let (records, moved) = q::bring_in(&mut conn, id, &keys, request.dry_run).await?;
    let named: HashSet<String> = keys.iter().cloned().collect();
    let moved: HashSet<Uuid> = if request.dry_run {
        records
            .iter()
            .filter(|record| record.movable(&named))
            .map(|record| record.id)
            .collect()
    } else {
        moved.into_iter().collect()
    };
    Ok(report(request.dry_run, &names, &keys, &records, &moved))
}

/// The report of a bring-in: `records` are every public record of the players named (newest
/// first), `moved` the ids of those that moved.
fn report(
    dry_run: bool,
    names: &[String],
    keys: &[String],
    records: &[PublicRecord],
    moved: &HashSet<Uuid>,
) -> BroughtIn {
    let (went, stayed): (Vec<&PublicRecord>, Vec<&PublicRecord>) = records
        .iter()
        .partition(|record| moved.contains(&record.id));
    let mut games: BTreeMap<&str, (GameKind, usize)> = BTreeMap::new();
    for record in &went {
        let kind = record.game.kind();
        games.entry(kind.slug()).or_insert((kind, 0)).1 += 1;
    }
    let named: HashSet<&String> = keys.iter().collect();
    BroughtIn {
        dry_run,
        moved: went.len(),
        games: games
            .into_values()
            .map(|(game, records)| GameRecords { game, records })
            .collect(),
        players: names
            .iter()
            .zip(keys)
            .map(|(name, key)| PlayerRecords {
                name: name.clone(),
                records: went.iter().filter(|r| r.keys.contains(key)).count(),
            })
            .collect(),
        stayed: stayed.len(),
        left_behind: stayed
            .iter()
            .take(LEFT_BEHIND_LISTED)
            .map(|record| LeftBehind {
                id: record.id,
                kind: record.kind,
                game: record.game.kind(),
                players: record.names.clone(),
                reason: if record.status == MatchStatus::InProgress {
                    StayReason::InPlay
                } else {
                    StayReason::OtherPlayers
                },
                others: record
                    .names
                    .iter()
                    .zip(&record.keys)
                    .filter(|(_, key)| needs_naming(key) && !named.contains(key))
                    .map(|(name, _)| name.clone())
                    .collect(),
            })
            .collect(),
    }
}

async fn opened(store: &Store, key: &str) -> Result<(Uuid, KeyRole), Problem> {
    let mut conn = store.conn().await?;
    q::by_key(&mut conn, &tokens::hash(key))
        .await?
        .ok_or_else(|| {
            Problem::new(
                Code::InvalidHouseholdKey,
                "this household key opens no household (it may have been replaced)",
            )
        })
}

fn household(row: HouseholdRow) -> Household {
    Household {
        id: row.id,
        name: row.name,
        created_at: row.created_at,
    }
}

fn unknown_household(id: Uuid) -> Problem {
    Problem::new(
        Code::UnknownHousehold,
        format!("no household {id} opens with this key"),
    )
}
