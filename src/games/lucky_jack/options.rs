//! The options of Lucky Jack: what a match may change from the rulebook's defaults.

use crate::games::OptionsError;
use crate::games::Seat;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Largest `max_turns_per_round`: a cap is there to end a round that would not end, and a real
/// round takes a few dozen turns (RULINGS J12 leaves the cap's value to the table).
pub const MAX_TURNS_PER_ROUND: u32 = 1_000;

/// Per-match options. Every field is optional in JSON; missing fields take the defaults of the
/// rulebook and RULINGS §2.8.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(default, rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackOptions)]
pub struct Options {
    /// Rounds in the game: 3 or 5.
    #[schema(schema_with = rounds_schema)]
    pub rounds: u32,
    /// The seat that deals round 1; the seat on its left starts round 1. Must be below the
    /// number of players.
    #[schema(example = 0)]
    pub dealer: Seat,
    /// When true, taking a discarded drawn card ("I take it!") is the taker's whole turn.
    pub i_take_it_ends_turn: bool,
    /// When true, discarding the drawn card is a regular discard: a lower symbol than the top
    /// costs 2 penalty cards, a same-or-higher symbol is checked for a jackpot.
    pub drawn_discard_follows_symbol_rule: bool,
    /// When true, a lower-symbol discard that leaves a jackpot wins before the 2 penalty cards
    /// are drawn.
    pub lower_discard_can_win: bool,
    /// When true (default) a jackpot is declared automatically; when false it counts only if
    /// the discard move sets `jackpot: true`.
    pub jackpot_auto_declare: bool,
    /// When true (default) the starter, after flipping the first discard, plays first; when
    /// false the seat on the starter's left does.
    pub starter_plays_after_flip: bool,
    /// Safety cap: a round that reaches this many completed turns without a jackpot ends with
    /// nobody scoring. `null` (default) means no cap. 1 to 1 000.
    #[schema(example = json!(null), minimum = 1, maximum = 1000)]
    pub max_turns_per_round: Option<u32>,
}

fn rounds_schema() -> utoipa::openapi::schema::ObjectBuilder {
    crate::games::kit::schema::integer_in(&[3, 5])
        .description(Some("Rounds in the game: 3 or 5."))
        .examples([3])
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rounds: 3,
            dealer: 0,
            i_take_it_ends_turn: false,
            drawn_discard_follows_symbol_rule: false,
            lower_discard_can_win: false,
            jackpot_auto_declare: true,
            starter_plays_after_flip: true,
            max_turns_per_round: None,
        }
    }
}

impl crate::games::OptionRules for Options {
    fn check(&self, players: usize) -> Result<(), OptionsError> {
        let options = self;
        if options.rounds != 3 && options.rounds != 5 {
            let detail = format!("a game has 3 or 5 rounds, not {}", options.rounds);
            return Err(if options.rounds > 5 {
                OptionsError::beyond("rounds", 5, detail)
            } else {
                OptionsError::new("rounds", detail)
            });
        }
        OptionsError::check_seat("dealer", options.dealer, players)?;
        if let Some(cap) = options.max_turns_per_round {
            if cap == 0 {
                return Err(OptionsError::new(
                    "max_turns_per_round",
                    "the cap must allow at least one turn",
                ));
            }
            OptionsError::check_at_most(
                "max_turns_per_round",
                cap.into(),
                MAX_TURNS_PER_ROUND.into(),
            )?;
        }
        Ok(())
    }
}
