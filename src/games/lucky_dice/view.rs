//! What each viewer may see of a state: everything on the table, not the pile's composition.
//!
//! The view types themselves are here too, next to the code that fills them.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

impl crate::games::Sight<State> for View {
    fn of(state: &State, viewer: Viewer) -> View {
        View {
            viewer,
            players: state.players,
            options: state.options.clone(),
            round: state.round,
            phase: state.phase,
            to_act: LuckyDice::to_act(state),
            lucky_symbol: state.lucky_symbol,
            coasters: state.coasters.clone(),
            won: state.won.clone(),
            pools: state.pools.clone(),
            tray: state.tray,
            pile_size: state.pile.len(),
            pile: (viewer == Viewer::Full).then(|| state.pile.clone()),
            stop_caller: state.stop_caller,
            extra_rolls_used: state.extra_rolls_used.clone(),
            finished_extra: state.finished_extra.clone(),
            chance: state.chance.clone(),
            results: state.results.clone(),
            totals: totals(state),
            legal_moves: LuckyDice::view_moves(state, viewer),
        }
    }
}

/// What one viewer may see of a state. Everything is public except the pile's composition.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceView)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// Number of seats.
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current round, from 1.
    pub round: u32,
    /// Where play stands.
    pub phase: Phase,
    /// Seats that may move now: in the race every seat holding dice.
    pub to_act: Vec<Seat>,
    /// The round's ultimate lucky symbol.
    pub lucky_symbol: Option<Symbol>,
    /// Each seat's face-up coaster.
    pub coasters: Vec<Option<Coaster>>,
    /// Each seat's face-down coasters.
    pub won: Vec<Vec<Coaster>>,
    /// Dice each seat holds: send yours back as `dice` with your roll.
    pub pools: Vec<u32>,
    /// Dice on the tray.
    pub tray: u32,
    /// Coasters left in the pile.
    pub pile_size: usize,
    /// The pile's composition: only for the full view.
    pub pile: Option<Vec<Coaster>>,
    /// Who called "Stop!".
    pub stop_caller: Option<Seat>,
    /// Extra rolls taken per seat.
    pub extra_rolls_used: Vec<u32>,
    /// Seats that declined their remaining extra rolls.
    pub finished_extra: Vec<bool>,
    /// The pending chance event.
    pub chance: Option<PendingChance>,
    /// Finished rounds.
    #[schema(value_type = Vec<RoundResult>)]
    pub results: Rounds<RoundResult>,
    /// Face-down coasters per seat.
    pub totals: Vec<i64>,
    /// The viewer's legal moves (empty for spectators and the full view).
    pub legal_moves: Vec<Move>,
}

impl crate::games::Redact for Event {
    fn redacted(&self, _viewer: Viewer) -> Event {
        // Every event is public: dice, coasters and the large die are all on the table.
        self.clone()
    }
}
