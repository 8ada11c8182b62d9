//! Why a Lucky Dice move or chance outcome is refused: one variant per rule, its serde tag is the
//! code clients switch on.

use super::*;
use crate::games::kit::refusal::violations;
pub use crate::games::kit::refusal::{Awaited, Common};

violations! {
    /// Why a move, chance outcome or score sheet is rejected.
    pub enum LuckyDiceViolation: Common<Awaited<ChanceKind>> {
        // A roll against a dice count or a phase that changed since the client looked.
        stale = LuckyDiceViolation::WrongDiceCount { .. }
            | LuckyDiceViolation::StopPhase { .. }
            | LuckyDiceViolation::NotInStopPhase,
        unexpected = ChanceKind,
        /// The roll states a different number of dice than the seat holds: the client's view is out
        /// of date (dice were passed to it, or it passed some).
        #[error("seat {seat} holds {held} dice, not {claimed}: look again before rolling")]
        "wrong_dice_count" WrongDiceCount {
            /// The roller.
            seat: Seat,
            /// Dice the roll claimed.
            claimed: u32,
            /// Dice the seat holds.
            held: u32,
        },
        /// With `strict_roll_count` a roll must state its number of dice.
        #[error("state the number of dice you roll in `dice`")]
        "dice_count_required" DiceCountRequired,
        /// The seat holds no dice to roll.
        #[error("seat {seat} holds no dice")]
        "no_dice" NoDice {
            /// The seat.
            seat: Seat,
        },
        /// "Stop!" was already called: only extra rolls (or declining them) remain.
        #[error("seat {stop_caller} called \"Stop!\": the race is over, only extra rolls remain")]
        "stop_phase" StopPhase {
            /// Who called it.
            stop_caller: Seat,
        },
        /// Extra rolls and declining them come only after "Stop!".
        #[error("nobody has called \"Stop!\" yet")]
        "not_in_stop_phase" NotInStopPhase,
        /// The stop caller has no dice and takes no extra rolls.
        #[error("the stop caller takes no extra rolls")]
        "stop_caller_cannot_roll" StopCallerCannotRoll,
        /// The seat has used all its extra rolls.
        #[error("all {allowed} extra rolls are used")]
        "extra_rolls_exhausted" ExtraRollsExhausted {
            /// Extra rolls allowed.
            allowed: u32,
        },
        /// The seat already declined its remaining extra rolls.
        #[error("the seat already declined its extra rolls")]
        "extra_rolls_declined" ExtraRollsDeclined,
        /// "Stop!" needs an empty pool.
        #[error("seat {seat} still holds {dice} dice")]
        "stop_not_empty" StopNotEmpty {
            /// The seat.
            seat: Seat,
            /// Dice it holds.
            dice: u32,
        },
        /// With `auto_stop` the referee calls "Stop!" itself.
        #[error("\"Stop!\" is called automatically by the roll that empties a pool")]
        "automatic_stop" AutomaticStop,
        /// A coaster draw with the wrong number of coasters.
        #[error("expected {expected} coasters, got {got}")]
        "wrong_coaster_count" WrongCoasterCount {
            /// Coasters awaited.
            expected: usize,
            /// Coasters reported.
            got: usize,
        },
        /// The pile does not (or no longer) hold this coaster.
        #[error("the pile holds no (more) {coaster:?} coasters")]
        "coaster_not_in_pile" CoasterNotInPile {
            /// The first unavailable coaster.
            coaster: Coaster,
        },
        /// A roll reported with a different number of faces than dice rolled.
        #[error("seat {seat} rolled {expected} dice, {got} faces reported")]
        "wrong_face_count" WrongFaceCount {
            /// The roller.
            seat: Seat,
            /// Dice rolled.
            expected: u32,
            /// Faces reported.
            got: usize,
        },
        /// A described round in which nobody emptied their dice: every round ends with a "Stop!".
        #[error("every round has a winner: list at least the seat that called \"Stop!\"")]
        "no_round_winner" NoRoundWinner,
        /// A seat listed twice on the score sheet.
        #[error("seat {seat} is listed twice")]
        "duplicate_seat" DuplicateSeat {
            /// The seat.
            seat: Seat,
        },
        /// More seats emptied their dice than the rules allow with these options.
        #[error("{emptied} seats cannot all empty their dice in one round; at most {max} can")]
        "too_many_winners" TooManyWinners {
            /// Seats listed.
            emptied: usize,
            /// The most that can.
            max: usize,
        },
    }
}
