//! What changes a Plus & Minus state: the moves seats propose, the chance outcomes that resolve
//! pending chance, and the events both produce.

use super::cards::Card;
use super::PendingChance;
use crate::games::Seat;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One of a seat's two stacks.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = PlusMinusStackKind)]
pub enum StackKind {
    /// The Plus stack: its cards add to the owner's score.
    Plus,
    /// The Minus stack: its cards subtract from the owner's score.
    Minus,
}

/// A stack on the table: `seat`'s Plus or Minus stack.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusStackRef, example = json!({"seat": 1, "stack": "minus"}))]
pub struct StackRef {
    /// The stack's owner.
    pub seat: Seat,
    /// Which of the owner's stacks.
    pub stack: StackKind,
}

/// A move proposed by a seat.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(examples(
    json!({"type": "play", "card": "7", "stack": {"seat": 2, "stack": "plus"}}),
    json!({"type": "play", "card": "10", "stack": {"seat": 1, "stack": "plus"},
           "swap": [{"seat": 0, "stack": "minus"}, {"seat": 2, "stack": "minus"}]}),
    json!({"type": "play", "card": "K", "stack": {"seat": 0, "stack": "plus"}, "king_targets": [1, 2]}),
    json!({"type": "forfeit"}),
    json!({"type": "pass", "card": "Q"}),
    json!({"type": "choose_face_up", "cards": ["Q", "4"]})
))]
#[schema(as = PlusMinusMove)]
pub enum Move {
    /// Play one hand card onto any stack whose top is the same rank, one above or one below, or
    /// an ace or king (or an empty stack). A 10 needs `swap`, a king needs `king_targets`; the
    /// whole effect is resolved with the play. Examples: `{"type":"play","card":"7","stack":
    /// {"seat":2,"stack":"plus"}}`; `{"type":"play","card":"K","stack":{"seat":0,"stack":
    /// "plus"},"king_targets":[1,2]}`.
    Play {
        /// The card from the hand.
        card: Card,
        /// The stack it goes on.
        stack: StackRef,
        /// For a 10 (mandatory, only then): the two distinct stacks to swap, any owners.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(min_items = 2, max_items = 2)]
        swap: Option<[StackRef; 2]>,
        /// For a king (mandatory, only then): the two other players whose top two Minus cards
        /// move onto their Plus stacks.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(min_items = 2, max_items = 2)]
        king_targets: Option<[Seat; 2]>,
    },
    /// Give up the remaining plays of the turn: allowed only when no hand card can be played
    /// anywhere (`{"type":"forfeit"}`).
    Forfeit,
    /// Pass one hand card face down to the player on the left; ends the turn
    /// (`{"type":"pass","card":"3"}`).
    Pass {
        /// The card passed.
        card: Card,
    },
    /// Option `face_up_chosen_by_player`: place two of the four dealt cards face up; the higher
    /// starts the Plus stack (`{"type":"choose_face_up","cards":["Q","4"]}`).
    ChooseFaceUp {
        /// The two cards to place face up.
        #[schema(min_items = 2, max_items = 2)]
        cards: [Card; 2],
    },
}

/// A chance outcome: what the shuffle or the draw stack produced.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"kind": "draw", "cards": ["5", "K"]}))]
#[schema(as = PlusMinusChance)]
pub enum Chance {
    /// A round's deal, indexed by seat: 2 hidden hand cards and 2 face-up cards each (with
    /// `face_up_chosen_by_player`: 4 hand cards and no face-up cards). Example:
    /// `{"kind":"deal","hands":[["3","J"],["A","7"],["9","9"]],"face_up":[["K","4"],["2","2"],
    /// ["10","Q"]]}`.
    Deal {
        /// Each seat's hidden hand cards.
        hands: Vec<Vec<Card>>,
        /// Each seat's face-up cards (any order: the higher starts the Plus stack).
        face_up: Vec<Vec<Card>>,
    },
    /// The cards taken from the draw stack for the pending draw: exactly the pending `count`.
    Draw {
        /// The drawn cards.
        cards: Vec<Card>,
    },
}

/// The kind of a chance event.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = PlusMinusChanceKind)]
pub enum ChanceKind {
    /// A round's deal.
    Deal,
    /// Cards taken from the draw stack.
    Draw,
}

crate::games::kit::guard::kinds_by_name!(ChanceKind { Deal, Draw } for Chance, PendingChance);

/// Why cards are drawn.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = PlusMinusDrawReason)]
pub enum DrawReason {
    /// The draw that starts a turn: 2 on the round's first turn, 1 afterwards.
    TurnStart,
    /// The 2 extra cards after playing a 5.
    Five,
}

/// What happened.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusEvent)]
pub enum Event {
    /// A round began.
    RoundStarted {
        /// Round number.
        round: u32,
        /// Its dealer.
        dealer: Seat,
        /// The seat that plays first (the dealer's left).
        first: Seat,
    },
    /// `seat` was dealt its cards.
    Dealt {
        /// The seat.
        seat: Seat,
        /// Hidden cards dealt to the hand.
        hand_size: usize,
        /// Those cards, for viewers who may see them.
        hand: Option<Vec<Card>>,
        /// The face-up card that starts the Plus stack (none when players choose).
        plus: Option<Card>,
        /// The face-up card that starts the Minus stack (none when players choose).
        minus: Option<Card>,
    },
    /// `seat` placed its face-up cards (still secret until everyone has).
    FaceUpChosen {
        /// The seat.
        seat: Seat,
    },
    /// Everyone has chosen: `seat`'s face-up cards are turned over.
    FaceUpRevealed {
        /// The seat.
        seat: Seat,
        /// The card starting the Plus stack.
        plus: Card,
        /// The card starting the Minus stack.
        minus: Card,
    },
    /// `seat` drew `count` cards.
    Drew {
        /// Who drew.
        seat: Seat,
        /// How many.
        count: usize,
        /// Turn start or a 5.
        reason: DrawReason,
        /// The cards, for viewers who may see them.
        cards: Option<Vec<Card>>,
    },
    /// `seat` played `card` onto `stack`.
    Played {
        /// Who played.
        seat: Seat,
        /// The card.
        card: Card,
        /// Where.
        stack: StackRef,
    },
    /// `seat`'s 10 swapped two stacks.
    Swapped {
        /// Who swapped.
        seat: Seat,
        /// The two stacks whose contents changed places.
        #[schema(min_items = 2, max_items = 2)]
        stacks: [StackRef; 2],
    },
    /// A king moved the top `count` cards of `target`'s Minus stack onto its Plus stack, in
    /// order.
    MinusToPlus {
        /// Who played the king.
        seat: Seat,
        /// Whose stacks.
        target: Seat,
        /// Cards moved (0–2).
        count: usize,
        /// The moved packet's top card (the old Minus top, now the Plus top).
        top: Option<Card>,
        /// Every moved card, bottom to top: only for the full view.
        cards: Option<Vec<Card>>,
    },
    /// `seat` could not play and lost its remaining plays.
    Forfeited {
        /// Who forfeited.
        seat: Seat,
        /// Plays lost.
        plays_lost: u32,
    },
    /// `seat` passed a card face down to `to`.
    Passed {
        /// The passer.
        seat: Seat,
        /// The receiver (the passer's left).
        to: Seat,
        /// The card: only for the passer, the receiver and the full view.
        card: Option<Card>,
    },
    /// A round ended; `points` per seat.
    RoundEnded {
        /// Round number.
        round: u32,
        /// Points scored this round per seat.
        points: Vec<i64>,
    },
    /// The game ended.
    GameEnded {
        /// Seats with the highest total.
        winners: Vec<Seat>,
        /// Final totals per seat.
        totals: Vec<i64>,
    },
}
