//! Data-driven Lucky Dice scenarios: every `tests/data/lucky_dice/*.json` file holds a `source`
//! (rulebook passage or RULINGS id) and cases. A case starts at setup, runs `steps` (a seat's
//! move or a chance outcome, each expecting `ok` or a violation code) and checks the final
//! `expect`ations.

use crate::scenario_files::{self, expect_eq};

use referee::games::lucky_dice::{Coaster, LuckyDice, Options, Phase, State, Symbol};
use referee::games::{Game, Seat};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    source: String,
    players: usize,
    #[serde(default)]
    options: Options,
    #[serde(default)]
    steps: Vec<scenario_files::Step<LuckyDice>>,
    #[serde(default)]
    expect: Expect,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    phase: Option<Phase>,
    round: Option<u32>,
    to_act: Option<Vec<Seat>>,
    pools: Option<Vec<u32>>,
    tray: Option<u32>,
    coasters: Option<Vec<Coaster>>,
    pile_size: Option<usize>,
    lucky_symbol: Option<Symbol>,
    stop_caller: Option<Seat>,
    extra_rolls_used: Option<Vec<u32>>,
    /// The pending chance event (`null` for none).
    #[serde(default, deserialize_with = "present")]
    chance: Option<serde_json::Value>,
    round_emptied: Option<Vec<Vec<Seat>>>,
    totals: Option<Vec<i64>>,
    winners: Option<Vec<Seat>>,
    over: Option<bool>,
    events: Option<Vec<serde_json::Value>>,
}

/// Distinguishes an explicit `null` (some(null)) from an absent field (none).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(d).map(Some)
}

fn run(case: &Case) -> Result<(), String> {
    let valid = LuckyDice::validate_options(&case.options, case.players)
        .map_err(|e| format!("invalid options: {e}"))?;
    let mut state = referee::games::Consistent::<LuckyDice>::new(valid);
    // Every die is in a pool or on the tray after every step.
    let dice_conserved = |i: usize, state: &State| {
        let dice: u32 = state.pools.iter().sum::<u32>() + state.tray;
        if dice != 3 * case.players as u32 {
            return Err(format!("step {i}: {dice} dice in pools and tray"));
        }
        Ok(())
    };
    let events = scenario_files::play_steps::<LuckyDice>(&mut state, &case.steps, dice_conserved)?;
    let e = &case.expect;
    expect_eq!(e, phase, state.phase);
    expect_eq!(e, round, state.round);
    expect_eq!(e, to_act, LuckyDice::to_act(&state));
    expect_eq!(e, pools, state.pools.clone());
    expect_eq!(e, tray, state.tray);
    expect_eq!(
        e,
        coasters,
        state
            .coasters
            .iter()
            .map(|c| c.expect("a coaster"))
            .collect::<Vec<_>>()
    );
    expect_eq!(e, pile_size, state.pile.len());
    if e.lucky_symbol.is_some() {
        expect_eq!(e, lucky_symbol, state.lucky_symbol.unwrap());
    }
    if e.stop_caller.is_some() {
        expect_eq!(e, stop_caller, state.stop_caller.unwrap());
    }
    expect_eq!(e, extra_rolls_used, state.extra_rolls_used.clone());
    expect_eq!(e, chance, serde_json::to_value(&state.chance).unwrap());
    expect_eq!(
        e,
        round_emptied,
        state
            .results
            .iter()
            .map(|r| r.emptied.clone())
            .collect::<Vec<_>>()
    );
    expect_eq!(e, totals, LuckyDice::score(&state).totals);
    expect_eq!(e, winners, LuckyDice::standings(&state).winners);
    expect_eq!(e, over, LuckyDice::is_over(&state));
    scenario_files::check_events(e.events.as_ref(), &events)?;
    Ok(())
}

#[test]
fn every_lucky_dice_scenario_file_passes() {
    let files = scenario_files::load::<Case>("lucky_dice");
    assert!(files.len() >= 5, "only {} scenario files", files.len());
    let cases = scenario_files::run_all(
        &files,
        |c| &c.name,
        |case| {
            if case.source.is_empty() {
                return Err("cite a source".to_owned());
            }
            run(case)
        },
    );
    assert!(cases >= 30, "only {cases} cases");
}
