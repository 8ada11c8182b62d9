//! What each viewer may see of a state and of an event. Everything is public except which card
//! a face-down draw turned up (until it is strung or tossed) and the face-down pile's make-up.
//!
//! The view types themselves are here too, next to the code that fills them.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

impl crate::games::Sight<State> for View {
    fn of(state: &State, viewer: Viewer) -> View {
        let full = viewer == Viewer::Full;
        let chance = state.chance.as_ref().map(|c| {
            let PendingChance::Draw { seat, pile } = c;
            ChanceView {
                kind: ChanceKind::Draw,
                seat: *seat,
                pile_size: pile.total(),
                pile: full.then_some(*pile),
            }
        });
        let pending = state.pending.map(|p| PendingView {
            face_up: p.face_up,
            card: (p.face_up || viewer.sees_seat(state.turn)).then_some(p.card),
        });
        View {
            viewer,
            players: state.players,
            options: state.options.clone(),
            phase: state.phase,
            turn: state.turn,
            to_act: LuckyLuau::to_act(state),
            face_down_count: state.face_down.total(),
            face_down: full.then_some(state.face_down),
            face_up: state.face_up,
            seats: state.seats.clone(),
            pending,
            chance,
            score: score(state),
            legal_moves: LuckyLuau::view_moves(state, viewer),
        }
    }
}

impl crate::games::Redact for Event {
    fn redacted(&self, viewer: Viewer) -> Event {
        let mut event = self.clone();
        if let Event::Drew {
            seat,
            face_up: false,
            card,
        } = &mut event
        {
            if !viewer.sees_seat(*seat) {
                *card = None;
            }
        }
        event
    }
}

/// The pending chance event as a viewer sees it.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauChanceView)]
pub struct ChanceView {
    /// What kind of outcome is awaited.
    pub kind: ChanceKind,
    /// The drawing seat.
    pub seat: Seat,
    /// Cards in the face-down pile.
    pub pile_size: usize,
    /// The face-down pile's composition: only for the full view.
    pub pile: Option<Counts>,
}

/// The drawn card as a viewer sees it.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauPendingView)]
pub struct PendingView {
    /// Whether it was taken face up.
    pub face_up: bool,
    /// The card: for everyone if taken face up, else only for its drawer and the full view.
    pub card: Option<Card>,
}

/// What one viewer may see of a state.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauView)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// Number of seats.
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Where play stands.
    pub phase: Phase,
    /// Whose turn it is.
    pub turn: Seat,
    /// Seats that may move now: the current player first, then every seat that may still use
    /// a tool; in the end phase the seats that have not finished.
    pub to_act: Vec<Seat>,
    /// Cards in the face-down pile.
    pub face_down_count: usize,
    /// The face-down pile's composition: only for the full view.
    pub face_down: Option<Counts>,
    /// Face-up cards in the centre.
    pub face_up: Counts,
    /// Every seat's lei and tools (public).
    pub seats: Vec<Player>,
    /// The drawn card not yet strung or tossed.
    pub pending: Option<PendingView>,
    /// The pending chance event.
    pub chance: Option<ChanceView>,
    /// The leis scored as they stand (final once the game is over).
    pub score: Score,
    /// The viewer's legal moves (empty for spectators and the full view).
    pub legal_moves: Vec<Move>,
}
