//! What each viewer may see of a state and of an event.

use super::*;

pub(super) fn view(state: &State, viewer: Viewer) -> View {
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
    let legal_moves = match viewer {
        Viewer::Seat(seat) => LuckyJack::legal_moves(state, seat),
        _ => Vec::new(),
    };
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
        hands: state
            .hands
            .iter()
            .enumerate()
            .map(|(seat, hand)| viewer.sees_seat(seat).then(|| hand.clone()))
            .collect(),
        drawn_card_pending: state.pending.is_some(),
        pending: state.pending.filter(|_| viewer.sees_seat(state.turn)),
        takeable: state.takeable,
        turn_start_hand: state.turn_start_hand,
        draw_owed: state.draw_owed,
        turns_this_round: state.turns_this_round,
        chance,
        results: state.results.clone(),
        totals: totals(state),
        legal_moves,
    }
}

pub(super) fn redact_event(event: &Event, viewer: Viewer) -> Event {
    let mut event = event.clone();
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
