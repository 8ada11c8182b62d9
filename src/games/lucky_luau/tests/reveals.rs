//! Which moves show what was hidden, so that they can never be taken back (`Rules::reveals`).
//! RULINGS 4.3: everything is public but the identity of face-down pile cards; `View::pending`
//! shows a card drawn face down to its drawer only, until it is strung or tossed face up.

use super::*;
use crate::games::chance::Randomness;
use crate::games::kit::sightings::newly_seen;
use crate::games::Game;
use serde_json::Value;

fn is_card(s: &str) -> bool {
    serde_json::from_value::<Card>(Value::String(s.into())).is_ok()
}

/// What `mv` by `seat` shows anyone that they had not seen. The score is left out: it is
/// worked out from the leis, which are public.
fn shows(state: &State, seat: Seat, mv: Move) -> Vec<(Viewer, String)> {
    newly_seen::<LuckyLuau>(state, seat, &mv, &["score"], &is_card)
}

/// Seat 0 holding `card`, drawn face down: only it sees which card it is.
fn drawn_face_down(card: Card) -> State {
    let mut state = new_game(3);
    draw(&mut state, 0, card);
    let theirs = LuckyLuau::view(&state, Viewer::Seat(1)).pending.unwrap();
    assert_eq!(theirs.card, None);
    state
}

#[test]
fn stringing_a_card_drawn_face_down_shows_it_to_the_table() {
    // RULINGS 4.4: the pending card is "seen by all once kept/tossed".
    let state = drawn_face_down(Card::Rainbow);
    assert!(LuckyLuau::reveals(&state, 0, &string_end()));
    let shown = shows(&state, 0, string_end());
    assert!(shown.contains(&(Viewer::Seat(1), "rainbow".into())));
    assert!(shown.contains(&(Viewer::Spectator, "rainbow".into())));
}

#[test]
fn stringing_a_card_drawn_face_down_onto_the_spacer_shows_it_too() {
    // RB Spacers: the drawn card takes the Spacer's place in the public lei.
    let mut state = new_game(3);
    play(&mut state, 0, Move::PlaceSpacer);
    draw(&mut state, 0, Card::Mega);
    let mv = Move::String { spacer: Some(0) };
    assert!(LuckyLuau::reveals(&state, 0, &mv));
    assert!(shows(&state, 0, mv).contains(&(Viewer::Seat(2), "mega".into())));
}

#[test]
fn tossing_a_card_drawn_face_down_shows_it_face_up_in_the_centre() {
    // RB: "toss it back to the pile face up".
    let state = drawn_face_down(Card::Kukui);
    assert!(LuckyLuau::reveals(&state, 0, &Move::Toss));
    assert!(shows(&state, 0, Move::Toss).contains(&(Viewer::Spectator, "kukui".into())));
}

#[test]
fn drawing_face_down_shows_nothing_since_the_card_comes_with_its_chance_event() {
    // The `draw` chance outcome names the card, and only to the drawer (`Event::Drew`).
    let state = new_game(3);
    assert!(!LuckyLuau::reveals(&state, 0, &Move::DrawFaceDown));
    assert_eq!(shows(&state, 0, Move::DrawFaceDown), vec![]);
}

#[test]
fn drawing_a_face_up_card_and_stringing_it_handle_a_card_everyone_saw() {
    // RULINGS 4.3: face-up cards in the pile are public, and so is a pending face-up card.
    let mut state = drawn_face_down(Card::Ti);
    play(&mut state, 0, Move::Toss);
    let take = Move::DrawFaceUp { card: Card::Ti };
    assert!(!LuckyLuau::reveals(&state, 1, &take));
    assert_eq!(shows(&state, 1, take.clone()), vec![]);
    play(&mut state, 1, take);
    assert!(!LuckyLuau::reveals(&state, 1, &string_end()));
    assert_eq!(shows(&state, 1, string_end()), vec![]);
}

#[test]
fn the_tools_change_only_public_leis_even_while_another_seat_holds_a_hidden_card() {
    // RULINGS 4.3: every lei and the tool usage are public.
    let mut state = drawn_face_down(Card::Blue);
    play(&mut state, 0, string_end());
    draw(&mut state, 1, Card::Purple);
    for (seat, mv) in [
        (2, Move::PlaceSpacer),
        (2, Move::PlaceHook),
        (0, Move::Knife { index: 0 }),
    ] {
        assert!(!LuckyLuau::reveals(&state, seat, &mv), "{mv:?}");
        assert_eq!(shows(&state, seat, mv.clone()), vec![], "{mv:?}");
        play(&mut state, seat, mv);
    }
}

#[test]
fn finishing_shows_nothing_not_even_the_last_finish_that_scores_the_leis() {
    // RULINGS 4.4: the end phase comes when the centre is empty; every lei is public.
    let mut state = near_end(&[Card::Green]);
    draw(&mut state, 0, Card::Green);
    play(&mut state, 0, string_end());
    assert_eq!(state.phase, Phase::End);
    let finish = Move::Finish {
        guests: None,
        rainbows: None,
    };
    for seat in 0..2 {
        assert!(!LuckyLuau::reveals(&state, seat, &finish));
        assert_eq!(shows(&state, seat, finish.clone()), vec![]);
        play(&mut state, seat, finish.clone());
    }
    assert_eq!(state.phase, Phase::Over);
}

#[test]
fn in_random_games_a_move_shows_a_new_card_exactly_when_it_is_said_to_reveal() {
    // Checks `reveals` against the views: whatever it answers false for, no seat or spectator
    // sees a card identity more often, in the view or the move's events, than before; and
    // whatever it answers true for shows some other seat a new card.
    for seed in 0..6u64 {
        let players = 2 + (seed as usize % 5);
        let mut state =
            LuckyLuau::setup(LuckyLuau::validate_options(&Options::default(), players).unwrap());
        let rng: &mut dyn Randomness = &mut SplitMix(seed);
        let mut answered = [0usize; 2];
        while !LuckyLuau::is_over(&state) {
            if LuckyLuau::chance_pending(&state) {
                let outcome = LuckyLuau::sample_chance(&state, rng);
                LuckyLuau::resolve_chance(&mut state, &outcome).unwrap();
                continue;
            }
            let seats = LuckyLuau::to_act(&state);
            let seat = seats[rng.below(seats.len())];
            let moves = LuckyLuau::legal_moves(&state, seat);
            let mv = moves[rng.below(moves.len())].clone();
            let reveals = LuckyLuau::reveals(&state, seat, &mv);
            answered[usize::from(reveals)] += 1;
            let shown = shows(&state, seat, mv.clone());
            if reveals {
                let other = Viewer::Seat((seat + 1) % players);
                assert!(shown.iter().any(|(v, _)| *v == other), "{mv:?}");
            } else {
                assert_eq!(shown, vec![], "{mv:?} in {state:?}");
            }
            play(&mut state, seat, mv);
        }
        assert!(
            answered[0] > 0 && answered[1] > 0,
            "both answers were tried"
        );
    }
}
