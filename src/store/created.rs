//! Storing a new match or sheet, all or nothing, and remembering the first answer of a create
//! sent with an `Idempotency-Key` so that a retry gets it again and stores nothing twice.

use diesel_async::{AsyncConnection, AsyncPgConnection};
use serde::de::DeserializeOwned;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::lobby::{insert_invites, InviteRow};
use super::matches::{self as q, CreateKeyRow, EventRow, MatchRow, SeatRow};
use super::{Store, StoreError};

/// The parts of a new match: its row, seats, first events and open seats' invites.
#[derive(Clone, Copy)]
pub struct NewParts<'a> {
    pub row: &'a MatchRow,
    pub seats: &'a [SeatRow],
    pub events: &'a [EventRow],
    pub invites: &'a [InviteRow],
}

/// What became of a create.
#[derive(Debug)]
pub enum Created<T> {
    /// Stored now; this is its answer.
    Fresh(T),
    /// A retry with the same `Idempotency-Key` and the same request: nothing was stored, and
    /// this is the first create's answer.
    Replayed(T),
    /// The `Idempotency-Key` was already used for a different request: nothing was stored.
    KeyReused,
}

/// Stores a new match and its parts, all or nothing (in the caller's transaction, if any).
pub async fn insert_parts(
    conn: &mut AsyncPgConnection,
    parts: NewParts<'_>,
) -> Result<(), StoreError> {
    conn.transaction(async |conn| {
        q::insert(conn, parts.row, parts.seats, parts.events).await?;
        insert_invites(conn, parts.invites).await
    })
    .await
}

/// Stores a new match or sheet whose answer is `answer`. With an `Idempotency-Key` (`key`, in
/// the namespace `scope`), the answer is remembered sealed for
/// [`q::CREATE_KEY_RETENTION_HOURS`]: a retry of the same request (`request_hash`) gets it back
/// and stores nothing, and another request under the same key stores nothing either.
pub async fn insert_created<T>(
    store: &Store,
    scope: &str,
    key: Option<&str>,
    request_hash: Vec<u8>,
    parts: NewParts<'_>,
    answer: T,
) -> Result<Created<T>, StoreError>
where
    T: Serialize + DeserializeOwned + Send + Sync,
{
    let mut conn = store.conn().await?;
    let Some(key) = key else {
        insert_parts(&mut conn, parts).await?;
        return Ok(Created::Fresh(answer));
    };
    let key_hash = Sha256::digest(format!("referee/create/{scope}/{key}")).to_vec();
    let serialised = serde_json::to_vec(&answer)
        .map_err(|e| StoreError::Internal(format!("a created {scope} does not serialise: {e}")))?;
    let sealed = seal(key, &serialised);
    let created_at = parts.row.created_at;
    let match_id = parts.row.id;
    let earlier = conn
        .transaction(async |conn| {
            if let Some(earlier) = q::claim_create_key(conn, &key_hash, created_at).await? {
                return Ok::<_, StoreError>(Some(earlier));
            }
            insert_parts(conn, parts).await?;
            let remembered = CreateKeyRow {
                key_hash: key_hash.clone(),
                request_hash: request_hash.clone(),
                match_id,
                sealed_response: sealed,
                created_at,
            };
            q::remember_create_key(conn, &remembered).await?;
            Ok(None)
        })
        .await?;
    match earlier {
        None => Ok(Created::Fresh(answer)),
        Some(earlier) if earlier.request_hash != request_hash => Ok(Created::KeyReused),
        Some(earlier) => serde_json::from_slice(&seal(key, &earlier.sealed_response))
            .map(Created::Replayed)
            .map_err(|e| StoreError::Internal(format!("a remembered {scope} does not parse: {e}"))),
    }
}

/// Seals (or, applied again, opens) a create's first answer with a ChaCha20 stream keyed by a
/// hash of its `Idempotency-Key`: the answer holds tokens, and the store keeps only a different
/// hash of the key, so a copy of the database alone cannot open it. Each key seals one answer
/// only (it is the table's primary key), so no stream is ever used twice.
fn seal(key: &str, bytes: &[u8]) -> Vec<u8> {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let seed: [u8; 32] = Sha256::digest(format!("referee/seal/{key}")).into();
    let mut stream = vec![0u8; bytes.len()];
    rand_chacha::ChaCha20Rng::from_seed(seed).fill_bytes(&mut stream);
    bytes.iter().zip(stream).map(|(b, k)| b ^ k).collect()
}
