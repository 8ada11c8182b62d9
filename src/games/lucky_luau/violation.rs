//! Why a Lucky Luau move or chance outcome is refused: one variant per rule, its serde tag is the
//! code clients switch on.

use super::*;
use serde::Serialize;

/// Why a move, chance outcome or tally is rejected.
#[derive(Serialize, thiserror::Error, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum LuckyLuauViolation {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Play waits for a chance outcome.
    #[error("waiting for the face-down card seat {seat} drew")]
    ChancePending {
        /// The drawing seat.
        seat: Seat,
    },
    /// The seat does not exist.
    #[error("seat {seat} does not exist with {players} players")]
    UnknownSeat {
        /// The seat named.
        seat: Seat,
        /// Seats at the table.
        players: usize,
    },
    /// Drawing, stringing and tossing happen on your own turn.
    #[error("it is seat {turn}'s turn, not seat {seat}'s")]
    NotYourTurn {
        /// The seat that tried.
        seat: Seat,
        /// Whose turn it is.
        turn: Seat,
    },
    /// A drawn card is pending: string it (or toss it) first.
    #[error("a drawn card is pending: string it or toss it")]
    DrawnCardPending,
    /// No drawn card is pending.
    #[error("no drawn card is pending")]
    NoDrawnCard,
    /// The face-up card is not in the centre.
    #[error("no face-up {card:?} in the centre")]
    CardNotAvailable {
        /// The card named.
        card: Card,
    },
    /// The face-down pile is empty.
    #[error("the face-down pile is empty")]
    PileEmpty,
    /// A card taken face up must be strung.
    #[error("a face-up card must be strung, not tossed back")]
    CannotTossFaceUp,
    /// The index is not an unfilled Spacer of your lei.
    #[error("slot {index} of your lei is not an unfilled Spacer")]
    NotASpacer {
        /// The index named.
        index: usize,
    },
    /// The tool was already used.
    #[error("your {tool:?} was already used")]
    ToolAlreadyUsed {
        /// `knife`, `hook` or `spacer`.
        tool: Tool,
    },
    /// Tools cannot be used between your own draw and string.
    #[error("tools cannot be used between your draw and your string")]
    ToolNotDuringDraw,
    /// Only the Knife may be used in the end phase.
    #[error("only the Knife may be used once the centre is empty")]
    ToolNotInEndPhase,
    /// The lei has no slot at that index.
    #[error("your lei has no slot {index} (it has {len})")]
    NoSuchSlot {
        /// The index named.
        index: usize,
        /// Slots in the lei.
        len: usize,
    },
    /// Drawing and stringing are over: the centre is empty.
    #[error("the centre is empty: use your Knife or finish")]
    EndPhase,
    /// Finishing happens in the end phase.
    #[error("finish only once the centre is empty")]
    NotEndPhase,
    /// The seat already finished.
    #[error("seat {seat} already finished")]
    AlreadyFinished {
        /// The seat.
        seat: Seat,
    },
    /// Guest bonuses are given for each of the 3 Guests.
    #[error("expected bonuses for {expected} Guests, got {got}")]
    WrongGuestCount {
        /// Guests in play.
        expected: usize,
        /// Bonuses given.
        got: usize,
    },
    /// A Guest bonus beyond any plausible card text.
    #[error("a Guest bonus of {points} is out of range (-1000 to 1000)")]
    GuestBonusOutOfRange {
        /// The bonus given.
        points: i64,
    },
    /// Declared colours must be one per Rainbow on the lei.
    #[error("the lei has {expected} Rainbows, {got} colours were declared")]
    WrongRainbowCount {
        /// Rainbows on the lei.
        expected: usize,
        /// Colours declared.
        got: usize,
    },
    /// A Rainbow may only act as a plain colour next to it.
    #[error("the Rainbow at position {position} is not next to a {colour:?} flower it may copy")]
    RainbowColourNotAdjacent {
        /// Its position, from 1.
        position: usize,
        /// The declared colour.
        colour: Colour,
    },
    /// A chance outcome was reported but none is awaited.
    #[error("no chance outcome is awaited")]
    NoChancePending,
    /// The reported card is not (or no longer) in the face-down pile.
    #[error("the face-down pile holds no (more) {card:?} cards")]
    CardNotInPile {
        /// The card reported.
        card: Card,
    },
    /// The tally has a lei count different from the players.
    #[error("expected {expected} leis, got {got}")]
    WrongLeiCount {
        /// Players.
        expected: usize,
        /// Leis given.
        got: usize,
    },
    /// A word of a typed lei is not a card.
    #[error("lei {seat}: {word:?} is not a card word")]
    UnknownCardWord {
        /// The seat (position in `leis`).
        seat: Seat,
        /// The word.
        word: String,
    },
    /// More copies of a card than the game has.
    #[error("{count} {card:?} cards on the table, the game has {copies}")]
    TooManyCards {
        /// The card.
        card: Card,
        /// Copies described.
        count: u32,
        /// Copies in the game.
        copies: u32,
    },
    /// One player has one Knife, one Fish Hook and one Spacer.
    #[error("lei {seat} uses more than one {tool:?}")]
    ToolUsedTwice {
        /// The seat.
        seat: Seat,
        /// The tool.
        tool: Tool,
    },
}

impl crate::games::Violation for LuckyLuauViolation {}
