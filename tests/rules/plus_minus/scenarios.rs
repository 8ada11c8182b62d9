//! Data-driven Plus & Minus scenarios: every `tests/data/plus_minus/*.json` file holds a
//! `source` (rulebook step or RULINGS id) and cases. A case starts from `setup` (then usually a
//! reported deal) or from a mid-round `table`, runs `steps` (a seat's move or a chance outcome,
//! each expecting `ok` or a violation code) and checks the final `expect`ations.

use crate::scenario_files::{self, expect_eq};

use referee::games::plus_minus::{
    full_deck, Card, DrawReason, Options, PendingChance, Phase, PlusMinus, SeatStacks, State,
};
use referee::games::{Game, Seat};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    /// A case may cite its own passage; the runner only reads the data, not this.
    #[serde(default)]
    #[allow(dead_code)]
    source: Option<String>,
    players: usize,
    #[serde(default)]
    options: Options,
    #[serde(default)]
    table: Option<Table>,
    #[serde(default)]
    steps: Vec<scenario_files::Step<PlusMinus>>,
    #[serde(default)]
    expect: Expect,
}

/// A round in progress (round `round`, default 1): `hands`, `stacks` (bottom to top), `turn`
/// to act. Cards not listed are in the draw stack; if `draw_stack` is given, the remaining
/// cards go under the bottom of seat `rest_under`'s Minus stack (default: none may remain).
/// `at` is `play` (default: one play owed) or `draw` (the turn-start draw pending).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    hands: Vec<Vec<Card>>,
    stacks: Vec<SeatStacks>,
    turn: Seat,
    #[serde(default)]
    draw_stack: Option<Vec<Card>>,
    #[serde(default)]
    rest_under: Option<Seat>,
    #[serde(default)]
    first_turn: bool,
    #[serde(default)]
    at: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    phase: Option<Phase>,
    round: Option<u32>,
    dealer: Option<Seat>,
    turn: Option<Seat>,
    to_act: Option<Vec<Seat>>,
    hands: Option<Vec<Vec<Card>>>,
    hand_sizes: Option<Vec<usize>>,
    stacks: Option<Vec<SeatStacks>>,
    draw_stack_size: Option<usize>,
    plays_remaining: Option<u32>,
    chance: Option<serde_json::Value>,
    round_points: Option<Vec<Vec<i64>>>,
    totals: Option<Vec<i64>>,
    winners: Option<Vec<Seat>>,
    over: Option<bool>,
    legal_move_count: Option<usize>,
    events: Option<Vec<serde_json::Value>>,
}

fn take(pool: &mut Vec<Card>, card: Card) {
    let at = pool
        .iter()
        .position(|&c| c == card)
        .unwrap_or_else(|| panic!("too many {card:?}"));
    pool.remove(at);
}

fn start(case: &Case) -> State {
    let valid = PlusMinus::validate_options(&case.options, case.players).expect("valid options");
    let mut state = PlusMinus::setup(valid);
    let Some(table) = &case.table else {
        return state;
    };
    let n = case.players;
    assert_eq!(table.hands.len(), n, "table hands");
    assert_eq!(table.stacks.len(), n, "table stacks");
    state.chance = None;
    let mut rest = full_deck();
    for seat in 0..n {
        let mut hand = table.hands[seat].clone();
        hand.sort();
        let s = &table.stacks[seat];
        for &c in hand.iter().chain(&s.plus).chain(&s.minus) {
            take(&mut rest, c);
        }
        state.hands[seat] = hand;
        state.stacks[seat] = s.clone();
    }
    if let Some(draw) = &table.draw_stack {
        for &c in draw {
            take(&mut rest, c);
        }
        if let Some(seat) = table.rest_under {
            rest.append(&mut state.stacks[seat].minus);
            state.stacks[seat].minus = rest;
        } else {
            assert!(rest.is_empty(), "cards left over: {rest:?}");
        }
        let mut draw = draw.clone();
        draw.sort();
        state.draw_stack = draw;
    } else {
        state.draw_stack = rest;
    }
    let offset = (table.turn + n - state.dealer - 1) % n;
    state.turn = table.turn;
    state.turns_this_round = if table.first_turn {
        assert_eq!(offset, 0, "the first turn is the dealer's left's");
        0
    } else {
        (offset + n) as u32
    };
    state.plays_remaining = 1;
    match table.at.as_deref() {
        None | Some("play") => state.phase = Phase::Play,
        Some("draw") => {
            state.phase = Phase::Drawing;
            state.chance = Some(PendingChance::Draw {
                seat: table.turn,
                count: (if table.first_turn { 2 } else { 1 }).min(state.draw_stack.len()),
                reason: DrawReason::TurnStart,
                pile: state.draw_stack.clone(),
            });
        }
        Some(other) => panic!("unknown table start {other}"),
    }
    PlusMinus::check_state(&state).expect("scenario table is consistent");
    state
}

fn run(case: &Case) -> Result<(), String> {
    let mut state = referee::games::Consistent::<PlusMinus>::check(start(case))
        .expect("a scenario starts from a consistent table");
    let events = scenario_files::play_steps::<PlusMinus>(&mut state, &case.steps, |_, _| Ok(()))?;
    let e = &case.expect;
    expect_eq!(e, phase, state.phase);
    expect_eq!(e, round, state.round);
    expect_eq!(e, dealer, state.dealer);
    expect_eq!(e, turn, state.turn);
    expect_eq!(e, to_act, PlusMinus::to_act(&state));
    expect_eq!(e, hands, state.hands.clone());
    expect_eq!(
        e,
        hand_sizes,
        state.hands.iter().map(Vec::len).collect::<Vec<_>>()
    );
    expect_eq!(e, stacks, state.stacks.clone());
    expect_eq!(e, draw_stack_size, state.draw_stack.len());
    expect_eq!(e, plays_remaining, state.plays_remaining);
    expect_eq!(e, chance, scenario_files::without_pile(&state.chance));
    expect_eq!(
        e,
        round_points,
        state
            .results
            .iter()
            .map(|r| r.points.clone())
            .collect::<Vec<_>>()
    );
    expect_eq!(e, totals, PlusMinus::score(&state).totals);
    expect_eq!(e, winners, PlusMinus::standings(&state).winners);
    expect_eq!(e, over, PlusMinus::is_over(&state));
    if e.legal_move_count.is_some() {
        let seat = PlusMinus::to_act(&state)
            .first()
            .copied()
            .unwrap_or(state.turn);
        expect_eq!(
            e,
            legal_move_count,
            PlusMinus::legal_moves(&state, seat).len()
        );
    }
    scenario_files::check_events(e.events.as_ref(), &events)?;
    Ok(())
}

#[test]
fn every_plus_minus_scenario_file_passes() {
    let files = scenario_files::load::<Case>("plus_minus");
    assert!(files.len() >= 7, "only {} scenario files", files.len());
    let cases = scenario_files::run_all(&files, |c| &c.name, run);
    assert!(cases >= 30, "only {cases} cases");
}
