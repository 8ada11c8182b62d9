//! Move legality and effects, chance resolution, turn and round flow.

use super::cards::{first_missing, insert_sorted, take_sorted};
use super::*;
use crate::games::kit::{deal, guard, hand};
use PlusMinusViolation as V;

/// Why `card` may not go on `at` (ignoring the 10's and king's parameters), if it may not.
pub(super) fn placement(state: &State, card: Card, at: StackRef) -> Result<(), PlusMinusViolation> {
    if at.seat >= state.players {
        return Err(V::UnknownStack {
            seat: at.seat,
            players: state.players,
        });
    }
    match stack(state, at).last() {
        None if state.options.empty_stack_accepts_any => Ok(()),
        None => Err(V::EmptyStack { stack: at }),
        Some(&top) if card.fits_on(top) => Ok(()),
        Some(&top) => Err(V::NotAdjacentRank { card, top }),
    }
}

/// A play `seat` could make now (card and stack), if any: the must-play rule's witness.
pub(super) fn some_play(state: &State, seat: Seat) -> Option<(Card, StackRef)> {
    let stacks = all_stacks(state.players);
    let hand = &state.hands[seat];
    hand.iter().find_map(|&card| {
        stacks
            .iter()
            .find(|&&at| placement(state, card, at).is_ok())
            .map(|&at| (card, at))
    })
}

fn common_checks(state: &State, seat: Seat) -> Result<(), PlusMinusViolation> {
    // Between rounds the phase is the deal's, not over: asking this before `game_over` answers
    // as asking it after would.
    if state.phase == Phase::Deal && !state.results.is_empty() {
        return Err(V::RoundOver {
            round: state.round - 1,
        });
    }
    let over = state.phase == Phase::Over;
    guard::may_move(over, state.chance.as_ref(), seat, state.players)?;
    Ok(())
}

fn validate_play(
    state: &State,
    seat: Seat,
    card: Card,
    at: StackRef,
    swap: &Option<[StackRef; 2]>,
    king_targets: &Option<[Seat; 2]>,
) -> Result<(), PlusMinusViolation> {
    if !state.hands[seat].contains(&card) {
        return Err(V::CardNotInHand { card });
    }
    placement(state, card, at)?;
    match (card, swap) {
        (Card::Ten, None) => return Err(V::SwapRequired),
        (Card::Ten, Some([a, b])) => {
            for s in [a, b] {
                if s.seat >= state.players {
                    return Err(V::UnknownStack {
                        seat: s.seat,
                        players: state.players,
                    });
                }
            }
            if a == b {
                return Err(V::SwapSameStack { stack: *a });
            }
        }
        (_, Some(_)) => return Err(V::SwapNotAllowed { card }),
        (_, None) => {}
    }
    match (card, king_targets) {
        (Card::King, None) => Err(V::KingTargetsRequired),
        (Card::King, Some([a, b])) => {
            for &t in [a, b] {
                Common::seated(t, state.players)?;
                if t == seat {
                    return Err(V::KingTargetSelf { seat });
                }
            }
            if a == b {
                return Err(V::KingTargetsNotDistinct { seat: *a });
            }
            Ok(())
        }
        (_, Some(_)) => Err(V::KingTargetsNotAllowed { card }),
        (_, None) => Ok(()),
    }
}

fn left_of(state: &State, seat: Seat) -> Seat {
    (seat + 1) % state.players
}

/// After a play (and any draw it caused): play on, pass, or (empty hand) end the turn.
fn after_play(state: &mut State, events: &mut Vec<Event>) {
    let empty = state.hands[state.turn].is_empty();
    if empty {
        // Nothing left to play or pass (RULINGS 5.4.5: the pass is skipped).
        if state.plays_remaining > 0 {
            events.push(Event::Forfeited {
                seat: state.turn,
                plays_lost: state.plays_remaining,
            });
            state.plays_remaining = 0;
        }
        end_turn(state, events);
    } else if state.plays_remaining == 0 {
        state.phase = Phase::Pass;
    } else {
        state.phase = Phase::Play;
    }
}

/// Starts `state.turn`'s turn: the draw (2 on the round's first turn, else 1).
fn start_turn(state: &mut State) {
    let wanted = if state.turns_this_round == 0 {
        FIRST_TURN_DRAW
    } else {
        TURN_DRAW
    };
    state.plays_remaining = 1;
    state.phase = Phase::Drawing;
    state.chance = Some(PendingChance::Draw {
        seat: state.turn,
        count: wanted.min(state.draw_stack.len()),
        reason: DrawReason::TurnStart,
        pile: state.draw_stack.clone(),
    });
}

/// The turn is complete: the round ends if the draw stack ran out (rulebook step 6), otherwise
/// the left player's turn begins.
fn end_turn(state: &mut State, events: &mut Vec<Event>) {
    state.plays_remaining = 0;
    state.turns_this_round += 1;
    if state.draw_stack.is_empty() {
        end_round(state, events);
    } else {
        state.turn = left_of(state, state.turn);
        start_turn(state);
    }
}

fn end_round(state: &mut State, events: &mut Vec<Event>) {
    let seats = (0..state.players)
        .map(|s| {
            seat_score(
                &state.stacks[s].plus,
                &state.stacks[s].minus,
                &state.hands[s],
            )
        })
        .collect();
    let result = RoundResult::new(state.round, state.dealer, seats);
    events.push(Event::RoundEnded {
        round: state.round,
        points: result.points.clone(),
    });
    state.results.push(result);
    for hand in &mut state.hands {
        hand.clear();
    }
    for stacks in &mut state.stacks {
        *stacks = SeatStacks::default();
    }
    state.draw_stack = full_deck();
    state.plays_remaining = 0;
    state.turns_this_round = 0;
    state.chance = None;
    state.turn = left_of(state, state.dealer);
    if state.round >= rounds_in_game(&state.options, state.players) {
        state.phase = Phase::Over;
        let totals = totals(state);
        let winners = Standings::rank(totals.clone(), Order::HighestWins, true).winners;
        events.push(Event::GameEnded { winners, totals });
    } else {
        state.round += 1;
        state.dealer = dealer_of(&state.options, state.players, state.round);
        state.turn = left_of(state, state.dealer);
        state.phase = Phase::Deal;
        state.chance = Some(deal_chance(state));
    }
}

pub(super) fn check_chance(state: &State, outcome: &Chance) -> Result<(), PlusMinusViolation> {
    let pending = guard::answered::<V, _, _, _>(state.chance.as_ref(), outcome)?;
    let pile = pending.pile();
    match (pending, outcome) {
        (
            PendingChance::Deal {
                hands: expected,
                hand_cards,
                face_up_cards,
                ..
            },
            Chance::Deal { hands, face_up },
        ) => {
            // Both row counts before either row's card counts, as before the kit existed.
            deal::hand_count(*expected, hands.len())?;
            deal::hand_count(*expected, face_up.len())?;
            deal::card_counts(hands, *hand_cards)?;
            deal::card_counts(face_up, *face_up_cards)?;
            let all: Vec<Card> = hands.iter().chain(face_up).flatten().copied().collect();
            deal::from_pile(&pile[..], &all)?;
        }
        (PendingChance::Draw { count, .. }, Chance::Draw { cards }) => {
            deal::check_draw(&pile[..], cards, *count)?
        }
        _ => unreachable!("kinds were compared above"),
    }
    Ok(())
}

/// Applies an outcome that [`check_chance`] accepted.
pub(super) fn apply_chance(state: &mut State, outcome: &Chance) -> Vec<Event> {
    let mut events = Vec::new();
    let pending = state.chance.take();
    match outcome {
        Chance::Deal { hands, face_up } => {
            let first = left_of(state, state.dealer);
            events.push(Event::RoundStarted {
                round: state.round,
                dealer: state.dealer,
                first,
            });
            state.turn = first;
            state.turns_this_round = 0;
            for (seat, (dealt, up)) in hands.iter().zip(face_up).enumerate() {
                let sorted = hand::sorted(dealt);
                for &card in sorted.iter().chain(up) {
                    take_sorted(&mut state.draw_stack, card);
                }
                let (plus, minus) = match up[..] {
                    [a, b] => {
                        let (p, m) = plus_and_minus(state.options.higher_by, a, b);
                        state.stacks[seat] = SeatStacks {
                            plus: vec![p],
                            minus: vec![m],
                        };
                        (Some(p), Some(m))
                    }
                    _ => (None, None),
                };
                events.push(Event::Dealt {
                    seat,
                    hand_size: sorted.len(),
                    hand: Some(sorted.clone()),
                    plus,
                    minus,
                });
                state.hands[seat] = sorted;
            }
            if state.options.face_up_chosen_by_player {
                state.phase = Phase::Choose;
            } else {
                start_turn(state);
            }
        }
        Chance::Draw { cards } => {
            let seat = state.turn;
            let reason = match pending {
                Some(PendingChance::Draw { reason, .. }) => reason,
                _ => unreachable!("check_chance compared the kinds"),
            };
            for &card in cards {
                take_sorted(&mut state.draw_stack, card);
                insert_sorted(&mut state.hands[seat], card);
            }
            events.push(Event::Drew {
                seat,
                count: cards.len(),
                reason,
                cards: Some(cards.clone()),
            });
            after_play(state, &mut events);
        }
    }
    events
}

/// The rules of play: legality, the legal moves, and the effects of moves and chance.
impl crate::games::Rules<PlusMinus> for State {
    fn validate(&self, seat: Seat, mv: &Move) -> Result<(), PlusMinusViolation> {
        let state = self;
        common_checks(state, seat)?;
        if state.phase == Phase::Choose {
            let Move::ChooseFaceUp { cards } = mv else {
                return Err(V::ChooseFaceUpFirst);
            };
            if has_chosen(state, seat) {
                return Err(V::AlreadyChosen { seat });
            }
            if let Some(card) = first_missing(&state.hands[seat], cards) {
                return Err(V::CardNotInHand { card });
            }
            return Ok(());
        }
        if let Move::ChooseFaceUp { .. } = mv {
            return Err(V::NotChoosing);
        }
        if seat != state.turn {
            return Err(V::NotYourTurn {
                seat,
                turn: state.turn,
            });
        }
        match (state.phase, mv) {
            (Phase::Pass, Move::Play { .. }) => Err(V::MustPass),
            (Phase::Pass, Move::Forfeit) => Err(V::NothingToForfeit),
            (Phase::Pass, Move::Pass { card }) => {
                if state.hands[seat].contains(card) {
                    Ok(())
                } else {
                    Err(V::CardNotInHand { card: *card })
                }
            }
            (Phase::Play, Move::Pass { .. }) => Err(V::PassBeforePlay {
                plays_remaining: state.plays_remaining,
            }),
            (Phase::Play, Move::Forfeit) => match some_play(state, seat) {
                Some((card, stack)) => Err(V::MustPlay { card, stack }),
                None => Ok(()),
            },
            (
                Phase::Play,
                Move::Play {
                    card,
                    stack,
                    swap,
                    king_targets,
                },
            ) => validate_play(state, seat, *card, *stack, swap, king_targets),
            _ => {
                unreachable!("phases Deal, Drawing and Over always have chance pending or are over")
            }
        }
    }

    /// Every legal move. Plays are listed once per distinct card; a 10's swap pair and a king's
    /// target pair are unordered, so each is listed once in canonical order (lower first) although
    /// `validate` accepts either order.
    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let state = self;
        if common_checks(state, seat).is_err() {
            return Vec::new();
        }
        let hand = &state.hands[seat];
        let mut cards = hand.clone();
        cards.dedup();
        match state.phase {
            Phase::Choose => {
                if has_chosen(state, seat) {
                    return Vec::new();
                }
                let mut moves = Vec::new();
                for i in 0..hand.len() {
                    for j in i + 1..hand.len() {
                        let mv = Move::ChooseFaceUp {
                            cards: [hand[i], hand[j]],
                        };
                        if !moves.contains(&mv) {
                            moves.push(mv);
                        }
                    }
                }
                moves
            }
            _ if seat != state.turn => Vec::new(),
            Phase::Pass => cards.into_iter().map(|card| Move::Pass { card }).collect(),
            Phase::Play => {
                let stacks = all_stacks(state.players);
                let mut moves = Vec::new();
                for &card in &cards {
                    for &at in &stacks {
                        if placement(state, card, at).is_err() {
                            continue;
                        }
                        match card {
                            Card::Ten => {
                                for (i, &a) in stacks.iter().enumerate() {
                                    for &b in &stacks[i + 1..] {
                                        moves.push(Move::Play {
                                            card,
                                            stack: at,
                                            swap: Some([a, b]),
                                            king_targets: None,
                                        });
                                    }
                                }
                            }
                            Card::King => {
                                let others: Vec<Seat> =
                                    (0..state.players).filter(|&s| s != seat).collect();
                                for (i, &a) in others.iter().enumerate() {
                                    for &b in &others[i + 1..] {
                                        moves.push(Move::Play {
                                            card,
                                            stack: at,
                                            swap: None,
                                            king_targets: Some([a, b]),
                                        });
                                    }
                                }
                            }
                            _ => moves.push(Move::Play {
                                card,
                                stack: at,
                                swap: None,
                                king_targets: None,
                            }),
                        }
                    }
                }
                if moves.is_empty() {
                    moves.push(Move::Forfeit);
                }
                moves
            }
            _ => Vec::new(),
        }
    }

    /// Hands, the cards under each stack's top and passed cards are hidden (RULINGS 5.3; the
    /// views show a hand to its seat only and a stack's top only), and so are face-up choices
    /// until the last seat has chosen.
    /// - `play` lays a hand card face up (a king also turns up the Minus cards below): reveals.
    /// - `pass` shows the receiver a card of the passer's hand: reveals.
    /// - `forfeit` reveals only when it ends the turn (no pass follows) with the draw stack empty:
    ///   the round ends, and its scores count the hidden hands and stacks (with the stack empty
    ///   all 52 cards are in play, far more than the 12 tops at most that are public).
    /// - `choose_face_up` reveals only as the last choice, which turns every choice face up.
    fn reveals(&self, seat: Seat, mv: &Move) -> bool {
        let state = self;
        match mv {
            Move::Play { .. } | Move::Pass { .. } => true,
            Move::Forfeit => {
                let pass_follows =
                    state.options.pass_after_forfeit && !state.hands[seat].is_empty();
                !pass_follows && state.draw_stack.is_empty()
            }
            Move::ChooseFaceUp { .. } => {
                (0..state.players).all(|s| s == seat || has_chosen(state, s))
            }
        }
    }

    fn apply(&mut self, seat: Seat, mv: &Move) -> Vec<Event> {
        let state = self;
        let mut events = Vec::new();
        match *mv {
            Move::ChooseFaceUp { cards: [a, b] } => {
                let hand = &mut state.hands[seat];
                take_sorted(hand, a);
                take_sorted(hand, b);
                let (plus, minus) = plus_and_minus(state.options.higher_by, a, b);
                state.stacks[seat] = SeatStacks {
                    plus: vec![plus],
                    minus: vec![minus],
                };
                events.push(Event::FaceUpChosen { seat });
                if (0..state.players).all(|s| has_chosen(state, s)) {
                    for (s, stacks) in state.stacks.iter().enumerate() {
                        events.push(Event::FaceUpRevealed {
                            seat: s,
                            plus: stacks.plus[0],
                            minus: stacks.minus[0],
                        });
                    }
                    start_turn(state);
                }
            }
            Move::Play {
                card,
                stack: at,
                swap,
                king_targets,
            } => {
                take_sorted(&mut state.hands[seat], card);
                stack_mut(state, at).push(card);
                events.push(Event::Played {
                    seat,
                    card,
                    stack: at,
                });
                if let Some([a, b]) = swap {
                    let first = std::mem::take(stack_mut(state, a));
                    let second = std::mem::replace(stack_mut(state, b), first);
                    *stack_mut(state, a) = second;
                    events.push(Event::Swapped {
                        seat,
                        stacks: [a, b],
                    });
                }
                if let Some(targets) = king_targets {
                    for target in targets {
                        let minus = &mut state.stacks[target].minus;
                        let moved = minus.split_off(minus.len().saturating_sub(2));
                        events.push(Event::MinusToPlus {
                            seat,
                            target,
                            count: moved.len(),
                            top: moved.last().copied(),
                            cards: Some(moved.clone()),
                        });
                        state.stacks[target].plus.extend(moved);
                    }
                }
                state.plays_remaining -= 1;
                if card == Card::Five {
                    state.plays_remaining += FIVE_BONUS as u32;
                    if !state.draw_stack.is_empty() {
                        state.phase = Phase::Drawing;
                        state.chance = Some(PendingChance::Draw {
                            seat,
                            count: FIVE_BONUS.min(state.draw_stack.len()),
                            reason: DrawReason::Five,
                            pile: state.draw_stack.clone(),
                        });
                        return events;
                    }
                }
                after_play(state, &mut events);
            }
            Move::Forfeit => {
                events.push(Event::Forfeited {
                    seat,
                    plays_lost: state.plays_remaining,
                });
                state.plays_remaining = 0;
                if state.options.pass_after_forfeit && !state.hands[seat].is_empty() {
                    state.phase = Phase::Pass;
                } else {
                    end_turn(state, &mut events);
                }
            }
            Move::Pass { card } => {
                take_sorted(&mut state.hands[seat], card);
                let to = left_of(state, seat);
                insert_sorted(&mut state.hands[to], card);
                events.push(Event::Passed {
                    seat,
                    to,
                    card: Some(card),
                });
                end_turn(state, &mut events);
            }
        }
        events
    }

    /// Checks the outcome was possible, then applies it.
    fn resolve_chance(&mut self, outcome: &Chance) -> Result<Vec<Event>, PlusMinusViolation> {
        check_chance(self, outcome)?;
        Ok(apply_chance(self, outcome))
    }
}
