//! The 52-card deck with suits ignored: thirteen ranks, four copies each, and the point values.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Copies of each rank in the deck (one per suit; suits play no part).
pub const COPIES: usize = 4;
/// Cards in the deck: 13 ranks × 4.
pub const DECK_SIZE: usize = 52;

/// A card rank. Suits are irrelevant in Plus & Minus, so a card is its rank. JSON names are the
/// printed indices: `"A"`, `"2"` … `"10"`, `"J"`, `"Q"`, `"K"`.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[schema(example = "10")]
#[schema(as = PlusMinusCard)]
pub enum Card {
    /// Ace: rank 1, 20 points; any card may be played on an ace top.
    #[serde(rename = "A")]
    Ace,
    /// Rank 2, 5 points.
    #[serde(rename = "2")]
    Two,
    /// Rank 3, 5 points.
    #[serde(rename = "3")]
    Three,
    /// Rank 4, 5 points.
    #[serde(rename = "4")]
    Four,
    /// Rank 5, 5 points; playing it draws 2 more cards and gives 2 more plays.
    #[serde(rename = "5")]
    Five,
    /// Rank 6, no points.
    #[serde(rename = "6")]
    Six,
    /// Rank 7, no points.
    #[serde(rename = "7")]
    Seven,
    /// Rank 8, no points.
    #[serde(rename = "8")]
    Eight,
    /// Rank 9, no points.
    #[serde(rename = "9")]
    Nine,
    /// Rank 10, 10 points; playing it swaps two stacks.
    #[serde(rename = "10")]
    Ten,
    /// Jack: rank 11, 10 points.
    #[serde(rename = "J")]
    Jack,
    /// Queen: rank 12, 10 points.
    #[serde(rename = "Q")]
    Queen,
    /// King: rank 13, 10 points; any card may be played on a king top; playing it moves two
    /// other players' top two Minus cards onto their Plus stacks.
    #[serde(rename = "K")]
    King,
}

impl Card {
    /// Every rank, ace first.
    pub const ALL: [Card; 13] = [
        Card::Ace,
        Card::Two,
        Card::Three,
        Card::Four,
        Card::Five,
        Card::Six,
        Card::Seven,
        Card::Eight,
        Card::Nine,
        Card::Ten,
        Card::Jack,
        Card::Queen,
        Card::King,
    ];

    /// The rulebook's number: Ace = 1 … Jack = 11, Queen = 12, King = 13.
    pub const fn rank(self) -> u32 {
        self as u32 + 1
    }

    /// 0 for the ace … 12 for the king.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Rulebook step 6: aces 20, 2–5 five each, 6–9 nothing, 10–K ten each.
    pub const fn points(self) -> i64 {
        match self {
            Card::Ace => 20,
            Card::Two | Card::Three | Card::Four | Card::Five => 5,
            Card::Six | Card::Seven | Card::Eight | Card::Nine => 0,
            Card::Ten | Card::Jack | Card::Queen | Card::King => 10,
        }
    }

    /// Aces and kings on top of a stack let any card follow (rulebook step 4).
    pub const fn is_wild_top(self) -> bool {
        matches!(self, Card::Ace | Card::King)
    }

    /// Rulebook step 1: a card may go on a top of the same rank or one above or below; any card
    /// may go on an ace or king top. No wrap between king and ace (RULINGS P3).
    pub fn fits_on(self, top: Card) -> bool {
        top.is_wild_top() || self.rank().abs_diff(top.rank()) <= 1
    }
}

/// The full deck in canonical order (ace first, each rank four times): seeded sampling draws
/// from sorted lists like this one, so the order is part of how a seed deals.
pub fn full_deck() -> Vec<Card> {
    Card::ALL
        .iter()
        .flat_map(|&c| std::iter::repeat_n(c, COPIES))
        .collect()
}

/// How many of each rank `cards` holds, indexed by [`Card::index`].
pub fn rank_counts<'a>(cards: impl IntoIterator<Item = &'a Card>) -> [usize; 13] {
    let mut counts = [0usize; 13];
    for card in cards {
        counts[card.index()] += 1;
    }
    counts
}

/// Total points of `cards`.
pub fn points_of(cards: &[Card]) -> i64 {
    cards.iter().map(|c| c.points()).sum()
}

// `take_sorted` is the kit's `remove_one` under the name this game's code uses.
pub use crate::games::kit::hand::{first_missing, insert_sorted, remove_one as take_sorted};
