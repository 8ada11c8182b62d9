//! The options of Lucky Luau: what a match may change from the rulebook's defaults.

use super::cards::Colour;
use crate::games::OptionsError;
use crate::games::Seat;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Largest value accepted for `pink_value` and `ti_value`.
pub const MAX_CARD_VALUE: i64 = 20;

/// Guests drawn for a game (rulebook setup: "3 Guest cards are drawn at random").
pub const GUESTS: usize = 3;

/// A Guest bonus for one player: `[side A, side B]` points. The rulebook does not print the
/// Guests' texts, so the table supplies what each side is worth to each player (RULINGS L12).
pub type GuestBonus = [i64; 2];

/// `[side A, side B]`: the points one Guest's two sides are worth to a player. (The schema of
/// [`GuestBonus`]; utoipa cannot document an array alias's length.)
pub struct GuestBonusSchema;

impl utoipa::PartialSchema for GuestBonusSchema {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::ArrayBuilder;
        ArrayBuilder::new()
            .items(<i64 as utoipa::PartialSchema>::schema())
            .min_items(Some(2))
            .max_items(Some(2))
            .description(Some("`[side A, side B]` points of one Guest"))
            .into()
    }
}

impl ToSchema for GuestBonusSchema {
    fn name() -> std::borrow::Cow<'static, str> {
        "LuckyLuauGuestBonus".into()
    }
}

/// How the Fish Hook's "off by 1" is read (RULINGS L5).
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyLuauHookRule)]
pub enum HookRule {
    /// 5 points only when the slots left and right differ by exactly 1 (the rulebook's
    /// "5 on the left, 6 on the right").
    CountDiff1,
    /// 5 points when the hook is within one position of the centre: the counts differ by 1 or 2
    /// (in an 11-slot lei, 4 left / 6 right scores 5).
    WithinOnePosition,
}

/// How a Rainbow Flower gets its colour (RULINGS 4.5).
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyLuauRainbowAssignment)]
pub enum RainbowAssignment {
    /// The referee picks the colours that maximise the player's score, unless declared.
    Auto,
    /// Only declared colours count: an undeclared Rainbow acts as no colour and scores 0.
    Declared,
}

/// Per-match options. Every field is optional in JSON; missing fields take the defaults of the
/// rulebook and RULINGS §4.8 (the inferred values of §4.6 included).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(default, rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauOptions)]
pub struct Options {
    /// Value of a Pink Flower (INFERRED, RULINGS 4.6: 9 − copies = 5). 0–20.
    #[schema(example = 5, minimum = 0, maximum = 20)]
    pub pink_value: i64,
    /// Value of a Ti Leaf next to a leaf (INFERRED, RULINGS 4.6: 9 − copies = 1). 0–20.
    #[schema(example = 1, minimum = 0, maximum = 20)]
    pub ti_value: i64,
    /// The two plain colours an Orange Flower is made of (INFERRED: red and yellow). Two
    /// different colours.
    #[schema(schema_with = orange_colours_schema)]
    pub orange_colours: [Colour; 2],
    /// How the Fish Hook's "off by 1" is read.
    pub hook_off_by_one: HookRule,
    /// Whether Rainbow colours are chosen by the referee (`auto`) or only declared.
    pub rainbow_assignment: RainbowAssignment,
    /// When true a Rainbow may also take the colour of an adjacent Rainbow that itself acts as
    /// the colour of a plain flower next to it (RULINGS L4 says no: default false).
    pub rainbow_chain: bool,
    /// Whether a rare flower provides its colours to an adjacent rare flower (RULINGS L3: yes).
    pub rare_provides_to_rare: bool,
    /// Whether the tools of absent players go into the pile. Only `false` (RULINGS L9, back to
    /// the box) is supported: the rulebook says nothing about drawing a tool.
    #[schema(schema_with = unused_tools_schema)]
    pub unused_tools_in_pile: bool,
    /// The seat that plays first (the rulebook picks it with the reference cards). Below the
    /// number of players.
    #[schema(example = 0)]
    pub first_player: Seat,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            pink_value: 5,
            ti_value: 1,
            orange_colours: [Colour::Red, Colour::Yellow],
            hook_off_by_one: HookRule::CountDiff1,
            rainbow_assignment: RainbowAssignment::Auto,
            rainbow_chain: false,
            rare_provides_to_rare: true,
            unused_tools_in_pile: false,
            first_player: 0,
        }
    }
}

fn orange_colours_schema() -> utoipa::openapi::schema::ArrayBuilder {
    let colour = utoipa::openapi::Ref::from_schema_name("LuckyLuauColour");
    crate::games::kit::schema::distinct(colour.into(), 2)
        .description(Some("The two different colours of the orange rare flower."))
        .examples([serde_json::json!(["red", "yellow"])])
}

fn unused_tools_schema() -> utoipa::openapi::schema::ObjectBuilder {
    crate::games::kit::schema::only_bool(false).description(Some(
        "Whether the tools of absent players go into the pile: only `false` (RULINGS L9).",
    ))
}

impl crate::games::OptionRules for Options {
    fn check(&self, players: usize) -> Result<(), OptionsError> {
        let options = self;
        for (option, value) in [
            ("pink_value", options.pink_value),
            ("ti_value", options.ti_value),
        ] {
            if !(0..=MAX_CARD_VALUE).contains(&value) {
                return Err(OptionsError::beyond(
                    option,
                    MAX_CARD_VALUE as u64,
                    format!("a card value is 0 to {MAX_CARD_VALUE}, not {value}"),
                ));
            }
        }
        if options.orange_colours[0] == options.orange_colours[1] {
            return Err(OptionsError::new(
                "orange_colours",
                "a rare flower is made of two different colours",
            ));
        }
        if options.unused_tools_in_pile {
            return Err(OptionsError::new(
                "unused_tools_in_pile",
                "only false is supported: the rulebook gives no rule for drawing a tool",
            ));
        }
        OptionsError::check_seat("first_player", options.first_player, players)?;
        Ok(())
    }
}
