//! What each viewer may see of a state and of an event.
//!
//! The view types themselves are here too, next to the code that fills them.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

impl crate::games::Sight<State> for View {
    fn of(state: &State, viewer: Viewer) -> View {
        let full = viewer == Viewer::Full;
        let chance = state.chance.as_ref().map(|c| {
            let (seat, count) = match c {
                PendingChance::Deal {
                    hands,
                    cards_per_hand,
                    ..
                } => (None, hands * cards_per_hand + 1),
                PendingChance::Draw { seat, count, .. } => (Some(*seat), *count),
                PendingChance::Flip { seat, .. } => (Some(*seat), 1),
            };
            ChanceView {
                kind: c.kind(),
                seat,
                count,
                pile_size: c.pile().total(),
                pile: full.then(|| *c.pile()),
            }
        });
        View {
            viewer,
            players: state.players,
            options: state.options.clone(),
            round: state.round,
            starter: state.starter,
            turn: state.turn,
            phase: state.phase,
            to_act: LuckyJack::to_act(state),
            discard: state.discard.clone(),
            draw_pile_size: state.draw_pile.total(),
            draw_pile: full.then_some(state.draw_pile),
            hand_sizes: state.hands.iter().map(Vec::len).collect(),
            hands: viewer.hands_seen(&state.hands),
            drawn_card_pending: state.pending.is_some(),
            pending: state.pending.filter(|_| viewer.sees_seat(state.turn)),
            takeable: state.takeable,
            turn_start_hand: state.turn_start_hand,
            draw_owed: state.draw_owed,
            turns_this_round: state.turns_this_round,
            chance,
            results: state.results.clone(),
            totals: totals(state),
            legal_moves: LuckyJack::view_moves(state, viewer),
        }
    }
}

impl crate::games::Redact for Event {
    fn redacted(&self, viewer: Viewer) -> Event {
        let mut event = self.clone();
        match &mut event {
            Event::Dealt { seat, cards, .. } | Event::Drew { seat, cards, .. }
                if !viewer.sees_seat(*seat) =>
            {
                *cards = None;
            }
            Event::Kept { seat, card } if !viewer.sees_seat(*seat) => *card = None,
            _ => {}
        }
        event
    }
}

/// The pending chance event as a viewer sees it.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackChanceView)]
pub struct ChanceView {
    /// What kind of outcome is awaited.
    pub kind: ChanceKind,
    /// The drawing or reshuffling seat (none for a deal).
    pub seat: Option<Seat>,
    /// Cards the outcome takes from the pile (7 × players + 1 for a deal).
    pub count: usize,
    /// Size of the pile the outcome comes from.
    pub pile_size: usize,
    /// The pile's composition: only for the full view.
    pub pile: Option<Counts>,
}

/// What one viewer may see of a state.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackView)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// Number of seats.
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current round, from 1.
    pub round: u32,
    /// The seat that started the current round.
    pub starter: Seat,
    /// Whose turn it is.
    pub turn: Seat,
    /// Where play stands.
    pub phase: Phase,
    /// Seats that may move now (empty while chance is pending or the game is over).
    pub to_act: Vec<Seat>,
    /// The face-up discard pile, bottom to top.
    pub discard: Vec<Symbol>,
    /// Cards in the draw pile.
    pub draw_pile_size: usize,
    /// The draw pile's composition: only for the full view.
    pub draw_pile: Option<Counts>,
    /// Each seat's number of cards.
    pub hand_sizes: Vec<usize>,
    /// Each seat's cards, only where the viewer may see them (own seat, or all for full).
    pub hands: Vec<Option<Vec<Symbol>>>,
    /// Whether `turn` holds a drawn card it has not yet kept or discarded.
    pub drawn_card_pending: bool,
    /// That drawn card: only for its drawer and the full view.
    pub pending: Option<Symbol>,
    /// The discarded drawn card the next seat may take.
    pub takeable: Option<Takeable>,
    /// `turn`'s hand size when its turn began.
    pub turn_start_hand: usize,
    /// Cards `turn` still has to draw.
    pub draw_owed: usize,
    /// Turns completed in this round.
    pub turns_this_round: u32,
    /// The pending chance event.
    pub chance: Option<ChanceView>,
    /// Finished rounds.
    #[schema(value_type = Vec<RoundResult>)]
    pub results: Rounds<RoundResult>,
    /// Points per seat so far.
    pub totals: Vec<i64>,
    /// The viewer's legal moves (empty for spectators and the full view).
    pub legal_moves: Vec<Move>,
}
