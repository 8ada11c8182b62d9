//! The wire types of Lucky Dice: options, moves, chance outcomes, state, view, events, score,
//! score sheet and violations. Every type here is JSON (snake_case) and has an OpenAPI schema.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games::{Seat, Viewer};

/// One of the six lucky symbols printed on the dice and coasters (RULINGS 3.1 order).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(example = "pig")]
#[schema(as = LuckyDiceSymbol)]
pub enum Symbol {
    /// Four-leaf clover (s0).
    Clover,
    /// Lucky pig (s1).
    Pig,
    /// Beckoning cat, maneki-neko (s2).
    Cat,
    /// Lucky penny (s3).
    Penny,
    /// Horseshoe (s4).
    Horseshoe,
    /// Hand of Fatima, hamsa (s5).
    Hamsa,
}

impl Symbol {
    /// Every symbol in RULINGS 3.1 order: the faces of every die, in die-face index order.
    pub const ALL: [Symbol; 6] = [
        Symbol::Clover,
        Symbol::Pig,
        Symbol::Cat,
        Symbol::Penny,
        Symbol::Horseshoe,
        Symbol::Hamsa,
    ];

    /// 0 for clover … 5 for hamsa.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A coaster: a symbol printed on its left and one on its right.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"left": "clover", "right": "pig"}))]
#[schema(as = LuckyDiceCoaster)]
pub struct Coaster {
    /// Dice showing this symbol go to the player on the left (the next seat clockwise).
    pub left: Symbol,
    /// Dice showing this symbol go to the player on the right (the previous seat).
    pub right: Symbol,
}

/// RULINGS 3.1 / D1 (inferred): left = s_i, right = s_(i+k mod 6) for i = 0..5, k = 1, 2, 3.
/// Every symbol is 3× left and 3× right; the 15 unordered pairs appear, the 3 opposite pairs twice.
pub fn balanced_coaster_set() -> Vec<Coaster> {
    let mut set = Vec::with_capacity(18);
    for i in 0..6 {
        for k in 1..=3 {
            set.push(Coaster {
                left: Symbol::ALL[i],
                right: Symbol::ALL[(i + k) % 6],
            });
        }
    }
    set
}

/// How the game ends (RULINGS 3.5).
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyDiceEndMode)]
pub enum EndMode {
    /// The rulebook game: at the end of the round in which someone turns down their
    /// `coaster_target`-th coaster; everyone who reached it wins together.
    ThreeCoasters,
    /// The rulebook "Tip": play on until a round winner needs a new coaster and the pile is
    /// empty; most face-down coasters wins, ties share.
    UntilPileEmpty,
}

/// Per-match options (RULINGS 3.6). Every field is optional in JSON; missing fields take the
/// defaults of the rulebook and RULINGS.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(default, rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceOptions)]
pub struct Options {
    /// `three_coasters` (default) or `until_pile_empty`.
    pub end_mode: EndMode,
    /// Face-down coasters that win the game in `three_coasters` mode (default 3). Players ×
    /// target may not exceed the coaster set, so the pile can never run out.
    #[schema(example = 3)]
    pub coaster_target: u32,
    /// The coasters in the box (default: RULINGS 3.1's balanced 18). At least one per player,
    /// at most 100; a coaster with the same symbol twice passes that symbol left (D7).
    pub coaster_set: Vec<Coaster>,
    /// Extra rolls each other player may take after "Stop!" (default 3, at most 10).
    #[schema(example = 3)]
    pub extra_rolls: u32,
    /// When true (default) "Stop!" is called automatically by the roll that empties a pool; when
    /// false the emptied seat must send `stop`, and dice passed to it meanwhile are its again.
    pub auto_stop: bool,
    /// When true (default) every roll must state the number of dice the seat believes it holds,
    /// and a different number is refused as stale (409). When false the count may be omitted or
    /// wrong; the seat rolls whatever it holds.
    pub strict_roll_count: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            end_mode: EndMode::ThreeCoasters,
            coaster_target: 3,
            coaster_set: balanced_coaster_set(),
            extra_rolls: 3,
            auto_stop: true,
            strict_roll_count: true,
        }
    }
}

/// A move proposed by a seat. In the race every seat with dice may move; the server's order of
/// arrival decides.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(examples(
    json!({"type": "roll", "dice": 3}),
    json!({"type": "extra_roll", "dice": 2}),
    json!({"type": "stop"}),
    json!({"type": "finish_extra_rolls"})
))]
#[schema(as = LuckyDiceMove)]
pub enum Move {
    /// During the race: roll all the dice the seat holds. The faces are a chance event for this
    /// seat (the server rolls at once; a table reports them).
    Roll {
        /// How many dice the client believes the seat holds. Required with `strict_roll_count`;
        /// a different count than the seat holds is refused as `wrong_dice_count` (409).
        #[serde(default)]
        dice: Option<u32>,
    },
    /// After "Stop!": one of the up to 3 extra rolls; only the ultimate lucky symbol counts.
    ExtraRoll {
        /// How many dice the client believes the seat holds (as for `roll`).
        #[serde(default)]
        dice: Option<u32>,
    },
    /// Call "Stop!" with an empty pool (only when `auto_stop` is off).
    Stop,
    /// After "Stop!": decline the remaining extra rolls.
    FinishExtraRolls,
}

/// A chance outcome: coasters drawn, the large die, or one seat's roll.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"kind": "roll", "faces": ["pig", "clover", "hamsa"]}))]
#[schema(as = LuckyDiceChance)]
pub enum Chance {
    /// Coasters drawn from the face-down pile: one per drawing seat, in the pending seat order.
    Coasters {
        /// The coasters drawn, in the order of the pending `seats`.
        coasters: Vec<Coaster>,
    },
    /// The large yellow die: this round's ultimate lucky symbol.
    LuckySymbol {
        /// The symbol rolled.
        symbol: Symbol,
    },
    /// The faces of the pending roll: exactly as many as the seat rolled.
    Roll {
        /// One face per die.
        faces: Vec<Symbol>,
    },
}

/// The kind of a chance event.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyDiceChanceKind)]
pub enum ChanceKind {
    /// Coasters drawn from the pile.
    Coasters,
    /// The large die.
    LuckySymbol,
    /// A seat's dice.
    Roll,
}

/// The chance outcome play is waiting for. Nothing in it is hidden: the pile's composition is in
/// the state (and in the full view).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDicePendingChance)]
pub enum PendingChance {
    /// These seats each draw one coaster (setup: every seat; later: the round's winners).
    Coasters {
        /// The drawing seats, ascending.
        seats: Vec<Seat>,
    },
    /// The large die is rolled for round `round`.
    LuckySymbol {
        /// The round it starts.
        round: u32,
    },
    /// `seat` rolls `dice` dice.
    Roll {
        /// The rolling seat.
        seat: Seat,
        /// Dice rolled: the seat's whole pool.
        dice: u32,
        /// Whether this is an extra roll after "Stop!".
        extra: bool,
    },
}

/// Where play stands (RULINGS 3.3; `round_end` is instantaneous here).
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyDicePhase)]
pub enum Phase {
    /// Coasters are being drawn (setup, or replacements after a round).
    DrawCoasters,
    /// The large die is being rolled (RULINGS `NEED_ULS`).
    NeedLuckySymbol,
    /// Everyone rolls at the same time.
    Race,
    /// "Stop!" was called: the others' extra rolls.
    AfterStop,
    /// The game is over.
    Over,
}

/// Where one die went.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyDiceDestination)]
pub enum Destination {
    /// The ultimate lucky symbol: onto the tray, out of play for the round.
    Tray,
    /// The left symbol of the roller's coaster: onto the coaster of the player on the left.
    Left,
    /// The right symbol of the roller's coaster: onto the coaster of the player on the right.
    Right,
    /// Any other face (and coaster symbols during extra rolls): the die stays with the roller.
    Stays,
}

/// One die of a roll.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceDie)]
pub struct Die {
    /// The face rolled.
    pub face: Symbol,
    /// Where the die went.
    pub to: Destination,
    /// The seat whose coaster received it (for `left` and `right`; with 2 players both name the
    /// other player).
    pub seat: Option<Seat>,
}

/// A coaster that a seat drew face up.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceSeatCoaster)]
pub struct SeatCoaster {
    /// The seat.
    pub seat: Seat,
    /// The coaster.
    pub coaster: Coaster,
}

/// One finished round.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceRoundResult)]
pub struct RoundResult {
    /// Round number, from 1.
    pub round: u32,
    /// The round's ultimate lucky symbol.
    pub lucky_symbol: Symbol,
    /// The seat that called "Stop!".
    pub stop_caller: Seat,
    /// Every seat that got rid of all its dice (the stop caller and anyone who cleared during the
    /// extra rolls), ascending.
    pub emptied: Vec<Seat>,
    /// The coasters they turned face down.
    pub coasters_won: Vec<SeatCoaster>,
    /// Coasters won this round, indexed by seat (1 per emptied seat).
    pub points: Vec<i64>,
}

/// A round as players at a physical table write it down: who got rid of all their dice.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"emptied": [2]}))]
#[schema(as = LuckyDiceTally)]
pub struct Tally {
    /// The seats that emptied their dice this round and so won their coaster (at least the one
    /// who called "Stop!").
    pub emptied: Vec<Seat>,
}

/// A described round, scored.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceRoundTally)]
pub struct RoundTally {
    /// Round number, from 1.
    pub round: u32,
    /// The seats that won a coaster, ascending.
    pub emptied: Vec<Seat>,
    /// Coasters won this round, indexed by seat.
    pub points: Vec<i64>,
}

/// The complete state: the document a stateless client holds and posts back.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceState)]
pub struct State {
    /// Number of seats (2–6).
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current round, from 1 (the last round once over).
    pub round: u32,
    /// Where play stands.
    pub phase: Phase,
    /// The round's ultimate lucky symbol, once the large die is rolled.
    pub lucky_symbol: Option<Symbol>,
    /// Each seat's face-up coaster; `null` while it waits to draw one (or at the end for the
    /// last round's winners).
    pub coasters: Vec<Option<Coaster>>,
    /// Each seat's face-down (won) coasters, in the order won.
    pub won: Vec<Vec<Coaster>>,
    /// The face-down draw pile as a multiset, sorted (its order is decided only when drawing).
    pub pile: Vec<Coaster>,
    /// Dice each seat holds (including dice placed on its coaster).
    pub pools: Vec<u32>,
    /// Dice on the tray. During a round tray + Σ pools = 3 × players.
    pub tray: u32,
    /// Who called "Stop!" this round.
    pub stop_caller: Option<Seat>,
    /// Extra rolls each seat has taken since "Stop!".
    pub extra_rolls_used: Vec<u32>,
    /// Seats that declined their remaining extra rolls.
    pub finished_extra: Vec<bool>,
    /// Finished rounds.
    pub results: Vec<RoundResult>,
    /// The chance outcome play waits for, if any.
    pub chance: Option<PendingChance>,
}

/// What one viewer may see of a state. Everything is public except the pile's composition.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceView)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// Number of seats.
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current round, from 1.
    pub round: u32,
    /// Where play stands.
    pub phase: Phase,
    /// Seats that may move now: in the race every seat holding dice.
    pub to_act: Vec<Seat>,
    /// The round's ultimate lucky symbol.
    pub lucky_symbol: Option<Symbol>,
    /// Each seat's face-up coaster.
    pub coasters: Vec<Option<Coaster>>,
    /// Each seat's face-down coasters.
    pub won: Vec<Vec<Coaster>>,
    /// Dice each seat holds: send yours back as `dice` with your roll.
    pub pools: Vec<u32>,
    /// Dice on the tray.
    pub tray: u32,
    /// Coasters left in the pile.
    pub pile_size: usize,
    /// The pile's composition: only for the full view.
    pub pile: Option<Vec<Coaster>>,
    /// Who called "Stop!".
    pub stop_caller: Option<Seat>,
    /// Extra rolls taken per seat.
    pub extra_rolls_used: Vec<u32>,
    /// Seats that declined their remaining extra rolls.
    pub finished_extra: Vec<bool>,
    /// The pending chance event.
    pub chance: Option<PendingChance>,
    /// Finished rounds.
    pub results: Vec<RoundResult>,
    /// Face-down coasters per seat.
    pub totals: Vec<i64>,
    /// The viewer's legal moves (empty for spectators and the full view).
    pub legal_moves: Vec<Move>,
}

/// What happened.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceEvent)]
pub enum Event {
    /// Seats drew coasters face up.
    CoastersDrawn {
        /// Who drew what.
        draws: Vec<SeatCoaster>,
        /// Coasters left in the pile.
        pile_left: usize,
    },
    /// The large die was rolled: a round begins, everyone rolls at once.
    RoundStarted {
        /// Round number.
        round: u32,
        /// The ultimate lucky symbol.
        lucky_symbol: Symbol,
    },
    /// `seat` rolls its `dice` dice; the faces are the pending chance event.
    Rolling {
        /// The roller.
        seat: Seat,
        /// Dice rolled.
        dice: u32,
        /// An extra roll after "Stop!".
        extra: bool,
    },
    /// The faces of `seat`'s roll and where each die went.
    Rolled {
        /// The roller.
        seat: Seat,
        /// An extra roll after "Stop!" (only the lucky symbol counted).
        extra: bool,
        /// Each die: face and destination.
        dice: Vec<Die>,
        /// Dice per seat afterwards.
        pools: Vec<u32>,
        /// Dice on the tray afterwards.
        tray: u32,
    },
    /// `seat` called "Stop!".
    Stopped {
        /// The caller.
        seat: Seat,
        /// Called by the referee on the roll that emptied the pool (`auto_stop`).
        automatic: bool,
    },
    /// `seat` declined its remaining extra rolls.
    ExtraRollsDeclined {
        /// The seat.
        seat: Seat,
    },
    /// A round ended: every seat with no dice turned its coaster face down.
    RoundEnded {
        /// Round number.
        round: u32,
        /// The seats that got rid of all their dice.
        emptied: Vec<Seat>,
        /// The coasters they won.
        coasters_won: Vec<SeatCoaster>,
        /// Face-down coasters per seat afterwards.
        totals: Vec<i64>,
    },
    /// The game ended.
    GameEnded {
        /// The winners (several share the win).
        winners: Vec<Seat>,
        /// Face-down coasters per seat.
        totals: Vec<i64>,
    },
}

/// The itemised score.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyDiceScore)]
pub struct Score {
    /// Finished rounds with the coasters won.
    pub rounds: Vec<RoundResult>,
    /// Face-down coasters per seat.
    pub totals: Vec<i64>,
}

/// Why a move, chance outcome or score sheet is rejected.
#[derive(Serialize, thiserror::Error, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum LuckyDiceViolation {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The seat does not exist.
    #[error("seat {seat} does not exist with {players} players")]
    UnknownSeat {
        /// The seat named.
        seat: Seat,
        /// Seats at the table.
        players: usize,
    },
    /// Play waits for a chance outcome (coasters, the large die, a roll).
    #[error("waiting for a chance outcome ({kind:?})")]
    ChancePending {
        /// What is awaited.
        kind: ChanceKind,
    },
    /// The roll states a different number of dice than the seat holds: the client's view is out
    /// of date (dice were passed to it, or it passed some).
    #[error("seat {seat} holds {held} dice, not {claimed}: look again before rolling")]
    WrongDiceCount {
        /// The roller.
        seat: Seat,
        /// Dice the roll claimed.
        claimed: u32,
        /// Dice the seat holds.
        held: u32,
    },
    /// With `strict_roll_count` a roll must state its number of dice.
    #[error("state the number of dice you roll in `dice`")]
    DiceCountRequired,
    /// The seat holds no dice to roll.
    #[error("seat {seat} holds no dice")]
    NoDice {
        /// The seat.
        seat: Seat,
    },
    /// "Stop!" was already called: only extra rolls (or declining them) remain.
    #[error("seat {stop_caller} called \"Stop!\": the race is over, only extra rolls remain")]
    StopPhase {
        /// Who called it.
        stop_caller: Seat,
    },
    /// Extra rolls and declining them come only after "Stop!".
    #[error("nobody has called \"Stop!\" yet")]
    NotInStopPhase,
    /// The stop caller has no dice and takes no extra rolls.
    #[error("the stop caller takes no extra rolls")]
    StopCallerCannotRoll,
    /// The seat has used all its extra rolls.
    #[error("all {allowed} extra rolls are used")]
    ExtraRollsExhausted {
        /// Extra rolls allowed.
        allowed: u32,
    },
    /// The seat already declined its remaining extra rolls.
    #[error("the seat already declined its extra rolls")]
    ExtraRollsDeclined,
    /// "Stop!" needs an empty pool.
    #[error("seat {seat} still holds {dice} dice")]
    StopNotEmpty {
        /// The seat.
        seat: Seat,
        /// Dice it holds.
        dice: u32,
    },
    /// With `auto_stop` the referee calls "Stop!" itself.
    #[error("\"Stop!\" is called automatically by the roll that empties a pool")]
    AutomaticStop,
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
    /// A coaster draw with the wrong number of coasters.
    #[error("expected {expected} coasters, got {got}")]
    WrongCoasterCount {
        /// Coasters awaited.
        expected: usize,
        /// Coasters reported.
        got: usize,
    },
    /// The pile does not (or no longer) hold this coaster.
    #[error("the pile holds no (more) {coaster:?} coasters")]
    CoasterNotInPile {
        /// The first unavailable coaster.
        coaster: Coaster,
    },
    /// A roll reported with a different number of faces than dice rolled.
    #[error("seat {seat} rolled {expected} dice, {got} faces reported")]
    WrongFaceCount {
        /// The roller.
        seat: Seat,
        /// Dice rolled.
        expected: u32,
        /// Faces reported.
        got: usize,
    },
    /// A described round in which nobody emptied their dice: every round ends with a "Stop!".
    #[error("every round has a winner: list at least the seat that called \"Stop!\"")]
    NoRoundWinner,
    /// A seat listed twice on the score sheet.
    #[error("seat {seat} is listed twice")]
    DuplicateSeat {
        /// The seat.
        seat: Seat,
    },
    /// More seats emptied their dice than the rules allow with these options.
    #[error("{emptied} seats cannot all empty their dice in one round; at most {max} can")]
    TooManyWinners {
        /// Seats listed.
        emptied: usize,
        /// The most that can.
        max: usize,
    },
}

impl crate::games::Violation for LuckyDiceViolation {
    /// A roll against a dice count or a phase that changed since the client looked.
    fn is_stale(&self) -> bool {
        matches!(
            self,
            LuckyDiceViolation::WrongDiceCount { .. }
                | LuckyDiceViolation::StopPhase { .. }
                | LuckyDiceViolation::NotInStopPhase
        )
    }
}
