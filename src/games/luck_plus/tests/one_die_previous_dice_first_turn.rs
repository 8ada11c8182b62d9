//! One die, previous dice, first turn.

use super::*;

#[test]
fn a_last_card_of_six_or_less_goes_out_on_one_die_of_a_fresh_roll() {
    // Rulebook "GOING OUT" 2; RULINGS 1.8.
    let mut s = table(
        Options::default(),
        &[&["STOP-4"], FILL],
        &["GO-9"],
        Some([4, 1]),
        true,
        0,
    );
    let events = play(&mut s, 0, one(Basis::SingleDie, &["STOP-4"]));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::WentOut { seat: 0, .. })));
    assert_eq!(s.results.len(), 1);
    let seven = table(
        Options::default(),
        &[&["GO-7"], FILL],
        &["GO-9"],
        Some([1, 6]),
        true,
        0,
    );
    assert_eq!(
        reject(&seven, 0, one(Basis::SingleDie, &["GO-7"])),
        "no_match"
    );
}

#[test]
fn with_inherited_dice_a_last_card_goes_out_only_by_their_total_or_the_top() {
    // Rulebook "GOING OUT" 3; RULINGS A16.
    let s = table(
        Options::default(),
        &[&["GO-4"], FILL],
        &["GO-9"],
        Some([4, 1]),
        false,
        0,
    );
    assert_eq!(
        reject(&s, 0, one(Basis::SingleDie, &["GO-4"])),
        "single_die_not_allowed"
    );
    let mut total = table(
        Options::default(),
        &[&["GO-5"], FILL],
        &["GO-9"],
        Some([4, 1]),
        false,
        0,
    );
    play(&mut total, 0, one(Basis::Total, &["GO-5"]));
    assert_eq!(total.results[0].out[0].seat, 0);
}

#[test]
fn before_rolling_a_player_may_match_the_previous_players_dice_but_not_one_die() {
    // Rulebook "SPECIAL PLAYS" 2; RULINGS 1.5 turn start (fresh uses) and A7.
    let mut s = table(
        Options::default(),
        &[&["GO-3", "GO-5", "GO-8", "GO-1"], FILL],
        &["GO-7"],
        Some([3, 5]),
        false,
        0,
    );
    assert_eq!(reject(&s, 0, Move::Draw), "no_draw_before_roll");
    play(&mut s, 0, one(Basis::Pair, &["GO-3", "GO-5"]));
    play(&mut s, 0, one(Basis::Total, &["GO-8"]));
    assert_eq!(
        reject(&s, 0, one(Basis::SingleDie, &["GO-1"])),
        "single_die_not_allowed"
    );
}

#[test]
fn inherited_dice_serve_the_next_player_before_he_rolls() {
    let mut s = table(
        Options::default(),
        &[&["STOP-8", "GO-1"], &["GO-3", "GO-5", "TR-8", "GO-1"]],
        &["GO-7"],
        Some([3, 5]),
        true,
        0,
    );
    play(&mut s, 0, one(Basis::Total, &["STOP-8"]));
    assert_eq!((s.turn, s.phase), (1, Phase::PreRoll));
    assert!(!s.rolled_this_turn);
    play(&mut s, 1, one(Basis::Pair, &["GO-3", "GO-5"]));
    play(&mut s, 1, one(Basis::Total, &["TR-8"]));
    assert_eq!(s.phase, Phase::Matching);
    assert_eq!(reject(&s, 1, Move::Draw), "must_roll");
}

#[test]
fn on_the_first_turn_of_a_hand_there_are_no_dice_but_the_top_may_be_matched() {
    // Rulebook "SPECIAL PLAYS" 2 ("except at the beginning of the game"); RULINGS A6 and
    // option `pre_roll_top_match_on_first_turn`.
    let mut s = table(
        Options::default(),
        &[&["GO-9", "GO-3", "GO-4"], FILL],
        &["TR-9"],
        None,
        false,
        0,
    );
    assert_eq!(
        reject(&s, 0, one(Basis::Pair, &["GO-3", "GO-4"])),
        "no_dice"
    );
    assert_eq!(reject(&s, 0, Move::Draw), "no_draw_before_roll");
    let mut strict = s.clone();
    strict.options.pre_roll_top_match_on_first_turn = false;
    assert_eq!(
        reject(&strict, 0, one(Basis::Top, &["GO-9"])),
        "first_turn_must_roll"
    );
    assert!(!LuckPlus::legal_moves(&strict, 0)
        .iter()
        .any(|m| matches!(m, Move::Play { .. })));
    play(&mut s, 0, one(Basis::Top, &["GO-9"]));
}

#[test]
fn example_3_milks_the_turn_playing_each_nine_on_the_top_and_rolling_between() {
    // Rulebook Example #3.
    let hand: &[&str] = &["GO-9", "TR-9", "GO-9", "GO-8", "STOP-12"];
    let mut s = table(
        Options::default(),
        &[hand, FILL],
        &["STOP-9"],
        Some([1, 1]),
        false,
        0,
    );
    play(&mut s, 0, one(Basis::Top, &["GO-9"]));
    roll(&mut s, 0, [1, 2]);
    play(&mut s, 0, one(Basis::Top, &["TR-9"]));
    roll(&mut s, 0, [1, 2]);
    play(&mut s, 0, one(Basis::Top, &["GO-9"]));
    assert_eq!((s.turn, s.phase), (0, Phase::Matching));
    assert_eq!(s.hands[0], cs(&["GO-8", "STOP-12"]));
}
