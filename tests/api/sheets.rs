//! Score sheets for physical play: entries checked and scored by the game, corrections kept.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{owner_token, spawn_app, TestApp};

async fn new_sheet(app: &TestApp, rounds: u32) -> (String, String) {
    let reply = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": [{"name": "Mum"}, {"name": "Dad"}, {"name": "Zoé"}], "options": {"rounds": rounds}}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    (
        reply.body["sheet"]["id"].as_str().unwrap().to_owned(),
        owner_token(&reply.body),
    )
}

async fn enter(app: &TestApp, id: &str, token: &str, body: Value) -> crate::support::Reply {
    app.post(&format!("/v1/sheets/{id}/entries"), &body, Some(token))
        .await
}

#[tokio::test]
async fn a_family_sheet_totals_ranks_and_ends_after_the_agreed_rounds() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, 3).await;
    for (version, tally) in [
        json!({"jackpot": {"seat": 0, "symbol": "bell", "size": 3}}),
        json!({"jackpot": {"seat": 2, "symbol": "cherry", "size": 4}}),
    ]
    .into_iter()
    .enumerate()
    {
        let reply = enter(
            &app,
            &id,
            &token,
            json!({"expected_version": version, "tally": tally}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        assert_eq!(reply.body["status"], "in_progress");
    }
    // Round 3: nobody wins. Three rounds are played, so the sheet closes: Mum's 3-card bell
    // (5 000) beats Zoé's four cherries (4 000).
    let last = enter(&app, &id, &token, json!({"tally": {"jackpot": null}})).await;
    assert_eq!(last.status, StatusCode::OK, "{}", last.body);
    assert_eq!(last.body["status"], "finished");
    assert_eq!(last.body["standings"]["totals"], json!([5000, 0, 4000]));
    assert_eq!(last.body["winners"], json!(["Mum"]));
    assert_eq!(last.body["players"][0]["winner"], true);

    // A fourth round is refused; the sheet is listed as a finished sheet won by Mum.
    let late = enter(&app, &id, &token, json!({"tally": {"jackpot": null}})).await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    assert_eq!(late.body["code"], "match_finished");
    let list = app.get("/v1/matches?kind=sheet&winner=mum", None).await;
    assert_eq!(
        list.body["items"].as_array().unwrap().len(),
        1,
        "{}",
        list.body
    );
    assert_eq!(list.body["items"][0]["kind"], "sheet");
    app.audit_snapshots().await;
}

#[tokio::test]
async fn a_correction_supersedes_an_entry_and_keeps_the_audit_trail() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, 3).await;
    enter(
        &app,
        &id,
        &token,
        json!({"tally": {"jackpot": {"seat": 1, "symbol": "grape", "size": 3}}}),
    )
    .await;
    enter(&app, &id, &token, json!({"tally": {"jackpot": null}})).await;
    // The typo: round 1 was Dad's four grapes, not three.
    let fixed = enter(
        &app,
        &id,
        &token,
        json!({"corrects": 1, "tally": {"jackpot": {"seat": 1, "symbol": "grape", "size": 4}}, "note": "four, not three"}),
    )
    .await;
    assert_eq!(fixed.status, StatusCode::OK, "{}", fixed.body);
    assert_eq!(fixed.body["standings"]["totals"], json!([0, 5000, 0]));
    assert_eq!(fixed.body["rounds"].as_array().unwrap().len(), 2);
    assert_eq!(fixed.body["rounds"][0]["entry"], 3);
    let entries = fixed.body["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 3);
    assert_eq!(entries[0]["superseded_by"], 3);
    assert_eq!(entries[2]["corrects"], 1);
    assert_eq!(entries[2]["note"], "four, not three");

    // An entry already corrected cannot be corrected again; an unknown one neither.
    let again = enter(
        &app,
        &id,
        &token,
        json!({"corrects": 1, "tally": {"jackpot": null}}),
    )
    .await;
    assert_eq!(again.body["code"], "entry_superseded");
    let ghost = enter(
        &app,
        &id,
        &token,
        json!({"corrects": 99, "tally": {"jackpot": null}}),
    )
    .await;
    assert_eq!(ghost.body["code"], "unknown_entry");
    app.audit_snapshots().await;
}

#[tokio::test]
async fn an_entry_that_breaks_the_rules_or_comes_without_the_owner_token_is_refused() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, 3).await;
    let five = enter(
        &app,
        &id,
        &token,
        json!({"tally": {"jackpot": {"seat": 0, "symbol": "jack", "size": 5}}}),
    )
    .await;
    assert_eq!(five.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(five.body["code"], "invalid_jackpot_size");
    assert_eq!(five.body["params"]["round"], 1);
    let stranger = enter(&app, &id, "own_guess", json!({"tally": {"jackpot": null}})).await;
    assert_eq!(stranger.status, StatusCode::UNAUTHORIZED);
    let anonymous = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({"tally": {"jackpot": null}}),
            None,
        )
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let stale = enter(
        &app,
        &id,
        &token,
        json!({"expected_version": 4, "tally": {"jackpot": null}}),
    )
    .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert_eq!(stale.body["code"], "stale_version");
    let shape = enter(&app, &id, &token, json!({"tally": {"winner": "Mum"}})).await;
    assert_eq!(shape.status, StatusCode::BAD_REQUEST);
    assert_eq!(shape.body["code"], "invalid_tally");
    // Nothing was stored by any of these.
    let sheet = app.get(&format!("/v1/sheets/{id}"), None).await;
    assert_eq!(sheet.body["version"], 0);
    // A sheet is not a hosted match, and a hosted match is not a sheet.
    assert_eq!(
        app.read_match(&id, None).await.status,
        StatusCode::NOT_FOUND
    );
}

/// Every game keeps a score sheet in its own terms: one valid round is scored by the game, and
/// one the rules make impossible is refused with the game's own code.
#[tokio::test]
async fn every_game_keeps_a_score_sheet_scored_by_its_own_rules() {
    let app = spawn_app().await;
    let cases = [
        (
            "lucky-jack",
            2,
            json!({"jackpot": {"seat": 1, "symbol": "seven", "size": 3}}),
            vec![0, 6000],
            json!({"jackpot": {"seat": 1, "symbol": "seven", "size": 2}}),
            "invalid_jackpot_size",
        ),
        (
            "luck-plus",
            3,
            json!({"out": [{"seat": 1, "luck_out": false}], "cards_left": [["GO-3", "LP"], [], ["DBL", "TR-7"]]}),
            vec![0, 1, 0],
            json!({"out": [], "cards_left": [["GO-3"], ["GO-4"], ["GO-5"]]}),
            "no_one_out",
        ),
        (
            "lucky-dice",
            2,
            json!({"emptied": [0]}),
            vec![1, 0],
            json!({"emptied": []}),
            "no_round_winner",
        ),
        (
            "lucky-luau",
            2,
            json!({"leis": [
                {"lei": "blue red purple blue cut:yellow hook kukui blue rainbow", "guests": [[0, 0], [0, 0], [0, 0]]},
                {"lei": "red red", "guests": [[0, 0], [0, 0], [0, 0]]}]}),
            vec![33, 6],
            json!({"leis": [{"lei": "blue dragon"}, {"lei": "red"}]}),
            "unknown_card_word",
        ),
        (
            "plus-minus",
            3,
            json!({"players": [
                {"plus": ["K", "Q", "7"], "minus": ["5"], "hand": ["A"]},
                {"plus": ["2"], "minus": ["10", "J"], "hand": []},
                {"plus": ["A", "A"], "minus": [], "hand": ["9", "3"]}]}),
            vec![-5, -15, 35],
            json!({"players": [{"plus": ["A", "A", "A"]}, {"hand": ["A", "A"]}, {}]}),
            "too_many_of_rank",
        ),
    ];
    for (game, players, good, points, bad, code) in cases {
        let names: Vec<Value> = (0..players)
            .map(|i| json!({ "name": format!("P{i}") }))
            .collect();
        let created = app
            .post("/v1/sheets", &json!({"game": game, "players": names}), None)
            .await;
        assert_eq!(
            created.status,
            StatusCode::CREATED,
            "{game}: {}",
            created.body
        );
        let id = created.body["sheet"]["id"].as_str().unwrap().to_owned();
        let token = owner_token(&created.body);
        let refused = enter(&app, &id, &token, json!({ "tally": bad })).await;
        assert!(refused.status.is_client_error(), "{game}: {}", refused.body);
        assert_eq!(refused.body["code"], code, "{game}: {}", refused.body);
        let scored = enter(&app, &id, &token, json!({ "tally": good })).await;
        assert_eq!(scored.status, StatusCode::OK, "{game}: {}", scored.body);
        assert_eq!(scored.body["rounds"][0]["points"], json!(points), "{game}");
        assert_eq!(
            scored.body["version"], 1,
            "{game}: the refused entry stored nothing"
        );
    }
    app.audit_snapshots().await;
}
