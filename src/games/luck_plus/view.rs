//! What each viewer may see. Luck Plus hands are dealt face up (RULINGS 1.2–1.3): every hand,
//! the match pile, the dice and every drawn card are public. Only the draw pile is hidden, and
//! since its order does not exist until a card is drawn, a seat's view shows just its size (its
//! composition is derivable from the public cards; the full view lists it).
//!
//! The view types themselves are here too, next to the code that fills them.

use super::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

impl crate::games::Sight<State> for View {
    fn of(state: &State, viewer: Viewer) -> View {
        let full = viewer == Viewer::Full;
        let chance = state.chance.as_ref().map(|c| {
            let (seat, pile) = match c {
                PendingChance::Deal { pile, .. } => (None, Some(pile)),
                PendingChance::Roll { seat } => (Some(*seat), None),
                PendingChance::Draw { seat, pile } => (Some(*seat), Some(pile)),
            };
            ChanceView {
                kind: c.kind(),
                seat,
                pile_size: pile.map_or(0, Vec::len),
                pile: if full { pile.cloned() } else { None },
            }
        });
        View {
            viewer,
            players: state.players,
            options: state.options.clone(),
            target: state.options.target(),
            hand: state.hand,
            dealer: state.dealer,
            turn: state.turn,
            phase: state.phase,
            to_act: LuckPlus::to_act(state),
            hands: state.hands.clone(),
            match_pile: state.match_pile.clone(),
            match_top: state.match_pile.last().copied(),
            draw_pile_size: state.draw_pile.len() + state.draw_bottom.len(),
            draw_bottom: state.draw_bottom.clone(),
            draw_pile: full.then(|| state.draw_pile.clone()),
            dice: state.dice,
            rolled_this_turn: state.rolled_this_turn,
            used: state.used,
            drawn: state.drawn,
            first_turn: state.first_turn,
            had_turn: state.had_turn.clone(),
            forced_bonus_pending: state.phase == Phase::ForcedBonus,
            out: state.out.clone(),
            final_round: state.final_round.clone(),
            chance,
            results: state.results.clone(),
            totals: totals(state.players, &state.results),
            legal_moves: LuckPlus::view_moves(state, viewer),
        }
    }
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
    #[schema(value_type = Vec<HandResult>)]
    pub results: Rounds<HandResult>,
    /// Totals per seat.
    pub totals: Vec<i64>,
    /// The viewer's legal moves (empty for spectators and the full view). Multi-group plays
    /// and intermediate bonus/extra subsets are accepted but not listed.
    pub legal_moves: Vec<Move>,
}

impl crate::games::Redact for Event {
    fn redacted(&self, _viewer: Viewer) -> Event {
        // Hands are face up and every event shows only public cards: nothing to hide.
        self.clone()
    }
}
