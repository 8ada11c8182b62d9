//! The 5.

use super::*;

#[test]
fn a_five_draws_two_more_cards_and_gives_two_more_plays() {
    // Step 4: "After playing a 5, a player draws two more cards ... and plays twice more".
    let mut state = table(
        &["5 9", "3 3", "4 4"],
        &[("6", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    ok(&mut state, 0, &play("5", plus(0)));
    assert_eq!(state.phase, Phase::Drawing);
    assert_eq!(state.plays_remaining, 2);
    match &state.chance {
        Some(PendingChance::Draw { count, reason, .. }) => {
            assert_eq!((*count, *reason), (2, DrawReason::Five))
        }
        other => panic!("{other:?}"),
    }
    draw(&mut state, "7 J");
    assert_eq!(state.hands[0], cards("7 9 J"));
    assert_eq!(state.phase, Phase::Play);
    ok(&mut state, 0, &play("9", plus(1)));
    assert_eq!(state.phase, Phase::Play);
    ok(&mut state, 0, &play("J", minus(1)));
    assert_eq!(state.phase, Phase::Pass);
    assert_eq!(state.hands[0], cards("7"));
}

#[test]
fn fives_chain_each_adding_two_draws_and_two_plays() {
    // RULINGS P6.
    let mut state = table(
        &["5 9", "3 3", "4 4"],
        &[("6", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    ok(&mut state, 0, &play("5", plus(0)));
    draw(&mut state, "5 K");
    ok(&mut state, 0, &play("5", plus(0)));
    assert_eq!(state.plays_remaining, 3);
    draw(&mut state, "7 8");
    assert_eq!(state.hands[0], cards("7 8 9 K"));
}

#[test]
fn a_five_on_a_short_draw_stack_draws_what_is_left_and_still_gives_two_plays() {
    // RULINGS P5.
    let state = table(
        &["5 9 6", "3 3", "4 4"],
        &[("6", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    let mut state = with_draw(state, "7");
    ok(&mut state, 0, &play("5", plus(0)));
    match &state.chance {
        Some(PendingChance::Draw { count, .. }) => assert_eq!(*count, 1),
        other => panic!("{other:?}"),
    }
    draw(&mut state, "7");
    assert_eq!(state.plays_remaining, 2);
    ok(&mut state, 0, &play("6", plus(0)));
    ok(&mut state, 0, &play("7", plus(0)));
    assert_eq!(state.phase, Phase::Pass);
    // A five on an empty draw stack draws nothing but still gives its plays.
    let state = table(
        &["5 9 6", "3 3", "4 4"],
        &[("6", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    let mut state = with_draw(state, "");
    ok(&mut state, 0, &play("5", plus(0)));
    assert!(state.chance.is_none());
    assert_eq!((state.phase, state.plays_remaining), (Phase::Play, 2));
}

#[test]
fn a_hand_emptied_by_plays_ends_the_turn_without_a_pass() {
    // RULINGS 5.4.5: "skipped if the hand is empty".
    let state = table(
        &["5 5", "3 3", "4 4"],
        &[("6", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    let mut state = with_draw(state, "");
    ok(&mut state, 0, &play("5", plus(0)));
    let events = ok(&mut state, 0, &play("5", plus(0)));
    assert!(events.contains(&Event::Forfeited {
        seat: 0,
        plays_lost: 3
    }));
    // The draw stack was already empty, so the round is over.
    assert_eq!(state.results.len(), 1);
}
