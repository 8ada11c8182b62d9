//! The wire types of Plus & Minus: options, moves, chance outcomes, state, view, events, score,
//! tally and violations. Every type here is JSON (snake_case) and has an OpenAPI schema.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::cards::Card;
use crate::games::{Seat, Viewer};

/// Which face-up card of the deal counts as "higher" and starts the Plus stack.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "snake_case")]
#[schema(as = PlusMinusHigherBy)]
pub enum HigherBy {
    /// By rank, ace low (A = 1 … K = 13): RULINGS P2, the default.
    #[default]
    Rank,
    /// By point value (A = 20, 10–K = 10, 2–5 = 5, 6–9 = 0); equal points fall back to rank.
    Points,
}

/// Per-match options. Every field is optional in JSON; missing fields take the defaults of the
/// rulebook and RULINGS §5.6.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(default, rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusOptions)]
pub struct Options {
    /// Rounds in the game. `null` (default) means one per player, so that every player deals
    /// once (rulebook step 8); a smaller number shortens the game.
    #[schema(example = json!(null))]
    pub rounds: Option<u32>,
    /// The seat that deals round 1; the deal moves one seat left each round. Must be below the
    /// number of players.
    #[schema(example = 0)]
    pub first_dealer: Seat,
    /// How the two face-up cards are compared to decide which starts the Plus stack.
    pub higher_by: HigherBy,
    /// When true (default, RULINGS P9) any card may be played on an empty stack; when false an
    /// empty stack takes no card.
    pub empty_stack_accepts_any: bool,
    /// When true (default, RULINGS P10) a player who forfeits still passes a card to the left.
    pub pass_after_forfeit: bool,
    /// When true each player is dealt 4 hidden cards and chooses the 2 to place face up (the
    /// choices are revealed together); when false (default, RULINGS P1) the dealer deals 2 face
    /// up.
    pub face_up_chosen_by_player: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rounds: None,
            first_dealer: 0,
            higher_by: HigherBy::Rank,
            empty_stack_accepts_any: true,
            pass_after_forfeit: true,
            face_up_chosen_by_player: false,
        }
    }
}

/// One of a seat's two stacks.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = PlusMinusStackKind)]
pub enum StackKind {
    /// The Plus stack: its cards add to the owner's score.
    Plus,
    /// The Minus stack: its cards subtract from the owner's score.
    Minus,
}

/// A stack on the table: `seat`'s Plus or Minus stack.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusStackRef, example = json!({"seat": 1, "stack": "minus"}))]
pub struct StackRef {
    /// The stack's owner.
    pub seat: Seat,
    /// Which of the owner's stacks.
    pub stack: StackKind,
}

/// A move proposed by a seat.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(examples(
    json!({"type": "play", "card": "7", "stack": {"seat": 2, "stack": "plus"}}),
    json!({"type": "play", "card": "10", "stack": {"seat": 1, "stack": "plus"},
           "swap": [{"seat": 0, "stack": "minus"}, {"seat": 2, "stack": "minus"}]}),
    json!({"type": "play", "card": "K", "stack": {"seat": 0, "stack": "plus"}, "king_targets": [1, 2]}),
    json!({"type": "forfeit"}),
    json!({"type": "pass", "card": "Q"}),
    json!({"type": "choose_face_up", "cards": ["Q", "4"]})
))]
#[schema(as = PlusMinusMove)]
pub enum Move {
    /// Play one hand card onto any stack whose top is the same rank, one above or one below, or
    /// an ace or king (or an empty stack). A 10 needs `swap`, a king needs `king_targets`; the
    /// whole effect is resolved with the play. Examples: `{"type":"play","card":"7","stack":
    /// {"seat":2,"stack":"plus"}}`; `{"type":"play","card":"K","stack":{"seat":0,"stack":
    /// "plus"},"king_targets":[1,2]}`.
    Play {
        /// The card from the hand.
        card: Card,
        /// The stack it goes on.
        stack: StackRef,
        /// For a 10 (mandatory, only then): the two distinct stacks to swap, any owners.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(min_items = 2, max_items = 2)]
        swap: Option<[StackRef; 2]>,
        /// For a king (mandatory, only then): the two other players whose top two Minus cards
        /// move onto their Plus stacks.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(min_items = 2, max_items = 2)]
        king_targets: Option<[Seat; 2]>,
    },
    /// Give up the remaining plays of the turn: allowed only when no hand card can be played
    /// anywhere (`{"type":"forfeit"}`).
    Forfeit,
    /// Pass one hand card face down to the player on the left; ends the turn
    /// (`{"type":"pass","card":"3"}`).
    Pass {
        /// The card passed.
        card: Card,
    },
    /// Option `face_up_chosen_by_player`: place two of the four dealt cards face up; the higher
    /// starts the Plus stack (`{"type":"choose_face_up","cards":["Q","4"]}`).
    ChooseFaceUp {
        /// The two cards to place face up.
        #[schema(min_items = 2, max_items = 2)]
        cards: [Card; 2],
    },
}

/// A chance outcome: what the shuffle or the draw stack produced.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"kind": "draw", "cards": ["5", "K"]}))]
#[schema(as = PlusMinusChance)]
pub enum Chance {
    /// A round's deal, indexed by seat: 2 hidden hand cards and 2 face-up cards each (with
    /// `face_up_chosen_by_player`: 4 hand cards and no face-up cards). Example:
    /// `{"kind":"deal","hands":[["3","J"],["A","7"],["9","9"]],"face_up":[["K","4"],["2","2"],
    /// ["10","Q"]]}`.
    Deal {
        /// Each seat's hidden hand cards.
        hands: Vec<Vec<Card>>,
        /// Each seat's face-up cards (any order: the higher starts the Plus stack).
        face_up: Vec<Vec<Card>>,
    },
    /// The cards taken from the draw stack for the pending draw: exactly the pending `count`.
    Draw {
        /// The drawn cards.
        cards: Vec<Card>,
    },
}

/// The kind of a chance event.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = PlusMinusChanceKind)]
pub enum ChanceKind {
    /// A round's deal.
    Deal,
    /// Cards taken from the draw stack.
    Draw,
}

/// Why cards are drawn.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = PlusMinusDrawReason)]
pub enum DrawReason {
    /// The draw that starts a turn: 2 on the round's first turn, 1 afterwards.
    TurnStart,
    /// The 2 extra cards after playing a 5.
    Five,
}

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

/// One seat's round score, itemised.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusSeatScore)]
pub struct SeatScore {
    /// Cards in the Plus stack.
    pub plus_cards: usize,
    /// Points of the Plus stack (added).
    pub plus_points: i64,
    /// Cards in the Minus stack.
    pub minus_cards: usize,
    /// Points of the Minus stack (subtracted).
    pub minus_points: i64,
    /// Cards left in the hand.
    pub hand_cards: usize,
    /// Points of the hand (subtracted).
    pub hand_points: i64,
    /// Plus − Minus − hand.
    pub score: i64,
}

/// One finished round.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusRoundResult)]
pub struct RoundResult {
    /// Round number, from 1.
    pub round: u32,
    /// The seat that dealt it.
    pub dealer: Seat,
    /// Each seat's itemised score, indexed by seat.
    pub seats: Vec<SeatScore>,
    /// Points scored this round, indexed by seat.
    pub points: Vec<i64>,
}

/// A round as a table counts it up: every player's Plus and Minus stacks and hand.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"players": [
    {"plus": ["K", "Q", "7"], "minus": ["5"], "hand": ["A"]},
    {"plus": ["2"], "minus": ["10", "J"], "hand": []},
    {"plus": ["A", "A"], "minus": [], "hand": ["9", "3"]}]}))]
#[schema(as = PlusMinusTally)]
pub struct Tally {
    /// Each player's cards, indexed by seat.
    pub players: Vec<TallySeat>,
}

/// One player's cards at the end of a round. Order within a list does not matter; 6–9 may be
/// left out (they score nothing).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusTallySeat)]
pub struct TallySeat {
    /// The Plus stack's cards.
    #[serde(default)]
    pub plus: Vec<Card>,
    /// The Minus stack's cards.
    #[serde(default)]
    pub minus: Vec<Card>,
    /// The cards left in the hand.
    #[serde(default)]
    pub hand: Vec<Card>,
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
    pub results: Vec<RoundResult>,
    /// The chance outcome play waits for, if any.
    pub chance: Option<PendingChance>,
}

/// What a viewer sees of one stack.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusStackView)]
pub struct StackView {
    /// Cards in the stack.
    pub size: usize,
    /// The top card (none when empty, or while the owner's face-up choice is still secret).
    pub top: Option<Card>,
    /// Every card, bottom to top: only for the full view (the rest "may not be examined").
    pub cards: Option<Vec<Card>>,
}

/// What a viewer sees of a seat's stacks.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusSeatStacksView)]
pub struct SeatStacksView {
    /// The Plus stack.
    pub plus: StackView,
    /// The Minus stack.
    pub minus: StackView,
}

/// The pending chance event as a viewer sees it.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusChanceView)]
pub struct ChanceView {
    /// What kind of outcome is awaited.
    pub kind: ChanceKind,
    /// The drawing seat (none for a deal).
    pub seat: Option<Seat>,
    /// Why cards are drawn (none for a deal).
    pub reason: Option<DrawReason>,
    /// Cards the outcome takes from the pile.
    pub count: usize,
    /// Size of the pile the outcome comes from.
    pub pile_size: usize,
    /// The pile's cards: only for the full view.
    pub pile: Option<Vec<Card>>,
}

/// What one viewer may see of a state.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusView)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// Number of seats.
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current round, from 1.
    pub round: u32,
    /// Rounds in the game.
    pub rounds: u32,
    /// The dealer of the current round.
    pub dealer: Seat,
    /// Whose turn it is.
    pub turn: Seat,
    /// Where play stands.
    pub phase: Phase,
    /// Seats that may move now (empty while chance is pending or the game is over).
    pub to_act: Vec<Seat>,
    /// Plays `turn` still owes this turn.
    pub plays_remaining: u32,
    /// Turns completed in this round.
    pub turns_this_round: u32,
    /// Cards in the draw stack.
    pub draw_stack_size: usize,
    /// The draw stack's cards: only for the full view.
    pub draw_stack: Option<Vec<Card>>,
    /// Each seat's number of hand cards.
    pub hand_sizes: Vec<usize>,
    /// Each seat's hand, only where the viewer may see it (own seat, or all for full).
    pub hands: Vec<Option<Vec<Card>>>,
    /// Each seat's stacks: size and top for everyone, all cards for the full view.
    pub stacks: Vec<SeatStacksView>,
    /// During `choose`: which seats have placed their face-up cards.
    pub face_up_chosen: Vec<bool>,
    /// The pending chance event.
    pub chance: Option<ChanceView>,
    /// Finished rounds.
    pub results: Vec<RoundResult>,
    /// Points per seat so far.
    pub totals: Vec<i64>,
    /// The viewer's legal moves (empty for spectators and the full view). Each unordered swap
    /// pair and king target pair is listed once, lower first; the reversed pair is the same
    /// move and is accepted too.
    pub legal_moves: Vec<Move>,
}

/// What happened.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusEvent)]
pub enum Event {
    /// A round began.
    RoundStarted {
        /// Round number.
        round: u32,
        /// Its dealer.
        dealer: Seat,
        /// The seat that plays first (the dealer's left).
        first: Seat,
    },
    /// `seat` was dealt its cards.
    Dealt {
        /// The seat.
        seat: Seat,
        /// Hidden cards dealt to the hand.
        hand_size: usize,
        /// Those cards, for viewers who may see them.
        hand: Option<Vec<Card>>,
        /// The face-up card that starts the Plus stack (none when players choose).
        plus: Option<Card>,
        /// The face-up card that starts the Minus stack (none when players choose).
        minus: Option<Card>,
    },
    /// `seat` placed its face-up cards (still secret until everyone has).
    FaceUpChosen {
        /// The seat.
        seat: Seat,
    },
    /// Everyone has chosen: `seat`'s face-up cards are turned over.
    FaceUpRevealed {
        /// The seat.
        seat: Seat,
        /// The card starting the Plus stack.
        plus: Card,
        /// The card starting the Minus stack.
        minus: Card,
    },
    /// `seat` drew `count` cards.
    Drew {
        /// Who drew.
        seat: Seat,
        /// How many.
        count: usize,
        /// Turn start or a 5.
        reason: DrawReason,
        /// The cards, for viewers who may see them.
        cards: Option<Vec<Card>>,
    },
    /// `seat` played `card` onto `stack`.
    Played {
        /// Who played.
        seat: Seat,
        /// The card.
        card: Card,
        /// Where.
        stack: StackRef,
    },
    /// `seat`'s 10 swapped two stacks.
    Swapped {
        /// Who swapped.
        seat: Seat,
        /// The two stacks whose contents changed places.
        #[schema(min_items = 2, max_items = 2)]
        stacks: [StackRef; 2],
    },
    /// A king moved the top `count` cards of `target`'s Minus stack onto its Plus stack, in
    /// order.
    MinusToPlus {
        /// Who played the king.
        seat: Seat,
        /// Whose stacks.
        target: Seat,
        /// Cards moved (0–2).
        count: usize,
        /// The moved packet's top card (the old Minus top, now the Plus top).
        top: Option<Card>,
        /// Every moved card, bottom to top: only for the full view.
        cards: Option<Vec<Card>>,
    },
    /// `seat` could not play and lost its remaining plays.
    Forfeited {
        /// Who forfeited.
        seat: Seat,
        /// Plays lost.
        plays_lost: u32,
    },
    /// `seat` passed a card face down to `to`.
    Passed {
        /// The passer.
        seat: Seat,
        /// The receiver (the passer's left).
        to: Seat,
        /// The card: only for the passer, the receiver and the full view.
        card: Option<Card>,
    },
    /// A round ended; `points` per seat.
    RoundEnded {
        /// Round number.
        round: u32,
        /// Points scored this round per seat.
        points: Vec<i64>,
    },
    /// The game ended.
    GameEnded {
        /// Seats with the highest total.
        winners: Vec<Seat>,
        /// Final totals per seat.
        totals: Vec<i64>,
    },
}

/// The itemised score.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = PlusMinusScore)]
pub struct Score {
    /// Finished rounds with their itemised points per seat.
    pub rounds: Vec<RoundResult>,
    /// Total points per seat.
    pub totals: Vec<i64>,
}

/// Why a move, chance outcome or tally is rejected.
#[derive(Serialize, thiserror::Error, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum PlusMinusViolation {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The round is over; the next deal is awaited.
    #[error("round {round} is over; waiting for the next deal")]
    RoundOver {
        /// The round that ended.
        round: u32,
    },
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
        /// The seat that tried to move.
        seat: Seat,
        /// Whose turn it is.
        turn: Seat,
    },
    /// The card is not in the hand.
    #[error("no {card:?} in hand")]
    CardNotInHand {
        /// The card named.
        card: Card,
    },
    /// The stack's owner is not at the table.
    #[error("there is no stack of seat {seat} with {players} players")]
    UnknownStack {
        /// The owner named.
        seat: Seat,
        /// Seats at the table.
        players: usize,
    },
    /// The stack is empty and the option `empty_stack_accepts_any` is off.
    #[error("the stack is empty and takes no card")]
    EmptyStack {
        /// The stack.
        stack: StackRef,
    },
    /// The card is not the top's rank, one above or one below, and the top is not an ace or king.
    #[error("{card:?} cannot go on {top:?}: same rank, one above or one below only")]
    NotAdjacentRank {
        /// The card played.
        card: Card,
        /// The stack's top.
        top: Card,
    },
    /// A legal play exists, so forfeiting or passing now is not allowed; one such play is named.
    #[error("a play is possible ({card:?} on seat {}'s {:?} stack): you must play", stack.seat, stack.stack)]
    MustPlay {
        /// A card that can be played.
        card: Card,
        /// A stack it fits on.
        stack: StackRef,
    },
    /// A 10 must name two stacks to swap.
    #[error("a 10 must swap two stacks: give `swap`")]
    SwapRequired,
    /// The two stacks of a swap must differ.
    #[error("a swap needs two different stacks")]
    SwapSameStack {
        /// The stack named twice.
        stack: StackRef,
    },
    /// Only a 10 swaps stacks.
    #[error("only a 10 swaps stacks, not {card:?}")]
    SwapNotAllowed {
        /// The card played.
        card: Card,
    },
    /// A king must name two other players.
    #[error("a king must name two other players: give `king_targets`")]
    KingTargetsRequired,
    /// A king's targets are other players.
    #[error("seat {seat} cannot target itself with a king")]
    KingTargetSelf {
        /// The playing seat.
        seat: Seat,
    },
    /// A king's two targets must differ.
    #[error("a king needs two different players, not seat {seat} twice")]
    KingTargetsNotDistinct {
        /// The seat named twice.
        seat: Seat,
    },
    /// Only a king names target players.
    #[error("only a king names target players, not {card:?}")]
    KingTargetsNotAllowed {
        /// The card played.
        card: Card,
    },
    /// The plays are done: pass a card to the left.
    #[error("the plays are done: pass a card to the left")]
    MustPass,
    /// Passing comes after the turn's plays (or a forfeit).
    #[error("play (or forfeit) before passing: {plays_remaining} play(s) remain")]
    PassBeforePlay {
        /// Plays still owed.
        plays_remaining: u32,
    },
    /// No plays remain to forfeit.
    #[error("no plays remain to forfeit")]
    NothingToForfeit,
    /// Every player must place face-up cards first (option `face_up_chosen_by_player`).
    #[error("the face-up cards are being chosen")]
    ChooseFaceUpFirst,
    /// Face-up cards are chosen only right after the deal with `face_up_chosen_by_player`.
    #[error("face-up cards are not being chosen now")]
    NotChoosing,
    /// The seat already placed its face-up cards.
    #[error("seat {seat} has already chosen its face-up cards")]
    AlreadyChosen {
        /// The seat.
        seat: Seat,
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
    /// A deal with the wrong number of seats.
    #[error("expected {expected} seats' cards, got {got}")]
    WrongHandCount {
        /// Players.
        expected: usize,
        /// Lists reported.
        got: usize,
    },
    /// A hand, face-up pair or draw with the wrong number of cards.
    #[error("expected {expected} cards, got {got}")]
    WrongCardCount {
        /// Cards awaited.
        expected: usize,
        /// Cards reported.
        got: usize,
    },
    /// The outcome uses a card the pile does not (or no longer) hold.
    #[error("the pile holds no (more) {card:?}")]
    CardNotInPile {
        /// The first unavailable card.
        card: Card,
    },
    /// A tally lists a different number of players than the table has.
    #[error("the tally lists {got} players, the table has {expected}")]
    WrongPlayerCount {
        /// Players at the table.
        expected: usize,
        /// Players listed.
        got: usize,
    },
    /// A tally lists more than four cards of one rank.
    #[error("{count} cards of rank {card:?} listed; the deck has 4")]
    TooManyOfRank {
        /// The rank.
        card: Card,
        /// How many were listed.
        count: usize,
    },
}

impl crate::games::Violation for PlusMinusViolation {}
