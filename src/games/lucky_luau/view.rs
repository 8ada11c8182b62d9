//! What each viewer may see of a state and of an event. Everything is public except which card
//! a face-down draw turned up (until it is strung or tossed) and the face-down pile's make-up.

use super::*;

pub(super) fn view(state: &State, viewer: Viewer) -> View {
    let full = viewer == Viewer::Full;
    let chance = state.chance.as_ref().map(|c| {
        let PendingChance::Draw { seat, pile } = c;
        ChanceView {
            kind: ChanceKind::Draw,
            seat: *seat,
            pile_size: pile.total(),
            pile: full.then_some(*pile),
        }
    });
    let pending = state.pending.map(|p| PendingView {
        face_up: p.face_up,
        card: (p.face_up || viewer.sees_seat(state.turn)).then_some(p.card),
    });
    let legal_moves = match viewer {
        Viewer::Seat(seat) => LuckyLuau::legal_moves(state, seat),
        _ => Vec::new(),
    };
    View {
        viewer,
        players: state.players,
        options: state.options.clone(),
        phase: state.phase,
        turn: state.turn,
        to_act: LuckyLuau::to_act(state),
        face_down_count: state.face_down.total(),
        face_down: full.then_some(state.face_down),
        face_up: state.face_up,
        seats: state.seats.clone(),
        pending,
        chance,
        score: score(state),
        legal_moves,
    }
}

pub(super) fn redact_event(event: &Event, viewer: Viewer) -> Event {
    let mut event = event.clone();
    if let Event::Drew {
        seat,
        face_up: false,
        card,
    } = &mut event
    {
        if !viewer.sees_seat(*seat) {
            *card = None;
        }
    }
    event
}
