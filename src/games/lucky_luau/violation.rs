//! Why a Lucky Luau move or chance outcome is refused: one variant per rule, its serde tag is the
//! code clients switch on.

use super::*;
use crate::games::kit::refusal::violations;
pub use crate::games::kit::refusal::Common;

violations! {
    /// Why a move, chance outcome or tally is rejected.
    pub enum LuckyLuauViolation: Common<DrawnBy> {
        /// Drawing, stringing and tossing happen on your own turn.
        #[error("it is seat {turn}'s turn, not seat {seat}'s")]
        "not_your_turn" NotYourTurn {
            /// The seat that tried.
            seat: Seat,
            /// Whose turn it is.
            turn: Seat,
        },
        /// A drawn card is pending: string it (or toss it) first.
        #[error("a drawn card is pending: string it or toss it")]
        "drawn_card_pending" DrawnCardPending,
        /// No drawn card is pending.
        #[error("no drawn card is pending")]
        "no_drawn_card" NoDrawnCard,
        /// The face-up card is not in the centre.
        #[error("no face-up {card:?} in the centre")]
        "card_not_available" CardNotAvailable {
            /// The card named.
            card: Card,
        },
        /// The face-down pile is empty.
        #[error("the face-down pile is empty")]
        "pile_empty" PileEmpty,
        /// A card taken face up must be strung.
        #[error("a face-up card must be strung, not tossed back")]
        "cannot_toss_face_up" CannotTossFaceUp,
        /// The index is not an unfilled Spacer of your lei.
        #[error("slot {index} of your lei is not an unfilled Spacer")]
        "not_a_spacer" NotASpacer {
            /// The index named.
            index: usize,
        },
        /// The tool was already used.
        #[error("your {tool:?} was already used")]
        "tool_already_used" ToolAlreadyUsed {
            /// `knife`, `hook` or `spacer`.
            tool: Tool,
        },
        /// Tools cannot be used between your own draw and string.
        #[error("tools cannot be used between your draw and your string")]
        "tool_not_during_draw" ToolNotDuringDraw,
        /// Only the Knife may be used in the end phase.
        #[error("only the Knife may be used once the centre is empty")]
        "tool_not_in_end_phase" ToolNotInEndPhase,
        /// The lei has no slot at that index.
        #[error("your lei has no slot {index} (it has {len})")]
        "no_such_slot" NoSuchSlot {
            /// The index named.
            index: usize,
            /// Slots in the lei.
            len: usize,
        },
        /// Drawing and stringing are over: the centre is empty.
        #[error("the centre is empty: use your Knife or finish")]
        "end_phase" EndPhase,
        /// Finishing happens in the end phase.
        #[error("finish only once the centre is empty")]
        "not_end_phase" NotEndPhase,
        /// The seat already finished.
        #[error("seat {seat} already finished")]
        "already_finished" AlreadyFinished {
            /// The seat.
            seat: Seat,
        },
        /// Guest bonuses are given for each of the 3 Guests.
        #[error("expected bonuses for {expected} Guests, got {got}")]
        "wrong_guest_count" WrongGuestCount {
            /// Guests in play.
            expected: usize,
            /// Bonuses given.
            got: usize,
        },
        /// A Guest bonus beyond any plausible card text.
        #[error("a Guest bonus of {points} is out of range (-1000 to 1000)")]
        "guest_bonus_out_of_range" GuestBonusOutOfRange {
            /// The bonus given.
            points: i64,
        },
        /// Declared colours must be one per Rainbow on the lei.
        #[error("the lei has {expected} Rainbows, {got} colours were declared")]
        "wrong_rainbow_count" WrongRainbowCount {
            /// Rainbows on the lei.
            expected: usize,
            /// Colours declared.
            got: usize,
        },
        /// A Rainbow may only act as a plain colour next to it.
        #[error("the Rainbow at position {position} is not next to a {colour:?} flower it may copy")]
        "rainbow_colour_not_adjacent" RainbowColourNotAdjacent {
            /// Its position, from 1.
            position: usize,
            /// The declared colour.
            colour: Colour,
        },
        /// The reported card is not (or no longer) in the face-down pile.
        #[error("the face-down pile holds no (more) {card:?} cards")]
        "card_not_in_pile" CardNotInPile {
            /// The card reported.
            card: Card,
        },
        /// The tally has a lei count different from the players.
        #[error("expected {expected} leis, got {got}")]
        "wrong_lei_count" WrongLeiCount {
            /// Players.
            expected: usize,
            /// Leis given.
            got: usize,
        },
        /// A word of a typed lei is not a card.
        #[error("lei {seat}: {word:?} is not a card word")]
        "unknown_card_word" UnknownCardWord {
            /// The seat (position in `leis`).
            seat: Seat,
            /// The word.
            word: String,
        },
        /// More copies of a card than the game has.
        #[error("{count} {card:?} cards on the table, the game has {copies}")]
        "too_many_cards" TooManyCards {
            /// The card.
            card: Card,
            /// Copies described.
            count: u32,
            /// Copies in the game.
            copies: u32,
        },
        /// One player has one Knife, one Fish Hook and one Spacer.
        #[error("lei {seat} uses more than one {tool:?}")]
        "tool_used_twice" ToolUsedTwice {
            /// The seat.
            seat: Seat,
            /// The tool.
            tool: Tool,
        },
    }
}

/// The pending chance of Lucky Luau, the face-down card a seat drew:
/// `{"code": "chance_pending", "seat": 1}`.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct DrawnBy {
    /// The drawing seat.
    pub seat: Seat,
}

impl std::fmt::Display for DrawnBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "waiting for the face-down card seat {} drew", self.seat)
    }
}
