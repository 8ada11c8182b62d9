//! What changes a Lucky Dice state: the moves seats propose, the chance outcomes that resolve
//! pending chance, and the events both produce.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A move proposed by a seat. In the race every seat with dice may move; the server's order of
/// arrival decides.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(examples(
    json!({"type": "roll", "dice": 3}),
    json!({"type": "extra_roll", "dice": 2}),
    json!({"type": "stop"}),
    json!({"type": "finish_extra_rolls"})
))]
#[schema(as = LuckyDiceMove)]
pub enum Move {
    /// During the race: roll all the dice the seat holds. The faces are a chance event for this
    /// seat (the server rolls at once; a table reports them).
    Roll {
        /// How many dice the client believes the seat holds. Required with `strict_roll_count`;
        /// a different count than the seat holds is refused as `wrong_dice_count` (409).
        #[serde(default)]
        dice: Option<u32>,
    },
    /// After "Stop!": one of the up to 3 extra rolls; only the ultimate lucky symbol counts.
    ExtraRoll {
        /// How many dice the client believes the seat holds (as for `roll`).
        #[serde(default)]
        dice: Option<u32>,
    },
    /// Call "Stop!" with an empty pool (only when `auto_stop` is off).
    Stop,
    /// After "Stop!": decline the remaining extra rolls.
    FinishExtraRolls,
}

/// A chance outcome: coasters drawn, the large die, or one seat's roll.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"kind": "roll", "faces": ["pig", "clover", "hamsa"]}))]
#[schema(as = LuckyDiceChance)]
pub enum Chance {
    /// Coasters drawn from the face-down pile: one per drawing seat, in the pending seat order.
    Coasters {
        /// The coasters drawn, in the order of the pending `seats`.
        coasters: Vec<Coaster>,
    },
    /// The large yellow die: this round's ultimate lucky symbol.
    LuckySymbol {
        /// The symbol rolled.
        symbol: Symbol,
    },
    /// The faces of the pending roll: exactly as many as the seat rolled.
    Roll {
        /// One face per die.
        faces: Vec<Symbol>,
    },
}

/// The kind of a chance event.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyDiceChanceKind)]
pub enum ChanceKind {
    /// Coasters drawn from the pile.
    Coasters,
    /// The large die.
    LuckySymbol,
    /// A seat's dice.
    Roll,
}

crate::games::kit::guard::kinds_by_name!(ChanceKind { Coasters, LuckySymbol, Roll } for Chance, PendingChance);

/// Where one die went.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyDiceDestination)]
pub enum Destination {
    /// The ultimate lucky symbol: onto the tray, out of play for the round.
    Tray,
    /// The left symbol of the roller's coaster: onto the coaster of the player on the left.
    Left,
    /// The right symbol of the roller's coaster: onto the coaster of the player on the right.
    Right,
    /// Any other face (and coaster symbols during extra rolls): the die stays with the roller.
    Stays,
}

/// What happened.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceEvent)]
pub enum Event {
    /// Seats drew coasters face up.
    CoastersDrawn {
        /// Who drew what.
        draws: Vec<SeatCoaster>,
        /// Coasters left in the pile.
        pile_left: usize,
    },
    /// The large die was rolled: a round begins, everyone rolls at once.
    RoundStarted {
        /// Round number.
        round: u32,
        /// The ultimate lucky symbol.
        lucky_symbol: Symbol,
    },
    /// `seat` rolls its `dice` dice; the faces are the pending chance event.
    Rolling {
        /// The roller.
        seat: Seat,
        /// Dice rolled.
        dice: u32,
        /// An extra roll after "Stop!".
        extra: bool,
    },
    /// The faces of `seat`'s roll and where each die went.
    Rolled {
        /// The roller.
        seat: Seat,
        /// An extra roll after "Stop!" (only the lucky symbol counted).
        extra: bool,
        /// Each die: face and destination.
        dice: Vec<Die>,
        /// Dice per seat afterwards.
        pools: Vec<u32>,
        /// Dice on the tray afterwards.
        tray: u32,
    },
    /// `seat` called "Stop!".
    Stopped {
        /// The caller.
        seat: Seat,
        /// Called by the referee on the roll that emptied the pool (`auto_stop`).
        automatic: bool,
    },
    /// `seat` declined its remaining extra rolls.
    ExtraRollsDeclined {
        /// The seat.
        seat: Seat,
    },
    /// A round ended: every seat with no dice turned its coaster face down.
    RoundEnded {
        /// Round number.
        round: u32,
        /// The seats that got rid of all their dice.
        emptied: Vec<Seat>,
        /// The coasters they won.
        coasters_won: Vec<SeatCoaster>,
        /// Face-down coasters per seat afterwards.
        totals: Vec<i64>,
    },
    /// The game ended.
    GameEnded {
        /// The winners (several share the win).
        winners: Vec<Seat>,
        /// Face-down coasters per seat.
        totals: Vec<i64>,
    },
}
