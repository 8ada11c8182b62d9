//! The outage: PostgreSQL stopped under load, cleanly and as a crash, and started again.

use std::time::{Duration, Instant};

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::load::{assert_acknowledged_are_stored, finish_load, start_load, Ack};
use super::requests::{assert_retryable_503, call, is_unavailable, wait_for_lock_waiter, Answer};
use crate::audit;
use crate::parts::*;

/// Asserts the service answers while PostgreSQL is down: match endpoints 503 with `Retry-After`
/// and a problem document, stateless endpoints 200.
async fn assert_degraded(client: &reqwest::Client, base: &str, probe: &Value) {
    let id = probe["match"]["id"].as_str().unwrap();
    let owner = probe["owner_token"].as_str().unwrap();
    let seat = probe["match"]["to_act"][0].as_u64().unwrap() as usize;
    let seat_token = probe["seat_tokens"][seat]["token"].as_str().unwrap();
    let match_requests = [
        (
            "create",
            client.post(format!("{base}/v1/matches")).json(&json!({
                "game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}]})),
        ),
        (
            "move",
            client
                .post(format!("{base}/v1/matches/{id}/moves"))
                .bearer_auth(seat_token)
                .json(&json!({"expected_version": probe["match"]["version"],
                              "move": {"type": "draw"}})),
        ),
        (
            "read",
            client
                .get(format!("{base}/v1/matches/{id}"))
                .bearer_auth(owner),
        ),
        (
            "log",
            client
                .get(format!("{base}/v1/matches/{id}/log"))
                .bearer_auth(owner),
        ),
        ("list", client.get(format!("{base}/v1/matches"))),
        ("readiness", client.get(format!("{base}/readyz"))),
    ];
    for (what, request) in match_requests {
        assert_retryable_503(
            call(request).await,
            "database_unavailable",
            &format!("{what} while PostgreSQL is down"),
        );
    }

    let setup = client
        .post(format!("{base}/v1/games/lucky-jack/states"))
        .json(&json!({"players": 2, "seed": "07".repeat(32)}))
        .send()
        .await
        .unwrap();
    assert_eq!(setup.status(), StatusCode::OK, "stateless setup while down");
    let setup: Value = setup.json().await.unwrap();
    let check = client
        .post(format!("{base}/v1/games/lucky-jack/check"))
        .json(&json!({"state": setup["state"], "seat": setup["to_act"][0],
                      "move": {"type": "draw"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(check.status(), StatusCode::OK, "stateless check while down");
    for path in ["/healthz", "/v1/games/lucky-jack"] {
        let response = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path} while down");
    }
}

/// Waits (bounded) until a match can be created again; until then only 503s are acceptable.
async fn wait_recovered(client: &reqwest::Client, base: &str) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let request = client
            .post(format!("{base}/v1/matches"))
            .json(&json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}]}));
        match call(request).await {
            Answer::Http {
                status: StatusCode::CREATED,
                ..
            } => return,
            Answer::Http {
                status,
                retry_after,
                content_type,
                body,
            } => assert!(
                is_unavailable(status, &retry_after, &content_type),
                "while PostgreSQL comes back: {status} {body}"
            ),
            Answer::Transport(_, error) | Answer::Truncated(error) => {
                panic!("while PostgreSQL comes back: {error}")
            }
        }
        assert!(
            Instant::now() < deadline,
            "the service did not recover within {PATIENCE:?} of PostgreSQL's restart"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Stops PostgreSQL while a move on the probe match waits inside its transaction (behind a row
/// lock the test takes): the move must get the documented 503, or a 200 if it slipped through
/// before the stop, never a 500 or no answer. Returns the move if it was acknowledged.
async fn stop_with_a_move_in_flight(
    cluster: &PrivateCluster,
    mode: &str,
    client: &reqwest::Client,
    base: &str,
    probe: &Value,
) -> Option<Ack> {
    let id = probe["match"]["id"].as_str().unwrap().to_owned();
    let owner = probe["owner_token"].as_str().unwrap();
    let current: Value = client
        .get(format!("{base}/v1/matches/{id}"))
        .bearer_auth(owner)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let seat = current["to_act"][0].as_u64().unwrap();
    let mv = if current["view"]["drawn_card_pending"] == true {
        json!({"type": "keep"})
    } else {
        json!({"type": "draw"})
    };
    let database_url = cluster.url("referee");
    let mut locker = AsyncPgConnection::establish(&database_url).await.unwrap();
    locker
        .batch_execute(&format!(
            "BEGIN; SELECT 1 FROM matches WHERE id = '{id}' FOR UPDATE"
        ))
        .await
        .unwrap();
    let held = call(
        client
            .post(format!("{base}/v1/matches/{id}/moves"))
            .bearer_auth(
                probe["seat_tokens"][seat as usize]["token"]
                    .as_str()
                    .unwrap(),
            )
            .json(&json!({"expected_version": current["version"], "move": mv})),
    );
    let held = tokio::spawn(held);
    wait_for_lock_waiter(&database_url).await;
    cluster.stop(mode);
    let answer = tokio::time::timeout(PATIENCE, held)
        .await
        .expect("the move in flight is answered")
        .unwrap();
    match answer {
        Answer::Http {
            status: StatusCode::OK,
            body,
            ..
        } => {
            assert_eq!(
                body["entries"][0]["ply"],
                current["version"].as_i64().unwrap() + 1
            );
            Some(Ack {
                id,
                ply: current["version"].as_i64().unwrap() + 1,
                seat,
                mv,
            })
        }
        Answer::Http {
            status,
            retry_after,
            content_type,
            body,
        } => {
            assert!(
                is_unavailable(status, &retry_after, &content_type),
                "a move in flight when PostgreSQL stopped ({mode}): {status} \
                 retry-after={retry_after:?} content-type={content_type:?} {body}"
            );
            None
        }
        Answer::Transport(_, error) | Answer::Truncated(error) => {
            panic!("a move in flight when PostgreSQL stopped ({mode}): {error}")
        }
    }
}

/// Requirement: "a test that stops PostgreSQL during load and starts it again: while it is down
/// the match endpoints answer 503 with Retry-After and the stateless ones keep working;
/// afterwards the service recovers without a restart; every move that was acknowledged is in the
/// log and every stored snapshot equals its replay."
///
/// The service is started before PostgreSQL (it must get ready by itself), then PostgreSQL is
/// stopped twice under load: cleanly (`pg_ctl stop -m fast`) and as a crash
/// (`-m immediate`, recovered from the WAL on restart), so "acknowledged" must mean "committed";
/// each time one move is surely inside its transaction when PostgreSQL goes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_outage_during_load_answers_503_and_loses_no_acknowledged_move() {
    let cluster = PrivateCluster::init();
    let database_url = cluster.url("referee");
    // The move held in flight waits for a row lock until PostgreSQL stops, not for a timeout.
    let mut service = Service::spawn_with(&database_url, &[("DATABASE_LOCK_TIMEOUT_MS", "60000")]);
    let client = reqwest::Client::builder()
        .timeout(PATIENCE)
        .build()
        .unwrap();

    // The service starts before PostgreSQL does: degraded, then ready by itself.
    service.wait_listening(&client).await;
    let nowhere = json!({"match": {"id": uuid::Uuid::new_v4(), "to_act": [0], "version": 1},
                         "owner_token": "own_nothing", "seat_tokens": [{"token": "seat_nothing"}]});
    assert_degraded(&client, &service.base, &nowhere).await;
    cluster.start();
    wait_recovered(&client, &service.base).await;
    let probe: Value = client
        .post(format!("{}/v1/matches", service.base))
        .json(&json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();

    let (load, clients) = start_load(&service.base, 4, false);
    load.wait_for_acks(40, "before the first outage").await;
    let mut held_acks = Vec::new();
    for mode in ["fast", "immediate"] {
        let held = stop_with_a_move_in_flight(&cluster, mode, &client, &service.base, &probe);
        held_acks.extend(held.await);
        // Load keeps coming while PostgreSQL is down; probe each kind of endpoint meanwhile.
        for _ in 0..3 {
            assert_degraded(&client, &service.base, &probe).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        cluster.start();
        wait_recovered(&client, &service.base).await;
        load.wait_for_acks(40, &format!("after the {mode} outage"))
            .await;
    }
    let mut record = finish_load(&load, clients).await;
    let held_acknowledged = held_acks.len();
    record.acks.extend(held_acks);
    record
        .created
        .push(probe["match"]["id"].as_str().unwrap().to_owned());
    assert!(
        service.child.try_wait().unwrap().is_none(),
        "the service process ended during the outages"
    );

    assert!(
        record.unexpected.is_empty(),
        "answers no outage explains:\n{}",
        record.unexpected.join("\n")
    );
    assert!(
        record.unavailable > 0,
        "the load saw no 503 during the outages"
    );
    assert_acknowledged_are_stored(&database_url, &record).await;
    audit::audit_snapshots(&database_url).await;
    eprintln!(
        "outage: {} matches created, {} moves acknowledged, {} answers 503; \
         of the 2 moves held in flight, {held_acknowledged} acknowledged",
        record.created.len(),
        record.acks.len(),
        record.unavailable
    );
}
