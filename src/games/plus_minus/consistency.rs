//! Could this Plus & Minus state have arisen from play? See [`crate::games::kit::consistency`].

use super::*;
use crate::games::kit::consistency::{self, bad, each_round, fixed_rounds};

impl crate::games::Table for State {
    fn players(&self) -> usize {
        self.players
    }

    fn check(&self) -> Result<(), Inconsistency> {
        let lists = [
            (self.hands.len(), "hands"),
            (self.stacks.len(), "stack pairs"),
        ];
        consistency::table::<PlusMinus>(self.players, &self.options, "bad_seat_count", &lists)?;
        let n = self.players;
        let rounds = rounds_in_game(&self.options, n);
        if self.round < 1 || self.round > rounds {
            return bad("bad_round", format!("round {} of {rounds}", self.round));
        }
        let dealer = dealer_of(&self.options, n, self.round);
        if self.dealer != dealer {
            return bad(
                "bad_dealer",
                format!(
                    "round {} is dealt by seat {dealer}, not {}",
                    self.round, self.dealer
                ),
            );
        }
        // Turns pass strictly to the left, starting at the dealer's left.
        let turn = (dealer + 1 + self.turns_this_round as usize) % n;
        if self.turn != turn {
            return bad(
                "bad_turn",
                format!(
                    "after {} turns from the dealer's left the turn is seat {turn}, not {}",
                    self.turns_this_round, self.turn
                ),
            );
        }
        if let Some(seat) = self.hands.iter().position(|h| !h.is_sorted()) {
            return bad("not_sorted", format!("seat {seat}'s hand is not sorted"));
        }
        if !self.draw_stack.is_sorted() {
            return bad("not_sorted", "the draw stack is not sorted");
        }
        check_conservation(self)?;
        check_results(self)?;
        check_phase(self)
    }
}

fn check_conservation(state: &State) -> Result<(), Inconsistency> {
    let all = state
        .hands
        .iter()
        .flatten()
        .chain(
            state
                .stacks
                .iter()
                .flat_map(|s| s.plus.iter().chain(&s.minus)),
        )
        .chain(&state.draw_stack);
    let counts = rank_counts(all);
    if let Some(card) = Card::ALL.into_iter().find(|c| counts[c.index()] != COPIES) {
        return bad(
            "cards_not_conserved",
            format!(
                "hands, stacks and draw stack hold {} of {card:?}, not {COPIES}",
                counts[card.index()]
            ),
        );
    }
    Ok(())
}

fn check_results(state: &State) -> Result<(), Inconsistency> {
    let over = state.phase == Phase::Over;
    let rounds = rounds_in_game(&state.options, state.players);
    fixed_rounds(state.results.len(), state.round, rounds, over, state.phase)?;
    each_round(&state.results, |round, result| {
        let cards: usize = result
            .seats
            .iter()
            .map(|s| s.plus_cards + s.minus_cards + s.hand_cards)
            .sum();
        let arithmetic = result
            .seats
            .iter()
            .all(|s| s.score == s.plus_points - s.minus_points - s.hand_points);
        let points: Vec<i64> = result.seats.iter().map(|s| s.score).collect();
        result.round == round
            && result.dealer == dealer_of(&state.options, state.players, round)
            && result.seats.len() == state.players
            && arithmetic
            && result.points == points
            && cards == DECK_SIZE
    })
}

fn check_phase(state: &State) -> Result<(), Inconsistency> {
    let phase = state.phase;
    let n = state.players;
    let contradiction = |detail: String| bad("phase_contradiction", detail);
    let stack_cards: usize = state
        .stacks
        .iter()
        .map(|s| s.plus.len() + s.minus.len())
        .sum();
    match phase {
        Phase::Deal | Phase::Over => {
            if state.draw_stack.len() != DECK_SIZE {
                return contradiction(format!("cards on the table in phase {phase:?}"));
            }
            if state.plays_remaining != 0 || state.turns_this_round != 0 {
                return contradiction(format!("turn bookkeeping set in phase {phase:?}"));
            }
        }
        Phase::Choose => {
            if !state.options.face_up_chosen_by_player {
                return contradiction("choosing face-up cards without the option".into());
            }
            if state.plays_remaining != 0 || state.turns_this_round != 0 {
                return contradiction("turn bookkeeping set while choosing".into());
            }
            if state.draw_stack.len() != DECK_SIZE - DEALT_PER_SEAT * n {
                return contradiction("cards drawn before play began".into());
            }
            for seat in 0..n {
                let s = &state.stacks[seat];
                let ok = match (s.plus.len(), s.minus.len(), state.hands[seat].len()) {
                    (0, 0, 4) => true,
                    (1, 1, 2) => {
                        plus_and_minus(state.options.higher_by, s.plus[0], s.minus[0])
                            == (s.plus[0], s.minus[0])
                    }
                    _ => false,
                };
                if !ok {
                    return contradiction(format!("seat {seat}'s cards contradict choosing"));
                }
            }
            if (0..n).all(|s| has_chosen(state, s)) {
                return contradiction("everyone has chosen but play has not begun".into());
            }
        }
        Phase::Drawing | Phase::Play | Phase::Pass => {
            if stack_cards < 2 * n {
                return contradiction(format!(
                    "{stack_cards} stack cards; the deal alone puts {}",
                    2 * n
                ));
            }
            let hand = state.hands[state.turn].len();
            let plays_ok = match phase {
                Phase::Play => state.plays_remaining >= 1 && hand > 0,
                Phase::Pass => state.plays_remaining == 0 && hand > 0,
                _ => state.plays_remaining >= 1,
            };
            if !plays_ok {
                return contradiction(format!(
                    "{} plays remaining with {hand} hand cards in phase {phase:?}",
                    state.plays_remaining
                ));
            }
        }
    }
    match (phase, &state.chance) {
        (Phase::Deal, Some(c)) => consistency::deal_awaited(c, &deal_chance(state))?,
        (
            Phase::Drawing,
            Some(PendingChance::Draw {
                seat,
                count,
                reason,
                pile,
            }),
        ) => {
            let (wanted, plays_ok) = match reason {
                DrawReason::TurnStart if state.turns_this_round == 0 => {
                    (FIRST_TURN_DRAW, state.plays_remaining == 1)
                }
                DrawReason::TurnStart => (TURN_DRAW, state.plays_remaining == 1),
                DrawReason::Five => (FIVE_BONUS, state.plays_remaining >= 2),
            };
            if *seat != state.turn
                || *pile != state.draw_stack
                || *count != wanted.min(pile.len())
                || *count == 0
                || !plays_ok
            {
                return consistency::chance_contradicts("draw", &state.chance);
            }
        }
        (Phase::Choose | Phase::Play | Phase::Pass | Phase::Over, None) => {}
        (phase, chance) => return consistency::cannot_wait(phase, chance),
    }
    Ok(())
}
