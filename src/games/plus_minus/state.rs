//! The complete Plus & Minus state, hidden information included, with its phase and pending chance.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The chance outcome play is waiting for, with every possible outcome (the pile's cards).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusPendingChance)]
pub enum PendingChance {
    /// Deal round `round` from the whole deck.
    Deal {
        /// The round being dealt.
        round: u32,
        /// Number of seats dealt to.
        hands: usize,
        /// Hidden cards per seat (2, or 4 when players choose their face-up cards).
        hand_cards: usize,
        /// Face-up cards per seat (2, or 0 when players choose them).
        face_up_cards: usize,
        /// The cards the deal comes from (the whole deck), sorted.
        pile: Vec<Card>,
    },
    /// `count` cards drawn by `seat` from the draw stack `pile`.
    Draw {
        /// The drawing seat.
        seat: Seat,
        /// How many cards the outcome must list (fewer than asked when the stack is short).
        count: usize,
        /// Turn-start draw or a 5's extra cards.
        reason: DrawReason,
        /// The draw stack the cards come from, sorted.
        pile: Vec<Card>,
    },
}

/// Where play stands.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = PlusMinusPhase)]
pub enum Phase {
    /// Waiting for the round's deal (chance `deal`); all 52 cards are in the draw stack.
    Deal,
    /// Option `face_up_chosen_by_player`: seats that have not yet chosen their face-up cards.
    Choose,
    /// `turn` is drawing (chance `draw`).
    Drawing,
    /// `turn` must play (`plays_remaining` plays left) or, when no card fits anywhere, forfeit.
    Play,
    /// `turn` must pass a card to the left.
    Pass,
    /// The game is over.
    Over,
}

/// A seat's two stacks, each listed bottom to top.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusSeatStacks)]
pub struct SeatStacks {
    /// The Plus stack, bottom to top.
    pub plus: Vec<Card>,
    /// The Minus stack, bottom to top.
    pub minus: Vec<Card>,
}

/// The complete state, hidden cards included: the document a stateless client holds and posts
/// back.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusState)]
pub struct State {
    /// Number of seats (3–6).
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current round, from 1 (the round being dealt while `phase` is `deal`; the last round once
    /// over).
    pub round: u32,
    /// The dealer of the current round.
    pub dealer: Seat,
    /// Whose turn it is (during `choose`, the seat on the dealer's left, who will play first).
    pub turn: Seat,
    /// Where play stands.
    pub phase: Phase,
    /// Each seat's hand, sorted, indexed by seat.
    pub hands: Vec<Vec<Card>>,
    /// Each seat's Plus and Minus stacks, indexed by seat.
    pub stacks: Vec<SeatStacks>,
    /// The face-down draw stack as a sorted multiset (its order is decided only when drawing).
    pub draw_stack: Vec<Card>,
    /// Plays `turn` still owes this turn (1 at turn start, +2 per 5 played).
    pub plays_remaining: u32,
    /// Turns completed in this round.
    pub turns_this_round: u32,
    /// Finished rounds.
    #[schema(value_type = Vec<RoundResult>)]
    pub results: Rounds<RoundResult>,
    /// The chance outcome play waits for, if any.
    pub chance: Option<PendingChance>,
}

impl PendingChance {
    /// The cards the outcome comes from.
    pub fn pile(&self) -> &Vec<Card> {
        match self {
            PendingChance::Deal { pile, .. } | PendingChance::Draw { pile, .. } => pile,
        }
    }

    /// Cards the outcome lists in all.
    pub fn count(&self) -> usize {
        match self {
            PendingChance::Deal {
                hands,
                hand_cards,
                face_up_cards,
                ..
            } => hands * (hand_cards + face_up_cards),
            PendingChance::Draw { count, .. } => *count,
        }
    }
}
