//! The rulebook-scenario files under `tests/data/<game>/`: read, parsed, and each checked to cite
//! the rulebook passage or ruling it tests. Included by the scenario runners of the `rules`
//! binary and by the Luck Plus cases the `api` binary replays over HTTP.

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
