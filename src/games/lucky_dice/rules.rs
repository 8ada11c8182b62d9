//! Move legality and effects, chance resolution, round flow.

use super::*;
use crate::games::kit::{deal, guard};
use LuckyDiceViolation as V;

/// Whether `seat` may still take an extra roll (or decline them) after "Stop!".
fn extra_roller(state: &State, seat: Seat) -> bool {
    state.stop_caller != Some(seat)
        && state.pools[seat] > 0
        && state.extra_rolls_used[seat] < state.options.extra_rolls
        && !state.finished_extra[seat]
}

/// The seats that may move in the current phase, ignoring pending chance.
pub(super) fn may_move(state: &State) -> Vec<Seat> {
    let seats = 0..state.players;
    match state.phase {
        // Every seat holding dice rolls; with a manual "Stop!" an emptied seat may call it.
        Phase::Race => seats
            .filter(|&s| state.pools[s] > 0 || !state.options.auto_stop)
            .collect(),
        Phase::AfterStop => seats.filter(|&s| extra_roller(state, s)).collect(),
        _ => Vec::new(),
    }
}

fn common_checks(state: &State, seat: Seat) -> Result<(), LuckyDiceViolation> {
    let over = state.phase == Phase::Over;
    guard::may_move(over, state.chance.as_ref(), seat, state.players)?;
    Ok(())
}

/// The roll's stated dice count against the seat's pool (RULINGS 3.4 `len(results) = pool`).
fn check_count(state: &State, seat: Seat, dice: Option<u32>) -> Result<(), LuckyDiceViolation> {
    let held = state.pools[seat];
    match dice {
        None if state.options.strict_roll_count => Err(V::DiceCountRequired),
        Some(claimed) if claimed != held && state.options.strict_roll_count => {
            Err(V::WrongDiceCount {
                seat,
                claimed,
                held,
            })
        }
        _ if held == 0 => Err(V::NoDice { seat }),
        _ => Ok(()),
    }
}

fn check_extra(state: &State, seat: Seat) -> Result<(), LuckyDiceViolation> {
    if state.phase != Phase::AfterStop {
        return Err(V::NotInStopPhase);
    }
    if state.stop_caller == Some(seat) {
        return Err(V::StopCallerCannotRoll);
    }
    if state.finished_extra[seat] {
        return Err(V::ExtraRollsDeclined);
    }
    if state.extra_rolls_used[seat] >= state.options.extra_rolls {
        return Err(V::ExtraRollsExhausted {
            allowed: state.options.extra_rolls,
        });
    }
    Ok(())
}

fn stop_phase(state: &State) -> LuckyDiceViolation {
    V::StopPhase {
        stop_caller: state.stop_caller.unwrap_or_default(),
    }
}

pub(super) fn check_chance(state: &State, outcome: &Chance) -> Result<(), LuckyDiceViolation> {
    if state.phase == Phase::Over {
        return Err(Common::GameOver.into());
    }
    let pending = guard::answered::<V, _, _, _>(state.chance.as_ref(), outcome)?;
    match (pending, outcome) {
        (PendingChance::Coasters { seats }, Chance::Coasters { coasters }) => {
            deal::check_draw(&state.pile[..], coasters, seats.len()).map_err(|mismatch| {
                match mismatch {
                    deal::Mismatch::NotInPile(coaster) => V::CoasterNotInPile { coaster },
                    // One coaster per seat in the play-off: any count mismatch is the coasters'.
                    deal::Mismatch::HandCount { expected, got }
                    | deal::Mismatch::CardCount { expected, got } => {
                        V::WrongCoasterCount { expected, got }
                    }
                }
            })
        }
        (PendingChance::Roll { seat, dice, .. }, Chance::Roll { faces }) => {
            if faces.len() != *dice as usize {
                return Err(V::WrongFaceCount {
                    seat: *seat,
                    expected: *dice,
                    got: faces.len(),
                });
            }
            Ok(())
        }
        // Every face of the large die is possible; the symbol's type admits only faces.
        _ => Ok(()),
    }
}

// Engine invariant: applies only what check_chance accepted: a pending chance, coasters in the pile.
#[allow(clippy::expect_used)]
pub(super) fn apply_chance(state: &mut State, outcome: &Chance) -> Vec<Event> {
    let pending = state.chance.take().expect("checked: a chance is pending");
    let mut events = Vec::new();
    match (pending, outcome) {
        (PendingChance::Coasters { seats }, Chance::Coasters { coasters }) => {
            let mut draws = Vec::with_capacity(seats.len());
            for (&seat, &coaster) in seats.iter().zip(coasters) {
                let i = state
                    .pile
                    .iter()
                    .position(|c| *c == coaster)
                    .expect("checked: in the pile");
                state.pile.remove(i);
                state.coasters[seat] = Some(coaster);
                draws.push(SeatCoaster { seat, coaster });
            }
            events.push(Event::CoastersDrawn {
                draws,
                pile_left: state.pile.len(),
            });
            state.phase = Phase::NeedLuckySymbol;
            state.chance = Some(PendingChance::LuckySymbol { round: state.round });
        }
        (PendingChance::LuckySymbol { round }, Chance::LuckySymbol { symbol }) => {
            state.lucky_symbol = Some(*symbol);
            state.phase = Phase::Race;
            events.push(Event::RoundStarted {
                round,
                lucky_symbol: *symbol,
            });
        }
        (PendingChance::Roll { seat, extra, .. }, Chance::Roll { faces }) => {
            roll(state, seat, extra, faces, &mut events);
        }
        _ => unreachable!("checked: the outcome has the awaited kind"),
    }
    events
}

/// Moves each die of `seat`'s roll where it goes, then calls "Stop!" or ends the round as due.
// Engine invariant: a seat rolls only in a round in play, which has its coaster and lucky symbol.
#[allow(clippy::expect_used)]
fn roll(state: &mut State, seat: Seat, extra: bool, faces: &[Symbol], events: &mut Vec<Event>) {
    let n = state.players;
    let coaster = state.coasters[seat].expect("a rolling seat has a coaster");
    let lucky = state
        .lucky_symbol
        .expect("a round in play has its lucky symbol");
    let dice: Vec<Die> = faces
        .iter()
        .map(|&face| destination(n, seat, coaster, lucky, extra, face))
        .collect();
    for die in &dice {
        match (die.to, die.seat) {
            (Destination::Tray, _) => {
                state.pools[seat] -= 1;
                state.tray += 1;
            }
            (Destination::Left | Destination::Right, Some(receiver)) => {
                state.pools[seat] -= 1;
                state.pools[receiver] += 1;
            }
            _ => {}
        }
    }
    events.push(Event::Rolled {
        seat,
        extra,
        dice,
        pools: state.pools.clone(),
        tray: state.tray,
    });
    if extra {
        state.extra_rolls_used[seat] += 1;
        end_round_if_done(state, events);
    } else if state.pools[seat] == 0 && state.options.auto_stop {
        // D3: only the roller loses dice in an event, so it is the first to empty.
        call_stop(state, seat, true, events);
    }
}

fn call_stop(state: &mut State, seat: Seat, automatic: bool, events: &mut Vec<Event>) {
    state.phase = Phase::AfterStop;
    state.stop_caller = Some(seat);
    events.push(Event::Stopped { seat, automatic });
    end_round_if_done(state, events);
}

/// After "Stop!", the round ends once no other seat may still roll (RULINGS 3.4).
fn end_round_if_done(state: &mut State, events: &mut Vec<Event>) {
    if state.phase == Phase::AfterStop && state.chance.is_none() && may_move(state).is_empty() {
        end_round(state, events);
    }
}

/// Every seat with no dice turns its coaster face down; dice are redistributed; the game ends or
/// the winners draw new coasters.
// Engine invariant: a round ends only after "Stop!", with coasters and a lucky symbol dealt.
#[allow(clippy::expect_used)]
fn end_round(state: &mut State, events: &mut Vec<Event>) {
    let n = state.players;
    let emptied: Vec<Seat> = (0..n).filter(|&s| state.pools[s] == 0).collect();
    let points = coaster_points(n, &emptied);
    let mut coasters_won = Vec::with_capacity(emptied.len());
    for &seat in &emptied {
        let coaster = state.coasters[seat]
            .take()
            .expect("a seat in play has a coaster");
        state.won[seat].push(coaster);
        coasters_won.push(SeatCoaster { seat, coaster });
    }
    state.results.push(RoundResult {
        round: state.round,
        lucky_symbol: state
            .lucky_symbol
            .expect("a finished round had a lucky symbol"),
        stop_caller: state.stop_caller.expect("a round ends after \"Stop!\""),
        emptied: emptied.clone(),
        coasters_won: coasters_won.clone(),
        points,
    });
    let totals = totals(state);
    events.push(Event::RoundEnded {
        round: state.round,
        emptied: emptied.clone(),
        coasters_won,
        totals: totals.clone(),
    });
    // Redistribute: 3 dice each, tray emptied, round bookkeeping cleared.
    state.pools = vec![DICE_PER_PLAYER; n];
    state.tray = 0;
    state.lucky_symbol = None;
    state.stop_caller = None;
    state.extra_rolls_used = vec![0; n];
    state.finished_extra = vec![false; n];
    if game_ends(&state.options, &totals, emptied.len(), state.pile.len()) {
        state.phase = Phase::Over;
        let standings = Standings::rank(totals.clone(), Order::HighestWins, true);
        events.push(Event::GameEnded {
            winners: standings.winners,
            totals,
        });
    } else {
        state.round += 1;
        state.phase = Phase::DrawCoasters;
        state.chance = Some(PendingChance::Coasters { seats: emptied });
    }
}

/// The rules of play: legality, the legal moves, and the effects of moves and chance.
impl crate::games::Rules<LuckyDice> for State {
    fn validate(&self, seat: Seat, mv: &Move) -> Result<(), LuckyDiceViolation> {
        let state = self;
        common_checks(state, seat)?;
        match *mv {
            Move::Roll { dice } => {
                if state.phase == Phase::AfterStop {
                    return Err(stop_phase(state));
                }
                check_count(state, seat, dice)
            }
            Move::ExtraRoll { dice } => {
                check_extra(state, seat)?;
                check_count(state, seat, dice)
            }
            Move::Stop => {
                if state.options.auto_stop {
                    return Err(V::AutomaticStop);
                }
                if state.phase == Phase::AfterStop {
                    return Err(stop_phase(state));
                }
                match state.pools[seat] {
                    0 => Ok(()),
                    dice => Err(V::StopNotEmpty { seat, dice }),
                }
            }
            Move::FinishExtraRolls => {
                check_extra(state, seat)?;
                if state.pools[seat] == 0 {
                    return Err(V::NoDice { seat });
                }
                Ok(())
            }
        }
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let state = self;
        if state.chance.is_some() || seat >= state.players {
            return Vec::new();
        }
        let dice = Some(state.pools[seat]);
        let candidates = match state.phase {
            Phase::Race => vec![Move::Roll { dice }, Move::Stop],
            Phase::AfterStop => vec![Move::ExtraRoll { dice }, Move::FinishExtraRolls],
            _ => Vec::new(),
        };
        candidates
            .into_iter()
            .filter(|mv| state.validate(seat, mv).is_ok())
            .collect()
    }

    /// Never: every coaster and die is on the table (RULINGS 3.3; every seat's view is the
    /// spectator's, and events are redacted for nobody). Only the coaster pile's order is
    /// hidden, and coasters, like dice faces, come with chance events, not with moves.
    fn reveals(&self, _seat: Seat, _mv: &Move) -> bool {
        false
    }

    fn apply(&mut self, seat: Seat, mv: &Move) -> Vec<Event> {
        let state = self;
        match mv {
            Move::Roll { .. } | Move::ExtraRoll { .. } => {
                let extra = matches!(mv, Move::ExtraRoll { .. });
                let dice = state.pools[seat];
                state.chance = Some(PendingChance::Roll { seat, dice, extra });
                vec![Event::Rolling { seat, dice, extra }]
            }
            Move::Stop => {
                let mut events = Vec::new();
                call_stop(state, seat, false, &mut events);
                events
            }
            Move::FinishExtraRolls => {
                state.finished_extra[seat] = true;
                let mut events = vec![Event::ExtraRollsDeclined { seat }];
                end_round_if_done(state, &mut events);
                events
            }
        }
    }

    /// Checks the outcome was possible, then applies it.
    fn resolve_chance(&mut self, outcome: &Chance) -> Result<Vec<Event>, LuckyDiceViolation> {
        check_chance(self, outcome)?;
        Ok(apply_chance(self, outcome))
    }
}
