//! The complete Lucky Luau state, hidden information included, with its phase and pending chance.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The chance outcome play is waiting for, with every possible outcome.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauPendingChance)]
pub enum PendingChance {
    /// `seat` draws one card from the face-down `pile`.
    Draw {
        /// The drawing seat.
        seat: Seat,
        /// The face-down pile the card comes from.
        pile: Counts,
    },
}

/// Where play stands.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyLuauPhase)]
pub enum Phase {
    /// Turns are played while the centre holds cards.
    Play,
    /// The centre is empty: each seat may still use its Knife, then finishes.
    End,
    /// Every seat finished; the leis are scored.
    Over,
}

/// The card the current player drew and has not yet strung or tossed.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauPending)]
pub struct Pending {
    /// The card.
    pub card: Card,
    /// Whether it was taken face up (then it must be strung).
    pub face_up: bool,
}

/// One seat's lei, tools and end-phase report. All of it is public.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauPlayer)]
pub struct Player {
    /// The lei, left to right.
    pub lei: Vec<Slot>,
    /// Whether the Knife has been used.
    pub knife_used: bool,
    /// Whether the Fish Hook has been placed.
    pub hook_used: bool,
    /// Whether the Spacer has been placed.
    pub spacer_used: bool,
    /// What the Knife cut (out of the game).
    pub cut: Option<Slot>,
    /// Whether the seat finished in the end phase.
    pub finished: bool,
    /// Guest bonuses reported at finish, `[side A, side B]` per Guest (empty before).
    #[schema(value_type = Vec<GuestBonusSchema>)]
    pub guests: Vec<GuestBonus>,
    /// Rainbow colours declared at finish, one per Rainbow left to right (empty: none).
    pub rainbows: Vec<Colour>,
}

/// The complete state, hidden cards included: the document a stateless client holds and posts
/// back.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauState)]
pub struct State {
    /// Number of seats (2–6).
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Where play stands.
    pub phase: Phase,
    /// Whose turn it is (in play).
    pub turn: Seat,
    /// The face-down pile as a multiset (which card is picked is decided only when drawn).
    pub face_down: Counts,
    /// Cards tossed back face up, in the centre.
    pub face_up: Counts,
    /// Each seat's lei and tools, indexed by seat.
    pub seats: Vec<Player>,
    /// The card `turn` drew and has not strung or tossed.
    pub pending: Option<Pending>,
    /// The chance outcome play waits for, if any.
    pub chance: Option<PendingChance>,
}
