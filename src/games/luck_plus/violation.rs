//! Why a Luck Plus move or chance outcome is refused: one variant per rule, its serde tag is the
//! code clients switch on.

use super::*;
use crate::games::kit::refusal::violations;
pub use crate::games::kit::refusal::{Awaited, Common};

violations! {
    /// Why a move, chance outcome or tally is rejected (RULINGS 1.12).
    pub enum LuckPlusViolation: Common<Awaited<ChanceKind>> {
        unexpected = ChanceKind,
        deals = Card("expected {expected} hands, got {got}", "the pile holds no (more) {card}"),
        /// It is another seat's turn.
        #[error("it is seat {turn}'s turn, not seat {seat}'s")]
        "not_your_turn" NotYourTurn {
            /// The seat that tried.
            seat: Seat,
            /// Whose turn it is.
            turn: Seat,
        },
        /// The card is not (or no longer) in the hand.
        #[error("no (more) {card} in hand")]
        "card_not_in_hand" CardNotInHand {
            /// The card.
            card: Card,
        },
        /// A play needs at least one group.
        #[error("a play needs at least one card group")]
        "empty_play" EmptyPlay,
        /// The group has the wrong number of cards for its basis.
        #[error("a {basis:?} group has {expected} card(s), not {got}")]
        "group_size" GroupSize {
            /// The basis.
            basis: Basis,
            /// Cards it needs.
            expected: usize,
            /// Cards given.
            got: usize,
        },
        /// A LUCK PLUS is played with `luck_plus`, not in a group.
        #[error("a LUCK PLUS is played with the luck_plus move, not in a group")]
        "luck_plus_in_group" LuckPlusInGroup,
        /// The card does not match on that basis ("the cards must always match exactly").
        #[error("{card} does not match by {basis:?}")]
        "no_match" NoMatch {
            /// The basis.
            basis: Basis,
            /// The card.
            card: Card,
        },
        /// No dice are showing yet this hand.
        #[error("no dice are showing yet: match the top or roll")]
        "no_dice" NoDice,
        /// That use of the dice showing was already made this turn.
        #[error("the dice showing were already used for a {basis:?} match")]
        "dice_already_used" DiceAlreadyUsed {
            /// The basis.
            basis: Basis,
        },
        /// A STOP ends the turn at once: nothing may follow it (a pair puts the STOP second).
        #[error("a STOP card must be the last card played")]
        "stop_not_last" StopNotLast,
        /// A DOUBLES card needs a doubles roll (or a DOUBLES on top).
        #[error("DOUBLES needs a doubles roll, not {dice:?}")]
        "doubles_need_doubles_roll" DoublesNeedDoublesRoll {
            /// The dice showing.
            dice: [u8; 2],
        },
        /// One die matches only the last card, on a roll made this turn.
        #[error(
            "one die matches only a last card of 6 or less on a roll made this turn \
             (cards {hand_size}, rolled this turn {rolled_this_turn})"
        )]
        "single_die_not_allowed" SingleDieNotAllowed {
            /// Cards in hand.
            hand_size: usize,
            /// Whether the dice were rolled this turn.
            rolled_this_turn: bool,
        },
        /// The player must roll now.
        #[error("the dice must be rolled now")]
        "must_roll" MustRoll,
        /// After a roll the player matches or draws; he cannot roll again.
        #[error("after rolling, match or draw")]
        "must_match_or_draw" MustMatchOrDraw,
        /// No card is drawn before the turn's first roll.
        #[error("no card is drawn before rolling")]
        "no_draw_before_roll" NoDrawBeforeRoll,
        /// The first player of a hand rolls before matching (`pre_roll_top_match_on_first_turn`).
        #[error("the first player of the hand must roll before matching")]
        "first_turn_must_roll" FirstTurnMustRoll,
        /// This turn is a forced bonus: play bonus cards.
        #[error("the previous LUCK PLUS forces a bonus: play any card and its rank")]
        "forced_bonus_pending" ForcedBonusPending,
        /// No forced bonus is owed.
        #[error("no forced bonus is owed")]
        "no_bonus_owed" NoBonusOwed,
        /// The forced bonus needs at least one card.
        #[error("the forced bonus needs at least one card")]
        "bonus_required" BonusRequired,
        /// Bonus cards after the first must share its rank.
        #[error("{card} is not the same number as the first bonus card")]
        "bonus_not_same_number" BonusNotSameNumber {
            /// The offending card.
            card: Card,
        },
        /// A card was drawn: play it first, transfer it, play a LUCK PLUS or keep it.
        #[error("{card} was drawn: play it first, transfer it, play a LUCK PLUS or keep it")]
        "drawn_card_pending" DrawnCardPending {
            /// The drawn card.
            card: Card,
        },
        /// No drawn card is waiting.
        #[error("no drawn card is waiting")]
        "no_drawn_card" NoDrawnCard,
        /// Only TRANSFER and TRANSFER PLUS cards can be given.
        #[error("{card} cannot be transferred")]
        "not_transferable" NotTransferable {
            /// The card.
            card: Card,
        },
        /// A TRANSFER card can be given only right after it is drawn.
        #[error("{card} can be given only right after it is drawn")]
        "transfer_only_when_drawn" TransferOnlyWhenDrawn {
            /// The card.
            card: Card,
        },
        /// A TRANSFER goes to the player on the left.
        #[error("a TRANSFER goes to the left player {left}, not seat {to}")]
        "transfer_must_go_left" TransferMustGoLeft {
            /// The seat named.
            to: Seat,
            /// The left player.
            left: Seat,
        },
        /// Not a seat that can receive cards (self, out, or absent).
        #[error("seat {to} cannot receive cards")]
        "transfer_target_invalid" TransferTargetInvalid {
            /// The seat named.
            to: Seat,
        },
        /// A plain TRANSFER carries no extra cards.
        #[error("only a TRANSFER PLUS carries extra cards")]
        "extra_not_allowed" ExtraNotAllowed,
        /// Extra cards after the first must share the required number.
        #[error("{card} is not the required number for a TRANSFER PLUS extra")]
        "extra_not_same_number" ExtraNotSameNumber {
            /// The card.
            card: Card,
        },
        /// Flips are zero or more LP then one other card.
        #[error("the flips must be LUCK PLUS cards followed by one other card")]
        "bad_flips" BadFlips,
        /// A die shows 1 to 6.
        #[error("a die shows 1 to 6, not {face}")]
        "bad_die" BadDie {
            /// The face given.
            face: u8,
        },
        /// A described hand needs someone who went out.
        #[error("a hand ends when someone goes out: name who")]
        "no_one_out" NoOneOut,
        /// A seat went out twice.
        #[error("seat {seat} is listed out twice")]
        "seat_out_twice" SeatOutTwice {
            /// The seat.
            seat: Seat,
        },
        /// Several players go out only in a LUCK OUT's full round.
        #[error("several players go out only after a LUCK OUT with luck_out_full_round")]
        "several_out" SeveralOut,
        /// A player who went out holds no cards.
        #[error("seat {seat} went out but holds cards")]
        "out_hand_not_empty" OutHandNotEmpty {
            /// The seat.
            seat: Seat,
        },
        /// A player with no cards went out.
        #[error("seat {seat} holds no cards but is not listed out")]
        "empty_hand_not_out" EmptyHandNotOut {
            /// The seat.
            seat: Seat,
        },
        /// More copies of a card than the deck holds.
        #[error("the deck does not hold that many {card}")]
        "cards_not_in_deck" CardsNotInDeck {
            /// The card.
            card: Card,
        },
    }
}
