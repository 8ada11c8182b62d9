//! SIGTERM under load, with and without a drain period.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::load::{
    assert_acknowledged_are_stored, assert_nothing_stored_unacknowledged, finish_load, start_load,
    Ack, Record,
};
use super::requests::{first_move, host, is_unavailable, wait_for_lock_waiter};
use crate::audit;
use crate::parts::*;

/// Requirement: "SIGTERM during load: in-flight requests finish, nothing is half-written."
///
/// Clients keep playing until their request fails. One more move is surely in flight when the
/// signal comes: the test holds its match's row lock, so the move waits inside its transaction;
/// the process must not exit before the lock is released, and that move must then be answered
/// and stored. The process must exit successfully, a request may fail without an answer only if
/// it had no effect (it was never accepted: refused at connect once the listener closed, or sent
/// on a keep-alive connection the server was closing), every acknowledged move is stored, no
/// match holds a move nobody was told about, and every snapshot equals its replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_during_load_finishes_in_flight_requests_and_half_writes_nothing() {
    let database = SharedServerDatabase::new();
    let database_url = database.url();
    // The move held in flight waits for its row lock as long as the test holds it.
    let mut service = Service::spawn_with(&database_url, &[("DATABASE_LOCK_TIMEOUT_MS", "60000")]);
    let client = reqwest::Client::new();
    service.wait_ready(&client).await;

    let (load, clients) = start_load(&service.base, 6, true);
    load.wait_for_acks(60, "before SIGTERM").await;

    // A move held in flight: its match's row is locked by the test, so the move waits for it.
    let held: Value = client
        .post(format!("{}/v1/matches", service.base))
        .json(&json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let held_id = held["match"]["id"].as_str().unwrap().to_owned();
    let mut locker = AsyncPgConnection::establish(&database_url).await.unwrap();
    locker
        .batch_execute(&format!(
            "BEGIN; SELECT 1 FROM matches WHERE id = '{held_id}' FOR UPDATE"
        ))
        .await
        .unwrap();
    let held_seat = held["match"]["to_act"][0].as_u64().unwrap();
    let held_move = client
        .post(format!("{}/v1/matches/{held_id}/moves", service.base))
        .bearer_auth(
            held["seat_tokens"][held_seat as usize]["token"]
                .as_str()
                .unwrap(),
        )
        .json(&json!({"expected_version": held["match"]["version"], "move": {"type": "draw"}}))
        .send();
    let held_move = tokio::spawn(async move {
        let response = held_move.await.expect("the held move is answered");
        let status = response.status();
        (
            status,
            response.json::<Value>().await.expect("a whole JSON answer"),
        )
    });
    wait_for_lock_waiter(&database_url).await;

    load.signalled.store(true, Ordering::Relaxed);
    let signalled = Instant::now();
    service.terminate();
    // Graceful shutdown waits for the held move: the process stays up while the lock is held.
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(
        service.child.try_wait().unwrap().is_none(),
        "the service exited with a request in flight"
    );
    locker.batch_execute("COMMIT").await.unwrap();
    let status = service.wait_exit(PATIENCE).await;
    let exit_took = signalled.elapsed();
    assert!(status.success(), "the service exited with {status}");
    let (held_status, held_reply) = tokio::time::timeout(PATIENCE, held_move)
        .await
        .expect("the held move is answered")
        .unwrap();
    assert_eq!(held_status, StatusCode::OK, "the held move: {held_reply}");
    let mut record = finish_load(&load, clients).await;
    record.created.push(held_id.clone());
    record
        .acknowledged_version
        .insert(held_id.clone(), held_reply["version"].as_i64().unwrap());
    record.acks.push(Ack {
        id: held_id,
        ply: held["match"]["version"].as_i64().unwrap() + 1,
        seat: held_seat,
        mv: json!({"type": "draw"}),
    });

    assert!(
        record.unexpected.is_empty(),
        "answers no shutdown explains:\n{}",
        record.unexpected.join("\n")
    );
    assert_acknowledged_are_stored(&database_url, &record).await;

    assert_nothing_stored_unacknowledged(&database_url, &record).await;
    audit::audit_snapshots(&database_url).await;
    let unanswered: Vec<_> = record
        .transport_errors
        .iter()
        .filter(|(connect, _)| !connect)
        .collect();
    eprintln!(
        "sigterm: exit {exit_took:?} after the signal, {} answers after it, {} moves acknowledged; \
         {} requests refused at connect, {} unanswered: {unanswered:?}",
        load.answers_after_signal.load(Ordering::Relaxed),
        record.acks.len(),
        record.transport_errors.len() - unanswered.len(),
        unanswered.len()
    );
}

/// Requirement: behind a load balancer, SIGTERM first takes the instance out of rotation.
///
/// With a drain period, a stopping instance fails its readiness probe with `503 draining` (so
/// the balancer stops sending) but stays alive and keeps serving what still reaches it: a move
/// sent after the signal is accepted and stored, its answer closing the connection. Then the
/// process stops on its own, successfully.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_with_a_drain_period_fails_readiness_but_still_serves_then_exits_cleanly() {
    let database = SharedServerDatabase::new();
    let database_url = database.url();
    let mut service = Service::spawn_with(&database_url, &[("SHUTDOWN_DRAIN_SECONDS", "3")]);
    let client = reqwest::Client::builder()
        .timeout(PATIENCE)
        .build()
        .unwrap();
    service.wait_ready(&client).await;
    let created = host(&client, &service.base).await;

    service.terminate();
    // The signal is handled asynchronously: wait until readiness reflects it.
    let deadline = Instant::now() + PATIENCE;
    let (status, retry_after, content_type, body) = loop {
        let response = client
            .get(format!("{}/readyz", service.base))
            .send()
            .await
            .expect("the draining instance still answers");
        let status = response.status();
        if status != StatusCode::OK {
            let header = |name| {
                response
                    .headers()
                    .get(name)
                    .and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok())
                    .map(str::to_owned)
            };
            let retry_after = header(reqwest::header::RETRY_AFTER);
            let content_type = header(reqwest::header::CONTENT_TYPE).unwrap_or_default();
            break (
                status,
                retry_after,
                content_type,
                response.json::<Value>().await.unwrap(),
            );
        }
        assert!(
            Instant::now() < deadline,
            "readiness never failed after SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(
        is_unavailable(status, &retry_after, &content_type),
        "{status} retry-after={retry_after:?} content-type={content_type:?} {body}"
    );
    assert_eq!(body["code"], "draining", "{body}");

    // Still alive and serving: liveness holds, and a move is accepted.
    let health = client
        .get(format!("{}/healthz", service.base))
        .send()
        .await
        .expect("liveness answers while draining");
    assert_eq!(health.status(), StatusCode::OK);
    let response = first_move(&client, &service.base, &created)
        .send()
        .await
        .expect("a move is served while draining");
    assert_eq!(response.status(), StatusCode::OK, "a move while draining");
    // Keep-alive clients are told to reconnect (elsewhere, through the balancer).
    assert_eq!(
        response
            .headers()
            .get(reqwest::header::CONNECTION)
            .map(|v| v.as_bytes()),
        Some(&b"close"[..]),
        "answers while draining close their connection"
    );
    let reply: Value = response.json().await.unwrap();

    let status = service.wait_exit(PATIENCE).await;
    assert!(status.success(), "the service exited with {status}");
    let id = created["match"]["id"].as_str().unwrap().to_owned();
    let seat = created["match"]["to_act"][0].as_u64().unwrap();
    let record = Record {
        created: vec![id.clone()],
        acknowledged_version: HashMap::from([(id.clone(), reply["version"].as_i64().unwrap())]),
        acks: vec![Ack {
            id,
            ply: created["match"]["version"].as_i64().unwrap() + 1,
            seat,
            mv: json!({"type": "draw"}),
        }],
        ..Record::default()
    };
    assert_acknowledged_are_stored(&database_url, &record).await;
    assert_nothing_stored_unacknowledged(&database_url, &record).await;
}

/// Requirement: with no drain period, SIGTERM stops the process at once. An idle keep-alive
/// connection is closed rather than waited out (its keep-alive timeout is 5 s), and an open live
/// stream ends rather than holding the shutdown until its 30 s timeout; the bound here is 3 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_without_a_drain_exits_at_once_ending_streams_and_idle_connections() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let database = SharedServerDatabase::new();
    let mut service = Service::spawn(&database.url());
    let client = reqwest::Client::new();
    service.wait_ready(&client).await;
    let created = host(&client, &service.base).await;
    let id = created["match"]["id"].as_str().unwrap();
    let address = service.base.trim_start_matches("http://").to_owned();
    let mut answer = [0u8; 512];
    let mut opened = Vec::new();
    for path in ["/healthz".to_owned(), format!("/v1/matches/{id}/stream")] {
        let mut connection = tokio::net::TcpStream::connect(&address).await.unwrap();
        let request = format!("GET {path} HTTP/1.1\r\nHost: referee\r\n\r\n");
        connection.write_all(request.as_bytes()).await.unwrap();
        let read = connection.read(&mut answer).await.unwrap();
        assert!(
            answer[..read].starts_with(b"HTTP/1.1 200"),
            "{path}: {}",
            String::from_utf8_lossy(&answer[..read])
        );
        opened.push(connection);
    }

    service.terminate();
    let status = service.wait_exit(Duration::from_secs(3)).await;
    assert!(status.success(), "the service exited with {status}");
    for mut connection in opened {
        // Whatever the stream still had buffered, then the end.
        let closed = tokio::time::timeout(Duration::from_secs(1), async {
            loop {
                match connection.read(&mut answer).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => continue,
                }
            }
        })
        .await;
        assert!(closed.is_ok(), "the connection was closed, not left open");
    }
}
