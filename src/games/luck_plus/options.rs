//! The options of Luck Plus: what a match may change from the rulebook's defaults.

use crate::games::OptionsError;
use crate::games::{Order, Seat};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Largest `target` in `hands` scoring: twice the rulebook's longest game ("such as 5 or 10"
/// hands, RULINGS 1.9). Each player must win that many hands, so 8 players may play well over
/// a hundred hands.
pub const MAX_TARGET_HANDS: u32 = 20;

/// Largest `target` in the two points modes: twice the rulebook's longest game (250 or 500
/// points, RULINGS 1.10).
pub const MAX_TARGET_POINTS: u32 = 1_000;

/// How the game is scored (rulebook "SCORING"; RULINGS 1.9).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusScoringMode)]
pub enum ScoringMode {
    /// One hand won per player who goes out; first to `target` hands wins (default 5).
    Hands,
    /// The points left in the other hands go to the player who went out (+30 for a LUCK OUT);
    /// first to `target` points wins (default 250).
    PointsToWinner,
    /// Each player keeps the points left in his own hand; when anyone reaches `target`
    /// (default 250) the game ends and the lowest total wins.
    PenaltyPoints,
}

impl ScoringMode {
    /// Which end of the totals wins: the fewest penalty points, else the most.
    pub fn order(self) -> Order {
        match self {
            ScoringMode::PenaltyPoints => Order::LowestWins,
            _ => Order::HighestWins,
        }
    }
}

/// What a LUCK OUT is worth in penalty scoring (RULINGS 1.9).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusLuckOutPenaltyBonus)]
pub enum LuckOutPenaltyBonus {
    /// The lucky player subtracts 30 points.
    Subtract,
    /// No bonus in penalty scoring.
    Ignore,
}

/// Which cards may join a TRANSFER PLUS's extra card (RULINGS A12).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusTpExtraSameNumberAs)]
pub enum TpExtraSameNumberAs {
    /// Further extras share the rank of the first extra card.
    ChosenCard,
    /// Further extras share the TRANSFER PLUS card's number.
    TpCard,
}

/// What happens to cards listed after a STOP in one play request (RULINGS A15).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusStopMistake)]
pub enum StopMistake {
    /// The whole request is refused (`stop_not_last`).
    Reject,
    /// The groups up to the STOP are placed, the turn ends, later groups stay in the hand.
    Truncate,
}

/// Per-match options (RULINGS 1.10). Every field is optional in JSON.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(default, rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusOptions)]
pub struct Options {
    /// Scoring mode: `hands` (default), `points_to_winner` or `penalty_points`.
    pub scoring: ScoringMode,
    /// The score that ends the game: hands won, or points. `null` means the mode's default:
    /// 5 hands, 250 points. At most 20 hands, or 1 000 points.
    #[schema(example = json!(null), minimum = 1, maximum = 1000)]
    pub target: Option<u32>,
    /// After a LUCK OUT every other player still in the hand gets one complete turn; several
    /// players may go out (rulebook "GOING OUT AND WINNING" 1, OPTION).
    pub luck_out_full_round: bool,
    /// A LUCK OUT in penalty scoring: `subtract` 30 points (default) or `ignore`.
    pub luck_out_bonus_in_penalty: LuckOutPenaltyBonus,
    /// When the draw pile is empty, the match pile except its top card becomes the new draw
    /// pile (default true). When false, or nothing can be reshuffled, the draw is void.
    pub reshuffle_match_pile: bool,
    /// When true, one roll may serve several pairs, totals, doubles and one-die matches; by
    /// default each is usable once per roll (RULINGS A5).
    pub dice_reuse_within_roll: bool,
    /// The seat that deals hand 1; the deal passes to the left each hand. Must be below the
    /// number of players.
    #[schema(example = 0)]
    pub dealer: Seat,
    /// TRANSFER PLUS extras: same rank as the first extra (`chosen_card`, default) or as the
    /// TRANSFER PLUS card (`tp_card`).
    pub tp_extra_same_number_as: TpExtraSameNumberAs,
    /// A play request with cards after a STOP: `reject` (default) or `truncate`.
    pub stop_mistake: StopMistake,
    /// Whether the first player of a hand may match the match pile's top before rolling
    /// (default true, RULINGS A6).
    pub pre_roll_top_match_on_first_turn: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            scoring: ScoringMode::Hands,
            target: None,
            luck_out_full_round: false,
            luck_out_bonus_in_penalty: LuckOutPenaltyBonus::Subtract,
            reshuffle_match_pile: true,
            dice_reuse_within_roll: false,
            dealer: 0,
            tp_extra_same_number_as: TpExtraSameNumberAs::ChosenCard,
            stop_mistake: StopMistake::Reject,
            pre_roll_top_match_on_first_turn: true,
        }
    }
}

impl Options {
    /// The target in effect: the option, or 5 hands / 250 points.
    pub fn target(&self) -> u32 {
        self.target.unwrap_or(match self.scoring {
            ScoringMode::Hands => 5,
            ScoringMode::PointsToWinner | ScoringMode::PenaltyPoints => 250,
        })
    }

    /// Which end of the totals wins.
    pub fn order(&self) -> Order {
        self.scoring.order()
    }
}

impl crate::games::OptionRules for Options {
    fn check(&self, players: usize) -> Result<(), OptionsError> {
        let options = self;
        OptionsError::check_seat("dealer", options.dealer, players)?;
        match options.target {
            Some(0) => return Err(OptionsError::new("target", "the target must be at least 1")),
            Some(target) => {
                let (max, unit) = match options.scoring {
                    ScoringMode::Hands => (MAX_TARGET_HANDS, "hands"),
                    ScoringMode::PointsToWinner | ScoringMode::PenaltyPoints => {
                        (MAX_TARGET_POINTS, "points")
                    }
                };
                if target > max {
                    return Err(OptionsError::beyond(
                        "target",
                        max.into(),
                        format!("a target of at most {max} {unit}, not {target}"),
                    ));
                }
            }
            None => {}
        }
        Ok(())
    }
}
