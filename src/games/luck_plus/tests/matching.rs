//! Matching.

use super::*;

#[test]
fn example_1_matches_the_top_twice_both_dice_then_the_total_and_the_stop_ends_the_turn() {
    // Rulebook Example #1 (RULINGS A2: dice 3 and 5, a 7 on top).
    let hand: &[&str] = &[
        "GO-7", "GO-7", "STOP-7", "GO-3", "GO-5", "STOP-8", "GO-11", "TR-12",
    ];
    let mut state = table(
        Options::default(),
        &[hand, FILL],
        &["TR-7"],
        Some([3, 5]),
        true,
        0,
    );
    let events = play(
        &mut state,
        0,
        play_groups(vec![
            g(Basis::Top, &["GO-7"]),
            g(Basis::Top, &["GO-7"]),
            g(Basis::Pair, &["GO-3", "GO-5"]),
            g(Basis::Total, &["STOP-8"]),
        ]),
    );
    assert!(ended(&events, TurnEnd::Stop));
    assert_eq!(state.hands[0], cs(&["STOP-7", "GO-11", "TR-12"]));
    assert_eq!(state.turn, 1);
    assert_eq!(state.phase, Phase::PreRoll);
    assert_eq!(state.match_pile.last(), Some(&c("STOP-8")));
}

#[test]
fn the_top_is_matched_by_number_whatever_the_word_and_doubles_match_doubles() {
    // Rulebook 2C; "Remember that DOUBLES cards can match each other when on top".
    let mut state = table(
        Options::default(),
        &[&["STOP-9", "TR-9", "DBL", "DBL", "GO-4"], FILL],
        &["GO-9"],
        None,
        false,
        0,
    );
    play(&mut state, 0, one(Basis::Top, &["TR-9"]));
    assert_eq!(reject(&state, 0, one(Basis::Top, &["GO-4"])), "no_match");
    assert_eq!(reject(&state, 0, one(Basis::Top, &["DBL"])), "no_match");
    let mut dbl = table(
        Options::default(),
        &[&["DBL", "GO-4"], FILL],
        &["GO-9", "DBL"],
        None,
        false,
        0,
    );
    play(&mut dbl, 0, one(Basis::Top, &["DBL"]));
    assert_eq!(dbl.phase, Phase::Matching, "DBL last: must roll again");
}

#[test]
fn nothing_matches_a_luck_plus_on_top() {
    // RULINGS 1.4: "LP on top of the match pile is matched by nothing".
    let state = table(
        Options::default(),
        &[&["GO-9", "LP"], FILL],
        &["GO-9", "LP"],
        Some([4, 5]),
        false,
        0,
    );
    assert_eq!(reject(&state, 0, one(Basis::Top, &["GO-9"])), "no_match");
    assert_eq!(
        reject(&state, 0, one(Basis::Top, &["LP"])),
        "luck_plus_in_group"
    );
    let mut with_lp = state.clone();
    play(&mut with_lp, 0, lp(&["GO-9"]));
}

#[test]
fn a_luck_plus_is_not_placed_in_a_group() {
    let state = table(
        Options::default(),
        &[&["LP", "LP"], FILL],
        &["GO-9"],
        None,
        false,
        0,
    );
    assert_eq!(
        reject(&state, 0, one(Basis::Top, &["LP"])),
        "luck_plus_in_group"
    );
}

#[test]
fn a_pair_shows_both_dice_numbers_and_a_doubles_roll_needs_two_such_cards() {
    // Rulebook 2A.
    let state = table(
        Options::default(),
        &[&["GO-2", "GO-3", "GO-4", "GO-4"], FILL],
        &["GO-9"],
        Some([2, 3]),
        true,
        0,
    );
    play(&mut state.clone(), 0, one(Basis::Pair, &["GO-3", "GO-2"]));
    assert_eq!(
        reject(&state, 0, one(Basis::Pair, &["GO-2", "GO-4"])),
        "no_match"
    );
    assert_eq!(reject(&state, 0, one(Basis::Pair, &["GO-2"])), "group_size");
    let fours = table(
        Options::default(),
        &[&["GO-4", "GO-4", "GO-3"], FILL],
        &["GO-9"],
        Some([4, 4]),
        true,
        0,
    );
    play(&mut fours.clone(), 0, one(Basis::Pair, &["GO-4", "GO-4"]));
    assert_eq!(
        reject(&fours, 0, one(Basis::Pair, &["GO-4", "GO-3"])),
        "no_match"
    );
}

#[test]
fn one_card_never_matches_one_die_except_the_last_card() {
    // RULINGS A3: only pair, split and total use the dice.
    let state = table(
        Options::default(),
        &[&["GO-3", "GO-6"], FILL],
        &["GO-9"],
        Some([3, 4]),
        true,
        0,
    );
    assert_eq!(
        reject(&state, 0, one(Basis::SingleDie, &["GO-3"])),
        "single_die_not_allowed"
    );
    assert_eq!(reject(&state, 0, one(Basis::Total, &["GO-3"])), "no_match");
}

#[test]
fn a_split_match_uses_the_top_card_as_one_die() {
    // Rulebook "SPLIT MATCH": dice 3 and 4, a 3 on top: a 4 may be played.
    let state = table(
        Options::default(),
        &[&["GO-4", "GO-3", "GO-5"], FILL],
        &["STOP-3"],
        Some([3, 4]),
        true,
        0,
    );
    let mut split = state.clone();
    play(&mut split, 0, one(Basis::Split, &["GO-4"]));
    assert_eq!(
        split.used.pair, 1,
        "a split counts as the pair use (RULINGS 1.4)"
    );
    assert_eq!(
        reject(&split, 0, one(Basis::Pair, &["GO-3", "GO-4"])),
        "card_not_in_hand"
    );
    assert_eq!(reject(&state, 0, one(Basis::Split, &["GO-3"])), "no_match");
    assert_eq!(reject(&state, 0, one(Basis::Split, &["GO-5"])), "no_match");
}

#[test]
fn the_total_is_matched_by_one_exact_card_never_by_a_sum_of_cards() {
    // Rulebook 2B and Example #2c: "THE CARDS MUST ALWAYS MATCH EXACTLY" (RULINGS A4).
    let state = table(
        Options::default(),
        &[&["GO-3", "GO-4", "TR-7"], FILL],
        &["GO-12"],
        Some([1, 6]),
        true,
        0,
    );
    assert_eq!(
        reject(&state, 0, one(Basis::Total, &["GO-3", "GO-4"])),
        "group_size"
    );
    assert_eq!(reject(&state, 0, one(Basis::Total, &["GO-3"])), "no_match");
    play(&mut state.clone(), 0, one(Basis::Total, &["TR-7"]));
}

#[test]
fn each_use_of_a_roll_is_made_once_unless_dice_reuse_is_allowed() {
    // RULINGS A5 and option `dice_reuse_within_roll`; `top` is unlimited.
    let hand: &[&str] = &["GO-2", "GO-3", "STOP-2", "STOP-3", "GO-5", "TR-5", "GO-9"];
    let state = table(
        Options::default(),
        &[hand, FILL],
        &["GO-5"],
        Some([2, 3]),
        true,
        0,
    );
    let mut s = state.clone();
    play(&mut s, 0, one(Basis::Pair, &["GO-2", "GO-3"]));
    assert_eq!(
        reject(&s, 0, one(Basis::Pair, &["STOP-2", "STOP-3"])),
        "dice_already_used"
    );
    play(&mut s, 0, one(Basis::Total, &["GO-5"]));
    assert_eq!(
        reject(&s, 0, one(Basis::Total, &["TR-5"])),
        "dice_already_used"
    );
    play(&mut s, 0, one(Basis::Top, &["TR-5"]));
    let reuse = Options {
        dice_reuse_within_roll: true,
        ..Options::default()
    };
    let mut r = table(reuse, &[hand, FILL], &["GO-9"], Some([2, 3]), true, 0);
    play(&mut r, 0, one(Basis::Pair, &["GO-2", "GO-3"]));
    play(&mut r, 0, one(Basis::Total, &["GO-5"]));
    play(&mut r, 0, one(Basis::Total, &["TR-5"]));
    play(&mut r, 0, one(Basis::Pair, &["STOP-2", "STOP-3"]));
}

#[test]
fn a_doubles_card_needs_a_doubles_roll_once_and_then_matches_other_doubles_on_top() {
    // Rulebook "DOUBLES CARD"; Example #2b.
    let hand: &[&str] = &["DBL", "DBL", "TR-12", "GO-1"];
    let odd = table(
        Options::default(),
        &[hand, FILL],
        &["GO-9"],
        Some([5, 6]),
        true,
        0,
    );
    assert_eq!(
        reject(&odd, 0, one(Basis::Doubles, &["DBL"])),
        "doubles_need_doubles_roll"
    );
    assert_eq!(reject(&odd, 0, one(Basis::Doubles, &["GO-1"])), "no_match");
    let mut six = table(
        Options::default(),
        &[hand, FILL],
        &["GO-9"],
        Some([6, 6]),
        true,
        0,
    );
    play(
        &mut six,
        0,
        play_groups(vec![
            g(Basis::Doubles, &["DBL"]),
            g(Basis::Total, &["TR-12"]),
        ]),
    );
    assert_eq!(six.phase, Phase::Matching);
    assert_eq!(reject(&six, 0, one(Basis::Total, &["DBL"])), "no_match");
    // The second DBL plays on the first via `top` but not as another `doubles` use.
    let mut s = table(
        Options::default(),
        &[hand, FILL],
        &["GO-9"],
        Some([6, 6]),
        true,
        0,
    );
    play(&mut s, 0, one(Basis::Doubles, &["DBL"]));
    assert_eq!(
        reject(&s, 0, one(Basis::Doubles, &["DBL"])),
        "dice_already_used"
    );
    play(&mut s, 0, one(Basis::Top, &["DBL"]));
}

#[test]
fn a_stop_ends_the_turn_at_once_and_nothing_may_follow_it() {
    // Rulebook "STOP CARD"; RULINGS A15 (default `reject`).
    let hand: &[&str] = &["STOP-7", "GO-8", "GO-3", "STOP-5", "GO-12"];
    let state = table(
        Options::default(),
        &[hand, FILL],
        &["GO-7"],
        Some([3, 5]),
        true,
        0,
    );
    assert_eq!(
        reject(
            &state,
            0,
            play_groups(vec![g(Basis::Top, &["STOP-7"]), g(Basis::Total, &["GO-8"])])
        ),
        "stop_not_last"
    );
    assert_eq!(
        reject(&state, 0, one(Basis::Pair, &["STOP-5", "GO-3"])),
        "stop_not_last"
    );
    let mut s = state.clone();
    let events = play(&mut s, 0, one(Basis::Pair, &["GO-3", "STOP-5"]));
    assert!(ended(&events, TurnEnd::Stop));
    assert_eq!(s.turn, 1);
}

#[test]
fn two_stops_matching_both_dice_are_played_together_in_either_order() {
    // Rulebook "COMBINED STOP".
    for order in [["STOP-3", "STOP-4"], ["STOP-4", "STOP-3"]] {
        let mut s = table(
            Options::default(),
            &[&["STOP-3", "STOP-4", "GO-1"], FILL],
            &["GO-9"],
            Some([3, 4]),
            true,
            0,
        );
        let events = play(&mut s, 0, one(Basis::Pair, &order));
        assert!(ended(&events, TurnEnd::Stop));
    }
}

#[test]
fn with_stop_mistake_truncate_the_groups_after_a_stop_stay_in_the_hand() {
    // RULINGS A15 option `truncate`: the turn still stops.
    let options = Options {
        stop_mistake: StopMistake::Truncate,
        ..Options::default()
    };
    let mut s = table(
        options,
        &[&["STOP-7", "GO-8", "GO-1"], FILL],
        &["GO-7"],
        Some([3, 5]),
        true,
        0,
    );
    let events = play(
        &mut s,
        0,
        play_groups(vec![g(Basis::Top, &["STOP-7"]), g(Basis::Total, &["GO-8"])]),
    );
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::StopIgnored { .. })));
    assert_eq!(s.hands[0], cs(&["GO-1", "GO-8"]));
    assert_eq!(s.turn, 1);
}

#[test]
fn after_a_go_transfer_or_doubles_card_last_the_player_must_roll_again() {
    // Rulebook 3: "MUST roll the dice again IF his last card ... says GO, TRANSFER, TRANSFER
    // PLUS or DOUBLES".
    for last in ["GO-9", "TR-9", "TP-1"] {
        let top = if last == "TP-1" { "GO-1" } else { "GO-9" };
        let mut s = table(
            Options::default(),
            &[&[last, "GO-12"], FILL],
            &[top],
            Some([2, 3]),
            true,
            0,
        );
        play(&mut s, 0, one(Basis::Top, &[last]));
        assert_eq!(s.phase, Phase::Matching);
        assert_eq!(s.turn, 0);
        assert_eq!(reject(&s, 0, Move::Draw), "must_roll");
        assert!(LuckPlus::legal_moves(&s, 0).contains(&Move::Roll));
        play(&mut s, 0, Move::Roll);
        assert_eq!(s.phase, Phase::Rolling);
    }
}

#[test]
fn a_dealt_transfer_card_plays_like_a_go_card_and_cannot_be_given() {
    // Rulebook "TRANSFER CARD": "If a TRANSFER card is dealt to you ... you may not transfer it."
    let s = table(
        Options::default(),
        &[&["TR-5", "GO-1"], FILL],
        &["GO-9"],
        Some([2, 3]),
        true,
        0,
    );
    assert_eq!(
        reject(
            &s,
            0,
            Move::Transfer {
                card: c("TR-5"),
                to: 1,
                extra: vec![]
            }
        ),
        "transfer_only_when_drawn"
    );
    assert_eq!(
        reject(
            &s,
            0,
            Move::Transfer {
                card: c("GO-1"),
                to: 1,
                extra: vec![]
            }
        ),
        "not_transferable"
    );
    let mut go = s.clone();
    play(&mut go, 0, one(Basis::Total, &["TR-5"]));
    assert_eq!(go.phase, Phase::Matching);
}
