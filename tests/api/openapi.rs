//! The committed OpenAPI document is the one the code generates, so clients generating code from
//! `openapi/openapi.json` always match the service.

#[test]
fn the_committed_openapi_document_matches_the_code() {
    let generated = referee::http::openapi_text();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        generated == committed,
        "openapi/openapi.json is out of date: run `cargo run --bin gen-openapi` and commit it"
    );
}

/// Every example the spec shows for a game's moves, chance outcomes, tallies and options parses as
/// that game's type: clients copying an example get a well-formed request.
#[test]
fn every_game_example_in_the_spec_parses_as_the_games_type() {
    use referee::games::{Game, GameKind};
    use referee::referee::parse;
    let spec = referee::http::openapi();
    let schemas = &spec["components"]["schemas"];
    for &kind in GameKind::ALL {
        let prefix: String = kind
            .title()
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect();
        let examples = |name: &str| -> Vec<serde_json::Value> {
            let schema = &schemas[format!("{prefix}{name}")];
            assert!(schema.is_object(), "{prefix}{name} is in the spec");
            let mut all: Vec<serde_json::Value> =
                schema["examples"].as_array().cloned().unwrap_or_default();
            all.extend(schema.get("example").cloned());
            all
        };
        referee::with_game!(kind, G => {
            let moves = examples("Move");
            assert!(moves.len() >= 2, "{prefix}: an example for every kind of move");
            for example in moves {
                parse::<<G as Game>::Move>("move", example.clone())
                    .unwrap_or_else(|e| panic!("{prefix} move example {example}: {e}"));
            }
            for example in examples("Chance") {
                parse::<<G as Game>::Chance>("chance", example.clone())
                    .unwrap_or_else(|e| panic!("{prefix} chance example {example}: {e}"));
            }
            for example in examples("Tally") {
                parse::<<G as Game>::Tally>("tally", example.clone())
                    .unwrap_or_else(|e| panic!("{prefix} tally example {example}: {e}"));
            }
        });
    }
}
