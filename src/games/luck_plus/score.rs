//! How Luck Plus is scored: the itemised score of a state, round results, and the score sheet's
//! tally of a round.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A player who went out this hand.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusOut)]
pub struct Out {
    /// The seat.
    pub seat: Seat,
    /// Whether it was a LUCK OUT (out during the seat's first turn of the hand).
    pub luck_out: bool,
}

/// One finished hand, scored.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusHandResult)]
pub struct HandResult {
    /// Hand number, from 1.
    pub hand: u32,
    /// The hand's dealer.
    pub dealer: Seat,
    /// The players who went out, in order.
    pub out: Vec<Out>,
    /// The cards left in each hand, indexed by seat.
    #[schema(value_type = Vec<Vec<Card>>)]
    pub cards_left: Vec<Vec<Card>>,
    /// The points of those cards (number = face value, DBL 15, LP 25), indexed by seat.
    pub left_points: Vec<u32>,
    /// What each seat scores for this hand in the match's scoring mode.
    pub points: Vec<i64>,
}

/// A hand's end as a table describes it: who went out, and the cards left in every hand.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({
    "out": [{"seat": 1, "luck_out": false}],
    "cards_left": [["GO-3", "STOP-12", "LP"], [], ["DBL", "TR-7"]]}))]
#[schema(as = LuckPlusTally)]
pub struct Tally {
    /// Who went out, in order (several only with `luck_out_full_round` after a LUCK OUT).
    pub out: Vec<Out>,
    /// Each seat's cards left, indexed by seat (empty for the players who went out). Scored by
    /// hands won, they count for nothing and may be left empty for everyone.
    #[schema(value_type = Vec<Vec<Card>>)]
    pub cards_left: Vec<Vec<Card>>,
}

/// The itemised score.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusScore)]
pub struct Score {
    /// The scoring mode.
    pub scoring: ScoringMode,
    /// The target in effect.
    pub target: u32,
    /// Finished hands with their points.
    #[schema(value_type = Vec<HandResult>)]
    pub hands: Rounds<HandResult>,
    /// Totals per seat.
    pub totals: Vec<i64>,
}

impl crate::games::Ranked for Score {
    fn points(&self) -> Vec<i64> {
        self.totals.clone()
    }

    fn order(&self) -> crate::games::Order {
        self.scoring.order()
    }
}

crate::games::kit::scored::ranked_by!(HandResult.points);
