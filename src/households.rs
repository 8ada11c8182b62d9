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

use crate::problem::{Code, Problem};
use crate::records::check_name;
pub use crate::store::households::KeyRole;
use crate::store::households::{self as q, HouseholdRow};
use crate::store::Store;
use crate::tokens;
use crate::vocabulary::Space;

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
