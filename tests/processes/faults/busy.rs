//! A database in trouble: a held lock, a slow statement, a database that cannot write.

use std::time::{Duration, Instant};

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use reqwest::StatusCode;

use super::requests::{assert_retryable_503, call, first_move, host, lock_row};
use crate::parts::*;

/// Sends a move on a match whose row the test holds locked: the service, configured by `env`,
/// must give up with a `503 database_busy` well before the client's patience runs out, and the
/// same move must succeed once the lock is released.
async fn move_on_a_locked_row(env: &[(&str, &str)], what: &str) {
    let database = SharedServerDatabase::new();
    let database_url = database.url();
    let service = Service::spawn_with(&database_url, env);
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(15))
        .build()
        .unwrap();
    service.wait_ready(&client).await;
    let created = host(&client, &service.base).await;
    let mut locker = lock_row(&database_url, &created).await;

    let started = Instant::now();
    let answer = call(first_move(&client, &service.base, &created)).await;
    let waited = started.elapsed();
    assert_retryable_503(answer, "database_busy", what);
    assert!(
        waited < Duration::from_secs(5),
        "{what}: the refusal took {waited:?}"
    );

    locker.batch_execute("COMMIT").await.unwrap();
    let response = first_move(&client, &service.base, &created)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{what}: the retry");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_on_a_row_locked_by_another_session_answers_503_within_the_lock_timeout() {
    move_on_a_locked_row(
        &[
            ("DATABASE_LOCK_TIMEOUT_MS", "500"),
            ("DATABASE_STATEMENT_TIMEOUT_MS", "60000"),
        ],
        "a move waiting for a row lock",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_statement_past_the_statement_timeout_answers_503() {
    // No lock timeout: the statement waiting for the lock is ended by the statement timeout.
    move_on_a_locked_row(
        &[
            ("DATABASE_LOCK_TIMEOUT_MS", "0"),
            ("DATABASE_STATEMENT_TIMEOUT_MS", "500"),
        ],
        "a move past the statement timeout",
    )
    .await;
}

/// Sets whether the database's new sessions are read-only, and ends the service's sessions so
/// that its pool reconnects under the new default (as after a fail-over to a standby).
async fn set_read_only(database: &SharedServerDatabase, read_only: bool) {
    // From another database: a session of a read-only database could not undo it.
    let url = format!("{}/postgres", shared_server());
    let mut conn = AsyncPgConnection::establish(&url).await.unwrap();
    let setting = if read_only { "on" } else { "off" };
    conn.batch_execute(&format!(
        "ALTER DATABASE {name} SET default_transaction_read_only = {setting}; \
         SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'",
        name = database.name
    ))
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_and_moves_answer_503_while_the_database_cannot_write() {
    let database = SharedServerDatabase::new();
    let service = Service::spawn(&database.url());
    let client = reqwest::Client::builder()
        .timeout(PATIENCE)
        .build()
        .unwrap();
    service.wait_ready(&client).await;
    let created = host(&client, &service.base).await;

    set_read_only(&database, true).await;
    // The first request may meet a session that was just ended; every later one a read-only one.
    let _ = call(client.get(format!("{}/readyz", service.base))).await;
    for attempt in 0..5 {
        let answer = call(client.get(format!("{}/readyz", service.base))).await;
        assert_retryable_503(
            answer,
            "database_unavailable",
            &format!("readiness {attempt} of a read-only database"),
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let answer = call(first_move(&client, &service.base, &created)).await;
    assert_retryable_503(
        answer,
        "database_unavailable",
        "a move on a read-only database",
    );

    set_read_only(&database, false).await;
    service.wait_ready(&client).await;
    let response = first_move(&client, &service.base, &created)
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "a move once writable again"
    );
}
