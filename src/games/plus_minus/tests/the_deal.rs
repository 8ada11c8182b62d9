//! The deal.

use super::*;

#[test]
fn the_deal_gives_two_hidden_and_two_face_up_cards_and_leaves_the_draw_stack() {
    // Overview; RULINGS 5.2: 52 − 4n = 40/36/32/28.
    for (n, left) in [(3, 40), (4, 36), (5, 32), (6, 28)] {
        let state = dealt(n, Options::default(), n as u64);
        for seat in 0..n {
            assert_eq!(state.hands[seat].len(), 2);
            assert_eq!(state.stacks[seat].plus.len(), 1);
            assert_eq!(state.stacks[seat].minus.len(), 1);
        }
        // The first turn's draw is pending from the rest.
        assert_eq!(state.draw_stack.len(), left);
        assert_eq!(state.phase, Phase::Drawing);
        PlusMinus::check_state(&state).unwrap();
    }
}

#[test]
fn the_higher_face_up_card_starts_the_plus_stack_by_rank_with_the_ace_low() {
    // Step 3; RULINGS P2.
    let mut state = PlusMinus::setup(PlusMinus::validate_options(&Options::default(), 3).unwrap());
    let deal = Chance::Deal {
        hands: vec![cards("2 3"), cards("4 6"), cards("7 8")],
        face_up: vec![cards("A K"), cards("9 J"), cards("5 5")],
    };
    PlusMinus::resolve_chance(&mut state, &deal).unwrap();
    assert_eq!(state.stacks[0].plus, cards("K"));
    assert_eq!(state.stacks[0].minus, cards("A"));
    assert_eq!(state.stacks[1].plus, cards("J"));
    assert_eq!(state.stacks[1].minus, cards("9"));
    // Equal ranks: either way.
    assert_eq!(state.stacks[2].plus, cards("5"));
    assert_eq!(state.stacks[2].minus, cards("5"));
}

#[test]
fn option_higher_by_points_puts_the_ace_on_plus_and_breaks_point_ties_by_rank() {
    // RULINGS 5.6 `higherBy`.
    let options = Options {
        higher_by: HigherBy::Points,
        ..Options::default()
    };
    assert_eq!(
        plus_and_minus(HigherBy::Points, Card::King, Card::Ace),
        (Card::Ace, Card::King)
    );
    assert_eq!(
        plus_and_minus(HigherBy::Points, Card::Two, Card::Five),
        (Card::Five, Card::Two)
    );
    assert_eq!(
        plus_and_minus(HigherBy::Points, Card::Nine, Card::Two),
        (Card::Two, Card::Nine)
    );
    let mut state = PlusMinus::setup(PlusMinus::validate_options(&options, 3).unwrap());
    let deal = Chance::Deal {
        hands: vec![cards("2 3"), cards("4 6"), cards("7 8")],
        face_up: vec![cards("K A"), cards("9 J"), cards("5 5")],
    };
    PlusMinus::resolve_chance(&mut state, &deal).unwrap();
    assert_eq!(state.stacks[0].plus, cards("A"));
}

#[test]
fn the_player_left_of_the_dealer_starts_by_drawing_two() {
    // Step 1: "the player to the dealer's left takes 2 cards".
    let options = Options {
        first_dealer: 2,
        ..Options::default()
    };
    let state = dealt(4, options, 1);
    assert_eq!(state.turn, 3);
    match &state.chance {
        Some(PendingChance::Draw {
            seat,
            count,
            reason,
            ..
        }) => {
            assert_eq!((*seat, *count, *reason), (3, 2, DrawReason::TurnStart));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn later_turns_draw_one_card_and_the_turn_passes_left() {
    // Step 1: "subsequent players take only one card"; RULINGS 5.4.1.
    let mut state = dealt(3, Options::default(), 9);
    let first = state.turn;
    let outcome = PlusMinus::sample_chance(&state, &mut SplitMix(3));
    PlusMinus::resolve_chance(&mut state, &outcome).unwrap();
    assert_eq!(state.hands[first].len(), 4);
    while state.phase == Phase::Play {
        let mv = PlusMinus::legal_moves(&state, first)[0].clone();
        ok(&mut state, first, &mv);
        if state.phase == Phase::Drawing {
            let outcome = PlusMinus::sample_chance(&state, &mut SplitMix(4));
            PlusMinus::resolve_chance(&mut state, &outcome).unwrap();
        }
    }
    if state.phase == Phase::Pass {
        let mv = PlusMinus::legal_moves(&state, first)[0].clone();
        ok(&mut state, first, &mv);
    }
    assert_eq!(state.turn, (first + 1) % 3);
    match &state.chance {
        Some(PendingChance::Draw { count, .. }) => assert_eq!(*count, 1),
        other => panic!("{other:?}"),
    }
}
