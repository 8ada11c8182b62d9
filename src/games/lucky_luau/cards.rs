//! The 46 pile cards, the slots of a lei, the four plain colours and multisets of cards.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games::kit::{self, counts::CardKind};

/// Cards in the centre pile at setup (RULINGS 4.1).
pub const PILE_SIZE: usize = 46;

/// A card of the centre pile.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(example = "blue")]
#[schema(as = LuckyLuauCard)]
pub enum Card {
    /// Yellow Flower (7 copies): 2 next to yellow.
    Yellow,
    /// Red Flower (6 copies): 3 next to red.
    Red,
    /// Blue Flower (5 copies): 4 next to blue.
    Blue,
    /// Pink Flower (4 copies): `pink_value` (5) next to pink.
    Pink,
    /// Rare Purple Flower (2 copies): red + blue.
    Purple,
    /// Rare Orange Flower (2 copies): `orange_colours` (red + yellow).
    Orange,
    /// Rare Green Flower (2 copies): yellow + blue.
    Green,
    /// Rainbow Flower (2 copies): wild, acts as one adjacent plain colour.
    Rainbow,
    /// Ti Leaf (8 copies): `ti_value` (1) next to a leaf.
    Ti,
    /// Mega Leaf (2 copies): 1 per leaf anywhere in the lei.
    Mega,
    /// Kukui Nut (6 copies): the set scores 2 / 4 / 8 / 16.
    Kukui,
}

impl Card {
    /// Every card kind, in canonical order (the order seeded draws sample from).
    pub const ALL: [Card; 11] = [
        Card::Yellow,
        Card::Red,
        Card::Blue,
        Card::Pink,
        Card::Purple,
        Card::Orange,
        Card::Green,
        Card::Rainbow,
        Card::Ti,
        Card::Mega,
        Card::Kukui,
    ];

    /// Copies in the game (rulebook "Game Contents", RULINGS 4.1).
    pub const fn copies(self) -> u32 {
        match self {
            Card::Yellow => 7,
            Card::Red => 6,
            Card::Blue => 5,
            Card::Pink => 4,
            Card::Ti => 8,
            Card::Kukui => 6,
            Card::Purple | Card::Orange | Card::Green | Card::Rainbow | Card::Mega => 2,
        }
    }

    /// The name printed on the card.
    pub const fn name(self) -> &'static str {
        match self {
            Card::Yellow => "Yellow",
            Card::Red => "Red",
            Card::Blue => "Blue",
            Card::Pink => "Pink",
            Card::Purple => "Purple",
            Card::Orange => "Orange",
            Card::Green => "Green",
            Card::Rainbow => "Rainbow",
            Card::Ti => "Ti Leaf",
            Card::Mega => "Mega Leaf",
            Card::Kukui => "Kukui Nut",
        }
    }

    /// The plain flower of this colour, if it is one.
    pub const fn plain(self) -> Option<Colour> {
        match self {
            Card::Yellow => Some(Colour::Yellow),
            Card::Red => Some(Colour::Red),
            Card::Blue => Some(Colour::Blue),
            Card::Pink => Some(Colour::Pink),
            _ => None,
        }
    }

    /// Whether this is a rare flower (purple, orange, green).
    pub const fn is_rare(self) -> bool {
        matches!(self, Card::Purple | Card::Orange | Card::Green)
    }

    /// Whether this is a leaf (Ti or Mega).
    pub const fn is_leaf(self) -> bool {
        matches!(self, Card::Ti | Card::Mega)
    }
}

/// A plain (natural, non-rare) flower colour: what a Rainbow may act as.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(example = "blue")]
#[schema(as = LuckyLuauColour)]
pub enum Colour {
    /// Yellow (2 points).
    Yellow,
    /// Red (3 points).
    Red,
    /// Blue (4 points).
    Blue,
    /// Pink (`pink_value`, 5 points).
    Pink,
}

impl Colour {
    /// Every colour, in canonical order.
    pub const ALL: [Colour; 4] = [Colour::Yellow, Colour::Red, Colour::Blue, Colour::Pink];

    /// The plain flower card of this colour.
    pub const fn card(self) -> Card {
        match self {
            Colour::Yellow => Card::Yellow,
            Colour::Red => Card::Red,
            Colour::Blue => Card::Blue,
            Colour::Pink => Card::Pink,
        }
    }

    /// Lower-case name, for breakdown lines.
    pub const fn word(self) -> &'static str {
        match self {
            Colour::Yellow => "yellow",
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Pink => "pink",
        }
    }
}

/// One place on a lei: a pile card, a Fish Hook or an unfilled Spacer.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(example = "hook")]
#[schema(as = LuckyLuauSlot)]
pub enum Slot {
    /// Yellow Flower.
    Yellow,
    /// Red Flower.
    Red,
    /// Blue Flower.
    Blue,
    /// Pink Flower.
    Pink,
    /// Rare Purple Flower.
    Purple,
    /// Rare Orange Flower.
    Orange,
    /// Rare Green Flower.
    Green,
    /// Rainbow Flower.
    Rainbow,
    /// Ti Leaf.
    Ti,
    /// Mega Leaf.
    Mega,
    /// Kukui Nut.
    Kukui,
    /// The owner's Fish Hook (10 in the centre, 5 off by one).
    Hook,
    /// The owner's Spacer, not (yet) filled: holds a place, scores 0, blocks adjacency.
    Spacer,
}

impl Slot {
    /// The pile card in this slot, if it holds one.
    pub const fn card(self) -> Option<Card> {
        Some(match self {
            Slot::Yellow => Card::Yellow,
            Slot::Red => Card::Red,
            Slot::Blue => Card::Blue,
            Slot::Pink => Card::Pink,
            Slot::Purple => Card::Purple,
            Slot::Orange => Card::Orange,
            Slot::Green => Card::Green,
            Slot::Rainbow => Card::Rainbow,
            Slot::Ti => Card::Ti,
            Slot::Mega => Card::Mega,
            Slot::Kukui => Card::Kukui,
            Slot::Hook | Slot::Spacer => return None,
        })
    }

    /// The name of what is in the slot.
    pub const fn name(self) -> &'static str {
        match self {
            Slot::Hook => "Fish Hook",
            Slot::Spacer => "Spacer",
            _ => match self.card() {
                Some(card) => card.name(),
                None => "",
            },
        }
    }
}

impl From<Card> for Slot {
    fn from(card: Card) -> Self {
        match card {
            Card::Yellow => Slot::Yellow,
            Card::Red => Slot::Red,
            Card::Blue => Slot::Blue,
            Card::Pink => Slot::Pink,
            Card::Purple => Slot::Purple,
            Card::Orange => Slot::Orange,
            Card::Green => Slot::Green,
            Card::Rainbow => Slot::Rainbow,
            Card::Ti => Slot::Ti,
            Card::Mega => Slot::Mega,
            Card::Kukui => Slot::Kukui,
        }
    }
}

impl CardKind for Card {
    const ALL: &'static [Card] = &Card::ALL;
    const FIELDS: &'static [&'static str] = &[
        "yellow", "red", "blue", "pink", "purple", "orange", "green", "rainbow", "ti", "mega",
        "kukui",
    ];
    const FIELD_DOCS: &'static [&'static str] = &[
        "Yellow Flowers.",
        "Red Flowers.",
        "Blue Flowers.",
        "Pink Flowers.",
        "Purple Flowers.",
        "Orange Flowers.",
        "Green Flowers.",
        "Rainbow Flowers.",
        "Ti Leaves.",
        "Mega Leaves.",
        "Kukui Nuts.",
    ];
    const SCHEMA_NAME: &'static str = "LuckyLuauCounts";
    const SCHEMA_DOC: &'static str = "A multiset of pile cards: how many of each kind (the \
        face-down pile, whose order is decided\nonly when a card is drawn; the face-up cards in \
        the centre).";

    fn index(self) -> usize {
        self as usize
    }
}

/// A multiset of pile cards: how many of each kind (the face-down pile, whose order is decided
/// only when a card is drawn; the face-up cards in the centre).
pub type Counts = kit::counts::Counts<Card>;

impl Counts {
    /// The whole pile: the printed copies of each card.
    pub fn full_pile() -> Self {
        let mut counts = Counts::new();
        for card in Card::ALL {
            counts.add(card, card.copies());
        }
        counts
    }
}
