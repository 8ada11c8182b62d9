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

fn cache_control(reply: &Reply) -> Option<&str> {
    reply
        .headers
        .get("cache-control")
        .map(|value| value.to_str().unwrap())
}

/// Issue 25, item 12: a read made with a token holds what only that token may see (a seat's
/// hand, an owner's draw pile), so no cache may keep it; nor the answer to a write, which may
/// hold new tokens.
#[tokio::test]
async fn answers_for_a_token_holder_and_to_writes_may_not_be_stored_by_any_cache() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let seat = seat_tokens(&created)[0].clone();
    let owner = owner_token(&created);
    for tail in ["", "/log", "/plies/0", "/stream?format=ndjson&after=0"] {
        let path = format!("/v1/matches/{id}{tail}");
        for token in [&seat, &owner] {
            let reply = if tail.contains("stream") {
                let response = app
                    .client
                    .get(format!("{}{path}", app.base))
                    .bearer_auth(token)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(response.status(), StatusCode::OK);
                assert_eq!(
                    response.headers()["cache-control"].to_str().unwrap(),
                    "private, no-store",
                    "{path}"
                );
                continue;
            } else {
                get_with(&app, &path, Some(token), &[]).await
            };
            assert_eq!(reply.status, StatusCode::OK, "{path}");
            assert_eq!(cache_control(&reply), Some("private, no-store"), "{path}");
        }
    }
    // A refusal to a token holder is private too: it says what that token may not do.
    let refused = get_with(&app, &format!("/v1/matches/{id}/export"), Some(&seat), &[]).await;
    assert!(refused.status.is_client_error());
    assert_eq!(cache_control(&refused), Some("private, no-store"));
    // Creating a match answers with its tokens.
    let body = json!({
        "game": "lucky-jack", "seats": [{"name": "Cy"}, {"name": "Di"}], "randomness": "server"
    });
    let created = app.post("/v1/matches", &body, None).await;
    assert_eq!(created.status, StatusCode::CREATED);
    assert_eq!(cache_control(&created), Some("private, no-store"));
    // What anyone may read, with no token, stays cacheable by its ETag.
    let public = get_with(&app, &format!("/v1/matches/{id}"), None, &[]).await;
    assert_eq!(public.status, StatusCode::OK);
    assert_eq!(cache_control(&public), None);
}

/// Issue 25, item 11: the docs page shares its origin with the table page, whose owner tokens
/// live in `localStorage`, so no other site may frame it, and it runs only its own scripts.
#[tokio::test]
async fn the_docs_page_refuses_framing_and_sends_a_content_security_policy() {
    let app = spawn_app().await;
    for path in [
        "/docs/",
        "/docs/swagger-initializer.js",
        "/docs/swagger-ui.css",
    ] {
        let reply = get_with(&app, path, None, &[]).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        let policy = reply.headers["content-security-policy"].to_str().unwrap();
        assert!(
            policy.contains("frame-ancestors 'none'"),
            "{path}: {policy}"
        );
        assert!(policy.contains("script-src 'self'"), "{path}: {policy}");
        assert!(!policy.contains("unsafe-eval"), "{path}: {policy}");
        assert_eq!(reply.headers["x-frame-options"], "DENY", "{path}");
    }
}
