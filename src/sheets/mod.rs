//! Score sheets: games played with real cards and dice, recorded one round (or hand) at a time in
//! the game's own terms. Every entry is checked against the rules and scored by the game's own
//! scoring code; totals, ranks, the end of the game and the winners are computed, never typed.
//!
//! Entries are append-only. A correction is a new entry naming the one it supersedes; the sheet
//! shows the rounds as corrected and keeps every entry as the audit trail. What the owner mends or
//! decides is an entry too, never a rewrite: taking the last round away (a `removal`, which
//! supersedes the round's standing entry), renaming a player (a `rename`), ending the sheet early
//! with the standings so far (a `finish`). A sheet's version is always its number of entries.

use diesel_async::AsyncPgConnection;
use uuid::Uuid;

use crate::problem::{Code, Problem};
use crate::store::matches::{self as q, MatchRow};
use crate::tokens;
use crate::vocabulary::MatchKind;

mod create;
mod evening;
mod standing;
mod wire;
mod write;

pub use create::create;
pub(crate) use create::{new_rows, prepare};
pub use evening::{
    evening, reissue_owner_token, rematch, Evening, EveningPlayer, EveningSheet, SheetOwnerToken,
};
pub use standing::read;
pub(crate) use standing::shown;
pub use wire::*;
pub use write::{append, early_finish_refusal, finish_early, remove_last_round, rename_player};

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
    crate::store::UnknownRecord::sheet(id).into()
}
