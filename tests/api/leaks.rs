//! Information leaks over HTTP, for all five games and every match endpoint a caller can reach.
//!
//! Security requirement: no seat can read another seat's hidden cards or the seed before the end
//! through any endpoint; once the match is over the seed is revealed and explains every chance
//! outcome.
//!
//! Each test hosts server-seeded matches and plays them with random legal moves (computed by the
//! engine from the true state). Randomness is fixed: the moves come from a ChaCha stream with a
//! fixed seed, and right after creation the match is re-seeded in the database with a fixed seed
//! (its first chance re-dealt from it), so a failure replays identically. The true state and log
//! are read from the test's database and replayed with the library; every answer the service
//! gives a seat, a spectator or the owner is compared with an independent computation from that
//! truth: `G::view(state, viewer)`, `G::redact_event(event, viewer)`, the engine's own refusal.

use std::collections::BTreeMap;

use base64::Engine as _;
use diesel::{ExpressionMethods, QueryDsl};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use referee::games::{Consistent, Game, GameKind, Seat, Viewer};
use referee::problem::Problem;
use referee::referee::{self as engine, GameInput, Input, RefereeError};
use referee::seed::Seed;
use referee::store::matches::{self as q, EventRow, MatchRow};
use reqwest::StatusCode;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::support::{owner_token, seat_tokens, spawn_app, Reply, StreamEvent, TestApp};

/// Moves per match at most; options keep every game well under it.
const MOVE_CAP: usize = 300;

/// Who calls: a seat's token, the owner's, or nobody's.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Caller {
    Seat(Seat),
    Owner,
    Anonymous,
}

struct Hosted {
    app: TestApp,
    conn: AsyncPgConnection,
    kind: GameKind,
    id: Uuid,
    owner: String,
    seats: Vec<String>,
    seed: Seed,
    /// Strings that must not appear in any answer before the end: the seed in every spelling.
    seed_spellings: Vec<String>,
    /// Moves seen listed as legal at some point: the pool illegal probes are drawn from.
    seen_moves: Vec<Value>,
    rng: ChaCha8Rng,
}

/// The match as stored, replayed with the library: the state, the log and each ply's events.
struct Truth<G: Game> {
    row: MatchRow,
    rows: Vec<EventRow>,
    state: Consistent<G>,
    events: Vec<Vec<G::Event>>,
}

impl Hosted {
    fn token(&self, caller: Caller) -> Option<&str> {
        match caller {
            Caller::Seat(s) => Some(&self.seats[s]),
            Caller::Owner => Some(&self.owner),
            Caller::Anonymous => None,
        }
    }

    fn callers(&self) -> Vec<Caller> {
        (0..self.seats.len())
            .map(Caller::Seat)
            .chain([Caller::Anonymous, Caller::Owner])
            .collect()
    }

    fn viewer(caller: Caller, over: bool) -> Viewer {
        match caller {
            _ if over => Viewer::Full,
            Caller::Seat(s) => Viewer::Seat(s),
            Caller::Owner => Viewer::Full,
            Caller::Anonymous => Viewer::Spectator,
        }
    }

    fn path(&self, tail: &str) -> String {
        format!("/v1/matches/{}{tail}", self.id)
    }

    async fn get(&self, tail: &str, caller: Caller, over: bool) -> Reply {
        let reply = self.app.get(&self.path(tail), self.token(caller)).await;
        self.assert_no_secret(&reply, caller, over, &format!("GET {tail}"));
        reply
    }

    async fn post(
        &self,
        tail: &str,
        body: &Value,
        caller: Caller,
        key: Option<&str>,
        over: bool,
    ) -> Reply {
        let mut request = self
            .app
            .client
            .post(format!("{}{}", self.app.base, self.path(tail)))
            .json(body);
        if let Some(token) = self.token(caller) {
            request = request.bearer_auth(token);
        }
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        let reply = self.app.send(request).await;
        self.assert_no_secret(&reply, caller, over, &format!("POST {tail} {body}"));
        reply
    }

    /// No answer ever carries another caller's token, and none carries the seed before the end.
    fn assert_no_secret(&self, reply: &Reply, caller: Caller, over: bool, what: &str) {
        let mut text = match &reply.body {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        for (name, value) in &reply.headers {
            text.push_str(&format!("\n{name}: {}", value.to_str().unwrap_or_default()));
        }
        if !over {
            for spelling in &self.seed_spellings {
                assert!(
                    !text.contains(spelling.as_str()),
                    "{:?} {what}: the seed leaks before the end: {text}",
                    caller
                );
            }
        }
        let mut others: Vec<&str> = Vec::new();
        if caller != Caller::Owner {
            others.push(&self.owner);
        }
        for (s, token) in self.seats.iter().enumerate() {
            if caller != Caller::Seat(s) {
                others.push(token);
            }
        }
        for token in others {
            assert!(
                !text.contains(token),
                "{caller:?} {what}: another caller's token leaks"
            );
        }
    }

    async fn truth<G: Game>(&mut self) -> Truth<G> {
        let row = q::find(&mut self.conn, self.id).await.unwrap().unwrap();
        let rows = q::events(&mut self.conn, self.id).await.unwrap();
        let inputs: Vec<GameInput<G>> = rows
            .iter()
            .map(|r| match r.seat {
                Some(seat) => Input::Move {
                    seat: seat as Seat,
                    mv: serde_json::from_value(r.payload.clone()).unwrap(),
                },
                None => Input::Chance(serde_json::from_value(r.payload.clone()).unwrap()),
            })
            .collect();
        let options: G::Options = serde_json::from_value(row.options.clone()).unwrap();
        let options = G::validate_options(&options, self.seats.len()).unwrap();
        let (state, events) = engine::replay::<G>(options, &inputs, None)
            .unwrap_or_else(|(ply, e)| panic!("the log fails to replay at ply {ply}: {e}"));
        assert_eq!(engine::to_json(&state), row.state, "snapshot = replay");
        assert_eq!(row.version, rows.len() as i64);
        Truth {
            row,
            rows,
            state,
            events,
        }
    }
}

/// The log entry `viewer` may see of one stored ply, computed from the truth (without `at`).
fn expected_entry<G: Game>(row: &EventRow, events: &[G::Event], viewer: Viewer) -> Value {
    let seat = row.seat.map(|s| s as Seat);
    let mut entry = json!({
        "ply": row.ply,
        "seat": seat,
        "events": events
            .iter()
            .map(|e| engine::to_json(&G::redact_event(e, viewer)))
            .collect::<Vec<_>>(),
    });
    let full = viewer == Viewer::Full;
    if seat.is_some() && (full || seat.map(Viewer::Seat) == Some(viewer)) {
        entry["move"] = row.payload.clone();
    }
    if seat.is_none() && full {
        entry["chance"] = row.payload.clone();
    }
    entry
}

fn without_at(entry: &Value) -> Value {
    let mut entry = entry.clone();
    entry.as_object_mut().unwrap().remove("at");
    entry
}

/// The problem document the service must answer for an engine refusal.
fn problem_of(error: RefereeError) -> Value {
    let problem = Problem::from(error);
    serde_json::to_value(&*problem).unwrap()
}

/// The score as the public table shows it: what `/result` may say before the end.
fn public_score(kind: GameKind, spectator_view: &Value) -> Value {
    let v = spectator_view;
    match kind {
        GameKind::LuckyLuau => v["score"].clone(),
        GameKind::LuckPlus => json!({
            "scoring": v["options"]["scoring"],
            "target": v["target"],
            "hands": v["results"],
            "totals": v["totals"],
        }),
        _ => json!({"rounds": v["results"], "totals": v["totals"]}),
    }
}

fn options_for(kind: GameKind) -> Value {
    match kind {
        GameKind::LuckyJack => json!({"rounds": 3, "max_turns_per_round": 12}),
        GameKind::LuckyDice => json!({"coaster_target": 2}),
        GameKind::LuckPlus => json!({"target": 1}),
        GameKind::PlusMinus => json!({"rounds": 1}),
        GameKind::LuckyLuau => json!({}),
    }
}

/// Creates a server-seeded match over HTTP, checks the creation answer keeps the seed secret,
/// then re-deals it in the database from `seed` so the whole run is reproducible.
async fn host<G: Game>(app: TestApp, seed_byte: u8, rng: &mut ChaCha8Rng) -> Hosted {
    let low = G::MIN_PLAYERS.max(2);
    let high = G::MAX_PLAYERS.min(4);
    let players = low + (rng.next_u64() as usize) % (high - low + 1);
    let names: Vec<Value> = (0..players)
        .map(|s| json!({"name": format!("P{s}")}))
        .collect();
    let created = app
        .post(
            "/v1/matches",
            &json!({"game": G::KIND.slug(), "seats": names, "options": options_for(G::KIND), "randomness": "server"}),
            None,
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let detail = &created.body["match"];
    assert!(detail["seed"].is_null(), "no seed at creation: {detail}");
    let commitment = detail["seed_sha256"].as_str().expect("a commitment");
    assert_eq!(commitment.len(), 64);
    assert!(commitment.bytes().all(|b| b.is_ascii_hexdigit()));
    let id: Uuid = detail["id"].as_str().unwrap().parse().unwrap();
    let mut conn = app.db().await;
    let original = q::find(&mut conn, id).await.unwrap().unwrap();
    let original_seed = original.seed.clone().unwrap();
    assert_eq!(
        Seed::from_hex(&original_seed).unwrap().sha256_hex(),
        commitment
    );
    assert!(
        !created.body.to_string().contains(&original_seed),
        "the creation answer holds no seed"
    );

    let seed = Seed::from_bytes([seed_byte; 32]);
    reseed::<G>(&mut conn, &original, players, &seed).await;
    let bytes = hex::decode(seed.to_hex()).unwrap();
    let seed_spellings = vec![
        seed.to_hex(),
        seed.to_hex().to_uppercase(),
        base64::engine::general_purpose::STANDARD.encode(&bytes),
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes),
    ];
    Hosted {
        app,
        conn,
        kind: G::KIND,
        id,
        owner: owner_token(&created.body),
        seats: seat_tokens(&created.body),
        seed,
        seed_spellings,
        seen_moves: Vec::new(),
        rng: ChaCha8Rng::seed_from_u64(rng.next_u64()),
    }
}

/// Replaces the match's seed and its first chance (the log is append-only, so its trigger is
/// bypassed for this one session).
async fn reseed<G: Game>(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    players: usize,
    seed: &Seed,
) {
    use referee::store::schema::matches;
    let options: G::Options = serde_json::from_value(row.options.clone()).unwrap();
    let mut state = Consistent::<G>::new(G::validate_options(&options, players).unwrap());
    let resolved = engine::resolve_from_seed::<G>(&mut state, seed, 1);
    assert!(!G::is_over(&state));
    diesel::sql_query("SET session_replication_role = replica")
        .execute(conn)
        .await
        .unwrap();
    diesel::sql_query(format!(
        "DELETE FROM match_events WHERE match_id = '{}'",
        row.id
    ))
    .execute(conn)
    .await
    .unwrap();
    diesel::sql_query("SET session_replication_role = origin")
        .execute(conn)
        .await
        .unwrap();
    let rows: Vec<EventRow> = resolved
        .iter()
        .enumerate()
        .map(|(i, (outcome, _))| EventRow {
            match_id: row.id,
            ply: i as i64 + 1,
            seat: None,
            payload: engine::to_json(outcome),
            idempotency_key: None,
            request_hash: None,
            response: None,
            created_at: row.created_at,
        })
        .collect();
    q::append_events(conn, &rows).await.unwrap();
    diesel::update(matches::table.find(row.id))
        .set((
            matches::seed.eq(Some(seed.to_hex())),
            matches::seed_sha256.eq(Some(seed.sha256_hex())),
            matches::state.eq(engine::to_json(&state)),
            matches::version.eq(rows.len() as i64),
        ))
        .execute(conn)
        .await
        .unwrap();
}

/// Every endpoint, for every caller, against the truth (the match is in progress).
async fn check_everything<G: Game>(m: &mut Hosted) {
    let truth = m.truth::<G>().await;
    let version = truth.row.version;
    let over = G::is_over(&truth.state);
    assert!(!over);
    let spectator_view = engine::to_json(&G::view(&truth.state, Viewer::Spectator));
    let earlier = (m.rng.next_u64() % (version as u64 + 1)) as usize;
    let inputs: Vec<GameInput<G>> = truth
        .rows
        .iter()
        .map(|r| match r.seat {
            Some(seat) => Input::Move {
                seat: seat as Seat,
                mv: serde_json::from_value(r.payload.clone()).unwrap(),
            },
            None => Input::Chance(serde_json::from_value(r.payload.clone()).unwrap()),
        })
        .collect();
    let options: G::Options = serde_json::from_value(truth.row.options.clone()).unwrap();
    let (earlier_state, _) = engine::replay::<G>(
        G::validate_options(&options, m.seats.len()).unwrap(),
        &inputs,
        Some(earlier),
    )
    .unwrap();

    for caller in m.callers() {
        let viewer = Hosted::viewer(caller, false);
        let who = format!("{:?} at version {version}", caller);

        // The match: exactly the engine's view for this viewer, no seed, the commitment.
        let detail = m.get("", caller, false).await;
        assert_eq!(detail.status, StatusCode::OK, "{who}: {}", detail.body);
        assert_eq!(detail.body["viewer"], engine::to_json(&viewer), "{who}");
        assert_eq!(
            detail.body["view"],
            engine::to_json(&G::view(&truth.state, viewer)),
            "{who}: the view is the engine's view for this viewer"
        );
        assert_eq!(detail.body["version"], version);
        assert_eq!(detail.body["to_act"], json!(G::to_act(&truth.state)));
        assert_eq!(
            detail.body["standings"],
            engine::to_json(&G::standings(&truth.state))
        );
        assert!(
            detail.body["seed"].is_null(),
            "{who}: no seed before the end"
        );
        assert_eq!(detail.body["seed_sha256"], m.seed.sha256_hex());

        // The log: each ply as the engine redacts it for this viewer.
        let log = m.get("/log", caller, false).await;
        assert_eq!(log.status, StatusCode::OK, "{who}: {}", log.body);
        let entries = log.body["entries"].as_array().unwrap();
        assert_eq!(entries.len(), truth.rows.len(), "{who}");
        for ((entry, row), events) in entries.iter().zip(&truth.rows).zip(&truth.events) {
            assert_eq!(
                without_at(entry),
                expected_entry::<G>(row, events, viewer),
                "{who}: log ply {}",
                row.ply
            );
        }

        // The live stream, read from the start: exactly this viewer's log, then its view.
        let stream_path = m.path("/stream?after=0&format=ndjson");
        let mut stream = m
            .app
            .stream(&stream_path, m.token(caller), &[])
            .await
            .unwrap();
        let streamed = stream.until_view(version).await;
        let (view, streamed_entries) = streamed.split_last().unwrap();
        let streamed_entries: Vec<Value> = streamed_entries
            .iter()
            .map(|e| e.data["entry"].clone())
            .collect();
        assert_eq!(
            &streamed_entries, entries,
            "{who}: the stream shows exactly the log"
        );
        assert_eq!(
            view.data["match"]["view"], detail.body["view"],
            "{who}: stream view"
        );
        let text = Reply {
            status: StatusCode::OK,
            headers: Default::default(),
            body: Value::String(stream.text.clone()),
        };
        m.assert_no_secret(&text, caller, false, "GET /stream");

        // Replays: now and at an earlier ply, as the engine's view of that state.
        for (ply, state) in [(version, &truth.state), (earlier as i64, &earlier_state)] {
            let replay = m.get(&format!("/plies/{ply}"), caller, false).await;
            assert_eq!(replay.status, StatusCode::OK, "{who}: {}", replay.body);
            assert_eq!(
                replay.body["view"],
                engine::to_json(&G::view(state, viewer)),
                "{who}: replay of ply {ply}"
            );
            assert_eq!(replay.body["ply"], ply);
            assert_eq!(replay.body["over"], false);
        }

        // The result: the engine's score, and nothing the public table does not show.
        let result = m.get("/result", caller, false).await;
        assert_eq!(result.status, StatusCode::OK, "{who}: {}", result.body);
        assert_eq!(
            result.body["breakdown"],
            engine::to_json(&G::score(&truth.state)),
            "{who}"
        );
        assert_eq!(
            result.body["breakdown"],
            public_score(m.kind, &spectator_view),
            "{who}: the result holds only what the public table shows"
        );
        assert_eq!(result.body["status"], "in_progress");
        assert_eq!(result.body["winners"], json!([]));

        // The export: the owner's only while running, and never with the seed.
        let export = m.get("/export", caller, false).await;
        if caller == Caller::Owner {
            assert_eq!(export.status, StatusCode::OK, "{}", export.body);
            assert!(export.body["seed"].is_null(), "no seed in a running export");
            assert_eq!(export.body["seed_sha256"], m.seed.sha256_hex());
            let logged: Vec<Value> = truth
                .rows
                .iter()
                .map(|r| match r.seat {
                    Some(seat) => json!({"ply": r.ply, "seat": seat, "move": r.payload}),
                    None => json!({"ply": r.ply, "seat": null, "chance": r.payload}),
                })
                .collect();
            assert_eq!(export.body["log"], json!(logged));
        } else {
            assert_problem(&export, StatusCode::FORBIDDEN, "owner_only", &who);
            assert!(export.body.get("log").is_none());
        }

        // Failing reads: a ply past the end, a token that belongs to nobody.
        let past = m
            .get(&format!("/plies/{}", version + 1), caller, false)
            .await;
        assert_problem(&past, StatusCode::NOT_FOUND, "unknown_ply", &who);
        let negative = m.get("/plies/-1", caller, false).await;
        assert_problem(&negative, StatusCode::NOT_FOUND, "unknown_ply", &who);

        // Failing writes: chance reports, stale versions, other seats, illegal moves.
        let chance = m
            .post("/chance", &json!({"outcome": {}}), caller, None, false)
            .await;
        match caller {
            Caller::Anonymous => {
                assert_problem(&chance, StatusCode::UNAUTHORIZED, "invalid_token", &who)
            }
            _ => assert_problem(&chance, StatusCode::CONFLICT, "server_randomness", &who),
        }
        probe_moves::<G>(m, &truth, caller, &who).await;
    }
    // Reads beside the match's own: a token of nobody, the list, BG Stats, a player's history.
    for forged in ["seat_forged", "own_forged", m.seats[0].as_str()] {
        let forged = format!("{forged}x");
        let reply = m.app.get(&m.path(""), Some(&forged)).await;
        m.assert_no_secret(&reply, Caller::Anonymous, false, "a forged token");
        assert_problem(&reply, StatusCode::UNAUTHORIZED, "invalid_token", "forged");
        assert!(reply.body.get("view").is_none());
    }
    let list = m
        .app
        .get(&format!("/v1/matches?game={}", m.kind.slug()), None)
        .await;
    m.assert_no_secret(&list, Caller::Anonymous, false, "GET /v1/matches");
    let item = list.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == m.id.to_string())
        .expect("the match is listed");
    let mut keys: Vec<&str> = item
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "created_at",
            "finished_at",
            "game",
            "id",
            "kind",
            "players",
            "status",
            "version",
            "winners"
        ],
        "a list row shows no state"
    );
    assert_eq!(item["winners"], json!([]));
    let bgstats = m.get("/bgstats", Caller::Anonymous, false).await;
    assert_problem(
        &bgstats,
        StatusCode::CONFLICT,
        "match_not_finished",
        "bgstats",
    );
    let history = m.app.get("/v1/players/P0/history", None).await;
    m.assert_no_secret(&history, Caller::Anonymous, false, "history");
    assert_eq!(history.status, StatusCode::OK);
    assert!(!history.body.to_string().contains("\"state\""));

    // Nothing any probe sent was stored.
    let after = q::find(&mut m.conn, m.id).await.unwrap().unwrap();
    assert_eq!(
        after.version, version,
        "a refused request changed the match"
    );
}

fn assert_problem(reply: &Reply, status: StatusCode, code: &str, who: &str) {
    assert_eq!(reply.status, status, "{who}: {}", reply.body);
    assert_eq!(reply.headers["content-type"], "application/problem+json");
    assert_eq!(reply.body["code"], code, "{who}: {}", reply.body);
}

/// Moves a caller may not make: each refusal is exactly the engine's, stores nothing, and (being
/// computed from the state and the caller's own seat) can say nothing hidden the view does not.
async fn probe_moves<G: Game>(m: &mut Hosted, truth: &Truth<G>, caller: Caller, who: &str) {
    let version = truth.row.version;
    let to_act = G::to_act(&truth.state);
    let some_legal: Option<Value> = to_act
        .iter()
        .flat_map(|&s| G::legal_moves(&truth.state, s))
        .map(|mv| engine::to_json(&mv))
        .next();
    let Some(legal) = some_legal else {
        return;
    };
    let seat = match caller {
        Caller::Anonymous => {
            let reply = m
                .post("/moves", &json!({"move": legal}), caller, None, false)
                .await;
            assert_problem(&reply, StatusCode::UNAUTHORIZED, "invalid_token", who);
            return;
        }
        Caller::Owner => {
            let reply = m
                .post("/moves", &json!({"move": legal}), caller, None, false)
                .await;
            assert_problem(
                &reply,
                StatusCode::UNPROCESSABLE_ENTITY,
                "seat_required",
                who,
            );
            return;
        }
        Caller::Seat(s) => s,
    };
    // Another seat's name with this seat's token.
    let other = (seat + 1) % m.seats.len();
    let wrong = m
        .post(
            "/moves",
            &json!({"seat": other, "move": legal}),
            caller,
            None,
            false,
        )
        .await;
    assert_problem(&wrong, StatusCode::FORBIDDEN, "wrong_seat", who);
    // A stale version.
    let stale = m
        .post(
            "/moves",
            &json!({"expected_version": version + 7, "move": legal}),
            caller,
            None,
            false,
        )
        .await;
    assert_problem(&stale, StatusCode::CONFLICT, "stale_version", who);
    assert_eq!(
        stale.body["params"],
        json!({"expected": version + 7, "current": version})
    );
    // A move that is not even the game's shape.
    let garbage = m
        .post(
            "/moves",
            &json!({"move": {"type": "peek_at_the_pile"}}),
            caller,
            None,
            false,
        )
        .await;
    assert_problem(&garbage, StatusCode::BAD_REQUEST, "invalid_move", who);
    // Up to three moves the engine refuses this seat now, out of turn or against the rules.
    let mut candidates: Vec<Value> = vec![legal];
    let pool = m.seen_moves.len();
    for _ in 0..pool.min(40) {
        candidates.push(m.seen_moves[(m.rng.next_u64() as usize) % pool].clone());
    }
    let mut probed = 0;
    for mv in candidates {
        let typed: G::Move = serde_json::from_value(mv.clone()).unwrap();
        let mut scratch = truth.state.clone();
        let Err(refusal) = engine::play_move::<G>(&mut scratch, seat, &typed) else {
            continue;
        };
        let reply = m
            .post(
                "/moves",
                &json!({"expected_version": version, "move": mv}),
                caller,
                None,
                false,
            )
            .await;
        assert_eq!(
            reply.body,
            problem_of(refusal),
            "{who}: the refusal of {mv} is the engine's, nothing more"
        );
        probed += 1;
        if probed == 3 {
            break;
        }
    }
}

/// One move by a random acting seat: its answer is the engine's view and redacted log for that
/// seat (everything once the move ends the match); with an `Idempotency-Key`, the same seat's
/// retry gets the same answer and no other caller can fetch it with the key.
async fn play_one<G: Game>(m: &mut Hosted, truth: &Truth<G>, with_key: bool) -> Truth<G> {
    let to_act = G::to_act(&truth.state);
    assert!(!to_act.is_empty(), "someone may act");
    let seat = to_act[(m.rng.next_u64() as usize) % to_act.len()];
    let moves = G::legal_moves(&truth.state, seat);
    assert!(
        !moves.is_empty(),
        "seat {seat} may act but has no legal move"
    );
    for mv in &moves {
        let mv = engine::to_json(mv);
        if m.seen_moves.len() < 400 && !m.seen_moves.contains(&mv) {
            m.seen_moves.push(mv);
        }
    }
    let moves: Vec<Value> = moves.iter().map(engine::to_json).collect();
    let mv = pick_move(m.kind, &moves, &mut m.rng);
    let body = json!({"expected_version": truth.row.version, "move": mv});
    let key = with_key.then(|| format!("leak-{}", truth.row.version));
    let reply = m
        .post("/moves", &body, Caller::Seat(seat), key.as_deref(), false)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{mv}: {}", reply.body);
    let after = m.truth::<G>().await;
    let over = G::is_over(&after.state);
    let viewer = Hosted::viewer(Caller::Seat(seat), over);
    assert_eq!(
        reply.body["view"],
        engine::to_json(&G::view(&after.state, viewer)),
        "the move answer is the mover's view"
    );
    assert_eq!(reply.body["version"], after.row.version);
    let entries = reply.body["entries"].as_array().unwrap();
    let first = truth.rows.len();
    assert_eq!(entries.len(), after.rows.len() - first);
    for (i, entry) in entries.iter().enumerate() {
        assert_eq!(
            without_at(entry),
            expected_entry::<G>(&after.rows[first + i], &after.events[first + i], viewer),
            "the move answer's log entry {i}"
        );
    }
    let Some(key) = key else {
        return after;
    };
    let again = m
        .post("/moves", &body, Caller::Seat(seat), Some(&key), over)
        .await;
    assert_eq!(again.body, reply.body, "a retry gets the first answer");
    for caller in m.callers() {
        if caller == Caller::Seat(seat) {
            continue;
        }
        let mut stolen_body = body.clone();
        if caller == Caller::Owner {
            stolen_body["seat"] = json!(seat);
        }
        let stolen = m
            .post("/moves", &stolen_body, caller, Some(&key), over)
            .await;
        assert!(
            stolen.body.get("entries").is_none() && stolen.body.get("view").is_none(),
            "{caller:?} fetched seat {seat}'s answer with its Idempotency-Key: {}",
            stolen.body
        );
        assert!(stolen.status.is_client_error(), "{}", stolen.body);
    }
    after
}

/// A random legal move; in Luck Plus mostly one that gets cards out of the hand, or a hand of
/// random moves lasts for hundreds of plies.
fn pick_move(kind: GameKind, moves: &[Value], rng: &mut ChaCha8Rng) -> Value {
    let eager: Vec<&Value> = moves
        .iter()
        .filter(|mv| {
            ["roll", "play", "luck_plus", "bonus"].contains(&mv["type"].as_str().unwrap_or(""))
        })
        .collect();
    if kind == GameKind::LuckPlus && !eager.is_empty() && rng.next_u64() % 5 != 0 {
        return eager[(rng.next_u64() as usize) % eager.len()].clone();
    }
    moves[(rng.next_u64() as usize) % moves.len()].clone()
}

/// After the end: everything is public, the seed is revealed to everyone, matches its
/// commitment and explains every chance outcome of the log.
async fn check_the_end<G: Game>(m: &mut Hosted) {
    let truth = m.truth::<G>().await;
    assert!(G::is_over(&truth.state));
    assert_eq!(truth.row.status, referee::records::MatchStatus::Finished);
    let seed_hex = m.seed.to_hex();
    for caller in m.callers() {
        let who = format!("{caller:?} after the end");
        let detail = m.get("", caller, true).await;
        assert_eq!(detail.status, StatusCode::OK, "{who}");
        assert_eq!(detail.body["seed"], seed_hex, "{who}: the seed is revealed");
        assert_eq!(detail.body["seed_sha256"], m.seed.sha256_hex());
        assert_eq!(detail.body["viewer"], "full");
        assert_eq!(
            detail.body["view"],
            engine::to_json(&G::view(&truth.state, Viewer::Full))
        );
        let export = m.get("/export", caller, true).await;
        assert_eq!(export.status, StatusCode::OK, "{who}: {}", export.body);
        assert_eq!(export.body["seed"], seed_hex);
        let log = m.get("/log", caller, true).await;
        for ((entry, row), events) in log.body["entries"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&truth.rows)
            .zip(&truth.events)
        {
            assert_eq!(
                without_at(entry),
                expected_entry::<G>(row, events, Viewer::Full)
            );
        }
    }
    let seed_bytes = hex::decode(&seed_hex).unwrap();
    assert_eq!(
        hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&seed_bytes)),
        m.seed.sha256_hex(),
        "the revealed seed matches the commitment"
    );
    // Anyone can re-derive each chance outcome from the revealed seed.
    let options: G::Options = serde_json::from_value(truth.row.options.clone()).unwrap();
    let mut state = Consistent::<G>::new(G::validate_options(&options, m.seats.len()).unwrap());
    let mut derived: BTreeMap<i64, Value> = BTreeMap::new();
    for (i, (outcome, _)) in engine::resolve_from_seed::<G>(&mut state, &m.seed, 1)
        .into_iter()
        .enumerate()
    {
        derived.insert(i as i64 + 1, engine::to_json(&outcome));
    }
    for row in &truth.rows {
        match row.seat {
            None => assert_eq!(
                derived.get(&row.ply),
                Some(&row.payload),
                "chance at ply {} comes from the seed",
                row.ply
            ),
            Some(seat) => {
                let mv: G::Move = serde_json::from_value(row.payload.clone()).unwrap();
                engine::play_move::<G>(&mut state, seat as Seat, &mv).unwrap();
                for (i, (outcome, _)) in
                    engine::resolve_from_seed::<G>(&mut state, &m.seed, row.ply as u64 + 1)
                        .into_iter()
                        .enumerate()
                {
                    derived.insert(row.ply + 1 + i as i64, engine::to_json(&outcome));
                }
            }
        }
    }
}

/// A live stream read to its end in a task: its events and its text.
type Watcher = tokio::task::JoinHandle<(Vec<StreamEvent>, String)>;

/// What each caller's live stream showed over the whole match. Entries read while the match was
/// on are redacted for the caller, exactly as its `/log` showed them then; entries read after the
/// end may show everything, as `/log` then does. Nothing before the final view holds the seed.
async fn check_live_streams<G: Game>(m: &mut Hosted, watchers: Vec<(Caller, Watcher)>) {
    let truth = m.truth::<G>().await;
    for (caller, watcher) in watchers {
        let (events, text) = watcher.await.unwrap();
        let who = format!("{caller:?}'s live stream");
        let kinds: Vec<&str> = events
            .iter()
            .rev()
            .take(2)
            .map(|e| e.kind.as_str())
            .collect();
        assert_eq!(kinds, ["end", "view"], "{who} ends after the final view");
        let last_open_view = events
            .iter()
            .rposition(|e| e.kind == "view" && e.data["match"]["status"] == "in_progress")
            .unwrap_or(0);
        let mut plies = Vec::new();
        for (at, event) in events.iter().enumerate().filter(|(_, e)| e.kind == "entry") {
            let ply = event.id.unwrap();
            plies.push(ply);
            let index = (ply - 1) as usize;
            let (row, evs) = (&truth.rows[index], &truth.events[index]);
            let redacted = expected_entry::<G>(row, evs, Hosted::viewer(caller, false));
            let entry = without_at(&event.data["entry"]);
            if at < last_open_view {
                assert_eq!(entry, redacted, "{who}: ply {ply}");
            } else {
                let full = expected_entry::<G>(row, evs, Viewer::Full);
                assert!(entry == redacted || entry == full, "{who}: ply {ply}");
            }
        }
        assert_eq!(plies, (1..=truth.row.version).collect::<Vec<_>>(), "{who}");
        let final_view = text.rfind("event: view").unwrap();
        let before_end = Reply {
            status: StatusCode::OK,
            headers: Default::default(),
            body: Value::String(text[..final_view].to_owned()),
        };
        m.assert_no_secret(&before_end, caller, false, "the live stream before the end");
    }
}

/// Plays `seeds` matches of game `G` with every check.
async fn leak_property<G: Game>(seeds: &[u8]) {
    let mut finished = 0;
    for &seed_byte in seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(0x1eaf_0000 + seed_byte as u64);
        let app = spawn_app().await;
        let mut m = host::<G>(app, seed_byte, &mut rng).await;
        let mut truth = m.truth::<G>().await;
        // Every caller holds a live stream for the whole match, read as it comes.
        let mut watchers = Vec::new();
        for caller in m.callers() {
            let path = m.path("/stream?after=0");
            let mut stream = m.app.stream(&path, m.token(caller), &[]).await.unwrap();
            watchers.push((
                caller,
                tokio::spawn(async move {
                    let events = stream.until_closed().await;
                    (events, stream.text)
                }),
            ));
        }
        check_everything::<G>(&mut m).await;
        // Checkpoints thin out as the match goes on: about 8 in 50 moves, 12 in 300.
        let mut next_check = 1;
        let mut moves = 0;
        while !G::is_over(&truth.state) && moves < MOVE_CAP {
            let checkpoint = moves + 1 == next_check;
            truth = play_one::<G>(&mut m, &truth, checkpoint).await;
            moves += 1;
            if checkpoint {
                next_check += 2 + moves / 2 + (m.rng.next_u64() % 3) as usize;
                if !G::is_over(&truth.state) {
                    check_everything::<G>(&mut m).await;
                }
            }
        }
        if G::is_over(&truth.state) {
            check_the_end::<G>(&mut m).await;
            check_live_streams::<G>(&mut m, watchers).await;
            finished += 1;
        } else {
            for (_, watcher) in watchers {
                watcher.abort();
            }
            check_everything::<G>(&mut m).await;
        }
    }
    assert!(
        finished > 0,
        "at least one {} match must reach its end",
        G::KIND.slug()
    );
}

/// Security requirement: no seat can read another seat's hidden cards or the seed before the end
/// through any endpoint (match, log, replay, result, export, move answers, error answers); the
/// seed is revealed at the end and matches its commitment.
#[tokio::test]
async fn no_lucky_jack_seat_sees_another_seats_hand_draws_or_the_seed_through_any_endpoint() {
    leak_property::<referee::games::lucky_jack::LuckyJack>(&[1, 2, 3]).await;
}

/// Security requirement: no seat can read another seat's hidden cards or the seed before the end
/// through any endpoint; a face-down Lucky Luau draw stays the drawer's until it is strung.
#[tokio::test]
async fn no_lucky_luau_seat_sees_another_seats_face_down_draw_or_the_seed_through_any_endpoint() {
    leak_property::<referee::games::lucky_luau::LuckyLuau>(&[4, 5, 6]).await;
}

/// Security requirement: no seat can read another seat's hidden cards or the seed before the end
/// through any endpoint; Plus & Minus hands, draws and passed cards stay with their seats.
#[tokio::test]
async fn no_plus_minus_seat_sees_another_seats_hand_or_passed_card_or_the_seed_through_any_endpoint(
) {
    leak_property::<referee::games::plus_minus::PlusMinus>(&[7, 8, 9]).await;
}

/// Security requirement: no seat can read the draw pile's order or the seed before the end
/// through any endpoint (Luck Plus hands are public; the pile and the future dice are not).
#[tokio::test]
async fn no_luck_plus_seat_sees_the_draw_pile_or_the_seed_through_any_endpoint() {
    leak_property::<referee::games::luck_plus::LuckPlus>(&[10, 11, 12]).await;
}

/// Security requirement: no seat can predict future chance before the end: the Lucky Dice seed
/// (every future roll) and the coaster pile never reach any caller through any endpoint.
#[tokio::test]
async fn no_lucky_dice_seat_sees_the_coaster_pile_or_the_seed_through_any_endpoint() {
    leak_property::<referee::games::lucky_dice::LuckyDice>(&[13, 14, 15]).await;
}
