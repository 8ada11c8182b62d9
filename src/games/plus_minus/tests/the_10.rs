//! The 10.

use super::*;

#[test]
fn a_ten_must_swap_two_distinct_stacks() {
    // Step 4: "a player must swap any two Stacks"; RULINGS P7.
    let state = table(
        &["10 2", "3 3", "4 4"],
        &[("J", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    assert_eq!(refuse(&state, 0, &play("10", plus(0))), V::SwapRequired);
    assert_eq!(
        refuse(&state, 0, &ten(plus(0), minus(1), minus(1))),
        V::SwapSameStack { stack: minus(1) }
    );
    assert_eq!(
        refuse(&state, 0, &ten(plus(0), minus(1), minus(4))),
        V::UnknownStack {
            seat: 4,
            players: 3
        }
    );
    let stray = Move::Play {
        card: Card::Two,
        stack: minus(0),
        swap: Some([plus(1), plus(2)]),
        king_targets: None,
    };
    assert_eq!(
        refuse(&state, 0, &stray),
        V::SwapNotAllowed { card: Card::Two }
    );
}

#[test]
fn a_ten_swaps_any_stacks_including_the_one_just_played_on() {
    // RULINGS P7: any owners, own included, Plus↔Minus, the played stack too.
    let mut state = table(
        &["10 2", "3 3", "4 4"],
        &[("J", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    let events = ok(&mut state, 0, &ten(plus(0), plus(0), minus(2)));
    assert_eq!(state.stacks[0].plus, cards("Q"));
    assert_eq!(state.stacks[2].minus, cards("J 10"));
    assert!(events.contains(&Event::Swapped {
        seat: 0,
        stacks: [plus(0), minus(2)]
    }));
    // Either order names the same swap.
    let state = table(
        &["10 2", "3 3", "4 4"],
        &[("J", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    PlusMinus::validate(&state, 0, &ten(plus(0), minus(2), plus(0))).unwrap();
}
