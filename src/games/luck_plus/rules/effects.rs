//! What a move does: plays, draws, transfers, turn and hand flow (RULINGS 1.4–1.8).

use super::*;

/// The turn seat must draw: from the draw pile (chance), from the LUCK PLUS cards under it,
/// after reshuffling the match pile but its top (RULINGS 1.7), or not at all (void).
// Engine invariant: the match pile is checked to hold more than one card first.
#[allow(clippy::expect_used)]
pub(super) fn start_draw(state: &mut State, events: &mut Vec<Event>) {
    let seat = state.turn;
    if state.draw_pile.is_empty()
        && state.draw_bottom.is_empty()
        && state.options.reshuffle_match_pile
        && state.match_pile.len() > 1
    {
        let top = state.match_pile.pop().expect("len > 1");
        let mut moved = std::mem::replace(&mut state.match_pile, vec![top]);
        moved.sort();
        events.push(Event::Reshuffled {
            seat,
            cards: moved.len(),
        });
        state.draw_pile = moved;
    }
    if !state.draw_pile.is_empty() {
        state.phase = Phase::Drawing;
        state.chance = Some(PendingChance::Draw {
            seat,
            pile: state.draw_pile.clone(),
        });
    } else if !state.draw_bottom.is_empty() {
        let card = state.draw_bottom.remove(0);
        receive_drawn(state, card, events);
    } else {
        events.push(Event::DrawVoid { seat });
        end_turn(state, TurnEnd::DrawVoid, false, events);
    }
}

pub(super) fn receive_drawn(state: &mut State, card: Card, events: &mut Vec<Event>) {
    let seat = state.turn;
    insert_sorted(&mut state.hands[seat], card);
    state.drawn = Some(card);
    state.phase = Phase::Drawn;
    state.chance = None;
    let playable = drawn_playable(state);
    events.push(Event::Drew {
        seat,
        card,
        playable,
    });
    if !playable {
        state.drawn = None;
        events.push(Event::Kept {
            seat,
            card,
            automatic: true,
        });
        end_turn(state, TurnEnd::Unplayable, false, events);
    }
}

/// `seat`'s hand is empty: it goes out (a LUCK OUT on its first turn). The hand ends, unless a
/// LUCK OUT starts (or continues) the full round of `luck_out_full_round` (RULINGS 1.8).
pub(super) fn go_out(state: &mut State, seat: Seat, forced_next: bool, events: &mut Vec<Event>) {
    let luck_out = state.first_turn;
    state.out.push(Out { seat, luck_out });
    events.push(Event::WentOut { seat, luck_out });
    if state.final_round.is_some() {
        end_turn(state, TurnEnd::WentOut, forced_next, events);
    } else if luck_out && state.options.luck_out_full_round {
        let seats: Vec<Seat> = (1..state.players)
            .map(|k| (seat + k) % state.players)
            .filter(|&s| !is_out(state, s))
            .collect();
        events.push(Event::FinalRound {
            seats: seats.clone(),
        });
        state.final_round = Some(seats);
        end_turn(state, TurnEnd::WentOut, forced_next, events);
    } else {
        events.push(Event::TurnEnded {
            seat,
            reason: TurnEnd::WentOut,
        });
        end_hand(state, events);
    }
}

// Engine invariant: a turn ends only while another seat is still in the hand.
#[allow(clippy::expect_used)]
pub(super) fn end_turn(
    state: &mut State,
    reason: TurnEnd,
    forced_next: bool,
    events: &mut Vec<Event>,
) {
    events.push(Event::TurnEnded {
        seat: state.turn,
        reason,
    });
    let next = match &mut state.final_round {
        Some(seats) if seats.is_empty() => {
            end_hand(state, events);
            return;
        }
        Some(seats) => seats.remove(0),
        None => left_of(state, state.turn).expect("someone else is in the hand"),
    };
    begin_turn(state, next, forced_next, events);
}

pub(super) fn begin_turn(state: &mut State, seat: Seat, forced: bool, events: &mut Vec<Event>) {
    state.turn = seat;
    state.first_turn = !state.had_turn[seat];
    state.had_turn[seat] = true;
    state.rolled_this_turn = false;
    state.used = Usage::default();
    state.drawn = None;
    state.chance = None;
    state.phase = if forced {
        Phase::ForcedBonus
    } else {
        Phase::PreRoll
    };
    if forced {
        events.push(Event::ForcedBonusOwed { seat });
    }
    events.push(Event::TurnStarted {
        seat,
        forced_bonus: forced,
    });
}

pub(super) fn end_hand(state: &mut State, events: &mut Vec<Event>) {
    let result = score_hand(
        &state.options,
        state.players,
        state.hand,
        &state.out,
        state.hands.clone(),
    );
    state.results.push(result.clone());
    events.push(Event::HandEnded { result });
    for hand in &mut state.hands {
        hand.clear();
    }
    state.draw_pile = full_deck();
    state.draw_bottom.clear();
    state.match_pile.clear();
    state.dice = None;
    state.rolled_this_turn = false;
    state.used = Usage::default();
    state.drawn = None;
    state.first_turn = false;
    state.had_turn = vec![false; state.players];
    state.out.clear();
    state.final_round = None;
    state.chance = None;
    let totals = totals(state.players, &state.results);
    if target_reached(&state.options, &totals) {
        state.phase = Phase::Over;
        state.turn = (state.dealer + 1) % state.players;
        let winners = Standings::rank(totals.clone(), state.options.order(), true).winners;
        events.push(Event::GameEnded { winners, totals });
    } else {
        state.hand += 1;
        state.dealer = dealer_of(&state.options, state.players, state.hand);
        state.turn = (state.dealer + 1) % state.players;
        state.phase = Phase::Deal;
        state.chance = Some(deal_chance(state));
    }
}
