//! Fault tests: the real service binary, driven over HTTP by concurrent clients, while its
//! PostgreSQL goes away and comes back, and while it is told to stop.
//!
//! The outage test runs its own private PostgreSQL cluster (so it can stop it without disturbing
//! the shared server other tests use); the SIGTERM test uses its own database on the shared
//! server.

// Test code: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod audit;
mod processes;

use processes::*;

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use reqwest::StatusCode;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------
// Load: clients hosting Lucky Jack matches and playing them

/// A move the service acknowledged with a 2xx.
#[derive(Debug, Clone)]
struct Ack {
    id: String,
    /// The ply of the move in the match's log.
    ply: i64,
    seat: u64,
    mv: Value,
}

/// What one client saw.
#[derive(Default)]
struct Record {
    /// Matches whose creation was acknowledged.
    created: Vec<String>,
    acks: Vec<Ack>,
    /// The newest version each match was acknowledged at (creation or move).
    acknowledged_version: HashMap<String, i64>,
    /// 503 answers (each checked to carry `Retry-After` and a problem document).
    unavailable: usize,
    /// Answers no fault explains: a 500, a 503 without `Retry-After`, a refused move...
    unexpected: Vec<String>,
    /// Requests that got no HTTP answer: (failed while connecting, what).
    transport_errors: Vec<(bool, String)>,
}

struct Load {
    base: String,
    stop: AtomicBool,
    acks: AtomicUsize,
    /// Set when the service is told to stop; answers received after it are counted.
    signalled: AtomicBool,
    answers_after_signal: AtomicUsize,
    /// Whether a request without an HTTP answer ends the client (after SIGTERM) or is unexpected.
    transport_error_ends_client: bool,
}

/// A match a client plays: its id, tokens and the newest view of it.
struct Playing {
    id: String,
    owner: String,
    seats: Vec<String>,
    last: Value,
    /// The last answer was not a 2xx: reload before moving again.
    stale: bool,
}

enum Answer {
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

async fn call(request: reqwest::RequestBuilder) -> Answer {
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
fn is_unavailable(status: StatusCode, retry_after: &Option<String>, content_type: &str) -> bool {
    status == StatusCode::SERVICE_UNAVAILABLE
        && retry_after
            .as_deref()
            .is_some_and(|s| s.parse::<u32>().is_ok())
        && content_type.starts_with("application/problem+json")
}

impl Load {
    /// Hosts matches and plays them (`draw`, then `keep` while a drawn card is pending) until
    /// told to stop.
    async fn client(self: Arc<Self>) -> Record {
        let client = reqwest::Client::builder()
            .timeout(PATIENCE)
            .build()
            .unwrap();
        let mut record = Record::default();
        let mut playing: Option<Playing> = None;
        while !self.stop.load(Ordering::Relaxed) {
            // What the request is, the (seat, move) it submits if any, and its answer.
            let (what, sent, answer) = match &mut playing {
                Some(game) if game.last["status"] == "finished" => {
                    playing = None;
                    continue;
                }
                None => {
                    let body = json!({"game": "lucky-jack",
                                      "seats": [{"name": "Ann"}, {"name": "Ben"}],
                                      "options": {"max_turns_per_round": 60}});
                    let request = client.post(format!("{}/v1/matches", self.base)).json(&body);
                    ("create".to_owned(), None, call(request).await)
                }
                Some(game) if game.stale => {
                    let request = client
                        .get(format!("{}/v1/matches/{}", self.base, game.id))
                        .bearer_auth(&game.owner);
                    (format!("reload {}", game.id), None, call(request).await)
                }
                Some(game) => {
                    let seat = game.last["to_act"][0].as_u64().expect("a seat acts");
                    let mv = if game.last["view"]["drawn_card_pending"] == true {
                        json!({"type": "keep"})
                    } else {
                        json!({"type": "draw"})
                    };
                    let body = json!({"expected_version": game.last["version"], "move": mv});
                    let request = client
                        .post(format!("{}/v1/matches/{}/moves", self.base, game.id))
                        .bearer_auth(&game.seats[seat as usize])
                        .json(&body);
                    (
                        format!(
                            "move {mv} at version {} of {}",
                            game.last["version"], game.id
                        ),
                        Some((seat, mv)),
                        call(request).await,
                    )
                }
            };
            let (status, retry_after, content_type, body) = match answer {
                Answer::Http {
                    status,
                    retry_after,
                    content_type,
                    body,
                } => {
                    if self.signalled.load(Ordering::Relaxed) {
                        self.answers_after_signal.fetch_add(1, Ordering::Relaxed);
                    }
                    (status, retry_after, content_type, body)
                }
                Answer::Transport(connect, error) => {
                    record
                        .transport_errors
                        .push((connect, format!("{what}: {error}")));
                    if self.transport_error_ends_client {
                        break;
                    }
                    record
                        .unexpected
                        .push(format!("{what}: no answer: {error}"));
                    if let Some(game) = &mut playing {
                        game.stale = true;
                    }
                    continue;
                }
                Answer::Truncated(error) => {
                    record
                        .unexpected
                        .push(format!("{what}: truncated answer: {error}"));
                    if self.transport_error_ends_client {
                        break;
                    }
                    if let Some(game) = &mut playing {
                        game.stale = true;
                    }
                    continue;
                }
            };
            match (&mut playing, status) {
                (None, StatusCode::CREATED) => {
                    let id = body["match"]["id"].as_str().expect("an id").to_owned();
                    let seats = body["seat_tokens"]
                        .as_array()
                        .expect("seat tokens")
                        .iter()
                        .map(|t| t["token"].as_str().expect("a token").to_owned())
                        .collect();
                    record.created.push(id.clone());
                    record
                        .acknowledged_version
                        .insert(id.clone(), body["match"]["version"].as_i64().unwrap());
                    playing = Some(Playing {
                        id,
                        owner: body["owner_token"]
                            .as_str()
                            .expect("owner token")
                            .to_owned(),
                        seats,
                        last: body["match"].clone(),
                        stale: false,
                    });
                }
                (Some(game), StatusCode::OK) if game.stale => {
                    game.last = body;
                    game.stale = false;
                }
                (Some(game), StatusCode::OK) => {
                    let version = body["version"].as_i64().expect("a version");
                    let entries = body["entries"].as_array().expect("entries");
                    let first = &entries[0];
                    let expected = game.last["version"].as_i64().unwrap();
                    if version != expected + entries.len() as i64
                        || first["ply"].as_i64() != Some(expected + 1)
                    {
                        record.unexpected.push(format!("{what}: odd reply {body}"));
                    }
                    let (seat, mv) = sent.expect("a move was sent");
                    record.acks.push(Ack {
                        id: game.id.clone(),
                        ply: expected + 1,
                        seat,
                        mv,
                    });
                    record.acknowledged_version.insert(game.id.clone(), version);
                    self.acks.fetch_add(1, Ordering::Relaxed);
                    game.last = body;
                }
                (_, StatusCode::SERVICE_UNAVAILABLE)
                    if is_unavailable(status, &retry_after, &content_type) =>
                {
                    record.unavailable += 1;
                    if let Some(game) = &mut playing {
                        // The move may or may not have been stored: reload to learn which.
                        game.stale = true;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                _ => {
                    record.unexpected.push(format!(
                        "{what}: {status} retry-after={retry_after:?} content-type={content_type:?} {body}"
                    ));
                    if let Some(game) = &mut playing {
                        game.stale = true;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
        record
    }

    /// Waits (bounded) until `more` further moves have been acknowledged.
    async fn wait_for_acks(&self, more: usize, what: &str) {
        let target = self.acks.load(Ordering::Relaxed) + more;
        let deadline = Instant::now() + PATIENCE;
        while self.acks.load(Ordering::Relaxed) < target {
            assert!(
                Instant::now() < deadline,
                "{what}: only {} of {target} moves acknowledged after {PATIENCE:?}",
                self.acks.load(Ordering::Relaxed)
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

fn start_load(
    base: &str,
    clients: usize,
    transport_error_ends_client: bool,
) -> (Arc<Load>, Vec<tokio::task::JoinHandle<Record>>) {
    let load = Arc::new(Load {
        base: base.to_owned(),
        stop: AtomicBool::new(false),
        acks: AtomicUsize::new(0),
        signalled: AtomicBool::new(false),
        answers_after_signal: AtomicUsize::new(0),
        transport_error_ends_client,
    });
    let handles = (0..clients)
        .map(|_| tokio::spawn(load.clone().client()))
        .collect();
    (load, handles)
}

async fn finish_load(load: &Load, handles: Vec<tokio::task::JoinHandle<Record>>) -> Record {
    load.stop.store(true, Ordering::Relaxed);
    let mut all = Record::default();
    for handle in handles {
        let record = tokio::time::timeout(PATIENCE * 2, handle)
            .await
            .expect("a load client stops")
            .expect("a load client does not panic");
        all.created.extend(record.created);
        all.acks.extend(record.acks);
        all.acknowledged_version.extend(record.acknowledged_version);
        all.unavailable += record.unavailable;
        all.unexpected.extend(record.unexpected);
        all.transport_errors.extend(record.transport_errors);
    }
    all
}

/// Every acknowledged creation and move is in the database, as acknowledged.
async fn assert_acknowledged_are_stored(database_url: &str, record: &Record) {
    use referee::store::matches as q;
    let mut conn = AsyncPgConnection::establish(database_url).await.unwrap();
    let mut logs = HashMap::new();
    for id in &record.created {
        let uuid: uuid::Uuid = id.parse().unwrap();
        assert!(
            q::find(&mut conn, uuid).await.unwrap().is_some(),
            "match {id} was acknowledged as created but is not stored"
        );
        logs.insert(id.clone(), q::events(&mut conn, uuid).await.unwrap());
    }
    for ack in &record.acks {
        let log = &logs[&ack.id];
        let event = log
            .iter()
            .find(|e| e.ply == ack.ply)
            .unwrap_or_else(|| panic!("acknowledged move {ack:?} is not in the log"));
        assert_eq!(event.seat, Some(ack.seat as i32), "{ack:?}");
        assert_eq!(event.payload, ack.mv, "{ack:?}");
    }
}

/// Nothing was stored that its client was not told about: every match in the database was
/// acknowledged as created, and stands at the version its last acknowledgement gave.
async fn assert_nothing_stored_unacknowledged(database_url: &str, record: &Record) {
    use diesel::QueryDsl;
    use diesel_async::RunQueryDsl;
    use referee::store::schema::matches;
    let mut conn = AsyncPgConnection::establish(database_url).await.unwrap();
    let stored: Vec<(uuid::Uuid, i64)> = matches::table
        .select((matches::id, matches::version))
        .load(&mut conn)
        .await
        .unwrap();
    let created: BTreeSet<&String> = record.created.iter().collect();
    for (id, version) in &stored {
        let id = id.to_string();
        assert!(
            created.contains(&id),
            "match {id} is stored but its creation was never acknowledged"
        );
        assert_eq!(
            record.acknowledged_version[&id], *version,
            "match {id}: stored version vs the last acknowledged one (a move was stored unanswered)"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The outage

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

// ---------------------------------------------------------------------------------------------
// SIGTERM

/// Waits (bounded) until a session of the database waits for a match's row lock, to lock it or
/// to update it (the load's moves never wait for one: each client plays its own matches).
async fn wait_for_lock_waiter(database_url: &str) {
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

// ---------------------------------------------------------------------------------------------
// A database in trouble: a held lock, a slow statement, a database that cannot write

/// Hosts a Lucky Jack match on the service; returns the creation answer.
async fn host(client: &reqwest::Client, base: &str) -> Value {
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
fn first_move(client: &reqwest::Client, base: &str, created: &Value) -> reqwest::RequestBuilder {
    let id = created["match"]["id"].as_str().unwrap();
    let seat = created["match"]["to_act"][0].as_u64().unwrap() as usize;
    client
        .post(format!("{base}/v1/matches/{id}/moves"))
        .bearer_auth(created["seat_tokens"][seat]["token"].as_str().unwrap())
        .json(&json!({"expected_version": created["match"]["version"], "move": {"type": "draw"}}))
}

/// A session of the test's own holding a match's row lock, as a long transaction elsewhere would;
/// the lock is held until the session commits or goes.
async fn lock_row(database_url: &str, created: &Value) -> AsyncPgConnection {
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
fn assert_retryable_503(answer: Answer, code: &str, what: &str) {
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

// ---------------------------------------------------------------------------------------------
// Logs

/// What a secret may look like in a log line: as text, in hex, and as the decimal bytes a driver
/// prints for a bind parameter (`[104, 101, ...]`), which is how tokio-postgres logs them.
fn spellings(secret: &[u8]) -> Vec<String> {
    let decimal = format!("{secret:?}");
    let mut all = vec![
        hex::encode(secret),
        hex::encode_upper(secret),
        decimal.trim_matches(['[', ']']).to_owned(),
    ];
    if let Ok(text) = std::str::from_utf8(secret) {
        all.push(text.to_owned());
    }
    all
}

/// Every hand in a stored state (the arrays under `hands`), as the state's JSON spells it.
fn hands_in(state: &Value, found: &mut BTreeSet<String>) {
    match state {
        Value::Object(fields) => {
            for (name, value) in fields {
                match (name.as_str(), value) {
                    ("hands", Value::Array(hands)) => found.extend(
                        hands
                            .iter()
                            .filter(|hand| hand.as_array().is_some_and(|cards| cards.len() >= 3))
                            .map(Value::to_string),
                    ),
                    _ => hands_in(value, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| hands_in(item, found)),
        _ => {}
    }
}

/// Plays a server-seeded Lucky Jack match to its end on the service, every move with an
/// `Idempotency-Key`; returns the secrets it met: (what, spellings), each of which the log must
/// not show. Hands are read from the stored state while the match runs.
async fn play_with_secrets(
    client: &reqwest::Client,
    base: &str,
    database_url: &str,
) -> Vec<(String, Vec<String>)> {
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Stored {
        #[diesel(sql_type = diesel::sql_types::Jsonb)]
        state: Value,
    }
    let created: Value = client
        .post(format!("{base}/v1/matches"))
        .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
        .json(
            &json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}],
                      "options": {"max_turns_per_round": 20}, "randomness": "server"}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["match"]["id"].as_str().unwrap().to_owned();
    let mut tokens = vec![created["owner_token"].as_str().unwrap().to_owned()];
    tokens.extend(
        created["seat_tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["token"].as_str().unwrap().to_owned()),
    );
    let mut conn = AsyncPgConnection::establish(database_url).await.unwrap();
    let mut keys = Vec::new();
    let mut hands = BTreeSet::new();
    let mut last = created["match"].clone();
    for _ in 0..3000 {
        if last["status"] == "finished" {
            break;
        }
        let stored: Stored =
            diesel::sql_query(format!("SELECT state FROM matches WHERE id = '{id}'"))
                .get_result(&mut conn)
                .await
                .unwrap();
        hands_in(&stored.state, &mut hands);
        let seat = last["to_act"][0].as_u64().expect("a seat acts") as usize;
        let mine: Value = client
            .get(format!("{base}/v1/matches/{id}"))
            .bearer_auth(&tokens[1 + seat])
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let mv = if mine["view"]["drawn_card_pending"] == true {
            json!({"type": "keep"})
        } else {
            json!({"type": "draw"})
        };
        let key = uuid::Uuid::new_v4().simple().to_string();
        let response = client
            .post(format!("{base}/v1/matches/{id}/moves"))
            .bearer_auth(&tokens[1 + seat])
            .header("Idempotency-Key", &key)
            .json(&json!({"expected_version": mine["version"], "move": mv}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{mv}");
        keys.push(key);
        last = response.json().await.unwrap();
    }
    let finished: Value = client
        .get(format!("{base}/v1/matches/{id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(finished["status"], "finished", "the match did not end");
    let seed = hex::decode(finished["seed"].as_str().expect("the seed, revealed")).unwrap();
    assert!(!hands.is_empty(), "no hand was read from the stored state");

    let mut secrets = vec![("the seed".to_owned(), spellings(&seed))];
    for token in &tokens {
        secrets.push((format!("token {token}"), spellings(token.as_bytes())));
        let hash = referee::tokens::hash(token);
        secrets.push((format!("the hash of token {token}"), spellings(&hash)));
    }
    for key in keys {
        secrets.push((format!("idempotency key {key}"), spellings(key.as_bytes())));
    }
    for hand in hands {
        secrets.push((format!("hand {hand}"), spellings(hand.as_bytes())));
    }
    secrets
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_log_level_prints_a_seed_a_hidden_hand_a_token_its_hash_or_an_idempotency_key() {
    // Everything; and debug with a directive that asks for the driver's bind parameters by name.
    for filter in ["trace", "debug,tokio_postgres::query=trace"] {
        let database = SharedServerDatabase::new();
        let service = Service::spawn_with(&database.url(), &[("RUST_LOG", filter)]);
        let client = reqwest::Client::builder()
            .timeout(PATIENCE)
            .build()
            .unwrap();
        service.wait_ready(&client).await;
        let secrets = play_with_secrets(&client, &service.base, &database.url()).await;
        // Let the last lines reach the file.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let log = std::fs::read_to_string(&service.log).unwrap();
        let verbose = log
            .lines()
            .filter(|line| line.contains("DEBUG") || line.contains("TRACE"))
            .count();
        // At debug nothing of ours or of the HTTP stack speaks; at trace they do.
        assert!(
            filter != "trace" || verbose > 50,
            "RUST_LOG={filter}: the log is not verbose, so proves nothing:\n{log}"
        );
        for (what, spellings) in &secrets {
            for spelling in spellings {
                if let Some(at) = log.find(spelling.as_str()) {
                    let line_start = log[..at].rfind('\n').map_or(0, |i| i + 1);
                    let line_end = log[at..].find('\n').map_or(log.len(), |i| at + i);
                    panic!(
                        "RUST_LOG={filter}: the log shows {what} as {spelling:?}:\n{}",
                        &log[line_start..line_end.min(line_start + 2000)]
                    );
                }
            }
        }
    }
}
