//! Which moves show what was hidden, so that they can never be taken back (`Rules::reveals`).
//! RULINGS 2.3: the other hands are hidden; the discard pile and the takeable marker are public.
//! The views are the source of truth: `View::hands` shows a hand to its seat only and
//! `View::pending` the drawn card to its drawer only.

use super::*;
use crate::games::chance::Randomness;
use crate::games::kit::sightings::newly_seen;
use crate::games::Game;
use serde_json::Value;

fn is_symbol(s: &str) -> bool {
    serde_json::from_value::<Symbol>(Value::String(s.into())).is_ok()
}

/// What `mv` by `seat` shows anyone that they had not seen (results stay in: a jackpot names
/// its symbol there).
fn shows(state: &State, seat: Seat, mv: Move) -> Vec<(Viewer, String)> {
    newly_seen::<LuckyJack>(state, seat, &mv, &[], &is_symbol)
}

fn two_seats(hand: Vec<Symbol>, discard: Vec<Symbol>) -> State {
    table(Options::default(), vec![hand, vec![Grape; 7]], discard, 0)
}

/// Seat 0 holding a drawn seven, which only it sees (`View::pending`).
fn holding_a_drawn_seven(options: Options) -> State {
    let mut s = table(
        options,
        vec![vec![Clover, Bell, Jack, Lemon], vec![Grape; 7]],
        vec![Lemon, Clover],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Seven]));
    assert_eq!(LuckyJack::view(&s, Viewer::Seat(1)).pending, None);
    s
}

#[test]
fn discarding_a_hand_card_shows_the_table_a_card_of_a_hidden_hand() {
    // RULINGS 2.3: other hands are hidden; the discard pile is face up.
    let s = two_seats(vec![Clover, Bell, Jack, Lemon, Lemon], vec![Clover]);
    let mv = discard(Bell);
    assert!(LuckyJack::reveals(&s, 0, &mv));
    let shown = shows(&s, 0, mv);
    assert!(shown.contains(&(Viewer::Seat(1), "bell".into())));
    assert!(shown.contains(&(Viewer::Spectator, "bell".into())));
}

#[test]
fn a_lower_discard_shows_its_card_too_before_its_penalty_draw() {
    // Rulebook option 3: the card goes face up; only then are the 2 penalty cards drawn.
    let s = two_seats(vec![Clover, Bell, Jack, Lemon, Lemon], vec![Seven]);
    let mv = discard(Lemon);
    assert!(LuckyJack::reveals(&s, 0, &mv));
    assert!(shows(&s, 0, mv).contains(&(Viewer::Seat(1), "lemon".into())));
}

#[test]
fn a_jackpot_discard_shows_the_winning_hand() {
    // RULINGS 2.5: the player "reveals the cards and the round ends immediately".
    let s = two_seats(four_jacks_and_a_lemon(), vec![Lemon]);
    let mv = discard(Lemon);
    assert!(LuckyJack::reveals(&s, 0, &mv));
    let mut after = s.clone();
    let events = play(&mut after, 0, mv);
    let seen_by_1: Vec<Event> = events
        .iter()
        .map(|e| LuckyJack::redact_event(e, Viewer::Seat(1)))
        .collect();
    assert!(seen_by_1.iter().any(|e| matches!(
        e,
        Event::Jackpot {
            seat: 0,
            symbol: Jack,
            size: 4,
            ..
        }
    )));
}

#[test]
fn discarding_the_drawn_card_shows_what_only_its_drawer_had_seen() {
    // RULINGS 2.4: the drawn card is revealed "to the player"; `View::pending` hides it from
    // the others until it lands face up on the discard pile.
    let s = holding_a_drawn_seven(Options::default());
    assert!(LuckyJack::reveals(&s, 0, &Move::DiscardDrawn));
    let shown = shows(&s, 0, Move::DiscardDrawn);
    assert!(shown.contains(&(Viewer::Seat(1), "seven".into())));
    assert!(shown.contains(&(Viewer::Spectator, "seven".into())));
}

#[test]
fn discarding_the_drawn_card_under_the_symbol_rule_shows_it_as_well() {
    // Option drawn_discard_follows_symbol_rule: the same face-up discard, then maybe a penalty.
    let options = Options {
        drawn_discard_follows_symbol_rule: true,
        ..Options::default()
    };
    let s = holding_a_drawn_seven(options);
    assert!(LuckyJack::reveals(&s, 0, &Move::DiscardDrawn));
    assert!(shows(&s, 0, Move::DiscardDrawn).contains(&(Viewer::Seat(1), "seven".into())));
}

#[test]
fn drawing_shows_nothing_since_the_card_comes_with_its_chance_event() {
    // The draw move only asks for a card; the `draw` chance shows it to the drawer alone.
    let s = two_seats(vec![Clover, Bell, Jack, Lemon], vec![Clover]);
    assert!(!LuckyJack::reveals(&s, 0, &Move::Draw));
    assert_eq!(shows(&s, 0, Move::Draw), vec![]);
}

#[test]
fn drawing_from_an_empty_pile_reshuffles_only_cards_everyone_saw() {
    // RULINGS 2.6: the face-up discard pile becomes the draw pile; the flip is chance.
    let hand = vec![Clover, Bell, Jack, Lemon];
    let mut rest = Counts::full_deck();
    for card in hand.iter().chain(&[Grape; 7]) {
        rest.take(*card);
    }
    let s = two_seats(hand, rest.canonical());
    assert!(s.draw_pile.is_empty());
    assert!(!LuckyJack::reveals(&s, 0, &Move::Draw));
    assert_eq!(shows(&s, 0, Move::Draw), vec![]);
}

#[test]
fn keeping_the_drawn_card_shows_it_to_nobody() {
    // `Event::Kept` names the card to its keeper only; hands stay hidden (RULINGS 2.3).
    let s = holding_a_drawn_seven(Options::default());
    assert!(!LuckyJack::reveals(&s, 0, &Move::Keep));
    assert_eq!(shows(&s, 0, Move::Keep), vec![]);
}

#[test]
fn keeping_at_the_turn_cap_ends_the_round_without_showing_a_hand() {
    // Option max_turns_per_round: the round ends with no score, and the hands go back unseen.
    let options = Options {
        max_turns_per_round: Some(1),
        ..Options::default()
    };
    let s = holding_a_drawn_seven(options);
    assert!(!LuckyJack::reveals(&s, 0, &Move::Keep));
    let mut after = s.clone();
    play(&mut after, 0, Move::Keep);
    assert_eq!(after.phase, Phase::Deal, "the round ended");
    assert_eq!(shows(&s, 0, Move::Keep), vec![]);
}

#[test]
fn taking_a_discarded_drawn_card_takes_a_card_everyone_saw() {
    // Rulebook option 4 / RULINGS J6: the takeable card lies face up on the discard pile.
    for ends_turn in [false, true] {
        let options = Options {
            i_take_it_ends_turn: ends_turn,
            ..Options::default()
        };
        let mut s = holding_a_drawn_seven(options);
        play(&mut s, 0, Move::DiscardDrawn);
        assert!(!LuckyJack::reveals(&s, 1, &Move::TakeIt));
        assert_eq!(shows(&s, 1, Move::TakeIt), vec![]);
    }
}

#[test]
fn in_random_games_a_move_answered_false_shows_no_viewer_a_new_card() {
    // Checks `reveals` against the views: whatever it answers false for, no seat or spectator
    // sees a card identity more often, in the view or the move's events, than before.
    for seed in 0..40u64 {
        let options = Options {
            max_turns_per_round: Some(60),
            i_take_it_ends_turn: seed % 2 == 1,
            drawn_discard_follows_symbol_rule: seed % 3 == 1,
            lower_discard_can_win: seed % 4 == 1,
            ..Options::default()
        };
        let players = 2 + (seed as usize % 5);
        let mut s = LuckyJack::setup(LuckyJack::validate_options(&options, players).unwrap());
        let rng: &mut dyn Randomness = &mut SplitMix(seed);
        let mut answered = [0usize; 2];
        for _ in 0..400 {
            if LuckyJack::is_over(&s) {
                break;
            }
            if s.chance.is_some() {
                let outcome = LuckyJack::sample_chance(&s, rng);
                resolve(&mut s, outcome);
                continue;
            }
            let seat = LuckyJack::to_act(&s)[0];
            let moves = LuckyJack::legal_moves(&s, seat);
            let mv = moves[rng.below(moves.len())].clone();
            let reveals = LuckyJack::reveals(&s, seat, &mv);
            answered[usize::from(reveals)] += 1;
            if !reveals {
                assert_eq!(shows(&s, seat, mv.clone()), vec![], "{mv:?} in {s:?}");
            }
            play(&mut s, seat, mv);
        }
        assert!(
            answered[0] > 0 && answered[1] > 0,
            "both answers were tried"
        );
    }
}
