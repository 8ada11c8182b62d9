//! The 84-card deck: seven symbols, twelve copies each, and multisets of them.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

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

/// A multiset of cards: how many of each symbol (e.g. the face-down draw pile, whose order is
/// decided only when a card is drawn).
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackCounts)]
pub struct Counts {
    /// Lemon cards.
    pub lemon: u32,
    /// Cherry cards.
    pub cherry: u32,
    /// Grape cards.
    pub grape: u32,
    /// Clover cards.
    pub clover: u32,
    /// Bell cards.
    pub bell: u32,
    /// Seven cards.
    pub seven: u32,
    /// Jack cards.
    pub jack: u32,
}

impl Counts {
    /// The whole deck: 12 of each symbol.
    pub const fn full_deck() -> Self {
        Counts {
            lemon: COPIES,
            cherry: COPIES,
            grape: COPIES,
            clover: COPIES,
            bell: COPIES,
            seven: COPIES,
            jack: COPIES,
        }
    }

    /// The multiset of `cards`.
    pub fn of(cards: &[Symbol]) -> Self {
        let mut counts = Counts::default();
        for &card in cards {
            counts.add(card, 1);
        }
        counts
    }

    /// How many `symbol` cards.
    pub fn get(&self, symbol: Symbol) -> u32 {
        *self.slot(symbol)
    }

    fn slot(&self, symbol: Symbol) -> &u32 {
        match symbol {
            Symbol::Lemon => &self.lemon,
            Symbol::Cherry => &self.cherry,
            Symbol::Grape => &self.grape,
            Symbol::Clover => &self.clover,
            Symbol::Bell => &self.bell,
            Symbol::Seven => &self.seven,
            Symbol::Jack => &self.jack,
        }
    }

    fn slot_mut(&mut self, symbol: Symbol) -> &mut u32 {
        match symbol {
            Symbol::Lemon => &mut self.lemon,
            Symbol::Cherry => &mut self.cherry,
            Symbol::Grape => &mut self.grape,
            Symbol::Clover => &mut self.clover,
            Symbol::Bell => &mut self.bell,
            Symbol::Seven => &mut self.seven,
            Symbol::Jack => &mut self.jack,
        }
    }

    /// Adds `n` cards of `symbol`.
    pub fn add(&mut self, symbol: Symbol, n: u32) {
        *self.slot_mut(symbol) += n;
    }

    /// Adds every card of `other`.
    pub fn add_all(&mut self, other: &Counts) {
        for s in Symbol::ALL {
            self.add(s, other.get(s));
        }
    }

    /// Removes one `symbol`; false (and no change) if there is none.
    pub fn take(&mut self, symbol: Symbol) -> bool {
        let slot = self.slot_mut(symbol);
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        true
    }

    /// Total number of cards.
    pub fn total(&self) -> usize {
        Symbol::ALL.iter().map(|&s| self.get(s) as usize).sum()
    }

    /// Whether there are no cards.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// The first card of `cards` (in order) that this multiset cannot supply, counting repeats.
    pub fn first_missing(&self, cards: &[Symbol]) -> Option<Symbol> {
        let mut left = *self;
        cards.iter().copied().find(|&card| !left.take(card))
    }

    /// The canonical list: symbols lowest first, each repeated by its count. Seeded sampling
    /// draws from this list, so its order is part of how a seed deals.
    pub fn canonical(&self) -> Vec<Symbol> {
        let mut cards = Vec::with_capacity(self.total());
        for s in Symbol::ALL {
            cards.extend(std::iter::repeat_n(s, self.get(s) as usize));
        }
        cards
    }
}
