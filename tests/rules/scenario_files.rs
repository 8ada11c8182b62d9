//! What every rulebook-scenario runner shares: the files under `tests/data/<game>/`, each citing
//! the rulebook passage or ruling it checks; the steps of a case and how they are played; and a
//! run over every case that reports all failures at once. Each game's runner keeps its own case
//! format, start and expectations.

use referee::games::{Consistent, Game, Seat};
use serde::Deserialize;

pub use crate::data_files::{load, File};

/// One step of a case: a seat's move or a chance outcome, and what it must get.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct Step<G: Game> {
    #[serde(default)]
    pub seat: Option<Seat>,
    #[serde(default, rename = "move")]
    pub mv: Option<G::Move>,
    #[serde(default)]
    pub chance: Option<G::Chance>,
    /// `ok` (default) or the violation code.
    #[serde(default = "ok")]
    pub expect: String,
}

fn ok() -> String {
    "ok".into()
}

/// Plays `steps` on `state` through the referee, as the HTTP API does (so a refusal is the code a
/// client would get, shared checks included): each must get its expected answer, a refused step must leave the
/// state as it was, and after each the state must be consistent and pass `also` (a game's own
/// invariant). Returns the events of the accepted steps, in order.
pub fn play_steps<G: Game>(
    state: &mut Consistent<G>,
    steps: &[Step<G>],
    also: impl Fn(usize, &G::State) -> Result<(), String>,
) -> Result<Vec<G::Event>, String> {
    let mut events = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let before = state.clone();
        let result = match (&step.mv, &step.chance) {
            (Some(mv), None) => {
                let seat = step.seat.ok_or(format!("step {i}: a move needs a seat"))?;
                referee::referee::play_move::<G>(state, seat, mv)
            }
            (None, Some(chance)) => referee::referee::play_chance::<G>(state, chance),
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
            Ok(mut e) => events.append(&mut e),
            Err(_) if *state != before => return Err(format!("step {i}: rejected but changed")),
            Err(_) => {}
        }
        G::check_state(state).map_err(|e| format!("step {i}: {} {}", e.code, e.detail))?;
        also(i, state)?;
    }
    Ok(events)
}

/// Every event in `want` is among `events` (compared as JSON).
pub fn check_events<E: serde::Serialize>(
    want: Option<&Vec<serde_json::Value>>,
    events: &[E],
) -> Result<(), String> {
    let Some(want) = want else { return Ok(()) };
    let got: Vec<serde_json::Value> = events
        .iter()
        .map(|ev| serde_json::to_value(ev).unwrap())
        .collect();
    match want.iter().find(|w| !got.contains(w)) {
        Some(w) => Err(format!("events: expected {w} among them, got {got:?}")),
        None => Ok(()),
    }
}

/// A pending chance event as JSON, its kind and parameters without the pile composition it
/// draws from (which a case does not spell out).
pub fn without_pile<T: serde::Serialize>(chance: &T) -> serde_json::Value {
    let mut value = serde_json::to_value(chance).unwrap();
    if let Some(fields) = value.as_object_mut() {
        fields.remove("pile");
    }
    value
}

/// `expect_eq!(expect, field, got)`: where the case expects `expect.field`, it must equal `got`,
/// or the runner returns the mismatch as its error.
macro_rules! expect_eq {
    ($expect:expr, $field:ident, $got:expr) => {
        if let Some(want) = &$expect.$field {
            let got = $got;
            if *want != got {
                let field = stringify!($field);
                return Err(format!("{field}: expected {want:?}, got {got:?}"));
            }
        }
    };
}
pub(crate) use expect_eq;

/// Plays every case with `run`, fails listing every case that failed, and returns how many cases
/// there were.
pub fn run_all<C>(
    files: &[(String, File<C>)],
    name_of: impl Fn(&C) -> &str,
    run: impl Fn(&C) -> Result<(), String>,
) -> usize {
    let mut failures = Vec::new();
    let mut cases = 0;
    for (name, file) in files {
        for case in &file.cases {
            cases += 1;
            if let Err(why) = run(case) {
                failures.push(format!("{name} / {}: {why}", name_of(case)));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    cases
}
