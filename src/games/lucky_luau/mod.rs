//! Lucky Luau (CardLords, Jeff Boltz): a 2–6 player lei-building card game.
//!
//! Rules reference: `docs/rules/lucky-luau.md` (the rulebook plus RULINGS.md §4). The module is
//! pure: chance arrives only as [`Chance`] outcomes (which card a face-down draw turned up),
//! sampled by [`Game::sample_chance`] from a lent [`Randomness`] or reported by a physical table.

mod cards;
mod consistency;
mod moves;
mod options;
mod rules;
mod score;
pub mod scoring;
mod state;
mod view;
mod violation;
pub mod words;

#[cfg(test)]
mod tests;

pub use cards::{Card, Colour, Counts, Slot, PILE_SIZE};
pub use {moves::*, options::*, score::*, state::*, view::*, violation::*};

use super::game::engine;
use super::kit::guard;
use super::{
    ChanceOwner, Game, Highlights, Inconsistency, Randomness, Seat, Standings, ValidOptions, Viewer,
};

/// The Lucky Luau rules engine.
pub struct LuckyLuau;

impl Game for LuckyLuau {
    engine!(LuckyLuau, "lucky-luau/1", players 2..=6, LuckyLuauViolation, Score);

    fn setup(options: ValidOptions<Options>) -> State {
        let (options, players) = options.into_inner();
        State {
            players,
            turn: options.first_player,
            options,
            phase: Phase::Play,
            face_down: Counts::full_pile(),
            face_up: Counts::default(),
            seats: vec![Player::default(); players],
            pending: None,
            chance: None,
        }
    }

    fn to_act(state: &State) -> Vec<Seat> {
        rules::to_act(state)
    }

    fn chance_owner(state: &State) -> Option<ChanceOwner> {
        let PendingChance::Draw { seat, .. } = state.chance.as_ref()?;
        Some(ChanceOwner::Seat(*seat))
    }

    fn sample_chance(state: &State, rng: &mut dyn Randomness) -> Chance {
        let PendingChance::Draw { pile, .. } = guard::to_sample(state.chance.as_ref());
        let cards = pile.canonical();
        Chance::Draw {
            card: cards[rng.below(cards.len())],
        }
    }

    fn score(state: &State) -> Score {
        score(state)
    }

    fn score_tally(
        options: &Options,
        players: usize,
        round: u32,
        tally: &Tally,
    ) -> Result<Score, LuckyLuauViolation> {
        if round > 1 {
            return Err(Common::GameOver.into());
        }
        score_described(options, players, tally)
    }

    fn highlights(state: &State) -> Vec<Highlights> {
        best_leis(&score(state))
    }

    fn tally_highlights(_players: usize, rounds: &[Score]) -> Vec<Highlights> {
        // A Luau game is one round: its score sheet has the one entry.
        rounds.last().map(best_leis).unwrap_or_default()
    }

    fn tally_standings(_options: &Options, players: usize, rounds: &[Score]) -> (Standings, bool) {
        match rounds.last() {
            Some(score) => (scoring::rank(&score.seats, true), true),
            None => (
                Standings::rank(vec![0; players], super::Order::HighestWins, false),
                false,
            ),
        }
    }
}

/// The leis of a state scored as they stand (final once the game is over), with Guest bonuses
/// reported at finish and the tiebreak.
// Engine invariant: a lei without declarations always scores.
#[allow(clippy::expect_used)]
pub fn score(state: &State) -> Score {
    let seats: Vec<SeatScore> = state
        .seats
        .iter()
        .enumerate()
        .map(|(seat, player)| {
            let declared = rules::declared_of(player);
            let scored = |declared: &[Option<Colour>]| {
                scoring::seat_score(
                    &state.options,
                    seat,
                    None,
                    &player.lei,
                    player.cut,
                    declared,
                    &player.guests,
                )
            };
            // Declarations are checked at finish; a lei without them always scores.
            scored(&declared)
                .or_else(|_| scored(&[]))
                .expect("a lei without declarations always scores")
        })
        .collect();
    finish_score(seats, state.phase == Phase::Over)
}

fn finish_score(seats: Vec<SeatScore>, over: bool) -> Score {
    let standings = scoring::rank(&seats, over);
    Score {
        totals: standings.totals,
        winners: standings.winners,
        seats,
    }
}

/// Scores a table's described leis: parses the words, checks the cards exist (no more copies
/// than the game has, one tool of each kind per player), then scores each lei with the code
/// play uses.
pub fn score_described(
    options: &Options,
    players: usize,
    tally: &Tally,
) -> Result<Score, LuckyLuauViolation> {
    if tally.leis.len() != players {
        return Err(LuckyLuauViolation::WrongLeiCount {
            expected: players,
            got: tally.leis.len(),
        });
    }
    let parsed: Vec<words::ParsedLei> = tally
        .leis
        .iter()
        .enumerate()
        .map(|(seat, lei)| words::parse_lei(seat, &lei.lei))
        .collect::<Result<_, _>>()?;
    let used = Counts::of(parsed.iter().flat_map(words::cards_of));
    if let Some(card) = Card::ALL.into_iter().find(|&c| used.get(c) > c.copies()) {
        return Err(LuckyLuauViolation::TooManyCards {
            card,
            count: used.get(card),
            copies: card.copies(),
        });
    }
    let seats = tally
        .leis
        .iter()
        .zip(&parsed)
        .enumerate()
        .map(|(seat, (described, lei))| {
            if let Some(guests) = &described.guests {
                scoring::check_guests(guests)?;
            }
            scoring::seat_score(
                options,
                seat,
                described.player.clone(),
                &lei.lei,
                lei.cut,
                &lei.declared,
                described.guests.as_deref().unwrap_or(&[]),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(finish_score(seats, true))
}

/// Statistics' brag figure: the lei's own points (before Guests), kept as a best.
fn best_leis(score: &Score) -> Vec<Highlights> {
    score
        .seats
        .iter()
        .map(|seat| Highlights::from([("best_lei".to_owned(), seat.lei_points)]))
        .collect()
}
