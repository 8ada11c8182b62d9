//! Unit tests, one per rule or option. Comments cite the rulebook (`rules/luck-plus.txt`) or
//! RULINGS.md §1.

use super::*;
use crate::games::chance::tests::SplitMix;
use crate::games::Violation as _;

mod drawing;
mod going_out_and_luck_out;
mod luck_plus;
mod matching;
mod one_die_previous_dice_first_turn;
mod options_states_views_codes;
mod reveals;
mod scoring;
mod setup_and_chance;
mod tally;

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

/// Seat 0, not on its first turn, down to GO-4 against GO-9 with 4 and 1 rolled: playing it goes
/// out.
fn going_out(options: Options) -> State {
    table(
        options,
        &[&["GO-4"], FILL],
        &["GO-9"],
        Some([4, 1]),
        true,
        0,
    )
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
    let mut state = LuckPlus::setup(LuckPlus::validate_options(&options, players).unwrap());
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
    state.turn = turn;
    state.phase = match rolled {
        true => Phase::Rolled,
        false => Phase::PreRoll,
    };
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
fn every_violation_code_is_its_variant_name_in_snake_case() {
    // The codes clients switch on are the ones serde's `rename_all = "snake_case"` gave.
    for (name, code) in LuckPlusViolation::VARIANTS {
        assert_eq!(crate::games::kit::refusal::snake_case(name), *code);
    }
}
