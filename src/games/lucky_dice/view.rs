//! What each viewer may see of a state: everything on the table, not the pile's composition.

use super::*;

pub(super) fn view(state: &State, viewer: Viewer) -> View {
    let legal_moves = match viewer {
        Viewer::Seat(seat) => LuckyDice::legal_moves(state, seat),
        _ => Vec::new(),
    };
    View {
        viewer,
        players: state.players,
        options: state.options.clone(),
        round: state.round,
        phase: state.phase,
        to_act: LuckyDice::to_act(state),
        lucky_symbol: state.lucky_symbol,
        coasters: state.coasters.clone(),
        won: state.won.clone(),
        pools: state.pools.clone(),
        tray: state.tray,
        pile_size: state.pile.len(),
        pile: (viewer == Viewer::Full).then(|| state.pile.clone()),
        stop_caller: state.stop_caller,
        extra_rolls_used: state.extra_rolls_used.clone(),
        finished_extra: state.finished_extra.clone(),
        chance: state.chance.clone(),
        results: state.results.clone(),
        totals: totals(state),
        legal_moves,
    }
}
