//! The 84-card deck: seven symbols, twelve copies each, and multisets of them.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games::kit::{self, counts::CardKind};

/// Copies of each symbol in the deck.
pub const COPIES: u32 = 12;
/// Cards in the deck: 7 symbols × 12 copies.
pub const DECK_SIZE: usize = 84;

/// A card symbol, from lowest to highest value (`lemon` < `cherry` < … < `jack`).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(example = "jack")]
#[schema(as = LuckyJackSymbol)]
pub enum Symbol {
    /// Rank 1: 1 000 / 3 000 points.
    Lemon,
    /// Rank 2: 2 000 / 4 000 points.
    Cherry,
    /// Rank 3: 3 000 / 5 000 points.
    Grape,
    /// Rank 4: 4 000 / 6 000 points.
    Clover,
    /// Rank 5: 5 000 / 7 000 points.
    Bell,
    /// Rank 6 (the "7" card): 6 000 / 8 000 points.
    Seven,
    /// Rank 7: 7 000 / 10 000 points.
    Jack,
}

impl Symbol {
    /// Every symbol, lowest first.
    pub const ALL: [Symbol; 7] = [
        Symbol::Lemon,
        Symbol::Cherry,
        Symbol::Grape,
        Symbol::Clover,
        Symbol::Bell,
        Symbol::Seven,
        Symbol::Jack,
    ];

    /// The symbol's wire name, as in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Symbol::Lemon => "lemon",
            Symbol::Cherry => "cherry",
            Symbol::Grape => "grape",
            Symbol::Clover => "clover",
            Symbol::Bell => "bell",
            Symbol::Seven => "seven",
            Symbol::Jack => "jack",
        }
    }

    /// 0 for lemon … 6 for jack.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The printed rank, 1 (lemon) … 7 (jack).
    pub const fn rank(self) -> u32 {
        self as u32 + 1
    }

    /// The printed jackpot table: a 3-card jackpot is worth 1 000 × rank, a 4-card jackpot
    /// 1 000 × (rank + 2) except the jack's 10 000. `None` for any other size.
    pub const fn jackpot_points(self, size: usize) -> Option<u32> {
        match (self, size) {
            (_, 3) => Some(1000 * self.rank()),
            (Symbol::Jack, 4) => Some(10_000),
            (_, 4) => Some(1000 * (self.rank() + 2)),
            _ => None,
        }
    }
}

impl CardKind for Symbol {
    const ALL: &'static [Symbol] = &Symbol::ALL;
    const FIELDS: &'static [&'static str] = &[
        "lemon", "cherry", "grape", "clover", "bell", "seven", "jack",
    ];
    const FIELD_DOCS: &'static [&'static str] = &[
        "Lemon cards.",
        "Cherry cards.",
        "Grape cards.",
        "Clover cards.",
        "Bell cards.",
        "Seven cards.",
        "Jack cards.",
    ];
    const SCHEMA_NAME: &'static str = "LuckyJackCounts";
    const SCHEMA_DOC: &'static str = "A multiset of cards: how many of each symbol (e.g. the \
        face-down draw pile, whose order is\ndecided only when a card is drawn).";

    fn index(self) -> usize {
        Symbol::index(self)
    }
}

/// A multiset of cards: how many of each symbol (e.g. the face-down draw pile, whose order is
/// decided only when a card is drawn).
pub type Counts = kit::counts::Counts<Symbol>;

impl Counts {
    /// The whole deck: 12 of each symbol.
    pub fn full_deck() -> Self {
        let mut counts = Counts::new();
        for symbol in Symbol::ALL {
            counts.add(symbol, COPIES);
        }
        counts
    }
}
