//! What changes a Lucky Luau state: the moves seats propose, the chance outcomes that resolve
//! pending chance, and the events both produce.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A move proposed by a seat.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(examples(
    json!({"type": "draw_face_down"}),
    json!({"type": "draw_face_up", "card": "rainbow"}),
    json!({"type": "string"}),
    json!({"type": "string", "spacer": 3}),
    json!({"type": "toss"}),
    json!({"type": "place_spacer"}),
    json!({"type": "place_hook"}),
    json!({"type": "knife", "index": 4}),
    json!({"type": "finish", "guests": [[0, 2], [1, 0], [0, 0]], "rainbows": ["blue"]})
))]
#[schema(as = LuckyLuauMove)]
pub enum Move {
    /// On your turn: draw a face-down card from the pile (a `draw` chance outcome says which).
    DrawFaceDown,
    /// On your turn: take a face-up card someone tossed back; it must be strung.
    DrawFaceUp {
        /// The face-up card taken.
        card: Card,
    },
    /// String the drawn card: at the right end of your lei, or onto your unfilled Spacer (the
    /// Spacer leaves the game). The turn ends.
    String {
        /// Index (from 0, left to right) of your unfilled Spacer to fill; omit to append at
        /// the right end.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spacer: Option<usize>,
    },
    /// Toss the face-down card you drew back to the pile face up. The turn ends.
    Toss,
    /// Tool, any player's turn: append your Spacer at the right end of your lei.
    PlaceSpacer,
    /// Tool, any player's turn: append your Fish Hook at the right end of your lei.
    PlaceHook,
    /// Tool, any player's turn or the end phase: cut one slot from your lei. It leaves the game
    /// and the lei closes up.
    Knife {
        /// Index (from 0, left to right) of the slot to cut.
        index: usize,
    },
    /// End phase: no more Knife for you. Report your Guest bonuses and, optionally, your
    /// Rainbows' colours. When every seat has finished the game is scored.
    Finish {
        /// Per Guest (in the order they will be flipped), `[side A, side B]` points for you.
        /// Omitted: no bonus.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<Vec<GuestBonusSchema>>, example = json!([[0, 2], [1, 0], [0, 0]]))]
        guests: Option<Vec<GuestBonus>>,
        /// One colour per Rainbow in your lei, left to right. Omitted: the referee picks the best
        /// (`auto`) or they count as no colour (`declared`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rainbows: Option<Vec<Colour>>,
    },
}

/// A chance outcome: which card a face-down draw turned up.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"kind": "draw", "card": "rainbow"}))]
#[schema(as = LuckyLuauChance)]
pub enum Chance {
    /// The card the drawing seat picked up from the face-down pile.
    Draw {
        /// The card.
        card: Card,
    },
}

/// The kind of a chance event.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyLuauChanceKind)]
pub enum ChanceKind {
    /// A face-down card drawn from the pile.
    Draw,
}

/// What happened.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauEvent)]
pub enum Event {
    /// `seat` reaches for a face-down card (a `draw` chance outcome follows).
    DrawingFaceDown {
        /// The drawing seat.
        seat: Seat,
    },
    /// `seat` drew a card.
    Drew {
        /// The drawing seat.
        seat: Seat,
        /// Whether it was a face-up card.
        face_up: bool,
        /// The card, for viewers who may see it (everyone when face up).
        card: Option<Card>,
    },
    /// `seat` strung `card` at `index` of its lei.
    Strung {
        /// The seat.
        seat: Seat,
        /// The card.
        card: Card,
        /// Its index in the lei, from 0.
        index: usize,
        /// Whether it filled the Spacer there.
        filled_spacer: bool,
    },
    /// `seat` tossed `card` back face up.
    Tossed {
        /// The seat.
        seat: Seat,
        /// The card, now face up in the centre.
        card: Card,
    },
    /// `seat` placed a tool (`hook` or `spacer`) at `index`.
    Placed {
        /// The seat.
        seat: Seat,
        /// `hook` or `spacer`.
        tool: Slot,
        /// Its index in the lei, from 0.
        index: usize,
    },
    /// `seat` cut `slot` from `index` of its lei with the Knife.
    Cut {
        /// The seat.
        seat: Seat,
        /// The index cut.
        index: usize,
        /// What was cut (out of the game).
        slot: Slot,
    },
    /// The turn passed to `seat`.
    TurnStarted {
        /// The seat to play.
        seat: Seat,
    },
    /// The centre is empty: the end phase begins (Knives, then finish).
    CentreEmpty,
    /// `seat` finished.
    Finished {
        /// The seat.
        seat: Seat,
    },
    /// The game ended.
    GameEnded {
        /// The winners (after the Guest tiebreak; several when still tied).
        winners: Vec<Seat>,
        /// Final totals per seat.
        totals: Vec<i64>,
    },
}

/// A player's tool.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyLuauTool)]
pub enum Tool {
    /// Cuts one slot.
    Knife,
    /// The Fish Hook.
    Hook,
    /// The Spacer.
    Spacer,
}
