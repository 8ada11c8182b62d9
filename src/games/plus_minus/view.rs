//! What each viewer may see of a state and of an event.

use super::*;

fn stack_view(cards: &[Card], full: bool, secret: bool) -> StackView {
    StackView {
        size: cards.len(),
        top: if secret { None } else { cards.last().copied() },
        cards: full.then(|| cards.to_vec()),
    }
}

pub(super) fn view(state: &State, viewer: Viewer) -> View {
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
    let legal_moves = match viewer {
        Viewer::Seat(seat) if seat < state.players => PlusMinus::legal_moves(state, seat),
        _ => Vec::new(),
    };
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
        hands: state
            .hands
            .iter()
            .enumerate()
            .map(|(seat, hand)| viewer.sees_seat(seat).then(|| hand.clone()))
            .collect(),
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
        legal_moves,
    }
}

pub(super) fn redact_event(event: &Event, viewer: Viewer) -> Event {
    let mut event = event.clone();
    match &mut event {
        Event::Dealt { seat, hand, .. } if !viewer.sees_seat(*seat) => *hand = None,
        Event::Drew { seat, cards, .. } if !viewer.sees_seat(*seat) => *cards = None,
        Event::Passed { seat, to, card } if !viewer.sees_seat(*seat) && !viewer.sees_seat(*to) => {
            *card = None
        }
        Event::MinusToPlus { cards, .. } if viewer != Viewer::Full => *cards = None,
        _ => {}
    }
    event
}
