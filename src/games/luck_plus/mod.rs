//! Luck Plus (International Games, 1983/84): a 2–8 player card-and-dice matching game.
//!
//! Rules reference: `docs/rules/luck-plus.md` (the rulebook plus RULINGS.md §1). The module is
//! pure: chance (the deal, every roll, every draw) arrives only as [`Chance`] outcomes, sampled
//! by [`Game::sample_chance`] from a lent [`Randomness`] or reported by a physical table.

mod cards;
mod moves;
mod options;
mod score;
mod state;
mod violation;

#[cfg(test)]
mod tests;

pub use cards::{
    first_missing, full_deck, insert_sorted, over_deck, points_of, remove_one, Card, Rank,
    DBL_POINTS, DECK_SIZE, LP_POINTS,
};
pub use {moves::*, options::*, score::*, state::*, view::*, violation::*};

use super::game::engine;
use super::kit::guard::{self, OfKind};
use super::kit::rounds::Rounds;
use super::kit::{hand, scored};
use super::{
    ChanceOwner, Game, Highlights, Inconsistency, Randomness, Seat, Standings, ValidOptions, Viewer,
};

/// Cards dealt face up to each seat.
pub const HAND_SIZE: usize = 8;
/// The LUCK OUT bonus (rulebook "SCORING": "LUCK OUT PLAY - 30 point bonus").
pub const LUCK_OUT_BONUS: i64 = 30;

/// The Luck Plus rules engine.
pub struct LuckPlus;

impl Game for LuckPlus {
    engine!(LuckPlus, "luck-plus/1", players 2..=8, LuckPlusViolation, HandResult);

    fn setup(options: ValidOptions<Options>) -> State {
        let (options, players) = options.into_inner();
        let dealer = options.dealer;
        let mut state = State {
            players,
            options,
            hand: 1,
            dealer,
            turn: (dealer + 1) % players,
            phase: Phase::Deal,
            hands: vec![Vec::new(); players],
            draw_pile: full_deck(),
            draw_bottom: Vec::new(),
            match_pile: Vec::new(),
            dice: None,
            rolled_this_turn: false,
            used: Usage::default(),
            drawn: None,
            first_turn: false,
            had_turn: vec![false; players],
            out: Vec::new(),
            final_round: None,
            results: Rounds::new(),
            chance: None,
        };
        state.chance = Some(deal_chance(&state));
        state
    }

    fn to_act(state: &State) -> Vec<Seat> {
        if state.chance.is_some() {
            return Vec::new();
        }
        match state.phase {
            Phase::Deal | Phase::Rolling | Phase::Drawing | Phase::Over => Vec::new(),
            _ => vec![state.turn],
        }
    }

    fn chance_owner(state: &State) -> Option<ChanceOwner> {
        Some(match state.chance.as_ref()? {
            PendingChance::Deal { .. } => ChanceOwner::Table {
                dealer: Some(state.dealer),
            },
            PendingChance::Roll { seat } | PendingChance::Draw { seat, .. } => {
                ChanceOwner::Seat(*seat)
            }
        })
    }

    fn sample_chance(state: &State, rng: &mut dyn Randomness) -> Chance {
        match guard::to_sample(state.chance.as_ref()) {
            PendingChance::Deal {
                hands,
                cards_per_hand,
                pile,
                ..
            } => {
                let order = rng.draw(pile, pile.len());
                let dealt = hands * cards_per_hand;
                let hands = order[..dealt]
                    .chunks(*cards_per_hand)
                    .map(hand::sorted)
                    .collect();
                let mut flips = Vec::new();
                for &card in &order[dealt..] {
                    flips.push(card);
                    if card != Card::Lp {
                        break;
                    }
                }
                Chance::Deal { hands, flips }
            }
            PendingChance::Roll { .. } => Chance::Roll {
                dice: [rng.roll(6) as u8 + 1, rng.roll(6) as u8 + 1],
            },
            PendingChance::Draw { pile, .. } => Chance::Draw {
                card: rng.draw(pile, 1)[0],
            },
        }
    }

    fn score(state: &State) -> Score {
        Score {
            scoring: state.options.scoring,
            target: state.options.target(),
            hands: state.results.clone(),
            totals: totals(state.players, &state.results),
        }
    }

    fn score_tally(
        options: &Options,
        players: usize,
        round: u32,
        tally: &Tally,
    ) -> Result<HandResult, LuckPlusViolation> {
        check_tally(options, players, tally)?;
        Ok(score_hand(
            options,
            players,
            round,
            &tally.out,
            tally.cards_left.clone(),
        ))
    }

    fn highlights(state: &State) -> Vec<Highlights> {
        going_out_highlights(state.players, &state.results)
    }

    fn tally_highlights(players: usize, rounds: &[HandResult]) -> Vec<Highlights> {
        going_out_highlights(players, rounds)
    }

    fn tally_standings(
        options: &Options,
        players: usize,
        rounds: &[HandResult],
    ) -> (Standings, bool) {
        let totals = totals(players, rounds);
        let over = target_reached(options, &totals);
        (Standings::rank(totals, options.order(), over), over)
    }
}

/// The dealer of hand `hand` (from 1): the deal passes to the left each hand (RULINGS A19).
pub fn dealer_of(options: &Options, players: usize, hand: u32) -> Seat {
    (options.dealer + hand.saturating_sub(1) as usize) % players
}

/// Totals per seat over finished hands.
pub fn totals(players: usize, hands: &[HandResult]) -> Vec<i64> {
    scored::totals(players, hands)
}

/// Whether some total reached the target: the game's end rule in every scoring mode.
pub fn target_reached(options: &Options, totals: &[i64]) -> bool {
    let target = i64::from(options.target());
    totals.iter().any(|&t| t >= target)
}

/// Scores a finished hand: the single scoring function used by play, by `check_state` and by
/// the tally (rulebook "SCORING"; RULINGS 1.9).
pub fn score_hand(
    options: &Options,
    players: usize,
    hand: u32,
    out: &[Out],
    cards_left: Vec<Vec<Card>>,
) -> HandResult {
    let left_points: Vec<u32> = cards_left.iter().map(|c| points_of(c)).collect();
    let pot: i64 = left_points.iter().map(|&p| i64::from(p)).sum();
    let bonus = |o: &Out| if o.luck_out { LUCK_OUT_BONUS } else { 0 };
    let mut points = vec![0i64; players];
    match options.scoring {
        ScoringMode::Hands => {
            for o in out {
                points[o.seat] += 1;
            }
        }
        ScoringMode::PointsToWinner => {
            for o in out {
                points[o.seat] += pot + bonus(o);
            }
        }
        ScoringMode::PenaltyPoints => {
            for (seat, &p) in left_points.iter().enumerate() {
                points[seat] = i64::from(p);
            }
            if options.luck_out_bonus_in_penalty == LuckOutPenaltyBonus::Subtract {
                for o in out {
                    points[o.seat] -= bonus(o);
                }
            }
        }
    }
    HandResult {
        hand,
        dealer: dealer_of(options, players, hand),
        out: out.to_vec(),
        cards_left,
        left_points,
        points,
    }
}

/// Checks a described hand end: seats exist, someone went out (several only after a LUCK OUT
/// with `luck_out_full_round`), out hands are empty and only they are, and no card appears more
/// often than the deck holds.
pub fn check_tally(
    options: &Options,
    players: usize,
    tally: &Tally,
) -> Result<(), LuckPlusViolation> {
    if tally.cards_left.len() != players {
        return Err(LuckPlusViolation::WrongHandCount {
            expected: players,
            got: tally.cards_left.len(),
        });
    }
    if tally.out.is_empty() {
        return Err(LuckPlusViolation::NoOneOut);
    }
    let mut seen = vec![false; players];
    for o in &tally.out {
        Common::seated(o.seat, players)?;
        if seen[o.seat] {
            return Err(LuckPlusViolation::SeatOutTwice { seat: o.seat });
        }
        seen[o.seat] = true;
    }
    if tally.out.len() > 1 && !(options.luck_out_full_round && tally.out[0].luck_out) {
        return Err(LuckPlusViolation::SeveralOut);
    }
    for (seat, cards) in tally.cards_left.iter().enumerate() {
        if seen[seat] && !cards.is_empty() {
            return Err(LuckPlusViolation::OutHandNotEmpty { seat });
        }
        // Scored by hands won, the cards left count for nothing: a table need not list them.
        if !seen[seat] && cards.is_empty() && options.scoring != ScoringMode::Hands {
            return Err(LuckPlusViolation::EmptyHandNotOut { seat });
        }
    }
    let all: Vec<Card> = tally.cards_left.iter().flatten().copied().collect();
    if let Some(card) = over_deck(&all) {
        return Err(LuckPlusViolation::CardsNotInDeck { card });
    }
    Ok(())
}

fn deal_chance(state: &State) -> PendingChance {
    PendingChance::Deal {
        hand: state.hand,
        hands: state.players,
        cards_per_hand: HAND_SIZE,
        pile: state.draw_pile.clone(),
    }
}

mod consistency;
mod rules;
mod view;

/// Statistics' brag figures: hands won (went out) and LUCK OUTs per seat.
fn going_out_highlights(players: usize, hands: &[HandResult]) -> Vec<Highlights> {
    let mut seats = vec![Highlights::new(); players];
    for out in hands.iter().flat_map(|hand| &hand.out) {
        if let Some(mine) = seats.get_mut(out.seat) {
            *mine.entry("hands_won".into()).or_default() += 1;
            if out.luck_out {
                *mine.entry("luck_outs".into()).or_default() += 1;
            }
        }
    }
    seats
}
