//! The import applied and reported: the file read and its plays planned off the async workers
//! (two files at a time), then written in the order they ended, a batch per transaction and a
//! connection per batch, each play all or nothing; plays already stored are matched when their
//! content is the same, reported as conflicts when not, never written again; the report says
//! what became of each play and who its players are here.

use std::collections::BTreeMap;

use chrono::{SubsecRound, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::plan::{plan, skip, Planned, SkipReason};
use super::read::read_file;
use crate::games::GameKind;
use crate::problem::Problem;
use crate::store::plays::{self, NewPlay, Written};
use crate::store::Store;
use crate::vocabulary::Space;

/// Plays written per transaction (each in its own savepoint): the connection and the games'
/// turns are held for one batch, so imports and finishes go between batches.
const IMPORT_BATCH: usize = 100;

/// Files read and planned at once: a full file's parse takes a few hundred milliseconds of CPU
/// and about 17 times its size in memory; more files wait their turn.
static PARSING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// What became of one play of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayOutcome {
    /// A new score sheet.
    Created,
    /// A match or sheet with this play's id is already stored with the same game, players and
    /// scores (the same play imported before, or exported from here): nothing was written.
    Matched,
    /// A match or sheet with this play's id is stored with another game, other players or
    /// other scores: nothing was written, and `reason` says so (`content_differs`).
    Conflict,
    /// Not imported; `reason` says why.
    Skipped,
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
    /// What to check in a play kept as the file has it (`ranks_contradict_scores`: the file's
    /// ranks put a player above someone who scored better).
    pub notes: Vec<SkipReason>,
}

/// A player of the file's imported plays, matched by name key to the players already here.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ImportedPlayer {
    /// The name as the file writes it.
    pub name: String,
    /// The name this service already knew the player by, or null for a new player.
    pub known_as: Option<String>,
    /// BG Stats' anonymous player: kept in the plays' standings, never counted or rated.
    pub anonymous: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ImportReport {
    pub created: usize,
    pub matched: usize,
    pub conflicts: usize,
    pub skipped: usize,
    /// One per play of the file, in its order.
    pub plays: Vec<ImportedPlay>,
    /// The players of the plays created or matched.
    pub players: Vec<ImportedPlayer>,
}

/// Imports a file of plays: each play checked on its own (skipped with a reason if it cannot be
/// one of these games' results) and written all or nothing; plays already stored are matched,
/// not written again. The plays written are rated as they arrive (docs/ratings.md). A dry run
/// writes the plays in one transaction and takes them back: its report is exactly what the
/// import would do then, without owner tokens, and nothing is rated or kept.
#[tracing::instrument(skip_all, fields(bytes = body.as_ref().len(), dry_run))]
pub async fn import(
    store: &Store,
    body: impl AsRef<[u8]> + Send + 'static,
    space: Space,
    dry_run: bool,
) -> Result<ImportReport, Problem> {
    let Prepared {
        mut plays,
        planned,
        keys,
    } = {
        let _turn = PARSING
            .acquire()
            .await
            .map_err(|e| Problem::internal(format!("the import queue closed: {e}")))?;
        tokio::task::spawn_blocking(move || prepare(body.as_ref(), space))
            .await
            .map_err(|e| Problem::internal(format!("an import's parse failed: {e}")))??
    };
    let known = {
        let mut conn = store.conn().await?;
        plays::known_players(&mut conn, &keys).await?
    };
    let outcomes = if dry_run {
        let all: Vec<&NewPlay> = planned.iter().map(|(_, p)| &p.play).collect();
        let mut conn = store.conn().await?;
        plays::try_plays(&mut conn, &all).await?
    } else {
        let mut outcomes = Vec::with_capacity(planned.len());
        for batch in planned.chunks(IMPORT_BATCH) {
            let new: Vec<&NewPlay> = batch.iter().map(|(_, p)| &p.play).collect();
            let mut conn = store.conn().await?;
            outcomes.extend(plays::insert_plays(&mut conn, &new).await?);
        }
        outcomes
    };
    // Each player's first name in the file, and whether the seat is nobody's.
    let mut first_names: BTreeMap<String, (String, bool)> = BTreeMap::new();
    for ((index, ready), written) in planned.iter().zip(outcomes) {
        if written != Written::Conflict {
            for seat in &ready.play.seats {
                first_names
                    .entry(seat.player_key.clone())
                    .or_insert_with(|| (seat.player_name.clone(), seat.anonymous));
            }
        }
        plays.push(ImportedPlay {
            index: *index,
            outcome: match written {
                Written::Created => PlayOutcome::Created,
                Written::AlreadyStored => PlayOutcome::Matched,
                Written::Conflict => PlayOutcome::Conflict,
            },
            id: Some(ready.play.row.id),
            game: Some(ready.play.row.game.kind()),
            owner_token: (written == Written::Created && !dry_run)
                .then(|| ready.owner_token.clone()),
            reason: (written == Written::Conflict).then(|| {
                skip(
                    "content_differs",
                    "a match or sheet with this id is stored with another game, other \
                     players or other scores; nothing was written",
                )
            }),
            notes: ready.notes.clone(),
        });
    }
    plays.sort_by_key(|p| p.index);
    let count = |outcome| plays.iter().filter(|p| p.outcome == outcome).count();
    Ok(ImportReport {
        created: count(PlayOutcome::Created),
        matched: count(PlayOutcome::Matched),
        conflicts: count(PlayOutcome::Conflict),
        skipped: count(PlayOutcome::Skipped),
        players: first_names
            .into_iter()
            .map(|(key, (name, anonymous))| ImportedPlayer {
                known_as: (!anonymous).then(|| known.get(&key).cloned()).flatten(),
                name,
                anonymous,
            })
            .collect(),
        plays,
    })
}

/// A file read and planned: the plays skipped, the plays to write in the order they ended, and
/// their players' keys.
struct Prepared {
    plays: Vec<ImportedPlay>,
    planned: Vec<(usize, Planned)>,
    keys: Vec<String>,
}

/// Reads and plans a file (CPU only).
fn prepare(body: &[u8], space: Space) -> Result<Prepared, Problem> {
    let read = read_file(body)?;
    let file = &read.file;
    let now = Utc::now().trunc_subsecs(6);
    let mut plays: Vec<ImportedPlay> = Vec::with_capacity(file.plays.len());
    let mut planned: Vec<(usize, Planned)> = Vec::new();
    for (index, play) in file.plays.iter().enumerate() {
        match plan(&read, play, now, space) {
            Ok(ready) => planned.push((index, ready)),
            Err(reason) => plays.push(ImportedPlay {
                index,
                outcome: PlayOutcome::Skipped,
                id: None,
                game: None,
                owner_token: None,
                reason: Some(reason),
                notes: Vec::new(),
            }),
        }
    }
    // In the order they ended: they arrive, and are rated, in the order they were played.
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
    Ok(Prepared {
        plays,
        planned,
        keys,
    })
}
