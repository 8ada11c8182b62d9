//! How Lucky Dice is scored: the itemised score of a state, round results, and the score sheet's
//! tally of a round.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One finished round.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceRoundResult)]
pub struct RoundResult {
    /// Round number, from 1.
    pub round: u32,
    /// The round's ultimate lucky symbol.
    pub lucky_symbol: Symbol,
    /// The seat that called "Stop!".
    pub stop_caller: Seat,
    /// Every seat that got rid of all its dice (the stop caller and anyone who cleared during the
    /// extra rolls), ascending.
    pub emptied: Vec<Seat>,
    /// The coasters they turned face down.
    pub coasters_won: Vec<SeatCoaster>,
    /// Coasters won this round, indexed by seat (1 per emptied seat).
    pub points: Vec<i64>,
}

/// A round as players at a physical table write it down: who got rid of all their dice.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"emptied": [2]}))]
#[schema(as = LuckyDiceTally)]
pub struct Tally {
    /// The seats that emptied their dice this round and so won their coaster (at least the one
    /// who called "Stop!").
    pub emptied: Vec<Seat>,
}

/// A described round, scored.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceRoundTally)]
pub struct RoundTally {
    /// Round number, from 1.
    pub round: u32,
    /// The seats that won a coaster, ascending.
    pub emptied: Vec<Seat>,
    /// Coasters won this round, indexed by seat.
    pub points: Vec<i64>,
}

/// The itemised score.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceScore)]
pub struct Score {
    /// Finished rounds with the coasters won.
    #[schema(value_type = Vec<RoundResult>)]
    pub rounds: Rounds<RoundResult>,
    /// Face-down coasters per seat.
    pub totals: Vec<i64>,
}

crate::games::kit::scored::ranked_by!(Score.totals, RoundTally.points);
