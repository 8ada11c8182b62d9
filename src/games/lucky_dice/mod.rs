//! Lucky Dice (HABA 305292, Andreas Schmidt): a 2–6 player real-time dice race.
//!
//! Rules reference: `docs/rules/lucky-dice.md` (the rulebook plus RULINGS.md §3). Simultaneous
//! play is a stream of serialised events: in the race every seat holding dice may roll, the
//! order of arrival decides, and each roll states how many dice it is (a stale count is refused).
//! The module is pure: chance arrives only as [`Chance`] outcomes, sampled by
//! [`Game::sample_chance`] from a lent [`Randomness`] or reported by a physical table.

mod dice;
mod moves;
mod options;
mod score;
mod state;
mod violation;

#[cfg(test)]
mod tests;

pub use dice::*;
pub use {moves::*, options::*, score::*, state::*, view::*, violation::*};

use super::game::engine;
use super::kit::guard;
use super::kit::rounds::Rounds;
use super::kit::scored;
use super::{
    ChanceOwner, Game, Highlights, Inconsistency, Order, Randomness, Seat, Standings, ValidOptions,
    Viewer,
};

/// Small dice each player holds at the start of a round.
pub const DICE_PER_PLAYER: u32 = 3;
/// Faces of every die (one per symbol).
pub const FACES: usize = 6;
/// Largest coaster set accepted as an option.
pub const MAX_COASTER_SET: usize = 100;
/// Largest number of extra rolls accepted as an option.
pub const MAX_EXTRA_ROLLS: u32 = 10;
/// Largest `coaster_target`: two players at most share the largest coaster set, so a larger target
/// could never be reached (and `until_pile_empty` does not read it).
pub const MAX_COASTER_TARGET: u32 = (MAX_COASTER_SET / 2) as u32;

/// The Lucky Dice rules engine.
pub struct LuckyDice;

impl Game for LuckyDice {
    engine!(LuckyDice, "lucky-dice/1", players 2..=6, LuckyDiceViolation, RoundTally);

    fn setup(options: ValidOptions<Options>) -> State {
        let (options, players) = options.into_inner();
        let mut pile = options.coaster_set.clone();
        pile.sort();
        State {
            players,
            options,
            round: 1,
            phase: Phase::DrawCoasters,
            lucky_symbol: None,
            coasters: vec![None; players],
            won: vec![Vec::new(); players],
            pile,
            pools: vec![DICE_PER_PLAYER; players],
            tray: 0,
            stop_caller: None,
            extra_rolls_used: vec![0; players],
            finished_extra: vec![false; players],
            results: Rounds::new(),
            chance: Some(PendingChance::Coasters {
                seats: (0..players).collect(),
            }),
        }
    }

    fn to_act(state: &State) -> Vec<Seat> {
        if state.chance.is_some() {
            return Vec::new();
        }
        rules::may_move(state)
    }

    fn chance_owner(state: &State) -> Option<ChanceOwner> {
        Some(match state.chance.as_ref()? {
            // A round's lone winner draws its own coaster; coasters for several seats and the
            // large die are shared, and Lucky Dice has no dealer.
            PendingChance::Coasters { seats } if seats.len() == 1 => ChanceOwner::Seat(seats[0]),
            PendingChance::Coasters { .. } | PendingChance::LuckySymbol { .. } => {
                ChanceOwner::Table { dealer: None }
            }
            PendingChance::Roll { seat, .. } => ChanceOwner::Seat(*seat),
        })
    }

    fn sample_chance(state: &State, rng: &mut dyn Randomness) -> Chance {
        match guard::to_sample(state.chance.as_ref()) {
            PendingChance::Coasters { seats } => Chance::Coasters {
                coasters: rng.draw(&state.pile, seats.len()),
            },
            PendingChance::LuckySymbol { .. } => Chance::LuckySymbol {
                symbol: Symbol::ALL[rng.roll(FACES)],
            },
            PendingChance::Roll { dice, .. } => Chance::Roll {
                faces: (0..*dice).map(|_| Symbol::ALL[rng.roll(FACES)]).collect(),
            },
        }
    }

    fn score_tally(
        options: &Options,
        players: usize,
        round: u32,
        tally: &Tally,
    ) -> Result<RoundTally, LuckyDiceViolation> {
        let mut emptied = tally.emptied.clone();
        emptied.sort_unstable();
        if let Some(&seat) = emptied.iter().find(|&&s| s >= players) {
            return Err(Common::UnknownSeat { seat, players }.into());
        }
        if let Some(pair) = emptied.windows(2).find(|w| w[0] == w[1]) {
            return Err(LuckyDiceViolation::DuplicateSeat { seat: pair[0] });
        }
        if emptied.is_empty() {
            return Err(LuckyDiceViolation::NoRoundWinner);
        }
        let max = max_round_winners(options, players);
        if emptied.len() > max {
            return Err(LuckyDiceViolation::TooManyWinners {
                emptied: emptied.len(),
                max,
            });
        }
        Ok(RoundTally {
            round,
            points: coaster_points(players, &emptied),
            emptied,
        })
    }

    fn score(state: &State) -> Score {
        Score {
            rounds: state.results.clone(),
            totals: totals(state),
        }
    }

    fn highlights(state: &State) -> Vec<Highlights> {
        coasters_won(totals(state))
    }

    fn tally_highlights(players: usize, rounds: &[RoundTally]) -> Vec<Highlights> {
        coasters_won(scored::totals(players, rounds))
    }

    fn tally_standings(
        options: &Options,
        players: usize,
        rounds: &[RoundTally],
    ) -> (Standings, bool) {
        let mut totals = vec![0i64; players];
        let mut pile_left = options.coaster_set.len() - players.min(options.coaster_set.len());
        let mut over = false;
        for round in rounds {
            for (total, points) in totals.iter_mut().zip(&round.points) {
                *total += points;
            }
            let needers = round.emptied.len();
            if game_ends(options, &totals, needers, pile_left) {
                over = true;
                break;
            }
            pile_left -= needers;
        }
        (Standings::rank(totals, Order::HighestWins, over), over)
    }
}

/// Face-down coasters per seat.
pub fn totals(state: &State) -> Vec<i64> {
    state.won.iter().map(|w| w.len() as i64).collect()
}

/// A round's score: one coaster for each seat that emptied its dice (rulebook: "Each player who
/// was able to get rid of all their dice receives their coaster as a reward"). Used by play and
/// by score sheets alike.
pub fn coaster_points(players: usize, emptied: &[Seat]) -> Vec<i64> {
    let mut points = vec![0i64; players];
    for &seat in emptied {
        points[seat] += 1;
    }
    points
}

/// Whether the game ends at a round's end, given the face-down totals after it, the number of
/// round winners needing a new coaster and the coasters left in the pile (RULINGS 3.5). Used by
/// play and by score sheets alike.
pub fn game_ends(options: &Options, totals: &[i64], needers: usize, pile_left: usize) -> bool {
    match options.end_mode {
        EndMode::ThreeCoasters => totals
            .iter()
            .any(|&t| t >= i64::from(options.coaster_target)),
        EndMode::UntilPileEmpty => needers > pile_left,
    }
}

/// The most seats that can empty their dice in one round: everyone, unless "Stop!" is automatic
/// and nobody gets an extra roll (then only the stop caller can).
pub fn max_round_winners(options: &Options, players: usize) -> usize {
    if options.auto_stop && options.extra_rolls == 0 {
        1
    } else {
        players
    }
}

/// The seat on the left of `seat` (clockwise next, D4).
pub fn left_of(players: usize, seat: Seat) -> Seat {
    (seat + 1) % players
}

/// The seat on the right of `seat` (clockwise previous).
pub fn right_of(players: usize, seat: Seat) -> Seat {
    (seat + players - 1) % players
}

/// Where a die showing `face` goes when `seat` rolls it (RULINGS 3.4): the lucky symbol to the
/// tray always; in the race the coaster's left symbol to the left neighbour, then its right symbol
/// to the right neighbour (D7: a coaster with one symbol twice passes left); otherwise it stays.
/// With 2 players both neighbours are the other player.
pub fn destination(
    players: usize,
    seat: Seat,
    coaster: Coaster,
    lucky: Symbol,
    extra: bool,
    face: Symbol,
) -> Die {
    let (to, receiver) = if face == lucky {
        (Destination::Tray, None)
    } else if extra {
        (Destination::Stays, None)
    } else if face == coaster.left {
        (Destination::Left, Some(left_of(players, seat)))
    } else if face == coaster.right {
        (Destination::Right, Some(right_of(players, seat)))
    } else {
        (Destination::Stays, None)
    };
    Die {
        face,
        to,
        seat: receiver,
    }
}

mod consistency;
mod rules;
mod view;

/// Statistics' brag figure: coasters won (turned face down) per seat.
fn coasters_won(won: Vec<i64>) -> Vec<Highlights> {
    won.into_iter()
        .map(|n| Highlights::from([("coasters_won".to_owned(), n)]))
        .collect()
}
