//! A match as it stands: the snapshot stored on its row, with the events appended after it
//! played on top. The log is the truth; the snapshot only saves replaying all of it.

use serde_json::Value;

use crate::games::{Consistent, Game, Seat};
use crate::problem::Problem;
use crate::records::{kind_of, stored};
use crate::referee::{self, GameInput, Input};
use crate::store::matches::{EventRow, MatchRow};
use crate::with_game;

/// A stored event (its seat, or none for chance, and its payload) as the input its game replays.
pub(super) fn typed_input<G: Game>(
    seat: Option<i32>,
    payload: &Value,
) -> Result<GameInput<G>, Problem> {
    Ok(match seat {
        Some(seat) => Input::Move {
            seat: seat as Seat,
            mv: stored("move", payload)?,
        },
        None => Input::Chance(stored("chance", payload)?),
    })
}

/// A stored state, checked as every state a move starts from is.
pub(super) fn stored_state<G: Game>(state: G::State) -> Result<Consistent<G>, Problem> {
    referee::consistent::<G>(state)
        .map_err(|e| Problem::internal(format!("stored state is not consistent: {e}")))
}

/// `tail`, the events after the snapshot `state`, played on it.
pub(super) fn played_on<G: Game>(
    mut state: Consistent<G>,
    tail: &[EventRow],
) -> Result<Consistent<G>, Problem> {
    for event in tail {
        referee::play_input::<G>(&mut state, &typed_input::<G>(event.seat, &event.payload)?)
            .map_err(|e| {
                Problem::internal(format!(
                    "match {}: ply {} does not replay on its snapshot: {e}",
                    event.match_id, event.ply
                ))
            })?;
    }
    Ok(state)
}

/// Brings a row read with [`crate::store::matches::find_current`] up to its log: its `state`,
/// `version` and `updated_at` become the match's as it stands.
pub(super) fn catch_up(row: &mut MatchRow, tail: &[EventRow]) -> Result<(), Problem> {
    if tail.is_empty() {
        return Ok(());
    }
    let state: Value =
        with_game!(kind_of(row)?, G => referee::to_json(&typed_state::<G>(row, tail)?));
    row.state = state;
    Ok(())
}

/// The typed state of a row read with [`crate::store::matches::find_current`]: its snapshot
/// with `tail` played on it. The row's `version` and `updated_at` become the match's as it
/// stands; its `state` is left as it was read.
pub(super) fn typed_state<G: Game>(
    row: &mut MatchRow,
    tail: &[EventRow],
) -> Result<Consistent<G>, Problem> {
    let state = played_on::<G>(stored_state::<G>(stored("state", &row.state)?)?, tail)?;
    if let Some(last) = tail.last() {
        row.version = last.ply;
        row.updated_at = last.created_at;
    }
    Ok(state)
}
