//! Load generator for `bench/load.sh`: drives one workload at a fixed concurrency for a fixed
//! time over loopback and prints one line of results.
//!
//!     cargo run --release --example load -- <echo|check|moves> <base_url> <concurrency> <seconds>
//!
//! - `echo`: POST a ~60-byte JSON body to the baseline server's `/echo`;
//! - `check`: POST a Lucky Jack state and a legal move to `/v1/games/lucky-jack/check`
//!   (stateless: parse, consistency check, referee, answer);
//! - `moves`: each worker hosts Lucky Jack matches and submits their moves one after another
//!   (`draw`, then `keep` while a drawn card is pending), each a stored transaction with
//!   `expected_version`; finished matches are replaced. Only the move submissions are counted.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

struct Tally {
    latencies: Vec<Duration>,
    errors: u64,
}

async fn post(client: &reqwest::Client, url: &str, body: &Value, token: Option<&str>) -> Value {
    let mut request = client.post(url).json(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status();
    let value: Value = response.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{url}: {status} {value}");
    value
}

/// The state and a legal move for the `check` workload.
async fn check_body(client: &reqwest::Client, base: &str) -> Value {
    let setup = post(
        client,
        &format!("{base}/v1/games/lucky-jack/states"),
        &json!({"players": 3, "seed": "07".repeat(32)}),
        None,
    )
    .await;
    let seat = setup["to_act"][0].clone();
    let moves = post(
        client,
        &format!("{base}/v1/games/lucky-jack/legal-moves"),
        &json!({"state": setup["state"], "seat": seat}),
        None,
    )
    .await;
    json!({"state": setup["state"], "seat": seat, "move": moves["moves"][0]})
}

/// A new two-player match: (id, seat tokens, the creation answer's `match`).
async fn new_match(client: &reqwest::Client, base: &str) -> (String, Vec<String>, Value) {
    let created = post(
        client,
        &format!("{base}/v1/matches"),
        &json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}],
                "options": {"max_turns_per_round": 60}}),
        None,
    )
    .await;
    let tokens = created["seat_tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .map(|t| t["token"].as_str().expect("token").to_owned())
        .collect();
    let id = created["match"]["id"].as_str().expect("id").to_owned();
    (id, tokens, created["match"].clone())
}

async fn worker(mode: String, base: String, deadline: Instant) -> Tally {
    let client = reqwest::Client::new();
    let mut tally = Tally {
        latencies: Vec::new(),
        errors: 0,
    };
    match mode.as_str() {
        "echo" => {
            let body = json!({"seat": 1, "move": {"type": "discard", "card": "bell"}, "v": 3});
            let url = format!("{base}/echo");
            while Instant::now() < deadline {
                let started = Instant::now();
                match client.post(&url).json(&body).send().await {
                    Ok(r) if r.status().is_success() => {
                        let _ = r.bytes().await;
                        tally.latencies.push(started.elapsed());
                    }
                    _ => tally.errors += 1,
                }
            }
        }
        "check" => {
            let body = check_body(&client, &base).await;
            let url = format!("{base}/v1/games/lucky-jack/check");
            while Instant::now() < deadline {
                let started = Instant::now();
                match client.post(&url).json(&body).send().await {
                    Ok(r) if r.status().is_success() => {
                        let _ = r.bytes().await;
                        tally.latencies.push(started.elapsed());
                    }
                    _ => tally.errors += 1,
                }
            }
        }
        "moves" => {
            let (mut id, mut tokens, mut last) = new_match(&client, &base).await;
            while Instant::now() < deadline {
                if last["status"] == "finished" {
                    (id, tokens, last) = new_match(&client, &base).await;
                }
                let seat = last["to_act"][0].as_u64().expect("a seat acts") as usize;
                let mv = if last["view"]["drawn_card_pending"] == true {
                    json!({"type": "keep"})
                } else {
                    json!({"type": "draw"})
                };
                let body = json!({"expected_version": last["version"], "move": mv});
                let started = Instant::now();
                let response = client
                    .post(format!("{base}/v1/matches/{id}/moves"))
                    .bearer_auth(&tokens[seat])
                    .json(&body)
                    .send()
                    .await;
                match response {
                    Ok(r) if r.status().is_success() => {
                        let reply: Value = r.json().await.expect("JSON");
                        tally.latencies.push(started.elapsed());
                        last = reply;
                    }
                    _ => {
                        tally.errors += 1;
                        (id, tokens, last) = new_match(&client, &base).await;
                    }
                }
            }
        }
        other => panic!("unknown workload {other}: echo, check or moves"),
    }
    tally
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, base, concurrency, seconds] = args.as_slice() else {
        panic!("usage: load <echo|check|moves> <base_url> <concurrency> <seconds>");
    };
    let concurrency: usize = concurrency.parse().expect("concurrency");
    let seconds: u64 = seconds.parse().expect("seconds");
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let workers: Vec<_> = (0..concurrency)
        .map(|_| tokio::spawn(worker(mode.clone(), base.clone(), deadline)))
        .collect();
    let mut latencies = Vec::new();
    let mut errors = 0;
    for w in workers {
        let tally = w.await.expect("a worker finishes");
        latencies.extend(tally.latencies);
        errors += tally.errors;
    }
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort();
    println!(
        "{mode} requests={} errors={errors} rps={:.0} p50_ms={:.2} p99_ms={:.2}",
        latencies.len(),
        latencies.len() as f64 / elapsed,
        percentile(&latencies, 0.50).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
    );
}
