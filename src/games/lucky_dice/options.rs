//! The options of Lucky Dice: what a match may change from the rulebook's defaults.

use super::*;
use crate::games::OptionsError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How the game ends (RULINGS 3.5).
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyDiceEndMode)]
pub enum EndMode {
    /// The rulebook game: at the end of the round in which someone turns down their
    /// `coaster_target`-th coaster; everyone who reached it wins together.
    ThreeCoasters,
    /// The rulebook "Tip": play on until a round winner needs a new coaster and the pile is
    /// empty; most face-down coasters wins, ties share.
    UntilPileEmpty,
}

/// Per-match options (RULINGS 3.6). Every field is optional in JSON; missing fields take the
/// defaults of the rulebook and RULINGS.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(default, rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceOptions)]
pub struct Options {
    /// `three_coasters` (default) or `until_pile_empty`.
    pub end_mode: EndMode,
    /// Face-down coasters that win the game in `three_coasters` mode (default 3, at most 50).
    /// Players × target may not exceed the coaster set, so the pile can never run out.
    #[schema(example = 3, minimum = 1, maximum = 50)]
    pub coaster_target: u32,
    /// The coasters in the box (default: RULINGS 3.1's balanced 18). At least one per player,
    /// at most 100; a coaster with the same symbol twice passes that symbol left (D7).
    #[schema(min_items = 2, max_items = 100)]
    pub coaster_set: Vec<Coaster>,
    /// Extra rolls each other player may take after "Stop!" (default 3, at most 10).
    #[schema(example = 3, maximum = 10)]
    pub extra_rolls: u32,
    /// When true (default) "Stop!" is called automatically by the roll that empties a pool; when
    /// false the emptied seat must send `stop`, and dice passed to it meanwhile are its again.
    pub auto_stop: bool,
    /// When true (default) every roll must state the number of dice the seat believes it holds,
    /// and a different number is refused as stale (409). When false the count may be omitted or
    /// wrong; the seat rolls whatever it holds.
    pub strict_roll_count: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            end_mode: EndMode::ThreeCoasters,
            coaster_target: 3,
            coaster_set: balanced_coaster_set(),
            extra_rolls: 3,
            auto_stop: true,
            strict_roll_count: true,
        }
    }
}

impl crate::games::OptionRules for Options {
    fn check(&self, players: usize) -> Result<(), OptionsError> {
        let options = self;
        let set = options.coaster_set.len();
        if set < players || set > MAX_COASTER_SET {
            return Err(OptionsError::beyond(
                "coaster_set",
                MAX_COASTER_SET as u64,
                format!("{set} coasters: every player needs one and at most {MAX_COASTER_SET} fit"),
            ));
        }
        if options.coaster_target == 0 {
            return Err(OptionsError::new(
                "coaster_target",
                "the target must be at least 1 coaster",
            ));
        }
        OptionsError::check_at_most(
            "coaster_target",
            options.coaster_target.into(),
            MAX_COASTER_TARGET.into(),
        )?;
        if options.end_mode == EndMode::ThreeCoasters
            && players * options.coaster_target as usize > set
        {
            return Err(OptionsError::new(
                "coaster_target",
                format!(
                    "{players} players × {} coasters exceeds the {set} coasters: the pile could run out",
                    options.coaster_target
                ),
            ));
        }
        if options.extra_rolls > MAX_EXTRA_ROLLS {
            return Err(OptionsError::beyond(
                "extra_rolls",
                MAX_EXTRA_ROLLS.into(),
                format!(
                    "at most {MAX_EXTRA_ROLLS} extra rolls, not {}",
                    options.extra_rolls
                ),
            ));
        }
        Ok(())
    }
}
