//! The options of Plus & Minus: what a match may change from the rulebook's defaults.

use crate::games::OptionsError;
use crate::games::Seat;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Largest `rounds`: ten deals each at the largest table (the rulebook's game is one deal each,
/// RULINGS P12).
pub const MAX_ROUNDS: u32 = 60;

/// Which face-up card of the deal counts as "higher" and starts the Plus stack.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "snake_case")]
#[schema(as = PlusMinusHigherBy)]
pub enum HigherBy {
    /// By rank, ace low (A = 1 … K = 13): RULINGS P2, the default.
    #[default]
    Rank,
    /// By point value (A = 20, 10–K = 10, 2–5 = 5, 6–9 = 0); equal points fall back to rank.
    Points,
}

/// Per-match options. Every field is optional in JSON; missing fields take the defaults of the
/// rulebook and RULINGS §5.6.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(default, rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusOptions)]
pub struct Options {
    /// Rounds in the game. `null` (default) means one per player, so that every player deals
    /// once (rulebook step 8); a smaller number shortens the game, a larger one lengthens it
    /// (at most 60).
    #[schema(example = json!(null), minimum = 1, maximum = 60)]
    pub rounds: Option<u32>,
    /// The seat that deals round 1; the deal moves one seat left each round. Must be below the
    /// number of players.
    #[schema(example = 0)]
    pub first_dealer: Seat,
    /// How the two face-up cards are compared to decide which starts the Plus stack.
    pub higher_by: HigherBy,
    /// When true (default, RULINGS P9) any card may be played on an empty stack; when false an
    /// empty stack takes no card.
    pub empty_stack_accepts_any: bool,
    /// When true (default, RULINGS P10) a player who forfeits still passes a card to the left.
    pub pass_after_forfeit: bool,
    /// When true each player is dealt 4 hidden cards and chooses the 2 to place face up (the
    /// choices are revealed together); when false (default, RULINGS P1) the dealer deals 2 face
    /// up.
    pub face_up_chosen_by_player: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rounds: None,
            first_dealer: 0,
            higher_by: HigherBy::Rank,
            empty_stack_accepts_any: true,
            pass_after_forfeit: true,
            face_up_chosen_by_player: false,
        }
    }
}

impl crate::games::OptionRules for Options {
    fn check(&self, players: usize) -> Result<(), OptionsError> {
        let options = self;
        if let Some(rounds) = options.rounds {
            if rounds == 0 {
                return Err(OptionsError::new("rounds", "a game has at least one round"));
            }
            OptionsError::check_at_most("rounds", rounds.into(), MAX_ROUNDS.into())?;
        }
        OptionsError::check_seat("first_dealer", options.first_dealer, players)?;
        Ok(())
    }
}
