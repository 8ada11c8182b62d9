//! The committed OpenAPI document is the one the code generates, so clients generating code from
//! `openapi/openapi.json` always match the service.

#[test]
fn the_committed_openapi_document_matches_the_code() {
    let generated = referee::http::openapi().to_pretty_json().unwrap() + "\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        generated == committed,
        "openapi/openapi.json is out of date: run `cargo run --bin gen-openapi` and commit it"
    );
}
