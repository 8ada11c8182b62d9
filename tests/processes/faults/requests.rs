//! One request at a time: an answer as the fault tests classify it, a match hosted and its first
//! move, and a row lock held by the test (with the wait for a move to queue behind it).

use std::time::{Duration, Instant};

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::parts::*;

pub(crate) enum Answer {
    Http {
        status: StatusCode,
        retry_after: Option<String>,
        content_type: String,
        body: Value,
    },
    /// No HTTP answer; `true` if the connection could not even be made.
    Transport(bool, String),
    /// An answer cut short: the server began it and did not finish it.
    Truncated(String),
}

pub(crate) async fn call(request: reqwest::RequestBuilder) -> Answer {
    match request.send().await {
        Ok(response) => {
            let status = response.status();
            let header = |name| {
                response
                    .headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned)
            };
            let retry_after = header(reqwest::header::RETRY_AFTER);
            let content_type = header(reqwest::header::CONTENT_TYPE).unwrap_or_default();
            match response.text().await {
                Ok(text) => Answer::Http {
                    status,
                    retry_after,
                    content_type,
                    body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
                },
                Err(e) => Answer::Truncated(format!("{status}, then {e}")),
            }
        }
        Err(e) => Answer::Transport(e.is_connect(), format!("{e:?}")),
    }
}

/// Whether a non-2xx answer is the documented "database unavailable" one.
pub(crate) fn is_unavailable(
    status: StatusCode,
    retry_after: &Option<String>,
    content_type: &str,
) -> bool {
    status == StatusCode::SERVICE_UNAVAILABLE
        && retry_after
            .as_deref()
            .is_some_and(|s| s.parse::<u32>().is_ok())
        && content_type.starts_with("application/problem+json")
}

/// Hosts a Lucky Jack match on the service; returns the creation answer.
pub(crate) async fn host(client: &reqwest::Client, base: &str) -> Value {
    let response = client
        .post(format!("{base}/v1/matches"))
        .json(&json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    response.json().await.unwrap()
}

/// The first move of a match just created: the seat to act draws.
pub(crate) fn first_move(
    client: &reqwest::Client,
    base: &str,
    created: &Value,
) -> reqwest::RequestBuilder {
    let id = created["match"]["id"].as_str().unwrap();
    let seat = created["match"]["to_act"][0].as_u64().unwrap() as usize;
    client
        .post(format!("{base}/v1/matches/{id}/moves"))
        .bearer_auth(created["seat_tokens"][seat]["token"].as_str().unwrap())
        .json(&json!({"expected_version": created["match"]["version"], "move": {"type": "draw"}}))
}

/// A session of the test's own holding a match's row lock, as a long transaction elsewhere would;
/// the lock is held until the session commits or goes.
pub(crate) async fn lock_row(database_url: &str, created: &Value) -> AsyncPgConnection {
    let id = created["match"]["id"].as_str().unwrap();
    let mut locker = AsyncPgConnection::establish(database_url).await.unwrap();
    locker
        .batch_execute(&format!(
            "BEGIN; SELECT 1 FROM matches WHERE id = '{id}' FOR UPDATE"
        ))
        .await
        .unwrap();
    locker
}

/// Asserts an answer is the documented retryable 503 with this code.
pub(crate) fn assert_retryable_503(answer: Answer, code: &str, what: &str) {
    match answer {
        Answer::Http {
            status,
            retry_after,
            content_type,
            body,
        } => {
            assert!(
                is_unavailable(status, &retry_after, &content_type),
                "{what}: {status} retry-after={retry_after:?} content-type={content_type:?} {body}"
            );
            assert_eq!(body["code"], code, "{what}: {body}");
        }
        Answer::Transport(_, error) | Answer::Truncated(error) => panic!("{what}: {error}"),
    }
}

/// Waits (bounded) until a session of the database waits for a match's row lock, to lock it or
/// to update it (the load's moves never wait for one: each client plays its own matches).
pub(crate) async fn wait_for_lock_waiter(database_url: &str) {
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Waiting {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    // Not the locking session: within a transaction pg_stat_activity keeps its first snapshot.
    let mut conn = AsyncPgConnection::establish(database_url).await.unwrap();
    let deadline = Instant::now() + PATIENCE;
    loop {
        let waiting: Vec<Waiting> = diesel::sql_query(
            "SELECT count(*) AS n FROM pg_stat_activity \
             WHERE datname = current_database() AND wait_event_type = 'Lock' \
             AND query ILIKE '%update%'",
        )
        .load(&mut conn)
        .await
        .unwrap();
        if waiting[0].n > 0 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the held move never reached its lock"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
