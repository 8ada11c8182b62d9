//! What every rulebook-scenario runner shares: the files under `tests/data/<game>/`, each citing
//! the rulebook passage or ruling it checks, and a run over every case that reports all failures
//! at once. Each game's runner keeps its own case format and its own way to play a case.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Deserialize;

/// One scenario file: its source and its cases.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File<C> {
    pub source: String,
    pub cases: Vec<C>,
}

/// Every `tests/data/<game>/*.json`, sorted by name. Each must parse and cite its source.
pub fn load<C: DeserializeOwned>(game: &str) -> Vec<(String, File<C>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(game);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("scenario directory")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(path).unwrap();
            let file: File<C> =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: bad scenario: {e}"));
            assert!(
                !file.source.is_empty(),
                "{name}: every file cites its source"
            );
            (name, file)
        })
        .collect()
}

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
