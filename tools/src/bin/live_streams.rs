//! Live streams under load, against a running service (see `docs/benchmarks.md`):
//!
//!     cargo run --release -p referee-tools --bin live_streams -- <base_url> <server_pid> [streams] [moves]
//!
//! 1. Memory: reads the server's resident memory (`VmRSS`), opens `streams` (default 1000)
//!    spectator streams spread over 20 Lucky Jack matches, waits until each has its first view,
//!    and reads it again; prints both and the cost per stream.
//! 2. Delay: with those streams open, plays `moves` (default 200) moves one at a time on one of
//!    the matches, and for each one measures the time from the move's 200 reaching this client to
//!    its entry reaching each of that match's subscribers; prints p50, p99 and max.
//!
//! The service needs its rate limit off and room for the streams, e.g.
//! `RATE_LIMIT_PER_SECOND=0 LIVE_STREAMS_PER_MATCH=1000 LIVE_STREAMS_PER_CLIENT=1000 MAX_CONNECTIONS=2048 target/release/referee`.
// A measurement tool: a failure should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{json, Value};

const MATCHES: usize = 20;

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// When each (match, version) entry reached each subscriber.
type Arrivals = Arc<Mutex<HashMap<(usize, i64), Vec<Instant>>>>;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let base = args
        .get(1)
        .expect("base url")
        .trim_end_matches('/')
        .to_owned();
    let pid: u32 = args.get(2).expect("server pid").parse().unwrap();
    let streams: usize = args.get(3).map_or(1000, |n| n.parse().unwrap());
    let moves: usize = args.get(4).map_or(200, |n| n.parse().unwrap());
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(streams + 16)
        .build()
        .unwrap();

    let mut created = Vec::new();
    for _ in 0..MATCHES {
        let reply: Value = client
            .post(format!("{base}/v1/matches"))
            .json(&json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}], "randomness": "server"}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        created.push(reply);
    }
    let ids: Vec<String> = created
        .iter()
        .map(|c| c["match"]["id"].as_str().unwrap().to_owned())
        .collect();

    let before = rss_kib(pid);
    let arrivals: Arrivals = Arc::default();
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::channel::<()>(streams);
    for n in 0..streams {
        let which = n % MATCHES;
        let url = format!("{base}/v1/matches/{}/stream?format=ndjson", ids[which]);
        let client = client.clone();
        let arrivals = arrivals.clone();
        let ready = ready_tx.clone();
        tokio::spawn(async move {
            let response = client.get(url).send().await.unwrap();
            assert_eq!(response.status(), 200, "stream {n} refused");
            let mut body = response.bytes_stream();
            let mut buffer = Vec::new();
            while let Some(chunk) = body.next().await {
                let chunk = chunk.unwrap();
                let now = Instant::now();
                buffer.extend_from_slice(&chunk);
                while let Some(end) = buffer.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = buffer.drain(..=end).collect();
                    let event: Value = serde_json::from_slice(&line).unwrap();
                    match event["type"].as_str() {
                        Some("view") => {
                            let _ = ready.try_send(());
                        }
                        Some("entry") => {
                            let version = event["version"].as_i64().unwrap();
                            let mut arrivals = arrivals.lock().unwrap();
                            arrivals.entry((which, version)).or_default().push(now);
                        }
                        _ => {}
                    }
                }
            }
        });
    }
    drop(ready_tx);
    for _ in 0..streams {
        ready_rx
            .recv()
            .await
            .expect("every stream gets its first view");
    }
    // Let the allocator settle after the burst of openings.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss_kib(pid);
    println!(
        "streams={streams} rss_before_kib={before} rss_after_kib={after} per_stream_kib={:.1}",
        (after as f64 - before as f64) / streams as f64
    );

    // Moves on match 0, one at a time, each timed from its 200 to its arrival on every subscriber.
    let subscribers = streams.div_ceil(MATCHES).min(streams);
    let tokens: Vec<String> = created[0]["seat_tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["token"].as_str().unwrap().to_owned())
        .collect();
    let mut delays_us: Vec<i64> = Vec::new();
    let mut played = 0;
    while played < moves {
        let public: Value = client
            .get(format!("{base}/v1/matches/{}", ids[0]))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if public["status"] == "finished" {
            break;
        }
        let seat = public["to_act"][0].as_u64().unwrap() as usize;
        let mine: Value = client
            .get(format!("{base}/v1/matches/{}", ids[0]))
            .bearer_auth(&tokens[seat])
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let mv = mine["view"]["legal_moves"][0].clone();
        let reply = client
            .post(format!("{base}/v1/matches/{}/moves", ids[0]))
            .bearer_auth(&tokens[seat])
            .json(&json!({"move": mv}))
            .send()
            .await
            .unwrap();
        let acknowledged = Instant::now();
        let reply: Value = reply.json().await.unwrap();
        let version = reply["version"].as_i64().expect("the move was accepted");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let seen = arrivals
                .lock()
                .unwrap()
                .get(&(0, version))
                .map_or(0, Vec::len);
            if seen >= subscribers {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "version {version} reached {seen} of {subscribers}"
            );
            tokio::time::sleep(Duration::from_micros(200)).await;
        }
        for at in &arrivals.lock().unwrap()[&(0, version)] {
            let delay = if *at >= acknowledged {
                (*at - acknowledged).as_micros() as i64
            } else {
                -((acknowledged - *at).as_micros() as i64)
            };
            delays_us.push(delay);
        }
        played += 1;
    }
    delays_us.sort_unstable();
    let at = |q: f64| delays_us[((delays_us.len() - 1) as f64 * q) as usize] as f64 / 1000.0;
    println!(
        "moves={played} subscribers={subscribers} deliveries={} delay_ms_p50={:.2} p99={:.2} max={:.2} (negative: the event arrived before the move's 200)",
        delays_us.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}
