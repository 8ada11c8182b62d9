//! Statistics and leaderboards, checked against a dataset whose figures are worked out by hand.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{spawn_app, TestApp};

/// A finished three-round Lucky Jack sheet with the given round results.
async fn finished_sheet(app: &TestApp, names: &[&str], rounds: [Value; 3]) {
    let players: Vec<Value> = names.iter().map(|n| json!({ "name": n })).collect();
    let created = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": players}),
            None,
        )
        .await;
    let id = created.body["sheet"]["id"].as_str().unwrap().to_owned();
    let token = created.body["owner_token"].as_str().unwrap().to_owned();
    for tally in rounds {
        let reply = app
            .post(
                &format!("/v1/sheets/{id}/entries"),
                &json!({ "tally": tally }),
                Some(&token),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
}

fn jackpot(seat: usize, symbol: &str, size: usize) -> Value {
    json!({"jackpot": {"seat": seat, "symbol": symbol, "size": size}})
}

const NONE: fn() -> Value = || json!({"jackpot": null});

#[tokio::test]
async fn statistics_match_a_hand_computed_dataset() {
    let app = spawn_app().await;
    // Game 1: Ann 7 000 (3 jacks) beats Ben 2 000.           Ann wins.
    finished_sheet(
        &app,
        &["Ann", "Ben"],
        [jackpot(0, "jack", 3), jackpot(1, "cherry", 3), NONE()],
    )
    .await;
    // Game 2: Ann 1 000, Ben 10 000 (4 jacks).               Ben wins.
    finished_sheet(
        &app,
        &["ann", "Ben"],
        [jackpot(0, "lemon", 3), jackpot(1, "jack", 4), NONE()],
    )
    .await;
    // Game 3: Ann 5 000 + 5 000 (two bells), Cleo 0.          Ann wins.
    finished_sheet(
        &app,
        &["ANN", "Cleo"],
        [jackpot(0, "bell", 3), jackpot(0, "bell", 3), NONE()],
    )
    .await;
    // Game 4: nobody scores: Ann and Ben share the win.
    finished_sheet(&app, &["Ann", "Ben"], [NONE(), NONE(), NONE()]).await;

    let ann = app.get("/v1/players/aNN/stats", None).await;
    assert_eq!(ann.status, StatusCode::OK, "{}", ann.body);
    let overall = &ann.body["overall"];
    assert_eq!(overall["played"], 4);
    assert_eq!(overall["won"], 3);
    assert_eq!(overall["win_rate"], 0.75);
    assert_eq!(overall["current_streak"], 2, "games 3 and 4");
    assert_eq!(overall["longest_streak"], 2);
    assert!(
        overall["average_score"].is_null(),
        "no average across games"
    );
    let jack = &ann.body["games"][0];
    assert_eq!(jack["game"], "lucky-jack");
    // Scores 7 000, 1 000, 10 000, 0 → average 4 500, best 10 000.
    assert_eq!(jack["average_score"], 4500.0);
    assert_eq!(jack["best_score"], 10000);
    assert_eq!(jack["highlights"]["jackpots"], 4);
    assert_eq!(jack["highlights"]["jackpots_bell"], 2);
    assert_eq!(jack["highlights"]["jackpots_jack"], 1);
    assert_eq!(jack["highlights"]["jackpots_lemon"], 1);
    assert_eq!(ann.body["player"], "Ann", "the name as last written");

    let ben = app.get("/v1/players/Ben/stats?game=lucky-jack", None).await;
    assert_eq!(ben.body["overall"]["played"], 3);
    assert_eq!(ben.body["overall"]["won"], 2);
    assert_eq!(ben.body["games"][0]["highlights"]["four_card_jackpots"], 1);

    // Leaderboard: Ann 3 wins of 4, Ben 2 of 3, Cleo 0 of 1.
    let board = app.get("/v1/games/lucky-jack/leaderboard", None).await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.body);
    let names: Vec<&str> = board
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_str().unwrap())
        .collect();
    assert_eq!(
        names.iter().map(|n| n.to_lowercase()).collect::<Vec<_>>(),
        ["ann", "ben", "cleo"]
    );
    assert_eq!(board.body[0]["won"], 3);
    assert_eq!(board.body[2]["win_rate"], 0.0);

    let nobody = app.get("/v1/players/Zed/stats", None).await;
    assert_eq!(nobody.body["overall"]["played"], 0);
    let bad = app
        .get("/v1/games/lucky-jack/leaderboard?limit=0", None)
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}
