//! Statistics and leaderboards, checked against a dataset whose figures are worked out by hand.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{owner_token, spawn_app, TestApp};

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
    let token = owner_token(&created.body);
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

#[tokio::test]
async fn a_players_history_exports_as_ndjson_csv_and_bg_stats_plays() {
    let app = spawn_app().await;
    finished_sheet(
        &app,
        &["Ann", "Ben, Jr"],
        [jackpot(0, "jack", 3), NONE(), NONE()],
    )
    .await;
    finished_sheet(
        &app,
        &["Cleo", "ann"],
        [NONE(), jackpot(1, "bell", 4), NONE()],
    )
    .await;

    let ndjson = app
        .send(
            app.client
                .get(format!("{}/v1/players/ANN/history", app.base)),
        )
        .await;
    assert_eq!(ndjson.status, StatusCode::OK);
    assert_eq!(ndjson.headers["content-type"], "application/x-ndjson");
    let lines: Vec<Value> = ndjson
        .body
        .as_str()
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0]["player"], "ann",
        "newest first, name as written there"
    );
    assert_eq!(lines[0]["score"], 7000);
    assert_eq!(lines[1]["winners"], json!(["Ann"]));

    let csv = app
        .send(
            app.client
                .get(format!("{}/v1/players/ann/history?format=csv", app.base)),
        )
        .await;
    assert_eq!(csv.headers["content-type"], "text/csv; charset=utf-8");
    let text = csv.body.as_str().unwrap();
    assert_eq!(text.lines().count(), 3, "header and two rows");
    assert!(
        text.contains("\"Ann; Ben, Jr\""),
        "a cell with a comma is quoted: {text}"
    );

    // The sheet as a BG Stats play, and as a self-contained export that re-scores the same.
    let id = lines[1]["match_id"].as_str().unwrap();
    let play = app.get(&format!("/v1/sheets/{id}/bgstats"), None).await;
    assert_eq!(play.status, StatusCode::OK, "{}", play.body);
    assert_eq!(play.body["games"][0]["name"], "Lucky Jack");
    assert_eq!(play.body["plays"][0]["uuid"], id);
    assert_eq!(play.body["plays"][0]["rounds"], 3);
    let scores = &play.body["plays"][0]["playerScores"];
    assert_eq!(scores[0]["score"], "7000");
    assert_eq!(scores[0]["winner"], true);
    assert_eq!(scores[1]["rank"], 2);

    let export = app.get(&format!("/v1/sheets/{id}/export"), None).await;
    assert_eq!(export.body["format"], "referee.sheet/1");
    let sheet = &export.body["sheet"];
    let tallies: Vec<Value> = sheet["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["tally"].clone())
        .collect();
    let rescored = app
        .post(
            "/v1/games/lucky-jack/tally",
            &json!({"players": 2, "options": sheet["options"], "rounds": tallies}),
            None,
        )
        .await;
    assert_eq!(rescored.body["standings"], sheet["standings"]);

    // A hosted match still in progress is no play yet.
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let running = app
        .get(
            &format!(
                "/v1/matches/{}/bgstats",
                created["match"]["id"].as_str().unwrap()
            ),
            None,
        )
        .await;
    assert_eq!(running.status, StatusCode::CONFLICT);
    assert_eq!(running.body["code"], "match_not_finished");
}

#[tokio::test]
async fn correcting_a_finished_sheet_moves_its_win_on_the_leaderboard() {
    let app = spawn_app().await;
    let players = json!([{"name": "Ann"}, {"name": "Ben"}]);
    let created = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": players}),
            None,
        )
        .await;
    let id = created.body["sheet"]["id"].as_str().unwrap().to_owned();
    let token = owner_token(&created.body);
    for tally in [jackpot(0, "lemon", 3), NONE(), NONE()] {
        app.post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({ "tally": tally }),
            Some(&token),
        )
        .await;
    }
    let board = app.get("/v1/games/lucky-jack/leaderboard", None).await.body;
    assert_eq!(board[0]["player"], "Ann");
    assert_eq!(board[0]["won"], 1);

    // Round 2 was really Ben's four jacks: the finished sheet is re-scored and Ben takes the win.
    let fixed = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({"corrects": 2, "tally": jackpot(1, "jack", 4)}),
            Some(&token),
        )
        .await;
    assert_eq!(fixed.status, StatusCode::OK, "{}", fixed.body);
    assert_eq!(fixed.body["winners"], json!(["Ben"]));
    let board = app.get("/v1/games/lucky-jack/leaderboard", None).await.body;
    assert_eq!(board[0]["player"], "Ben");
    assert_eq!(
        (board[0]["played"].clone(), board[0]["won"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(
        (board[1]["player"].clone(), board[1]["won"].clone()),
        (json!("Ann"), json!(0))
    );
    assert_eq!(board[1]["average_score"], 1000.0);
    let ann = app.get("/v1/players/ann/stats", None).await.body;
    assert_eq!(ann["overall"]["won"], 0);
    app.audit_snapshots().await;
}

/// "Who has the most jackpots this year?" (issue 17): statistics and the leaderboard take a
/// period, counting only the matches that ended in it.
#[tokio::test]
async fn statistics_and_the_leaderboard_count_only_the_matches_that_ended_in_a_period() {
    let app = spawn_app().await;
    // Last year: Ben's four jacks. This year: Ann's three bells.
    finished_sheet(
        &app,
        &["Ann", "Ben"],
        [jackpot(1, "jack", 4), NONE(), NONE()],
    )
    .await;
    app.sql("UPDATE matches SET created_at = '2025-06-01Z', updated_at = '2025-06-01Z', finished_at = '2025-06-01Z'")
        .await;
    finished_sheet(
        &app,
        &["Ann", "Ben"],
        [jackpot(0, "bell", 3), NONE(), NONE()],
    )
    .await;

    let this_year = "from=2026-01-01T00:00:00Z";
    let board = app
        .get(
            &format!("/v1/games/lucky-jack/leaderboard?{this_year}"),
            None,
        )
        .await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.body);
    let rows = board.body.as_array().unwrap();
    assert_eq!(rows[0]["player"], "Ann");
    assert_eq!(
        (rows[0]["won"].as_i64(), rows[0]["played"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (rows[1]["won"].as_i64(), rows[1]["played"].as_i64()),
        (Some(0), Some(1))
    );
    let last_year = app
        .get(
            "/v1/games/lucky-jack/leaderboard?to=2026-01-01T00:00:00Z",
            None,
        )
        .await;
    assert_eq!(last_year.body[0]["player"], "Ben");
    let all_time = app.get("/v1/games/lucky-jack/leaderboard", None).await;
    assert_eq!(all_time.body[0]["played"], 2);

    let ben = app
        .get(
            &format!("/v1/players/Ben/stats?game=lucky-jack&{this_year}"),
            None,
        )
        .await;
    assert_eq!(ben.body["overall"]["played"], 1);
    assert_eq!(ben.body["overall"]["won"], 0);
    let ben_ever = app.get("/v1/players/Ben/stats?game=lucky-jack", None).await;
    assert_eq!(ben_ever.body["games"][0]["highlights"]["jackpots"], 1);
    assert!(ben.body["games"][0]["highlights"]
        .get("jackpots")
        .is_none_or(|j| j == 0));
}
