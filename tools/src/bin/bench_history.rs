//! Latency of the history, statistics and export endpoints, against a running service:
//!
//!     cargo run --release -p referee-tools --bin bench_history -- [base_url] [requests_per_endpoint]
//!
//! Run it against a release build serving the database `gen_history` filled (see
//! docs/benchmarks.md). Requests go one at a time, so the figures are latencies, not throughput;
//! each endpoint is called with varied players, matches and pages. The skill-rating reads ask for
//! pairs of players who shared tables (`gen_history` seats players N and N + 500 together) and
//! for a rating board over a 30-day period, moved back a day per request through the data.
//!
//! `BENCH_HISTORY_TSV=1` prints one tab-separated line per endpoint instead of a table
//! (`name, p50, p99, max`, in milliseconds), for scripts such as `perf/replica.sh`.

// A measuring tool, not the service: a broken assumption should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

/// The request path for the i-th call to an endpoint.
type PathFor = Box<dyn Fn(usize) -> String>;

/// Players in `gen_history`'s default fill.
const PLAYERS: usize = 2000;

/// A player with rated results: `gen_history` seats the players whose number ends in 0 only at
/// its unfinished matches (every tenth), so the next player stands in for them.
fn rated_player(i: usize) -> usize {
    let player = i % PLAYERS;
    player + usize::from(player % 10 == 0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

#[tokio::main]
async fn main() {
    let base = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "http://127.0.0.1:8080".to_owned());
    let count: usize = std::env::args()
        .nth(2)
        .map(|n| n.parse().expect("a number of requests"))
        .unwrap_or(200);
    let client = reqwest::Client::new();
    let get = |path: String| {
        let client = client.clone();
        let url = format!("{base}{path}");
        async move {
            let response = client.get(&url).send().await.expect("the service answers");
            assert!(
                response.status().is_success(),
                "{url}: {}",
                response.status()
            );
            response.bytes().await.expect("a body")
        }
    };

    // Some match ids and a cursor to walk pages from.
    let page: serde_json::Value = serde_json::from_slice(
        &get("/v1/matches?status=finished&kind=hosted&limit=100".into()).await,
    )
    .expect("JSON");
    let ids: Vec<String> = page["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|m| m["id"].as_str().expect("id").to_owned())
        .collect();
    assert!(
        !ids.is_empty(),
        "the database holds no finished hosted match: run gen_history"
    );

    let json = |path: String| {
        let get = &get;
        async move { serde_json::from_slice::<serde_json::Value>(&get(path).await).expect("JSON") }
    };
    let cursor_of = |page: &serde_json::Value| page["next_cursor"].as_str().map(str::to_owned);

    // The second page of some players' rating histories (200 points each).
    let mut history_pages = Vec::new();
    for n in 0..20 {
        let player = rated_player(n * 97);
        let path = format!("/v1/players/player-{player}/ratings/lucky-jack?limit=100");
        let cursor = cursor_of(&json(path.clone()).await)
            .expect("a player with more than 100 rated results: run gen_history");
        history_pages.push(format!("{path}&cursor={cursor}"));
    }
    // Pages 6 to 10 of the board by rating (20 rows a page), walked once.
    let mut board_pages = Vec::new();
    let mut cursor = None;
    for page in 1..=10 {
        let path = match &cursor {
            Some(c) => format!("/v1/games/lucky-jack/ratings?limit=20&cursor={c}"),
            None => "/v1/games/lucky-jack/ratings?limit=20".to_owned(),
        };
        if page >= 6 {
            board_pages.push(path.clone());
        }
        cursor = Some(cursor_of(&json(path).await).expect("more than 10 pages of rated players"));
    }
    // gen_history's results finish every 5 minutes back from when it ran, over about 347 days.
    let now = chrono::Utc::now();
    let instant =
        |at: chrono::DateTime<chrono::Utc>| at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);

    let endpoints: Vec<(&str, PathFor)> = vec![
        (
            "list newest (limit 50)",
            Box::new(|_| "/v1/matches?limit=50".into()),
        ),
        (
            "list by player",
            Box::new(|i| format!("/v1/matches?player=PLAYER-{}&limit=20", i * 7 % 2000)),
        ),
        (
            "list by game, status, date range",
            Box::new(|i| {
                format!("/v1/matches?game=lucky-jack&status=finished&from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z&limit=20&winner=player-{}", i % 2000)
            }),
        ),
        (
            "player statistics",
            Box::new(|i| format!("/v1/players/player-{}/stats", i * 13 % 2000)),
        ),
        (
            "leaderboard",
            Box::new(|_| "/v1/games/lucky-jack/leaderboard?limit=20".into()),
        ),
        (
            "match export (50 moves)",
            Box::new({
                let ids = ids.clone();
                move |i| format!("/v1/matches/{}/export", ids[i % ids.len()])
            }),
        ),
        (
            "player history CSV",
            Box::new(|i| format!("/v1/players/player-{}/history?format=csv", i * 17 % 2000)),
        ),
        (
            "player ratings",
            Box::new(|i| format!("/v1/players/player-{}/ratings", rated_player(i * 13))),
        ),
        (
            "rating history (limit 100)",
            Box::new(|i| {
                format!(
                    "/v1/players/player-{}/ratings/lucky-jack?limit=100",
                    rated_player(i * 17)
                )
            }),
        ),
        (
            "rating history, next page",
            Box::new(move |i| history_pages[i % history_pages.len()].clone()),
        ),
        (
            "rating board (limit 20)",
            Box::new(|_| "/v1/games/lucky-jack/ratings?limit=20".into()),
        ),
        (
            "rating board, pages 6-10",
            Box::new(move |i| board_pages[i % board_pages.len()].clone()),
        ),
        (
            "rating board, 30-day period",
            Box::new(move |i| {
                let to = now - chrono::Duration::days((i % 300) as i64);
                let from = to - chrono::Duration::days(30);
                format!(
                    "/v1/games/lucky-jack/ratings?limit=20&from={}&to={}",
                    instant(from),
                    instant(to)
                )
            }),
        ),
        (
            "head-to-head",
            Box::new(|i| {
                let player = rated_player(i * 7);
                format!(
                    "/v1/players/player-{player}/versus/player-{}",
                    (player + PLAYERS / 4) % PLAYERS
                )
            }),
        ),
    ];

    let tsv = std::env::var("BENCH_HISTORY_TSV").is_ok_and(|v| v == "1");
    if !tsv {
        println!("{count} requests per endpoint, one at a time, against {base}");
        println!("| endpoint | p50 | p99 | max |");
        println!("|---|---|---|---|");
    }
    for (name, path) in &endpoints {
        let mut times = Vec::with_capacity(count);
        for i in 0..count {
            let started = Instant::now();
            get(path(i)).await;
            times.push(started.elapsed());
        }
        times.sort();
        if tsv {
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            println!(
                "{name}\t{:.3}\t{:.3}\t{:.3}",
                ms(percentile(&times, 0.50)),
                ms(percentile(&times, 0.99)),
                ms(times[times.len() - 1])
            );
            continue;
        }
        println!(
            "| {name} | {:.1?} | {:.1?} | {:.1?} |",
            percentile(&times, 0.50),
            percentile(&times, 0.99),
            times[times.len() - 1]
        );
    }
}
