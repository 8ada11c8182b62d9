//! Data-driven Luck Plus scenarios: the rulebook's four examples of play, the dice-3-and-4
//! combinations list, and further rules (`tests/data/luck_plus/*.json`, each with a `source`).

use crate::luck_plus_support as support;

use referee::games::luck_plus::LuckPlus;
use referee::games::Game;

/// Plays a case through the referee, as the HTTP API does.
fn run(case: &support::Case) -> Result<(), String> {
    let mut state = referee::games::Consistent::<LuckPlus>::check(support::start(case))
        .expect("a scenario starts from a consistent table");
    let mut events = Vec::new();
    for (i, step) in case.steps.iter().enumerate() {
        let before = state.clone();
        let result = match (&step.mv, &step.chance) {
            (Some(mv), None) => {
                let seat = step.seat.ok_or(format!("step {i}: a move needs a seat"))?;
                referee::referee::play_move::<LuckPlus>(&mut state, seat, mv)
            }
            (None, Some(chance)) => referee::referee::play_chance::<LuckPlus>(&mut state, chance),
            _ => return Err(format!("step {i}: give exactly one of move/chance")),
        };
        let got = match &result {
            Ok(_) => "ok".to_string(),
            Err(v) => v.code().to_string(),
        };
        if got != step.expect {
            return Err(format!(
                "step {i} ({:?}{:?}): expected {}, got {got} ({result:?})",
                step.mv, step.chance, step.expect
            ));
        }
        match result {
            Ok(e) => events.extend(e.iter().map(|ev| serde_json::to_value(ev).unwrap())),
            Err(_) if state != before => return Err(format!("step {i}: rejected but changed")),
            Err(_) => {}
        }
        LuckPlus::check_state(&state).map_err(|e| format!("step {i}: {} {}", e.code, e.detail))?;
    }
    support::check_expect(&state, &events, &case.expect)
}

#[test]
fn every_luck_plus_scenario_file_passes() {
    let files = support::files();
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    for required in [
        "example_1.json",
        "example_2.json",
        "example_3.json",
        "example_4.json",
        "dice_3_and_4.json",
    ] {
        assert!(names.contains(&required), "{required} missing: {names:?}");
    }
    let mut failures = Vec::new();
    let mut cases = 0;
    for (name, file) in &files {
        for case in &file.cases {
            cases += 1;
            let _ = &case.source;
            if let Err(why) = run(case) {
                failures.push(format!("{name} / {}: {why}", case.name));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(cases >= 25, "only {cases} cases");
}
