//! Load generator for `perf/load.sh`: drives one workload at a fixed concurrency for a fixed
//! time over loopback and prints one line of `key=value` results.
//!
//!     cargo run --release -p referee-tools --bin load -- check-body <service_url> > body.json
//!     cargo run --release -p referee-tools --bin load -- <echo|check|moves|watch> <base_url> <concurrency> <seconds> [body.json]
//!
//! `<base_url>` may list several instances, comma-separated (`http://a:8080,http://b:8080`): worker
//! `i` then talks to instance `i mod n` for the whole run, as a load balancer that balances
//! connections would (`perf/instances.sh`).
//!
//! - `check-body`: prints a Lucky Jack check request (a 3-player state and a legal move), made
//!   once by the service so `echo` and `check` send the very same bytes;
//! - `echo`: POSTs that body to the baseline server, on the check's own path and headers;
//! - `check`: POSTs it to `/v1/games/lucky-jack/check` (stateless: parse, referee, answer);
//! - `moves`: each worker hosts Lucky Jack matches (server randomness) and plays moves picked at
//!   random from the acting seat's `legal_moves`, so players discard as well as keep, rounds
//!   end by jackpots and matches end and are replaced. Before every move the acting seat reads
//!   its view (`GET`, untimed but on the server's time, counted as `reads`), as a player's client
//!   does, and picks from the legal moves it lists. Only the move submissions are timed.
//!   `stored_expected` is what the database must now hold more than before: every acknowledged
//!   move, the chance plies it triggered, and the deal stored when each match was created;
//!   `perf/load.sh` counts the rows and compares.
//! - `watch`: one match is created and moved once (so the service holds it live), then every
//!   worker reads it as a spectator (`GET /v1/matches/{id}`, no token) again and again: a popular
//!   match between two moves. Only the reads are timed.
//! - `warm`: `load warm <base_url> <concurrency> <matches>` creates that many matches and makes
//!   one move in each, so the service holds them all in its move cache (`perf/cache_memory.sh`).
//! - `long`: `load long <base_url> <match_file> <moves>` plays one long Plus & Minus match
//!   (3 seats, server randomness, 60 rounds, the most it allows) with one client, one move
//!   at a time, each after the acting seat's view read; the match's id and seat tokens are kept
//!   in `match_file` (created with the match when missing), so successive calls play on
//!   (`perf/streams_cpu.sh`). Prints the moves' latencies and the match's version after them.
//!
//! The client is a minimal keep-alive HTTP/1.1 client over one connection per worker, sending
//! pre-serialised requests and parsing only the status line and `content-length`, so that it
//! costs less than the servers it measures; its CPU time is printed (`client_cores`: CPU seconds
//! per second of wall time) to show it was not the bottleneck. `CLIENT_THREADS` (default 1) sets
//! its runtime's threads.

use std::io;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const CHECK_PATH: &str = "/v1/games/lucky-jack/check";

/// The outcome of a benchmark run or setup step; any failure ends the run loudly.
type Result<T, E = String> = std::result::Result<T, E>;

/// One keep-alive HTTP/1.1 connection. Responses must carry `content-length` (actix-web's
/// always do for these bodies); anything else is reported as an error rather than guessed at.
struct Connection {
    host: String,
    stream: TcpStream,
    buffer: Vec<u8>,
}

struct Response {
    status: u16,
    body: Vec<u8>,
}

impl Connection {
    async fn open(host: &str) -> io::Result<Self> {
        let stream = TcpStream::connect(host).await?;
        stream.set_nodelay(true)?;
        Ok(Self {
            host: host.to_owned(),
            stream,
            buffer: Vec::with_capacity(16 * 1024),
        })
    }

    /// The bytes of one request, built once and reused for a fixed body.
    fn request(&self, method: &str, path: &str, token: Option<&str>, body: &[u8]) -> Vec<u8> {
        let auth = token
            .map(|t| format!("authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let mut bytes = format!(
            "{method} {path} HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\n\
             content-length: {}\r\n{auth}\r\n",
            self.host,
            body.len()
        )
        .into_bytes();
        bytes.extend_from_slice(body);
        bytes
    }

    async fn send(&mut self, request: &[u8]) -> io::Result<Response> {
        self.stream.write_all(request).await?;
        self.buffer.clear();
        let (head_end, status, length) = loop {
            if let Some(end) = find(&self.buffer, b"\r\n\r\n") {
                let (status, length) = parse_head(&self.buffer[..end])?;
                break (end + 4, status, length);
            }
            self.fill().await?;
        };
        while self.buffer.len() < head_end + length {
            self.fill().await?;
        }
        Ok(Response {
            status,
            body: self.buffer[head_end..head_end + length].to_vec(),
        })
    }

    async fn fill(&mut self) -> io::Result<()> {
        let mut chunk = [0u8; 16 * 1024];
        let read = self.stream.read(&mut chunk).await?;
        if read == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "server closed",
            ));
        }
        self.buffer.extend_from_slice(&chunk[..read]);
        Ok(())
    }

    /// A request whose answer must be a success with a JSON body (setup steps, reads).
    async fn json<T: for<'de> Deserialize<'de>>(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &[u8],
    ) -> Result<T> {
        let request = self.request(method, path, token, body);
        let response = self
            .send(&request)
            .await
            .map_err(|e| format!("{path}: {e}"))?;
        if !(200..300).contains(&response.status) {
            return Err(format!(
                "{method} {path}: {} {}",
                response.status,
                String::from_utf8_lossy(&response.body)
            ));
        }
        serde_json::from_slice(&response.body).map_err(|e| format!("{path}: {e}"))
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The status code and `content-length` of a response head.
fn parse_head(head: &[u8]) -> io::Result<(u16, usize)> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_owned());
    let text = std::str::from_utf8(head).map_err(|_| bad("non-UTF-8 response head"))?;
    let mut lines = text.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| bad("no status line"))?;
    let length = lines
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse().ok())
        .ok_or_else(|| bad("a response without content-length"))?;
    Ok((status, length))
}

/// `http://host:port` → `host:port`.
fn host_of(base: &str) -> Result<&str> {
    base.strip_prefix("http://")
        .map(|h| h.trim_end_matches('/'))
        .ok_or_else(|| format!("{base}: expected http://host:port"))
}

/// `http://a:1,http://b:2` → `[a:1, b:2]`: the instances the workers share out.
fn hosts_of(bases: &str) -> Result<Vec<String>> {
    bases
        .split(',')
        .map(|base| host_of(base.trim()).map(str::to_owned))
        .collect()
}

/// The check request: a 3-player Lucky Jack state and its first legal move, from the service.
async fn check_body(host: &str) -> Result<Value> {
    let mut connection = Connection::open(host).await.map_err(|e| e.to_string())?;
    let setup: Value = connection
        .json(
            "POST",
            "/v1/games/lucky-jack/states",
            None,
            json!({"players": 3, "seed": "07".repeat(32)})
                .to_string()
                .as_bytes(),
        )
        .await?;
    let seat = setup["to_act"][0].clone();
    let moves: Value = connection
        .json(
            "POST",
            "/v1/games/lucky-jack/legal-moves",
            None,
            json!({"state": setup["state"], "seat": seat})
                .to_string()
                .as_bytes(),
        )
        .await?;
    Ok(json!({"state": setup["state"], "seat": seat, "move": moves["moves"][0]}))
}

#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: u64,
    /// Moves workload: chance plies the acknowledged moves triggered.
    chance_plies: u64,
    /// Moves workload: matches created, and the events their creation stored.
    created: u64,
    creation_plies: u64,
    /// Moves workload: untimed view reads by the seat about to act.
    reads: u64,
    first_error: Option<String>,
}

impl Tally {
    fn error(&mut self, what: String) {
        self.errors += 1;
        self.first_error.get_or_insert(what);
    }
}

/// Fixed-request workloads (`echo`, `check`, `watch`): the same request bytes again and again.
async fn repeat(
    host: String,
    (method, path): (&'static str, String),
    body: Vec<u8>,
    deadline: Instant,
) -> Result<Tally> {
    let mut connection = Connection::open(&host).await.map_err(|e| e.to_string())?;
    let request = connection.request(method, &path, None, &body);
    let mut tally = Tally::default();
    while Instant::now() < deadline {
        let started = Instant::now();
        match connection.send(&request).await {
            Ok(r) if r.status == 200 => tally.latencies.push(started.elapsed()),
            Ok(r) => tally.error(format!(
                "{}: {}",
                r.status,
                String::from_utf8_lossy(&r.body)
            )),
            Err(e) => {
                tally.error(e.to_string());
                connection = Connection::open(&host).await.map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(tally)
}

#[derive(Deserialize)]
struct Created {
    seat_tokens: Vec<SeatToken>,
    #[serde(rename = "match")]
    detail: MatchState,
}

#[derive(Deserialize)]
struct SeatToken {
    token: String,
}

/// The fields of a match, a move reply or a view read that the moves workload needs.
#[derive(Deserialize)]
struct MatchState {
    #[serde(default)]
    id: String,
    version: i64,
    status: String,
    to_act: Vec<usize>,
    #[serde(default)]
    entries: Vec<serde::de::IgnoredAny>,
    view: SeatView,
}

#[derive(Deserialize)]
struct SeatView {
    #[serde(default)]
    legal_moves: Vec<Value>,
}

/// One hosted match as a worker plays it.
struct Game {
    id: String,
    tokens: Vec<String>,
    version: i64,
    finished: bool,
    to_act: Vec<usize>,
}

impl Game {
    async fn create(connection: &mut Connection, tally: &mut Tally) -> Result<Self> {
        // The engine benches' turn cap: random play ends many rounds earlier, by a jackpot.
        let body = json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}],
                          "options": {"max_turns_per_round": 500}});
        let created: Created = connection
            .json("POST", "/v1/matches", None, body.to_string().as_bytes())
            .await?;
        tally.created += 1;
        tally.creation_plies += created.detail.version as u64;
        Ok(Self {
            id: created.detail.id,
            tokens: created.seat_tokens.into_iter().map(|t| t.token).collect(),
            version: created.detail.version,
            finished: created.detail.status == "finished",
            to_act: created.detail.to_act,
        })
    }
}

/// The long match of the `long` workload: Plus & Minus at its most rounds (some 3 000 plies).
const LONG_MATCH: &str = r#"{"game":"plus-minus","seats":[{"name":"Ann"},{"name":"Ben"},{"name":"Cleo"}],"options":{"rounds":60}}"#;

/// Plays `moves` moves in the long match kept in `file` (creating it first if the file is
/// missing): the acting seat reads its view, then submits a legal move picked at random.
async fn long(host: &str, file: &str, moves: usize) -> Result<String> {
    let mut connection = Connection::open(host).await.map_err(|e| e.to_string())?;
    let mut tally = Tally::default();
    let (id, tokens) = match std::fs::read_to_string(file) {
        Ok(text) => {
            let mut lines = text.lines().map(str::to_owned);
            let id = lines.next().ok_or(format!("{file}: empty"))?;
            (id, lines.collect::<Vec<_>>())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let created: Created = connection
                .json("POST", "/v1/matches", None, LONG_MATCH.as_bytes())
                .await?;
            let tokens: Vec<String> = created.seat_tokens.into_iter().map(|t| t.token).collect();
            let mut text = format!("{}\n", created.detail.id);
            for token in &tokens {
                text += &format!("{token}\n");
            }
            std::fs::write(file, text).map_err(|e| format!("{file}: {e}"))?;
            (created.detail.id, tokens)
        }
        Err(e) => return Err(format!("{file}: {e}")),
    };
    let path = format!("/v1/matches/{id}");
    let first = tokens.first().ok_or(format!("{file}: no seat token"))?;
    let current: MatchState = connection.json("GET", &path, Some(first), b"").await?;
    let (mut version, mut to_act) = (current.version, current.to_act);
    let mut rng = ChaCha8Rng::seed_from_u64(version as u64);
    for _ in 0..moves {
        let seat = *to_act
            .get(rng.next_u64() as usize % to_act.len().max(1))
            .ok_or(format!("match {id}: nobody to act at version {version}"))?;
        let token = tokens
            .get(seat)
            .ok_or(format!("match {id}: no token for seat {seat}"))?;
        let view: MatchState = connection.json("GET", &path, Some(token), b"").await?;
        tally.reads += 1;
        if view.version != version {
            return Err(format!("match {id}: moved behind our back"));
        }
        let legal = view.view.legal_moves;
        if legal.is_empty() {
            return Err(format!("match {id}: seat {seat} acts with no legal move"));
        }
        let mv = &legal[rng.next_u64() as usize % legal.len()];
        let body = json!({"expected_version": version, "move": mv}).to_string();
        let request = connection.request(
            "POST",
            &format!("{path}/moves"),
            Some(token),
            body.as_bytes(),
        );
        let started = Instant::now();
        let response = connection.send(&request).await.map_err(|e| e.to_string())?;
        let elapsed = started.elapsed();
        if response.status != 200 {
            return Err(format!(
                "move {mv} in {id}: {} {}",
                response.status,
                String::from_utf8_lossy(&response.body)
            ));
        }
        let reply: MatchState =
            serde_json::from_slice(&response.body).map_err(|e| format!("move reply: {e}"))?;
        let plies = reply.entries.len() as i64;
        if reply.version != version + plies || plies < 1 {
            return Err(format!(
                "match {id}: version {version} + {plies} plies answered as {}",
                reply.version
            ));
        }
        if reply.status != "in_progress" {
            return Err(format!(
                "match {id}: {} at version {}",
                reply.status, reply.version
            ));
        }
        tally.latencies.push(elapsed);
        tally.chance_plies += (plies - 1) as u64;
        version = reply.version;
        to_act = reply.to_act;
    }
    let mut latencies = tally.latencies;
    latencies.sort();
    Ok(format!(
        "long match={id} requests={} reads={} chance_plies={} version={version} p50_ms={:.3} p99_ms={:.3}",
        latencies.len(),
        tally.reads,
        tally.chance_plies,
        percentile(&latencies, 0.50).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
    ))
}

/// Creates `count` matches and makes one move in each, so the service holds them all live.
async fn warm(host: String, count: usize) -> Result<Tally> {
    let mut connection = Connection::open(&host).await.map_err(|e| e.to_string())?;
    let mut tally = Tally::default();
    for _ in 0..count {
        create_and_move(&mut connection, &mut tally).await?;
    }
    Ok(tally)
}

/// Creates a match and makes one move in it (the first legal move of the first seat to act, after
/// its view read), so that the service holds it live; returns the match's path. The move is timed.
async fn create_and_move(connection: &mut Connection, tally: &mut Tally) -> Result<String> {
    let game = Game::create(connection, tally).await?;
    let seat = *game
        .to_act
        .first()
        .ok_or("a new match with nobody to act")?;
    let token = &game.tokens[seat];
    let path = format!("/v1/matches/{}", game.id);
    let view: MatchState = connection.json("GET", &path, Some(token), b"").await?;
    tally.reads += 1;
    let mv = view.view.legal_moves.first().ok_or("no legal move")?;
    let body = json!({"expected_version": game.version, "move": mv}).to_string();
    let request = connection.request(
        "POST",
        &format!("{path}/moves"),
        Some(token),
        body.as_bytes(),
    );
    let started = Instant::now();
    let response = connection.send(&request).await.map_err(|e| e.to_string())?;
    if response.status != 200 {
        return Err(format!("move in {}: {}", game.id, response.status));
    }
    let reply: MatchState =
        serde_json::from_slice(&response.body).map_err(|e| format!("move reply: {e}"))?;
    tally.chance_plies += reply.entries.len().saturating_sub(1) as u64;
    tally.latencies.push(started.elapsed());
    Ok(path)
}

async fn play(host: String, seed: u64, deadline: Instant) -> Result<Tally> {
    let mut connection = Connection::open(&host).await.map_err(|e| e.to_string())?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let mut game = Game::create(&mut connection, &mut tally).await?;
    while Instant::now() < deadline {
        if game.finished {
            game = Game::create(&mut connection, &mut tally).await?;
        }
        let Some(&seat) = game
            .to_act
            .get(rng.next_u64() as usize % game.to_act.len().max(1))
        else {
            return Err(format!("match {}: in progress, nobody to act", game.id));
        };
        let token = game.tokens[seat].clone();
        let path = format!("/v1/matches/{}", game.id);
        // The acting seat reads its view before every move, even when the last reply already
        // listed its legal moves: a player's client shows the match, then moves.
        let view: MatchState = connection.json("GET", &path, Some(&token), b"").await?;
        tally.reads += 1;
        if view.version != game.version {
            return Err(format!("match {}: moved behind our back", game.id));
        }
        let legal = view.view.legal_moves;
        if legal.is_empty() {
            return Err(format!(
                "match {}: seat {seat} acts with no legal move",
                game.id
            ));
        }
        let mv = &legal[rng.next_u64() as usize % legal.len()];
        let body = json!({"expected_version": game.version, "move": mv}).to_string();
        let request = connection.request(
            "POST",
            &format!("{path}/moves"),
            Some(&token),
            body.as_bytes(),
        );
        let started = Instant::now();
        let response = connection.send(&request).await;
        let elapsed = started.elapsed();
        match response {
            Ok(r) if r.status == 200 => {
                let reply: MatchState =
                    serde_json::from_slice(&r.body).map_err(|e| format!("move reply: {e}"))?;
                let plies = reply.entries.len() as i64;
                // The version must advance by exactly the plies the reply lists.
                if reply.version != game.version + plies || plies < 1 {
                    return Err(format!(
                        "match {}: version {} + {plies} plies answered as {}",
                        game.id, game.version, reply.version
                    ));
                }
                tally.latencies.push(elapsed);
                tally.chance_plies += (plies - 1) as u64;
                game.version = reply.version;
                game.finished = reply.status == "finished";
                game.to_act = reply.to_act;
            }
            Ok(r) => {
                tally.error(format!(
                    "move {mv} in {}: {} {}",
                    game.id,
                    r.status,
                    String::from_utf8_lossy(&r.body)
                ));
                game = Game::create(&mut connection, &mut tally).await?;
            }
            Err(e) => {
                tally.error(e.to_string());
                connection = Connection::open(&host).await.map_err(|e| e.to_string())?;
                game = Game::create(&mut connection, &mut tally).await?;
            }
        }
    }
    Ok(tally)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// This process's CPU time so far (user + system), from `/proc/self/stat`.
fn cpu_time() -> Result<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").map_err(|e| e.to_string())?;
    // Fields after the parenthesised command name: utime and stime are fields 14 and 15.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    let (Some(user), Some(system)) = (ticks(11), ticks(12)) else {
        return Err("unreadable /proc/self/stat".to_owned());
    };
    // USER_HZ is 100 on Linux for every architecture the project builds on.
    Ok(Duration::from_millis((user + system) * 10))
}

async fn run(args: &[String]) -> Result<()> {
    if let [mode, base] = args {
        if mode == "check-body" {
            println!("{}", check_body(host_of(base)?).await?);
            return Ok(());
        }
    }
    if let [mode, base, file, moves] = args {
        if mode == "long" {
            let moves = moves.parse().map_err(|_| "moves: a number")?;
            println!("{}", long(host_of(base)?, file, moves).await?);
            return Ok(());
        }
    }
    let (mode, base, concurrency, seconds, body_file) = match args {
        [m, b, c, s] => (m, b, c, s, None),
        [m, b, c, s, f] => (m, b, c, s, Some(f)),
        _ => return Err("usage: load <echo|check|moves|watch> <base_url> <concurrency> <seconds> [body.json] | load warm <base_url> <concurrency> <matches> | load long <base_url> <match_file> <moves> | load check-body <service_url>".to_owned()),
    };
    let hosts = hosts_of(base)?;
    let host = hosts[0].clone();
    let concurrency: usize = concurrency.parse().map_err(|_| "concurrency: a number")?;
    let seconds: f64 = seconds.parse().map_err(|_| "seconds: a number")?;
    let body = match (mode.as_str(), body_file) {
        ("moves" | "warm" | "watch", _) => Vec::new(),
        (_, Some(file)) => std::fs::read(file).map_err(|e| format!("{file}: {e}"))?,
        (_, None) => check_body(&host).await?.to_string().into_bytes(),
    };
    let body = body.trim_ascii_end().to_vec();

    // The match every `watch` worker reads, live in the first instance before the clock starts.
    let watched = match mode.as_str() {
        "watch" => {
            let mut connection = Connection::open(&host).await.map_err(|e| e.to_string())?;
            create_and_move(&mut connection, &mut Tally::default()).await?
        }
        _ => String::new(),
    };

    let cpu_before = cpu_time()?;
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(seconds);
    let workers: Vec<_> = (0..concurrency)
        .map(|i| (i, hosts[i % hosts.len()].clone()))
        .map(|(i, host)| match mode.as_str() {
            "echo" | "check" => Ok(tokio::spawn(repeat(
                host,
                ("POST", CHECK_PATH.to_owned()),
                body.clone(),
                deadline,
            ))),
            "watch" => Ok(tokio::spawn(repeat(
                host,
                ("GET", watched.clone()),
                Vec::new(),
                deadline,
            ))),
            "moves" => Ok(tokio::spawn(play(host, i as u64, deadline))),
            // `seconds` is read as the number of matches to warm, shared among the workers.
            "warm" => Ok(tokio::spawn(warm(host, seconds as usize / concurrency))),
            other => Err(format!(
                "unknown workload {other}: echo, check, moves, warm or watch"
            )),
        })
        .collect::<Result<_>>()?;
    let mut total = Tally::default();
    for worker in workers {
        let tally = worker.await.map_err(|e| e.to_string())??;
        total.latencies.extend(tally.latencies);
        total.errors += tally.errors;
        total.chance_plies += tally.chance_plies;
        total.created += tally.created;
        total.creation_plies += tally.creation_plies;
        total.reads += tally.reads;
        total.first_error = total.first_error.or(tally.first_error);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = (cpu_time()? - cpu_before).as_secs_f64();
    let mut latencies = total.latencies;
    latencies.sort();
    let ok = latencies.len();
    let mut line = format!(
        "{mode} instances={} concurrency={concurrency} requests={ok} errors={} rps={:.0} p50_ms={:.3} \
         p99_ms={:.3} client_cores={:.2} client_us_per_request={:.1}",
        hosts.len(),
        total.errors,
        ok as f64 / elapsed,
        percentile(&latencies, 0.50).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
        cpu / elapsed,
        cpu * 1e6 / ok.max(1) as f64,
    );
    if mode == "moves" || mode == "warm" {
        line += &format!(
            " chance_plies={} matches={} reads={} stored_expected={}",
            total.chance_plies,
            total.created,
            total.reads,
            ok as u64 + total.chance_plies + total.creation_plies,
        );
    } else {
        line += &format!(" body_bytes={}", body.len());
    }
    println!("{line}");
    match total.first_error {
        Some(first) => Err(format!(
            "{} failed requests; the first: {first}",
            total.errors
        )),
        None => Ok(()),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads = std::env::var("CLIENT_THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    let runtime = if threads <= 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .enable_all()
            .build()
    };
    let outcome = runtime
        .map_err(|e| e.to_string())
        .and_then(|runtime| runtime.block_on(run(&args)));
    if let Err(error) = outcome {
        eprintln!("load: {error}");
        std::process::exit(1);
    }
}
