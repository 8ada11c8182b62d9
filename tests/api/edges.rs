//! The HTTP edges: slow bodies, what the JSON and path parsers must not let through, protocol
//! errors, the rate limit behind a proxy, the bearer scheme, and one title per problem type.

use std::time::{Duration, Instant};

use referee::config::Network;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::{match_id, owner_token, spawn_app, spawn_app_with, Reply, TestApp};

fn assert_problem(reply: &Reply, status: StatusCode, code: &str, case: &str) {
    assert_eq!(reply.status, status, "{case}: {}", reply.body);
    assert_eq!(
        reply.headers["content-type"], "application/problem+json",
        "{case}"
    );
    assert_eq!(reply.body["code"], code, "{case}: {}", reply.body);
}

async fn post_text(app: &TestApp, path: &str, content_type: &str, body: &str) -> Reply {
    let request = app
        .client
        .post(format!("{}{path}", app.base))
        .header("content-type", content_type)
        .body(body.to_owned());
    app.send(request).await
}

/// Sends raw bytes on a new connection and returns everything the server answers until it closes
/// the connection or `within` passes.
async fn raw_exchange(app: &TestApp, request: &[u8], within: Duration) -> String {
    let mut stream = TcpStream::connect(app.base.trim_start_matches("http://"))
        .await
        .unwrap();
    // The server may answer (and close) before it has read all of a hostile request.
    let _ = stream.write_all(request).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(within, stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn a_body_sent_one_byte_a_second_is_refused_with_408_within_the_body_timeout() {
    let app = spawn_app_with(|s| s.body_timeout = Duration::from_secs(2)).await;
    let stream = TcpStream::connect(app.base.trim_start_matches("http://"))
        .await
        .unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let head = "POST /v1/games/lucky-jack/states HTTP/1.1\r\nHost: referee\r\n\
                Content-Type: application/json\r\nContent-Length: 100\r\n\r\n";
    writer.write_all(head.as_bytes()).await.unwrap();
    let started = Instant::now();
    let trickle = tokio::spawn(async move {
        for _ in 0..100 {
            if writer.write_all(b" ").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
    let mut answer = vec![0; 4096];
    let read = tokio::time::timeout(Duration::from_secs(8), reader.read(&mut answer))
        .await
        .expect("an answer before the client finishes its body")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..read]).into_owned();
    trickle.abort();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("application/problem+json"), "{answer}");
    assert!(answer.contains("\"code\":\"request_timeout\""), "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn duplicate_keys_and_numbers_out_of_range_are_bad_requests() {
    let app = spawn_app().await;
    let seats = r#"[{"name":"Ann"},{"name":"Ben"}]"#;
    let cases = [
        (
            "/v1/matches",
            format!(r#"{{"game":"nope","game":"lucky-jack","seats":{seats}}}"#),
        ),
        (
            "/v1/matches",
            r#"{"game":"lucky-jack","seats":[{"name":"Ann","name":"Zed"},{"name":"Ben"}]}"#
                .to_owned(),
        ),
        (
            "/v1/games/lucky-jack/states",
            r#"{"players":2,"players":3}"#.to_owned(),
        ),
        (
            "/v1/games/lucky-jack/states",
            r#"{"players":1e-400}"#.to_owned(),
        ),
        (
            "/v1/games/lucky-jack/states",
            r#"{"players":2e400}"#.to_owned(),
        ),
    ];
    for (path, body) in &cases {
        let reply = post_text(&app, path, "application/json", body).await;
        assert_problem(&reply, StatusCode::BAD_REQUEST, "malformed_body", body);
    }
    let fine = post_text(
        &app,
        "/v1/games/lucky-jack/states",
        "application/json",
        r#"{"players":2.0}"#,
    )
    .await;
    assert_eq!(fine.status, StatusCode::OK, "{}", fine.body);
}

#[tokio::test]
async fn a_charset_other_than_utf8_is_a_bad_request() {
    let app = spawn_app().await;
    let path = "/v1/games/lucky-jack/states";
    for content_type in [
        "application/json; charset=utf-16",
        "application/json;charset=ISO-8859-1",
    ] {
        let reply = post_text(&app, path, content_type, r#"{"players":2}"#).await;
        assert_problem(
            &reply,
            StatusCode::BAD_REQUEST,
            "unsupported_charset",
            content_type,
        );
    }
    for content_type in ["application/json; charset=UTF-8", "application/json"] {
        let reply = post_text(&app, path, content_type, r#"{"players":2}"#).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{content_type}: {}",
            reply.body
        );
    }
}

#[tokio::test]
async fn a_path_segment_that_is_not_utf8_once_decoded_is_a_bad_request() {
    let app = spawn_app().await;
    let reply = app.get("/v1/players/%FF%FE/stats", None).await;
    assert_problem(&reply, StatusCode::BAD_REQUEST, "invalid_path", "%FF%FE");
    let fine = app.get("/v1/players/Z%C3%B6e/stats", None).await;
    assert_eq!(fine.status, StatusCode::OK, "{}", fine.body);
}

/// actix-http answers these itself, before any application code runs, with an empty body and no
/// hook to change it: they are checked to be refused, not held, and not to harm later requests.
#[tokio::test]
async fn protocol_errors_are_refused_and_the_service_keeps_answering() {
    let app = spawn_app().await;
    let long_uri = format!(
        "GET /v1/games?{} HTTP/1.1\r\nHost: r\r\n\r\n",
        "a".repeat(70_000)
    );
    let many_headers = format!(
        "GET /v1/games HTTP/1.1\r\nHost: r\r\n{}\r\n",
        (0..200)
            .map(|i| format!("X-H{i}: v\r\n"))
            .collect::<String>()
    );
    let cases = [
        (
            "two Content-Lengths",
            "POST /v1/games/lucky-jack/states HTTP/1.1\r\nHost: r\r\nContent-Type: application/json\r\n\
             Content-Length: 13\r\nContent-Length: 14\r\n\r\n{\"players\":2}"
                .to_owned(),
        ),
        ("a 70 KB URI", long_uri),
        ("200 headers", many_headers),
    ];
    for (case, request) in &cases {
        let answer = raw_exchange(&app, request.as_bytes(), Duration::from_secs(5)).await;
        let status: u16 = answer
            .get(9..12)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{case}: no status line in {answer:?}"));
        assert!((400..500).contains(&status), "{case}: {answer}");
    }
    assert_eq!(app.get("/v1/games", None).await.status, StatusCode::OK);
}

/// A burst of two and nothing back for an hour: a third request inside a test is always
/// limited, however slow the machine (with one back per second, a loaded machine could take a
/// second between two requests and see the third pass).
fn limited(settings: &mut referee::config::Settings) {
    settings.rate_limit_refill = Some(std::time::Duration::from_secs(3600));
    settings.rate_limit_burst = 2;
}

#[tokio::test]
async fn health_checks_are_never_rate_limited() {
    let app = spawn_app_with(limited).await;
    for path in ["/healthz", "/readyz"] {
        for attempt in 0..10 {
            let reply = app.get(path, None).await;
            assert_ne!(
                reply.status,
                StatusCode::TOO_MANY_REQUESTS,
                "{path} #{attempt}"
            );
        }
    }
    // Everything else is limited, with its own title.
    let replies = [
        app.get("/v1/games", None).await,
        app.get("/v1/games", None).await,
        app.get("/v1/games", None).await,
    ];
    assert_problem(
        &replies[2],
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        "third",
    );
    assert_eq!(replies[2].body["title"], "Too many requests");
    assert!(replies[2].headers.contains_key("retry-after"));
}

async fn get_from(app: &TestApp, forwarded: (&str, &str)) -> StatusCode {
    let request = app
        .client
        .get(format!("{}/v1/games", app.base))
        .header(forwarded.0, forwarded.1);
    app.send(request).await.status
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_rate_limit() {
    let app = spawn_app_with(|s| {
        limited(s);
        s.trusted_proxies = vec!["127.0.0.0/8".parse::<Network>().unwrap()];
    })
    .await;
    let xff = "x-forwarded-for";
    assert_eq!(get_from(&app, (xff, "203.0.113.1")).await, StatusCode::OK);
    assert_eq!(get_from(&app, (xff, "203.0.113.1")).await, StatusCode::OK);
    assert_eq!(
        get_from(&app, (xff, "203.0.113.1")).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Another client behind the same proxy still has its burst.
    assert_eq!(
        get_from(&app, ("forwarded", "for=203.0.113.2")).await,
        StatusCode::OK
    );
    // A client cannot escape its bucket by prepending an address of its choosing.
    assert_eq!(
        get_from(&app, (xff, "198.51.100.1, 203.0.113.1")).await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn an_untrusted_peer_cannot_choose_its_rate_limit_bucket() {
    let app = spawn_app_with(limited).await;
    let xff = "x-forwarded-for";
    assert_eq!(get_from(&app, (xff, "203.0.113.1")).await, StatusCode::OK);
    assert_eq!(get_from(&app, (xff, "203.0.113.2")).await, StatusCode::OK);
    assert_eq!(
        get_from(&app, (xff, "203.0.113.3")).await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let path = format!("/v1/matches/{}/export", match_id(&created));
    let owner = owner_token(&created);
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let request = app
            .client
            .get(format!("{}{path}", app.base))
            .header("authorization", format!("{scheme} {owner}"));
        let reply = app.send(request).await;
        assert_eq!(reply.status, StatusCode::OK, "{scheme}: {}", reply.body);
    }
    let basic = app
        .client
        .get(format!("{}{path}", app.base))
        .header("authorization", format!("Basic {owner}"));
    assert_problem(
        &app.send(basic).await,
        StatusCode::UNAUTHORIZED,
        "invalid_token",
        "Basic",
    );
}

#[test]
fn no_two_problem_types_share_a_title() {
    let mut titles = std::collections::HashMap::new();
    for code in referee::problem::Code::ALL {
        let (code, title) = (code.as_str(), code.title());
        assert_eq!(referee::problem::title(code), title);
        if let Some(other) = titles.insert(title, code) {
            panic!("{code} and {other} share the title {title:?}");
        }
    }
    // A code without a listed title (a game's rule violation) is titled by its own words, which
    // are no listed title either.
    for code in [
        "card_not_in_hand",
        "stop_caller_cannot_roll",
        "not_next_player",
    ] {
        let title = referee::problem::title(code);
        assert!(!titles.contains_key(title.as_str()), "{code}: {title}");
    }
    assert_eq!(
        referee::problem::title("card_not_in_hand"),
        "Card not in hand"
    );
}

#[tokio::test]
async fn every_422_names_its_own_problem_in_its_title() {
    let app = spawn_app().await;
    let name = app
        .post(
            "/v1/matches",
            &json!({"game": "lucky-jack", "seats": [{"name": ""}, {"name": "Ben"}]}),
            None,
        )
        .await;
    let options = app
        .post(
            "/v1/matches",
            &json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}],
                    "options": {"hand_size": 0}}),
            None,
        )
        .await;
    let seats = app
        .post(
            "/v1/matches",
            &json!({"game": "lucky-jack", "seats": [{"name": "Ann"}]}),
            None,
        )
        .await;
    let mut seen: Vec<(Value, Value)> = Vec::new();
    for (reply, code, title) in [
        (
            &name,
            "invalid_player_name",
            "The player name is not allowed",
        ),
        (
            &seats,
            "player_count",
            "The number of players is not allowed",
        ),
    ] {
        assert_problem(reply, StatusCode::UNPROCESSABLE_ENTITY, code, code);
        assert_eq!(reply.body["title"], title);
        seen.push((reply.body["code"].clone(), reply.body["title"].clone()));
    }
    assert_ne!(
        options.body["title"], "The move breaks a rule of the game",
        "{}",
        options.body
    );
    assert_eq!(
        options.body["title"],
        referee::problem::title(options.body["code"].as_str().unwrap())
    );
}

#[tokio::test]
async fn connections_beyond_the_bound_wait_until_one_closes() {
    let app = spawn_app_with(|s| s.max_connections = 1).await;
    let address = app.base.trim_start_matches("http://").to_owned();
    // An idle connection takes the only place.
    let idle = TcpStream::connect(&address).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let request = || {
        app.client
            .get(format!("{}/healthz", app.base))
            .timeout(Duration::from_secs(1))
            .send()
    };
    assert!(request().await.is_err(), "a second connection was served");
    drop(idle);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let reply = request().await.expect("served once the first one closed");
    assert_eq!(reply.status(), StatusCode::OK);
}
