//! The king.

use super::*;

#[test]
fn a_king_moves_two_other_players_top_two_minus_cards_onto_their_plus_keeping_order() {
    // Step 4: "moves the top 2 cards ... to the top of their Plus Stacks (keeping the order)".
    let mut state = table(
        &["K 2", "3 3", "4 4", "6 6"],
        &[("Q", "2"), ("8", "J 10 9"), ("7", "Q A"), ("9", "5")],
        0,
    );
    let events = ok(&mut state, 0, &king(plus(0), 1, 3));
    assert_eq!(state.stacks[1].plus, cards("8 10 9"));
    assert_eq!(state.stacks[1].minus, cards("J"));
    // Fewer than two: what exists moves (RULINGS P8).
    assert_eq!(state.stacks[3].plus, cards("9 5"));
    assert!(state.stacks[3].minus.is_empty());
    // Untargeted seat 2 is untouched.
    assert_eq!(state.stacks[2].minus, cards("Q A"));
    assert!(events.contains(&Event::MinusToPlus {
        seat: 0,
        target: 1,
        count: 2,
        top: Some(Card::Nine),
        cards: Some(cards("10 9")),
    }));
}

#[test]
fn a_king_needs_two_distinct_other_players() {
    // RULINGS 5.4.3 and 5.8.
    let state = table(
        &["K 2", "3 3", "4 4"],
        &[("Q", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    assert_eq!(
        refuse(&state, 0, &play("K", plus(0))),
        V::KingTargetsRequired
    );
    assert_eq!(
        refuse(&state, 0, &king(plus(0), 0, 1)),
        V::KingTargetSelf { seat: 0 }
    );
    assert_eq!(
        refuse(&state, 0, &king(plus(0), 2, 2)),
        V::KingTargetsNotDistinct { seat: 2 }
    );
    assert_eq!(
        refuse(&state, 0, &king(plus(0), 1, 7)),
        V::from(Common::UnknownSeat {
            seat: 7,
            players: 3
        })
    );
    let stray = Move::Play {
        card: Card::Two,
        stack: minus(0),
        swap: None,
        king_targets: Some([1, 2]),
    };
    assert_eq!(
        refuse(&state, 0, &stray),
        V::KingTargetsNotAllowed { card: Card::Two }
    );
}
