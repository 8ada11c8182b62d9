//! Move legality and effects, chance resolution, turn and round flow.

use super::*;
use crate::games::kit::hand::insert_sorted;
use crate::games::kit::{deal, guard, hand};
use LuckyJackViolation as V;

/// How `card` relates to the discard top; an empty pile constrains nothing (counts as higher).
pub(super) fn classify(discard: &[Symbol], card: Symbol) -> DiscardOption {
    match discard.last() {
        None => DiscardOption::Higher,
        Some(&top) if card == top => DiscardOption::Same,
        Some(&top) if card > top => DiscardOption::Higher,
        Some(_) => DiscardOption::Lower,
    }
}

/// The jackpot `seat` would show after discarding `card` from its hand, if that discard may
/// win (penalty-free, or lower with `lower_discard_can_win`).
fn jackpot_after_discard(state: &State, seat: Seat, card: Symbol) -> Option<(Symbol, usize)> {
    let hand = &state.hands[seat];
    let position = hand.iter().position(|&c| c == card)?;
    if classify(&state.discard, card) == DiscardOption::Lower
        && !state.options.lower_discard_can_win
    {
        return None;
    }
    let mut rest = hand.clone();
    rest.remove(position);
    jackpot_in(&rest)
}

fn common_checks(state: &State, seat: Seat) -> Result<(), LuckyJackViolation> {
    let over = state.phase == Phase::Over;
    guard::may_move(over, state.chance.as_ref(), seat, state.players)?;
    Ok(())
}

fn next_seat(state: &State, seat: Seat) -> Seat {
    (seat + 1) % state.players
}

/// Keeps the pending draw going: asks for the next cards, reshuffles the discard pile into an
/// empty draw pile (RULINGS 2.6), or voids what cannot be drawn.
fn continue_draw(state: &mut State, events: &mut Vec<Event>, after_flip: bool) {
    let seat = state.turn;
    if state.draw_owed == 0 {
        finish_draw(state, events);
        return;
    }
    let available = state.draw_pile.total();
    if available > 0 {
        state.chance = Some(PendingChance::Draw {
            seat,
            count: state.draw_owed.min(available),
            pile: state.draw_pile,
        });
    } else if !after_flip && !state.discard.is_empty() {
        let cards = state.discard.len();
        for card in state.discard.drain(..) {
            state.draw_pile.add(card, 1);
        }
        state.takeable = None;
        events.push(Event::Reshuffled { seat, cards });
        state.chance = Some(PendingChance::Flip {
            seat,
            pile: state.draw_pile,
        });
    } else {
        events.push(Event::DrawVoid {
            seat,
            count: state.draw_owed,
        });
        state.draw_owed = 0;
        finish_draw(state, events);
    }
}

/// All owed cards were drawn (or voided) without leaving a drawn card pending.
fn finish_draw(state: &mut State, events: &mut Vec<Event>) {
    state.chance = None;
    end_turn(state, events);
}

fn end_turn(state: &mut State, events: &mut Vec<Event>) {
    state.chance = None;
    state.pending = None;
    state.draw_owed = 0;
    state.turns_this_round += 1;
    if let Some(cap) = state.options.max_turns_per_round {
        if state.turns_this_round >= cap {
            end_round(
                state,
                RoundOutcome::NoJackpot {
                    reason: NoJackpotReason::TurnLimit,
                },
                events,
            );
            return;
        }
    }
    state.turn = next_seat(state, state.turn);
    state.phase = Phase::Turn;
    state.turn_start_hand = state.hands[state.turn].len();
}

// Engine invariant: a round is won only with a 3- or 4-card jackpot, which has points.
#[allow(clippy::expect_used)]
fn win_round(state: &mut State, seat: Seat, symbol: Symbol, size: usize, events: &mut Vec<Event>) {
    let points = symbol
        .jackpot_points(size)
        .expect("jackpots have 3 or 4 cards");
    events.push(Event::Jackpot {
        seat,
        symbol,
        size,
        points,
    });
    end_round(
        state,
        RoundOutcome::Jackpot {
            seat,
            symbol,
            size,
            points,
        },
        events,
    );
}

fn end_round(state: &mut State, result: RoundOutcome, events: &mut Vec<Event>) {
    let winner = match result {
        RoundOutcome::Jackpot { seat, .. } => Some(seat),
        RoundOutcome::NoJackpot { .. } => None,
    };
    state.results.push(RoundResult::new(
        state.round,
        state.starter,
        state.players,
        result,
    ));
    events.push(Event::RoundEnded {
        round: state.round,
        winner,
    });
    // Every card goes back to the deck for the next shuffle.
    for hand in &mut state.hands {
        hand.clear();
    }
    state.discard.clear();
    state.draw_pile = Counts::full_deck();
    state.pending = None;
    state.takeable = None;
    state.draw_owed = 0;
    state.turn_start_hand = 0;
    state.turns_this_round = 0;
    state.chance = None;
    if state.round >= state.options.rounds {
        state.phase = Phase::Over;
        let totals = totals(state);
        let winners = Standings::rank(totals.clone(), Order::HighestWins, true).winners;
        events.push(Event::GameEnded { winners, totals });
    } else {
        state.round += 1;
        state.starter = starter_of(&state.options, state.players, state.round);
        state.turn = state.starter;
        state.phase = Phase::Deal;
        state.chance = Some(deal_chance(state));
    }
}

pub(super) fn check_chance(state: &State, outcome: &Chance) -> Result<(), LuckyJackViolation> {
    let pending = guard::answered::<V, _, _, _>(state.chance.as_ref(), outcome)?;
    let pile = pending.pile();
    match (pending, outcome) {
        (
            PendingChance::Deal {
                hands: expected,
                cards_per_hand,
                ..
            },
            Chance::Deal { hands, flip },
        ) => deal::check_deal(pile, hands, *expected, *cards_per_hand, &[*flip])?,
        (PendingChance::Draw { count, .. }, Chance::Draw { cards }) => {
            deal::check_draw(pile, cards, *count)?
        }
        (PendingChance::Flip { .. }, Chance::Flip { card }) => deal::from_pile(pile, &[*card])?,
        _ => unreachable!("kinds were compared above"),
    }
    Ok(())
}

/// Applies an outcome that [`check_chance`] accepted.
pub(super) fn apply_chance(state: &mut State, outcome: &Chance) -> Vec<Event> {
    let mut events = Vec::new();
    state.chance = None;
    match outcome {
        Chance::Deal { hands, flip } => {
            let first = first_player(&state.options, state.players, state.starter);
            events.push(Event::RoundStarted {
                round: state.round,
                starter: state.starter,
                first,
            });
            for (seat, dealt) in hands.iter().enumerate() {
                let sorted = hand::sorted(dealt);
                for &card in &sorted {
                    state.draw_pile.take(card);
                }
                events.push(Event::Dealt {
                    seat,
                    count: sorted.len(),
                    cards: Some(sorted.clone()),
                });
                state.hands[seat] = sorted;
            }
            state.draw_pile.take(*flip);
            state.discard = vec![*flip];
            events.push(Event::Flipped {
                seat: state.starter,
                card: *flip,
            });
            state.turn = first;
            state.phase = Phase::Turn;
            state.turns_this_round = 0;
            state.turn_start_hand = state.hands[first].len();
        }
        Chance::Draw { cards } => {
            let seat = state.turn;
            for &card in cards {
                state.draw_pile.take(card);
            }
            state.draw_owed -= cards.len();
            events.push(Event::Drew {
                seat,
                count: cards.len(),
                cards: Some(cards.clone()),
            });
            if state.phase == Phase::Drawing {
                state.pending = Some(cards[0]);
                state.phase = Phase::Drawn;
                state.draw_owed = 0;
            } else {
                for &card in cards {
                    insert_sorted(&mut state.hands[seat], card);
                }
                continue_draw(state, &mut events, false);
            }
        }
        Chance::Flip { card } => {
            state.draw_pile.take(*card);
            state.discard.push(*card);
            events.push(Event::Flipped {
                seat: state.turn,
                card: *card,
            });
            continue_draw(state, &mut events, true);
        }
    }
    events
}

/// The rules of play: legality, the legal moves, and the effects of moves and chance.
impl crate::games::Rules<LuckyJack> for State {
    fn validate(&self, seat: Seat, mv: &Move) -> Result<(), LuckyJackViolation> {
        let state = self;
        common_checks(state, seat)?;
        if seat != state.turn {
            return Err(match (mv, state.takeable) {
                (Move::TakeIt, Some(t)) => V::NotNextPlayer { seat, next: t.by },
                _ => V::NotYourTurn {
                    seat,
                    turn: state.turn,
                },
            });
        }
        let drawn = state.phase == Phase::Drawn;
        let h = state.turn_start_hand;
        match *mv {
            Move::TakeIt => {
                if drawn {
                    return Err(V::TakeTooLate);
                }
                if state.takeable.is_none() {
                    return Err(V::NothingToTake);
                }
            }
            Move::Discard { card, jackpot } => {
                if drawn {
                    return Err(V::DrawnCardPending);
                }
                if !state.hands[seat].contains(&card) {
                    return Err(V::CardNotInHand { card });
                }
                if h < DISCARD_MINIMUM {
                    return Err(V::HandMinimum {
                        hand_size: h,
                        minimum: DISCARD_MINIMUM,
                    });
                }
                if jackpot && jackpot_after_discard(state, seat, card).is_none() {
                    return Err(V::NotAJackpot { card });
                }
            }
            Move::Draw => {
                if drawn {
                    return Err(V::DrawnCardPending);
                }
            }
            Move::Keep => {
                if !drawn {
                    return Err(V::NoDrawnCard);
                }
            }
            Move::DiscardDrawn => {
                if !drawn {
                    return Err(V::NoDrawnCard);
                }
                if h <= HAND_FLOOR {
                    return Err(V::MustKeepDrawn { hand_size: h });
                }
            }
        }
        Ok(())
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let state = self;
        if common_checks(state, seat).is_err() || seat != state.turn {
            return Vec::new();
        }
        let mut moves = Vec::new();
        if state.phase == Phase::Drawn {
            moves.push(Move::Keep);
            if state.turn_start_hand > HAND_FLOOR {
                moves.push(Move::DiscardDrawn);
            }
            return moves;
        }
        if state.takeable.is_some() {
            moves.push(Move::TakeIt);
        }
        if state.turn_start_hand >= DISCARD_MINIMUM {
            let hand = &state.hands[seat];
            for (i, &card) in hand.iter().enumerate() {
                if i > 0 && hand[i - 1] == card {
                    continue;
                }
                moves.push(Move::Discard {
                    card,
                    jackpot: false,
                });
                if jackpot_after_discard(state, seat, card).is_some() {
                    moves.push(Move::Discard {
                        card,
                        jackpot: true,
                    });
                }
            }
        }
        moves.push(Move::Draw);
        moves
    }

    /// Hands and the pending drawn card are hidden from everyone but their holder (RULINGS 2.3,
    /// `View::hands`, `View::pending`); the discard pile and "I take it!"'s card are face up.
    /// - `discard` lays a hand card face up (and a jackpot then shows the hand): reveals.
    /// - `discard_drawn` lays the pending drawn card, which only its drawer saw, face up: reveals.
    /// - `draw` only asks for a card (its chance event shows it, to the drawer alone); `keep`
    ///   moves the pending card into the hand unseen; "I take it!" takes a face-up card. None of
    ///   them shows anything, not even when it ends the round at the turn cap (no hand is shown
    ///   then) or reshuffles the face-up discard pile.
    fn reveals(&self, _seat: Seat, mv: &Move) -> bool {
        match mv {
            Move::Discard { .. } | Move::DiscardDrawn => true,
            Move::Draw | Move::Keep | Move::TakeIt => false,
        }
    }

    // Engine invariant: applies only moves validate accepted, which checked what is taken here.
    #[allow(clippy::expect_used)]
    fn apply(&mut self, seat: Seat, mv: &Move) -> Vec<Event> {
        let state = self;
        let mut events = Vec::new();
        match *mv {
            Move::TakeIt => {
                let taken = state.takeable.take().expect("validated: takeable");
                let top = state.discard.pop();
                debug_assert_eq!(top, Some(taken.card));
                insert_sorted(&mut state.hands[seat], taken.card);
                events.push(Event::TookIt {
                    seat,
                    card: taken.card,
                });
                if state.options.i_take_it_ends_turn {
                    end_turn(state, &mut events);
                } else {
                    state.turn_start_hand = state.hands[seat].len();
                }
            }
            Move::Discard { card, jackpot } => {
                state.takeable = None;
                let option = classify(&state.discard, card);
                let hand = &mut state.hands[seat];
                let at = hand.iter().position(|&c| c == card).expect("validated");
                hand.remove(at);
                state.discard.push(card);
                events.push(Event::Discarded { seat, card, option });
                let may_win = option != DiscardOption::Lower || state.options.lower_discard_can_win;
                let declared = jackpot || state.options.jackpot_auto_declare;
                if may_win && declared {
                    if let Some((symbol, size)) = jackpot_in(&state.hands[seat]) {
                        win_round(state, seat, symbol, size, &mut events);
                        return events;
                    }
                }
                if option == DiscardOption::Lower {
                    state.phase = Phase::Penalty;
                    state.draw_owed = PENALTY_CARDS;
                    continue_draw(state, &mut events, false);
                } else {
                    end_turn(state, &mut events);
                }
            }
            Move::Draw => {
                state.takeable = None;
                state.phase = Phase::Drawing;
                state.draw_owed = 1;
                continue_draw(state, &mut events, false);
            }
            Move::Keep => {
                let card = state.pending.take().expect("validated: pending");
                insert_sorted(&mut state.hands[seat], card);
                events.push(Event::Kept {
                    seat,
                    card: Some(card),
                });
                end_turn(state, &mut events);
            }
            Move::DiscardDrawn => {
                let card = state.pending.take().expect("validated: pending");
                let symbol_rule = state.options.drawn_discard_follows_symbol_rule;
                let option = symbol_rule.then(|| classify(&state.discard, card));
                state.discard.push(card);
                events.push(Event::DiscardedDrawn { seat, card, option });
                state.takeable = Some(Takeable {
                    card,
                    from: seat,
                    by: next_seat(state, seat),
                });
                // Under the symbol rule a drawn discard is a regular discard, so a lower one
                // may win too when lower discards may (its jackpot check comes before its
                // penalty draw, as for `discard`).
                let may_win = match option {
                    None => false,
                    Some(DiscardOption::Lower) => state.options.lower_discard_can_win,
                    Some(_) => true,
                };
                if may_win && state.options.jackpot_auto_declare {
                    if let Some((symbol, size)) = jackpot_in(&state.hands[seat]) {
                        win_round(state, seat, symbol, size, &mut events);
                        return events;
                    }
                }
                if option == Some(DiscardOption::Lower) {
                    state.phase = Phase::Penalty;
                    state.draw_owed = PENALTY_CARDS;
                    continue_draw(state, &mut events, false);
                } else {
                    end_turn(state, &mut events);
                }
            }
        }
        events
    }

    /// Checks the outcome was possible, then applies it.
    fn resolve_chance(&mut self, outcome: &Chance) -> Result<Vec<Event>, LuckyJackViolation> {
        check_chance(self, outcome)?;
        Ok(apply_chance(self, outcome))
    }
}
