//! Many instances on one database (issue 18): three real `referee` processes share a PostgreSQL
//! database, as they would behind a load balancer, and clients send every request to one of
//! them at random. Each instance caches matches and batches writes on its own, so its caches go
//! stale and moves race; what must hold is checked afterwards in the database and on the live
//! streams.

use crate::audit;
use crate::parts::*;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt as _;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// How long the clients drive the matches at most (a match that ends earlier stops sooner).
const DRIVING: Duration = Duration::from_secs(20);
/// Moves acknowledged per match after which its clients stop, so random play ends in time.
const MOVES_PER_MATCH: usize = 100;
/// Clients per match, each reading and moving through random instances: they race.
const CLIENTS_PER_MATCH: usize = 2;

/// A move the service acknowledged with a 2xx.
#[derive(Debug, Clone)]
struct Ack {
    /// The ply the move took in the match's log (the version it was sent at, plus one).
    ply: i64,
    seat: u64,
    mv: Value,
    /// The match's version after the move (and any chance it triggered).
    version: i64,
    instance: usize,
}

/// A hosted match and what its clients were told about it.
struct Hosted {
    id: String,
    game: &'static str,
    owner: String,
    seats: Vec<String>,
    /// The version the creation was acknowledged at.
    created_version: i64,
    acks: Mutex<Vec<Ack>>,
    /// Answers no race explains (a 5xx, a refused legal move, no answer at all).
    failures: Mutex<Vec<String>>,
    /// Answers a race explains: 409 `stale_version` and `match_finished`.
    conflicts: Mutex<usize>,
}

/// What the matches are: every game, Lucky Jack twice, each dealt by the service.
fn matches_to_host() -> Vec<(&'static str, Value, usize)> {
    vec![
        // Short rounds: this one is meant to end while played, so its streams end too.
        (
            "lucky-jack",
            json!({"rounds": 3, "max_turns_per_round": 4}),
            2,
        ),
        (
            "lucky-jack",
            json!({"rounds": 3, "max_turns_per_round": 20}),
            3,
        ),
        ("luck-plus", json!({}), 3),
        ("lucky-dice", json!({}), 2),
        ("plus-minus", json!({"rounds": 1}), 3),
        ("lucky-luau", json!({}), 2),
    ]
}

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(uuid::Uuid::new_v4().as_u128() as u64)
}

fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// An answer: status and JSON body, or what went wrong on the way.
async fn send(request: reqwest::RequestBuilder) -> Result<(StatusCode, Value), String> {
    let response = request
        .send()
        .await
        .map_err(|e| format!("no answer: {e}"))?;
    let status = response.status();
    let text = response
        .text()
        .await
        .map_err(|e| format!("{status}, cut short: {e}"))?;
    Ok((
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    ))
}

/// One client of one match: reads the match through a random instance, picks a random legal
/// move of a random seat to act, sends it through another random instance; until the match is
/// over, it has its moves, or time is up.
async fn drive(hosted: Arc<Hosted>, bases: Arc<Vec<String>>, until: Instant) {
    let client = reqwest::Client::builder()
        .timeout(PATIENCE)
        .build()
        .unwrap();
    let mut rng = rng();
    let fail = |what: String| hosted.failures.lock().unwrap().push(what);
    while Instant::now() < until && hosted.acks.lock().unwrap().len() < MOVES_PER_MATCH {
        let base = &bases[pick(&mut rng, bases.len())];
        let seen = send(
            client
                .get(format!("{base}/v1/matches/{}", hosted.id))
                .bearer_auth(&hosted.owner),
        )
        .await;
        let seen = match seen {
            Ok((StatusCode::OK, body)) => body,
            Ok((status, body)) => return fail(format!("read: {status} {body}")),
            Err(e) => return fail(format!("read: {e}")),
        };
        if seen["status"] != "in_progress" {
            return;
        }
        let Some(to_act) = seen["to_act"].as_array().filter(|a| !a.is_empty()) else {
            return fail(format!("nobody may act in {seen}"));
        };
        let seat = to_act[pick(&mut rng, to_act.len())].as_u64().unwrap();
        let base = &bases[pick(&mut rng, bases.len())];
        let mine = match send(
            client
                .get(format!("{base}/v1/matches/{}", hosted.id))
                .bearer_auth(&hosted.seats[seat as usize]),
        )
        .await
        {
            Ok((StatusCode::OK, body)) => body,
            Ok((status, body)) => return fail(format!("seat read: {status} {body}")),
            Err(e) => return fail(format!("seat read: {e}")),
        };
        let legal = mine["view"]["legal_moves"].as_array().cloned();
        let Some(legal) = legal.filter(|moves| !moves.is_empty()) else {
            // Another client moved in between: this seat has nothing to do now.
            continue;
        };
        let mv = legal[pick(&mut rng, legal.len())].clone();
        let expected = mine["version"].as_i64().unwrap();
        let instance = pick(&mut rng, bases.len());
        let what = format!(
            "move {mv} by seat {seat} at version {expected} of {} ({}) on instance {instance}",
            hosted.id, hosted.game
        );
        let answer = send(
            client
                .post(format!(
                    "{}/v1/matches/{}/moves",
                    bases[instance], hosted.id
                ))
                .bearer_auth(&hosted.seats[seat as usize])
                .json(&json!({"expected_version": expected, "move": mv})),
        )
        .await;
        match answer {
            Ok((StatusCode::OK, reply)) => {
                let entries = reply["entries"].as_array().map_or(0, Vec::len) as i64;
                let version = reply["version"].as_i64().unwrap_or(-1);
                if entries == 0 || version != expected + entries {
                    fail(format!("{what}: odd reply {reply}"));
                }
                hosted.acks.lock().unwrap().push(Ack {
                    ply: expected + 1,
                    seat,
                    mv,
                    version,
                    instance,
                });
            }
            Ok((StatusCode::CONFLICT, body))
                if body["code"] == "stale_version" || body["code"] == "match_finished" =>
            {
                *hosted.conflicts.lock().unwrap() += 1;
            }
            // Anything else is a failure: a move legal at the version it names must be taken.
            Ok((status, body)) => fail(format!("{what}: {status} {body}")),
            Err(e) => fail(format!("{what}: {e}")),
        }
    }
}

/// What a live stream delivered: the version of each entry, in order, and how it ended.
#[derive(Default, Debug)]
struct Seen {
    entry_versions: Vec<i64>,
    ended: bool,
    /// Errors, malformed events, a stream closed by the server before the end.
    problems: Vec<String>,
}

/// Reads a match's SSE stream from version 0 (every entry) until the server ends it or the test
/// drops the task.
async fn follow(base: String, id: String, owner: String, seen: Arc<Mutex<Seen>>) {
    let client = reqwest::Client::new();
    let response = client
        .get(format!("{base}/v1/matches/{id}/stream?after=0"))
        .bearer_auth(owner)
        .header(reqwest::header::ACCEPT, "text/event-stream")
        .send()
        .await;
    let response = match response {
        Ok(response) if response.status() == StatusCode::OK => response,
        Ok(response) => {
            let status = response.status();
            let body = response.text().await.unwrap_or_default();
            seen.lock()
                .unwrap()
                .problems
                .push(format!("opened with {status}: {body}"));
            return;
        }
        Err(e) => {
            seen.lock().unwrap().problems.push(format!("open: {e}"));
            return;
        }
    };
    let mut body = response.bytes_stream();
    let mut buffer = String::new();
    while let Some(chunk) = body.next().await {
        let chunk = match chunk {
            Ok(chunk) => chunk,
            Err(e) => {
                seen.lock().unwrap().problems.push(format!("read: {e}"));
                return;
            }
        };
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        // An SSE event ends with a blank line; `data:` holds the event as JSON.
        while let Some(end) = buffer.find("\n\n") {
            let event: String = buffer.drain(..end + 2).collect();
            let Some(data) = event.lines().find_map(|line| line.strip_prefix("data: ")) else {
                continue; // a heartbeat comment
            };
            let mut seen = seen.lock().unwrap();
            let Ok(data) = serde_json::from_str::<Value>(data) else {
                seen.problems.push(format!("not JSON: {data}"));
                continue;
            };
            match data["type"].as_str() {
                Some("entry") => seen.entry_versions.push(data["version"].as_i64().unwrap()),
                Some("end") => {
                    seen.ended = true;
                    return;
                }
                Some("view") | Some("heartbeat") => {}
                _ => seen.problems.push(format!("unexpected event {data}")),
            }
        }
    }
    let mut seen = seen.lock().unwrap();
    if !seen.ended {
        seen.problems
            .push("closed by the server before the end".into());
    }
}

/// Requirement (issue 18): instances behind a load balancer lose and misread nothing.
///
/// Three instances on one database; several matches of every game, each played by two clients
/// at once with random legal moves, every request to a random instance, and live streams open
/// on random instances. Afterwards: every acknowledged move is in the log once, at its ply, and
/// the log holds no move nobody was told about; every snapshot equals its replay; every stream
/// delivered every version of its match, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_instances_on_one_database_lose_nothing_when_requests_land_on_any_of_them() {
    let database = SharedServerDatabase::new();
    let database_url = database.url();
    let client = reqwest::Client::builder()
        .timeout(PATIENCE)
        .build()
        .unwrap();
    // The first instance creates and migrates the database; the others then find it ready.
    let mut services = vec![Service::spawn(&database_url)];
    services[0].wait_ready(&client).await;
    services.push(Service::spawn(&database_url));
    services.push(Service::spawn(&database_url));
    for service in &services {
        service.wait_ready(&client).await;
    }
    let bases: Arc<Vec<String>> = Arc::new(services.iter().map(|s| s.base.clone()).collect());
    let mut rng = rng();

    let mut hosted = Vec::new();
    for (game, options, players) in matches_to_host() {
        let seats: Vec<Value> = ["Ann", "Ben", "Cy", "Di"][..players]
            .iter()
            .map(|name| json!({"name": name}))
            .collect();
        let base = &bases[pick(&mut rng, bases.len())];
        let (status, created) = send(client.post(format!("{base}/v1/matches")).json(&json!({
            "game": game, "seats": seats, "options": options, "randomness": "server"
        })))
        .await
        .unwrap();
        assert_eq!(status, StatusCode::CREATED, "{game}: {created}");
        hosted.push(Arc::new(Hosted {
            id: created["match"]["id"].as_str().unwrap().to_owned(),
            game,
            owner: created["owner_token"].as_str().unwrap().to_owned(),
            seats: created["seat_tokens"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["token"].as_str().unwrap().to_owned())
                .collect(),
            created_version: created["match"]["version"].as_i64().unwrap(),
            acks: Mutex::default(),
            failures: Mutex::default(),
            conflicts: Mutex::default(),
        }));
    }

    // A live stream on every match, on a random instance, and a second one on the first match
    // on another instance; all open before play starts.
    let mut streams = Vec::new();
    let first = pick(&mut rng, bases.len());
    let followed = (0..hosted.len())
        .map(|index| (index, pick(&mut rng, bases.len())))
        .chain([(0, (first + 1) % bases.len())]);
    for (index, instance) in followed {
        let hosted = &hosted[index];
        let seen = Arc::new(Mutex::new(Seen::default()));
        let task = tokio::spawn(follow(
            bases[instance].clone(),
            hosted.id.clone(),
            hosted.owner.clone(),
            seen.clone(),
        ));
        streams.push((index, instance, seen, task));
    }

    let until = Instant::now() + DRIVING;
    let mut clients = Vec::new();
    for hosted in &hosted {
        for _ in 0..CLIENTS_PER_MATCH {
            clients.push(tokio::spawn(drive(hosted.clone(), bases.clone(), until)));
        }
    }
    for client in clients {
        client.await.unwrap();
    }

    // What the database holds, match by match.
    let stored = stored_logs(&database_url).await;
    let mut summary = Vec::new();
    for hosted in &hosted {
        let failures = hosted.failures.lock().unwrap();
        assert!(
            failures.is_empty(),
            "{} ({}): answers no race explains:\n{}",
            hosted.id,
            hosted.game,
            failures.join("\n")
        );
        let acks = hosted.acks.lock().unwrap();
        let (version, moves) = &stored[&hosted.id];
        // Every acknowledged move is stored at its ply, as sent; and every stored move was
        // acknowledged (a move stored twice, or stored unanswered, shows up as one too many).
        let mut acked: BTreeMap<i64, &Ack> = BTreeMap::new();
        for ack in acks.iter() {
            assert!(
                acked.insert(ack.ply, ack).is_none(),
                "{}: two moves acknowledged at ply {}",
                hosted.id,
                ack.ply
            );
            let stored = moves
                .get(&ack.ply)
                .unwrap_or_else(|| panic!("{}: acknowledged {ack:?} is not in the log", hosted.id));
            assert_eq!(stored, &(ack.seat as i32, ack.mv.clone()), "{ack:?}");
        }
        assert_eq!(
            moves.keys().collect::<Vec<_>>(),
            acked.keys().collect::<Vec<_>>(),
            "{}: the moves stored vs the moves acknowledged",
            hosted.id
        );
        // Nothing else writes to these matches: the last acknowledgement is the stored version.
        let last = acks
            .iter()
            .map(|a| a.version)
            .max()
            .unwrap_or(hosted.created_version);
        assert_eq!(
            last, *version,
            "{}: the last acknowledged version vs the stored one",
            hosted.id
        );
        let instances: std::collections::BTreeSet<usize> =
            acks.iter().map(|a| a.instance).collect();
        summary.push(format!(
            "{} {} moves (through instances {instances:?}), {} conflicts, version {version}",
            hosted.game,
            acks.len(),
            hosted.conflicts.lock().unwrap()
        ));
    }
    audit::audit_snapshots(&database_url).await;

    // Every stream saw every version of its match, in order, up to the last one.
    for (index, instance, seen, task) in streams {
        let hosted = &hosted[index];
        let version = stored[&hosted.id].0;
        let deadline = Instant::now() + PATIENCE;
        loop {
            {
                let seen = seen.lock().unwrap();
                if seen.ended
                    || !seen.problems.is_empty()
                    || seen.entry_versions.last() >= Some(&version)
                {
                    break;
                }
            }
            assert!(
                Instant::now() < deadline,
                "{}: the stream on instance {instance} did not reach version {version}: {:?}",
                hosted.id,
                seen.lock().unwrap()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        task.abort();
        let seen = seen.lock().unwrap();
        assert!(
            seen.problems.is_empty(),
            "{} ({}): the stream on instance {instance}: {:?}",
            hosted.id,
            hosted.game,
            seen.problems
        );
        assert_eq!(
            seen.entry_versions,
            (1..=version).collect::<Vec<_>>(),
            "{} ({}): the stream on instance {instance} skipped, repeated or reordered a version",
            hosted.id,
            hosted.game
        );
        summary.push(format!(
            "stream of {} on instance {instance}: versions 1..={version}{}",
            hosted.game,
            if seen.ended { ", then its end" } else { "" }
        ));
    }
    eprintln!("scaling:\n  {}", summary.join("\n  "));
}

/// Per match: its stored version, and its moves (ply → seat and move; chance has no seat).
async fn stored_logs(database_url: &str) -> HashMap<String, (i64, BTreeMap<i64, (i32, Value)>)> {
    use diesel_async::{AsyncConnection, AsyncPgConnection};
    use referee::store::matches as q;
    let mut conn = AsyncPgConnection::establish(database_url).await.unwrap();
    let mut logs = HashMap::new();
    let ids: Vec<uuid::Uuid> = {
        use diesel::QueryDsl;
        use diesel_async::RunQueryDsl;
        use referee::store::schema::matches;
        matches::table
            .select(matches::id)
            .load(&mut conn)
            .await
            .unwrap()
    };
    for id in ids {
        let events = q::events(&mut conn, id).await.unwrap();
        // The log is the truth: its last ply is the match's version.
        let version = events.last().map_or(0, |e| e.ply);
        let moves = events
            .into_iter()
            .filter_map(|e| e.seat.map(|seat| (e.ply, (seat, e.payload))))
            .collect();
        logs.insert(id.to_string(), (version, moves));
    }
    logs
}
