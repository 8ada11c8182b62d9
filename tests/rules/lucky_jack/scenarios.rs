//! Data-driven Lucky Jack scenarios: every `tests/data/lucky_jack/*.json` file holds a `source`
//! (rulebook passage or RULINGS id) and cases. A case starts from `setup` (optionally with a
//! reported deal) or from a mid-round `table`, runs `steps` (a seat's move or a chance outcome,
//! each expecting `ok` or a violation code) and checks the final `expect`ations.

use crate::scenario_files::{self, expect_eq};

use referee::games::lucky_jack::{Counts, LuckyJack, Options, Phase, RoundOutcome, State, Symbol};
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
    /// Start mid-round instead of at setup.
    #[serde(default)]
    table: Option<Table>,
    #[serde(default)]
    steps: Vec<scenario_files::Step<LuckyJack>>,
    #[serde(default)]
    expect: Expect,
}

/// A round in progress: `hands`, the `discard` top cards (bottom to top), `turn` to play. Cards
/// not listed are in the draw pile, unless `draw_pile` lists it; then the rest goes to the bottom
/// of the discard pile.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    hands: Vec<Vec<Symbol>>,
    #[serde(default)]
    discard: Vec<Symbol>,
    #[serde(default)]
    draw_pile: Option<Vec<Symbol>>,
    turn: Seat,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    phase: Option<Phase>,
    round: Option<u32>,
    starter: Option<Seat>,
    turn: Option<Seat>,
    to_act: Option<Vec<Seat>>,
    hands: Option<Vec<Vec<Symbol>>>,
    hand_sizes: Option<Vec<usize>>,
    discard: Option<Vec<Symbol>>,
    discard_top: Option<Symbol>,
    draw_pile_size: Option<usize>,
    pending: Option<Symbol>,
    takeable: Option<bool>,
    chance: Option<serde_json::Value>,
    results: Option<Vec<RoundOutcome>>,
    round_points: Option<Vec<Vec<i64>>>,
    totals: Option<Vec<i64>>,
    winners: Option<Vec<Seat>>,
    over: Option<bool>,
    events: Option<Vec<serde_json::Value>>,
}

fn start(case: &Case) -> State {
    let valid = LuckyJack::validate_options(&case.options, case.players).expect("valid options");
    let mut state = LuckyJack::setup(valid);
    let Some(table) = &case.table else {
        return state;
    };
    assert_eq!(table.hands.len(), case.players, "table hands");
    state.chance = None;
    state.phase = Phase::Turn;
    let mut rest = Counts::full_deck();
    for (seat, hand) in table.hands.iter().enumerate() {
        let mut hand = hand.clone();
        hand.sort();
        for &card in &hand {
            assert!(rest.take(card), "too many {card:?}");
        }
        state.hands[seat] = hand;
    }
    for &card in &table.discard {
        assert!(rest.take(card), "too many {card:?}");
    }
    state.discard = table.discard.clone();
    if let Some(pile) = &table.draw_pile {
        let pile = Counts::of(pile);
        for symbol in Symbol::ALL {
            for _ in 0..pile.get(symbol) {
                assert!(rest.take(symbol), "too many {symbol:?}");
            }
        }
        let mut under = rest.canonical();
        under.append(&mut state.discard);
        state.discard = under;
        state.draw_pile = pile;
    } else {
        state.draw_pile = rest;
    }
    state.turn = table.turn;
    state.turn_start_hand = state.hands[table.turn].len();
    LuckyJack::check_state(&state).expect("scenario table is consistent");
    state
}

fn run(case: &Case) -> Result<(), String> {
    let mut state = referee::games::Consistent::<LuckyJack>::check(start(case))
        .expect("a scenario starts from a consistent table");
    let events = scenario_files::play_steps::<LuckyJack>(&mut state, &case.steps, |_, _| Ok(()))?;
    let e = &case.expect;
    expect_eq!(e, phase, state.phase);
    expect_eq!(e, round, state.round);
    expect_eq!(e, starter, state.starter);
    expect_eq!(e, turn, state.turn);
    expect_eq!(e, to_act, LuckyJack::to_act(&state));
    expect_eq!(e, hands, state.hands.clone());
    expect_eq!(
        e,
        hand_sizes,
        state.hands.iter().map(Vec::len).collect::<Vec<_>>()
    );
    expect_eq!(e, discard, state.discard.clone());
    if e.discard_top.is_some() {
        expect_eq!(e, discard_top, *state.discard.last().unwrap());
    }
    expect_eq!(e, draw_pile_size, state.draw_pile.total());
    if e.pending.is_some() {
        expect_eq!(e, pending, state.pending.unwrap());
    }
    expect_eq!(e, takeable, state.takeable.is_some());
    expect_eq!(e, chance, scenario_files::without_pile(&state.chance));
    expect_eq!(
        e,
        results,
        state
            .results
            .iter()
            .map(|r| r.result.clone())
            .collect::<Vec<_>>()
    );
    expect_eq!(
        e,
        round_points,
        state
            .results
            .iter()
            .map(|r| r.points.clone())
            .collect::<Vec<_>>()
    );
    expect_eq!(e, totals, LuckyJack::score(&state).totals);
    expect_eq!(e, winners, LuckyJack::standings(&state).winners);
    expect_eq!(e, over, LuckyJack::is_over(&state));
    scenario_files::check_events(e.events.as_ref(), &events)?;
    Ok(())
}

#[test]
fn every_lucky_jack_scenario_file_passes() {
    let files = scenario_files::load::<Case>("lucky_jack");
    assert!(files.len() >= 7, "only {} scenario files", files.len());
    let cases = scenario_files::run_all(&files, |c| &c.name, run);
    assert!(cases >= 40, "only {cases} cases");
}
