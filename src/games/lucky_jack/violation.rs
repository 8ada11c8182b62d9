//! Why a Lucky Jack move or chance outcome is refused: one variant per rule, its serde tag is the
//! code clients switch on.

use super::*;
use serde::Serialize;

/// Why a move or chance outcome is rejected.
#[derive(Serialize, thiserror::Error, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum LuckyJackViolation {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Play waits for a chance outcome.
    #[error("waiting for a chance outcome ({kind:?})")]
    ChancePending {
        /// What is awaited.
        kind: ChanceKind,
    },
    /// A jackpot is 3 or 4 identical cards.
    #[error("a jackpot is 3 or 4 identical cards, not {size}")]
    InvalidJackpotSize {
        /// The size given.
        size: usize,
    },
    /// The seat does not exist.
    #[error("seat {seat} does not exist with {players} players")]
    UnknownSeat {
        /// The seat named.
        seat: Seat,
        /// Seats at the table.
        players: usize,
    },
    /// It is another seat's turn.
    #[error("it is seat {turn}'s turn, not seat {seat}'s")]
    NotYourTurn {
        /// The seat that tried to move.
        seat: Seat,
        /// Whose turn it is.
        turn: Seat,
    },
    /// The card is not in the hand.
    #[error("no {card:?} card in hand")]
    CardNotInHand {
        /// The card named.
        card: Symbol,
    },
    /// Discarding from the hand needs a bigger hand at turn start.
    #[error(
        "a hand of {hand_size} cannot discard: at least {minimum} cards are needed; draw and keep"
    )]
    HandMinimum {
        /// Hand size at turn start.
        hand_size: usize,
        /// Minimum to discard.
        minimum: usize,
    },
    /// With 3 cards at turn start the drawn card must be kept.
    #[error("a hand of {hand_size} must keep the drawn card")]
    MustKeepDrawn {
        /// Hand size at turn start.
        hand_size: usize,
    },
    /// A drawn card is pending: keep it or discard it.
    #[error("a drawn card is pending: keep it or discard it")]
    DrawnCardPending,
    /// No drawn card is pending.
    #[error("no drawn card is pending")]
    NoDrawnCard,
    /// No discarded drawn card can be taken.
    #[error("there is no discarded drawn card to take")]
    NothingToTake,
    /// Only the next seat may take the discarded drawn card.
    #[error("only seat {next} may take the card")]
    NotNextPlayer {
        /// The seat that tried.
        seat: Seat,
        /// The seat that may take it.
        next: Seat,
    },
    /// "I take it!" must be the first action of the turn.
    #[error("\"I take it!\" must come before any other action")]
    TakeTooLate,
    /// A jackpot was announced but the discard does not leave one.
    #[error("discarding {card:?} does not leave a jackpot")]
    NotAJackpot {
        /// The discarded card.
        card: Symbol,
    },
    /// A chance outcome was reported but none is awaited.
    #[error("no chance outcome is awaited")]
    NoChancePending,
    /// A chance outcome of the wrong kind was reported.
    #[error("expected a {expected:?} outcome, got {got:?}")]
    UnexpectedChanceKind {
        /// The kind awaited.
        expected: ChanceKind,
        /// The kind reported.
        got: ChanceKind,
    },
    /// A deal with the wrong number of hands.
    #[error("expected {expected} hands, got {got}")]
    WrongHandCount {
        /// Players.
        expected: usize,
        /// Hands reported.
        got: usize,
    },
    /// A hand or draw with the wrong number of cards.
    #[error("expected {expected} cards, got {got}")]
    WrongCardCount {
        /// Cards awaited.
        expected: usize,
        /// Cards reported.
        got: usize,
    },
    /// The outcome uses a card the pile does not (or no longer) hold.
    #[error("the pile holds no (more) {card:?} cards")]
    CardNotInPile {
        /// The first unavailable card.
        card: Symbol,
    },
}

impl crate::games::Violation for LuckyJackViolation {}

crate::games::kit::deal::mismatch_is_violation!(LuckyJackViolation, Symbol);
