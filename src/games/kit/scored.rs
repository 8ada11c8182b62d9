//! Totals of scored rounds, for the games whose score is the sum of their rounds' (or hands')
//! points.

use crate::games::{Order, Ranked, Standings};

/// Each seat's total over the scored `rounds`.
pub fn totals<R: Ranked>(players: usize, rounds: &[R]) -> Vec<i64> {
    let mut totals = vec![0i64; players];
    for round in rounds {
        for (total, points) in totals.iter_mut().zip(round.points()) {
            *total += points;
        }
    }
    totals
}

/// The standings over the scored `rounds` of a game of `in_game` rounds, the highest total
/// winning, and whether all of them have been played (the game's end).
pub fn fixed_standings<R: Ranked>(players: usize, rounds: &[R], in_game: u32) -> (Standings, bool) {
    let over = rounds.len() >= in_game as usize;
    (
        Standings::rank(totals(players, rounds), Order::HighestWins, over),
        over,
    )
}

/// Implements [`Ranked`] for each score type `$score` whose points per seat are its field `$points`
/// (the highest total winning): `ranked_by!(Score.totals, RoundResult.points)`.
macro_rules! ranked_by {
    ($($score:ident . $points:ident),+ $(,)?) => {
        $(
            impl $crate::games::Ranked for $score {
                fn points(&self) -> Vec<i64> {
                    self.$points.clone()
                }
            }
        )+
    };
}
pub(crate) use ranked_by;
