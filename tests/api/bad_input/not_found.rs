//! Games and match ids that name nothing, or cannot.

use reqwest::StatusCode;
use serde_json::json;

use super::{assert_problem, running_match};
use crate::support::spawn_app;

#[tokio::test]
async fn unknown_and_malformed_games_and_match_ids_are_not_found_on_every_endpoint() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    for (path, body) in [
        ("states", json!({"players": 2})),
        ("check", json!({"state": {}, "seat": 0, "move": {}})),
        ("chance", json!({"state": {}, "outcome": {}})),
        ("legal-moves", json!({"state": {}, "seat": 0})),
        ("score", json!({"state": {}})),
        ("view", json!({"state": {}, "viewer": "spectator"})),
        ("tally", json!({"players": 2, "rounds": []})),
    ] {
        let reply = app
            .post(&format!("/v1/games/chess/{path}"), &body, None)
            .await;
        assert_problem(&reply, StatusCode::NOT_FOUND, "unknown_game", path);
    }
    let unknown = uuid::Uuid::new_v4();
    for tail in ["/log", "/plies/0", "/result", "/export", "/bgstats"] {
        let reply = app.get(&format!("/v1/matches/{unknown}{tail}"), None).await;
        assert_problem(&reply, StatusCode::NOT_FOUND, "unknown_match", tail);
    }
    for tail in ["/moves", "/chance"] {
        let reply = app
            .post(
                &format!("/v1/matches/{unknown}{tail}"),
                &json!({"move": {"type": "draw"}, "outcome": {}})
                    .as_object()
                    .map(|o| {
                        let key = if tail == "/moves" { "move" } else { "outcome" };
                        json!({key: o[key]})
                    })
                    .unwrap(),
                Some(&m.seat0),
            )
            .await;
        assert_problem(&reply, StatusCode::NOT_FOUND, "unknown_match", tail);
    }
    for id in [
        "not-a-uuid",
        "00000000-0000-0000-0000",
        "%00",
        "1",
        &"f".repeat(300),
    ] {
        for tail in ["", "/log", "/plies/0", "/result", "/export"] {
            let reply = app.get(&format!("/v1/matches/{id}{tail}"), None).await;
            assert_problem(
                &reply,
                StatusCode::NOT_FOUND,
                "not_found",
                &format!("{id}{tail}"),
            );
        }
        let reply = app
            .post_move(id, Some(&m.seat0), None, &json!({"type": "draw"}))
            .await;
        assert_problem(
            &reply,
            StatusCode::NOT_FOUND,
            "not_found",
            &format!("{id}/moves"),
        );
    }
    let ply = app
        .get(&format!("/v1/matches/{}/plies/abc", m.id), None)
        .await;
    assert_problem(&ply, StatusCode::NOT_FOUND, "not_found", "ply abc");
}
