//! The complete Luck Plus state, hidden information included, with its phase and pending chance.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The chance outcome play waits for, with its possible outcomes.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusPendingChance)]
pub enum PendingChance {
    /// Deal hand `hand`: `hands` × `cards_per_hand` cards, then the flips, from `pile`.
    Deal {
        /// The hand being dealt, from 1.
        hand: u32,
        /// Number of hands (= players).
        hands: usize,
        /// Cards per hand (8).
        cards_per_hand: usize,
        /// The cards the deal comes from (the whole deck), sorted.
        #[schema(value_type = Vec<Card>)]
        pile: Vec<Card>,
    },
    /// `seat` rolls the two dice: faces 1–6 each.
    Roll {
        /// The rolling seat.
        seat: Seat,
    },
    /// `seat` draws one card from `pile`.
    Draw {
        /// The drawing seat.
        seat: Seat,
        /// The draw pile's cards, sorted (its order is decided only when drawing).
        #[schema(value_type = Vec<Card>)]
        pile: Vec<Card>,
    },
}

/// Where play stands (RULINGS 1.5).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusPhase)]
pub enum Phase {
    /// Waiting for a hand's deal (chance).
    Deal,
    /// The previous player played a LUCK PLUS without bonus: this turn is one `bonus`.
    ForcedBonus,
    /// Turn start: match the dice still showing or the top, play a LUCK PLUS, or roll.
    PreRoll,
    /// Waiting for the dice (chance).
    Rolling,
    /// Just rolled: match, play a LUCK PLUS, or draw.
    Rolled,
    /// Cards were placed: match more on the same dice, play a LUCK PLUS, or roll.
    Matching,
    /// A card was transferred: roll (or play a LUCK PLUS).
    MustRoll,
    /// Waiting for the drawn card (chance).
    Drawing,
    /// A playable card was drawn: play it, transfer it, play a LUCK PLUS, or keep it.
    Drawn,
    /// The game is over.
    Over,
}

/// How often each once-per-roll basis has been used with the dice showing (RULINGS A5).
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusUsage)]
pub struct Usage {
    /// `pair` and `split` matches.
    pub pair: u32,
    /// `total` matches.
    pub total: u32,
    /// `doubles` matches.
    pub doubles: u32,
    /// `single_die` matches.
    pub single_die: u32,
}

/// The complete state, hidden information included: the document a stateless client holds.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusState)]
pub struct State {
    /// Number of seats (2–8).
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current hand, from 1 (the last one once over).
    pub hand: u32,
    /// The current hand's dealer.
    pub dealer: Seat,
    /// Whose turn it is.
    pub turn: Seat,
    /// Where play stands.
    pub phase: Phase,
    /// Each seat's face-up hand, sorted, indexed by seat.
    #[schema(value_type = Vec<Vec<Card>>)]
    pub hands: Vec<Vec<Card>>,
    /// The face-down draw pile as a sorted multiset (its order is decided when drawing).
    #[schema(value_type = Vec<Card>)]
    pub draw_pile: Vec<Card>,
    /// LUCK PLUS cards put under the draw pile at the deal, drawn after the rest, in order.
    #[schema(value_type = Vec<Card>)]
    pub draw_bottom: Vec<Card>,
    /// The face-up match pile, bottom to top.
    #[schema(value_type = Vec<Card>)]
    pub match_pile: Vec<Card>,
    /// The dice showing (`null` before the hand's first roll).
    #[schema(min_items = 2, max_items = 2)]
    pub dice: Option<[u8; 2]>,
    /// Whether the dice showing were rolled during this turn (not inherited).
    pub rolled_this_turn: bool,
    /// Uses of the dice showing during this turn.
    pub used: Usage,
    /// The card just drawn (already in the hand) while the phase is `drawn`.
    #[schema(value_type = Option<Card>)]
    pub drawn: Option<Card>,
    /// Whether this is the turn seat's first turn of the hand (a LUCK OUT if it goes out).
    pub first_turn: bool,
    /// Which seats have begun a turn this hand.
    pub had_turn: Vec<bool>,
    /// Players out this hand (only while a LUCK OUT's full round is being played).
    pub out: Vec<Out>,
    /// After a LUCK OUT with `luck_out_full_round`: the seats still to take their turn.
    pub final_round: Option<Vec<Seat>>,
    /// Finished hands.
    #[schema(value_type = Vec<HandResult>)]
    pub results: Rounds<HandResult>,
    /// The chance outcome play waits for, if any.
    pub chance: Option<PendingChance>,
}
