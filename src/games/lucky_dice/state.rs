//! The complete Lucky Dice state, hidden information included, with its phase and pending chance.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The chance outcome play is waiting for. Nothing in it is hidden: the pile's composition is in
/// the state (and in the full view).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDicePendingChance)]
pub enum PendingChance {
    /// These seats each draw one coaster (setup: every seat; later: the round's winners).
    Coasters {
        /// The drawing seats, ascending.
        seats: Vec<Seat>,
    },
    /// The large die is rolled for round `round`.
    LuckySymbol {
        /// The round it starts.
        round: u32,
    },
    /// `seat` rolls `dice` dice.
    Roll {
        /// The rolling seat.
        seat: Seat,
        /// Dice rolled: the seat's whole pool.
        dice: u32,
        /// Whether this is an extra roll after "Stop!".
        extra: bool,
    },
}

/// Where play stands (RULINGS 3.3; `round_end` is instantaneous here).
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyDicePhase)]
pub enum Phase {
    /// Coasters are being drawn (setup, or replacements after a round).
    DrawCoasters,
    /// The large die is being rolled (RULINGS `NEED_ULS`).
    NeedLuckySymbol,
    /// Everyone rolls at the same time.
    Race,
    /// "Stop!" was called: the others' extra rolls.
    AfterStop,
    /// The game is over.
    Over,
}

/// One die of a roll.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceDie)]
pub struct Die {
    /// The face rolled.
    pub face: Symbol,
    /// Where the die went.
    pub to: Destination,
    /// The seat whose coaster received it (for `left` and `right`; with 2 players both name the
    /// other player).
    pub seat: Option<Seat>,
}

/// A coaster that a seat drew face up.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceSeatCoaster)]
pub struct SeatCoaster {
    /// The seat.
    pub seat: Seat,
    /// The coaster.
    pub coaster: Coaster,
}

/// The complete state: the document a stateless client holds and posts back.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceState)]
pub struct State {
    /// Number of seats (2–6).
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current round, from 1 (the last round once over).
    pub round: u32,
    /// Where play stands.
    pub phase: Phase,
    /// The round's ultimate lucky symbol, once the large die is rolled.
    pub lucky_symbol: Option<Symbol>,
    /// Each seat's face-up coaster; `null` while it waits to draw one (or at the end for the
    /// last round's winners).
    pub coasters: Vec<Option<Coaster>>,
    /// Each seat's face-down (won) coasters, in the order won.
    pub won: Vec<Vec<Coaster>>,
    /// The face-down draw pile as a multiset, sorted (its order is decided only when drawing).
    pub pile: Vec<Coaster>,
    /// Dice each seat holds (including dice placed on its coaster).
    pub pools: Vec<u32>,
    /// Dice on the tray. During a round tray + Σ pools = 3 × players.
    pub tray: u32,
    /// Who called "Stop!" this round.
    pub stop_caller: Option<Seat>,
    /// Extra rolls each seat has taken since "Stop!".
    pub extra_rolls_used: Vec<u32>,
    /// Seats that declined their remaining extra rolls.
    pub finished_extra: Vec<bool>,
    /// Finished rounds.
    #[schema(value_type = Vec<RoundResult>)]
    pub results: Rounds<RoundResult>,
    /// The chance outcome play waits for, if any.
    pub chance: Option<PendingChance>,
}
