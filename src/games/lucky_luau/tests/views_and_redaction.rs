//! Views and redaction.

use super::*;

#[test]
fn a_face_down_card_is_seen_only_by_its_drawer_until_strung_or_tossed() {
    // RULINGS 4.3: hidden = identity of face-down pile cards (and the drawn one until placed).
    let mut state = new_game(2);
    play(&mut state, 0, Move::DrawFaceDown);
    let events = LuckyLuau::resolve_chance(&mut state, &Chance::Draw { card: Card::Pink }).unwrap();
    let other = LuckyLuau::redact_event(&events[0], Viewer::Seat(1));
    assert_eq!(
        other,
        Event::Drew {
            seat: 0,
            face_up: false,
            card: None
        }
    );
    assert_eq!(
        LuckyLuau::redact_event(&events[0], Viewer::Seat(0)),
        events[0]
    );
    let spectator = LuckyLuau::view(&state, Viewer::Spectator);
    assert_eq!(
        spectator.pending,
        Some(PendingView {
            face_up: false,
            card: None
        })
    );
    assert_eq!(spectator.face_down, None);
    assert!(spectator.legal_moves.is_empty());
    let drawer = LuckyLuau::view(&state, Viewer::Seat(0));
    assert_eq!(drawer.pending.unwrap().card, Some(Card::Pink));
    assert_eq!(drawer.legal_moves, vec![string_end(), Move::Toss]);
    let full = LuckyLuau::view(&state, Viewer::Full);
    assert_eq!(full.face_down, Some(state.face_down));
    let face_up = Event::Drew {
        seat: 0,
        face_up: true,
        card: Some(Card::Red),
    };
    assert_eq!(
        LuckyLuau::redact_event(&face_up, Viewer::Spectator),
        face_up
    );
}
