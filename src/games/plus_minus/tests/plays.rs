//! Plays.

use super::*;

#[test]
fn a_card_may_go_on_any_players_plus_or_minus_stack_when_adjacent() {
    // Step 1: "on his own Plus or Minus Stack, or the Plus or Minus Stack of any other player".
    let state = table(
        &["6 9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    for stack in [plus(0), plus(1), minus(1), plus(2)] {
        let expected = matches!(stack, s if s == plus(0) || s == plus(1));
        let mv = play("6", stack);
        assert_eq!(
            PlusMinus::validate(&state, 0, &mv).is_ok(),
            expected,
            "{stack:?}"
        );
    }
    let mut s = state.clone();
    ok(&mut s, 0, &play("6", plus(1)));
    assert_eq!(s.stacks[1].plus, cards("5 6"));
    assert_eq!(s.hands[0], cards("2 9"));
    assert_eq!(s.phase, Phase::Pass);
}

#[test]
fn a_card_that_is_not_adjacent_is_refused_with_the_top_named() {
    let state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    assert_eq!(
        refuse(&state, 0, &play("9", plus(1))),
        V::NotAdjacentRank {
            card: Card::Nine,
            top: Card::Five
        }
    );
    assert_eq!(
        refuse(&state, 0, &play("7", plus(0))),
        V::CardNotInHand { card: Card::Seven }
    );
    assert_eq!(
        refuse(&state, 0, &play("9", plus(5))),
        V::UnknownStack {
            seat: 5,
            players: 3
        }
    );
    assert_eq!(
        refuse(&state, 1, &play("3", minus(0))),
        V::NotYourTurn { seat: 1, turn: 0 }
    );
}

#[test]
fn an_ace_or_king_on_top_takes_any_card_but_only_the_next_one() {
    // Step 4: "Cards after that must be played in accord with the rules of Step 1."
    let mut state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "A"), ("5", "K"), ("8", "Q")],
        0,
    );
    ok(&mut state, 0, &play("9", minus(0)));
    assert_eq!(state.stacks[0].minus, cards("A 9"));
    let mut state = table(
        &["J 2", "3 Q", "4 4"],
        &[("7", "A"), ("5", "K"), ("8", "Q")],
        0,
    );
    ok(&mut state, 0, &play("2", minus(1)));
    ok(&mut state, 0, &pass("J"));
    // Seat 1 now faces a 2 on that stack: the king below no longer makes it wild.
    draw(&mut state, "6");
    assert_eq!(
        refuse(&state, 1, &play("Q", minus(1))),
        V::NotAdjacentRank {
            card: Card::Queen,
            top: Card::Two
        }
    );
}

#[test]
fn an_empty_stack_takes_any_card_by_default_and_none_with_the_option_off() {
    // RULINGS P9 and 5.6 `emptyStackAcceptsAny`.
    let state = table(
        &["9 2", "3 3", "4 4"],
        &[("7 3", ""), ("5", "K"), ("8", "Q")],
        0,
    );
    PlusMinus::validate(&state, 0, &play("9", minus(0))).unwrap();
    let options = Options {
        empty_stack_accepts_any: false,
        ..Options::default()
    };
    let strict = table_with(
        options,
        &["9 2", "3 3", "4 4"],
        &[("7 3", ""), ("5", "K"), ("8", "Q")],
        0,
    );
    assert_eq!(
        refuse(&strict, 0, &play("9", minus(0))),
        V::EmptyStack { stack: minus(0) }
    );
}
