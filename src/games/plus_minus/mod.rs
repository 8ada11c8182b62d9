//! Plus & Minus (FCG, 2013/2017): a 3–6 player stack game with a standard 52-card deck.
//!
//! Rules reference: `docs/rules/plus-minus.md` (the rulebook plus RULINGS.md §5). The module is
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

pub use cards::{full_deck, points_of, rank_counts, Card, COPIES, DECK_SIZE};
pub use {moves::*, options::*, score::*, state::*, view::*, violation::*};

use super::game::engine;
use super::kit::guard::{self, OfKind};
use super::kit::rounds::Rounds;
use super::kit::{hand, scored};
use super::{
    ChanceOwner, Game, Highlights, Inconsistency, Order, Randomness, Seat, Standings, ValidOptions,
    Viewer,
};

/// Cards dealt to each seat: 2 hidden and 2 face up (rulebook overview).
pub const DEALT_PER_SEAT: usize = 4;
/// Cards drawn on the round's first turn (rulebook step 1).
pub const FIRST_TURN_DRAW: usize = 2;
/// Cards drawn on every later turn (rulebook step 1).
pub const TURN_DRAW: usize = 1;
/// Extra cards drawn and extra plays after a 5 (rulebook step 4).
pub const FIVE_BONUS: usize = 2;

/// The Plus & Minus rules engine.
pub struct PlusMinus;

impl Game for PlusMinus {
    engine!(PlusMinus, "plus-minus/1", players 3..=6, PlusMinusViolation, RoundResult);

    fn setup(options: ValidOptions<Options>) -> State {
        let (options, players) = options.into_inner();
        let dealer = options.first_dealer;
        let mut state = State {
            players,
            options,
            round: 1,
            dealer,
            turn: (dealer + 1) % players,
            phase: Phase::Deal,
            hands: vec![Vec::new(); players],
            stacks: vec![SeatStacks::default(); players],
            draw_stack: full_deck(),
            plays_remaining: 0,
            turns_this_round: 0,
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
            Phase::Play | Phase::Pass => vec![state.turn],
            Phase::Choose => (0..state.players)
                .filter(|&s| !has_chosen(state, s))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn chance_owner(state: &State) -> Option<ChanceOwner> {
        Some(match state.chance.as_ref()? {
            PendingChance::Deal { .. } => ChanceOwner::Table {
                dealer: Some(state.dealer),
            },
            PendingChance::Draw { seat, .. } => ChanceOwner::Seat(*seat),
        })
    }

    fn sample_chance(state: &State, rng: &mut dyn Randomness) -> Chance {
        match guard::to_sample(state.chance.as_ref()) {
            PendingChance::Deal {
                hands,
                hand_cards,
                face_up_cards,
                pile,
                ..
            } => {
                let per_seat = hand_cards + face_up_cards;
                let cards = rng.draw(pile, per_seat * hands);
                let mut dealt_hands = Vec::with_capacity(*hands);
                let mut face_up = Vec::with_capacity(*hands);
                for chunk in cards.chunks(per_seat) {
                    dealt_hands.push(hand::sorted(&chunk[..*hand_cards]));
                    face_up.push(chunk[*hand_cards..].to_vec());
                }
                Chance::Deal {
                    hands: dealt_hands,
                    face_up,
                }
            }
            PendingChance::Draw { count, pile, .. } => Chance::Draw {
                cards: rng.draw(pile, *count),
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
    ) -> Result<RoundResult, PlusMinusViolation> {
        if round > rounds_in_game(options, players) {
            return Err(Common::GameOver.into());
        }
        if tally.players.len() != players {
            return Err(PlusMinusViolation::WrongPlayerCount {
                expected: players,
                got: tally.players.len(),
            });
        }
        let all = tally
            .players
            .iter()
            .flat_map(|p| p.plus.iter().chain(&p.minus).chain(&p.hand));
        let counts = rank_counts(all);
        if let Some(card) = Card::ALL.into_iter().find(|c| counts[c.index()] > COPIES) {
            return Err(PlusMinusViolation::TooManyOfRank {
                card,
                count: counts[card.index()],
            });
        }
        let seats = tally
            .players
            .iter()
            .map(|p| seat_score(&p.plus, &p.minus, &p.hand))
            .collect();
        Ok(RoundResult::new(
            round,
            dealer_of(options, players, round),
            seats,
        ))
    }

    fn highlights(state: &State) -> Vec<Highlights> {
        best_rounds(state.players, &state.results)
    }

    fn tally_highlights(players: usize, rounds: &[RoundResult]) -> Vec<Highlights> {
        best_rounds(players, rounds)
    }

    fn tally_standings(
        options: &Options,
        players: usize,
        rounds: &[RoundResult],
    ) -> (Standings, bool) {
        scored::fixed_standings(players, rounds, rounds_in_game(options, players))
    }
}

/// One seat's round score (rulebook steps 6–7): Plus points − Minus points − hand points. Play
/// and the tally both score with this function.
pub fn seat_score(plus: &[Card], minus: &[Card], hand: &[Card]) -> SeatScore {
    let plus_points = points_of(plus);
    let minus_points = points_of(minus);
    let hand_points = points_of(hand);
    SeatScore {
        plus_cards: plus.len(),
        plus_points,
        minus_cards: minus.len(),
        minus_points,
        hand_cards: hand.len(),
        hand_points,
        score: plus_points - minus_points - hand_points,
    }
}

impl RoundResult {
    /// A finished round from its itemised seat scores.
    pub fn new(round: u32, dealer: Seat, seats: Vec<SeatScore>) -> Self {
        let points = seats.iter().map(|s| s.score).collect();
        Self {
            round,
            dealer,
            seats,
            points,
        }
    }
}

/// Rounds in a game: the option, or one per player so that everyone deals once (step 8).
pub fn rounds_in_game(options: &Options, players: usize) -> u32 {
    options.rounds.unwrap_or(players as u32)
}

/// The dealer of `round` (1-based): the first dealer, then one seat left per round (RULINGS P12).
pub fn dealer_of(options: &Options, players: usize, round: u32) -> Seat {
    (options.first_dealer + round as usize - 1) % players
}

/// Each seat's points over the finished rounds.
pub fn totals(state: &State) -> Vec<i64> {
    scored::totals(state.players, &state.results)
}

/// Which of two face-up cards starts the Plus stack: (plus, minus). "Higher" by rank (RULINGS
/// P2) or, with `higher_by: points`, by points with rank breaking ties; equal cards either way.
pub fn plus_and_minus(higher_by: HigherBy, a: Card, b: Card) -> (Card, Card) {
    let key = |c: Card| match higher_by {
        HigherBy::Rank => (c.rank() as i64, 0),
        HigherBy::Points => (c.points(), c.rank() as i64),
    };
    if key(a) >= key(b) {
        (a, b)
    } else {
        (b, a)
    }
}

/// Whether `seat` has its face-up cards on the table (always true outside `choose`).
pub fn has_chosen(state: &State, seat: Seat) -> bool {
    !state.stacks[seat].plus.is_empty() || !state.stacks[seat].minus.is_empty()
}

/// Reads a stack.
pub fn stack(state: &State, at: StackRef) -> &Vec<Card> {
    let stacks = &state.stacks[at.seat];
    match at.stack {
        StackKind::Plus => &stacks.plus,
        StackKind::Minus => &stacks.minus,
    }
}

fn stack_mut(state: &mut State, at: StackRef) -> &mut Vec<Card> {
    let stacks = &mut state.stacks[at.seat];
    match at.stack {
        StackKind::Plus => &mut stacks.plus,
        StackKind::Minus => &mut stacks.minus,
    }
}

/// Every stack on the table in canonical order: seat 0 plus, seat 0 minus, seat 1 plus, …
pub fn all_stacks(players: usize) -> Vec<StackRef> {
    (0..players)
        .flat_map(|seat| {
            [StackKind::Plus, StackKind::Minus]
                .map(|stack| StackRef { seat, stack })
                .into_iter()
        })
        .collect()
}

fn deal_chance(state: &State) -> PendingChance {
    let choose = state.options.face_up_chosen_by_player;
    PendingChance::Deal {
        round: state.round,
        hands: state.players,
        hand_cards: if choose { DEALT_PER_SEAT } else { 2 },
        face_up_cards: if choose { 0 } else { 2 },
        pile: full_deck(),
    }
}

mod consistency;
mod rules;
mod view;

/// Statistics' brag figure: each seat's best single-round score.
fn best_rounds(players: usize, rounds: &[RoundResult]) -> Vec<Highlights> {
    (0..players)
        .map(|seat| {
            rounds
                .iter()
                .filter_map(|round| round.points.get(seat).copied())
                .max()
                .map(|best| Highlights::from([("best_round".to_owned(), best)]))
                .unwrap_or_default()
        })
        .collect()
}
