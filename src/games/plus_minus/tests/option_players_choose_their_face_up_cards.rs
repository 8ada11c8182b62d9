//! Option: players choose their face-up cards.

use super::*;

#[test]
fn option_face_up_chosen_by_player_deals_four_hidden_and_reveals_choices_together() {
    // RULINGS 5.6 `faceUpChosenByPlayer`.
    let mut state = choosing();
    assert_eq!(state.phase, Phase::Choose);
    assert_eq!(PlusMinus::to_act(&state), vec![0, 1, 2]);
    assert_eq!(PlusMinus::legal_moves(&state, 0).len(), 6);
    assert_eq!(refuse(&state, 0, &play("2", plus(1))), V::ChooseFaceUpFirst);
    assert_eq!(
        refuse(&state, 0, &choose("2", "5")),
        V::CardNotInHand { card: Card::Five }
    );
    ok(&mut state, 1, &choose("A", "9"));
    assert_eq!(
        refuse(&state, 1, &choose("4", "6")),
        V::AlreadyChosen { seat: 1 }
    );
    assert_eq!(PlusMinus::to_act(&state), vec![0, 2]);
    // Seat 1's choice is secret from seat 0 until everyone has chosen.
    let v0 = PlusMinus::view(&state, Viewer::Seat(0));
    assert_eq!(v0.stacks[1].plus.top, None);
    assert_eq!(v0.face_up_chosen, vec![false, true, false]);
    let v1 = PlusMinus::view(&state, Viewer::Seat(1));
    assert_eq!(v1.stacks[1].plus.top, Some(Card::Nine));
    ok(&mut state, 0, &choose("K", "2"));
    let events = ok(&mut state, 2, &choose("10", "J"));
    assert!(events.contains(&Event::FaceUpRevealed {
        seat: 1,
        plus: Card::Nine,
        minus: Card::Ace
    }));
    assert_eq!(state.stacks[0].plus, cards("K"));
    assert_eq!(state.hands[0], cards("3 Q"));
    assert_eq!(state.phase, Phase::Drawing);
    assert_eq!(state.turn, 1);
    PlusMinus::check_state(&state).unwrap();
    assert_eq!(
        refuse(&dealt(3, Options::default(), 1), 0, &choose("2", "3")),
        V::from(Common::awaiting(ChanceKind::Draw))
    );
}

#[test]
fn choosing_face_up_cards_is_refused_outside_the_choice() {
    let state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    assert_eq!(
        refuse(
            &state,
            0,
            &Move::ChooseFaceUp {
                cards: [Card::Nine, Card::Two]
            }
        ),
        V::NotChoosing
    );
}
