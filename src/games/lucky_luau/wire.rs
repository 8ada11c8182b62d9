//! The wire types of Lucky Luau: options, moves, chance outcomes, state, view, events, score,
//! tally and violations. Every type here is JSON (snake_case) and has an OpenAPI schema.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::cards::{Card, Colour, Counts, Slot};
use crate::games::{Seat, Viewer};

/// Guests drawn for a game (rulebook setup: "3 Guest cards are drawn at random").
pub const GUESTS: usize = 3;

/// A Guest bonus for one player: `[side A, side B]` points. The rulebook does not print the
/// Guests' texts, so the table supplies what each side is worth to each player (RULINGS L12).
pub type GuestBonus = [i64; 2];

/// `[side A, side B]`: the points one Guest's two sides are worth to a player. (The schema of
/// [`GuestBonus`]; utoipa cannot document an array alias's length.)
pub struct GuestBonusSchema;

impl utoipa::PartialSchema for GuestBonusSchema {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::ArrayBuilder;
        ArrayBuilder::new()
            .items(<i64 as utoipa::PartialSchema>::schema())
            .min_items(Some(2))
            .max_items(Some(2))
            .description(Some("`[side A, side B]` points of one Guest"))
            .into()
    }
}

impl ToSchema for GuestBonusSchema {
    fn name() -> std::borrow::Cow<'static, str> {
        "LuckyLuauGuestBonus".into()
    }
}

/// How the Fish Hook's "off by 1" is read (RULINGS L5).
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyLuauHookRule)]
pub enum HookRule {
    /// 5 points only when the slots left and right differ by exactly 1 (the rulebook's
    /// "5 on the left, 6 on the right").
    CountDiff1,
    /// 5 points when the hook is within one position of the centre: the counts differ by 1 or 2
    /// (in an 11-slot lei, 4 left / 6 right scores 5).
    WithinOnePosition,
}

/// How a Rainbow Flower gets its colour (RULINGS 4.5).
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyLuauRainbowAssignment)]
pub enum RainbowAssignment {
    /// The referee picks the colours that maximise the player's score, unless declared.
    Auto,
    /// Only declared colours count: an undeclared Rainbow acts as no colour and scores 0.
    Declared,
}

/// Per-match options. Every field is optional in JSON; missing fields take the defaults of the
/// rulebook and RULINGS §4.8 (the inferred values of §4.6 included).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(default, rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauOptions)]
pub struct Options {
    /// Value of a Pink Flower (INFERRED, RULINGS 4.6: 9 − copies = 5). 0–20.
    #[schema(example = 5)]
    pub pink_value: i64,
    /// Value of a Ti Leaf next to a leaf (INFERRED, RULINGS 4.6: 9 − copies = 1). 0–20.
    #[schema(example = 1)]
    pub ti_value: i64,
    /// The two plain colours an Orange Flower is made of (INFERRED: red and yellow). Two
    /// different colours.
    #[schema(example = json!(["red", "yellow"]))]
    #[schema(min_items = 2, max_items = 2)]
    pub orange_colours: [Colour; 2],
    /// How the Fish Hook's "off by 1" is read.
    pub hook_off_by_one: HookRule,
    /// Whether Rainbow colours are chosen by the referee (`auto`) or only declared.
    pub rainbow_assignment: RainbowAssignment,
    /// When true a Rainbow may also take the colour of an adjacent Rainbow that itself acts as
    /// the colour of a plain flower next to it (RULINGS L4 says no: default false).
    pub rainbow_chain: bool,
    /// Whether a rare flower provides its colours to an adjacent rare flower (RULINGS L3: yes).
    pub rare_provides_to_rare: bool,
    /// Whether the tools of absent players go into the pile. Only `false` (RULINGS L9, back to
    /// the box) is supported: the rulebook says nothing about drawing a tool.
    pub unused_tools_in_pile: bool,
    /// The seat that plays first (the rulebook picks it with the reference cards). Below the
    /// number of players.
    #[schema(example = 0)]
    pub first_player: Seat,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            pink_value: 5,
            ti_value: 1,
            orange_colours: [Colour::Red, Colour::Yellow],
            hook_off_by_one: HookRule::CountDiff1,
            rainbow_assignment: RainbowAssignment::Auto,
            rainbow_chain: false,
            rare_provides_to_rare: true,
            unused_tools_in_pile: false,
            first_player: 0,
        }
    }
}

/// A move proposed by a seat.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(examples(
    json!({"type": "draw_face_down"}),
    json!({"type": "draw_face_up", "card": "rainbow"}),
    json!({"type": "string"}),
    json!({"type": "string", "spacer": 3}),
    json!({"type": "toss"}),
    json!({"type": "place_spacer"}),
    json!({"type": "place_hook"}),
    json!({"type": "knife", "index": 4}),
    json!({"type": "finish", "guests": [[0, 2], [1, 0], [0, 0]], "rainbows": ["blue"]})
))]
#[schema(as = LuckyLuauMove)]
pub enum Move {
    /// On your turn: draw a face-down card from the pile (a `draw` chance outcome says which).
    DrawFaceDown,
    /// On your turn: take a face-up card someone tossed back; it must be strung.
    DrawFaceUp {
        /// The face-up card taken.
        card: Card,
    },
    /// String the drawn card: at the right end of your lei, or onto your unfilled Spacer (the
    /// Spacer leaves the game). The turn ends.
    String {
        /// Index (from 0, left to right) of your unfilled Spacer to fill; omit to append at
        /// the right end.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spacer: Option<usize>,
    },
    /// Toss the face-down card you drew back to the pile face up. The turn ends.
    Toss,
    /// Tool, any player's turn: append your Spacer at the right end of your lei.
    PlaceSpacer,
    /// Tool, any player's turn: append your Fish Hook at the right end of your lei.
    PlaceHook,
    /// Tool, any player's turn or the end phase: cut one slot from your lei. It leaves the game
    /// and the lei closes up.
    Knife {
        /// Index (from 0, left to right) of the slot to cut.
        index: usize,
    },
    /// End phase: no more Knife for you. Report your Guest bonuses and, optionally, your
    /// Rainbows' colours. When every seat has finished the game is scored.
    Finish {
        /// Per Guest (in the order they will be flipped), `[side A, side B]` points for you.
        /// Omitted: no bonus.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<Vec<GuestBonusSchema>>, example = json!([[0, 2], [1, 0], [0, 0]]))]
        guests: Option<Vec<GuestBonus>>,
        /// One colour per Rainbow in your lei, left to right. Omitted: the referee picks the best
        /// (`auto`) or they count as no colour (`declared`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rainbows: Option<Vec<Colour>>,
    },
}

/// A chance outcome: which card a face-down draw turned up.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"kind": "draw", "card": "rainbow"}))]
#[schema(as = LuckyLuauChance)]
pub enum Chance {
    /// The card the drawing seat picked up from the face-down pile.
    Draw {
        /// The card.
        card: Card,
    },
}

/// The kind of a chance event.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyLuauChanceKind)]
pub enum ChanceKind {
    /// A face-down card drawn from the pile.
    Draw,
}

/// The chance outcome play is waiting for, with every possible outcome.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauPendingChance)]
pub enum PendingChance {
    /// `seat` draws one card from the face-down `pile`.
    Draw {
        /// The drawing seat.
        seat: Seat,
        /// The face-down pile the card comes from.
        pile: Counts,
    },
}

/// Where play stands.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyLuauPhase)]
pub enum Phase {
    /// Turns are played while the centre holds cards.
    Play,
    /// The centre is empty: each seat may still use its Knife, then finishes.
    End,
    /// Every seat finished; the leis are scored.
    Over,
}

/// The card the current player drew and has not yet strung or tossed.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauPending)]
pub struct Pending {
    /// The card.
    pub card: Card,
    /// Whether it was taken face up (then it must be strung).
    pub face_up: bool,
}

/// One seat's lei, tools and end-phase report. All of it is public.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauPlayer)]
pub struct Player {
    /// The lei, left to right.
    pub lei: Vec<Slot>,
    /// Whether the Knife has been used.
    pub knife_used: bool,
    /// Whether the Fish Hook has been placed.
    pub hook_used: bool,
    /// Whether the Spacer has been placed.
    pub spacer_used: bool,
    /// What the Knife cut (out of the game).
    pub cut: Option<Slot>,
    /// Whether the seat finished in the end phase.
    pub finished: bool,
    /// Guest bonuses reported at finish, `[side A, side B]` per Guest (empty before).
    #[schema(value_type = Vec<GuestBonusSchema>)]
    pub guests: Vec<GuestBonus>,
    /// Rainbow colours declared at finish, one per Rainbow left to right (empty: none).
    pub rainbows: Vec<Colour>,
}

/// The complete state, hidden cards included: the document a stateless client holds and posts
/// back.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauState)]
pub struct State {
    /// Number of seats (2–6).
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Where play stands.
    pub phase: Phase,
    /// Whose turn it is (in play).
    pub turn: Seat,
    /// The face-down pile as a multiset (which card is picked is decided only when drawn).
    pub face_down: Counts,
    /// Cards tossed back face up, in the centre.
    pub face_up: Counts,
    /// Each seat's lei and tools, indexed by seat.
    pub seats: Vec<Player>,
    /// The card `turn` drew and has not strung or tossed.
    pub pending: Option<Pending>,
    /// The chance outcome play waits for, if any.
    pub chance: Option<PendingChance>,
}

/// The pending chance event as a viewer sees it.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauChanceView)]
pub struct ChanceView {
    /// What kind of outcome is awaited.
    pub kind: ChanceKind,
    /// The drawing seat.
    pub seat: Seat,
    /// Cards in the face-down pile.
    pub pile_size: usize,
    /// The face-down pile's composition: only for the full view.
    pub pile: Option<Counts>,
}

/// The drawn card as a viewer sees it.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauPendingView)]
pub struct PendingView {
    /// Whether it was taken face up.
    pub face_up: bool,
    /// The card: for everyone if taken face up, else only for its drawer and the full view.
    pub card: Option<Card>,
}

/// What one viewer may see of a state.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauView)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// Number of seats.
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Where play stands.
    pub phase: Phase,
    /// Whose turn it is.
    pub turn: Seat,
    /// Seats that may move now: the current player first, then every seat that may still use
    /// a tool; in the end phase the seats that have not finished.
    pub to_act: Vec<Seat>,
    /// Cards in the face-down pile.
    pub face_down_count: usize,
    /// The face-down pile's composition: only for the full view.
    pub face_down: Option<Counts>,
    /// Face-up cards in the centre.
    pub face_up: Counts,
    /// Every seat's lei and tools (public).
    pub seats: Vec<Player>,
    /// The drawn card not yet strung or tossed.
    pub pending: Option<PendingView>,
    /// The pending chance event.
    pub chance: Option<ChanceView>,
    /// The leis scored as they stand (final once the game is over).
    pub score: Score,
    /// The viewer's legal moves (empty for spectators and the full view).
    pub legal_moves: Vec<Move>,
}

/// What happened.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauEvent)]
pub enum Event {
    /// `seat` reaches for a face-down card (a `draw` chance outcome follows).
    DrawingFaceDown {
        /// The drawing seat.
        seat: Seat,
    },
    /// `seat` drew a card.
    Drew {
        /// The drawing seat.
        seat: Seat,
        /// Whether it was a face-up card.
        face_up: bool,
        /// The card, for viewers who may see it (everyone when face up).
        card: Option<Card>,
    },
    /// `seat` strung `card` at `index` of its lei.
    Strung {
        /// The seat.
        seat: Seat,
        /// The card.
        card: Card,
        /// Its index in the lei, from 0.
        index: usize,
        /// Whether it filled the Spacer there.
        filled_spacer: bool,
    },
    /// `seat` tossed `card` back face up.
    Tossed {
        /// The seat.
        seat: Seat,
        /// The card, now face up in the centre.
        card: Card,
    },
    /// `seat` placed a tool (`hook` or `spacer`) at `index`.
    Placed {
        /// The seat.
        seat: Seat,
        /// `hook` or `spacer`.
        tool: Slot,
        /// Its index in the lei, from 0.
        index: usize,
    },
    /// `seat` cut `slot` from `index` of its lei with the Knife.
    Cut {
        /// The seat.
        seat: Seat,
        /// The index cut.
        index: usize,
        /// What was cut (out of the game).
        slot: Slot,
    },
    /// The turn passed to `seat`.
    TurnStarted {
        /// The seat to play.
        seat: Seat,
    },
    /// The centre is empty: the end phase begins (Knives, then finish).
    CentreEmpty,
    /// `seat` finished.
    Finished {
        /// The seat.
        seat: Seat,
    },
    /// The game ended.
    GameEnded {
        /// The winners (after the Guest tiebreak; several when still tied).
        winners: Vec<Seat>,
        /// Final totals per seat.
        totals: Vec<i64>,
    },
}

/// How one slot of a lei scored.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauSlotScore)]
pub struct SlotScore {
    /// Position, from 1 (left end), as a score sheet numbers it.
    pub position: usize,
    /// What is there.
    pub slot: Slot,
    /// The colour a Rainbow acts as (none for other slots or an unmatched Rainbow).
    pub acts_as: Option<Colour>,
    /// Points scored.
    pub points: i64,
    /// Why, in words.
    pub reason: String,
}

/// One seat's lei scored, with Guests and the tiebreak.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauSeatScore)]
pub struct SeatScore {
    /// The seat.
    pub seat: Seat,
    /// The player's name, when the tally gave one.
    pub player: Option<String>,
    /// Each slot, left to right.
    pub slots: Vec<SlotScore>,
    /// What the Knife cut (scores nothing).
    pub cut: Option<Slot>,
    /// Sum of the slot points (the Kukui set included).
    pub lei_points: i64,
    /// Guest bonuses with every Guest on side A.
    pub guest_points: i64,
    /// Lei points + Guest points.
    pub total: i64,
    /// Tiebreak totals: after flipping Guest 1, Guests 1–2, Guests 1–3 to side B.
    pub tiebreak: Vec<i64>,
    /// The breakdown line by line, for people.
    pub lines: Vec<String>,
}

/// The itemised score of a game (or of a tallied table).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauScore)]
pub struct Score {
    /// Each seat's lei, scored.
    pub seats: Vec<SeatScore>,
    /// Total per seat.
    pub totals: Vec<i64>,
    /// Seats ranked first after the Guest tiebreak (several on a tie that survives every flip).
    /// Final only once the game is over.
    pub winners: Vec<Seat>,
}

/// A lei as typed by hand: one string of card words separated by spaces or commas, or a list of
/// words.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(untagged)]
#[schema(as = LuckyLuauLeiText)]
pub enum LeiText {
    /// `"blue red purple blue cut:yellow hook kukui blue rainbow"`.
    Words(String),
    /// `["blue", "red", "purple"]`.
    List(Vec<String>),
}

/// One player's lei on the score sheet.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckyLuauTallyLei)]
pub struct TallyLei {
    /// The player's name (a label only; the seat is the position in `leis`).
    #[serde(default)]
    pub player: Option<String>,
    /// The final lei left to right. Words: `yellow red blue pink purple orange green rainbow
    /// ti mega kukui hook spacer`, aliases `ti_leaf leaf mega_leaf kukui_nut nut fish_hook`;
    /// `rainbow:blue` declares a Rainbow's colour; `cut:yellow` (or `knife:yellow`) records
    /// the card the Knife removed (it is not on the lei).
    pub lei: LeiText,
    /// Guest bonuses, `[side A, side B]` for each of the 3 Guests in flip order. Omitted: none.
    #[serde(default)]
    #[schema(value_type = Option<Vec<GuestBonusSchema>>, example = json!([[0, 2], [1, 0], [0, 0]]))]
    pub guests: Option<Vec<GuestBonus>>,
}

/// A finished game as people at the table describe it: every player's lei.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"leis": [
    {"player": "Ann", "lei": "blue red purple blue cut:yellow hook kukui blue rainbow", "guests": [[0, 2], [1, 0], [0, 0]]},
    {"player": "Ben", "lei": ["yellow", "green", "blue", "ti", "mega", "spacer"]}
]}))]
#[schema(as = LuckyLuauTally)]
pub struct Tally {
    /// One lei per seat, in seat order.
    pub leis: Vec<TallyLei>,
}

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

/// A player's tool.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckyLuauTool)]
pub enum Tool {
    /// Cuts one slot.
    Knife,
    /// The Fish Hook.
    Hook,
    /// The Spacer.
    Spacer,
}

impl crate::games::Violation for LuckyLuauViolation {}
