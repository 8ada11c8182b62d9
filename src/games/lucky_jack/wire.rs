//! The wire types of Lucky Jack: options, moves, chance outcomes, state, view, events, score and
//! violations. Every type here is JSON (snake_case) and has an OpenAPI schema.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::cards::{Counts, Symbol};
use crate::games::{Seat, Viewer};

/// Per-match options. Every field is optional in JSON; missing fields take the defaults of the
/// rulebook and RULINGS §2.8.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(default, rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackOptions)]
pub struct Options {
    /// Rounds in the game: 3 or 5.
    #[schema(example = 3)]
    pub rounds: u32,
    /// The seat that deals round 1; the seat on its left starts round 1. Must be below the
    /// number of players.
    #[schema(example = 0)]
    pub dealer: Seat,
    /// When true, taking a discarded drawn card ("I take it!") is the taker's whole turn.
    pub i_take_it_ends_turn: bool,
    /// When true, discarding the drawn card is a regular discard: a lower symbol than the top
    /// costs 2 penalty cards, a same-or-higher symbol is checked for a jackpot.
    pub drawn_discard_follows_symbol_rule: bool,
    /// When true, a lower-symbol discard that leaves a jackpot wins before the 2 penalty cards
    /// are drawn.
    pub lower_discard_can_win: bool,
    /// When true (default) a jackpot is declared automatically; when false it counts only if
    /// the discard move sets `jackpot: true`.
    pub jackpot_auto_declare: bool,
    /// When true (default) the starter, after flipping the first discard, plays first; when
    /// false the seat on the starter's left does.
    pub starter_plays_after_flip: bool,
    /// Safety cap: a round that reaches this many completed turns without a jackpot ends with
    /// nobody scoring. `null` (default) means no cap.
    #[schema(example = json!(null))]
    pub max_turns_per_round: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rounds: 3,
            dealer: 0,
            i_take_it_ends_turn: false,
            drawn_discard_follows_symbol_rule: false,
            lower_discard_can_win: false,
            jackpot_auto_declare: true,
            starter_plays_after_flip: true,
            max_turns_per_round: None,
        }
    }
}

/// A move proposed by a seat.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(examples(
    json!({"type": "discard", "card": "bell"}),
    json!({"type": "discard", "card": "jack", "jackpot": true}),
    json!({"type": "draw"}),
    json!({"type": "keep"}),
    json!({"type": "discard_drawn"}),
    json!({"type": "take_it"})
))]
#[schema(as = LuckyJackMove)]
pub enum Move {
    /// Options 1–3: discard a card from the hand (hand of at least 4 at turn start). A lower
    /// symbol than the discard top costs 2 penalty cards.
    Discard {
        /// The card to discard.
        card: Symbol,
        /// Announce "JACKPOT!" with this discard. Needed only when `jackpot_auto_declare` is
        /// off; announcing a discard that does not leave a jackpot is a violation.
        #[serde(default)]
        jackpot: bool,
    },
    /// Option 4: draw one card; it stays pending until kept or discarded.
    Draw,
    /// Keep the pending drawn card; the turn ends.
    Keep,
    /// Discard the pending drawn card (hand of more than 3 at turn start); the next seat may
    /// take it.
    DiscardDrawn,
    /// "I take it!": the next seat, as the first action of its turn, takes the drawn card the
    /// previous seat just discarded.
    TakeIt,
}

/// A chance outcome: what the shuffle or the draw pile produced.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"kind": "draw", "cards": ["lemon", "jack"]}))]
#[schema(as = LuckyJackChance)]
pub enum Chance {
    /// A round's deal: 7 cards per seat, indexed by seat, then the starter's flip.
    Deal {
        /// Each seat's 7 cards, indexed by seat.
        hands: Vec<Vec<Symbol>>,
        /// The card the starter turns up to start the discard pile.
        flip: Symbol,
    },
    /// The cards taken from the draw pile for the pending draw: exactly the pending `count`.
    Draw {
        /// The drawn cards, in draw order.
        cards: Vec<Symbol>,
    },
    /// After a reshuffle, the card turned up to start the new discard pile.
    Flip {
        /// The flipped card.
        card: Symbol,
    },
}

/// The kind of a chance event.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyJackChanceKind)]
pub enum ChanceKind {
    /// A round's deal and first flip.
    Deal,
    /// Cards drawn from the draw pile.
    Draw,
    /// The flip that restarts the discard pile after a reshuffle.
    Flip,
}

/// The chance outcome play is waiting for, with every possible outcome (the pile's composition).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackPendingChance)]
pub enum PendingChance {
    /// Deal round `round`: `hands` × `cards_per_hand` cards plus one flip, from `pile`.
    Deal {
        /// The round being dealt.
        round: u32,
        /// Number of hands (= players).
        hands: usize,
        /// Cards per hand (7).
        cards_per_hand: usize,
        /// The cards the deal comes from (the whole deck).
        pile: Counts,
    },
    /// `count` cards drawn by `seat` from `pile`.
    Draw {
        /// The drawing seat.
        seat: Seat,
        /// How many cards the outcome must list.
        count: usize,
        /// The draw pile the cards come from.
        pile: Counts,
    },
    /// One card turned up from the freshly reshuffled `pile` by `seat`.
    Flip {
        /// The seat that reshuffled.
        seat: Seat,
        /// The reshuffled draw pile.
        pile: Counts,
    },
}

impl PendingChance {
    /// The kind of outcome awaited.
    pub fn kind(&self) -> ChanceKind {
        match self {
            PendingChance::Deal { .. } => ChanceKind::Deal,
            PendingChance::Draw { .. } => ChanceKind::Draw,
            PendingChance::Flip { .. } => ChanceKind::Flip,
        }
    }

    /// The cards the outcome comes from.
    pub fn pile(&self) -> &Counts {
        match self {
            PendingChance::Deal { pile, .. }
            | PendingChance::Draw { pile, .. }
            | PendingChance::Flip { pile, .. } => pile,
        }
    }
}

/// Where play stands.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyJackPhase)]
pub enum Phase {
    /// Waiting for the round's deal (chance `deal`). All 84 cards are in the draw pile.
    Deal,
    /// `turn` chooses its action (or, first, "I take it!").
    Turn,
    /// `turn` chose option 4; waiting for the drawn card (chance `draw`, or `flip` after a
    /// reshuffle).
    Drawing,
    /// `turn` holds a pending drawn card: keep it or discard it.
    Drawn,
    /// `turn` owes penalty cards after a lower-symbol discard (chance `draw`/`flip`).
    Penalty,
    /// The game is over.
    Over,
}

/// A drawn card just discarded, which the next seat may take with "I take it!".
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackTakeable)]
pub struct Takeable {
    /// The card (the top of the discard pile).
    pub card: Symbol,
    /// The seat that discarded it.
    pub from: Seat,
    /// The only seat that may take it (the next seat).
    pub by: Seat,
}

/// How a discard related to the discard top.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyJackDiscardOption)]
pub enum DiscardOption {
    /// Option 1: same symbol as the top.
    Same,
    /// Option 2: higher symbol than the top (also any discard on an empty pile).
    Higher,
    /// Option 3: lower symbol than the top (2 penalty cards).
    Lower,
}

/// Why a round ended without a jackpot.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyJackNoJackpotReason)]
pub enum NoJackpotReason {
    /// `max_turns_per_round` turns were completed.
    TurnLimit,
    /// A score sheet recorded the round with no jackpot (the table stopped it).
    NoWinner,
}

/// How a round ended.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "result", rename_all = "snake_case")]
#[schema(as = LuckyJackRoundOutcome)]
pub enum RoundOutcome {
    /// `seat` won the round with `size` cards of `symbol`.
    Jackpot {
        /// The winner.
        seat: Seat,
        /// The jackpot symbol.
        symbol: Symbol,
        /// 3 or 4.
        size: usize,
        /// Table value.
        points: u32,
    },
    /// Nobody scored.
    NoJackpot {
        /// Why the round ended.
        reason: NoJackpotReason,
    },
}

/// One finished round.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackRoundResult)]
pub struct RoundResult {
    /// Round number, from 1.
    pub round: u32,
    /// The seat that started it.
    pub starter: Seat,
    /// How it ended.
    pub result: RoundOutcome,
    /// Points scored this round, indexed by seat.
    pub points: Vec<i64>,
}

impl RoundResult {
    /// A finished round: only a jackpot winner scores, the table value (rulebook: "They are the
    /// only player who earns points during this round").
    pub fn new(round: u32, starter: Seat, players: usize, result: RoundOutcome) -> Self {
        let mut points = vec![0i64; players];
        if let RoundOutcome::Jackpot {
            seat, points: p, ..
        } = result
        {
            points[seat] = i64::from(p);
        }
        Self {
            round,
            starter,
            result,
            points,
        }
    }
}

/// A round as a score sheet records it.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"jackpot": {"seat": 2, "symbol": "jack", "size": 4}}))]
#[schema(as = LuckyJackTally)]
pub struct Tally {
    /// Who won the round's jackpot and with what; `null` when nobody did.
    pub jackpot: Option<TallyJackpot>,
}

/// A jackpot written on the score sheet.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackTallyJackpot)]
pub struct TallyJackpot {
    /// The winner.
    pub seat: Seat,
    /// The symbol of the identical cards laid down.
    pub symbol: Symbol,
    /// 3 or 4 cards.
    pub size: usize,
}

/// The complete state, hidden cards included: the document a stateless client holds and posts
/// back.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackState)]
pub struct State {
    /// Number of seats (2–6).
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current round, from 1 (the round being dealt while `phase` is `deal`; the last round once
    /// over).
    pub round: u32,
    /// The seat that started (or will start) the current round.
    pub starter: Seat,
    /// Whose turn it is.
    pub turn: Seat,
    /// Where play stands.
    pub phase: Phase,
    /// Each seat's hand, sorted lowest first, indexed by seat.
    pub hands: Vec<Vec<Symbol>>,
    /// The face-down draw pile as a multiset (its order is decided only when drawing).
    pub draw_pile: Counts,
    /// The face-up discard pile, bottom to top.
    pub discard: Vec<Symbol>,
    /// The card `turn` drew with option 4 and has not yet kept or discarded.
    pub pending: Option<Symbol>,
    /// The discarded drawn card the next seat may take.
    pub takeable: Option<Takeable>,
    /// `turn`'s hand size when its turn (after any "I take it!") began.
    pub turn_start_hand: usize,
    /// Cards `turn` still has to draw (1 for option 4, up to 2 for a penalty), including the
    /// pending chance event.
    pub draw_owed: usize,
    /// Turns completed in this round.
    pub turns_this_round: u32,
    /// Finished rounds.
    pub results: Vec<RoundResult>,
    /// The chance outcome play waits for, if any.
    pub chance: Option<PendingChance>,
}

/// The pending chance event as a viewer sees it.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackChanceView)]
pub struct ChanceView {
    /// What kind of outcome is awaited.
    pub kind: ChanceKind,
    /// The drawing or reshuffling seat (none for a deal).
    pub seat: Option<Seat>,
    /// Cards the outcome takes from the pile (7 × players + 1 for a deal).
    pub count: usize,
    /// Size of the pile the outcome comes from.
    pub pile_size: usize,
    /// The pile's composition: only for the full view.
    pub pile: Option<Counts>,
}

/// What one viewer may see of a state.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackView)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// Number of seats.
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current round, from 1.
    pub round: u32,
    /// The seat that started the current round.
    pub starter: Seat,
    /// Whose turn it is.
    pub turn: Seat,
    /// Where play stands.
    pub phase: Phase,
    /// Seats that may move now (empty while chance is pending or the game is over).
    pub to_act: Vec<Seat>,
    /// The face-up discard pile, bottom to top.
    pub discard: Vec<Symbol>,
    /// Cards in the draw pile.
    pub draw_pile_size: usize,
    /// The draw pile's composition: only for the full view.
    pub draw_pile: Option<Counts>,
    /// Each seat's number of cards.
    pub hand_sizes: Vec<usize>,
    /// Each seat's cards, only where the viewer may see them (own seat, or all for full).
    pub hands: Vec<Option<Vec<Symbol>>>,
    /// Whether `turn` holds a drawn card it has not yet kept or discarded.
    pub drawn_card_pending: bool,
    /// That drawn card: only for its drawer and the full view.
    pub pending: Option<Symbol>,
    /// The discarded drawn card the next seat may take.
    pub takeable: Option<Takeable>,
    /// `turn`'s hand size when its turn began.
    pub turn_start_hand: usize,
    /// Cards `turn` still has to draw.
    pub draw_owed: usize,
    /// Turns completed in this round.
    pub turns_this_round: u32,
    /// The pending chance event.
    pub chance: Option<ChanceView>,
    /// Finished rounds.
    pub results: Vec<RoundResult>,
    /// Points per seat so far.
    pub totals: Vec<i64>,
    /// The viewer's legal moves (empty for spectators and the full view).
    pub legal_moves: Vec<Move>,
}

/// What happened.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyJackEvent)]
pub enum Event {
    /// A round began.
    RoundStarted {
        /// Round number.
        round: u32,
        /// Its starter.
        starter: Seat,
        /// The seat that plays first.
        first: Seat,
    },
    /// `seat` was dealt `count` cards.
    Dealt {
        /// The seat.
        seat: Seat,
        /// Cards dealt.
        count: usize,
        /// The cards, for viewers who may see them.
        cards: Option<Vec<Symbol>>,
    },
    /// `seat` turned up `card` onto the (empty) discard pile.
    Flipped {
        /// Who flipped.
        seat: Seat,
        /// The new discard top.
        card: Symbol,
    },
    /// `seat` discarded `card` from the hand.
    Discarded {
        /// Who discarded.
        seat: Seat,
        /// The card.
        card: Symbol,
        /// Option 1, 2 or 3.
        option: DiscardOption,
    },
    /// `seat` drew `count` cards.
    Drew {
        /// Who drew.
        seat: Seat,
        /// How many.
        count: usize,
        /// The cards, for viewers who may see them.
        cards: Option<Vec<Symbol>>,
    },
    /// A draw could not be made: draw pile and discard pile exhausted.
    DrawVoid {
        /// Who should have drawn.
        seat: Seat,
        /// Cards not drawn.
        count: usize,
    },
    /// `seat` kept its drawn card.
    Kept {
        /// Who kept.
        seat: Seat,
        /// The card, for viewers who may see it.
        card: Option<Symbol>,
    },
    /// `seat` discarded its drawn card.
    DiscardedDrawn {
        /// Who discarded.
        seat: Seat,
        /// The card.
        card: Symbol,
        /// How it compared with the top, when the symbol rule applies to it (option).
        option: Option<DiscardOption>,
    },
    /// `seat` said "I take it!" and took `card`.
    TookIt {
        /// The taker.
        seat: Seat,
        /// The card taken.
        card: Symbol,
    },
    /// `seat` turned the whole discard pile (`cards` cards) into a new draw pile.
    Reshuffled {
        /// Who reshuffled.
        seat: Seat,
        /// Cards moved.
        cards: usize,
    },
    /// `seat` called JACKPOT.
    Jackpot {
        /// The winner.
        seat: Seat,
        /// The symbol.
        symbol: Symbol,
        /// 3 or 4.
        size: usize,
        /// Points scored.
        points: u32,
    },
    /// A round ended.
    RoundEnded {
        /// Round number.
        round: u32,
        /// The jackpot winner, if any.
        winner: Option<Seat>,
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
#[schema(as = LuckyJackScore)]
pub struct Score {
    /// Finished rounds with their points per seat.
    pub rounds: Vec<RoundResult>,
    /// Total points per seat.
    pub totals: Vec<i64>,
}

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
    NoPendingDraw,
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
