//! Why a Plus & Minus move or chance outcome is refused: one variant per rule, its serde tag is the
//! code clients switch on.

use super::*;
use crate::games::kit::refusal::violations;
pub use crate::games::kit::refusal::{Awaited, Common};

violations! {
    /// Why a move, chance outcome or tally is rejected.
    pub enum PlusMinusViolation: Common<Awaited<ChanceKind>> {
        unexpected = ChanceKind,
        deals = Card("expected {expected} seats' cards, got {got}", "the pile holds no (more) {card:?}"),
        /// The round is over; the next deal is awaited.
        #[error("round {round} is over; waiting for the next deal")]
        "round_over" RoundOver {
            /// The round that ended.
            round: u32,
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
        #[error("no {card:?} in hand")]
        "card_not_in_hand" CardNotInHand {
            /// The card named.
            card: Card,
        },
        /// The stack's owner is not at the table.
        #[error("there is no stack of seat {seat} with {players} players")]
        "unknown_stack" UnknownStack {
            /// The owner named.
            seat: Seat,
            /// Seats at the table.
            players: usize,
        },
        /// The stack is empty and the option `empty_stack_accepts_any` is off.
        #[error("the stack is empty and takes no card")]
        "empty_stack" EmptyStack {
            /// The stack.
            stack: StackRef,
        },
        /// The card is not the top's rank, one above or one below, and the top is not an ace or king.
        #[error("{card:?} cannot go on {top:?}: same rank, one above or one below only")]
        "not_adjacent_rank" NotAdjacentRank {
            /// The card played.
            card: Card,
            /// The stack's top.
            top: Card,
        },
        /// A legal play exists, so forfeiting or passing now is not allowed; one such play is named.
        #[error("a play is possible ({card:?} on seat {}'s {:?} stack): you must play", stack.seat, stack.stack)]
        "must_play" MustPlay {
            /// A card that can be played.
            card: Card,
            /// A stack it fits on.
            stack: StackRef,
        },
        /// A 10 must name two stacks to swap.
        #[error("a 10 must swap two stacks: give `swap`")]
        "swap_required" SwapRequired,
        /// The two stacks of a swap must differ.
        #[error("a swap needs two different stacks")]
        "swap_same_stack" SwapSameStack {
            /// The stack named twice.
            stack: StackRef,
        },
        /// Only a 10 swaps stacks.
        #[error("only a 10 swaps stacks, not {card:?}")]
        "swap_not_allowed" SwapNotAllowed {
            /// The card played.
            card: Card,
        },
        /// A king must name two other players.
        #[error("a king must name two other players: give `king_targets`")]
        "king_targets_required" KingTargetsRequired,
        /// A king's targets are other players.
        #[error("seat {seat} cannot target itself with a king")]
        "king_target_self" KingTargetSelf {
            /// The playing seat.
            seat: Seat,
        },
        /// A king's two targets must differ.
        #[error("a king needs two different players, not seat {seat} twice")]
        "king_targets_not_distinct" KingTargetsNotDistinct {
            /// The seat named twice.
            seat: Seat,
        },
        /// Only a king names target players.
        #[error("only a king names target players, not {card:?}")]
        "king_targets_not_allowed" KingTargetsNotAllowed {
            /// The card played.
            card: Card,
        },
        /// The plays are done: pass a card to the left.
        #[error("the plays are done: pass a card to the left")]
        "must_pass" MustPass,
        /// Passing comes after the turn's plays (or a forfeit).
        #[error("play (or forfeit) before passing: {plays_remaining} play(s) remain")]
        "pass_before_play" PassBeforePlay {
            /// Plays still owed.
            plays_remaining: u32,
        },
        /// No plays remain to forfeit.
        #[error("no plays remain to forfeit")]
        "nothing_to_forfeit" NothingToForfeit,
        /// Every player must place face-up cards first (option `face_up_chosen_by_player`).
        #[error("the face-up cards are being chosen")]
        "choose_face_up_first" ChooseFaceUpFirst,
        /// Face-up cards are chosen only right after the deal with `face_up_chosen_by_player`.
        #[error("face-up cards are not being chosen now")]
        "not_choosing" NotChoosing,
        /// The seat already placed its face-up cards.
        #[error("seat {seat} has already chosen its face-up cards")]
        "already_chosen" AlreadyChosen {
            /// The seat.
            seat: Seat,
        },
        /// A tally lists a different number of players than the table has.
        #[error("the tally lists {got} players, the table has {expected}")]
        "wrong_player_count" WrongPlayerCount {
            /// Players at the table.
            expected: usize,
            /// Players listed.
            got: usize,
        },
        /// A tally lists more than four cards of one rank.
        #[error("{count} cards of rank {card:?} listed; the deck has 4")]
        "too_many_of_rank" TooManyOfRank {
            /// The rank.
            card: Card,
            /// How many were listed.
            count: usize,
        },
    }
}
