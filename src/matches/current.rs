//! A match as it stands: the snapshot stored on its row, with the events appended after it
//! played on top. The log is the truth; the snapshot only saves replaying all of it.

use std::borrow::Cow;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::games::{Consistent, Game, Seat};
use crate::problem::Problem;
use crate::records::{kind_of, stored};
use crate::referee::{self, GameInput, Input, RefereeError, Reporter};
use crate::store::events::LoggedEvent;
use crate::store::matches::{EventRow, MatchRow};
use crate::store::moves::{LiveMatch, LiveState, TypedState};
use crate::with_game;

/// What replaying a stored entry needs of it, whichever query read it.
#[derive(Clone, Copy)]
pub(super) struct Stored<'a> {
    pub ply: i64,
    pub seat: Option<i32>,
    pub payload: &'a Value,
    pub revises: Option<i64>,
    pub reported_by: Option<i32>,
    pub restores: Option<&'a Value>,
    pub at: DateTime<Utc>,
}

/// A stored entry as read by either query: the same columns.
macro_rules! stored_from {
    ($($row:ty),*) => {$(
        impl<'a> From<&'a $row> for Stored<'a> {
            fn from(event: &'a $row) -> Self {
                Self {
                    ply: event.ply,
                    seat: event.seat,
                    payload: &event.payload,
                    revises: event.revises,
                    reported_by: event.reported_by,
                    restores: event.restores.as_ref(),
                    at: event.created_at,
                }
            }
        }
    )*};
}
stored_from!(EventRow, LoggedEvent);

impl Stored<'_> {
    /// The plies a mending revises: the move it takes back (made by a seat), or the chance
    /// outcome it corrects.
    pub fn mends(&self) -> (Option<i64>, Option<i64>) {
        match (self.revises, self.seat) {
            (Some(ply), Some(_)) => (Some(ply), None),
            (Some(ply), None) => (None, Some(ply)),
            (None, _) => (None, None),
        }
    }

    /// Who reported a chance outcome or correction at a table (`table`: the match's chance is
    /// reported, not drawn by the server); none for moves and take-backs.
    pub fn reporter(&self, table: bool) -> Option<Reporter> {
        match self.seat {
            Some(_) => None,
            None => Reporter::of_stored(self.reported_by, table),
        }
    }
}

/// A stored entry, typed for its game: an input, or a mending, which returns the table to the
/// state it stored and, for a correction, resolves the new outcome there.
pub(super) enum Logged<G: Game> {
    Input(GameInput<G>),
    Mend {
        restores: Consistent<G>,
        outcome: Option<G::Chance>,
    },
}

impl<G: Game> Logged<G> {
    pub(super) fn of(entry: Stored) -> Result<Self, Problem> {
        Ok(match (entry.revises, entry.restores) {
            (None, _) => Logged::Input(typed_input::<G>(entry.seat, entry.payload)?),
            (Some(_), Some(restores)) => Logged::Mend {
                restores: stored_state::<G>(stored("state", restores)?)?,
                outcome: match entry.seat {
                    Some(_) => None,
                    None => Some(stored("chance", entry.payload)?),
                },
            },
            (Some(ply), None) => {
                return Err(Problem::internal(format!(
                    "the mending of ply {ply} stores no state"
                )))
            }
        })
    }

    /// Plays the entry on `state`; its events.
    pub(super) fn play(self, state: &mut Consistent<G>) -> Result<Vec<G::Event>, RefereeError> {
        match self {
            Logged::Input(input) => referee::play_input::<G>(state, &input),
            Logged::Mend { restores, outcome } => {
                referee::replay_mend::<G>(state, restores, outcome.as_ref())
            }
        }
    }
}

/// A stored move (with its seat) or chance outcome (without) as the input its game replays.
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
        Logged::<G>::of(event.into())?
            .play(&mut state)
            .map_err(|e| {
                Problem::internal(format!(
                    "match {}: ply {} does not replay on its snapshot: {e}",
                    event.match_id, event.ply
                ))
            })?;
    }
    Ok(state)
}

/// The state of a live match as it stands: as the last move here left it, or its snapshot's
/// text parsed with its tail played on it.
pub(super) fn live_state<G: Game>(live: &LiveMatch) -> Result<Cow<'_, Consistent<G>>, Problem> {
    match &live.state {
        LiveState::Typed(state) => state
            .as_any()
            .downcast_ref::<Consistent<G>>()
            .map(Cow::Borrowed)
            .ok_or_else(|| Problem::internal("a live match holds another game's state")),
        LiveState::Text(text) => {
            let state: G::State = serde_json::from_str(text)
                .map_err(|e| Problem::internal(format!("stored state does not parse: {e}")))?;
            Ok(Cow::Owned(played_on::<G>(
                stored_state::<G>(state)?,
                &live.tail,
            )?))
        }
    }
}

impl<G: Game> TypedState for Consistent<G> {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn text(&self) -> Box<str> {
        // Serialising our own state types cannot fail.
        serde_json::to_string(&**self)
            .unwrap_or_default()
            .into_boxed_str()
    }

    fn value(&self) -> Value {
        referee::to_json(&**self)
    }
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
