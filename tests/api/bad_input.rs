//! Bad input the other modules do not already send (see `errors.rs` and `stateless.rs`): each
//! case is a 4xx `application/problem+json` with a stable `code` and a readable `detail`, never a
//! 5xx, a panic or a dropped connection.

mod bodies;
mod fields;
mod inconsistent;
mod not_found;
mod values;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{match_id, owner_token, seat_token, seat_tokens, Reply, TestApp};

const SEED: &str = "00000000000000000000000000000000000000000000000000000000000000aa";

fn assert_problem(reply: &Reply, status: StatusCode, code: &str, case: &str) {
    assert_eq!(reply.status, status, "{case}: {}", reply.body);
    assert_eq!(
        reply.headers["content-type"], "application/problem+json",
        "{case}"
    );
    assert_eq!(reply.body["code"], code, "{case}: {}", reply.body);
    assert_eq!(reply.body["status"], status.as_u16(), "{case}");
    let detail = reply.body["detail"].as_str().unwrap_or_default();
    assert!(
        !detail.trim().is_empty() && detail.len() < 2_000,
        "{case}: a short readable detail, got {detail:?}"
    );
}

/// Posts raw bytes as JSON.
async fn post_raw(
    app: &TestApp,
    path: &str,
    body: impl Into<reqwest::Body>,
    token: Option<&str>,
) -> Reply {
    let mut request = app
        .client
        .post(format!("{}{path}", app.base))
        .header("content-type", "application/json")
        .body(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    app.send(request).await
}

struct Running {
    id: String,
    owner: String,
    seat0: String,
    seats: Vec<String>,
}

async fn running_match(app: &TestApp) -> Running {
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    Running {
        id: match_id(&created),
        owner: owner_token(&created),
        seat0: seat_token(&created, 0),
        seats: seat_tokens(&created),
    }
}

async fn seeded_state(app: &TestApp, game: &str, players: usize) -> Value {
    let reply = app
        .post(
            &format!("/v1/games/{game}/states"),
            &json!({"players": players, "seed": SEED}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{game}: {}", reply.body);
    reply.body["state"].clone()
}
