//! Which moves show what was hidden, so that they can never be taken back (`Rules::reveals`).
//! RULINGS 5.3: hands, the cards under each stack's top and passed cards (known only to passer
//! and receiver) are hidden; the views show a hand to its seat only and each stack's top only.

use super::*;
use crate::games::chance::Randomness;
use crate::games::kit::sightings::newly_seen;
use crate::games::Game;
use serde_json::Value;

fn is_card(s: &str) -> bool {
    serde_json::from_value::<Card>(Value::String(s.into())).is_ok()
}

/// What `mv` by `seat` shows anyone that they had not seen.
fn shows(state: &State, seat: Seat, mv: &Move) -> Vec<(Viewer, String)> {
    newly_seen::<PlusMinus>(state, seat, mv, &[], &is_card)
}

/// Seat 0 to play, with no card that fits anywhere (a 9 on tops 6, 2, 5, J, 3, Q).
fn stuck(options: Options) -> State {
    table_with(
        options,
        &["9 9", "3 3", "4 4"],
        &[("6", "2"), ("5", "J"), ("3", "Q")],
        0,
    )
}

fn no_pass_after_forfeit() -> Options {
    Options {
        pass_after_forfeit: false,
        ..Options::default()
    }
}

#[test]
fn playing_a_hand_card_lays_a_hidden_card_face_up() {
    // Step 2: a play puts a hand card on a stack, whose top everyone sees.
    let state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    let mv = play("9", plus(2));
    assert!(PlusMinus::reveals(&state, 0, &mv));
    let shown = shows(&state, 0, &mv);
    assert!(shown.contains(&(Viewer::Seat(1), "9".into())));
    assert!(shown.contains(&(Viewer::Spectator, "9".into())));
}

#[test]
fn a_king_also_turns_up_the_minus_card_under_the_two_it_moves() {
    // Step 3 (K): the top two Minus cards move to Plus; the card below becomes the Minus top.
    let state = table(
        &["K 2", "3 3", "4 4"],
        &[("Q", "2"), ("5", "4 9 J"), ("8", "Q 6 Q")],
        0,
    );
    let mv = king(plus(0), 1, 2);
    assert!(PlusMinus::reveals(&state, 0, &mv));
    let shown = shows(&state, 0, &mv);
    assert!(shown.contains(&(Viewer::Seat(0), "4".into())), "{shown:?}");
    assert!(shown.contains(&(Viewer::Spectator, "K".into())));
}

#[test]
fn passing_shows_the_receiver_a_card_of_the_passers_hidden_hand() {
    // Step 5 / RULINGS 5.3: passed cards are known only to passer and receiver.
    let mut state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    ok(&mut state, 0, &play("9", plus(2)));
    let mv = pass("2");
    assert!(PlusMinus::reveals(&state, 0, &mv));
    let shown = shows(&state, 0, &mv);
    assert!(shown.contains(&(Viewer::Seat(1), "2".into())));
    assert!(!shown.contains(&(Viewer::Seat(2), "2".into())));
    assert!(!shown.contains(&(Viewer::Spectator, "2".into())));
}

#[test]
fn forfeiting_before_a_pass_shows_nothing() {
    // RULINGS P10: the pass still follows a forfeit, and the turn goes on.
    let state = stuck(Options::default());
    assert!(!PlusMinus::reveals(&state, 0, &Move::Forfeit));
    assert_eq!(shows(&state, 0, &Move::Forfeit), vec![]);
}

#[test]
fn forfeiting_that_ends_a_turn_mid_round_shows_nothing() {
    // Option pass_after_forfeit off: the turn ends and the next seat draws (chance).
    let state = stuck(no_pass_after_forfeit());
    assert!(!PlusMinus::reveals(&state, 0, &Move::Forfeit));
    assert_eq!(shows(&state, 0, &Move::Forfeit), vec![]);
}

#[test]
fn forfeiting_that_ends_the_round_shows_scores_counted_from_hidden_cards() {
    // Step 6: with the draw stack empty the turn's end ends the round; steps 6–7 score the hands
    // and whole stacks, which nobody but their holders had seen.
    let state = with_draw(stuck(no_pass_after_forfeit()), "");
    assert!(PlusMinus::reveals(&state, 0, &Move::Forfeit));
    let mut after = state.clone();
    ok(&mut after, 0, &Move::Forfeit);
    let seen = PlusMinus::view(&after, Viewer::Spectator);
    assert_eq!(
        seen.results[0].seats[1].hand_cards, 2,
        "seat 1's hidden 3 3"
    );
    assert!(seen.results[0].seats[1].hand_points > 0);
    // With pass_after_forfeit on, the pass (which reveals anyway) ends the round instead.
    let state = with_draw(stuck(Options::default()), "");
    assert!(!PlusMinus::reveals(&state, 0, &Move::Forfeit));
    assert!(PlusMinus::reveals(
        &{
            let mut s = state.clone();
            ok(&mut s, 0, &Move::Forfeit);
            s
        },
        0,
        &pass("9")
    ));
}

#[test]
fn choosing_face_up_cards_stays_secret_until_the_last_choice_shows_them_all() {
    // Option face_up_chosen_by_player: choices are revealed together (RULINGS 5.6).
    let mut state = choosing();
    for (seat, mv) in [(1, choose("A", "9")), (0, choose("K", "Q"))] {
        assert!(!PlusMinus::reveals(&state, seat, &mv));
        assert_eq!(shows(&state, seat, &mv), vec![]);
        ok(&mut state, seat, &mv);
    }
    let last = choose("J", "10");
    assert!(PlusMinus::reveals(&state, 2, &last));
    let shown = shows(&state, 2, &last);
    assert!(shown.contains(&(Viewer::Seat(1), "K".into())));
    assert!(shown.contains(&(Viewer::Seat(0), "J".into())));
}

#[test]
fn in_random_games_a_move_answered_false_shows_no_viewer_a_new_card() {
    // Checks `reveals` against the views: whatever it answers false for, no seat or spectator
    // sees a card identity more often, in the view or the move's events, than before.
    let mut answered = [0usize; 2];
    for seed in 0..12u64 {
        let options = Options {
            pass_after_forfeit: seed % 2 == 0,
            face_up_chosen_by_player: seed % 3 == 0,
            ..Options::default()
        };
        let players = 3 + (seed as usize % 4);
        let mut state = PlusMinus::setup(PlusMinus::validate_options(&options, players).unwrap());
        let rng: &mut dyn Randomness = &mut SplitMix(seed);
        for _ in 0..300 {
            if PlusMinus::is_over(&state) {
                break;
            }
            if PlusMinus::chance_pending(&state) {
                let outcome = PlusMinus::sample_chance(&state, rng);
                PlusMinus::resolve_chance(&mut state, &outcome).unwrap();
                continue;
            }
            let seats = PlusMinus::to_act(&state);
            let seat = seats[rng.below(seats.len())];
            let moves = PlusMinus::legal_moves(&state, seat);
            let mv = moves[rng.below(moves.len())].clone();
            let reveals = PlusMinus::reveals(&state, seat, &mv);
            answered[usize::from(reveals)] += 1;
            if !reveals {
                assert_eq!(shows(&state, seat, &mv), vec![], "{mv:?} in {state:?}");
            }
            ok(&mut state, seat, &mv);
        }
    }
    assert!(
        answered[0] > 0 && answered[1] > 0,
        "both answers were tried"
    );
}
