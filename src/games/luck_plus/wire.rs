//! The wire types of Luck Plus: options, moves, chance outcomes, state, view, events, score,
//! tally and violations. Every type here is JSON (snake_case) with an OpenAPI schema.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::cards::Card;
use crate::games::{Order, Seat, Viewer};

/// How the game is scored (rulebook "SCORING"; RULINGS 1.9).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusScoringMode)]
pub enum ScoringMode {
    /// One hand won per player who goes out; first to `target` hands wins (default 5).
    Hands,
    /// The points left in the other hands go to the player who went out (+30 for a LUCK OUT);
    /// first to `target` points wins (default 250).
    PointsToWinner,
    /// Each player keeps the points left in his own hand; when anyone reaches `target`
    /// (default 250) the game ends and the lowest total wins.
    PenaltyPoints,
}

/// What a LUCK OUT is worth in penalty scoring (RULINGS 1.9).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusLuckOutPenaltyBonus)]
pub enum LuckOutPenaltyBonus {
    /// The lucky player subtracts 30 points.
    Subtract,
    /// No bonus in penalty scoring.
    Ignore,
}

/// Which cards may join a TRANSFER PLUS's extra card (RULINGS A12).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusTpExtraSameNumberAs)]
pub enum TpExtraSameNumberAs {
    /// Further extras share the rank of the first extra card.
    ChosenCard,
    /// Further extras share the TRANSFER PLUS card's number.
    TpCard,
}

/// What happens to cards listed after a STOP in one play request (RULINGS A15).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusStopMistake)]
pub enum StopMistake {
    /// The whole request is refused (`stop_not_last`).
    Reject,
    /// The groups up to the STOP are placed, the turn ends, later groups stay in the hand.
    Truncate,
}

/// Per-match options (RULINGS 1.10). Every field is optional in JSON.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(default, rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusOptions)]
pub struct Options {
    /// Scoring mode: `hands` (default), `points_to_winner` or `penalty_points`.
    pub scoring: ScoringMode,
    /// The score that ends the game: hands won, or points. `null` means the mode's default:
    /// 5 hands, 250 points.
    #[schema(example = json!(null))]
    pub target: Option<u32>,
    /// After a LUCK OUT every other player still in the hand gets one complete turn; several
    /// players may go out (rulebook "GOING OUT AND WINNING" 1, OPTION).
    pub luck_out_full_round: bool,
    /// A LUCK OUT in penalty scoring: `subtract` 30 points (default) or `ignore`.
    pub luck_out_bonus_in_penalty: LuckOutPenaltyBonus,
    /// When the draw pile is empty, the match pile except its top card becomes the new draw
    /// pile (default true). When false, or nothing can be reshuffled, the draw is void.
    pub reshuffle_match_pile: bool,
    /// When true, one roll may serve several pairs, totals, doubles and one-die matches; by
    /// default each is usable once per roll (RULINGS A5).
    pub dice_reuse_within_roll: bool,
    /// The seat that deals hand 1; the deal passes to the left each hand. Must be below the
    /// number of players.
    #[schema(example = 0)]
    pub dealer: Seat,
    /// TRANSFER PLUS extras: same rank as the first extra (`chosen_card`, default) or as the
    /// TRANSFER PLUS card (`tp_card`).
    pub tp_extra_same_number_as: TpExtraSameNumberAs,
    /// A play request with cards after a STOP: `reject` (default) or `truncate`.
    pub stop_mistake: StopMistake,
    /// Whether the first player of a hand may match the match pile's top before rolling
    /// (default true, RULINGS A6).
    pub pre_roll_top_match_on_first_turn: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            scoring: ScoringMode::Hands,
            target: None,
            luck_out_full_round: false,
            luck_out_bonus_in_penalty: LuckOutPenaltyBonus::Subtract,
            reshuffle_match_pile: true,
            dice_reuse_within_roll: false,
            dealer: 0,
            tp_extra_same_number_as: TpExtraSameNumberAs::ChosenCard,
            stop_mistake: StopMistake::Reject,
            pre_roll_top_match_on_first_turn: true,
        }
    }
}

impl Options {
    /// The target in effect: the option, or 5 hands / 250 points.
    pub fn target(&self) -> u32 {
        self.target.unwrap_or(match self.scoring {
            ScoringMode::Hands => 5,
            ScoringMode::PointsToWinner | ScoringMode::PenaltyPoints => 250,
        })
    }

    /// Which end of the totals wins.
    pub fn order(&self) -> Order {
        match self.scoring {
            ScoringMode::PenaltyPoints => Order::LowestWins,
            _ => Order::HighestWins,
        }
    }
}

/// Why a card group may be placed on the match pile (RULINGS 1.4).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusBasis)]
pub enum Basis {
    /// One card of the match pile top's rank (number against number, DBL on DBL).
    Top,
    /// Two cards placed together showing both dice numbers; a STOP goes second.
    Pair,
    /// One card showing the other die, the match pile's top showing one die.
    Split,
    /// One card showing the dice total.
    Total,
    /// One DBL card on a doubles roll.
    Doubles,
    /// The last card (6 or less) showing one die of a roll made this turn.
    SingleDie,
}

impl Basis {
    /// Cards in a group of this basis.
    pub fn size(self) -> usize {
        match self {
            Basis::Pair => 2,
            _ => 1,
        }
    }
}

/// Cards placed together on the match pile for one reason, in placement order (last on top).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusGroup)]
pub struct Group {
    /// The matching rule the group uses.
    pub basis: Basis,
    /// The cards, first placed first: 2 for `pair`, otherwise 1.
    #[schema(value_type = Vec<Card>)]
    pub cards: Vec<Card>,
}

/// A move proposed by a seat (RULINGS 1.5).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"type": "play", "groups": [
    {"basis": "top", "cards": ["GO-7"]},
    {"basis": "pair", "cards": ["GO-3", "GO-5"]},
    {"basis": "total", "cards": ["STOP-8"]}]}))]
#[schema(examples(
    json!({"type": "roll"}),
    json!({"type": "play", "groups": [
        {"basis": "top", "cards": ["GO-7"]},
        {"basis": "pair", "cards": ["GO-3", "GO-5"]},
        {"basis": "total", "cards": ["STOP-8"]}]}),
    json!({"type": "play", "groups": [{"basis": "doubles", "cards": ["DBL"]},
        {"basis": "total", "cards": ["TR-12"]}]}),
    json!({"type": "play", "groups": [{"basis": "split", "cards": ["GO-4"]}]}),
    json!({"type": "play", "groups": [{"basis": "single_die", "cards": ["STOP-4"]}]}),
    json!({"type": "luck_plus", "bonus": ["STOP-11", "GO-11"]}),
    json!({"type": "draw"}),
    json!({"type": "transfer", "card": "TR-6", "to": 1, "extra": []}),
    json!({"type": "transfer", "card": "TP-3", "to": 2, "extra": ["GO-11", "STOP-11"]}),
    json!({"type": "keep"}),
    json!({"type": "bonus", "cards": ["GO-7", "STOP-7"]})
))]
#[schema(as = LuckPlusMove)]
pub enum Move {
    /// Roll the two dice (before matching, or when a match or transfer requires it).
    Roll,
    /// Place card groups on the match pile, in order; each must match when it is placed.
    Play {
        /// The groups, first placed first.
        groups: Vec<Group>,
    },
    /// Play a LUCK PLUS card on any top, then bonus cards; the turn ends. No bonus leaves the
    /// next player a forced bonus.
    LuckPlus {
        /// Bonus cards: any first card, then only cards of its rank.
        #[serde(default)]
        #[schema(value_type = Vec<Card>)]
        bonus: Vec<Card>,
    },
    /// Draw the top card of the draw pile (after a roll, instead of matching).
    Draw,
    /// Give the TRANSFER (to the left player) or TRANSFER PLUS (to any opponent, with extra
    /// cards) just drawn; then roll again.
    Transfer {
        /// The drawn TRANSFER or TRANSFER PLUS card.
        #[schema(value_type = Card)]
        card: Card,
        /// The receiving seat.
        to: Seat,
        /// TRANSFER PLUS only: one card of choice, then cards of the same number.
        #[serde(default)]
        #[schema(value_type = Vec<Card>)]
        extra: Vec<Card>,
    },
    /// Keep the drawn card; the turn ends.
    Keep,
    /// The forced bonus after a LUCK PLUS without bonus: any card, then cards of its rank.
    Bonus {
        /// The bonus cards (at least one).
        #[schema(value_type = Vec<Card>)]
        cards: Vec<Card>,
    },
}

/// A chance outcome: the deal, a roll, a drawn card.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"kind": "roll", "dice": [3, 5]}))]
#[schema(as = LuckPlusChance)]
pub enum Chance {
    /// A hand's deal: 8 face-up cards per seat, then the cards turned for the match pile:
    /// any LUCK PLUS cards (each goes under the draw pile) and finally one other card.
    Deal {
        /// Each seat's 8 cards, indexed by seat.
        #[schema(value_type = Vec<Vec<Card>>)]
        hands: Vec<Vec<Card>>,
        /// The flipped cards in order: zero or more `LP`, then the match pile's first card.
        #[schema(value_type = Vec<Card>)]
        flips: Vec<Card>,
    },
    /// The faces of the two dice, each 1–6.
    Roll {
        /// Die faces.
        #[schema(min_items = 2, max_items = 2)]
        dice: [u8; 2],
    },
    /// The card taken from the top of the draw pile.
    Draw {
        /// The drawn card.
        #[schema(value_type = Card)]
        card: Card,
    },
}

/// The kind of a chance event.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusChanceKind)]
pub enum ChanceKind {
    /// A hand's deal and first flip(s).
    Deal,
    /// A roll of the two dice.
    Roll,
    /// A card drawn from the draw pile.
    Draw,
}

/// The chance outcome play waits for, with its possible outcomes.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusPendingChance)]
pub enum PendingChance {
    /// Deal hand `hand`: `hands` × `cards_per_hand` cards, then the flips, from `pile`.
    Deal {
        /// The hand being dealt, from 1.
        hand: u32,
        /// Number of hands (= players).
        hands: usize,
        /// Cards per hand (8).
        cards_per_hand: usize,
        /// The cards the deal comes from (the whole deck), sorted.
        #[schema(value_type = Vec<Card>)]
        pile: Vec<Card>,
    },
    /// `seat` rolls the two dice: faces 1–6 each.
    Roll {
        /// The rolling seat.
        seat: Seat,
    },
    /// `seat` draws one card from `pile`.
    Draw {
        /// The drawing seat.
        seat: Seat,
        /// The draw pile's cards, sorted (its order is decided only when drawing).
        #[schema(value_type = Vec<Card>)]
        pile: Vec<Card>,
    },
}

/// Where play stands (RULINGS 1.5).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusPhase)]
pub enum Phase {
    /// Waiting for a hand's deal (chance).
    Deal,
    /// The previous player played a LUCK PLUS without bonus: this turn is one `bonus`.
    ForcedBonus,
    /// Turn start: match the dice still showing or the top, play a LUCK PLUS, or roll.
    PreRoll,
    /// Waiting for the dice (chance).
    Rolling,
    /// Just rolled: match, play a LUCK PLUS, or draw.
    Rolled,
    /// Cards were placed: match more on the same dice, play a LUCK PLUS, or roll.
    Matching,
    /// A card was transferred: roll (or play a LUCK PLUS).
    MustRoll,
    /// Waiting for the drawn card (chance).
    Drawing,
    /// A playable card was drawn: play it, transfer it, play a LUCK PLUS, or keep it.
    Drawn,
    /// The game is over.
    Over,
}

/// How often each once-per-roll basis has been used with the dice showing (RULINGS A5).
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusUsage)]
pub struct Usage {
    /// `pair` and `split` matches.
    pub pair: u32,
    /// `total` matches.
    pub total: u32,
    /// `doubles` matches.
    pub doubles: u32,
    /// `single_die` matches.
    pub single_die: u32,
}

/// A player who went out this hand.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusOut)]
pub struct Out {
    /// The seat.
    pub seat: Seat,
    /// Whether it was a LUCK OUT (out during the seat's first turn of the hand).
    pub luck_out: bool,
}

/// One finished hand, scored.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusHandResult)]
pub struct HandResult {
    /// Hand number, from 1.
    pub hand: u32,
    /// The hand's dealer.
    pub dealer: Seat,
    /// The players who went out, in order.
    pub out: Vec<Out>,
    /// The cards left in each hand, indexed by seat.
    #[schema(value_type = Vec<Vec<Card>>)]
    pub cards_left: Vec<Vec<Card>>,
    /// The points of those cards (number = face value, DBL 15, LP 25), indexed by seat.
    pub left_points: Vec<u32>,
    /// What each seat scores for this hand in the match's scoring mode.
    pub points: Vec<i64>,
}

/// A hand's end as a table describes it: who went out, and the cards left in every hand.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({
    "out": [{"seat": 1, "luck_out": false}],
    "cards_left": [["GO-3", "STOP-12", "LP"], [], ["DBL", "TR-7"]]}))]
#[schema(as = LuckPlusTally)]
pub struct Tally {
    /// Who went out, in order (several only with `luck_out_full_round` after a LUCK OUT).
    pub out: Vec<Out>,
    /// Each seat's cards left, indexed by seat (empty for the players who went out).
    #[schema(value_type = Vec<Vec<Card>>)]
    pub cards_left: Vec<Vec<Card>>,
}

/// The complete state, hidden information included: the document a stateless client holds.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusState)]
pub struct State {
    /// Number of seats (2–8).
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// Current hand, from 1 (the last one once over).
    pub hand: u32,
    /// The current hand's dealer.
    pub dealer: Seat,
    /// Whose turn it is.
    pub turn: Seat,
    /// Where play stands.
    pub phase: Phase,
    /// Each seat's face-up hand, sorted, indexed by seat.
    #[schema(value_type = Vec<Vec<Card>>)]
    pub hands: Vec<Vec<Card>>,
    /// The face-down draw pile as a sorted multiset (its order is decided when drawing).
    #[schema(value_type = Vec<Card>)]
    pub draw_pile: Vec<Card>,
    /// LUCK PLUS cards put under the draw pile at the deal, drawn after the rest, in order.
    #[schema(value_type = Vec<Card>)]
    pub draw_bottom: Vec<Card>,
    /// The face-up match pile, bottom to top.
    #[schema(value_type = Vec<Card>)]
    pub match_pile: Vec<Card>,
    /// The dice showing (`null` before the hand's first roll).
    #[schema(min_items = 2, max_items = 2)]
    pub dice: Option<[u8; 2]>,
    /// Whether the dice showing were rolled during this turn (not inherited).
    pub rolled_this_turn: bool,
    /// Uses of the dice showing during this turn.
    pub used: Usage,
    /// The card just drawn (already in the hand) while the phase is `drawn`.
    #[schema(value_type = Option<Card>)]
    pub drawn: Option<Card>,
    /// Whether this is the turn seat's first turn of the hand (a LUCK OUT if it goes out).
    pub first_turn: bool,
    /// Which seats have begun a turn this hand.
    pub had_turn: Vec<bool>,
    /// Players out this hand (only while a LUCK OUT's full round is being played).
    pub out: Vec<Out>,
    /// After a LUCK OUT with `luck_out_full_round`: the seats still to take their turn.
    pub final_round: Option<Vec<Seat>>,
    /// Finished hands.
    pub results: Vec<HandResult>,
    /// The chance outcome play waits for, if any.
    pub chance: Option<PendingChance>,
}

/// The pending chance event as a viewer sees it.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusChanceView)]
pub struct ChanceView {
    /// What kind of outcome is awaited.
    pub kind: ChanceKind,
    /// The rolling or drawing seat (none for a deal).
    pub seat: Option<Seat>,
    /// Size of the pile the outcome comes from (0 for a roll).
    pub pile_size: usize,
    /// The pile's composition: only for the full view.
    #[schema(value_type = Option<Vec<Card>>)]
    pub pile: Option<Vec<Card>>,
}

/// What one viewer may see of a state. Hands are dealt face up, so every hand is public; only
/// the draw pile (whose order does not exist until drawn) is reduced to its size.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusView)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// Number of seats.
    pub players: usize,
    /// The match options.
    pub options: Options,
    /// The target in effect.
    pub target: u32,
    /// Current hand, from 1.
    pub hand: u32,
    /// The hand's dealer.
    pub dealer: Seat,
    /// Whose turn it is.
    pub turn: Seat,
    /// Where play stands.
    pub phase: Phase,
    /// Seats that may move now.
    pub to_act: Vec<Seat>,
    /// Every seat's face-up hand.
    #[schema(value_type = Vec<Vec<Card>>)]
    pub hands: Vec<Vec<Card>>,
    /// The match pile, bottom to top.
    #[schema(value_type = Vec<Card>)]
    pub match_pile: Vec<Card>,
    /// The match pile's top card.
    #[schema(value_type = Option<Card>)]
    pub match_top: Option<Card>,
    /// Cards in the draw pile (including `draw_bottom`).
    pub draw_pile_size: usize,
    /// The LUCK PLUS cards known to lie under the draw pile.
    #[schema(value_type = Vec<Card>)]
    pub draw_bottom: Vec<Card>,
    /// The draw pile's composition: only for the full view (anyone can derive it).
    #[schema(value_type = Option<Vec<Card>>)]
    pub draw_pile: Option<Vec<Card>>,
    /// The dice showing.
    #[schema(min_items = 2, max_items = 2)]
    pub dice: Option<[u8; 2]>,
    /// Whether they were rolled this turn.
    pub rolled_this_turn: bool,
    /// Uses of the dice showing this turn.
    pub used: Usage,
    /// The card just drawn.
    #[schema(value_type = Option<Card>)]
    pub drawn: Option<Card>,
    /// Whether this is the turn seat's first turn of the hand.
    pub first_turn: bool,
    /// Seats that have begun a turn this hand.
    pub had_turn: Vec<bool>,
    /// Whether this turn is a forced bonus.
    pub forced_bonus_pending: bool,
    /// Players out this hand.
    pub out: Vec<Out>,
    /// Seats still to play in a LUCK OUT's full round.
    pub final_round: Option<Vec<Seat>>,
    /// The pending chance event.
    pub chance: Option<ChanceView>,
    /// Finished hands.
    pub results: Vec<HandResult>,
    /// Totals per seat.
    pub totals: Vec<i64>,
    /// The viewer's legal moves (empty for spectators and the full view). Multi-group plays
    /// and intermediate bonus/extra subsets are accepted but not listed.
    pub legal_moves: Vec<Move>,
}

/// Why a turn ended.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = LuckPlusTurnEnd)]
pub enum TurnEnd {
    /// A STOP card was placed last.
    Stop,
    /// A LUCK PLUS was played.
    LuckPlus,
    /// The forced bonus was played.
    ForcedBonus,
    /// The drawn card was kept.
    Kept,
    /// The drawn card could not be played.
    Unplayable,
    /// Nothing could be drawn.
    DrawVoid,
    /// The player went out.
    WentOut,
}

/// What happened.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusEvent)]
pub enum Event {
    /// A hand began.
    HandStarted {
        /// Hand number.
        hand: u32,
        /// Its dealer.
        dealer: Seat,
        /// The seat that plays first (left of the dealer).
        first: Seat,
    },
    /// `seat` was dealt `cards` face up.
    Dealt {
        /// The seat.
        seat: Seat,
        /// The cards.
        #[schema(value_type = Vec<Card>)]
        cards: Vec<Card>,
    },
    /// A LUCK PLUS turned for the match pile went under the draw pile.
    PutUnder {
        /// The card.
        #[schema(value_type = Card)]
        card: Card,
    },
    /// The match pile was started with `card`.
    Flipped {
        /// The card.
        #[schema(value_type = Card)]
        card: Card,
    },
    /// `seat`'s turn began.
    TurnStarted {
        /// The seat.
        seat: Seat,
        /// Whether it is a forced bonus turn.
        forced_bonus: bool,
    },
    /// `seat` rolled.
    Rolled {
        /// The roller.
        seat: Seat,
        /// The faces.
        #[schema(min_items = 2, max_items = 2)]
        dice: [u8; 2],
    },
    /// `seat` placed a group on the match pile.
    Placed {
        /// The player.
        seat: Seat,
        /// The group.
        group: Group,
    },
    /// Groups after a STOP were not placed (`stop_mistake: truncate`).
    StopIgnored {
        /// The player.
        seat: Seat,
        /// The groups left in the hand.
        groups: Vec<Group>,
    },
    /// `seat` played a LUCK PLUS with `bonus` cards.
    LuckPlusPlayed {
        /// The player.
        seat: Seat,
        /// The bonus cards.
        #[schema(value_type = Vec<Card>)]
        bonus: Vec<Card>,
    },
    /// `seat` owes a forced bonus on its coming turn.
    ForcedBonusOwed {
        /// The seat.
        seat: Seat,
    },
    /// `seat` played its forced bonus.
    BonusPlayed {
        /// The player.
        seat: Seat,
        /// The cards.
        #[schema(value_type = Vec<Card>)]
        cards: Vec<Card>,
    },
    /// The match pile except its top card became the draw pile.
    Reshuffled {
        /// The seat that needed to draw.
        seat: Seat,
        /// Cards moved.
        cards: usize,
    },
    /// `seat` drew `card`.
    Drew {
        /// The drawer.
        seat: Seat,
        /// The card (hands are public).
        #[schema(value_type = Card)]
        card: Card,
        /// Whether it can be played (else it is kept and the turn ends).
        playable: bool,
    },
    /// Nothing could be drawn.
    DrawVoid {
        /// The seat that had to draw.
        seat: Seat,
    },
    /// `seat` kept its drawn card.
    Kept {
        /// The seat.
        seat: Seat,
        /// The card.
        #[schema(value_type = Card)]
        card: Card,
        /// True when it was kept because it could not be played.
        automatic: bool,
    },
    /// `from` gave cards to `to`.
    Transferred {
        /// The giver.
        from: Seat,
        /// The receiver.
        to: Seat,
        /// The cards: the TRANSFER (PLUS) card first.
        #[schema(value_type = Vec<Card>)]
        cards: Vec<Card>,
    },
    /// `seat`'s turn ended.
    TurnEnded {
        /// The seat.
        seat: Seat,
        /// Why.
        reason: TurnEnd,
    },
    /// `seat` went out.
    WentOut {
        /// The seat.
        seat: Seat,
        /// Whether it was a LUCK OUT.
        luck_out: bool,
    },
    /// A LUCK OUT's full round began: these seats each get one more turn.
    FinalRound {
        /// The seats, in turn order.
        seats: Vec<Seat>,
    },
    /// A hand ended and was scored.
    HandEnded {
        /// The result.
        result: HandResult,
    },
    /// The game ended.
    GameEnded {
        /// The winners (shared on a tie).
        winners: Vec<Seat>,
        /// Final totals.
        totals: Vec<i64>,
    },
}

/// The itemised score.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = LuckPlusScore)]
pub struct Score {
    /// The scoring mode.
    pub scoring: ScoringMode,
    /// The target in effect.
    pub target: u32,
    /// Finished hands with their points.
    pub hands: Vec<HandResult>,
    /// Totals per seat.
    pub totals: Vec<i64>,
}

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
