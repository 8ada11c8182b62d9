//! Unit tests, one per rule and option. "Step n" cites the rulebook's numbered steps
//! (`shared/rules/plus-minus.txt`); "Pn" and "5.x" cite RULINGS.md §5.

use super::cards::{first_missing, take_sorted};
use super::*;
use crate::games::chance::tests::SplitMix;
use PlusMinusViolation as V;

/// Cards from a space-separated list of JSON names: `cards("A 10 K")`.
fn cards(list: &str) -> Vec<Card> {
    list.split_whitespace()
        .map(|name| serde_json::from_value(serde_json::json!(name)).unwrap())
        .collect()
}

fn card(name: &str) -> Card {
    cards(name)[0]
}

fn at(seat: Seat, stack: StackKind) -> StackRef {
    StackRef { seat, stack }
}

fn plus(seat: Seat) -> StackRef {
    at(seat, StackKind::Plus)
}

fn minus(seat: Seat) -> StackRef {
    at(seat, StackKind::Minus)
}

fn play(c: &str, stack: StackRef) -> Move {
    Move::Play {
        card: card(c),
        stack,
        swap: None,
        king_targets: None,
    }
}

fn ten(stack: StackRef, a: StackRef, b: StackRef) -> Move {
    Move::Play {
        card: Card::Ten,
        stack,
        swap: Some([a, b]),
        king_targets: None,
    }
}

fn king(stack: StackRef, a: Seat, b: Seat) -> Move {
    Move::Play {
        card: Card::King,
        stack,
        swap: None,
        king_targets: Some([a, b]),
    }
}

fn pass(c: &str) -> Move {
    Move::Pass { card: card(c) }
}

/// A round in progress (round 1, dealer 0, not the first turn): `turn` to play one card. Cards
/// not listed are in the draw stack.
fn table_with(options: Options, hands: &[&str], stacks: &[(&str, &str)], turn: Seat) -> State {
    let n = hands.len();
    let mut state = PlusMinus::setup(options, n);
    state.chance = None;
    let mut rest = full_deck();
    for seat in 0..n {
        let mut hand = cards(hands[seat]);
        hand.sort();
        let (p, m) = stacks[seat];
        for &c in hand.iter().chain(&cards(p)).chain(&cards(m)) {
            assert!(take_sorted(&mut rest, c), "too many {c:?}");
        }
        state.hands[seat] = hand;
        state.stacks[seat] = SeatStacks {
            plus: cards(p),
            minus: cards(m),
        };
    }
    state.draw_stack = rest;
    state.phase = Phase::Play;
    state.plays_remaining = 1;
    state.turn = turn;
    state.turns_this_round = ((turn + n - state.dealer - 1) % n + n) as u32;
    PlusMinus::check_state(&state).expect("test table is consistent");
    state
}

fn table(hands: &[&str], stacks: &[(&str, &str)], turn: Seat) -> State {
    table_with(Options::default(), hands, stacks, turn)
}

/// Leaves exactly `draw` in the draw stack; every other unlisted card goes under the last seat's
/// Plus stack (tests that score account for it).
fn with_draw(mut state: State, draw: &str) -> State {
    let mut draw = cards(draw);
    draw.sort();
    let mut rest = state.draw_stack.clone();
    for &c in &draw {
        assert!(take_sorted(&mut rest, c), "draw card {c:?} not free");
    }
    let last = state.players - 1;
    rest.append(&mut state.stacks[last].plus);
    state.stacks[last].plus = rest;
    state.draw_stack = draw;
    PlusMinus::check_state(&state).expect("test table is consistent");
    state
}

fn ok(state: &mut State, seat: Seat, mv: &Move) -> Vec<Event> {
    PlusMinus::play(state, seat, mv).unwrap_or_else(|e| panic!("{mv:?}: {e}"))
}

fn refuse(state: &State, seat: Seat, mv: &Move) -> PlusMinusViolation {
    let mut copy = state.clone();
    let err = PlusMinus::play(&mut copy, seat, mv).expect_err("the move must be refused");
    assert_eq!(&copy, state, "a refused move leaves the state untouched");
    err
}

fn draw(state: &mut State, list: &str) -> Vec<Event> {
    PlusMinus::resolve_chance(state, &Chance::Draw { cards: cards(list) })
        .unwrap_or_else(|e| panic!("draw {list}: {e}"))
}

fn dealt(players: usize, options: Options, seed: u64) -> State {
    let mut state = PlusMinus::setup(options, players);
    let outcome = PlusMinus::sample_chance(&state, &mut SplitMix(seed));
    PlusMinus::resolve_chance(&mut state, &outcome).unwrap();
    state
}

// --- Components and ranks -------------------------------------------------------------------

#[test]
fn points_are_ace_20_two_to_five_5_six_to_nine_0_ten_to_king_10_deck_320() {
    // Step 6; RULINGS 5.1.
    let expect = [20, 5, 5, 5, 5, 0, 0, 0, 0, 10, 10, 10, 10];
    for (c, p) in Card::ALL.iter().zip(expect) {
        assert_eq!(c.points(), p, "{c:?}");
    }
    assert_eq!(points_of(&full_deck()), 320);
    assert_eq!(full_deck().len(), DECK_SIZE);
}

#[test]
fn card_names_are_the_printed_indices() {
    let names: Vec<String> = Card::ALL
        .iter()
        .map(|c| {
            serde_json::to_value(c)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        names,
        ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    );
    assert_eq!(Card::Jack.rank(), 11);
    assert_eq!(Card::Ace.rank(), 1);
    assert_eq!(Card::King.rank(), 13);
}

#[test]
fn a_card_fits_on_the_same_rank_or_one_above_or_below_as_in_the_rulebook_example() {
    // Step 1: "a 6 on a 6", "a 6 on a 7, or a 6 on a 5".
    let six = Card::Six;
    assert!(six.fits_on(Card::Six));
    assert!(six.fits_on(Card::Seven));
    assert!(six.fits_on(Card::Five));
    assert!(!six.fits_on(Card::Eight));
    assert!(!six.fits_on(Card::Four));
    assert!(Card::Jack.fits_on(Card::Queen));
    assert!(Card::Ten.fits_on(Card::Jack));
}

#[test]
fn any_card_fits_on_an_ace_or_king_top() {
    // Step 4 (first bullet); 5.4.2.
    for c in Card::ALL {
        assert!(c.fits_on(Card::Ace), "{c:?} on A");
        assert!(c.fits_on(Card::King), "{c:?} on K");
    }
}

#[test]
fn aces_and_kings_themselves_need_an_adjacent_top_and_there_is_no_wrap() {
    // RULINGS P3, P4.
    assert!(!Card::Ace.fits_on(Card::Three));
    assert!(Card::Ace.fits_on(Card::Two));
    assert!(!Card::King.fits_on(Card::Ten));
    assert!(Card::King.fits_on(Card::Queen));
    // Q on an A top is allowed only because A tops are wild, not by wrapping.
    assert!(!Card::Two.fits_on(Card::Queen));
}

// --- Options --------------------------------------------------------------------------------

#[test]
fn options_default_to_the_rulings() {
    // RULINGS 5.6.
    let o = Options::default();
    assert_eq!(o.rounds, None);
    assert_eq!(o.first_dealer, 0);
    assert_eq!(o.higher_by, HigherBy::Rank);
    assert!(o.empty_stack_accepts_any);
    assert!(o.pass_after_forfeit);
    assert!(!o.face_up_chosen_by_player);
    let parsed: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(parsed, o);
}

#[test]
fn three_to_six_players_and_a_real_first_dealer_and_at_least_one_round() {
    // Overview: "3 to 6 players".
    let o = Options::default();
    assert_eq!(
        PlusMinus::validate_options(&o, 2).unwrap_err().option,
        "players"
    );
    assert_eq!(
        PlusMinus::validate_options(&o, 7).unwrap_err().option,
        "players"
    );
    for n in 3..=6 {
        PlusMinus::validate_options(&o, n).unwrap();
    }
    let dealer = Options {
        first_dealer: 3,
        ..Options::default()
    };
    assert_eq!(
        PlusMinus::validate_options(&dealer, 3).unwrap_err().option,
        "first_dealer"
    );
    let zero = Options {
        rounds: Some(0),
        ..Options::default()
    };
    assert_eq!(
        PlusMinus::validate_options(&zero, 3).unwrap_err().option,
        "rounds"
    );
    assert!(serde_json::from_str::<Options>(r#"{"turbo": true}"#).is_err());
}

// --- The deal -------------------------------------------------------------------------------

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
    let mut state = PlusMinus::setup(Options::default(), 3);
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
    let mut state = PlusMinus::setup(options, 3);
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

// --- Plays ----------------------------------------------------------------------------------

#[test]
fn a_card_may_go_on_any_players_plus_or_minus_stack_when_adjacent() {
    // Step 1: "on his own Plus or Minus Stack, or the Plus or Minus Stack of any other player".
    let state = table(
        &["6 9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    for stack in [plus(0), plus(1), minus(1), plus(2)] {
        let expected = matches!(stack, s if s == plus(0) || s == plus(1));
        let mv = play("6", stack);
        assert_eq!(
            PlusMinus::validate(&state, 0, &mv).is_ok(),
            expected,
            "{stack:?}"
        );
    }
    let mut s = state.clone();
    ok(&mut s, 0, &play("6", plus(1)));
    assert_eq!(s.stacks[1].plus, cards("5 6"));
    assert_eq!(s.hands[0], cards("2 9"));
    assert_eq!(s.phase, Phase::Pass);
}

#[test]
fn a_card_that_is_not_adjacent_is_refused_with_the_top_named() {
    let state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    assert_eq!(
        refuse(&state, 0, &play("9", plus(1))),
        V::NotAdjacentRank {
            card: Card::Nine,
            top: Card::Five
        }
    );
    assert_eq!(
        refuse(&state, 0, &play("7", plus(0))),
        V::CardNotInHand { card: Card::Seven }
    );
    assert_eq!(
        refuse(&state, 0, &play("9", plus(5))),
        V::UnknownStack {
            seat: 5,
            players: 3
        }
    );
    assert_eq!(
        refuse(&state, 1, &play("3", minus(0))),
        V::NotYourTurn { seat: 1, turn: 0 }
    );
}

#[test]
fn an_ace_or_king_on_top_takes_any_card_but_only_the_next_one() {
    // Step 4: "Cards after that must be played in accord with the rules of Step 1."
    let mut state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "A"), ("5", "K"), ("8", "Q")],
        0,
    );
    ok(&mut state, 0, &play("9", minus(0)));
    assert_eq!(state.stacks[0].minus, cards("A 9"));
    let mut state = table(
        &["J 2", "3 Q", "4 4"],
        &[("7", "A"), ("5", "K"), ("8", "Q")],
        0,
    );
    ok(&mut state, 0, &play("2", minus(1)));
    ok(&mut state, 0, &pass("J"));
    // Seat 1 now faces a 2 on that stack: the king below no longer makes it wild.
    draw(&mut state, "6");
    assert_eq!(
        refuse(&state, 1, &play("Q", minus(1))),
        V::NotAdjacentRank {
            card: Card::Queen,
            top: Card::Two
        }
    );
}

#[test]
fn an_empty_stack_takes_any_card_by_default_and_none_with_the_option_off() {
    // RULINGS P9 and 5.6 `emptyStackAcceptsAny`.
    let state = table(
        &["9 2", "3 3", "4 4"],
        &[("7 3", ""), ("5", "K"), ("8", "Q")],
        0,
    );
    PlusMinus::validate(&state, 0, &play("9", minus(0))).unwrap();
    let options = Options {
        empty_stack_accepts_any: false,
        ..Options::default()
    };
    let strict = table_with(
        options,
        &["9 2", "3 3", "4 4"],
        &[("7 3", ""), ("5", "K"), ("8", "Q")],
        0,
    );
    assert_eq!(
        refuse(&strict, 0, &play("9", minus(0))),
        V::EmptyStack { stack: minus(0) }
    );
}

// --- The 5 ----------------------------------------------------------------------------------

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

// --- The 10 ---------------------------------------------------------------------------------

#[test]
fn a_ten_must_swap_two_distinct_stacks() {
    // Step 4: "a player must swap any two Stacks"; RULINGS P7.
    let state = table(
        &["10 2", "3 3", "4 4"],
        &[("J", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    assert_eq!(refuse(&state, 0, &play("10", plus(0))), V::SwapRequired);
    assert_eq!(
        refuse(&state, 0, &ten(plus(0), minus(1), minus(1))),
        V::SwapSameStack { stack: minus(1) }
    );
    assert_eq!(
        refuse(&state, 0, &ten(plus(0), minus(1), minus(4))),
        V::UnknownStack {
            seat: 4,
            players: 3
        }
    );
    let stray = Move::Play {
        card: Card::Two,
        stack: minus(0),
        swap: Some([plus(1), plus(2)]),
        king_targets: None,
    };
    assert_eq!(
        refuse(&state, 0, &stray),
        V::SwapNotAllowed { card: Card::Two }
    );
}

#[test]
fn a_ten_swaps_any_stacks_including_the_one_just_played_on() {
    // RULINGS P7: any owners, own included, Plus↔Minus, the played stack too.
    let mut state = table(
        &["10 2", "3 3", "4 4"],
        &[("J", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    let events = ok(&mut state, 0, &ten(plus(0), plus(0), minus(2)));
    assert_eq!(state.stacks[0].plus, cards("Q"));
    assert_eq!(state.stacks[2].minus, cards("J 10"));
    assert!(events.contains(&Event::Swapped {
        seat: 0,
        stacks: [plus(0), minus(2)]
    }));
    // Either order names the same swap.
    let state = table(
        &["10 2", "3 3", "4 4"],
        &[("J", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    PlusMinus::validate(&state, 0, &ten(plus(0), minus(2), plus(0))).unwrap();
}

// --- The king -------------------------------------------------------------------------------

#[test]
fn a_king_moves_two_other_players_top_two_minus_cards_onto_their_plus_keeping_order() {
    // Step 4: "moves the top 2 cards ... to the top of their Plus Stacks (keeping the order)".
    let mut state = table(
        &["K 2", "3 3", "4 4", "6 6"],
        &[("Q", "2"), ("8", "J 10 9"), ("7", "Q A"), ("9", "5")],
        0,
    );
    let events = ok(&mut state, 0, &king(plus(0), 1, 3));
    assert_eq!(state.stacks[1].plus, cards("8 10 9"));
    assert_eq!(state.stacks[1].minus, cards("J"));
    // Fewer than two: what exists moves (RULINGS P8).
    assert_eq!(state.stacks[3].plus, cards("9 5"));
    assert!(state.stacks[3].minus.is_empty());
    // Untargeted seat 2 is untouched.
    assert_eq!(state.stacks[2].minus, cards("Q A"));
    assert!(events.contains(&Event::MinusToPlus {
        seat: 0,
        target: 1,
        count: 2,
        top: Some(Card::Nine),
        cards: Some(cards("10 9")),
    }));
}

#[test]
fn a_king_needs_two_distinct_other_players() {
    // RULINGS 5.4.3 and 5.8.
    let state = table(
        &["K 2", "3 3", "4 4"],
        &[("Q", "2"), ("8", "J"), ("10", "Q")],
        0,
    );
    assert_eq!(
        refuse(&state, 0, &play("K", plus(0))),
        V::KingTargetsRequired
    );
    assert_eq!(
        refuse(&state, 0, &king(plus(0), 0, 1)),
        V::KingTargetSelf { seat: 0 }
    );
    assert_eq!(
        refuse(&state, 0, &king(plus(0), 2, 2)),
        V::KingTargetsNotDistinct { seat: 2 }
    );
    assert_eq!(
        refuse(&state, 0, &king(plus(0), 1, 7)),
        V::UnknownSeat {
            seat: 7,
            players: 3
        }
    );
    let stray = Move::Play {
        card: Card::Two,
        stack: minus(0),
        swap: None,
        king_targets: Some([1, 2]),
    };
    assert_eq!(
        refuse(&state, 0, &stray),
        V::KingTargetsNotAllowed { card: Card::Two }
    );
}

// --- Must play, forfeit, pass ---------------------------------------------------------------

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

// --- Round end, scoring, game end -----------------------------------------------------------

#[test]
fn the_round_ends_after_the_turn_that_took_the_last_card_including_its_pass() {
    // Step 6; RULINGS P11.
    let state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    let mut state = with_draw(state, "");
    // Seat 0 is mid-turn with the draw stack already empty: it plays, passes, then scoring.
    ok(&mut state, 0, &play("9", plus(2)));
    assert!(state.results.is_empty());
    assert_eq!(state.phase, Phase::Pass);
    let events = ok(&mut state, 0, &pass("2"));
    assert_eq!(state.results.len(), 1);
    assert!(matches!(
        events.last(),
        Some(Event::RoundEnded { round: 1, .. })
    ));
    assert_eq!(state.phase, Phase::Deal);
}

#[test]
fn a_round_scores_plus_minus_and_hand_points() {
    // Steps 6–7: Plus − Minus − hand.
    let state = table(
        &["9 2", "3 A", "4 4"],
        &[("7 K A", "2 5"), ("5", "J"), ("8", "Q")],
        0,
    );
    let mut state = with_draw(state, "");
    ok(&mut state, 0, &play("9", plus(2)));
    ok(&mut state, 0, &pass("2"));
    let r = &state.results[0];
    // Seat 0: plus 7 K A = 30, minus 2 5 = 10, hand empty → 20.
    assert_eq!(
        r.seats[0],
        SeatScore {
            plus_cards: 3,
            plus_points: 30,
            minus_cards: 2,
            minus_points: 10,
            hand_cards: 0,
            hand_points: 0,
            score: 20
        }
    );
    // Seat 1: plus 5 = 5, minus J = 10, hand 2 3 A = 30 → −35.
    assert_eq!(r.points[1], -35);
    assert_eq!(
        r.points,
        r.seats.iter().map(|s| s.score).collect::<Vec<_>>()
    );
    assert_eq!(r.dealer, 0);
    assert_eq!(PlusMinus::score(&state).totals, r.points);
}

#[test]
fn each_player_deals_once_with_the_deal_moving_left_then_the_highest_total_wins() {
    // Step 8; RULINGS P12.
    let mut state = dealt(3, Options::default(), 5);
    let mut dealers = vec![state.dealer];
    let mut rng = SplitMix(77);
    let mut rounds_seen = 1;
    while !PlusMinus::is_over(&state) {
        if PlusMinus::chance_pending(&state) {
            let outcome = PlusMinus::sample_chance(&state, &mut rng);
            PlusMinus::resolve_chance(&mut state, &outcome).unwrap();
            if state.round > rounds_seen {
                rounds_seen = state.round;
                dealers.push(state.dealer);
            }
        } else {
            let seat = PlusMinus::to_act(&state)[0];
            let mv = PlusMinus::legal_moves(&state, seat)[0].clone();
            ok(&mut state, seat, &mv);
        }
        PlusMinus::check_state(&state).unwrap();
    }
    assert_eq!(dealers, vec![0, 1, 2]);
    assert_eq!(state.results.len(), 3);
    let totals = PlusMinus::score(&state).totals;
    let best = *totals.iter().max().unwrap();
    let winners: Vec<Seat> = (0..3).filter(|&s| totals[s] == best).collect();
    assert_eq!(PlusMinus::standings(&state).winners, winners);
}

#[test]
fn option_rounds_shortens_the_game() {
    let options = Options {
        rounds: Some(1),
        ..Options::default()
    };
    let state = table_with(
        options,
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    let mut state = with_draw(state, "");
    ok(&mut state, 0, &play("9", plus(2)));
    let events = ok(&mut state, 0, &pass("2"));
    assert!(PlusMinus::is_over(&state));
    assert!(matches!(events.last(), Some(Event::GameEnded { .. })));
    assert_eq!(refuse(&state, 0, &pass("2")), V::GameOver);
}

#[test]
fn tied_totals_share_the_win() {
    // RULINGS P12: ties shared.
    let options = Options {
        rounds: Some(1),
        ..Options::default()
    };
    let (standings, over) = PlusMinus::tally_standings(
        &options,
        3,
        &[RoundResult::new(
            1,
            0,
            vec![
                seat_score(&cards("K"), &[], &[]),
                seat_score(&cards("Q"), &[], &[]),
                seat_score(&cards("2"), &[], &[]),
            ],
        )],
    );
    assert!(over);
    assert_eq!(standings.winners, vec![0, 1]);
}

// --- Option: players choose their face-up cards ---------------------------------------------

#[test]
fn option_face_up_chosen_by_player_deals_four_hidden_and_reveals_choices_together() {
    // RULINGS 5.6 `faceUpChosenByPlayer`.
    let options = Options {
        face_up_chosen_by_player: true,
        ..Options::default()
    };
    let mut state = PlusMinus::setup(options, 3);
    let deal = Chance::Deal {
        hands: vec![cards("2 3 K Q"), cards("4 6 A 9"), cards("7 8 J 10")],
        face_up: vec![vec![], vec![], vec![]],
    };
    PlusMinus::resolve_chance(&mut state, &deal).unwrap();
    assert_eq!(state.phase, Phase::Choose);
    assert_eq!(PlusMinus::to_act(&state), vec![0, 1, 2]);
    assert_eq!(PlusMinus::legal_moves(&state, 0).len(), 6);
    let choose = |a: &str, b: &str| Move::ChooseFaceUp {
        cards: [card(a), card(b)],
    };
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
        V::ChancePending {
            kind: ChanceKind::Draw
        }
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

// --- Chance ---------------------------------------------------------------------------------

#[test]
fn a_reported_deal_or_draw_is_checked_exactly_and_a_bad_one_changes_nothing() {
    let state = PlusMinus::setup(Options::default(), 3);
    let reject = |outcome: Chance| {
        let mut copy = state.clone();
        let err = PlusMinus::resolve_chance(&mut copy, &outcome).unwrap_err();
        assert_eq!(copy, state);
        err
    };
    assert_eq!(
        reject(Chance::Draw { cards: cards("A") }),
        V::UnexpectedChanceKind {
            expected: ChanceKind::Deal,
            got: ChanceKind::Draw
        }
    );
    assert_eq!(
        reject(Chance::Deal {
            hands: vec![cards("2 3"), cards("4 6")],
            face_up: vec![cards("A K"), cards("9 J")],
        }),
        V::WrongHandCount {
            expected: 3,
            got: 2
        }
    );
    assert_eq!(
        reject(Chance::Deal {
            hands: vec![cards("2 3"), cards("4 6 7"), cards("7 8")],
            face_up: vec![cards("A K"), cards("9 J"), cards("5 5")],
        }),
        V::WrongCardCount {
            expected: 2,
            got: 3
        }
    );
    assert_eq!(
        reject(Chance::Deal {
            hands: vec![cards("2 2"), cards("2 2"), cards("2 8")],
            face_up: vec![cards("A K"), cards("9 J"), cards("5 5")],
        }),
        V::CardNotInPile { card: Card::Two }
    );
    let mut state = table(
        &["9 2", "3 3", "3 3"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    assert_eq!(
        PlusMinus::resolve_chance(&mut state, &Chance::Draw { cards: cards("A") }),
        Err(V::NoChancePending)
    );
    ok(&mut state, 0, &play("9", plus(2)));
    ok(&mut state, 0, &pass("2"));
    let before = state.clone();
    assert_eq!(
        PlusMinus::resolve_chance(
            &mut state,
            &Chance::Draw {
                cards: cards("A 2")
            }
        ),
        Err(V::WrongCardCount {
            expected: 1,
            got: 2
        })
    );
    assert_eq!(
        PlusMinus::resolve_chance(&mut state, &Chance::Draw { cards: cards("3") }),
        Err(V::CardNotInPile { card: Card::Three })
    );
    assert_eq!(state, before);
}

#[test]
fn sampling_draws_only_cards_still_in_the_pile_and_is_reproducible() {
    let state = PlusMinus::setup(Options::default(), 6);
    let a = PlusMinus::sample_chance(&state, &mut SplitMix(11));
    let b = PlusMinus::sample_chance(&state, &mut SplitMix(11));
    assert_eq!(a, b);
    let Chance::Deal { hands, face_up } = &a else {
        panic!()
    };
    let all: Vec<Card> = hands.iter().chain(face_up).flatten().copied().collect();
    assert_eq!(all.len(), 24);
    assert_eq!(first_missing(&full_deck(), &all), None);
}

// --- Views and redaction --------------------------------------------------------------------

#[test]
fn views_show_own_hand_stack_tops_and_sizes_but_no_buried_card_or_other_hand() {
    // Step 3: "Cards in any Stack (except the top card) may not be examined"; RULINGS P13.
    let state = table(
        &["9 2", "3 A", "4 4"],
        &[("7 K A", "2 5"), ("5", "J"), ("8", "Q")],
        0,
    );
    let v = PlusMinus::view(&state, Viewer::Seat(1));
    assert_eq!(v.hands[1], Some(cards("A 3")));
    assert_eq!(v.hands[0], None);
    assert_eq!(v.hand_sizes, vec![2, 2, 2]);
    assert_eq!(v.stacks[0].plus.top, Some(Card::Ace));
    assert_eq!(v.stacks[0].plus.size, 3);
    assert_eq!(v.stacks[0].plus.cards, None);
    assert_eq!(v.draw_stack, None);
    assert!(v.legal_moves.is_empty());
    let json = serde_json::to_string(&PlusMinus::view(&state, Viewer::Spectator)).unwrap();
    assert!(!json.contains("\"K\""), "a buried king leaks: {json}");
    let full = PlusMinus::view(&state, Viewer::Full);
    assert_eq!(full.stacks[0].plus.cards, Some(cards("7 K A")));
    assert_eq!(full.draw_stack, Some(state.draw_stack.clone()));
    assert!(full.hands.iter().all(Option::is_some));
    let mine = PlusMinus::view(&state, Viewer::Seat(0));
    assert_eq!(mine.legal_moves, PlusMinus::legal_moves(&state, 0));
}

#[test]
fn dealt_drawn_and_king_moved_cards_are_redacted_for_those_who_may_not_see_them() {
    let dealt_event = Event::Dealt {
        seat: 1,
        hand_size: 2,
        hand: Some(cards("A 2")),
        plus: Some(Card::King),
        minus: Some(Card::Two),
    };
    let drew = Event::Drew {
        seat: 1,
        count: 1,
        reason: DrawReason::TurnStart,
        cards: Some(cards("Q")),
    };
    let moved = Event::MinusToPlus {
        seat: 0,
        target: 1,
        count: 2,
        top: Some(Card::Five),
        cards: Some(cards("J 5")),
    };
    for viewer in [Viewer::Seat(0), Viewer::Spectator] {
        let Event::Dealt { hand, plus, .. } = PlusMinus::redact_event(&dealt_event, viewer) else {
            panic!()
        };
        assert_eq!((hand, plus), (None, Some(Card::King)));
        let Event::Drew { cards: c, .. } = PlusMinus::redact_event(&drew, viewer) else {
            panic!()
        };
        assert_eq!(c, None);
    }
    assert_eq!(PlusMinus::redact_event(&drew, Viewer::Seat(1)), drew);
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let Event::MinusToPlus { cards: c, top, .. } = PlusMinus::redact_event(&moved, viewer)
        else {
            panic!()
        };
        assert_eq!((c, top), (None, Some(Card::Five)));
    }
    assert_eq!(PlusMinus::redact_event(&moved, Viewer::Full), moved);
}

// --- Legal moves ----------------------------------------------------------------------------

#[test]
fn legal_moves_list_every_ten_swap_and_king_target_pair_once() {
    let state = table(
        &["10 K", "3 3", "4 4", "6 6"],
        &[("J", "Q"), ("8", "7"), ("9", "2"), ("5", "3")],
        0,
    );
    let moves = PlusMinus::legal_moves(&state, 0);
    // 10 fits on J (0 plus) and 9 (2 plus): 2 × C(8, 2) = 56. K fits on Q (0 minus): C(3, 2) = 3.
    assert_eq!(moves.len(), 56 + 3);
    for mv in &moves {
        PlusMinus::validate(&state, 0, mv).unwrap();
    }
    assert!(PlusMinus::legal_moves(&state, 1).is_empty());
}

// --- State checks ---------------------------------------------------------------------------

#[test]
fn inconsistent_states_are_rejected_with_stable_codes() {
    let good = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    let code = |f: &dyn Fn(&mut State)| {
        let mut s = good.clone();
        f(&mut s);
        PlusMinus::check_state(&s).unwrap_err().code
    };
    assert_eq!(
        code(&|s| s.hands[0].insert(0, Card::Ace)),
        "cards_not_conserved"
    );
    assert_eq!(code(&|s| s.hands[0] = cards("9 2")), "not_sorted");
    assert_eq!(code(&|s| s.players = 7), "bad_player_count");
    assert_eq!(
        code(&|s| s.stacks.pop().map(|_| ()).unwrap()),
        "bad_seat_count"
    );
    assert_eq!(code(&|s| s.turn = 1), "bad_turn");
    assert_eq!(code(&|s| s.dealer = 2), "bad_dealer");
    assert_eq!(code(&|s| s.round = 4), "bad_round");
    assert_eq!(code(&|s| s.options.first_dealer = 5), "invalid_options");
    assert_eq!(code(&|s| s.plays_remaining = 0), "phase_contradiction");
    assert_eq!(code(&|s| s.phase = Phase::Drawing), "chance_mismatch");
    assert_eq!(
        code(&|s| s.results.push(RoundResult::new(1, 0, vec![]))),
        "bad_round_results"
    );
    assert_eq!(code(&|s| s.phase = Phase::Choose), "phase_contradiction");
    let mut s = good.clone();
    ok(&mut s, 0, &play("9", plus(2)));
    ok(&mut s, 0, &pass("2"));
    PlusMinus::check_state(&s).unwrap();
    if let Some(PendingChance::Draw { count, .. }) = &mut s.chance {
        *count = 2;
    }
    assert_eq!(
        PlusMinus::check_state(&s).unwrap_err().code,
        "chance_mismatch"
    );
}

// --- Tally ----------------------------------------------------------------------------------

#[test]
fn a_tally_is_scored_with_the_play_scoring_and_checked_for_impossible_cards() {
    let tally: Tally = serde_json::from_value(serde_json::json!({"players": [
        {"plus": ["K", "Q", "7"], "minus": ["5"], "hand": ["A"]},
        {"plus": ["2"], "minus": ["10", "J"], "hand": []},
        {"plus": ["A", "A"], "minus": [], "hand": ["9", "3"]}]}))
    .unwrap();
    let o = Options::default();
    let r = PlusMinus::score_tally(&o, 3, 1, &tally).unwrap();
    assert_eq!(r.points, vec![20 - 5 - 20, 5 - 20, 40 - 5]);
    assert_eq!(
        r.seats[0],
        seat_score(&cards("K Q 7"), &cards("5"), &cards("A"))
    );
    assert_eq!(r.dealer, 0);
    assert_eq!(PlusMinus::tally_points(&r), r.points);
    let mut five_aces = tally.clone();
    five_aces.players[1].hand = cards("A A A");
    assert_eq!(
        PlusMinus::score_tally(&o, 3, 1, &five_aces),
        Err(V::TooManyOfRank {
            card: Card::Ace,
            count: 6
        })
    );
    assert_eq!(
        PlusMinus::score_tally(&o, 4, 1, &tally),
        Err(V::WrongPlayerCount {
            expected: 4,
            got: 3
        })
    );
    assert_eq!(PlusMinus::score_tally(&o, 3, 4, &tally), Err(V::GameOver));
    let (_, over) = PlusMinus::tally_standings(&o, 3, &[r.clone(), r.clone()]);
    assert!(!over);
    let (standings, over) = PlusMinus::tally_standings(&o, 3, &[r.clone(), r.clone(), r]);
    assert!(over);
    assert_eq!(standings.totals, vec![-15, -45, 105]);
    assert_eq!(standings.winners, vec![2]);
}

// --- Violation codes ------------------------------------------------------------------------

#[test]
fn a_move_in_the_gap_between_rounds_is_refused_as_round_over() {
    let state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    let mut state = with_draw(state, "");
    ok(&mut state, 0, &play("9", plus(2)));
    ok(&mut state, 0, &pass("2"));
    assert_eq!(refuse(&state, 1, &Move::Forfeit), V::RoundOver { round: 1 });
}

/// Statistics keep each seat's best round (rulebook step 7: a round scores Plus − Minus − hand).
#[test]
fn highlights_keep_each_seats_best_round() {
    let round = |players: serde_json::Value, n: u32| {
        let tally: Tally =
            serde_json::from_value(serde_json::json!({ "players": players })).unwrap();
        PlusMinus::score_tally(&Options::default(), 3, n, &tally).unwrap()
    };
    let rounds = vec![
        round(
            serde_json::json!([{"plus": ["K"]}, {"minus": ["A"]}, {}]),
            1,
        ),
        round(
            serde_json::json!([{"plus": ["A"]}, {"plus": ["2"]}, {"hand": ["5"]}]),
            2,
        ),
    ];
    let seats = PlusMinus::tally_highlights(3, &rounds);
    assert_eq!(seats[0]["best_round"], 20);
    assert_eq!(seats[1]["best_round"], 5);
    assert_eq!(seats[2]["best_round"], 0);
}
