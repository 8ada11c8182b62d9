//! Unit tests, one per rule or option. Comments cite the rulebook (`rules/lucky-dice.txt`) or
//! RULINGS.md §3.

use super::*;
use crate::games::chance::tests::SplitMix;
use crate::games::Violation as _;
use Symbol::*;

mod components_and_options;
mod reveals;
mod score_sheets;
mod setup_and_round_start;
mod the_race;
mod views_states_codes;

fn c(left: Symbol, right: Symbol) -> Coaster {
    Coaster { left, right }
}

fn roll(dice: u32) -> Move {
    Move::Roll { dice: Some(dice) }
}

fn extra(dice: u32) -> Move {
    Move::ExtraRoll { dice: Some(dice) }
}

fn faces(faces: &[Symbol]) -> Chance {
    Chance::Roll {
        faces: faces.to_vec(),
    }
}

fn play(state: &mut State, seat: Seat, mv: Move) -> Vec<Event> {
    let events = LuckyDice::play(state, seat, &mv)
        .unwrap_or_else(|v| panic!("seat {seat} {mv:?} rejected: {v}"));
    LuckyDice::check_state(state).expect("consistent after move");
    events
}

fn reject(state: &State, seat: Seat, mv: Move) -> LuckyDiceViolation {
    let mut copy = state.clone();
    let err = LuckyDice::play(&mut copy, seat, &mv).expect_err("move should be rejected");
    assert_eq!(&copy, state, "a rejected move leaves the state unchanged");
    err
}

fn resolve(state: &mut State, outcome: Chance) -> Vec<Event> {
    let events = LuckyDice::resolve_chance(state, &outcome)
        .unwrap_or_else(|v| panic!("{outcome:?} rejected: {v}"));
    LuckyDice::check_state(state).expect("consistent after chance");
    events
}

fn refuse_chance(state: &State, outcome: Chance) -> LuckyDiceViolation {
    let mut copy = state.clone();
    let err = LuckyDice::resolve_chance(&mut copy, &outcome).expect_err("outcome refused");
    assert_eq!(&copy, state, "a refused outcome leaves the state unchanged");
    err
}

/// A seat rolls and the table reports `rolled`.
fn roll_faces(state: &mut State, seat: Seat, rolled: &[Symbol]) -> Vec<Event> {
    let mut events = play(state, seat, roll(state.pools[seat]));
    events.extend(resolve(state, faces(rolled)));
    events
}

fn extra_faces(state: &mut State, seat: Seat, rolled: &[Symbol]) -> Vec<Event> {
    let mut events = play(state, seat, extra(state.pools[seat]));
    events.extend(resolve(state, faces(rolled)));
    events
}

/// The first coasters of the balanced set, one per seat (all distinct).
fn first_coasters(players: usize) -> Vec<Coaster> {
    let set = balanced_coaster_set();
    (0..players).map(|s| set[s * 3]).collect()
}

/// A round in the race: `coasters` drawn by seats 0.., `lucky` rolled on the large die.
fn race_with(options: Options, coasters: Vec<Coaster>, lucky: Symbol) -> State {
    let players = coasters.len();
    LuckyDice::validate_options(&options, players).unwrap();
    let mut state = LuckyDice::setup(LuckyDice::validate_options(&options, players).unwrap());
    resolve(&mut state, Chance::Coasters { coasters });
    resolve(&mut state, Chance::LuckySymbol { symbol: lucky });
    assert_eq!(state.phase, Phase::Race);
    state
}

fn race(coasters: Vec<Coaster>, lucky: Symbol) -> State {
    race_with(Options::default(), coasters, lucky)
}

fn rolled_dice(events: &[Event]) -> Vec<Die> {
    events
        .iter()
        .find_map(|e| match e {
            Event::Rolled { dice, .. } => Some(dice.clone()),
            _ => None,
        })
        .expect("a rolled event")
}

fn die(face: Symbol, to: Destination, seat: Option<Seat>) -> Die {
    Die { face, to, seat }
}

#[test]
fn every_violation_code_is_its_variant_name_in_snake_case() {
    // The codes clients switch on are the ones serde's `rename_all = "snake_case"` gave.
    for (name, code) in LuckyDiceViolation::VARIANTS {
        assert_eq!(crate::games::kit::refusal::snake_case(name), *code);
    }
}
