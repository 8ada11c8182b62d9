//! Why a Luck Plus move or chance outcome is refused: one variant per rule, its serde tag is the
//! code clients switch on.

use super::*;
use serde::Serialize;

/// Why a move, chance outcome or tally is rejected (RULINGS 1.12).
#[derive(Serialize, thiserror::Error, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum LuckPlusViolation {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Play waits for a chance outcome.
    #[error("waiting for a chance outcome ({kind:?})")]
    ChancePending {
        /// What is awaited.
        kind: ChanceKind,
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
        /// The seat that tried.
        seat: Seat,
        /// Whose turn it is.
        turn: Seat,
    },
    /// The card is not (or no longer) in the hand.
    #[error("no (more) {card} in hand")]
    CardNotInHand {
        /// The card.
        card: Card,
    },
    /// A play needs at least one group.
    #[error("a play needs at least one card group")]
    EmptyPlay,
    /// The group has the wrong number of cards for its basis.
    #[error("a {basis:?} group has {expected} card(s), not {got}")]
    GroupSize {
        /// The basis.
        basis: Basis,
        /// Cards it needs.
        expected: usize,
        /// Cards given.
        got: usize,
    },
    /// A LUCK PLUS is played with `luck_plus`, not in a group.
    #[error("a LUCK PLUS is played with the luck_plus move, not in a group")]
    LuckPlusInGroup,
    /// The card does not match on that basis ("the cards must always match exactly").
    #[error("{card} does not match by {basis:?}")]
    NoMatch {
        /// The basis.
        basis: Basis,
        /// The card.
        card: Card,
    },
    /// No dice are showing yet this hand.
    #[error("no dice are showing yet: match the top or roll")]
    NoDice,
    /// That use of the dice showing was already made this turn.
    #[error("the dice showing were already used for a {basis:?} match")]
    DiceAlreadyUsed {
        /// The basis.
        basis: Basis,
    },
    /// A STOP ends the turn at once: nothing may follow it (a pair puts the STOP second).
    #[error("a STOP card must be the last card played")]
    StopNotLast,
    /// A DOUBLES card needs a doubles roll (or a DOUBLES on top).
    #[error("DOUBLES needs a doubles roll, not {dice:?}")]
    DoublesNeedDoublesRoll {
        /// The dice showing.
        dice: [u8; 2],
    },
    /// One die matches only the last card, on a roll made this turn.
    #[error(
        "one die matches only a last card of 6 or less on a roll made this turn \
         (cards {hand_size}, rolled this turn {rolled_this_turn})"
    )]
    SingleDieNotAllowed {
        /// Cards in hand.
        hand_size: usize,
        /// Whether the dice were rolled this turn.
        rolled_this_turn: bool,
    },
    /// The player must roll now.
    #[error("the dice must be rolled now")]
    MustRoll,
    /// After a roll the player matches or draws; he cannot roll again.
    #[error("after rolling, match or draw")]
    MustMatchOrDraw,
    /// No card is drawn before the turn's first roll.
    #[error("no card is drawn before rolling")]
    NoDrawBeforeRoll,
    /// The first player of a hand rolls before matching (`pre_roll_top_match_on_first_turn`).
    #[error("the first player of the hand must roll before matching")]
    FirstTurnMustRoll,
    /// This turn is a forced bonus: play bonus cards.
    #[error("the previous LUCK PLUS forces a bonus: play any card and its rank")]
    ForcedBonusPending,
    /// No forced bonus is owed.
    #[error("no forced bonus is owed")]
    NoBonusOwed,
    /// The forced bonus needs at least one card.
    #[error("the forced bonus needs at least one card")]
    BonusRequired,
    /// Bonus cards after the first must share its rank.
    #[error("{card} is not the same number as the first bonus card")]
    BonusNotSameNumber {
        /// The offending card.
        card: Card,
    },
    /// A card was drawn: play it first, transfer it, play a LUCK PLUS or keep it.
    #[error("{card} was drawn: play it first, transfer it, play a LUCK PLUS or keep it")]
    DrawnCardPending {
        /// The drawn card.
        card: Card,
    },
    /// No drawn card is waiting.
    #[error("no drawn card is waiting")]
    NoDrawnCard,
    /// Only TRANSFER and TRANSFER PLUS cards can be given.
    #[error("{card} cannot be transferred")]
    NotTransferable {
        /// The card.
        card: Card,
    },
    /// A TRANSFER card can be given only right after it is drawn.
    #[error("{card} can be given only right after it is drawn")]
    TransferOnlyWhenDrawn {
        /// The card.
        card: Card,
    },
    /// A TRANSFER goes to the player on the left.
    #[error("a TRANSFER goes to the left player {left}, not seat {to}")]
    TransferMustGoLeft {
        /// The seat named.
        to: Seat,
        /// The left player.
        left: Seat,
    },
    /// Not a seat that can receive cards (self, out, or absent).
    #[error("seat {to} cannot receive cards")]
    TransferTargetInvalid {
        /// The seat named.
        to: Seat,
    },
    /// A plain TRANSFER carries no extra cards.
    #[error("only a TRANSFER PLUS carries extra cards")]
    ExtraNotAllowed,
    /// Extra cards after the first must share the required number.
    #[error("{card} is not the required number for a TRANSFER PLUS extra")]
    ExtraNotSameNumber {
        /// The card.
        card: Card,
    },
    /// No chance outcome is awaited.
    #[error("no chance outcome is awaited")]
    NoChancePending,
    /// A chance outcome of the wrong kind.
    #[error("expected a {expected:?} outcome, got {got:?}")]
    UnexpectedChanceKind {
        /// Awaited.
        expected: ChanceKind,
        /// Reported.
        got: ChanceKind,
    },
    /// A deal or tally with the wrong number of hands.
    #[error("expected {expected} hands, got {got}")]
    WrongHandCount {
        /// Players.
        expected: usize,
        /// Hands given.
        got: usize,
    },
    /// A dealt hand with the wrong number of cards.
    #[error("expected {expected} cards, got {got}")]
    WrongCardCount {
        /// Cards awaited.
        expected: usize,
        /// Cards given.
        got: usize,
    },
    /// The outcome uses a card the pile does not (or no longer) hold.
    #[error("the pile holds no (more) {card}")]
    CardNotInPile {
        /// The card.
        card: Card,
    },
    /// Flips are zero or more LP then one other card.
    #[error("the flips must be LUCK PLUS cards followed by one other card")]
    BadFlips,
    /// A die shows 1 to 6.
    #[error("a die shows 1 to 6, not {face}")]
    BadDie {
        /// The face given.
        face: u8,
    },
    /// A described hand needs someone who went out.
    #[error("a hand ends when someone goes out: name who")]
    NoOneOut,
    /// A seat went out twice.
    #[error("seat {seat} is listed out twice")]
    SeatOutTwice {
        /// The seat.
        seat: Seat,
    },
    /// Several players go out only in a LUCK OUT's full round.
    #[error("several players go out only after a LUCK OUT with luck_out_full_round")]
    SeveralOut,
    /// A player who went out holds no cards.
    #[error("seat {seat} went out but holds cards")]
    OutHandNotEmpty {
        /// The seat.
        seat: Seat,
    },
    /// A player with no cards went out.
    #[error("seat {seat} holds no cards but is not listed out")]
    EmptyHandNotOut {
        /// The seat.
        seat: Seat,
    },
    /// More copies of a card than the deck holds.
    #[error("the deck does not hold that many {card}")]
    CardsNotInDeck {
        /// The card.
        card: Card,
    },
}

impl crate::games::Violation for LuckPlusViolation {}

crate::games::kit::deal::mismatch_is_violation!(LuckPlusViolation, Card);
