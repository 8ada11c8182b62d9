//! How Plus & Minus is scored: the itemised score of a state, round results, and the score sheet's
//! tally of a round.

use super::cards::Card;
use crate::games::kit::rounds::Rounds;
use crate::games::Seat;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One seat's round score, itemised.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusSeatScore)]
pub struct SeatScore {
    /// Cards in the Plus stack.
    pub plus_cards: usize,
    /// Points of the Plus stack (added).
    pub plus_points: i64,
    /// Cards in the Minus stack.
    pub minus_cards: usize,
    /// Points of the Minus stack (subtracted).
    pub minus_points: i64,
    /// Cards left in the hand.
    pub hand_cards: usize,
    /// Points of the hand (subtracted).
    pub hand_points: i64,
    /// Plus − Minus − hand.
    pub score: i64,
}

/// One finished round.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusRoundResult)]
pub struct RoundResult {
    /// Round number, from 1.
    pub round: u32,
    /// The seat that dealt it.
    pub dealer: Seat,
    /// Each seat's itemised score, indexed by seat.
    pub seats: Vec<SeatScore>,
    /// Points scored this round, indexed by seat.
    pub points: Vec<i64>,
}

/// A round as a table counts it up: every player's Plus and Minus stacks and hand.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"players": [
    {"plus": ["K", "Q", "7"], "minus": ["5"], "hand": ["A"]},
    {"plus": ["2"], "minus": ["10", "J"], "hand": []},
    {"plus": ["A", "A"], "minus": [], "hand": ["9", "3"]}]}))]
#[schema(as = PlusMinusTally)]
pub struct Tally {
    /// Each player's cards, indexed by seat.
    pub players: Vec<TallySeat>,
}

/// One player's cards at the end of a round. Order within a list does not matter; 6–9 may be
/// left out (they score nothing).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusTallySeat)]
pub struct TallySeat {
    /// The Plus stack's cards.
    #[serde(default)]
    pub plus: Vec<Card>,
    /// The Minus stack's cards.
    #[serde(default)]
    pub minus: Vec<Card>,
    /// The cards left in the hand.
    #[serde(default)]
    pub hand: Vec<Card>,
}

/// The itemised score.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusScore)]
pub struct Score {
    /// Finished rounds with their itemised points per seat.
    #[schema(value_type = Vec<RoundResult>)]
    pub rounds: Rounds<RoundResult>,
    /// Total points per seat.
    pub totals: Vec<i64>,
}

crate::games::kit::scored::ranked_by!(Score.totals, RoundResult.points);
