//! JSON of the wrong shape: unknown fields, at the top level and nested, and wrong types.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::{assert_problem, running_match, seeded_state};
use crate::support::spawn_app;

#[tokio::test]
async fn unknown_fields_are_refused_at_the_top_level_and_nested() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    let moves = format!("/v1/matches/{}/moves", m.id);
    let cases: Vec<(String, Value, &str)> = vec![
        (
            "/v1/matches".into(),
            json!({"game": "lucky-jack", "seats": [{"name": "Ann", "age": 7}, {"name": "Ben"}]}),
            "malformed_body",
        ),
        (
            moves.clone(),
            json!({"move": {"type": "draw"}, "seat_token": "x"}),
            "malformed_body",
        ),
        (
            moves.clone(),
            json!({"move": {"type": "discard", "card": "bell", "peek": true}}),
            "invalid_move",
        ),
        // A move with no fields of its own still refuses one it does not have.
        (
            moves.clone(),
            json!({"move": {"type": "draw", "peek": true}}),
            "invalid_move",
        ),
        (
            moves.clone(),
            json!({"move": {"type": "keep", "card": "bell"}}),
            "invalid_move",
        ),
        (
            "/v1/games/lucky-jack/states".into(),
            json!({"players": 2, "options": {"rounds": 3, "nested": {"x": 1}}}),
            "invalid_options",
        ),
        (
            "/v1/games/lucky-jack/states".into(),
            json!({"players": 2, "colour": "red"}),
            "malformed_body",
        ),
        (
            "/v1/games/lucky-dice/tally".into(),
            json!({"players": 2, "rounds": [{"emptied": [0], "bonus": 1}]}),
            "invalid_tally",
        ),
        (
            "/v1/sheets".into(),
            json!({"game": "lucky-jack", "players": [{"name": "Ann", "x": 1}, {"name": "Ben"}]}),
            "malformed_body",
        ),
    ];
    for (path, body, code) in cases {
        let reply = app.post(&path, &body, Some(&m.seat0)).await;
        assert_problem(
            &reply,
            StatusCode::BAD_REQUEST,
            code,
            &format!("{path} {body}"),
        );
    }
    // A state with a field the game does not have.
    let mut state = seeded_state(&app, "lucky-jack", 2).await;
    state["hands"][0] = json!(state["hands"][0]);
    state["secret_pile_order"] = json!([1, 2, 3]);
    let reply = app
        .post("/v1/games/lucky-jack/score", &json!({"state": state}), None)
        .await;
    assert_problem(
        &reply,
        StatusCode::BAD_REQUEST,
        "invalid_state",
        "unknown state field",
    );
}

#[tokio::test]
async fn wrong_types_are_bad_requests() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    let moves = format!("/v1/matches/{}/moves", m.id);
    let state = seeded_state(&app, "lucky-jack", 2).await;
    let cases: Vec<(String, Value, &str)> = vec![
        (
            moves.clone(),
            json!({"expected_version": "1", "move": {"type": "draw"}}),
            "malformed_body",
        ),
        (
            moves.clone(),
            json!({"expected_version": 1.5, "move": {"type": "draw"}}),
            "malformed_body",
        ),
        (
            moves.clone(),
            json!({"seat": "0", "move": {"type": "draw"}}),
            "malformed_body",
        ),
        (
            moves.clone(),
            json!({"seat": -1, "move": {"type": "draw"}}),
            "malformed_body",
        ),
        (moves.clone(), json!({"move": "draw"}), "invalid_move"),
        (
            moves.clone(),
            json!({"move": {"type": "discard", "card": 7}}),
            "invalid_move",
        ),
        (
            moves.clone(),
            json!([{"move": {"type": "draw"}}]),
            "malformed_body",
        ),
        (moves.clone(), json!(null), "malformed_body"),
        (
            "/v1/matches".into(),
            json!({"game": "lucky-jack", "seats": [{"name": 5}, {"name": "B"}]}),
            "malformed_body",
        ),
        (
            "/v1/matches".into(),
            json!({"game": "lucky-jack", "seats": [{"name": "A"}, {"name": "B"}], "randomness": "dice"}),
            "malformed_body",
        ),
        (
            "/v1/matches".into(),
            json!({"game": "lucky-jack", "seats": [{"name": "A"}, {"name": "B"}], "options": {"rounds": "three"}}),
            "invalid_options",
        ),
        (
            "/v1/games/lucky-jack/states".into(),
            json!({"players": true}),
            "malformed_body",
        ),
        (
            "/v1/games/lucky-jack/states".into(),
            json!({"players": 2, "seed": 12}),
            "malformed_body",
        ),
        (
            "/v1/games/lucky-jack/legal-moves".into(),
            json!({"state": state, "seat": "zero"}),
            "malformed_body",
        ),
        (
            "/v1/games/lucky-jack/view".into(),
            json!({"state": state, "viewer": "god"}),
            "malformed_body",
        ),
        (
            "/v1/games/lucky-jack/score".into(),
            json!({"state": "the whole table"}),
            "invalid_state",
        ),
        (
            "/v1/games/lucky-jack/chance".into(),
            json!({"state": state, "outcome": [1, 2]}),
            "invalid_chance",
        ),
    ];
    for (path, body, code) in cases {
        let reply = app.post(&path, &body, Some(&m.seat0)).await;
        assert_problem(
            &reply,
            StatusCode::BAD_REQUEST,
            code,
            &format!("{path} {body}"),
        );
    }
}
