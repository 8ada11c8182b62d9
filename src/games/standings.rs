//! Totals to ranks: shared places and shared wins, the same for every game.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Seat;

/// Which end of the totals wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    HighestWins,
    LowestWins,
}

/// Each seat's total and rank. Equal totals share a rank ("1, 1, 3"), and all seats ranked first
/// share the win when the game is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Standings {
    pub order: Order,
    /// Total per seat, indexed by seat.
    pub totals: Vec<i64>,
    /// Competition rank per seat (1 is best), indexed by seat.
    pub ranks: Vec<u32>,
    /// Seats ranked first, once the game is over; empty while it is still being played.
    pub winners: Vec<Seat>,
}

impl Order {
    /// Whether total `a` beats total `b`.
    pub fn better(self, a: i64, b: i64) -> bool {
        match self {
            Order::HighestWins => a > b,
            Order::LowestWins => a < b,
        }
    }
}

impl Standings {
    pub fn rank(totals: Vec<i64>, order: Order, over: bool) -> Self {
        let better = |a, b| order.better(a, b);
        let ranks: Vec<u32> = totals
            .iter()
            .map(|&mine| 1 + totals.iter().filter(|&&other| better(other, mine)).count() as u32)
            .collect();
        let winners = if over {
            (0..totals.len()).filter(|&s| ranks[s] == 1).collect()
        } else {
            Vec::new()
        };
        Self {
            order,
            totals,
            ranks,
            winners,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_totals_share_a_place_and_the_next_place_is_skipped() {
        let s = Standings::rank(vec![5, 9, 9, 1], Order::HighestWins, true);
        assert_eq!(s.ranks, vec![3, 1, 1, 4]);
        assert_eq!(s.winners, vec![1, 2]);
    }

    #[test]
    fn lowest_wins_ranks_the_smallest_total_first() {
        let s = Standings::rank(vec![40, 12, 30], Order::LowestWins, true);
        assert_eq!(s.ranks, vec![3, 1, 2]);
        assert_eq!(s.winners, vec![1]);
    }

    #[test]
    fn nobody_wins_a_game_still_in_play() {
        let s = Standings::rank(vec![3, 1], Order::HighestWins, false);
        assert!(s.winners.is_empty());
    }
}
