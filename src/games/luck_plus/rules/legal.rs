//! Every legal move of a seat, for clients and for the forced-play rules.

use super::*;

/// Every single group `seat` could place now (not filtered by phase).
pub(in crate::games::luck_plus) fn single_groups(state: &State, seat: Seat) -> Vec<Group> {
    let hand = &state.hands[seat];
    let mut distinct = hand.clone();
    distinct.dedup();
    let table = Table::of(state, seat);
    let mut groups = Vec::new();
    let mut consider = |group: Group| {
        if table.check(&group).is_ok() {
            groups.push(group);
        }
    };
    for &card in &distinct {
        consider(Group {
            basis: Basis::Top,
            cards: vec![card],
        });
    }
    if state.dice.is_none() {
        return groups;
    }
    for basis in [Basis::Split, Basis::Total, Basis::Doubles, Basis::SingleDie] {
        for &card in &distinct {
            consider(Group {
                basis,
                cards: vec![card],
            });
        }
    }
    for &a in &distinct {
        for &b in &distinct {
            consider(Group {
                basis: Basis::Pair,
                cards: vec![a, b],
            });
        }
    }
    groups
}

/// A representative set of bonus (or extra) lists from `cards`: each distinct card alone, and
/// each distinct card followed by every other card of `rank(card)` held.
pub(super) fn rank_sets(cards: &[Card], rank: impl Fn(Card) -> Rank) -> Vec<Vec<Card>> {
    let mut distinct = cards.to_vec();
    distinct.dedup();
    let mut sets = Vec::new();
    for &first in &distinct {
        sets.push(vec![first]);
        let wanted = rank(first);
        let mut rest = without(cards, first);
        rest.retain(|c| c.rank() == wanted);
        if !rest.is_empty() {
            let mut all = vec![first];
            all.extend(rest);
            sets.push(all);
        }
    }
    sets
}

pub(super) fn luck_plus_moves(state: &State, seat: Seat) -> Vec<Move> {
    let hand = &state.hands[seat];
    if !hand.contains(&Card::Lp) {
        return Vec::new();
    }
    let mut moves = vec![Move::LuckPlus { bonus: Vec::new() }];
    for bonus in rank_sets(&without(hand, Card::Lp), Card::rank) {
        moves.push(Move::LuckPlus { bonus });
    }
    moves
}

pub(super) fn transfer_moves(state: &State, seat: Seat) -> Vec<Move> {
    let card = drawn_card(state);
    let mut moves = Vec::new();
    match card {
        Card::Tr(_) => {
            if let Some(to) = left_of(state, seat) {
                moves.push(Move::Transfer {
                    card,
                    to,
                    extra: Vec::new(),
                });
            }
        }
        Card::Tp(_) => {
            let rest = without(&state.hands[seat], card);
            let extras = rank_sets(&rest, |first| extra_rank(state, card, first));
            for to in (1..state.players).map(|k| (seat + k) % state.players) {
                if is_out(state, to) {
                    continue;
                }
                moves.push(Move::Transfer {
                    card,
                    to,
                    extra: Vec::new(),
                });
                for extra in &extras {
                    moves.push(Move::Transfer {
                        card,
                        to,
                        extra: extra.clone(),
                    });
                }
            }
        }
        _ => {}
    }
    moves
}

pub(super) fn play_moves(state: &State, seat: Seat, containing: Option<Card>) -> Vec<Move> {
    single_groups(state, seat)
        .into_iter()
        .filter(|g| containing.is_none_or(|c| g.cards.contains(&c)))
        .map(|g| Move::Play { groups: vec![g] })
        .collect()
}

/// Whether the card just drawn can be played: a LUCK PLUS, a TRANSFER (PLUS) that can be given,
/// or a card some single group can place now (RULINGS 1.5 "Playable").
pub(super) fn drawn_playable(state: &State) -> bool {
    let card = drawn_card(state);
    let seat = state.turn;
    card == Card::Lp
        || !transfer_moves(state, seat).is_empty()
        || single_groups(state, seat)
            .iter()
            .any(|g| g.cards.contains(&card))
}
