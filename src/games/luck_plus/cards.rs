//! The 108-card deck (RULINGS 1.1): GO, STOP, TRANSFER and TRANSFER PLUS cards with numbers,
//! DOUBLES and LUCK PLUS cards, their counts, points, and sorted multisets of them.
//!
//! On the wire a card is a string: `GO-7`, `STOP-12`, `TR-5`, `TP-3`, `DBL`, `LP`. Copies of a
//! card are indistinguishable, so hands and piles are multisets (sorted lists).

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Cards in the deck.
pub const DECK_SIZE: usize = 108;
/// Points of a DOUBLES card (rulebook "SCORING").
pub const DBL_POINTS: u32 = 15;
/// Points of a LUCK PLUS card (rulebook "SCORING").
pub const LP_POINTS: u32 = 25;

/// One card. Numbered kinds carry their number: GO 1–12, STOP 1–12, TRANSFER 1–12,
/// TRANSFER PLUS 1–4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Card {
    /// Green GO card: as the last card of a match, keep the turn and roll again.
    Go(u8),
    /// Red STOP card: as the last card of a match, the turn ends.
    Stop(u8),
    /// Yellow TRANSFER card: like GO; may be given to the left player when drawn.
    Tr(u8),
    /// Yellow TRANSFER PLUS card: like TRANSFER; may be given to any opponent with extra cards.
    Tp(u8),
    /// DOUBLES card: matches a doubles roll or a DOUBLES on top of the match pile.
    Dbl,
    /// LUCK PLUS card: wild, then bonus cards; the turn ends.
    Lp,
}

/// The rank used for "same number" groups (LP bonus, TP extras) and top-of-pile matches: a
/// number, or DBL / LP as their own ranks (RULINGS 1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    /// A card number 1–12.
    Number(u8),
    /// The DOUBLES rank.
    Dbl,
    /// The LUCK PLUS rank.
    Lp,
}

impl Card {
    /// Every distinct card, in canonical order: numbers 1–12 (GO, STOP, TR, TP of each), then
    /// DBL, then LP. Seeded sampling draws from piles listed in this order.
    pub fn all() -> Vec<Card> {
        let mut all = Vec::with_capacity(42);
        for n in 1..=12u8 {
            all.push(Card::Go(n));
            all.push(Card::Stop(n));
            all.push(Card::Tr(n));
            if n <= 4 {
                all.push(Card::Tp(n));
            }
        }
        all.push(Card::Dbl);
        all.push(Card::Lp);
        all
    }

    /// Copies of this card in the deck (0 for a card that does not exist, e.g. `TP-9`).
    pub fn copies(self) -> u32 {
        match self {
            Card::Go(n) if (1..=12).contains(&n) => 4,
            Card::Stop(n) if (1..=10).contains(&n) => 2,
            Card::Stop(11 | 12) => 1,
            Card::Tr(n) if (1..=4).contains(&n) => 1,
            Card::Tr(n) if (5..=12).contains(&n) => 2,
            Card::Tp(n) if (1..=4).contains(&n) => 1,
            Card::Dbl => 6,
            Card::Lp => 8,
            _ => 0,
        }
    }

    /// The printed number, for numbered cards.
    pub fn number(self) -> Option<u8> {
        match self {
            Card::Go(n) | Card::Stop(n) | Card::Tr(n) | Card::Tp(n) => Some(n),
            Card::Dbl | Card::Lp => None,
        }
    }

    /// The card's rank (number, DBL or LP).
    // Engine invariant: the catch-all arm only sees numbered cards.
    #[allow(clippy::expect_used)]
    pub fn rank(self) -> Rank {
        match self {
            Card::Dbl => Rank::Dbl,
            Card::Lp => Rank::Lp,
            other => Rank::Number(other.number().expect("numbered")),
        }
    }

    /// Scoring points: face value, DBL 15, LP 25.
    // Engine invariant: the catch-all arm only sees numbered cards.
    #[allow(clippy::expect_used)]
    pub fn points(self) -> u32 {
        match self {
            Card::Dbl => DBL_POINTS,
            Card::Lp => LP_POINTS,
            other => u32::from(other.number().expect("numbered")),
        }
    }

    /// Whether this is a STOP card.
    pub fn is_stop(self) -> bool {
        matches!(self, Card::Stop(_))
    }

    /// Whether this card can be given away when drawn (TRANSFER or TRANSFER PLUS).
    pub fn is_transfer(self) -> bool {
        matches!(self, Card::Tr(_) | Card::Tp(_))
    }

    fn sort_key(self) -> (u8, u8) {
        match self {
            Card::Go(n) => (n, 0),
            Card::Stop(n) => (n, 1),
            Card::Tr(n) => (n, 2),
            Card::Tp(n) => (n, 3),
            Card::Dbl => (13, 0),
            Card::Lp => (14, 0),
        }
    }
}

impl PartialOrd for Card {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Card {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.sort_key().cmp(&other.sort_key())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Go(n) => write!(f, "GO-{n}"),
            Card::Stop(n) => write!(f, "STOP-{n}"),
            Card::Tr(n) => write!(f, "TR-{n}"),
            Card::Tp(n) => write!(f, "TP-{n}"),
            Card::Dbl => write!(f, "DBL"),
            Card::Lp => write!(f, "LP"),
        }
    }
}

impl std::str::FromStr for Card {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let card = match s {
            "DBL" => Card::Dbl,
            "LP" => Card::Lp,
            _ => {
                let (kind, number) = s
                    .split_once('-')
                    .ok_or_else(|| format!("unknown card `{s}`"))?;
                let n: u8 = number.parse().map_err(|_| format!("unknown card `{s}`"))?;
                if number.starts_with('0') || number.starts_with('+') {
                    return Err(format!("unknown card `{s}`"));
                }
                match kind {
                    "GO" => Card::Go(n),
                    "STOP" => Card::Stop(n),
                    "TR" => Card::Tr(n),
                    "TP" => Card::Tp(n),
                    _ => return Err(format!("unknown card `{s}`")),
                }
            }
        };
        if card.copies() == 0 {
            return Err(format!("there is no `{s}` card in the deck"));
        }
        Ok(card)
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = Cow::<str>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl utoipa::PartialSchema for Card {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A Luck Plus card: `GO-1`…`GO-12`, `STOP-1`…`STOP-12`, `TR-1`…`TR-12` (TRANSFER), \
                 `TP-1`…`TP-4` (TRANSFER PLUS), `DBL` (DOUBLES) or `LP` (LUCK PLUS).",
            ))
            .pattern(Some("^((GO|STOP|TR)-([1-9]|1[0-2])|TP-[1-4]|DBL|LP)$"))
            .examples([serde_json::json!("GO-7")])
            .into()
    }
}

impl utoipa::ToSchema for Card {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("LuckPlusCard")
    }
}

/// The whole deck as a sorted multiset.
pub fn full_deck() -> Vec<Card> {
    let mut deck = Vec::with_capacity(DECK_SIZE);
    for card in Card::all() {
        deck.extend(std::iter::repeat_n(card, card.copies() as usize));
    }
    deck
}

/// Points of a set of cards.
pub fn points_of(cards: &[Card]) -> u32 {
    cards.iter().map(|c| c.points()).sum()
}

pub use crate::games::kit::hand::{first_missing, insert_sorted, remove_one};

/// The first card that `cards` holds more often than the deck does.
pub fn over_deck(cards: &[Card]) -> Option<Card> {
    first_missing(&full_deck(), cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_has_108_cards_with_the_printed_counts_and_891_points() {
        // Rulebook "EQUIPMENT"; RULINGS 1.1.
        let deck = full_deck();
        assert_eq!(deck.len(), DECK_SIZE);
        let count = |f: fn(&Card) -> bool| deck.iter().filter(|c| f(c)).count();
        assert_eq!(count(|c| matches!(c, Card::Go(_))), 48);
        assert_eq!(count(|c| matches!(c, Card::Stop(_))), 22);
        assert_eq!(count(|c| matches!(c, Card::Tr(_))), 20);
        assert_eq!(count(|c| matches!(c, Card::Tp(_))), 4);
        assert_eq!(count(|c| *c == Card::Dbl), 6);
        assert_eq!(count(|c| *c == Card::Lp), 8);
        assert_eq!(points_of(&deck), 891);
        for n in 1..=12u8 {
            let copies = deck.iter().filter(|c| c.number() == Some(n)).count();
            assert_eq!(copies, if n <= 10 { 8 } else { 7 }, "number {n}");
        }
    }

    #[test]
    fn cards_are_written_as_kind_dash_number_and_unknown_cards_are_refused() {
        for card in Card::all() {
            let json = serde_json::to_string(&card).unwrap();
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
        }
        assert_eq!(serde_json::to_string(&Card::Tr(12)).unwrap(), "\"TR-12\"");
        for bad in [
            "TP-5", "GO-13", "GO-0", "GO-07", "STOP", "go-7", "X-1", "DBL-1",
        ] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn multisets_stay_sorted_and_count_repeats() {
        let mut hand = vec![Card::Go(3), Card::Go(7)];
        insert_sorted(&mut hand, Card::Stop(3));
        assert_eq!(hand, vec![Card::Go(3), Card::Stop(3), Card::Go(7)]);
        assert!(remove_one(&mut hand, Card::Stop(3)));
        assert!(!remove_one(&mut hand, Card::Stop(3)));
        assert_eq!(
            first_missing(&hand, &[Card::Go(7), Card::Go(7)]),
            Some(Card::Go(7))
        );
        assert_eq!(
            over_deck(&[Card::Stop(11), Card::Stop(11)]),
            Some(Card::Stop(11))
        );
    }
}
