//! Unit tests, one per rule or option. Comments cite the rulebook (`rules/luck-plus.txt`) or
//! RULINGS.md §1.

use super::*;
use crate::games::chance::tests::SplitMix;
use crate::games::Violation as _;

fn c(name: &str) -> Card {
    name.parse().unwrap()
}

fn cs(names: &[&str]) -> Vec<Card> {
    names.iter().map(|n| c(n)).collect()
}

fn g(basis: Basis, names: &[&str]) -> Group {
    Group {
        basis,
        cards: cs(names),
    }
}

fn play_groups(groups: Vec<Group>) -> Move {
    Move::Play { groups }
}

fn one(basis: Basis, names: &[&str]) -> Move {
    play_groups(vec![g(basis, names)])
}

fn lp(bonus: &[&str]) -> Move {
    Move::LuckPlus { bonus: cs(bonus) }
}

/// A hand in progress: `hands` face up, `pile` the match pile (bottom to top), `dice` showing
/// (rolled this turn when `rolled`), `turn` to play, not on its first turn; every other card in
/// the draw pile.
fn table(
    options: Options,
    hands: &[&[&str]],
    pile: &[&str],
    dice: Option<[u8; 2]>,
    rolled: bool,
    turn: Seat,
) -> State {
    let players = hands.len();
    let mut state = LuckPlus::setup(options, players);
    state.chance = None;
    for (seat, hand) in hands.iter().enumerate() {
        let mut hand = cs(hand);
        hand.sort();
        for &card in &hand {
            assert!(remove_one(&mut state.draw_pile, card), "too many {card}");
        }
        state.hands[seat] = hand;
    }
    for card in cs(pile) {
        assert!(remove_one(&mut state.draw_pile, card), "too many {card}");
    }
    state.match_pile = cs(pile);
    state.dice = dice;
    state.rolled_this_turn = rolled;
    state.phase = if rolled {
        Phase::Rolled
    } else {
        Phase::PreRoll
    };
    state.turn = turn;
    state.had_turn = vec![true; players];
    state.first_turn = false;
    LuckPlus::check_state(&state).expect("test table is consistent");
    state
}

fn play(state: &mut State, seat: Seat, mv: Move) -> Vec<Event> {
    let events = LuckPlus::play(state, seat, &mv)
        .unwrap_or_else(|v| panic!("seat {seat} {mv:?} rejected: {v}"));
    LuckPlus::check_state(state).expect("consistent after move");
    events
}

fn chance(state: &mut State, outcome: Chance) -> Vec<Event> {
    let events = LuckPlus::resolve_chance(state, &outcome)
        .unwrap_or_else(|v| panic!("{outcome:?} rejected: {v}"));
    LuckPlus::check_state(state).expect("consistent after chance");
    events
}

fn roll(state: &mut State, seat: Seat, dice: [u8; 2]) {
    play(state, seat, Move::Roll);
    chance(state, Chance::Roll { dice });
}

fn reject(state: &State, seat: Seat, mv: Move) -> &'static str {
    let mut copy = state.clone();
    let err = LuckPlus::play(&mut copy, seat, &mv).expect_err("move should be rejected");
    assert_eq!(&copy, state, "a rejected move leaves the state unchanged");
    err.code()
}

fn ended(events: &[Event], reason: TurnEnd) -> bool {
    events
        .iter()
        .any(|e| matches!(e, Event::TurnEnded { reason: r, .. } if *r == reason))
}

const FILL: &[&str] = &["GO-12", "GO-12", "GO-10"];

// ---- setup and chance ---------------------------------------------------------------------

#[test]
fn the_deal_gives_eight_face_up_cards_and_a_flipped_luck_plus_goes_under_the_draw_pile() {
    // Rulebook 1: "Deal 8 cards FACE UP ... If a LUCK PLUS card is the first card to be turned
    // over, it is placed under the DRAW PILE and the next card is turned over." RULINGS 1.2.
    let mut state = LuckPlus::setup(Options::default(), 3);
    assert_eq!(state.phase, Phase::Deal);
    let deck = full_deck();
    let hands: Vec<Vec<Card>> = (0..3).map(|s| deck[s * 8..s * 8 + 8].to_vec()).collect();
    chance(
        &mut state,
        Chance::Deal {
            hands,
            flips: cs(&["LP", "LP", "GO-9"]),
        },
    );
    assert_eq!(state.match_pile, cs(&["GO-9"]));
    assert_eq!(state.draw_bottom, cs(&["LP", "LP"]));
    assert_eq!(state.draw_pile.len(), 108 - 24 - 3);
    assert_eq!(state.turn, 1, "the player left of the dealer begins");
    assert_eq!(state.phase, Phase::PreRoll);
    assert!(state.first_turn && state.dice.is_none());
}

#[test]
fn a_seeded_deal_of_eight_players_leaves_43_cards_plus_any_luck_plus_put_under() {
    // RULINGS 1.2: n = 8: 64 dealt, 43 in the draw pile after the flip.
    for seed in 0..20 {
        let mut state = LuckPlus::setup(Options::default(), 8);
        let outcome = LuckPlus::sample_chance(&state, &mut SplitMix(seed));
        chance(&mut state, outcome);
        assert_eq!(state.draw_pile.len() + state.draw_bottom.len(), 43);
        assert_ne!(state.match_pile, vec![Card::Lp]);
    }
}

#[test]
fn impossible_deals_rolls_and_draws_are_refused_and_change_nothing() {
    let state = LuckPlus::setup(Options::default(), 2);
    let deck = full_deck();
    let hands = vec![deck[0..8].to_vec(), deck[8..16].to_vec()];
    let check = |outcome: Chance| {
        let mut copy = state.clone();
        let err = LuckPlus::resolve_chance(&mut copy, &outcome).unwrap_err();
        assert_eq!(copy, state);
        err.code()
    };
    let deal = |hands: Vec<Vec<Card>>, flips: &[&str]| Chance::Deal {
        hands,
        flips: cs(flips),
    };
    assert_eq!(check(deal(hands.clone(), &["GO-7", "LP"])), "bad_flips");
    assert_eq!(check(deal(hands.clone(), &[])), "bad_flips");
    assert_eq!(check(deal(hands.clone(), &["LP"])), "bad_flips");
    assert_eq!(
        check(deal(vec![hands[0].clone()], &["GO-7"])),
        "wrong_hand_count"
    );
    assert_eq!(
        check(deal(
            vec![hands[0].clone(), deck[8..15].to_vec()],
            &["GO-7"]
        )),
        "wrong_card_count"
    );
    let mut twelves = hands.clone();
    twelves[1] = cs(&[
        "STOP-12", "STOP-12", "GO-1", "GO-1", "GO-1", "GO-1", "GO-2", "GO-2",
    ]);
    assert_eq!(check(deal(twelves, &["GO-7"])), "card_not_in_pile");
    assert_eq!(
        check(Chance::Roll { dice: [1, 2] }),
        "unexpected_chance_kind"
    );

    let mut table = table(
        Options::default(),
        &[&["GO-1"], &["STOP-11", "GO-12"]],
        &["GO-9"],
        None,
        false,
        0,
    );
    assert_eq!(
        LuckPlus::resolve_chance(&mut table, &Chance::Roll { dice: [1, 2] })
            .unwrap_err()
            .code(),
        "no_chance_pending"
    );
    play(&mut table, 0, Move::Roll);
    for bad in [[0, 3], [7, 1]] {
        assert_eq!(
            LuckPlus::resolve_chance(&mut table.clone(), &Chance::Roll { dice: bad })
                .unwrap_err()
                .code(),
            "bad_die"
        );
    }
    chance(&mut table, Chance::Roll { dice: [6, 6] });
    play(&mut table, 0, Move::Draw);
    // Seat 1 holds the only STOP-11.
    assert_eq!(
        LuckPlus::resolve_chance(&mut table.clone(), &Chance::Draw { card: c("STOP-11") })
            .unwrap_err()
            .code(),
        "card_not_in_pile"
    );
}

#[test]
fn a_seeded_roll_shows_two_faces_from_one_to_six() {
    let mut state = table(
        Options::default(),
        &[&["GO-1"], FILL],
        &["GO-9"],
        None,
        false,
        0,
    );
    play(&mut state, 0, Move::Roll);
    for seed in 0..50 {
        match LuckPlus::sample_chance(&state, &mut SplitMix(seed)) {
            Chance::Roll { dice } => assert!(dice.iter().all(|d| (1..=6).contains(d))),
            other => panic!("{other:?}"),
        }
    }
}

// ---- matching -----------------------------------------------------------------------------

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

// ---- one die, previous dice, first turn ------------------------------------------------------

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

// ---- drawing -------------------------------------------------------------------------------

#[test]
fn a_player_who_cannot_or_will_not_match_draws_and_an_unplayable_card_ends_the_turn() {
    // Rulebook 4; RULINGS 1.5 `draw`.
    let mut s = table(
        Options::default(),
        &[&["GO-3", "GO-4"], FILL],
        &["GO-12"],
        Some([1, 6]),
        true,
        0,
    );
    assert_eq!(reject(&s, 0, Move::Roll), "must_match_or_draw");
    play(&mut s, 0, Move::Draw);
    assert_eq!(s.phase, Phase::Drawing);
    let events = chance(&mut s, Chance::Draw { card: c("GO-10") });
    assert!(ended(&events, TurnEnd::Unplayable));
    assert_eq!(s.hands[0], cs(&["GO-3", "GO-4", "GO-10"]));
    assert_eq!(s.turn, 1);
}

#[test]
fn a_playable_drawn_card_may_be_played_first_then_more_cards_or_kept() {
    // Rulebook 4 ("If the card can be played, then the player can continue"); RULINGS A8, A9.
    let base = table(
        Options::default(),
        &[&["GO-1", "GO-6", "GO-9"], FILL],
        &["GO-12"],
        Some([1, 6]),
        true,
        0,
    );
    let mut s = base.clone();
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("TR-7") });
    assert_eq!((s.phase, s.drawn), (Phase::Drawn, Some(c("TR-7"))));
    assert_eq!(
        reject(&s, 0, one(Basis::Pair, &["GO-1", "GO-6"])),
        "drawn_card_pending"
    );
    assert_eq!(reject(&s, 0, Move::Roll), "drawn_card_pending");
    let mut kept = s.clone();
    assert!(ended(&play(&mut kept, 0, Move::Keep), TurnEnd::Kept));
    assert!(kept.hands[0].contains(&c("TR-7")));
    play(
        &mut s,
        0,
        play_groups(vec![
            g(Basis::Total, &["TR-7"]),
            g(Basis::Pair, &["GO-1", "GO-6"]),
        ]),
    );
    assert_eq!(s.hands[0], cs(&["GO-9"]));
    assert_eq!(s.phase, Phase::Matching);
    assert_eq!(reject(&s, 0, Move::Keep), "no_drawn_card");
}

#[test]
fn a_drawn_card_that_completes_a_pair_with_the_hand_is_playable() {
    // RULINGS 1.5 "Playable": a pair together with a card already in hand.
    let mut s = table(
        Options::default(),
        &[&["GO-2", "GO-9"], FILL],
        &["GO-12"],
        Some([2, 5]),
        true,
        0,
    );
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("STOP-5") });
    assert_eq!(s.phase, Phase::Drawn);
    assert!(LuckPlus::legal_moves(&s, 0).contains(&one(Basis::Pair, &["GO-2", "STOP-5"])));
    assert!(!LuckPlus::legal_moves(&s, 0).contains(&one(Basis::Pair, &["STOP-5", "GO-2"])));
}

#[test]
fn example_2c_a_drawn_transfer_goes_to_the_left_player_and_the_giver_rolls_again() {
    // Rulebook Example #2c and "TRANSFER CARD".
    let mut s = table(
        Options::default(),
        &[&["GO-3", "GO-4"], FILL, &["GO-1", "GO-2"]],
        &["TR-12"],
        Some([1, 6]),
        true,
        0,
    );
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("TR-6") });
    let give = |to: Seat, extra: &[&str]| Move::Transfer {
        card: c("TR-6"),
        to,
        extra: cs(extra),
    };
    assert_eq!(reject(&s, 0, give(2, &[])), "transfer_must_go_left");
    assert_eq!(reject(&s, 0, give(0, &[])), "transfer_target_invalid");
    assert_eq!(reject(&s, 0, give(1, &["GO-3"])), "extra_not_allowed");
    play(&mut s, 0, give(1, &[]));
    assert!(s.hands[1].contains(&c("TR-6")));
    assert_eq!(s.phase, Phase::MustRoll);
    assert_eq!(reject(&s, 0, one(Basis::Top, &["GO-3"])), "must_roll");
    assert_eq!(reject(&s, 0, Move::Draw), "must_roll");
    play(&mut s, 0, Move::Roll);
}

#[test]
fn a_drawn_transfer_plus_goes_to_any_opponent_with_an_extra_card_and_its_number() {
    // Rulebook "TRANSFER PLUS CARD"; RULINGS A11, A12 and option `tp_extra_same_number_as`.
    let hands: &[&[&str]] = &[
        &["GO-11", "STOP-11", "TR-11", "GO-2", "DBL"],
        FILL,
        &["GO-1"],
    ];
    let mut s = table(Options::default(), hands, &["GO-12"], Some([1, 6]), true, 0);
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("TP-3") });
    let give = |to: Seat, extra: &[&str]| Move::Transfer {
        card: c("TP-3"),
        to,
        extra: cs(extra),
    };
    assert_eq!(
        reject(&s, 0, give(2, &["GO-11", "GO-2"])),
        "extra_not_same_number"
    );
    assert_eq!(reject(&s, 0, give(2, &["GO-10"])), "card_not_in_hand");
    let mut tp = s.clone();
    play(&mut tp, 0, give(2, &["GO-11", "STOP-11", "TR-11"]));
    assert_eq!(
        tp.hands[2],
        cs(&["GO-1", "TP-3", "GO-11", "STOP-11", "TR-11"])
    );
    assert_eq!(tp.hands[0], cs(&["GO-2", "DBL"]));
    assert_eq!(tp.phase, Phase::MustRoll);
    let mut by_tp = s.clone();
    by_tp.options.tp_extra_same_number_as = TpExtraSameNumberAs::TpCard;
    assert_eq!(
        reject(&by_tp, 0, give(2, &["GO-11", "STOP-11"])),
        "extra_not_same_number"
    );
    play(&mut by_tp, 0, give(2, &["DBL"]));
}

#[test]
fn giving_away_the_last_cards_goes_out() {
    // RULINGS 1.8: giving cards away also counts.
    let mut s = table(
        Options::default(),
        &[&["GO-11"], FILL],
        &["GO-12"],
        Some([1, 6]),
        true,
        0,
    );
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("TP-4") });
    play(
        &mut s,
        0,
        Move::Transfer {
            card: c("TP-4"),
            to: 1,
            extra: cs(&["GO-11"]),
        },
    );
    assert_eq!(
        s.results[0].out,
        vec![Out {
            seat: 0,
            luck_out: false
        }]
    );
}

#[test]
fn an_empty_draw_pile_is_refilled_from_the_match_pile_but_its_top() {
    // Rulebook "GOING OUT" 4; RULINGS 1.7 and option `reshuffle_match_pile`.
    let mut s = table(
        Options::default(),
        &[&["GO-3", "GO-4"], FILL],
        &["GO-5", "GO-6", "GO-12"],
        Some([1, 6]),
        true,
        0,
    );
    let rest = std::mem::take(&mut s.draw_pile);
    s.hands[1].extend(rest);
    s.hands[1].sort();
    LuckPlus::check_state(&s).unwrap();
    let mut on = s.clone();
    let events = play(&mut on, 0, Move::Draw);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Reshuffled { cards: 2, .. })));
    assert_eq!(on.match_pile, cs(&["GO-12"]));
    assert_eq!(on.draw_pile, cs(&["GO-5", "GO-6"]));
    let mut off = s.clone();
    off.options.reshuffle_match_pile = false;
    let events = play(&mut off, 0, Move::Draw);
    assert!(ended(&events, TurnEnd::DrawVoid));
    assert_eq!(off.turn, 1);
}

#[test]
fn the_luck_plus_cards_put_under_the_draw_pile_are_its_last_cards() {
    // Rulebook 1: the LP "is placed under the DRAW PILE".
    let mut s = table(
        Options::default(),
        &[&["GO-3", "GO-4"], FILL],
        &["GO-12"],
        Some([1, 6]),
        true,
        0,
    );
    let mut rest = std::mem::take(&mut s.draw_pile);
    remove_one(&mut rest, Card::Lp);
    s.draw_bottom = vec![Card::Lp];
    s.hands[1].extend(rest);
    s.hands[1].sort();
    LuckPlus::check_state(&s).unwrap();
    let events = play(&mut s, 0, Move::Draw);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Drew {
            card: Card::Lp,
            playable: true,
            ..
        }
    )));
    assert_eq!(s.phase, Phase::Drawn);
    assert!(s.draw_bottom.is_empty());
}

// ---- LUCK PLUS -------------------------------------------------------------------------------

#[test]
fn a_luck_plus_plays_on_any_top_with_bonus_cards_of_one_number_and_ends_the_turn() {
    // Rulebook "LUCK PLUS CARD": bonus cards, same number, "words on the cards can be
    // different", the turn ends "even if the bonus cards are GO cards".
    let hand: &[&str] = &["LP", "GO-11", "STOP-11", "TR-11", "GO-2"];
    let s = table(
        Options::default(),
        &[hand, FILL],
        &["DBL"],
        Some([1, 6]),
        true,
        0,
    );
    assert_eq!(
        reject(&s, 0, lp(&["GO-11", "GO-2"])),
        "bonus_not_same_number"
    );
    assert_eq!(reject(&s, 0, lp(&["GO-3"])), "card_not_in_hand");
    assert_eq!(reject(&s, 0, lp(&["LP"])), "card_not_in_hand");
    let mut p = s.clone();
    let events = play(&mut p, 0, lp(&["GO-11", "TR-11", "STOP-11"]));
    assert!(ended(&events, TurnEnd::LuckPlus));
    assert_eq!(p.hands[0], cs(&["GO-2"]));
    assert_eq!(p.turn, 1);
    assert_eq!(
        p.phase,
        Phase::PreRoll,
        "a bonus was played: no forced bonus"
    );
    let no_lp = table(
        Options::default(),
        &[&["GO-1"], FILL],
        &["DBL"],
        None,
        false,
        0,
    );
    assert_eq!(reject(&no_lp, 0, lp(&[])), "card_not_in_hand");
}

#[test]
fn bonus_cards_may_be_doubles_or_luck_plus_cards_without_a_new_chain() {
    // Rulebook: "Bonus cards can be DOUBLES cards or LUCK PLUS cards"; RULINGS A13.
    let mut s = table(
        Options::default(),
        &[&["LP", "LP", "LP", "GO-4"], FILL],
        &["GO-9"],
        None,
        false,
        0,
    );
    play(&mut s, 0, lp(&["LP", "LP"]));
    assert_eq!(s.phase, Phase::PreRoll);
}

#[test]
fn a_luck_plus_without_bonus_forces_the_next_player_to_play_one_bonus_and_end_his_turn() {
    // Rulebook: "the next player must utilize the bonus rule and MUST play ANY CARD"; A14.
    let mut s = table(
        Options::default(),
        &[&["LP", "GO-4"], &["GO-7", "STOP-7", "GO-12", "DBL"]],
        &["GO-9"],
        Some([3, 4]),
        false,
        0,
    );
    play(&mut s, 0, lp(&[]));
    assert_eq!((s.turn, s.phase), (1, Phase::ForcedBonus));
    for mv in [Move::Roll, one(Basis::Pair, &["GO-7", "STOP-7"]), lp(&[])] {
        assert_eq!(reject(&s, 1, mv), "forced_bonus_pending");
    }
    assert_eq!(
        reject(&s, 1, Move::Bonus { cards: vec![] }),
        "bonus_required"
    );
    assert_eq!(
        reject(
            &s,
            1,
            Move::Bonus {
                cards: cs(&["GO-7", "DBL"])
            }
        ),
        "bonus_not_same_number"
    );
    let legal = LuckPlus::legal_moves(&s, 1);
    assert!(legal.iter().all(|m| matches!(m, Move::Bonus { .. })));
    let events = play(
        &mut s,
        1,
        Move::Bonus {
            cards: cs(&["STOP-7", "GO-7"]),
        },
    );
    assert!(ended(&events, TurnEnd::ForcedBonus));
    assert_eq!((s.turn, s.phase), (0, Phase::PreRoll));
    assert_eq!(
        reject(
            &s,
            0,
            Move::Bonus {
                cards: cs(&["GO-4"])
            }
        ),
        "no_bonus_owed"
    );
}

#[test]
fn a_luck_plus_may_be_played_when_a_roll_is_owed_or_a_card_was_just_drawn() {
    // Rulebook: "A LUCK PLUS card may be played at any time during a player's turn" (Example
    // #4 plays it after a match, when a roll is owed). Deviation from RULINGS 1.5: also while a
    // drawn card waits (see docs/rules/luck-plus.md).
    let mut s = table(
        Options::default(),
        &[&["LP", "GO-3", "GO-9"], FILL],
        &["GO-12"],
        Some([1, 6]),
        true,
        0,
    );
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("GO-7") });
    assert_eq!(s.phase, Phase::Drawn);
    let mut drawn = s.clone();
    play(&mut drawn, 0, lp(&["GO-7"]));
    assert_eq!(drawn.turn, 1);
    play(&mut s, 0, one(Basis::Total, &["GO-7"]));
    play(&mut s, 0, lp(&["GO-9"]));
    assert_eq!(s.hands[0], cs(&["GO-3"]));
}

#[test]
fn example_4_matches_the_previous_total_then_a_luck_plus_with_bonus_cards_goes_out() {
    // Rulebook Example #4 (RULINGS A2: previous dice total 5).
    let mut s = table(
        Options::default(),
        &[&["TR-5", "LP", "STOP-11", "GO-11"], FILL],
        &["GO-2"],
        Some([2, 3]),
        false,
        0,
    );
    play(&mut s, 0, one(Basis::Total, &["TR-5"]));
    let events = play(&mut s, 0, lp(&["STOP-11", "GO-11"]));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::WentOut {
            seat: 0,
            luck_out: false
        }
    )));
    assert_eq!(s.results[0].points, vec![1, 0]);
    assert_eq!(s.hand, 2);
}

// ---- going out and LUCK OUT -------------------------------------------------------------------

#[test]
fn going_out_on_the_first_turn_is_a_luck_out_worth_30_more_points() {
    // Rulebook "GOING OUT AND WINNING" 1 and "SCORING: LUCK OUT PLAY - 30 point bonus".
    let options = Options {
        scoring: ScoringMode::PointsToWinner,
        ..Options::default()
    };
    let mut s = table(
        options,
        &[&["GO-4"], FILL],
        &["GO-9"],
        Some([4, 1]),
        true,
        0,
    );
    s.first_turn = true;
    play(&mut s, 0, one(Basis::SingleDie, &["GO-4"]));
    let result = &s.results[0];
    assert_eq!(
        result.out,
        vec![Out {
            seat: 0,
            luck_out: true
        }]
    );
    assert_eq!(result.left_points, vec![0, 12 + 12 + 10]);
    assert_eq!(result.points, vec![34 + 30, 0]);
}

#[test]
fn with_luck_out_full_round_every_other_player_gets_one_complete_turn() {
    // Rulebook "GOING OUT AND WINNING" 1, OPTION; RULINGS 1.8 and 1.9.
    let options = Options {
        luck_out_full_round: true,
        scoring: ScoringMode::PointsToWinner,
        ..Options::default()
    };
    let mut s = table(
        options,
        &[&["GO-4"], &["STOP-4", "GO-1"], &["GO-4"]],
        &["GO-9"],
        Some([4, 1]),
        true,
        0,
    );
    s.first_turn = true;
    let events = play(&mut s, 0, one(Basis::SingleDie, &["GO-4"]));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::FinalRound { seats } if *seats == vec![1, 2])));
    assert_eq!((s.turn, s.phase), (1, Phase::PreRoll));
    assert!(s.results.is_empty());
    play(&mut s, 1, one(Basis::Top, &["STOP-4"]));
    assert_eq!(s.turn, 2);
    // Seat 2 had a turn before: going out now is not a LUCK OUT.
    play(&mut s, 2, one(Basis::Top, &["GO-4"]));
    let result = &s.results[0];
    assert_eq!(
        result.out,
        vec![
            Out {
                seat: 0,
                luck_out: true
            },
            Out {
                seat: 2,
                luck_out: false
            }
        ]
    );
    assert_eq!(result.points, vec![1 + 30, 0, 1]);
}

#[test]
fn a_player_out_in_the_full_round_can_receive_no_cards() {
    // Rulebook: "once a player gets a LUCK OUT, he cannot receive any more cards".
    let mut s = table(
        Options {
            luck_out_full_round: true,
            ..Options::default()
        },
        &[&["GO-4"], &["GO-3", "GO-8"], &["GO-12", "GO-10"]],
        &["GO-9"],
        Some([4, 1]),
        true,
        0,
    );
    s.first_turn = true;
    play(&mut s, 0, one(Basis::SingleDie, &["GO-4"]));
    roll(&mut s, 1, [6, 6]);
    play(&mut s, 1, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("TP-2") });
    let give = |to: Seat| Move::Transfer {
        card: c("TP-2"),
        to,
        extra: vec![],
    };
    assert_eq!(reject(&s, 1, give(0)), "transfer_target_invalid");
    play(&mut s, 1, give(2));
}

#[test]
fn without_the_option_the_first_player_out_ends_the_hand() {
    let mut s = table(
        Options::default(),
        &[&["GO-4"], FILL, FILL_B],
        &["GO-9"],
        Some([4, 1]),
        true,
        0,
    );
    s.first_turn = true;
    play(&mut s, 0, one(Basis::SingleDie, &["GO-4"]));
    assert_eq!(s.results.len(), 1);
    assert_eq!(s.phase, Phase::Deal);
    assert_eq!(s.dealer, 1, "the deal passes to the left (RULINGS A19)");
    assert_eq!(s.turn, 2);
}

const FILL_B: &[&str] = &["GO-10", "GO-10"];

// ---- scoring -------------------------------------------------------------------------------

fn hand_end(scoring: ScoringMode, target: Option<u32>) -> HandResult {
    let options = Options {
        scoring,
        target,
        ..Options::default()
    };
    score_hand(
        &options,
        3,
        1,
        &[Out {
            seat: 1,
            luck_out: true,
        }],
        vec![cs(&["GO-3", "DBL"]), vec![], cs(&["LP", "STOP-12"])],
    )
}

#[test]
fn by_hands_the_player_who_goes_out_wins_one_hand() {
    // Rulebook "SCORING: By hands".
    assert_eq!(hand_end(ScoringMode::Hands, None).points, vec![0, 1, 0]);
    assert_eq!(Options::default().target(), 5);
}

#[test]
fn by_points_the_cards_left_go_to_the_player_out_plus_30_for_a_luck_out() {
    // Rulebook "By point system": number = face value, DBL 15, LP 25.
    let r = hand_end(ScoringMode::PointsToWinner, None);
    assert_eq!(r.left_points, vec![18, 0, 37]);
    assert_eq!(r.points, vec![0, 55 + 30, 0]);
}

#[test]
fn in_penalty_scoring_each_keeps_his_points_and_a_luck_out_subtracts_30_unless_ignored() {
    // Rulebook "keep the point total he is caught with"; RULINGS 1.9 and option
    // `luck_out_bonus_in_penalty`.
    assert_eq!(
        hand_end(ScoringMode::PenaltyPoints, None).points,
        vec![18, -30, 37]
    );
    let options = Options {
        scoring: ScoringMode::PenaltyPoints,
        luck_out_bonus_in_penalty: LuckOutPenaltyBonus::Ignore,
        ..Options::default()
    };
    let r = score_hand(
        &options,
        2,
        1,
        &[Out {
            seat: 0,
            luck_out: true,
        }],
        vec![vec![], cs(&["GO-3"])],
    );
    assert_eq!(r.points, vec![0, 3]);
}

#[test]
fn the_game_ends_at_the_target_and_penalty_scoring_ranks_the_lowest_first() {
    // Rulebook "SCORING": "first to reach a designated score"; "the player with the least amount
    // of points is the winner".
    let options = Options {
        scoring: ScoringMode::PenaltyPoints,
        target: Some(50),
        ..Options::default()
    };
    let first = hand_end(ScoringMode::PenaltyPoints, Some(50));
    let (standings, over) = LuckPlus::tally_standings(&options, 3, std::slice::from_ref(&first));
    assert!(!over);
    assert!(standings.winners.is_empty());
    let (standings, over) = LuckPlus::tally_standings(&options, 3, &[first.clone(), first]);
    assert!(over);
    assert_eq!(standings.totals, vec![36, -60, 74]);
    assert_eq!(standings.winners, vec![1]);
}

#[test]
fn a_finished_hand_reaching_the_target_ends_the_game_with_its_winner() {
    let options = Options {
        target: Some(1),
        ..Options::default()
    };
    let mut s = table(
        options,
        &[&["GO-4"], FILL],
        &["GO-9"],
        Some([4, 1]),
        true,
        0,
    );
    let events = play(&mut s, 0, one(Basis::SingleDie, &["GO-4"]));
    assert!(LuckPlus::is_over(&s));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::GameEnded { winners, .. } if *winners == vec![0])));
    assert_eq!(LuckPlus::standings(&s).winners, vec![0]);
    assert_eq!(reject(&s, 1, Move::Roll), "game_over");
}

// ---- tally -------------------------------------------------------------------------------------

#[test]
fn a_described_hand_is_checked_then_scored_like_play() {
    let options = Options {
        scoring: ScoringMode::PointsToWinner,
        ..Options::default()
    };
    let tally = |out: Vec<Out>, cards: Vec<Vec<Card>>| Tally {
        out,
        cards_left: cards,
    };
    let out1 = vec![Out {
        seat: 1,
        luck_out: false,
    }];
    let good = tally(out1.clone(), vec![cs(&["GO-3"]), vec![], cs(&["LP"])]);
    let scored = LuckPlus::score_tally(&options, 3, 2, &good).unwrap();
    assert_eq!(
        scored,
        score_hand(&options, 3, 2, &good.out, good.cards_left.clone())
    );
    assert_eq!(scored.points, vec![0, 28, 0]);
    assert_eq!(scored.dealer, 1);
    let code = |t: Tally| {
        LuckPlus::score_tally(&options, 3, 1, &t)
            .unwrap_err()
            .code()
    };
    assert_eq!(
        code(tally(
            vec![],
            vec![cs(&["GO-3"]), cs(&["GO-3"]), cs(&["LP"])]
        )),
        "no_one_out"
    );
    assert_eq!(
        code(tally(out1.clone(), vec![cs(&["GO-3"]), vec![]])),
        "wrong_hand_count"
    );
    assert_eq!(
        code(tally(
            out1.clone(),
            vec![cs(&["GO-3"]), cs(&["GO-1"]), cs(&["LP"])]
        )),
        "out_hand_not_empty"
    );
    assert_eq!(
        code(tally(out1.clone(), vec![vec![], vec![], cs(&["LP"])])),
        "empty_hand_not_out"
    );
    assert_eq!(
        code(tally(
            out1.clone(),
            vec![cs(&["STOP-12", "STOP-12"]), vec![], cs(&["LP"])]
        )),
        "cards_not_in_deck"
    );
    let two = vec![
        Out {
            seat: 0,
            luck_out: true,
        },
        Out {
            seat: 1,
            luck_out: false,
        },
    ];
    assert_eq!(
        code(tally(two.clone(), vec![vec![], vec![], cs(&["LP"])])),
        "several_out"
    );
    let full = Options {
        luck_out_full_round: true,
        ..options.clone()
    };
    let both =
        LuckPlus::score_tally(&full, 3, 1, &tally(two, vec![vec![], vec![], cs(&["LP"])])).unwrap();
    assert_eq!(both.points, vec![25 + 30, 25, 0]);
    let twice = vec![out1[0], out1[0]];
    assert_eq!(
        code(tally(twice, vec![cs(&["GO-3"]), vec![], cs(&["LP"])])),
        "seat_out_twice"
    );
    let ghost = vec![Out {
        seat: 5,
        luck_out: false,
    }];
    assert_eq!(
        code(tally(ghost, vec![cs(&["GO-3"]), vec![], cs(&["LP"])])),
        "unknown_seat"
    );
}

// ---- options, states, views, codes --------------------------------------------------------------

#[test]
fn options_name_the_offending_option() {
    let bad = |o: Options, players| LuckPlus::validate_options(&o, players).unwrap_err().option;
    assert_eq!(bad(Options::default(), 1), "players");
    assert_eq!(bad(Options::default(), 9), "players");
    assert_eq!(
        bad(
            Options {
                dealer: 4,
                ..Options::default()
            },
            4
        ),
        "dealer"
    );
    assert_eq!(
        bad(
            Options {
                target: Some(0),
                ..Options::default()
            },
            4
        ),
        "target"
    );
    let parsed: Result<Options, _> = serde_json::from_value(serde_json::json!({"targett": 3}));
    assert!(parsed.is_err());
}

#[test]
fn inconsistent_states_are_refused_with_a_stable_code() {
    let s = table(
        Options::default(),
        &[&["GO-1", "GO-2"], FILL],
        &["GO-9"],
        Some([1, 2]),
        true,
        0,
    );
    let code = |f: &dyn Fn(&mut State)| {
        let mut bad = s.clone();
        f(&mut bad);
        LuckPlus::check_state(&bad).unwrap_err().code
    };
    assert_eq!(
        code(&|b| b.hands[0].insert(0, Card::Go(1))),
        "cards_not_conserved"
    );
    assert_eq!(code(&|b| b.hands[0].reverse()), "hand_not_sorted");
    assert_eq!(code(&|b| b.players = 9), "bad_player_count");
    assert_eq!(
        code(&|b| b.hands.pop().map(|_| ()).unwrap_or(())),
        "bad_hand_count"
    );
    assert_eq!(code(&|b| b.options.dealer = 5), "invalid_options");
    assert_eq!(
        code(&|b| b.drawn = Some(Card::Go(1))),
        "phase_contradiction"
    );
    assert_eq!(
        code(&|b| b.chance = Some(PendingChance::Roll { seat: 0 })),
        "chance_mismatch"
    );
    assert_eq!(code(&|b| b.dealer = 1), "bad_dealer");
    assert_eq!(
        code(&|b| b.draw_bottom = vec![Card::Go(1)]),
        "bad_draw_bottom"
    );
    assert_eq!(
        code(&|b| {
            let card = b.hands[0].pop().unwrap();
            b.match_pile.insert(0, card);
            b.hands[0].clear();
            b.match_pile.insert(0, Card::Go(2));
        }),
        "cards_not_conserved"
    );
    assert_eq!(
        code(&|b| {
            let cards = std::mem::take(&mut b.hands[0]);
            b.match_pile.splice(0..0, cards);
        }),
        "phase_contradiction"
    );
    assert_eq!(
        code(&|b| b.results.push(hand_end(ScoringMode::Hands, None))),
        "bad_hand_results"
    );
}

#[test]
fn every_viewer_sees_every_face_up_hand_but_only_the_full_view_lists_the_draw_pile() {
    // Rulebook 1: hands are dealt FACE UP (RULINGS 1.3).
    let s = table(
        Options::default(),
        &[&["GO-1", "GO-2"], FILL],
        &["GO-9"],
        Some([1, 2]),
        true,
        0,
    );
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        let v = LuckPlus::view(&s, viewer);
        assert_eq!(v.hands, s.hands);
        assert_eq!(v.draw_pile, None);
        assert_eq!(v.draw_pile_size, s.draw_pile.len());
    }
    assert_eq!(
        LuckPlus::view(&s, Viewer::Full).draw_pile,
        Some(s.draw_pile.clone())
    );
    assert!(!LuckPlus::view(&s, Viewer::Seat(0)).legal_moves.is_empty());
    assert!(LuckPlus::view(&s, Viewer::Seat(1)).legal_moves.is_empty());
    assert!(LuckPlus::view(&s, Viewer::Spectator).legal_moves.is_empty());
    let event = Event::Drew {
        seat: 0,
        card: Card::Lp,
        playable: true,
    };
    assert_eq!(LuckPlus::redact_event(&event, Viewer::Spectator), event);
}

#[test]
fn an_empty_play_is_refused() {
    let s = table(
        Options::default(),
        &[&["GO-1"], FILL],
        &["GO-9"],
        Some([1, 2]),
        true,
        0,
    );
    assert_eq!(reject(&s, 0, play_groups(vec![])), "empty_play");
    assert_eq!(reject(&s, 1, Move::Draw), "not_your_turn");
    assert_eq!(reject(&s, 4, Move::Draw), "unknown_seat");
    let mut rolling = s.clone();
    rolling.phase = Phase::Matching;
    play(&mut rolling, 0, Move::Roll);
    assert_eq!(reject(&rolling, 0, Move::Draw), "chance_pending");
}

/// Statistics count hands won and LUCK OUTs ("LUCK OUT: going out on your first turn").
#[test]
fn highlights_count_hands_won_and_luck_outs() {
    let options = Options::default();
    let hand = |seat: Seat, luck_out: bool, left: Vec<Vec<Card>>| {
        let tally = Tally {
            out: vec![Out { seat, luck_out }],
            cards_left: left,
        };
        LuckPlus::score_tally(&options, 2, 1, &tally).unwrap()
    };
    let hands = vec![
        hand(0, true, vec![vec![], cs(&["GO-3"])]),
        hand(0, false, vec![vec![], cs(&["DBL"])]),
        hand(1, false, vec![cs(&["LP"]), vec![]]),
    ];
    let seats = LuckPlus::tally_highlights(2, &hands);
    assert_eq!(seats[0]["hands_won"], 2);
    assert_eq!(seats[0]["luck_outs"], 1);
    assert_eq!(seats[1]["hands_won"], 1);
    assert!(!seats[1].contains_key("luck_outs"));
}
