//! Could this Lucky Jack state have arisen from play? See [`crate::games::kit::consistency`].

use super::*;
use crate::games::kit::consistency::{self, bad, each_round, fixed_rounds};

impl crate::games::Table for State {
    fn players(&self) -> usize {
        self.players
    }

    fn check(&self) -> Result<(), Inconsistency> {
        let lists = [(self.hands.len(), "hands")];
        consistency::table::<LuckyJack>(self.players, &self.options, "bad_hand_count", &lists)?;
        if self.round < 1 || self.round > self.options.rounds {
            return bad(
                "bad_round",
                format!("round {} of {}", self.round, self.options.rounds),
            );
        }
        consistency::turn_seat(self.turn, self.players)?;
        let starter = starter_of(&self.options, self.players, self.round);
        if self.starter != starter {
            return bad(
                "bad_starter",
                format!(
                    "round {} is started by seat {starter}, not {}",
                    self.round, self.starter
                ),
            );
        }
        check_conservation(self)?;
        for (seat, hand) in self.hands.iter().enumerate() {
            if !hand.is_sorted() {
                return bad(
                    "hand_not_sorted",
                    format!("seat {seat}'s hand is not sorted"),
                );
            }
        }
        check_results(self)?;
        check_phase(self)
    }
}

fn check_conservation(state: &State) -> Result<(), Inconsistency> {
    let mut all = state.draw_pile;
    for hand in &state.hands {
        all.add_all(&Counts::of(hand));
    }
    all.add_all(&Counts::of(&state.discard));
    if let Some(card) = state.pending {
        all.add(card, 1);
    }
    if all != Counts::full_deck() {
        return bad(
            "cards_not_conserved",
            format!("hands, piles and pending card hold {all:?}, not 12 of each symbol"),
        );
    }
    Ok(())
}

fn check_results(state: &State) -> Result<(), Inconsistency> {
    let over = state.phase == Phase::Over;
    let rounds = state.options.rounds;
    fixed_rounds(state.results.len(), state.round, rounds, over, state.phase)?;
    each_round(&state.results, |round, result| {
        let mut expected = vec![0i64; state.players];
        let consistent = match result.result {
            RoundOutcome::Jackpot {
                seat,
                symbol,
                size,
                points,
            } => {
                let ok = seat < state.players && symbol.jackpot_points(size) == Some(points);
                if ok {
                    expected[seat] = i64::from(points);
                }
                ok
            }
            RoundOutcome::NoJackpot { .. } => state.options.max_turns_per_round.is_some(),
        };
        consistent
            && result.round == round
            && result.starter == starter_of(&state.options, state.players, round)
            && result.points == expected
    })
}

fn check_phase(state: &State) -> Result<(), Inconsistency> {
    let phase = state.phase;
    let turn_hand = state.hands[state.turn].len();
    let phase_bad = |detail: String| bad("phase_contradiction", detail);
    // Cards are out of the deck only while a round is being played.
    let in_play = !matches!(phase, Phase::Deal | Phase::Over);
    if !in_play {
        if state.hands.iter().any(|h| !h.is_empty()) || !state.discard.is_empty() {
            return phase_bad(format!("cards on the table in phase {phase:?}"));
        }
        if state.turn_start_hand != 0 || state.turns_this_round != 0 {
            return phase_bad(format!("turn bookkeeping set in phase {phase:?}"));
        }
    } else if let Some(seat) = state.hands.iter().position(|h| h.len() < HAND_FLOOR) {
        return phase_bad(format!("seat {seat} holds fewer than {HAND_FLOOR} cards"));
    }
    if state.pending.is_some() != (phase == Phase::Drawn) {
        return phase_bad(format!(
            "a pending drawn card must exist exactly in phase drawn (phase {phase:?})"
        ));
    }
    if let Some(cap) = state.options.max_turns_per_round {
        if state.turns_this_round >= cap {
            return phase_bad(format!(
                "{} turns completed, cap {cap}",
                state.turns_this_round
            ));
        }
    }
    match phase {
        Phase::Turn | Phase::Drawing | Phase::Drawn if state.turn_start_hand != turn_hand => {
            return phase_bad(format!(
                "turn_start_hand {} but seat {} holds {turn_hand}",
                state.turn_start_hand, state.turn
            ));
        }
        Phase::Drawn if state.turn_start_hand < HAND_FLOOR => {
            return phase_bad("drawn card with a hand below the floor".into());
        }
        _ => {}
    }
    if let Some(t) = state.takeable {
        let by_ok = match phase {
            Phase::Turn => {
                t.by == state.turn && t.from == (state.turn + state.players - 1) % state.players
            }
            Phase::Penalty => {
                state.options.drawn_discard_follows_symbol_rule
                    && t.from == state.turn
                    && t.by == (state.turn + 1) % state.players
            }
            _ => false,
        };
        if !by_ok || state.discard.last() != Some(&t.card) || state.discard.len() < 2 {
            return phase_bad(format!("takeable {t:?} contradicts the table"));
        }
    }
    let owed_ok = match phase {
        Phase::Drawing => state.draw_owed == 1,
        Phase::Penalty => (1..=PENALTY_CARDS).contains(&state.draw_owed),
        _ => state.draw_owed == 0,
    };
    if !owed_ok {
        return phase_bad(format!("draw_owed {} in phase {phase:?}", state.draw_owed));
    }
    match (phase, &state.chance) {
        (Phase::Deal, Some(c @ PendingChance::Deal { .. })) => {
            consistency::deal_awaited(c, &deal_chance(state))?;
        }
        (Phase::Drawing | Phase::Penalty, Some(PendingChance::Draw { seat, count, pile })) => {
            if *seat != state.turn
                || *pile != state.draw_pile
                || *count != state.draw_owed.min(pile.total())
                || *count == 0
            {
                return consistency::chance_contradicts("draw", &state.chance);
            }
        }
        (Phase::Drawing | Phase::Penalty, Some(PendingChance::Flip { seat, pile })) => {
            if *seat != state.turn
                || *pile != state.draw_pile
                || pile.is_empty()
                || !state.discard.is_empty()
            {
                return consistency::chance_contradicts("flip", &state.chance);
            }
        }
        (Phase::Turn | Phase::Drawn | Phase::Over, None) => {}
        (phase, chance) => return consistency::cannot_wait(phase, chance),
    }
    Ok(())
}
