//! HTTP caching and preconditions: `ETag` on reads, `If-None-Match` → 304, `If-Match` on writes
//! as the same guard as `expected_version` (412 on a mismatch).

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{match_id, owner_token, seat_tokens, spawn_app, Reply, TestApp};

async fn get_with(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
) -> Reply {
    let mut request = app.client.get(format!("{}{path}", app.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    app.send(request).await
}

async fn post_with(app: &TestApp, path: &str, body: &Value, token: &str, if_match: &str) -> Reply {
    let request = app
        .client
        .post(format!("{}{path}", app.base))
        .bearer_auth(token)
        .header("If-Match", if_match)
        .json(body);
    app.send(request).await
}

fn etag(reply: &Reply) -> String {
    reply.headers["etag"].to_str().unwrap().to_owned()
}

/// The acting seat's token and one of its legal moves.
async fn a_legal_move(app: &TestApp, created: &Value) -> (String, Value, i64) {
    let id = match_id(created);
    let public = app.read_match(&id, None).await.body;
    let seat = public["to_act"][0].as_u64().unwrap() as usize;
    let token = seat_tokens(created)[seat].clone();
    let mine = app.read_match(&id, Some(&token)).await.body;
    let mv = mine["view"]["legal_moves"][0].clone();
    (token, mv, mine["version"].as_i64().unwrap())
}

#[tokio::test]
async fn reads_carry_the_version_as_etag_and_an_unchanged_one_is_a_304() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let seat = seat_tokens(&created)[0].clone();
    for tail in ["", "/log", "/result", "/plies/0"] {
        let path = format!("/v1/matches/{id}{tail}");
        let first = get_with(&app, &path, Some(&seat), &[]).await;
        assert_eq!(first.status, StatusCode::OK, "{path}");
        let tag = etag(&first);
        assert!(
            tag.starts_with('"') && tag.ends_with('"') && !tag.starts_with("W/"),
            "{tag}"
        );
        if tail.is_empty() || tail == "/log" {
            let version = format!("\"v{}-", first.body["version"]);
            assert!(tag.starts_with(&version), "{path}: {tag}");
        }
        let vary = first.headers["vary"].to_str().unwrap();
        assert!(vary.starts_with("Authorization"), "{vary}");
        let again = get_with(&app, &path, Some(&seat), &[("If-None-Match", &tag)]).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{path}");
        assert_eq!(
            again.body,
            Value::String(String::new()),
            "a 304 has no body"
        );
        assert_eq!(etag(&again), tag);
        let other = get_with(
            &app,
            &path,
            Some(&seat),
            &[("If-None-Match", "\"v999\", W/\"x\"")],
        )
        .await;
        assert_eq!(other.status, StatusCode::OK, "{path}");
    }

    // A move changes the version, so the old tag no longer matches.
    let before = etag(&get_with(&app, &format!("/v1/matches/{id}"), Some(&seat), &[]).await);
    let (token, mv, version) = a_legal_move(&app, &created).await;
    let moved = app
        .post_move(&id, Some(&token), Some(json!(version)), &mv)
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.body);
    let after = get_with(
        &app,
        &format!("/v1/matches/{id}"),
        Some(&seat),
        &[("If-None-Match", &before)],
    )
    .await;
    assert_eq!(after.status, StatusCode::OK);
    assert_ne!(etag(&after), before);
}

#[tokio::test]
async fn if_match_guards_a_move_like_expected_version_but_answers_412() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let moves = format!("/v1/matches/{id}/moves");
    let (token, mv, version) = a_legal_move(&app, &created).await;

    let stale = post_with(
        &app,
        &moves,
        &json!({"move": mv}),
        &token,
        &format!("\"v{}\"", version - 1),
    )
    .await;
    assert_eq!(
        stale.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        stale.body
    );
    assert_eq!(stale.body["code"], "precondition_failed");
    assert_eq!(stale.body["params"]["current"], version);
    let foreign = post_with(&app, &moves, &json!({"move": mv}), &token, "\"abc\"").await;
    assert_eq!(foreign.status, StatusCode::PRECONDITION_FAILED);
    let contradictory = post_with(
        &app,
        &moves,
        &json!({"move": mv, "expected_version": version + 1}),
        &token,
        &format!("\"v{version}\""),
    )
    .await;
    assert_eq!(contradictory.status, StatusCode::BAD_REQUEST);
    assert_eq!(contradictory.body["code"], "conflicting_preconditions");
    let read = app.read_match(&id, None).await.body;
    assert_eq!(read["version"], version, "nothing refused was played");

    let current = etag(&get_with(&app, &format!("/v1/matches/{id}"), Some(&token), &[]).await);
    let played = post_with(&app, &moves, &json!({"move": mv}), &token, &current).await;
    assert_eq!(played.status, StatusCode::OK, "{}", played.body);
    // `*` only asks that the match exist; a stale body version stays a 409.
    let (token, mv, version) = a_legal_move(&app, &created).await;
    let stale_body = post_with(
        &app,
        &moves,
        &json!({"move": mv, "expected_version": version - 1}),
        &token,
        "*",
    )
    .await;
    assert_eq!(stale_body.status, StatusCode::CONFLICT);
    assert_eq!(stale_body.body["code"], "stale_version");
}

#[tokio::test]
async fn a_sheet_has_an_etag_and_takes_if_match_on_entries() {
    let app = spawn_app().await;
    let reply = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": [{"name": "Mum"}, {"name": "Dad"}], "options": {"rounds": 3}}),
            None,
        )
        .await;
    let id = reply.body["sheet"]["id"].as_str().unwrap().to_owned();
    let token = owner_token(&reply.body);
    let path = format!("/v1/sheets/{id}");
    let read = get_with(&app, &path, None, &[]).await;
    let tag = etag(&read);
    assert!(tag.starts_with("\"v0-"), "{tag}");
    let unchanged = get_with(&app, &path, None, &[("If-None-Match", &tag)]).await;
    assert_eq!(unchanged.status, StatusCode::NOT_MODIFIED);

    let entries = format!("{path}/entries");
    let entry = json!({"tally": {"jackpot": null}});
    let stale = post_with(&app, &entries, &entry, &token, "\"v3\"").await;
    assert_eq!(
        stale.status,
        StatusCode::PRECONDITION_FAILED,
        "{}",
        stale.body
    );
    let fresh = post_with(&app, &entries, &entry, &token, &tag).await;
    assert_eq!(fresh.status, StatusCode::OK, "{}", fresh.body);
    let changed = get_with(&app, &path, None, &[("If-None-Match", &tag)]).await;
    assert_eq!(changed.status, StatusCode::OK);
    assert!(etag(&changed).starts_with("\"v1-"));
    // The bare version is accepted by If-Match too: only the version is compared.
    let next = post_with(&app, &entries, &entry, &token, "\"v1\"").await;
    assert_eq!(next.status, StatusCode::OK, "{}", next.body);
}
