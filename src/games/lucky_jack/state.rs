//! The complete Lucky Jack state, hidden information included, with its phase and pending chance.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The chance outcome play is waiting for, with every possible outcome (the pile's composition).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackPendingChance)]
pub enum PendingChance {
    /// Deal round `round`: `hands` × `cards_per_hand` cards plus one flip, from `pile`.
    Deal {
        /// The round being dealt.
        round: u32,
        /// Number of hands (= players).
        hands: usize,
        /// Cards per hand (7).
        cards_per_hand: usize,
        /// The cards the deal comes from (the whole deck).
        pile: Counts,
    },
    /// `count` cards drawn by `seat` from `pile`.
    Draw {
        /// The drawing seat.
        seat: Seat,
        /// How many cards the outcome must list.
        count: usize,
        /// The draw pile the cards come from.
        pile: Counts,
    },
    /// One card turned up from the freshly reshuffled `pile` by `seat`.
    Flip {
        /// The seat that reshuffled.
        seat: Seat,
        /// The reshuffled draw pile.
        pile: Counts,
    },
}

impl PendingChance {
    /// The cards the outcome comes from.
    pub fn pile(&self) -> &Counts {
        match self {
            PendingChance::Deal { pile, .. }
            | PendingChance::Draw { pile, .. }
            | PendingChance::Flip { pile, .. } => pile,
        }
    }
}

/// Where play stands.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyJackPhase)]
pub enum Phase {
    /// Waiting for the round's deal (chance `deal`). All 84 cards are in the draw pile.
    Deal,
    /// `turn` chooses its action (or, first, "I take it!").
    Turn,
    /// `turn` chose option 4; waiting for the drawn card (chance `draw`, or `flip` after a
    /// reshuffle).
    Drawing,
    /// `turn` holds a pending drawn card: keep it or discard it.
    Drawn,
    /// `turn` owes penalty cards after a lower-symbol discard (chance `draw`/`flip`).
    Penalty,
    /// The game is over.
    Over,
}

/// A drawn card just discarded, which the next seat may take with "I take it!".
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackTakeable)]
pub struct Takeable {
    /// The card (the top of the discard pile).
    pub card: Symbol,
    /// The seat that discarded it.
    pub from: Seat,
    /// The only seat that may take it (the next seat).
    pub by: Seat,
}

/// How a discard related to the discard top.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyJackDiscardOption)]
pub enum DiscardOption {
    /// Option 1: same symbol as the top.
    Same,
    /// Option 2: higher symbol than the top (also any discard on an empty pile).
    Higher,
    /// Option 3: lower symbol than the top (2 penalty cards).
    Lower,
}

/// The complete state, hidden cards included: the document a stateless client holds and posts
/// back.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackState)]
pub struct State {
    /// Number of seats (2–6).
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current round, from 1 (the round being dealt while `phase` is `deal`; the last round once
    /// over).
    pub round: u32,
    /// The seat that started (or will start) the current round.
    pub starter: Seat,
    /// Whose turn it is.
    pub turn: Seat,
    /// Where play stands.
    pub phase: Phase,
    /// Each seat's hand, sorted lowest first, indexed by seat.
    pub hands: Vec<Vec<Symbol>>,
    /// The face-down draw pile as a multiset (its order is decided only when drawing).
    pub draw_pile: Counts,
    /// The face-up discard pile, bottom to top.
    pub discard: Vec<Symbol>,
    /// The card `turn` drew with option 4 and has not yet kept or discarded.
    pub pending: Option<Symbol>,
    /// The discarded drawn card the next seat may take.
    pub takeable: Option<Takeable>,
    /// `turn`'s hand size when its turn (after any "I take it!") began.
    pub turn_start_hand: usize,
    /// Cards `turn` still has to draw (1 for option 4, up to 2 for a penalty), including the
    /// pending chance event.
    pub draw_owed: usize,
    /// Turns completed in this round.
    pub turns_this_round: u32,
    /// Finished rounds.
    #[schema(value_type = Vec<RoundResult>)]
    pub results: Rounds<RoundResult>,
    /// The chance outcome play waits for, if any.
    pub chance: Option<PendingChance>,
}
