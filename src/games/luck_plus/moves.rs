//! What changes a Luck Plus state: the moves seats propose, the chance outcomes that resolve
//! pending chance, and the events both produce.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Why a card group may be placed on the match pile (RULINGS 1.4).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusBasis)]
pub enum Basis {
    /// One card of the match pile top's rank (number against number, DBL on DBL).
    Top,
    /// Two cards placed together showing both dice numbers; a STOP goes second.
    Pair,
    /// One card showing the other die, the match pile's top showing one die.
    Split,
    /// One card showing the dice total.
    Total,
    /// One DBL card on a doubles roll.
    Doubles,
    /// The last card (6 or less) showing one die of a roll made this turn.
    SingleDie,
}

impl Basis {
    /// Cards in a group of this basis.
    pub fn size(self) -> usize {
        match self {
            Basis::Pair => 2,
            _ => 1,
        }
    }
}

/// Cards placed together on the match pile for one reason, in placement order (last on top).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusGroup)]
pub struct Group {
    /// The matching rule the group uses.
    pub basis: Basis,
    /// The cards, first placed first: 2 for `pair`, otherwise 1.
    #[schema(value_type = Vec<Card>)]
    pub cards: Vec<Card>,
}

/// A move proposed by a seat (RULINGS 1.5).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"type": "play", "groups": [
    {"basis": "top", "cards": ["GO-7"]},
    {"basis": "pair", "cards": ["GO-3", "GO-5"]},
    {"basis": "total", "cards": ["STOP-8"]}]}))]
#[schema(examples(
    json!({"type": "roll"}),
    json!({"type": "play", "groups": [
        {"basis": "top", "cards": ["GO-7"]},
        {"basis": "pair", "cards": ["GO-3", "GO-5"]},
        {"basis": "total", "cards": ["STOP-8"]}]}),
    json!({"type": "play", "groups": [{"basis": "doubles", "cards": ["DBL"]},
        {"basis": "total", "cards": ["TR-12"]}]}),
    json!({"type": "play", "groups": [{"basis": "split", "cards": ["GO-4"]}]}),
    json!({"type": "play", "groups": [{"basis": "single_die", "cards": ["STOP-4"]}]}),
    json!({"type": "luck_plus", "bonus": ["STOP-11", "GO-11"]}),
    json!({"type": "draw"}),
    json!({"type": "transfer", "card": "TR-6", "to": 1, "extra": []}),
    json!({"type": "transfer", "card": "TP-3", "to": 2, "extra": ["GO-11", "STOP-11"]}),
    json!({"type": "keep"}),
    json!({"type": "bonus", "cards": ["GO-7", "STOP-7"]})
))]
#[schema(as = LuckPlusMove)]
pub enum Move {
    /// Roll the two dice (before matching, or when a match or transfer requires it).
    Roll,
    /// Place card groups on the match pile, in order; each must match when it is placed.
    Play {
        /// The groups, first placed first.
        groups: Vec<Group>,
    },
    /// Play a LUCK PLUS card on any top, then bonus cards; the turn ends. No bonus leaves the
    /// next player a forced bonus.
    LuckPlus {
        /// Bonus cards: any first card, then only cards of its rank.
        #[serde(default)]
        #[schema(value_type = Vec<Card>)]
        bonus: Vec<Card>,
    },
    /// Draw the top card of the draw pile (after a roll, instead of matching).
    Draw,
    /// Give the TRANSFER (to the left player) or TRANSFER PLUS (to any opponent, with extra
    /// cards) just drawn; then roll again.
    Transfer {
        /// The drawn TRANSFER or TRANSFER PLUS card.
        #[schema(value_type = Card)]
        card: Card,
        /// The receiving seat.
        to: Seat,
        /// TRANSFER PLUS only: one card of choice, then cards of the same number.
        #[serde(default)]
        #[schema(value_type = Vec<Card>)]
        extra: Vec<Card>,
    },
    /// Keep the drawn card; the turn ends.
    Keep,
    /// The forced bonus after a LUCK PLUS without bonus: any card, then cards of its rank.
    Bonus {
        /// The bonus cards (at least one).
        #[schema(value_type = Vec<Card>)]
        cards: Vec<Card>,
    },
}

/// A chance outcome: the deal, a roll, a drawn card.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"kind": "roll", "dice": [3, 5]}))]
#[schema(as = LuckPlusChance)]
pub enum Chance {
    /// A hand's deal: 8 face-up cards per seat, then the cards turned for the match pile:
    /// any LUCK PLUS cards (each goes under the draw pile) and finally one other card.
    Deal {
        /// Each seat's 8 cards, indexed by seat.
        #[schema(value_type = Vec<Vec<Card>>)]
        hands: Vec<Vec<Card>>,
        /// The flipped cards in order: zero or more `LP`, then the match pile's first card.
        #[schema(value_type = Vec<Card>)]
        flips: Vec<Card>,
    },
    /// The faces of the two dice, each 1–6.
    Roll {
        /// Die faces.
        #[schema(min_items = 2, max_items = 2)]
        dice: [u8; 2],
    },
    /// The card taken from the top of the draw pile.
    Draw {
        /// The drawn card.
        #[schema(value_type = Card)]
        card: Card,
    },
}

/// The kind of a chance event.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusChanceKind)]
pub enum ChanceKind {
    /// A hand's deal and first flip(s).
    Deal,
    /// A roll of the two dice.
    Roll,
    /// A card drawn from the draw pile.
    Draw,
}

crate::games::kit::guard::kinds_by_name!(ChanceKind { Deal, Roll, Draw } for Chance, PendingChance);

/// Why a turn ended.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusTurnEnd)]
pub enum TurnEnd {
    /// A STOP card was placed last.
    Stop,
    /// A LUCK PLUS was played.
    LuckPlus,
    /// The forced bonus was played.
    ForcedBonus,
    /// The drawn card was kept.
    Kept,
    /// The drawn card could not be played.
    Unplayable,
    /// Nothing could be drawn.
    DrawVoid,
    /// The player went out.
    WentOut,
}

/// What happened.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusEvent)]
pub enum Event {
    /// A hand began.
    HandStarted {
        /// Hand number.
        hand: u32,
        /// Its dealer.
        dealer: Seat,
        /// The seat that plays first (left of the dealer).
        first: Seat,
    },
    /// `seat` was dealt `cards` face up.
    Dealt {
        /// The seat.
        seat: Seat,
        /// The cards.
        #[schema(value_type = Vec<Card>)]
        cards: Vec<Card>,
    },
    /// A LUCK PLUS turned for the match pile went under the draw pile.
    PutUnder {
        /// The card.
        #[schema(value_type = Card)]
        card: Card,
    },
    /// The match pile was started with `card`.
    Flipped {
        /// The card.
        #[schema(value_type = Card)]
        card: Card,
    },
    /// `seat`'s turn began.
    TurnStarted {
        /// The seat.
        seat: Seat,
        /// Whether it is a forced bonus turn.
        forced_bonus: bool,
    },
    /// `seat` rolled.
    Rolled {
        /// The roller.
        seat: Seat,
        /// The faces.
        #[schema(min_items = 2, max_items = 2)]
        dice: [u8; 2],
    },
    /// `seat` placed a group on the match pile.
    Placed {
        /// The player.
        seat: Seat,
        /// The group.
        group: Group,
    },
    /// Groups after a STOP were not placed (`stop_mistake: truncate`).
    StopIgnored {
        /// The player.
        seat: Seat,
        /// The groups left in the hand.
        groups: Vec<Group>,
    },
    /// `seat` played a LUCK PLUS with `bonus` cards.
    LuckPlusPlayed {
        /// The player.
        seat: Seat,
        /// The bonus cards.
        #[schema(value_type = Vec<Card>)]
        bonus: Vec<Card>,
    },
    /// `seat` owes a forced bonus on its coming turn.
    ForcedBonusOwed {
        /// The seat.
        seat: Seat,
    },
    /// `seat` played its forced bonus.
    BonusPlayed {
        /// The player.
        seat: Seat,
        /// The cards.
        #[schema(value_type = Vec<Card>)]
        cards: Vec<Card>,
    },
    /// The match pile except its top card became the draw pile.
    Reshuffled {
        /// The seat that needed to draw.
        seat: Seat,
        /// Cards moved.
        cards: usize,
    },
    /// `seat` drew `card`.
    Drew {
        /// The drawer.
        seat: Seat,
        /// The card (hands are public).
        #[schema(value_type = Card)]
        card: Card,
        /// Whether it can be played (else it is kept and the turn ends).
        playable: bool,
    },
    /// Nothing could be drawn.
    DrawVoid {
        /// The seat that had to draw.
        seat: Seat,
    },
    /// `seat` kept its drawn card.
    Kept {
        /// The seat.
        seat: Seat,
        /// The card.
        #[schema(value_type = Card)]
        card: Card,
        /// True when it was kept because it could not be played.
        automatic: bool,
    },
    /// `from` gave cards to `to`.
    Transferred {
        /// The giver.
        from: Seat,
        /// The receiver.
        to: Seat,
        /// The cards: the TRANSFER (PLUS) card first.
        #[schema(value_type = Vec<Card>)]
        cards: Vec<Card>,
    },
    /// `seat`'s turn ended.
    TurnEnded {
        /// The seat.
        seat: Seat,
        /// Why.
        reason: TurnEnd,
    },
    /// `seat` went out.
    WentOut {
        /// The seat.
        seat: Seat,
        /// Whether it was a LUCK OUT.
        luck_out: bool,
    },
    /// A LUCK OUT's full round began: these seats each get one more turn.
    FinalRound {
        /// The seats, in turn order.
        seats: Vec<Seat>,
    },
    /// A hand ended and was scored.
    HandEnded {
        /// The result.
        result: HandResult,
    },
    /// The game ended.
    GameEnded {
        /// The winners (shared on a tie).
        winners: Vec<Seat>,
        /// Final totals.
        totals: Vec<i64>,
    },
}
