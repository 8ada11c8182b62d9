//! Views and redaction.

use super::*;

#[test]
fn views_show_own_hand_stack_tops_and_sizes_but_no_buried_card_or_other_hand() {
    // Step 3: "Cards in any Stack (except the top card) may not be examined"; RULINGS P13.
    let state = table(
        &["9 2", "3 A", "4 4"],
        &[("7 K A", "2 5"), ("5", "J"), ("8", "Q")],
        0,
    );
    let v = PlusMinus::view(&state, Viewer::Seat(1));
    assert_eq!(v.hands[1], Some(cards("A 3")));
    assert_eq!(v.hands[0], None);
    assert_eq!(v.hand_sizes, vec![2, 2, 2]);
    assert_eq!(v.stacks[0].plus.top, Some(Card::Ace));
    assert_eq!(v.stacks[0].plus.size, 3);
    assert_eq!(v.stacks[0].plus.cards, None);
    assert_eq!(v.draw_stack, None);
    assert!(v.legal_moves.is_empty());
    let json = serde_json::to_string(&PlusMinus::view(&state, Viewer::Spectator)).unwrap();
    assert!(!json.contains("\"K\""), "a buried king leaks: {json}");
    let full = PlusMinus::view(&state, Viewer::Full);
    assert_eq!(full.stacks[0].plus.cards, Some(cards("7 K A")));
    assert_eq!(full.draw_stack, Some(state.draw_stack.clone()));
    assert!(full.hands.iter().all(Option::is_some));
    let mine = PlusMinus::view(&state, Viewer::Seat(0));
    assert_eq!(mine.legal_moves, PlusMinus::legal_moves(&state, 0));
}

#[test]
fn dealt_drawn_and_king_moved_cards_are_redacted_for_those_who_may_not_see_them() {
    let dealt_event = Event::Dealt {
        seat: 1,
        hand_size: 2,
        hand: Some(cards("A 2")),
        plus: Some(Card::King),
        minus: Some(Card::Two),
    };
    let drew = Event::Drew {
        seat: 1,
        count: 1,
        reason: DrawReason::TurnStart,
        cards: Some(cards("Q")),
    };
    let moved = Event::MinusToPlus {
        seat: 0,
        target: 1,
        count: 2,
        top: Some(Card::Five),
        cards: Some(cards("J 5")),
    };
    for viewer in [Viewer::Seat(0), Viewer::Spectator] {
        let Event::Dealt { hand, plus, .. } = PlusMinus::redact_event(&dealt_event, viewer) else {
            panic!()
        };
        assert_eq!((hand, plus), (None, Some(Card::King)));
        let Event::Drew { cards: c, .. } = PlusMinus::redact_event(&drew, viewer) else {
            panic!()
        };
        assert_eq!(c, None);
    }
    assert_eq!(PlusMinus::redact_event(&drew, Viewer::Seat(1)), drew);
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let Event::MinusToPlus { cards: c, top, .. } = PlusMinus::redact_event(&moved, viewer)
        else {
            panic!()
        };
        assert_eq!((c, top), (None, Some(Card::Five)));
    }
    assert_eq!(PlusMinus::redact_event(&moved, Viewer::Full), moved);
}
