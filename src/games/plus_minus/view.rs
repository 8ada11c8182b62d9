//! What each viewer may see of a state and of an event.
//!
//! The view types themselves are here too, next to the code that fills them.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

fn stack_view(cards: &[Card], full: bool, secret: bool) -> StackView {
    StackView {
        size: cards.len(),
        top: if secret { None } else { cards.last().copied() },
        cards: full.then(|| cards.to_vec()),
    }
}

impl crate::games::Sight<State> for View {
    fn of(state: &State, viewer: Viewer) -> View {
        let full = viewer == Viewer::Full;
        let chance = state.chance.as_ref().map(|c| {
            let (seat, reason) = match c {
                PendingChance::Deal { .. } => (None, None),
                PendingChance::Draw { seat, reason, .. } => (Some(*seat), Some(*reason)),
            };
            ChanceView {
                kind: c.kind(),
                seat,
                reason,
                count: c.count(),
                pile_size: c.pile().len(),
                pile: full.then(|| c.pile().clone()),
            }
        });
        let choosing = state.phase == Phase::Choose;
        View {
            viewer,
            players: state.players,
            options: state.options.clone(),
            round: state.round,
            rounds: rounds_in_game(&state.options, state.players),
            dealer: state.dealer,
            turn: state.turn,
            phase: state.phase,
            to_act: PlusMinus::to_act(state),
            plays_remaining: state.plays_remaining,
            turns_this_round: state.turns_this_round,
            draw_stack_size: state.draw_stack.len(),
            draw_stack: full.then(|| state.draw_stack.clone()),
            hand_sizes: state.hands.iter().map(Vec::len).collect(),
            hands: viewer.hands_seen(&state.hands),
            stacks: state
                .stacks
                .iter()
                .enumerate()
                .map(|(seat, s)| {
                    // While face-up cards are being chosen, a choice stays secret until all are in.
                    let secret = choosing && !viewer.sees_seat(seat);
                    SeatStacksView {
                        plus: stack_view(&s.plus, full, secret),
                        minus: stack_view(&s.minus, full, secret),
                    }
                })
                .collect(),
            face_up_chosen: (0..state.players)
                .map(|s| choosing && has_chosen(state, s))
                .collect(),
            chance,
            results: state.results.clone(),
            totals: totals(state),
            legal_moves: PlusMinus::view_moves(state, viewer),
        }
    }
}

impl crate::games::Redact for Event {
    fn redacted(&self, viewer: Viewer) -> Event {
        let mut event = self.clone();
        match &mut event {
            Event::Dealt { seat, hand, .. } if !viewer.sees_seat(*seat) => *hand = None,
            Event::Drew { seat, cards, .. } if !viewer.sees_seat(*seat) => *cards = None,
            Event::Passed { seat, to, card }
                if !viewer.sees_seat(*seat) && !viewer.sees_seat(*to) =>
            {
                *card = None
            }
            Event::MinusToPlus { cards, .. } if viewer != Viewer::Full => *cards = None,
            _ => {}
        }
        event
    }
}

/// What a viewer sees of one stack.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusStackView)]
pub struct StackView {
    /// Cards in the stack.
    pub size: usize,
    /// The top card (none when empty, or while the owner's face-up choice is still secret).
    pub top: Option<Card>,
    /// Every card, bottom to top: only for the full view (the rest "may not be examined").
    pub cards: Option<Vec<Card>>,
}

/// What a viewer sees of a seat's stacks.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusSeatStacksView)]
pub struct SeatStacksView {
    /// The Plus stack.
    pub plus: StackView,
    /// The Minus stack.
    pub minus: StackView,
}

/// The pending chance event as a viewer sees it.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusChanceView)]
pub struct ChanceView {
    /// What kind of outcome is awaited.
    pub kind: ChanceKind,
    /// The drawing seat (none for a deal).
    pub seat: Option<Seat>,
    /// Why cards are drawn (none for a deal).
    pub reason: Option<DrawReason>,
    /// Cards the outcome takes from the pile.
    pub count: usize,
    /// Size of the pile the outcome comes from.
    pub pile_size: usize,
    /// The pile's cards: only for the full view.
    pub pile: Option<Vec<Card>>,
}

/// What one viewer may see of a state.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusView)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// Number of seats.
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current round, from 1.
    pub round: u32,
    /// Rounds in the game.
    pub rounds: u32,
    /// The dealer of the current round.
    pub dealer: Seat,
    /// Whose turn it is.
    pub turn: Seat,
    /// Where play stands.
    pub phase: Phase,
    /// Seats that may move now (empty while chance is pending or the game is over).
    pub to_act: Vec<Seat>,
    /// Plays `turn` still owes this turn.
    pub plays_remaining: u32,
    /// Turns completed in this round.
    pub turns_this_round: u32,
    /// Cards in the draw stack.
    pub draw_stack_size: usize,
    /// The draw stack's cards: only for the full view.
    pub draw_stack: Option<Vec<Card>>,
    /// Each seat's number of hand cards.
    pub hand_sizes: Vec<usize>,
    /// Each seat's hand, only where the viewer may see it (own seat, or all for full).
    pub hands: Vec<Option<Vec<Card>>>,
    /// Each seat's stacks: size and top for everyone, all cards for the full view.
    pub stacks: Vec<SeatStacksView>,
    /// During `choose`: which seats have placed their face-up cards.
    pub face_up_chosen: Vec<bool>,
    /// The pending chance event.
    pub chance: Option<ChanceView>,
    /// Finished rounds.
    #[schema(value_type = Vec<RoundResult>)]
    pub results: Rounds<RoundResult>,
    /// Points per seat so far.
    pub totals: Vec<i64>,
    /// The viewer's legal moves (empty for spectators and the full view). Each unordered swap
    /// pair and king target pair is listed once, lower first; the reversed pair is the same
    /// move and is accepted too.
    pub legal_moves: Vec<Move>,
}
