//! Load: clients hosting Lucky Jack matches and playing them, and what the database must hold
//! afterwards (every acknowledged creation and move, nothing unacknowledged).

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel_async::{AsyncConnection, AsyncPgConnection};
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::requests::{call, is_unavailable, Answer};
use crate::parts::*;

/// A move the service acknowledged with a 2xx.
#[derive(Debug, Clone)]
pub(crate) struct Ack {
    pub(crate) id: String,
    /// The ply of the move in the match's log.
    pub(crate) ply: i64,
    pub(crate) seat: u64,
    pub(crate) mv: Value,
}

/// What one client saw.
#[derive(Default)]
pub(crate) struct Record {
    /// Matches whose creation was acknowledged.
    pub(crate) created: Vec<String>,
    pub(crate) acks: Vec<Ack>,
    /// The newest version each match was acknowledged at (creation or move).
    pub(crate) acknowledged_version: HashMap<String, i64>,
    /// 503 answers (each checked to carry `Retry-After` and a problem document).
    pub(crate) unavailable: usize,
    /// Answers no fault explains: a 500, a 503 without `Retry-After`, a refused move...
    pub(crate) unexpected: Vec<String>,
    /// Requests that got no HTTP answer: (failed while connecting, what).
    pub(crate) transport_errors: Vec<(bool, String)>,
}

pub(crate) struct Load {
    base: String,
    stop: AtomicBool,
    acks: AtomicUsize,
    /// Set when the service is told to stop; answers received after it are counted.
    pub(crate) signalled: AtomicBool,
    pub(crate) answers_after_signal: AtomicUsize,
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
    pub(crate) async fn wait_for_acks(&self, more: usize, what: &str) {
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

pub(crate) fn start_load(
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

pub(crate) async fn finish_load(
    load: &Load,
    handles: Vec<tokio::task::JoinHandle<Record>>,
) -> Record {
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
pub(crate) async fn assert_acknowledged_are_stored(database_url: &str, record: &Record) {
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
pub(crate) async fn assert_nothing_stored_unacknowledged(database_url: &str, record: &Record) {
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Stored {
        #[diesel(sql_type = diesel::sql_types::Uuid)]
        id: uuid::Uuid,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        version: i64,
    }
    let mut conn = AsyncPgConnection::establish(database_url).await.unwrap();
    // The log is the truth: a match's version is its last ply (its snapshot may be behind).
    let stored: Vec<Stored> = diesel::sql_query(
        "SELECT id, greatest(version, (SELECT max(ply) FROM match_events AS e \
                                       WHERE e.match_id = m.id)) AS version \
         FROM matches AS m",
    )
    .load(&mut conn)
    .await
    .unwrap();
    let created: BTreeSet<&String> = record.created.iter().collect();
    for Stored { id, version } in &stored {
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
