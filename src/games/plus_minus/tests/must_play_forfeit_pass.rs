//! Must play, forfeit, pass.

use super::*;

#[test]
fn a_player_who_can_play_must_play_and_may_not_forfeit() {
    // Step 5: "A player must make a play if he can."
    let state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    assert!(matches!(
        refuse(&state, 0, &Move::Forfeit),
        V::MustPlay { .. }
    ));
    assert_eq!(
        refuse(&state, 0, &pass("9")),
        V::PassBeforePlay { plays_remaining: 1 }
    );
    assert!(!PlusMinus::legal_moves(&state, 0).contains(&Move::Forfeit));
}

#[test]
fn a_player_who_cannot_play_forfeits_and_still_passes() {
    // Step 5: "loses his turn"; RULINGS P10.
    let mut state = table(
        &["9 9", "3 3", "4 4"],
        &[("6", "2"), ("5", "J"), ("3", "Q")],
        0,
    );
    assert_eq!(PlusMinus::legal_moves(&state, 0), vec![Move::Forfeit]);
    let events = ok(&mut state, 0, &Move::Forfeit);
    assert_eq!(
        events,
        vec![Event::Forfeited {
            seat: 0,
            plays_lost: 1
        }]
    );
    assert_eq!(state.phase, Phase::Pass);
    assert_eq!(refuse(&state, 0, &Move::Forfeit), V::NothingToForfeit);
    assert_eq!(refuse(&state, 0, &play("9", plus(0))), V::MustPass);
    ok(&mut state, 0, &pass("9"));
    assert_eq!(state.hands[1], cards("3 3 9"));
}

#[test]
fn option_pass_after_forfeit_off_ends_the_turn_at_the_forfeit() {
    // RULINGS 5.6 `passAfterForfeit`.
    let options = Options {
        pass_after_forfeit: false,
        ..Options::default()
    };
    let mut state = table_with(
        options,
        &["9 9", "3 3", "4 4"],
        &[("6", "2"), ("5", "J"), ("3", "Q")],
        0,
    );
    ok(&mut state, 0, &Move::Forfeit);
    assert_eq!(state.turn, 1);
    assert_eq!(state.hands[0], cards("9 9"));
    assert_eq!(state.phase, Phase::Drawing);
}

#[test]
fn the_pass_goes_face_down_to_the_left_and_only_passer_and_receiver_see_it() {
    // Step 1: "passes one card from his hand face down to the player on his left"; 5.3.
    let mut state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        2,
    );
    ok(&mut state, 2, &play("4", plus(1)));
    assert_eq!(
        refuse(&state, 2, &pass("Q")),
        V::CardNotInHand { card: Card::Queen }
    );
    let events = ok(&mut state, 2, &pass("4"));
    let passed = events[0].clone();
    assert_eq!(
        passed,
        Event::Passed {
            seat: 2,
            to: 0,
            card: Some(Card::Four)
        }
    );
    assert_eq!(state.hands[0], cards("2 4 9"));
    for (viewer, sees) in [
        (Viewer::Seat(2), true),
        (Viewer::Seat(0), true),
        (Viewer::Seat(1), false),
        (Viewer::Spectator, false),
        (Viewer::Full, true),
    ] {
        let redacted = PlusMinus::redact_event(&passed, viewer);
        let Event::Passed { card, .. } = redacted else {
            panic!()
        };
        assert_eq!(card.is_some(), sees, "{viewer:?}");
    }
}
