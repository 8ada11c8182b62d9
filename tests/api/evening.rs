//! The evening around score sheets: playing a sheet again with the same players, handing a sheet
//! to another phone, and the evening's summary (every sheet played again from another, with who
//! won each).

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{owner_token, spawn_app, Reply, TestApp};

/// A three-round Lucky Jack sheet for these players: its id and owner token.
async fn new_sheet(app: &TestApp, players: &[&str]) -> (String, String) {
    let players: Vec<Value> = players.iter().map(|name| json!({ "name": name })).collect();
    let reply = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": players, "options": {"rounds": 3}}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    (sheet_id(&reply.body), owner_token(&reply.body))
}

fn sheet_id(created: &Value) -> String {
    created["sheet"]["id"].as_str().unwrap().to_owned()
}

/// Plays the sheet's three rounds: `winner` takes a four-jack jackpot, then nobody scores.
async fn play_out(app: &TestApp, id: &str, token: &str, winner: usize) -> Value {
    let mut last = Value::Null;
    for tally in [
        json!({"jackpot": {"seat": winner, "symbol": "jack", "size": 4}}),
        json!({"jackpot": null}),
        json!({"jackpot": null}),
    ] {
        let reply = app
            .post(
                &format!("/v1/sheets/{id}/entries"),
                &json!({ "tally": tally }),
                Some(token),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        last = reply.body;
    }
    assert_eq!(last["status"], "finished");
    last
}

async fn play_again(app: &TestApp, id: &str, token: Option<&str>) -> Reply {
    app.post(&format!("/v1/sheets/{id}/rematch"), &Value::Null, token)
        .await
}

#[tokio::test]
async fn playing_a_finished_sheet_again_makes_a_linked_sheet_of_the_same_game_options_and_players()
{
    let app = spawn_app().await;
    let (first, token) = new_sheet(&app, &["Mum", "Dad", "Zoé"]).await;
    play_out(&app, &first, &token, 2).await;

    let again = play_again(&app, &first, Some(&token)).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.body);
    let second = sheet_id(&again.body);
    assert_eq!(
        again.headers["location"].to_str().unwrap(),
        format!("/v1/sheets/{second}")
    );
    let sheet = &again.body["sheet"];
    assert_eq!(sheet["game"], "lucky-jack");
    assert_eq!(sheet["options"]["rounds"], 3);
    assert_eq!(sheet["status"], "in_progress");
    assert_eq!(sheet["rematch_of"], first.as_str());
    let names: Vec<&str> = sheet["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Mum", "Dad", "Zoé"]);

    // Each sheet its own owner token: the old one does not write to the new sheet.
    let new_token = owner_token(&again.body);
    assert_ne!(new_token, token);
    let refused = app
        .post(
            &format!("/v1/sheets/{second}/entries"),
            &json!({"tally": {"jackpot": null}}),
            Some(&token),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.body);

    // The old sheet names the new one, so a page showing it can follow the evening there.
    let old = app.get(&format!("/v1/sheets/{first}"), None).await;
    assert_eq!(old.body["rematch"], second.as_str());
    assert_eq!(old.body["rematch_of"], Value::Null);
}

#[tokio::test]
async fn a_sheet_is_played_again_once_only_once_over_and_only_by_its_owner() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Ann", "Ben"]).await;

    let early = play_again(&app, &id, Some(&token)).await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{}", early.body);
    assert_eq!(early.body["code"], "match_not_finished");

    play_out(&app, &id, &token, 0).await;
    let stranger = play_again(&app, &id, Some("own_not-the-owner")).await;
    assert_eq!(
        stranger.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        stranger.body
    );
    let anonymous = play_again(&app, &id, None).await;
    assert_eq!(
        anonymous.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        anonymous.body
    );

    let again = play_again(&app, &id, Some(&token)).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.body);
    let twice = play_again(&app, &id, Some(&token)).await;
    assert_eq!(twice.status, StatusCode::CONFLICT, "{}", twice.body);
    assert_eq!(twice.body["code"], "rematch_exists");
    assert_eq!(
        twice.body["params"]["rematch"],
        sheet_id(&again.body).as_str()
    );

    // A hosted match is no sheet.
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let hosted = crate::support::match_id(&created);
    let not_a_sheet = play_again(&app, &hosted, Some(&owner_token(&created))).await;
    assert_eq!(
        not_a_sheet.status,
        StatusCode::NOT_FOUND,
        "{}",
        not_a_sheet.body
    );
    assert_eq!(not_a_sheet.body["code"], "unknown_sheet");
}

#[tokio::test]
async fn an_abandoned_sheet_can_be_played_again() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Ann", "Ben"]).await;
    let abandoned = app
        .post(
            &format!("/v1/sheets/{id}/abandon"),
            &Value::Null,
            Some(&token),
        )
        .await;
    assert_eq!(abandoned.status, StatusCode::OK, "{}", abandoned.body);
    let again = play_again(&app, &id, Some(&token)).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.body);
}

#[tokio::test]
async fn the_evening_lists_every_sheet_played_again_from_any_of_them_with_each_players_wins() {
    let app = spawn_app().await;
    let (first, token) = new_sheet(&app, &["Mum", "Dad", "Zoé"]).await;
    play_out(&app, &first, &token, 2).await;
    let again = play_again(&app, &first, Some(&token)).await;
    let (second, token) = (sheet_id(&again.body), owner_token(&again.body));
    play_out(&app, &second, &token, 0).await;
    let again = play_again(&app, &second, Some(&token)).await;
    let (third, token) = (sheet_id(&again.body), owner_token(&again.body));
    // The third game is under way: Zoé leads, nobody has won it yet.
    let entered = app
        .post(
            &format!("/v1/sheets/{third}/entries"),
            &json!({"tally": {"jackpot": {"seat": 2, "symbol": "bell", "size": 3}}}),
            Some(&token),
        )
        .await;
    assert_eq!(entered.status, StatusCode::OK, "{}", entered.body);

    for asked in [&first, &second, &third] {
        let evening = app.get(&format!("/v1/sheets/{asked}/evening"), None).await;
        assert_eq!(evening.status, StatusCode::OK, "{}", evening.body);
        let body = &evening.body;
        assert_eq!(body["first"], first.as_str());
        assert_eq!(body["current"], third.as_str());
        let ids: Vec<&str> = body["sheets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, [first.as_str(), second.as_str(), third.as_str()]);
        assert_eq!(body["sheets"][0]["winners"], json!([2]));
        assert_eq!(body["sheets"][1]["winners"], json!([0]));
        assert_eq!(body["sheets"][2]["winners"], json!([]));
        assert_eq!(body["sheets"][2]["status"], "in_progress");
        assert_eq!(body["sheets"][2]["rounds"], 1);
        assert_eq!(body["sheets"][2]["totals"], json!([0, 0, 5000]));
        assert_eq!(
            body["players"],
            json!([
                {"name": "Mum", "sheets": 3, "wins": 1},
                {"name": "Zoé", "sheets": 3, "wins": 1},
                {"name": "Dad", "sheets": 3, "wins": 0},
            ])
        );
    }

    // A sheet never played again is an evening of one.
    let (alone, _) = new_sheet(&app, &["Ann", "Ben"]).await;
    let evening = app.get(&format!("/v1/sheets/{alone}/evening"), None).await;
    assert_eq!(evening.body["sheets"].as_array().unwrap().len(), 1);
    assert_eq!(evening.body["current"], alone.as_str());

    let unknown = app
        .get(
            "/v1/sheets/00000000-0000-4000-8000-000000000000/evening",
            None,
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.body);
    assert_eq!(unknown.body["code"], "unknown_sheet");
}

#[tokio::test]
async fn handing_a_sheet_over_gives_a_new_owner_token_and_the_old_one_stops_working() {
    let app = spawn_app().await;
    let (id, old) = new_sheet(&app, &["Ann", "Ben"]).await;
    let handed = app
        .post(
            &format!("/v1/sheets/{id}/owner-token"),
            &Value::Null,
            Some(&old),
        )
        .await;
    assert_eq!(handed.status, StatusCode::OK, "{}", handed.body);
    let new = handed.body["owner_token"].as_str().unwrap().to_owned();
    assert!(new.starts_with("own_") && new != old, "{new}");

    let entry = json!({"tally": {"jackpot": null}});
    let by_old = app
        .post(&format!("/v1/sheets/{id}/entries"), &entry, Some(&old))
        .await;
    assert_eq!(by_old.status, StatusCode::UNAUTHORIZED, "{}", by_old.body);
    let by_new = app
        .post(&format!("/v1/sheets/{id}/entries"), &entry, Some(&new))
        .await;
    assert_eq!(by_new.status, StatusCode::OK, "{}", by_new.body);

    // The old token cannot take the sheet back either.
    let again = app
        .post(
            &format!("/v1/sheets/{id}/owner-token"),
            &Value::Null,
            Some(&old),
        )
        .await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED, "{}", again.body);
}

#[tokio::test]
async fn a_finished_sheets_stream_tells_its_followers_when_it_is_played_again() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Ann", "Ben"]).await;
    play_out(&app, &id, &token, 1).await;
    let mut stream = app
        .stream(&format!("/v1/sheets/{id}/stream?format=ndjson"), None, &[])
        .await
        .unwrap();
    let opening = stream.until_view(3).await;
    assert_eq!(
        opening.last().unwrap().data["sheet"]["rematch"],
        Value::Null
    );

    let again = play_again(&app, &id, Some(&token)).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.body);
    let view = loop {
        let event = stream.next().await.expect("the stream stays open");
        if event.kind == "view" {
            break event;
        }
    };
    assert_eq!(
        view.data["sheet"]["rematch"],
        sheet_id(&again.body).as_str()
    );
}
