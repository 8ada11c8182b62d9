//! How Lucky Luau is scored: the itemised score of a state, round results, and the score sheet's
//! tally of a round.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How one slot of a lei scored.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauSlotScore)]
pub struct SlotScore {
    /// Position, from 1 (left end), as a score sheet numbers it.
    pub position: usize,
    /// What is there.
    pub slot: Slot,
    /// The colour a Rainbow acts as (none for other slots or an unmatched Rainbow).
    pub acts_as: Option<Colour>,
    /// Points scored.
    pub points: i64,
    /// Why, in words.
    pub reason: String,
}

/// One seat's lei scored, with Guests and the tiebreak.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauSeatScore)]
pub struct SeatScore {
    /// The seat.
    pub seat: Seat,
    /// The player's name, when the tally gave one.
    pub player: Option<String>,
    /// Each slot, left to right.
    pub slots: Vec<SlotScore>,
    /// What the Knife cut (scores nothing).
    pub cut: Option<Slot>,
    /// Sum of the slot points (the Kukui set included).
    pub lei_points: i64,
    /// Guest bonuses with every Guest on side A.
    pub guest_points: i64,
    /// Lei points + Guest points.
    pub total: i64,
    /// Tiebreak totals: after flipping Guest 1, Guests 1–2, Guests 1–3 to side B.
    pub tiebreak: Vec<i64>,
    /// The breakdown line by line, for people.
    pub lines: Vec<String>,
}

/// The itemised score of a game (or of a tallied table).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauScore)]
pub struct Score {
    /// Each seat's lei, scored.
    pub seats: Vec<SeatScore>,
    /// Total per seat.
    pub totals: Vec<i64>,
    /// Seats ranked first after the Guest tiebreak (several on a tie that survives every flip).
    /// Final only once the game is over.
    pub winners: Vec<Seat>,
}

/// A lei as typed by hand: one string of card words separated by spaces or commas, or a list of
/// words.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(untagged)]
#[schema(as = LuckyLuauLeiText)]
pub enum LeiText {
    /// `"blue red purple blue cut:yellow hook kukui blue rainbow"`.
    Words(String),
    /// `["blue", "red", "purple"]`.
    List(Vec<String>),
}

/// One player's lei on the score sheet.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauTallyLei)]
pub struct TallyLei {
    /// The player's name (a label only; the seat is the position in `leis`).
    #[serde(default)]
    pub player: Option<String>,
    /// The final lei left to right. Words: `yellow red blue pink purple orange green rainbow
    /// ti mega kukui hook spacer`, aliases `ti_leaf leaf mega_leaf kukui_nut nut fish_hook`;
    /// `rainbow:blue` declares a Rainbow's colour; `cut:yellow` (or `knife:yellow`) records
    /// the card the Knife removed (it is not on the lei).
    pub lei: LeiText,
    /// Guest bonuses, `[side A, side B]` for each of the 3 Guests in flip order. Omitted: none.
    #[serde(default)]
    #[schema(value_type = Option<Vec<GuestBonusSchema>>, example = json!([[0, 2], [1, 0], [0, 0]]))]
    pub guests: Option<Vec<GuestBonus>>,
}

/// A finished game as people at the table describe it: every player's lei.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"leis": [
    {"player": "Ann", "lei": "blue red purple blue cut:yellow hook kukui blue rainbow", "guests": [[0, 2], [1, 0], [0, 0]]},
    {"player": "Ben", "lei": ["yellow", "green", "blue", "ti", "mega", "spacer"]}
]}))]
#[schema(as = LuckyLuauTally)]
pub struct Tally {
    /// One lei per seat, in seat order.
    pub leis: Vec<TallyLei>,
}

/// A lei score ranks by totals, ties broken by the rulebook's "Tiebreaker".
impl crate::games::Ranked for Score {
    fn points(&self) -> Vec<i64> {
        self.totals.clone()
    }

    fn standings(&self, over: bool) -> crate::games::Standings {
        scoring::rank(&self.seats, over)
    }
}
