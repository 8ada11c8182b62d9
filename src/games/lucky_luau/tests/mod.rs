//! Unit tests, one per rule and option, citing the rulebook ("RB") or RULINGS §4.

use super::*;
use crate::games::chance::tests::SplitMix;
use crate::games::Consistent;
use crate::games::Violation as _;
use LuckyLuauViolation as V;

mod chance;
mod check_state;
mod components_and_setup;
mod lei_scoring;
mod moves;
mod reveals;
mod tally_words;
mod views_and_redaction;
mod violation_codes;

fn parsed(text: &str) -> words::ParsedLei {
    words::parse_lei(0, &LeiText::Words(text.into())).expect("valid lei words")
}

fn points_with(options: &Options, text: &str) -> Vec<i64> {
    let p = parsed(text);
    scoring::score_lei(options, &p.lei, &p.declared)
        .unwrap()
        .slots
        .iter()
        .map(|s| s.points)
        .collect()
}

fn points(text: &str) -> Vec<i64> {
    points_with(&Options::default(), text)
}

fn total(text: &str) -> i64 {
    points(text).iter().sum()
}

const SAMPLE: &str = "blue red purple blue hook kukui blue rainbow";

fn new_game(players: usize) -> State {
    LuckyLuau::setup(LuckyLuau::validate_options(&Options::default(), players).unwrap())
}

fn play(state: &mut State, seat: Seat, mv: Move) -> Vec<Event> {
    let mut checked = Consistent::<LuckyLuau>::check(state.clone())
        .unwrap_or_else(|e| panic!("the table before {mv:?} by {seat}: {e}"));
    let events = checked
        .play(seat, &mv)
        .unwrap_or_else(|e| panic!("{mv:?} by {seat}: {e}"));
    *state = checked.into_inner();
    events
}

fn refuse(state: &State, seat: Seat, mv: Move) -> &'static str {
    LuckyLuau::validate(state, seat, &mv)
        .expect_err("the move should be refused")
        .code()
}

fn draw(state: &mut State, seat: Seat, card: Card) {
    play(state, seat, Move::DrawFaceDown);
    LuckyLuau::resolve_chance(state, &Chance::Draw { card }).unwrap();
}

fn string_end() -> Move {
    Move::String { spacer: None }
}

/// A state in play where only `centre` remains in the face-down pile (the rest is on the leis
/// of seat 0 and 1, alternating, as plain strung cards).
fn near_end(centre: &[Card]) -> State {
    let mut state = new_game(2);
    let mut rest = Counts::full_pile();
    for &c in centre {
        assert!(rest.take(c));
    }
    for (i, card) in rest.canonical().into_iter().enumerate() {
        state.seats[i % 2].lei.push(card.into());
    }
    state.face_down = Counts::of(centre.iter().copied());
    LuckyLuau::check_state(&state).unwrap();
    state
}

#[test]
fn every_violation_code_is_its_variant_name_in_snake_case() {
    // The codes clients switch on are the ones serde's `rename_all = "snake_case"` gave.
    for (name, code) in LuckyLuauViolation::VARIANTS {
        assert_eq!(crate::games::kit::refusal::snake_case(name), *code);
    }
}
