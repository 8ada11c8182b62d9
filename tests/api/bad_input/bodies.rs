//! Bodies that are not JSON at all, nest too deep or are too large.

use reqwest::StatusCode;

use super::{assert_problem, post_raw, running_match};
use crate::support::spawn_app;

#[tokio::test]
async fn truncated_and_malformed_bodies_are_bad_requests_on_every_json_endpoint() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    let paths = [
        format!("/v1/matches/{}/moves", m.id),
        format!("/v1/matches/{}/chance", m.id),
        format!("/v1/matches/{}/take-backs", m.id),
        format!("/v1/matches/{}/corrections", m.id),
        "/v1/games/lucky-jack/states".to_owned(),
        "/v1/games/lucky-jack/check".to_owned(),
        "/v1/games/lucky-jack/chance".to_owned(),
        "/v1/games/lucky-jack/legal-moves".to_owned(),
        "/v1/games/lucky-jack/score".to_owned(),
        "/v1/games/lucky-jack/view".to_owned(),
        "/v1/games/lucky-jack/tally".to_owned(),
        "/v1/sheets".to_owned(),
    ];
    for path in &paths {
        for body in [
            "",
            "{",
            "{\"move\": {\"type\": \"dr",
            "[1, 2,",
            "{\"a\" 1}",
            "{'single': 'quotes'}",
            "{\"a\": 1} trailing",
            "\u{feff}{}",
            "\u{ff}\u{fe}",
        ] {
            let reply = post_raw(&app, path, body.to_owned(), Some(&m.seat0)).await;
            assert_problem(
                &reply,
                StatusCode::BAD_REQUEST,
                "malformed_body",
                &format!("{path} {body:?}"),
            );
        }
        let invalid_utf8 = post_raw(
            &app,
            path,
            vec![b'{', b'"', 0xff, 0xfe, b'"', b'}'],
            Some(&m.seat0),
        )
        .await;
        assert_problem(
            &invalid_utf8,
            StatusCode::BAD_REQUEST,
            "malformed_body",
            &format!("{path} invalid UTF-8"),
        );
    }
}

#[tokio::test]
async fn ten_thousand_nested_arrays_are_a_bad_request_not_a_stack_overflow() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    let deep =
        |depth: usize, inner: &str| format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth));
    for (path, body) in [
        ("/v1/matches".to_owned(), deep(10_000, "")),
        (
            format!("/v1/matches/{}/moves", m.id),
            format!("{{\"move\": {}}}", deep(10_000, "1")),
        ),
        (
            "/v1/games/lucky-jack/states".to_owned(),
            format!("{{\"players\": 2, \"options\": {}}}", deep(10_000, "")),
        ),
        (
            "/v1/games/lucky-jack/score".to_owned(),
            format!(
                "{{\"state\": {}}}",
                "{\"a\":".repeat(10_000) + "1" + &"}".repeat(10_000)
            ),
        ),
    ] {
        let reply = post_raw(&app, &path, body, Some(&m.seat0)).await;
        assert_problem(
            &reply,
            StatusCode::BAD_REQUEST,
            "malformed_body",
            &format!("{path} nested"),
        );
    }
    // The server is still up.
    assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK);
}

#[tokio::test]
async fn oversized_bodies_are_refused_with_413_on_every_json_endpoint() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    let big = format!("{{\"pad\": \"{}\"}}", "x".repeat(70 * 1024));
    for path in [
        format!("/v1/matches/{}/moves", m.id),
        format!("/v1/matches/{}/corrections", m.id),
        "/v1/games/lucky-jack/check".to_owned(),
        "/v1/games/plus-minus/tally".to_owned(),
        "/v1/sheets".to_owned(),
    ] {
        let reply = post_raw(&app, &path, big.clone(), Some(&m.seat0)).await;
        assert_problem(
            &reply,
            StatusCode::PAYLOAD_TOO_LARGE,
            "body_too_large",
            &path,
        );
    }
}
