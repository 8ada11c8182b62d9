//! Why a Lucky Jack move or chance outcome is refused: one variant per rule, its serde tag is the
//! code clients switch on.

use super::*;
use crate::games::kit::refusal::violations;
pub use crate::games::kit::refusal::{Awaited, Common};

violations! {
    /// Why a move or chance outcome is rejected.
    pub enum LuckyJackViolation: Common<Awaited<ChanceKind>> {
        unexpected = ChanceKind,
        deals = Symbol("expected {expected} hands, got {got}", "the pile holds no (more) {card:?} cards"),
        /// A jackpot is 3 or 4 identical cards.
        #[error("a jackpot is 3 or 4 identical cards, not {size}")]
        "invalid_jackpot_size" InvalidJackpotSize {
            /// The size given.
            size: usize,
        },
        /// It is another seat's turn.
        #[error("it is seat {turn}'s turn, not seat {seat}'s")]
        "not_your_turn" NotYourTurn {
            /// The seat that tried to move.
            seat: Seat,
            /// Whose turn it is.
            turn: Seat,
        },
        /// The card is not in the hand.
        #[error("no {card:?} card in hand")]
        "card_not_in_hand" CardNotInHand {
            /// The card named.
            card: Symbol,
        },
        /// Discarding from the hand needs a bigger hand at turn start.
        #[error(
            "a hand of {hand_size} cannot discard: at least {minimum} cards are needed; draw and keep"
        )]
        "hand_minimum" HandMinimum {
            /// Hand size at turn start.
            hand_size: usize,
            /// Minimum to discard.
            minimum: usize,
        },
        /// With 3 cards at turn start the drawn card must be kept.
        #[error("a hand of {hand_size} must keep the drawn card")]
        "must_keep_drawn" MustKeepDrawn {
            /// Hand size at turn start.
            hand_size: usize,
        },
        /// A drawn card is pending: keep it or discard it.
        #[error("a drawn card is pending: keep it or discard it")]
        "drawn_card_pending" DrawnCardPending,
        /// No drawn card is pending.
        #[error("no drawn card is pending")]
        "no_drawn_card" NoDrawnCard,
        /// No discarded drawn card can be taken.
        #[error("there is no discarded drawn card to take")]
        "nothing_to_take" NothingToTake,
        /// Only the next seat may take the discarded drawn card.
        #[error("only seat {next} may take the card")]
        "not_next_player" NotNextPlayer {
            /// The seat that tried.
            seat: Seat,
            /// The seat that may take it.
            next: Seat,
        },
        /// "I take it!" must be the first action of the turn.
        #[error("\"I take it!\" must come before any other action")]
        "take_too_late" TakeTooLate,
        /// A jackpot was announced but the discard does not leave one.
        #[error("discarding {card:?} does not leave a jackpot")]
        "not_a_jackpot" NotAJackpot {
            /// The discarded card.
            card: Symbol,
        },
    }
}
