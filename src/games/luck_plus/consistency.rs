//! Could this Luck Plus state have arisen from play? See [`crate::games::kit::consistency`].

use super::rules::is_out;
use super::*;
use crate::games::kit::consistency::{self, bad};

impl crate::games::Table for State {
    fn players(&self) -> usize {
        self.players
    }

    fn check(&self) -> Result<(), Inconsistency> {
        let lists = [
            (self.hands.len(), "hands"),
            (self.had_turn.len(), "turn flags"),
        ];
        consistency::table::<LuckPlus>(self.players, &self.options, "bad_hand_count", &lists)?;
        if self.hand < 1 {
            return bad("bad_hand", "hands count from 1");
        }
        if self.dealer != dealer_of(&self.options, self.players, self.hand) {
            return bad(
                "bad_dealer",
                format!("hand {} is not dealt by seat {}", self.hand, self.dealer),
            );
        }
        consistency::turn_seat(self.turn, self.players)?;
        check_conservation(self)?;
        check_results(self)?;
        check_phase(self)
    }
}

fn check_conservation(state: &State) -> Result<(), Inconsistency> {
    for (seat, hand) in state.hands.iter().enumerate() {
        if !hand.is_sorted() {
            return bad(
                "hand_not_sorted",
                format!("seat {seat}'s hand is not sorted"),
            );
        }
    }
    if !state.draw_pile.is_sorted() {
        return bad("pile_not_sorted", "the draw pile multiset is not sorted");
    }
    if state.draw_bottom.iter().any(|&c| c != Card::Lp) {
        return bad(
            "bad_draw_bottom",
            "only LUCK PLUS cards go under the draw pile",
        );
    }
    let mut all: Vec<Card> = state.hands.iter().flatten().copied().collect();
    all.extend(state.draw_pile.iter().copied());
    all.extend(state.draw_bottom.iter().copied());
    all.extend(state.match_pile.iter().copied());
    all.sort();
    if all != full_deck() {
        return bad(
            "cards_not_conserved",
            format!(
                "hands and piles hold {} cards, not the 108-card deck",
                all.len()
            ),
        );
    }
    Ok(())
}

fn check_results(state: &State) -> Result<(), Inconsistency> {
    let over = state.phase == Phase::Over;
    let finished = if over { state.hand } else { state.hand - 1 };
    if state.results.len() != finished as usize {
        return bad(
            "bad_hand_results",
            format!(
                "{} hand results in hand {} ({:?})",
                state.results.len(),
                state.hand,
                state.phase
            ),
        );
    }
    for (i, result) in state.results.iter().enumerate() {
        let hand = i as u32 + 1;
        let tally = Tally {
            out: result.out.clone(),
            cards_left: result.cards_left.clone(),
        };
        let valid = check_tally(&state.options, state.players, &tally).is_ok()
            && *result
                == score_hand(
                    &state.options,
                    state.players,
                    hand,
                    &result.out,
                    result.cards_left.clone(),
                );
        if !valid {
            return bad(
                "bad_hand_results",
                format!("hand {hand}'s result is inconsistent"),
            );
        }
        let before = totals(state.players, &state.results[..i]);
        if target_reached(&state.options, &before) {
            return bad(
                "bad_hand_results",
                format!("hand {hand} was played after the target was reached"),
            );
        }
    }
    if over != target_reached(&state.options, &totals(state.players, &state.results)) {
        return bad(
            "phase_contradiction",
            "the game is over exactly when a total reaches the target",
        );
    }
    Ok(())
}

fn check_phase(state: &State) -> Result<(), Inconsistency> {
    let phase = state.phase;
    let n = state.players;
    let phase_bad = |detail: String| bad("phase_contradiction", detail);
    if matches!(phase, Phase::Deal | Phase::Over) {
        let clean = state.hands.iter().all(Vec::is_empty)
            && state.match_pile.is_empty()
            && state.draw_bottom.is_empty()
            && state.dice.is_none()
            && !state.rolled_this_turn
            && state.used == Usage::default()
            && state.drawn.is_none()
            && !state.first_turn
            && state.had_turn.iter().all(|t| !t)
            && state.out.is_empty()
            && state.final_round.is_none();
        if !clean {
            return phase_bad(format!("a hand is on the table in phase {phase:?}"));
        }
        if state.turn != (state.dealer + 1) % n {
            return phase_bad("the next hand starts left of its dealer".into());
        }
        return match (phase, &state.chance) {
            (Phase::Over, None) => Ok(()),
            (Phase::Deal, Some(c)) if *c == deal_chance(state) => Ok(()),
            (_, c) => consistency::cannot_wait(phase, c),
        };
    }
    // A hand is being played.
    if state.match_pile.is_empty() {
        return phase_bad("the match pile is empty during a hand".into());
    }
    let mut seen = vec![false; n];
    for o in &state.out {
        if o.seat >= n || seen[o.seat] {
            return phase_bad(format!("bad out list {:?}", state.out));
        }
        seen[o.seat] = true;
    }
    for (seat, hand) in state.hands.iter().enumerate() {
        if hand.is_empty() != seen[seat] {
            return phase_bad(format!(
                "seat {seat}: an empty hand goes with being out of the hand"
            ));
        }
    }
    match &state.final_round {
        None if !state.out.is_empty() => {
            return phase_bad("players are out but no LUCK OUT round is being played".into())
        }
        Some(seats) => {
            let luck = state.out.first().is_some_and(|o| o.luck_out);
            if !state.options.luck_out_full_round || !luck {
                return phase_bad("a final round needs a LUCK OUT and the option".into());
            }
            let mut listed = vec![false; n];
            for &s in seats {
                if s >= n || listed[s] || is_out(state, s) || s == state.turn {
                    return phase_bad(format!("bad final round {seats:?}"));
                }
                listed[s] = true;
            }
        }
        None => {}
    }
    if is_out(state, state.turn) {
        return phase_bad(format!("seat {} is out but to play", state.turn));
    }
    if !state.had_turn[state.turn] {
        return phase_bad("the turn seat has not begun a turn".into());
    }
    if state.dice.is_none() && (state.rolled_this_turn || state.used != Usage::default()) {
        return phase_bad("dice used but none showing".into());
    }
    if let Some(dice) = state.dice {
        if dice.iter().any(|d| !(1..=6).contains(d)) {
            return phase_bad(format!("dice {dice:?}"));
        }
    }
    if state.drawn.is_some() != (phase == Phase::Drawn) {
        return phase_bad(format!(
            "a drawn card goes with phase drawn (phase {phase:?})"
        ));
    }
    if let Some(card) = state.drawn {
        if !state.hands[state.turn].contains(&card) {
            return phase_bad(format!("the drawn {card} is not in the hand"));
        }
    }
    if phase == Phase::Rolled && !state.rolled_this_turn {
        return phase_bad("phase rolled without a roll this turn".into());
    }
    if matches!(phase, Phase::ForcedBonus | Phase::PreRoll)
        && (state.rolled_this_turn || state.used != Usage::default())
    {
        return phase_bad(format!("phase {phase:?} after dice use this turn"));
    }
    let chance_ok = match (phase, &state.chance) {
        (Phase::Rolling, Some(PendingChance::Roll { seat })) => *seat == state.turn,
        (Phase::Drawing, Some(PendingChance::Draw { seat, pile })) => {
            *seat == state.turn && *pile == state.draw_pile && !pile.is_empty()
        }
        (Phase::Rolling | Phase::Drawing, _) => false,
        (_, chance) => chance.is_none(),
    };
    if !chance_ok {
        return consistency::cannot_wait(phase, &state.chance);
    }
    Ok(())
}
