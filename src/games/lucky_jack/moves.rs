//! What changes a Lucky Jack state: the moves seats propose, the chance outcomes that resolve
//! pending chance, and the events both produce.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A move proposed by a seat.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(examples(
    json!({"type": "discard", "card": "bell"}),
    json!({"type": "discard", "card": "jack", "jackpot": true}),
    json!({"type": "draw"}),
    json!({"type": "keep"}),
    json!({"type": "discard_drawn"}),
    json!({"type": "take_it"})
))]
#[schema(as = LuckyJackMove)]
pub enum Move {
    /// Options 1–3: discard a card from the hand (hand of at least 4 at turn start). A lower
    /// symbol than the discard top costs 2 penalty cards.
    Discard {
        /// The card to discard.
        card: Symbol,
        /// Announce "JACKPOT!" with this discard. Needed only when `jackpot_auto_declare` is
        /// off; announcing a discard that does not leave a jackpot is a violation.
        #[serde(default)]
        jackpot: bool,
    },
    /// Option 4: draw one card; it stays pending until kept or discarded.
    Draw,
    /// Keep the pending drawn card; the turn ends.
    Keep,
    /// Discard the pending drawn card (hand of more than 3 at turn start); the next seat may
    /// take it.
    DiscardDrawn,
    /// "I take it!": the next seat, as the first action of its turn, takes the drawn card the
    /// previous seat just discarded.
    TakeIt,
}

/// A chance outcome: what the shuffle or the draw pile produced.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"kind": "draw", "cards": ["lemon", "jack"]}))]
#[schema(as = LuckyJackChance)]
pub enum Chance {
    /// A round's deal: 7 cards per seat, indexed by seat, then the starter's flip.
    Deal {
        /// Each seat's 7 cards, indexed by seat.
        hands: Vec<Vec<Symbol>>,
        /// The card the starter turns up to start the discard pile.
        flip: Symbol,
    },
    /// The cards taken from the draw pile for the pending draw: exactly the pending `count`.
    Draw {
        /// The drawn cards, in draw order.
        cards: Vec<Symbol>,
    },
    /// After a reshuffle, the card turned up to start the new discard pile.
    Flip {
        /// The flipped card.
        card: Symbol,
    },
}

/// The kind of a chance event.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyJackChanceKind)]
pub enum ChanceKind {
    /// A round's deal and first flip.
    Deal,
    /// Cards drawn from the draw pile.
    Draw,
    /// The flip that restarts the discard pile after a reshuffle.
    Flip,
}

crate::games::kit::guard::kinds_by_name!(ChanceKind { Deal, Draw, Flip } for Chance, PendingChance);

/// What happened.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackEvent)]
pub enum Event {
    /// A round began.
    RoundStarted {
        /// Round number.
        round: u32,
        /// Its starter.
        starter: Seat,
        /// The seat that plays first.
        first: Seat,
    },
    /// `seat` was dealt `count` cards.
    Dealt {
        /// The seat.
        seat: Seat,
        /// Cards dealt.
        count: usize,
        /// The cards, for viewers who may see them.
        cards: Option<Vec<Symbol>>,
    },
    /// `seat` turned up `card` onto the (empty) discard pile.
    Flipped {
        /// Who flipped.
        seat: Seat,
        /// The new discard top.
        card: Symbol,
    },
    /// `seat` discarded `card` from the hand.
    Discarded {
        /// Who discarded.
        seat: Seat,
        /// The card.
        card: Symbol,
        /// Option 1, 2 or 3.
        option: DiscardOption,
    },
    /// `seat` drew `count` cards.
    Drew {
        /// Who drew.
        seat: Seat,
        /// How many.
        count: usize,
        /// The cards, for viewers who may see them.
        cards: Option<Vec<Symbol>>,
    },
    /// A draw could not be made: draw pile and discard pile exhausted.
    DrawVoid {
        /// Who should have drawn.
        seat: Seat,
        /// Cards not drawn.
        count: usize,
    },
    /// `seat` kept its drawn card.
    Kept {
        /// Who kept.
        seat: Seat,
        /// The card, for viewers who may see it.
        card: Option<Symbol>,
    },
    /// `seat` discarded its drawn card.
    DiscardedDrawn {
        /// Who discarded.
        seat: Seat,
        /// The card.
        card: Symbol,
        /// How it compared with the top, when the symbol rule applies to it (option).
        option: Option<DiscardOption>,
    },
    /// `seat` said "I take it!" and took `card`.
    TookIt {
        /// The taker.
        seat: Seat,
        /// The card taken.
        card: Symbol,
    },
    /// `seat` turned the whole discard pile (`cards` cards) into a new draw pile.
    Reshuffled {
        /// Who reshuffled.
        seat: Seat,
        /// Cards moved.
        cards: usize,
    },
    /// `seat` called JACKPOT.
    Jackpot {
        /// The winner.
        seat: Seat,
        /// The symbol.
        symbol: Symbol,
        /// 3 or 4.
        size: usize,
        /// Points scored.
        points: u32,
    },
    /// A round ended.
    RoundEnded {
        /// Round number.
        round: u32,
        /// The jackpot winner, if any.
        winner: Option<Seat>,
    },
    /// The game ended.
    GameEnded {
        /// Seats with the highest total.
        winners: Vec<Seat>,
        /// Final totals per seat.
        totals: Vec<i64>,
    },
}
