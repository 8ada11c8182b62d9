//! How Lucky Jack is scored: the itemised score of a state, round results, and the score sheet's
//! tally of a round.

use super::cards::Symbol;
use crate::games::kit::rounds::Rounds;
use crate::games::Seat;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Why a round ended without a jackpot.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyJackNoJackpotReason)]
pub enum NoJackpotReason {
    /// `max_turns_per_round` turns were completed.
    TurnLimit,
    /// A score sheet recorded the round with no jackpot (the table stopped it).
    NoWinner,
}

/// How a round ended.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "result", rename_all = "snake_case")]
#[schema(as = LuckyJackRoundOutcome)]
pub enum RoundOutcome {
    /// `seat` won the round with `size` cards of `symbol`.
    Jackpot {
        /// The winner.
        seat: Seat,
        /// The jackpot symbol.
        symbol: Symbol,
        /// 3 or 4.
        size: usize,
        /// Table value.
        points: u32,
    },
    /// Nobody scored.
    NoJackpot {
        /// Why the round ended.
        reason: NoJackpotReason,
    },
}

/// One finished round.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackRoundResult)]
pub struct RoundResult {
    /// Round number, from 1.
    pub round: u32,
    /// The seat that started it.
    pub starter: Seat,
    /// How it ended.
    pub result: RoundOutcome,
    /// Points scored this round, indexed by seat.
    pub points: Vec<i64>,
}

impl RoundResult {
    /// A finished round: only a jackpot winner scores, the table value (rulebook: "They are the
    /// only player who earns points during this round").
    pub fn new(round: u32, starter: Seat, players: usize, result: RoundOutcome) -> Self {
        let mut points = vec![0i64; players];
        if let RoundOutcome::Jackpot {
            seat, points: p, ..
        } = result
        {
            points[seat] = i64::from(p);
        }
        Self {
            round,
            starter,
            result,
            points,
        }
    }
}

/// A round as a score sheet records it.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"jackpot": {"seat": 2, "symbol": "jack", "size": 4}}))]
#[schema(as = LuckyJackTally)]
pub struct Tally {
    /// Who won the round's jackpot and with what; `null` when nobody did.
    pub jackpot: Option<TallyJackpot>,
}

/// A jackpot written on the score sheet.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackTallyJackpot)]
pub struct TallyJackpot {
    /// The winner.
    pub seat: Seat,
    /// The symbol of the identical cards laid down.
    pub symbol: Symbol,
    /// 3 or 4 cards.
    #[schema(minimum = 3, maximum = 4)]
    pub size: usize,
}

/// The itemised score.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackScore)]
pub struct Score {
    /// Finished rounds with their points per seat.
    #[schema(value_type = Vec<RoundResult>)]
    pub rounds: Rounds<RoundResult>,
    /// Total points per seat.
    pub totals: Vec<i64>,
}

crate::games::kit::scored::ranked_by!(Score.totals, RoundResult.points);
