//! Score sheets that forgive: the last round taken away, a player renamed, a sheet finished early.
//! Each is one more entry, never a rewrite; results and statistics follow what stands.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{owner_token, spawn_app, Reply, TestApp};

/// A Lucky Jack sheet of `rounds` rounds for these players: its id and owner token.
async fn new_sheet(app: &TestApp, players: &[&str], rounds: u32) -> (String, String) {
    let players: Vec<Value> = players.iter().map(|name| json!({ "name": name })).collect();
    let reply = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": players, "options": {"rounds": rounds}}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    (
        reply.body["sheet"]["id"].as_str().unwrap().to_owned(),
        owner_token(&reply.body),
    )
}

fn jackpot(seat: usize, symbol: &str, size: u8) -> Value {
    json!({"jackpot": {"seat": seat, "symbol": symbol, "size": size}})
}

fn nobody() -> Value {
    json!({"jackpot": null})
}

async fn enter(app: &TestApp, id: &str, token: &str, tally: Value) -> Reply {
    let reply = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({ "tally": tally }),
            Some(token),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply
}

async fn remove(app: &TestApp, id: &str, token: Option<&str>, body: Value) -> Reply {
    app.post(&format!("/v1/sheets/{id}/remove-last-round"), &body, token)
        .await
}

async fn finish(app: &TestApp, id: &str, token: &str, body: Value) -> Reply {
    app.post(&format!("/v1/sheets/{id}/finish"), &body, Some(token))
        .await
}

async fn rename(app: &TestApp, id: &str, seat: u32, token: Option<&str>, body: Value) -> Reply {
    let mut request = app
        .client
        .patch(format!("{}/v1/sheets/{id}/seats/{seat}", app.base))
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    app.send(request).await
}

/// A player's all-time row on the game's leaderboard, if any.
async fn board_row(app: &TestApp, player: &str) -> Option<Value> {
    let board = app.get("/v1/games/lucky-jack/leaderboard", None).await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.body);
    board
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["player"] == player)
        .cloned()
}

async fn played_and_won(app: &TestApp, player: &str) -> (i64, i64) {
    let stats = app
        .get(&format!("/v1/players/{player}/stats"), None)
        .await
        .body;
    (
        stats["overall"]["played"].as_i64().unwrap_or(0),
        stats["overall"]["won"].as_i64().unwrap_or(0),
    )
}

#[tokio::test]
async fn taking_the_last_round_away_shows_one_round_fewer_and_keeps_the_removal_in_the_entries() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Mum", "Dad", "Zoé"], 3).await;
    enter(&app, &id, &token, jackpot(0, "bell", 3)).await;
    enter(&app, &id, &token, jackpot(2, "cherry", 4)).await;

    // Round 2 was typed twice by mistake: it goes, with a note saying why.
    let removed = remove(
        &app,
        &id,
        Some(&token),
        json!({"expected_version": 2, "note": "round 2 is next week's"}),
    )
    .await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.body);
    let sheet = &removed.body;
    assert_eq!(sheet["version"], 3);
    assert_eq!(sheet["status"], "in_progress");
    assert_eq!(sheet["rounds"].as_array().unwrap().len(), 1);
    assert_eq!(sheet["standings"]["totals"], json!([5000, 0, 0]));
    let removal = &sheet["entries"][2];
    assert_eq!(removal["kind"], "removal");
    assert_eq!(removal["round"], 2);
    assert_eq!(removal["corrects"], 2);
    assert_eq!(removal["tally"], Value::Null);
    assert_eq!(removal["by"], "owner");
    assert_eq!(removal["note"], "round 2 is next week's");
    assert!(removal["at"].is_string());
    assert_eq!(
        sheet["entries"][1]["superseded_by"], 3,
        "the round's entry stays, superseded"
    );
    assert_eq!(sheet["entries"][0]["kind"], "round");

    // The next round is round 2 again; the removal itself is no round to correct, and the
    // entry it removed is superseded.
    let again = enter(&app, &id, &token, nobody()).await;
    assert_eq!(again.body["rounds"][1]["round"], 2);
    assert_eq!(again.body["rounds"][1]["entry"], 4);
    let fix_removal = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({"corrects": 3, "tally": nobody()}),
            Some(&token),
        )
        .await;
    assert_eq!(fix_removal.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(fix_removal.body["code"], "entry_not_a_round");
    let fix_removed = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({"corrects": 2, "tally": nobody()}),
            Some(&token),
        )
        .await;
    assert_eq!(fix_removed.body["code"], "entry_superseded");

    // Down to no round: then there is nothing to take away.
    for _ in 0..2 {
        let reply = remove(&app, &id, Some(&token), json!({"note": "start over"})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let empty = remove(&app, &id, Some(&token), json!({"note": "once more"})).await;
    assert_eq!(empty.status, StatusCode::CONFLICT, "{}", empty.body);
    assert_eq!(empty.body["code"], "no_round");

    // A note is required, and real; only the owner removes.
    let silent = remove(&app, &id, Some(&token), json!({})).await;
    assert_eq!(silent.status, StatusCode::BAD_REQUEST, "{}", silent.body);
    let blank = remove(&app, &id, Some(&token), json!({"note": "  "})).await;
    assert_eq!(blank.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(blank.body["code"], "note_required");
    let long = remove(&app, &id, Some(&token), json!({"note": "x".repeat(501)})).await;
    assert_eq!(long.body["code"], "limit_exceeded");
    let stranger = remove(&app, &id, Some("own_guess"), json!({"note": "mine"})).await;
    assert_eq!(stranger.status, StatusCode::UNAUTHORIZED);
    let anonymous = remove(&app, &id, None, json!({"note": "mine"})).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let sheet = app.get(&format!("/v1/sheets/{id}"), None).await.body;
    assert_eq!(sheet["version"], 6, "the refusals stored nothing");
    assert_eq!(sheet["rounds"], json!([]));
    app.audit_snapshots().await;
    app.audit_totals().await;
}

#[tokio::test]
async fn a_removal_is_guarded_by_its_version_and_a_retry_with_its_key_stores_nothing_twice() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Mum", "Dad"], 3).await;
    enter(&app, &id, &token, jackpot(1, "seven", 3)).await;
    let path = format!("{}/v1/sheets/{id}/remove-last-round", app.base);
    let body = json!({"note": "wrong table"});

    let stale_tag = app
        .send(
            app.client
                .post(&path)
                .bearer_auth(&token)
                .header("If-Match", "\"v0\"")
                .json(&body),
        )
        .await;
    assert_eq!(stale_tag.status, StatusCode::PRECONDITION_FAILED);
    assert_eq!(stale_tag.body["code"], "precondition_failed");
    let stale = remove(
        &app,
        &id,
        Some(&token),
        json!({"expected_version": 0, "note": "wrong table"}),
    )
    .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert_eq!(stale.body["code"], "stale_version");

    let tag = app.get(&format!("/v1/sheets/{id}"), None).await.headers["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    let send = |key: &str, body: &Value| {
        app.client
            .post(&path)
            .bearer_auth(&token)
            .header("If-Match", tag.as_str())
            .header("Idempotency-Key", key)
            .json(body)
    };
    let first = app.send(send("remove-1", &body)).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert_eq!(first.body["version"], 2);
    // The retry is answered as the first was, though the version has moved on since.
    let retry = app.send(send("remove-1", &body)).await;
    assert_eq!(retry.status, StatusCode::OK, "{}", retry.body);
    assert_eq!(retry.body, first.body);
    let reused = app
        .send(send("remove-1", &json!({"note": "another reason"})))
        .await;
    assert_eq!(reused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reused.body["code"], "idempotency_key_reused");
    let sheet = app.get(&format!("/v1/sheets/{id}"), None).await.body;
    assert_eq!(sheet["version"], 2, "one removal stored");
    app.audit_snapshots().await;
}

#[tokio::test]
async fn taking_the_last_round_of_a_finished_sheet_reopens_it_and_takes_its_result_out_of_the_statistics(
) {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Mum", "Dad"], 3).await;
    enter(&app, &id, &token, jackpot(0, "bell", 3)).await;
    enter(&app, &id, &token, nobody()).await;
    let done = enter(&app, &id, &token, jackpot(1, "lemon", 3)).await;
    assert_eq!(done.body["status"], "finished");
    assert_eq!(played_and_won(&app, "Mum").await, (1, 1));
    assert_eq!(board_row(&app, "Dad").await.unwrap()["played"], 1);

    let reopened = remove(
        &app,
        &id,
        Some(&token),
        json!({"note": "round 3 is not over"}),
    )
    .await;
    assert_eq!(reopened.status, StatusCode::OK, "{}", reopened.body);
    let sheet = &reopened.body;
    assert_eq!(sheet["status"], "in_progress");
    assert_eq!(sheet["finished_at"], Value::Null);
    assert_eq!(sheet["winners"], json!([]));
    assert_eq!(sheet["players"][0]["final_score"], Value::Null);
    assert_eq!(sheet["players"][0]["winner"], Value::Null);
    assert_eq!(sheet["standings"]["totals"], json!([5000, 0]));
    assert_eq!(played_and_won(&app, "Mum").await, (0, 0));
    assert!(board_row(&app, "Mum").await.is_none(), "no longer played");
    let finished = app
        .get("/v1/matches?kind=sheet&status=finished", None)
        .await;
    assert_eq!(finished.body["items"], json!([]));
    app.audit_totals().await;

    // Round 3 as it really ended: finished again, counted once.
    let ended = enter(&app, &id, &token, jackpot(1, "jack", 4)).await;
    assert_eq!(ended.body["status"], "finished");
    assert_eq!(ended.body["winners"], json!(["Dad"]));
    assert_eq!(played_and_won(&app, "Mum").await, (1, 0));
    assert_eq!(played_and_won(&app, "Dad").await, (1, 1));
    app.audit_snapshots().await;
    app.audit_totals().await;
}

#[tokio::test]
async fn renaming_a_player_of_a_finished_sheet_takes_the_sheet_to_the_new_name_everywhere() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Ann", "Ben"], 3).await;
    enter(&app, &id, &token, jackpot(0, "bell", 3)).await;
    enter(&app, &id, &token, nobody()).await;
    enter(&app, &id, &token, nobody()).await;
    assert_eq!(played_and_won(&app, "Ann").await, (1, 1));

    let renamed = rename(
        &app,
        &id,
        0,
        Some(&token),
        json!({"name": "Annie", "expected_version": 3, "note": "her full name"}),
    )
    .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    let sheet = &renamed.body;
    assert_eq!(sheet["version"], 4, "the version grows");
    assert_eq!(sheet["status"], "finished");
    assert_eq!(sheet["players"][0]["name"], "Annie");
    assert_eq!(sheet["players"][0]["winner"], true);
    assert_eq!(sheet["winners"], json!(["Annie"]));
    assert_eq!(sheet["rounds"].as_array().unwrap().len(), 3);
    let entry = &sheet["entries"][3];
    assert_eq!(entry["kind"], "rename");
    assert_eq!(
        entry["renamed"],
        json!({"seat": 0, "old_name": "Ann", "new_name": "Annie"})
    );
    assert_eq!(entry["note"], "her full name");
    assert_eq!(entry["round"], 3);
    assert_eq!(entry["tally"], Value::Null);

    // The player's statistics, leaderboard row, listing and history follow the new name; nothing
    // stays under the old one.
    assert_eq!(played_and_won(&app, "Annie").await, (1, 1));
    assert_eq!(played_and_won(&app, "Ann").await, (0, 0));
    let row = board_row(&app, "Annie").await.expect("Annie is ranked");
    assert_eq!(
        (row["played"].clone(), row["won"].clone()),
        (json!(1), json!(1))
    );
    assert!(board_row(&app, "Ann").await.is_none());
    let listed = app.get("/v1/matches?player=annie", None).await.body;
    assert_eq!(listed["items"].as_array().unwrap().len(), 1);
    let old = app.get("/v1/matches?player=ann", None).await.body;
    assert_eq!(old["items"], json!([]));
    let history = app
        .send(
            app.client
                .get(format!("{}/v1/players/Annie/history?format=csv", app.base)),
        )
        .await;
    assert_eq!(history.status, StatusCode::OK);
    assert!(history.body.as_str().unwrap().contains("Annie"));
    let play = app
        .get(&format!("/v1/sheets/{id}/bgstats"), None)
        .await
        .body;
    assert!(play.to_string().contains("Annie") && !play.to_string().contains("\"Ann\""));

    // A case fix keeps the player (same identity) and shows the new spelling.
    let cased = rename(&app, &id, 0, Some(&token), json!({"name": "ANNIE"})).await;
    assert_eq!(cased.status, StatusCode::OK, "{}", cased.body);
    assert_eq!(board_row(&app, "ANNIE").await.unwrap()["won"], 1);
    app.audit_snapshots().await;
    app.audit_totals().await;
}

#[tokio::test]
async fn a_rename_to_a_seated_or_look_alike_name_or_without_the_owner_token_is_refused() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Ann", "Ben"], 3).await;
    for name in ["ANN", "\u{410}nn", " ann\u{200B}"] {
        let twin = rename(&app, &id, 1, Some(&token), json!({ "name": name })).await;
        assert_eq!(twin.status, StatusCode::UNPROCESSABLE_ENTITY, "{name:?}");
        assert_eq!(twin.body["code"], "duplicate_player", "{name:?}");
    }
    let invisible = rename(&app, &id, 1, Some(&token), json!({"name": "\u{200B}"})).await;
    assert_eq!(invisible.body["code"], "invalid_player_name");
    let same = rename(&app, &id, 1, Some(&token), json!({"name": "Ben"})).await;
    assert_eq!(same.body["code"], "same_name");
    let nowhere = rename(&app, &id, 5, Some(&token), json!({"name": "Cleo"})).await;
    assert_eq!(nowhere.status, StatusCode::NOT_FOUND);
    assert_eq!(nowhere.body["code"], "unknown_seat");
    let stranger = rename(&app, &id, 1, Some("own_guess"), json!({"name": "Cleo"})).await;
    assert_eq!(stranger.status, StatusCode::UNAUTHORIZED);
    assert_eq!(stranger.body["code"], "invalid_token");
    let anonymous = rename(&app, &id, 1, None, json!({"name": "Cleo"})).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    // A hosted match's tokens are not the sheet's.
    let hosted = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let other = rename(
        &app,
        &id,
        1,
        Some(&owner_token(&hosted)),
        json!({"name": "Cleo"}),
    )
    .await;
    assert_eq!(other.status, StatusCode::UNAUTHORIZED);
    let stale = rename(
        &app,
        &id,
        1,
        Some(&token),
        json!({"name": "Cleo", "expected_version": 3}),
    )
    .await;
    assert_eq!(stale.body["code"], "stale_version");
    let sheet = app.get(&format!("/v1/sheets/{id}"), None).await.body;
    assert_eq!(sheet["version"], 0, "nothing was stored");
    assert_eq!(sheet["players"][1]["name"], "Ben");

    // An abandoned sheet with an entry counts as abandoned for its players: under the new name.
    enter(&app, &id, &token, nobody()).await;
    let abandoned = app
        .post(
            &format!("/v1/sheets/{id}/abandon"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(abandoned.status, StatusCode::OK, "{}", abandoned.body);
    assert_eq!(board_row(&app, "Ben").await.unwrap()["abandoned"], 1);
    let renamed = rename(&app, &id, 1, Some(&token), json!({"name": "Benny"})).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    assert_eq!(renamed.body["status"], "abandoned");
    assert_eq!(board_row(&app, "Benny").await.unwrap()["abandoned"], 1);
    assert!(board_row(&app, "Ben").await.is_none());
    app.audit_snapshots().await;
    app.audit_totals().await;
}

#[tokio::test]
async fn finishing_early_ranks_the_rounds_so_far_and_records_the_result() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Mum", "Dad", "Zoé"], 5).await;
    enter(&app, &id, &token, jackpot(2, "cherry", 4)).await;
    enter(&app, &id, &token, jackpot(0, "bell", 3)).await;

    let done = finish(
        &app,
        &id,
        &token,
        json!({"expected_version": 2, "note": "bedtime"}),
    )
    .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    let sheet = &done.body;
    assert_eq!(sheet["status"], "finished");
    assert_eq!(sheet["finished_early"], true);
    assert!(sheet["finished_early_at"].is_string());
    assert!(sheet["finished_at"].is_string());
    assert_eq!(sheet["version"], 3);
    assert_eq!(sheet["rounds"].as_array().unwrap().len(), 2);
    assert_eq!(
        sheet["standings"],
        json!({"order": "highest_wins", "totals": [5000, 0, 4000], "ranks": [1, 3, 2], "winners": [0]})
    );
    assert_eq!(sheet["winners"], json!(["Mum"]));
    assert_eq!(sheet["players"][0]["winner"], true);
    assert_eq!(sheet["players"][2]["final_score"], 4000);
    assert_eq!(sheet["players"][1]["rank"], 3);
    let entry = &sheet["entries"][2];
    assert_eq!(
        (
            entry["kind"].clone(),
            entry["round"].clone(),
            entry["note"].clone()
        ),
        (json!("finish"), json!(2), json!("bedtime"))
    );
    assert_eq!(played_and_won(&app, "Mum").await, (1, 1));
    assert_eq!(played_and_won(&app, "Zoé").await, (1, 0));
    let play = app.get(&format!("/v1/sheets/{id}/bgstats"), None).await;
    assert_eq!(play.status, StatusCode::OK, "{}", play.body);

    // Twice is refused, and so is another round.
    let twice = finish(&app, &id, &token, json!({})).await;
    assert_eq!(twice.status, StatusCode::CONFLICT);
    assert_eq!(twice.body["code"], "match_finished");
    let more = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({"tally": nobody()}),
            Some(&token),
        )
        .await;
    assert_eq!(more.body["code"], "match_finished");

    // A correction re-scores the early-finished sheet, which stays finished early.
    let fixed = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({"corrects": 1, "tally": jackpot(2, "jack", 4), "note": "jacks, not cherries"}),
            Some(&token),
        )
        .await;
    assert_eq!(fixed.status, StatusCode::OK, "{}", fixed.body);
    assert_eq!(fixed.body["status"], "finished");
    assert_eq!(fixed.body["finished_early"], true);
    assert_eq!(fixed.body["winners"], json!(["Zoé"]));
    assert_eq!(played_and_won(&app, "Mum").await, (1, 0));
    assert_eq!(played_and_won(&app, "Zoé").await, (1, 1));
    app.audit_totals().await;

    // Taking the last round away undoes the early finish: the sheet is open again.
    let reopened = remove(
        &app,
        &id,
        Some(&token),
        json!({"note": "round 2 was a practice"}),
    )
    .await;
    assert_eq!(reopened.status, StatusCode::OK, "{}", reopened.body);
    assert_eq!(reopened.body["status"], "in_progress");
    assert_eq!(reopened.body["finished_early"], false);
    assert_eq!(reopened.body["finished_early_at"], Value::Null);
    assert_eq!(played_and_won(&app, "Zoé").await, (0, 0));
    app.audit_totals().await;
    let again = finish(&app, &id, &token, json!({})).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(again.body["winners"], json!(["Zoé"]));
    assert_eq!(played_and_won(&app, "Zoé").await, (1, 1));
    app.audit_snapshots().await;
    app.audit_totals().await;
}

#[tokio::test]
async fn finishing_early_needs_a_round_and_a_game_that_has_standings_before_its_end() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Mum", "Dad"], 3).await;
    let empty = finish(&app, &id, &token, json!({})).await;
    assert_eq!(empty.status, StatusCode::CONFLICT, "{}", empty.body);
    assert_eq!(empty.body["code"], "no_round");
    let stale = finish(&app, &id, &token, json!({"expected_version": 1})).await;
    assert_eq!(stale.body["code"], "stale_version");

    // Lucky Luau is scored once, at its end: there is nothing to finish early on.
    let luau = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-luau", "players": [{"name": "Mum"}, {"name": "Dad"}]}),
            None,
        )
        .await;
    let luau_id = luau.body["sheet"]["id"].as_str().unwrap().to_owned();
    let refused = finish(&app, &luau_id, &owner_token(&luau.body), json!({})).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    assert_eq!(refused.body["code"], "early_finish_not_allowed");
    assert_eq!(refused.body["params"]["game"], "lucky-luau");
    // The catalogue says so beforehand.
    let catalogue = app.get("/v1/games", None).await.body;
    let finishes: Vec<(String, bool)> = catalogue
        .as_array()
        .unwrap()
        .iter()
        .map(|game| {
            (
                game["slug"].as_str().unwrap().to_owned(),
                game["sheet_finishes_early"].as_bool().unwrap(),
            )
        })
        .collect();
    for (slug, early) in &finishes {
        assert_eq!(*early, slug != "lucky-luau", "{slug}");
    }

    // The other games end on the standings so far, ranked in their own order.
    let cases = [
        (
            "luck-plus",
            3,
            json!({"out": [{"seat": 1, "luck_out": false}], "cards_left": [["GO-3", "LP"], [], ["DBL", "TR-7"]]}),
        ),
        ("lucky-dice", 2, json!({"emptied": [0]})),
        (
            "plus-minus",
            3,
            json!({"players": [
                {"plus": ["K", "Q", "7"], "minus": ["5"], "hand": ["A"]},
                {"plus": ["2"], "minus": ["10", "J"], "hand": []},
                {"plus": ["A", "A"], "minus": [], "hand": ["9", "3"]}]}),
        ),
    ];
    for (game, players, tally) in cases {
        let names: Vec<Value> = (0..players)
            .map(|i| json!({ "name": format!("P{i}") }))
            .collect();
        let created = app
            .post("/v1/sheets", &json!({"game": game, "players": names}), None)
            .await;
        let id = created.body["sheet"]["id"].as_str().unwrap().to_owned();
        let token = owner_token(&created.body);
        enter(&app, &id, &token, tally).await;
        let done = finish(&app, &id, &token, json!({})).await;
        assert_eq!(done.status, StatusCode::OK, "{game}: {}", done.body);
        assert_eq!(done.body["finished_early"], true, "{game}");
        assert!(
            !done.body["winners"].as_array().unwrap().is_empty(),
            "{game}"
        );
        let ranks = &done.body["standings"]["ranks"];
        for winner in done.body["standings"]["winners"].as_array().unwrap() {
            assert_eq!(ranks[winner.as_u64().unwrap() as usize], 1, "{game}");
        }
    }
    app.audit_snapshots().await;
    app.audit_totals().await;
}

#[tokio::test]
async fn a_sheet_stream_delivers_each_removal_rename_and_early_finish() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Mum", "Dad"], 5).await;
    let mut stream = app
        .stream(&format!("/v1/sheets/{id}/stream?format=ndjson"), None, &[])
        .await
        .unwrap();
    assert_eq!(stream.next().await.unwrap().id, Some(0));
    enter(&app, &id, &token, jackpot(0, "bell", 3)).await;
    enter(&app, &id, &token, jackpot(1, "seven", 3)).await;
    let removed = remove(&app, &id, Some(&token), json!({"note": "typo"})).await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.body);
    let renamed = rename(&app, &id, 1, Some(&token), json!({"name": "Papa"})).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    let done = finish(&app, &id, &token, json!({})).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);

    let seen = stream.until_view(5).await;
    let kinds: Vec<(i64, String)> = seen
        .iter()
        .filter(|e| e.kind == "entry")
        .map(|e| {
            (
                e.data["entry"]["seq"].as_i64().unwrap(),
                e.data["entry"]["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (1, "round".to_owned()),
            (2, "round".to_owned()),
            (3, "removal".to_owned()),
            (4, "rename".to_owned()),
            (5, "finish".to_owned()),
        ]
    );
    let view = &seen.last().unwrap().data["sheet"];
    assert_eq!(view["status"], "finished");
    assert_eq!(view["finished_early"], true);
    assert_eq!(view["players"][1]["name"], "Papa");
    assert_eq!(view["standings"]["totals"], json!([5000, 0]));
}

#[tokio::test]
async fn a_rename_and_an_early_finish_retried_with_their_keys_get_their_first_answers() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Mum", "Dad"], 5).await;
    enter(&app, &id, &token, jackpot(1, "bell", 4)).await;
    let renaming = |key: &str, name: &str| {
        app.client
            .patch(format!("{}/v1/sheets/{id}/seats/1", app.base))
            .bearer_auth(&token)
            .header("Idempotency-Key", key)
            .json(&json!({ "name": name }))
    };
    let first = app.send(renaming("rename-1", "Papa")).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    let later = app.send(renaming("rename-2", "Pops")).await;
    assert_eq!(later.body["players"][1]["name"], "Pops");
    // The retry gets the sheet as the first rename left it: Papa, at version 2.
    let retry = app.send(renaming("rename-1", "Papa")).await;
    assert_eq!(retry.status, StatusCode::OK, "{}", retry.body);
    assert_eq!(retry.body, first.body);
    assert_eq!(retry.body["players"][1]["name"], "Papa");
    assert_eq!(retry.body["version"], 2);
    let reused = app.send(renaming("rename-1", "Pa")).await;
    assert_eq!(reused.body["code"], "idempotency_key_reused");

    let path = format!("{}/v1/sheets/{id}/finish", app.base);
    let stale = app
        .send(
            app.client
                .post(&path)
                .bearer_auth(&token)
                .header("If-Match", "\"v1\"")
                .json(&json!({})),
        )
        .await;
    assert_eq!(stale.status, StatusCode::PRECONDITION_FAILED);
    let finishing = || {
        app.client
            .post(&path)
            .bearer_auth(&token)
            .header("If-Match", "\"v3\"")
            .header("Idempotency-Key", "finish-1")
            .json(&json!({"note": "bedtime"}))
    };
    let done = app.send(finishing()).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert_eq!(done.body["finished_early"], true);
    assert_eq!(done.body["winners"], json!(["Pops"]));
    let again = app.send(finishing()).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(again.body, done.body);
    let sheet = app.get(&format!("/v1/sheets/{id}"), None).await.body;
    assert_eq!(sheet["version"], 4, "each write stored once");
    assert_eq!(played_and_won(&app, "Pops").await, (1, 1));
    app.audit_snapshots().await;
    app.audit_totals().await;
}
