//! What each viewer may see. Luck Plus hands are dealt face up (RULINGS 1.2–1.3): every hand,
//! the match pile, the dice and every drawn card are public. Only the draw pile is hidden, and
//! since its order does not exist until a card is drawn, a seat's view shows just its size (its
//! composition is derivable from the public cards; the full view lists it).

use super::*;

pub(super) fn view(state: &State, viewer: Viewer) -> View {
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
    let legal_moves = match viewer {
        Viewer::Seat(seat) => LuckPlus::legal_moves(state, seat),
        _ => Vec::new(),
    };
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
        legal_moves,
    }
}
