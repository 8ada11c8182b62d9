//! Unit tests, one per rule and option. "Step n" cites the rulebook's numbered steps
//! (`shared/rules/plus-minus.txt`); "Pn" and "5.x" cite RULINGS.md §5.

use super::cards::{first_missing, take_sorted};
use super::*;
use crate::games::chance::tests::SplitMix;
use PlusMinusViolation as V;

mod chance;
mod components_and_ranks;
mod legal_moves;
mod must_play_forfeit_pass;
mod option_players_choose_their_face_up_cards;
mod options;
mod plays;
mod reveals;
mod round_end_scoring_game_end;
mod state_checks;
mod tally;
mod the_10;
mod the_5;
mod the_deal;
mod the_king;
mod views_and_redaction;
mod violation_codes;

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
    let mut state = PlusMinus::setup(PlusMinus::validate_options(&options, n).unwrap());
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

/// Three seats dealt four hidden cards each, to choose two of them face up (option
/// `face_up_chosen_by_player`, RULINGS 5.6).
fn choosing() -> State {
    let options = Options {
        face_up_chosen_by_player: true,
        ..Options::default()
    };
    let mut state = PlusMinus::setup(PlusMinus::validate_options(&options, 3).unwrap());
    let deal = Chance::Deal {
        hands: vec![cards("2 3 K Q"), cards("4 6 A 9"), cards("7 8 J 10")],
        face_up: vec![vec![], vec![], vec![]],
    };
    PlusMinus::resolve_chance(&mut state, &deal).unwrap();
    state
}

fn choose(a: &str, b: &str) -> Move {
    Move::ChooseFaceUp {
        cards: [card(a), card(b)],
    }
}

fn dealt(players: usize, options: Options, seed: u64) -> State {
    let mut state = PlusMinus::setup(PlusMinus::validate_options(&options, players).unwrap());
    let outcome = PlusMinus::sample_chance(&state, &mut SplitMix(seed));
    PlusMinus::resolve_chance(&mut state, &outcome).unwrap();
    state
}

#[test]
fn every_violation_code_is_its_variant_name_in_snake_case() {
    // The codes clients switch on are the ones serde's `rename_all = "snake_case"` gave.
    for (name, code) in PlusMinusViolation::VARIANTS {
        assert_eq!(crate::games::kit::refusal::snake_case(name), *code);
    }
}
