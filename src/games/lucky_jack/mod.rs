//! Lucky Jack (Brault / Thoniel / Fletcher): a 2–6 player card-shedding game with jackpots.
//!
//! Rules reference: `docs/rules/lucky-jack.md` (the rulebook plus RULINGS.md §2). The module is
//! pure: chance arrives only as [`Chance`] outcomes, sampled by [`Game::sample_chance`] from a
//! lent [`Randomness`] or reported by a physical table.

mod cards;
mod moves;
mod options;
mod score;
mod state;
mod violation;

#[cfg(test)]
mod tests;

pub use cards::{Counts, Symbol, COPIES, DECK_SIZE};
pub use {moves::*, options::*, score::*, state::*, view::*, violation::*};

use super::game::engine;
use super::kit::guard::{self, OfKind};
use super::kit::rounds::Rounds;
use super::kit::{hand, scored};
use super::{
    ChanceOwner, Game, Highlights, Inconsistency, Order, Randomness, Seat, Standings, ValidOptions,
    Viewer,
};

/// Cards dealt to each seat at the start of a round.
pub const HAND_SIZE: usize = 7;
/// A hand never goes below this many cards except by a jackpot (RULINGS J4).
pub const HAND_FLOOR: usize = 3;
/// Hand size at turn start needed to discard from the hand (options 1–3).
pub const DISCARD_MINIMUM: usize = HAND_FLOOR + 1;
/// Cards drawn after a lower-symbol discard (option 3).
pub const PENALTY_CARDS: usize = 2;

/// The Lucky Jack rules engine.
pub struct LuckyJack;

impl Game for LuckyJack {
    engine!(LuckyJack, "lucky-jack/1", players 2..=6, LuckyJackViolation, RoundResult);

    fn setup(options: ValidOptions<Options>) -> State {
        let (options, players) = options.into_inner();
        let starter = (options.dealer + 1) % players;
        let mut state = State {
            players,
            options,
            round: 1,
            starter,
            turn: starter,
            phase: Phase::Deal,
            hands: vec![Vec::new(); players],
            draw_pile: Counts::full_deck(),
            discard: Vec::new(),
            pending: None,
            takeable: None,
            turn_start_hand: 0,
            draw_owed: 0,
            turns_this_round: 0,
            results: Rounds::new(),
            chance: None,
        };
        state.chance = Some(deal_chance(&state));
        state
    }

    fn to_act(state: &State) -> Vec<Seat> {
        match state.phase {
            Phase::Turn | Phase::Drawn if state.chance.is_none() => vec![state.turn],
            _ => Vec::new(),
        }
    }

    fn chance_owner(state: &State) -> Option<ChanceOwner> {
        // The round's dealer sits right of its starter.
        let dealer = |round: u32| {
            (starter_of(&state.options, state.players, round) + state.players - 1) % state.players
        };
        Some(match state.chance.as_ref()? {
            PendingChance::Deal { round, .. } => ChanceOwner::Table {
                dealer: Some(dealer(*round)),
            },
            PendingChance::Draw { seat, .. } => ChanceOwner::Seat(*seat),
            // The reshuffled flip sets the discard pile every seat plays on.
            PendingChance::Flip { .. } => ChanceOwner::Table {
                dealer: Some(dealer(state.round)),
            },
        })
    }

    fn sample_chance(state: &State, rng: &mut dyn Randomness) -> Chance {
        match guard::to_sample(state.chance.as_ref()) {
            PendingChance::Deal { pile, .. } => {
                let cards = rng.draw(&pile.canonical(), HAND_SIZE * state.players + 1);
                let hands = cards
                    .chunks(HAND_SIZE)
                    .take(state.players)
                    .map(hand::sorted)
                    .collect();
                Chance::Deal {
                    hands,
                    flip: cards[HAND_SIZE * state.players],
                }
            }
            PendingChance::Draw { count, pile, .. } => Chance::Draw {
                cards: rng.draw(&pile.canonical(), *count),
            },
            PendingChance::Flip { pile, .. } => Chance::Flip {
                card: rng.draw(&pile.canonical(), 1)[0],
            },
        }
    }

    fn score(state: &State) -> Score {
        Score {
            rounds: state.results.clone(),
            totals: totals(state),
        }
    }

    fn score_tally(
        options: &Options,
        players: usize,
        round: u32,
        tally: &Tally,
    ) -> Result<RoundResult, LuckyJackViolation> {
        if round > options.rounds {
            return Err(Common::GameOver.into());
        }
        let result = match &tally.jackpot {
            None => RoundOutcome::NoJackpot {
                reason: NoJackpotReason::NoWinner,
            },
            Some(jackpot) => {
                Common::seated(jackpot.seat, players)?;
                let points = jackpot
                    .symbol
                    .jackpot_points(jackpot.size)
                    .ok_or(LuckyJackViolation::InvalidJackpotSize { size: jackpot.size })?;
                RoundOutcome::Jackpot {
                    seat: jackpot.seat,
                    symbol: jackpot.symbol,
                    size: jackpot.size,
                    points,
                }
            }
        };
        Ok(RoundResult::new(
            round,
            starter_of(options, players, round),
            players,
            result,
        ))
    }

    fn highlights(state: &State) -> Vec<Highlights> {
        jackpot_highlights(state.players, &state.results)
    }

    fn tally_highlights(players: usize, rounds: &[RoundResult]) -> Vec<Highlights> {
        jackpot_highlights(players, rounds)
    }

    fn tally_standings(
        options: &Options,
        players: usize,
        rounds: &[RoundResult],
    ) -> (Standings, bool) {
        scored::fixed_standings(players, rounds, options.rounds)
    }
}

/// Each seat's points over the finished rounds.
pub fn totals(state: &State) -> Vec<i64> {
    scored::totals(state.players, &state.results)
}

/// Jackpots won per seat: in all, by symbol, and with four cards.
fn jackpot_highlights(players: usize, rounds: &[RoundResult]) -> Vec<Highlights> {
    let mut seats = vec![Highlights::new(); players];
    for round in rounds {
        if let RoundOutcome::Jackpot {
            seat, symbol, size, ..
        } = &round.result
        {
            let Some(mine) = seats.get_mut(*seat) else {
                continue;
            };
            *mine.entry("jackpots".into()).or_default() += 1;
            *mine
                .entry(format!("jackpots_{}", symbol.name()))
                .or_default() += 1;
            if *size == 4 {
                *mine.entry("four_card_jackpots".into()).or_default() += 1;
            }
        }
    }
    seats
}

/// The seat that takes the first turn of a round started by `starter`.
pub fn first_player(options: &Options, players: usize, starter: Seat) -> Seat {
    if options.starter_plays_after_flip {
        starter
    } else {
        (starter + 1) % players
    }
}

/// The starter of `round` (1-based): left of the dealer in round 1, one more seat left per round.
pub fn starter_of(options: &Options, players: usize, round: u32) -> Seat {
    (options.dealer + round as usize) % players
}

/// The jackpot a remaining hand shows, if it is exactly 3 or 4 cards of one symbol.
pub fn jackpot_in(hand: &[Symbol]) -> Option<(Symbol, usize)> {
    match hand {
        [first, rest @ ..] if (hand.len() == 3 || hand.len() == 4) => rest
            .iter()
            .all(|c| c == first)
            .then_some((*first, hand.len())),
        _ => None,
    }
}

fn deal_chance(state: &State) -> PendingChance {
    PendingChance::Deal {
        round: state.round,
        hands: state.players,
        cards_per_hand: HAND_SIZE,
        pile: state.draw_pile,
    }
}

mod consistency;
mod rules;
mod view;
