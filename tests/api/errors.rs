//! Every kind of bad input gets a 4xx problem document with a stable code, never a 500.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{match_id, seat_token, spawn_app, spawn_app_without_database, Reply};

fn assert_problem(reply: &Reply, status: StatusCode, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.headers["content-type"], "application/problem+json");
    assert_eq!(reply.body["code"], code, "{}", reply.body);
    assert_eq!(reply.body["status"], status.as_u16());
    assert!(reply.body["detail"].as_str().is_some_and(|d| !d.is_empty()));
}

#[tokio::test]
async fn malformed_truncated_and_mistyped_bodies_are_bad_requests() {
    let app = spawn_app().await;
    let url = format!("{}/v1/matches", app.base);
    for body in [
        "{\"game\": \"lucky-jack\", \"seats\": [",
        "not json",
        "{\"game\": \"lucky-jack\", \"seats\": [], \"colour\": \"red\"}",
        "{\"game\": \"lucky-jack\", \"seats\": \"Ann\"}",
        "{\"game\": \"chess\", \"seats\": [{\"name\": \"Ann\"}]}",
    ] {
        let reply = app
            .send(
                app.client
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(body),
            )
            .await;
        assert_problem(&reply, StatusCode::BAD_REQUEST, "malformed_body");
    }
    let text = app.send(app.client.post(&url).body("{}")).await;
    assert_problem(
        &text,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
    );
}

#[tokio::test]
async fn an_oversized_body_is_refused_with_413() {
    let app = spawn_app().await;
    let huge = json!({"game": "lucky-jack", "seats": [{"name": "x".repeat(100_000)}]});
    let reply = app.post("/v1/matches", &huge, None).await;
    assert_problem(&reply, StatusCode::PAYLOAD_TOO_LARGE, "body_too_large");
}

#[tokio::test]
async fn unknown_games_matches_and_routes_are_not_found_and_wrong_methods_are_405() {
    let app = spawn_app().await;
    assert_problem(
        &app.get("/v1/games/chess", None).await,
        StatusCode::NOT_FOUND,
        "unknown_game",
    );
    let id = uuid::Uuid::new_v4();
    assert_problem(
        &app.read_match(&id.to_string(), None).await,
        StatusCode::NOT_FOUND,
        "unknown_match",
    );
    assert_problem(
        &app.get("/v1/matches/not-a-uuid", None).await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    assert_problem(
        &app.get("/v1/nowhere", None).await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    let wrong = app
        .send(app.client.delete(format!("{}/v1/matches", app.base)))
        .await;
    assert_problem(&wrong, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
    assert_eq!(wrong.headers["allow"], "GET, POST");
    // Each game's check has a literal path of its own; a wrong method there is the same problem.
    let wrong = app.get("/v1/games/lucky-jack/check", None).await;
    assert_problem(&wrong, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
    assert_eq!(wrong.headers["allow"], "POST");
}

#[tokio::test]
async fn impossible_match_requests_are_unprocessable() {
    let app = spawn_app().await;
    let one = app
        .post(
            "/v1/matches",
            &json!({"game": "lucky-jack", "seats": [{"name": "Ann"}]}),
            None,
        )
        .await;
    assert_problem(&one, StatusCode::UNPROCESSABLE_ENTITY, "player_count");
    assert_eq!(one.body["params"]["min"], 2);
    let rounds = app
        .post("/v1/matches", &json!({"game": "lucky-jack", "seats": [{"name": "A"}, {"name": "B"}], "options": {"rounds": 4}}), None)
        .await;
    assert_problem(&rounds, StatusCode::UNPROCESSABLE_ENTITY, "invalid_options");
    assert_eq!(rounds.body["params"]["option"], "rounds");
    let unknown_option = app
        .post("/v1/matches", &json!({"game": "lucky-jack", "seats": [{"name": "A"}, {"name": "B"}], "options": {"colour": 1}}), None)
        .await;
    assert_problem(&unknown_option, StatusCode::BAD_REQUEST, "invalid_options");
    let nul = app
        .post(
            "/v1/matches",
            &json!({"game": "lucky-jack", "seats": [{"name": "A\u{0}"}, {"name": "B"}]}),
            None,
        )
        .await;
    assert_problem(
        &nul,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_player_name",
    );
    let huge_number = app
        .send(
            app.client
                .post(format!("{}/v1/games/lucky-jack/states", app.base))
                .header("content-type", "application/json")
                .body("{\"players\": 99999999999999999999999}"),
        )
        .await;
    assert_problem(&huge_number, StatusCode::BAD_REQUEST, "malformed_body");
}

#[tokio::test]
async fn an_illegal_move_names_its_rule_and_parameters() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = &match_id(&created);
    let seat = created["match"]["to_act"][0].as_u64().unwrap() as usize;
    let token = &seat_token(&created, seat);
    let keep = app
        .post_move(id, Some(token), None, &json!({"type": "keep"}))
        .await;
    assert_eq!(
        keep.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        keep.body
    );
    assert_eq!(keep.body["code"], "no_drawn_card");
    let unknown = app
        .post_move(id, Some(token), None, &json!({"type": "fly"}))
        .await;
    assert_problem(&unknown, StatusCode::BAD_REQUEST, "invalid_move");
}

#[tokio::test]
async fn without_a_database_match_endpoints_answer_503_and_stateless_ones_still_work() {
    let app = spawn_app_without_database().await;
    let create = app
        .post(
            "/v1/matches",
            &json!({"game": "lucky-jack", "seats": [{"name": "A"}, {"name": "B"}]}),
            None,
        )
        .await;
    assert_problem(
        &create,
        StatusCode::SERVICE_UNAVAILABLE,
        "database_unavailable",
    );
    assert_eq!(create.headers["retry-after"], "2");
    let ready = app.get("/readyz", None).await;
    assert_eq!(ready.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK);
    let setup = app
        .post("/v1/games/lucky-jack/states", &json!({"players": 2}), None)
        .await;
    assert_eq!(setup.status, StatusCode::OK);
}

#[tokio::test]
async fn the_docs_page_and_the_spec_are_served_without_internet() {
    let app = spawn_app().await;
    let spec = app.get("/openapi.json", None).await;
    assert_eq!(spec.status, StatusCode::OK);
    assert!(spec.body["paths"]["/v1/matches/{id}/moves"]["post"].is_object());
    let redirect = app.send(app.client.get(format!("{}/docs", app.base))).await;
    assert_eq!(
        redirect.status,
        StatusCode::OK,
        "the /docs redirect is followed"
    );
    let page = app.get("/docs/", None).await;
    assert!(page.body.as_str().unwrap().contains("swagger"));
    let script = app.get("/docs/swagger-ui-bundle.js", None).await;
    assert_eq!(
        script.status,
        StatusCode::OK,
        "the UI's script is served locally"
    );
    assert_eq!(app.get("/readyz", None).await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_client_over_its_rate_gets_429_with_retry_after() {
    let app = crate::support::spawn_app_with(|s| {
        // Nothing comes back during the test, however slow the machine.
        s.rate_limit_refill = Some(std::time::Duration::from_secs(3600));
        s.rate_limit_burst = 3;
    })
    .await;
    let mut statuses = Vec::new();
    let mut limited = None;
    for _ in 0..8 {
        let reply = app.get("/v1/games", None).await;
        statuses.push(reply.status);
        if reply.status == StatusCode::TOO_MANY_REQUESTS {
            limited = Some(reply);
        }
    }
    assert_eq!(&statuses[..3], &[StatusCode::OK; 3], "the burst passes");
    let limited = limited.expect("past the burst, requests are limited");
    assert_problem(&limited, StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    assert!(
        limited.headers["retry-after"]
            .to_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
            >= 1
    );
}

#[tokio::test]
async fn browsers_may_call_from_configured_origins_only() {
    let app = crate::support::spawn_app_with(|_| {}).await;
    let allowed = app
        .send(
            app.client
                .get(format!("{}/v1/games", app.base))
                .header("Origin", "https://companion.example"),
        )
        .await;
    assert_eq!(
        allowed.headers["access-control-allow-origin"],
        "https://companion.example"
    );
    let preflight = app
        .send(
            app.client
                .request(reqwest::Method::OPTIONS, format!("{}/v1/matches", app.base))
                .header("Origin", "https://companion.example")
                .header("Access-Control-Request-Method", "POST")
                .header(
                    "Access-Control-Request-Headers",
                    "authorization, content-type",
                ),
        )
        .await;
    assert!(preflight.status.is_success(), "{}", preflight.status);
    let other = app
        .send(
            app.client
                .get(format!("{}/v1/games", app.base))
                .header("Origin", "https://elsewhere.example"),
        )
        .await;
    assert!(other.headers.get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_moves_by_game_and_code() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = &match_id(&created);
    let seat = created["match"]["to_act"][0].as_u64().unwrap() as usize;
    let token = &seat_token(&created, seat);
    let keep = app
        .post_move(id, Some(token), None, &json!({"type": "keep"}))
        .await;
    assert_eq!(keep.body["code"], "no_drawn_card");
    app.post_move(id, Some(token), None, &json!({"type": "draw"}))
        .await;
    let metrics = app.get("/metrics", None).await;
    assert_eq!(metrics.status, StatusCode::OK);
    let text = metrics.body.as_str().unwrap().to_owned();
    for expected in [
        "referee_http_requests_total{endpoint=\"/v1/matches/{id}/moves\",method=\"POST\",status=\"422\"}",
        "referee_http_requests_duration_seconds_bucket{endpoint=\"/v1/matches\",method=\"POST\",status=\"201\"",
        "referee_moves_total{code=\"no_drawn_card\",game=\"lucky-jack\",outcome=\"rejected\"}",
        "referee_moves_total{code=\"\",game=\"lucky-jack\",outcome=\"accepted\"}",
        "referee_db_pool_connections{state=\"size\"}",
    ] {
        assert!(text.contains(expected), "missing {expected} in:\n{text}");
    }
}
