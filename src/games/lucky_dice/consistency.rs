//! Could this Lucky Dice state have arisen from play? See [`crate::games::kit::consistency`].

use super::*;
use crate::games::kit::consistency::{self, bad, round_results};

impl crate::games::Table for State {
    fn players(&self) -> usize {
        self.players
    }

    fn check(&self) -> Result<(), Inconsistency> {
        // The per-seat lists are counted after the options, with a message of their own.
        consistency::table::<LuckyDice>(self.players, &self.options, "bad_seat_count", &[])?;
        let lengths = [
            self.coasters.len(),
            self.won.len(),
            self.pools.len(),
            self.extra_rolls_used.len(),
            self.finished_extra.len(),
        ];
        if lengths.iter().any(|&l| l != self.players) {
            return bad(
                "bad_seat_count",
                format!(
                    "per-seat lists of lengths {lengths:?} for {} players",
                    self.players
                ),
            );
        }
        check_dice(self)?;
        check_coasters(self)?;
        check_results(self)?;
        check_phase(self)
    }
}

/// RULINGS 3.3 invariant: tray + Σ pools = 3n.
fn check_dice(state: &State) -> Result<(), Inconsistency> {
    let total: u64 = state.pools.iter().map(|&p| u64::from(p)).sum::<u64>() + u64::from(state.tray);
    let expected = u64::from(DICE_PER_PLAYER) * state.players as u64;
    if total != expected {
        return bad(
            "dice_not_conserved",
            format!(
                "pools {:?} and tray {} hold {total} dice, not {expected}",
                state.pools, state.tray
            ),
        );
    }
    Ok(())
}

/// Pile + face-up + face-down coasters = the coaster set, as multisets.
fn check_coasters(state: &State) -> Result<(), Inconsistency> {
    if !state.pile.is_sorted() {
        return bad("pile_not_sorted", "the pile is a sorted multiset");
    }
    let mut all: Vec<Coaster> = state.pile.clone();
    all.extend(state.coasters.iter().flatten());
    all.extend(state.won.iter().flatten());
    all.sort();
    let mut set = state.options.coaster_set.clone();
    set.sort();
    if all != set {
        return bad(
            "coasters_not_conserved",
            "pile, face-up and face-down coasters are not the coaster set",
        );
    }
    Ok(())
}

fn check_results(state: &State) -> Result<(), Inconsistency> {
    let over = state.phase == Phase::Over;
    round_results(state.results.len(), state.round, over, state.phase)?;
    let n = state.players;
    let mut won: Vec<Vec<Coaster>> = vec![Vec::new(); n];
    let mut totals = vec![0i64; n];
    let mut pile_left = state.options.coaster_set.len() - n;
    for (i, result) in state.results.iter().enumerate() {
        let round = i as u32 + 1;
        let seats: Vec<Seat> = result.coasters_won.iter().map(|c| c.seat).collect();
        let consistent = result.round == round
            && !result.emptied.is_empty()
            && result.emptied.windows(2).all(|w| w[0] < w[1])
            && result.emptied.iter().all(|&s| s < n)
            && result.emptied.contains(&result.stop_caller)
            && result.emptied.len() <= max_round_winners(&state.options, n)
            && seats == result.emptied
            && result.points == coaster_points(n, &result.emptied);
        if !consistent {
            return bad(
                "bad_round_results",
                format!("round {round}'s result is inconsistent: {result:?}"),
            );
        }
        for c in &result.coasters_won {
            won[c.seat].push(c.coaster);
        }
        for (total, p) in totals.iter_mut().zip(&result.points) {
            *total += p;
        }
        let ends = game_ends(&state.options, &totals, result.emptied.len(), pile_left);
        let last = i + 1 == state.results.len();
        if ends != (last && over) {
            return bad(
                "bad_round_results",
                format!("round {round} ends the game: {ends}, but the game over: {over}"),
            );
        }
        if !ends {
            pile_left -= result.emptied.len();
        }
    }
    if won != state.won {
        return bad(
            "bad_round_results",
            "face-down coasters differ from the coasters won round by round",
        );
    }
    if !over && pile_left + pending_draws(state) != state.pile.len() {
        return bad(
            "bad_round_results",
            format!(
                "{} coasters in the pile, {pile_left} expected",
                state.pile.len()
            ),
        );
    }
    Ok(())
}

fn pending_draws(state: &State) -> usize {
    match &state.chance {
        Some(PendingChance::Coasters { seats }) => seats.len(),
        _ => 0,
    }
}

fn check_phase(state: &State) -> Result<(), Inconsistency> {
    let n = state.players;
    let phase = state.phase;
    let phase_bad = |detail: String| bad("phase_contradiction", detail);
    let fresh_dice = state.pools.iter().all(|&p| p == DICE_PER_PLAYER) && state.tray == 0;
    let no_stop_bookkeeping = state.stop_caller.is_none()
        && state.extra_rolls_used.iter().all(|&u| u == 0)
        && state.finished_extra.iter().all(|f| !f);
    let no_coaster: Vec<Seat> = (0..n).filter(|&s| state.coasters[s].is_none()).collect();
    let in_round = matches!(phase, Phase::Race | Phase::AfterStop);
    let between_rounds = fresh_dice && no_stop_bookkeeping && state.lucky_symbol.is_none();
    if !in_round && !between_rounds {
        return phase_bad(format!(
            "dice or round bookkeeping in play in phase {phase:?}"
        ));
    }
    if phase != Phase::DrawCoasters && phase != Phase::Over && !no_coaster.is_empty() {
        return phase_bad(format!(
            "seats {no_coaster:?} have no coaster in phase {phase:?}"
        ));
    }
    if in_round && state.lucky_symbol.is_none() {
        return phase_bad(format!("no lucky symbol in phase {phase:?}"));
    }
    match phase {
        Phase::DrawCoasters => match &state.chance {
            Some(PendingChance::Coasters { seats })
                if *seats == no_coaster && !seats.is_empty() => {}
            other => {
                return bad(
                    "chance_mismatch",
                    format!(
                    "drawing coasters, awaiting {other:?}; seats without coaster {no_coaster:?}"
                ),
                )
            }
        },
        Phase::NeedLuckySymbol => {
            if state.chance != Some(PendingChance::LuckySymbol { round: state.round }) {
                return bad(
                    "chance_mismatch",
                    format!("need the lucky symbol, awaiting {:?}", state.chance),
                );
            }
        }
        Phase::Race => {
            if !no_stop_bookkeeping {
                return phase_bad("stop bookkeeping before \"Stop!\"".into());
            }
            if state.options.auto_stop && state.pools.contains(&0) {
                return phase_bad("an empty pool in the race with automatic stop".into());
            }
            match &state.chance {
                None => {}
                Some(PendingChance::Roll {
                    seat,
                    dice,
                    extra: false,
                }) if *seat < n && *dice == state.pools[*seat] && *dice > 0 => {}
                other => return bad("chance_mismatch", format!("race awaiting {other:?}")),
            }
        }
        Phase::AfterStop => {
            let Some(caller) = state.stop_caller.filter(|&c| c < n) else {
                return phase_bad("after stop without a stop caller".into());
            };
            if state.pools[caller] != 0
                || state.extra_rolls_used[caller] != 0
                || state.finished_extra[caller]
            {
                return phase_bad(format!(
                    "stop caller {caller} holds dice or rolled after stopping"
                ));
            }
            if state
                .extra_rolls_used
                .iter()
                .any(|&u| u > state.options.extra_rolls)
            {
                return phase_bad("more extra rolls than allowed".into());
            }
            match &state.chance {
                None if !rules::may_move(state).is_empty() => {}
                None => return phase_bad("the round should have ended: nobody may roll".into()),
                Some(PendingChance::Roll {
                    seat,
                    dice,
                    extra: true,
                }) if *seat < n
                    && rules::may_move(state).contains(seat)
                    && *dice == state.pools[*seat] => {}
                other => return bad("chance_mismatch", format!("after stop awaiting {other:?}")),
            }
        }
        Phase::Over => {
            if state.chance.is_some() {
                return bad("chance_mismatch", "a finished game awaits no chance");
            }
            let last = state
                .results
                .last()
                .map(|r| r.emptied.clone())
                .unwrap_or_default();
            if no_coaster != last {
                return phase_bad("only the last round's winners lack a coaster at the end".into());
            }
        }
    }
    Ok(())
}
