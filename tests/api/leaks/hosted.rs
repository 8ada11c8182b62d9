//! The match under test: who calls, how it is hosted and re-seeded, requests made as each
//! caller (every answer checked for secrets), and the truth read back from the database.

use base64::Engine as _;
use diesel::{ExpressionMethods, QueryDsl};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use referee::games::{Consistent, Game, GameKind, Seat, ValidOptions, Viewer};
use referee::referee::{self as engine, GameInput, Input};
use referee::seed::Seed;
use referee::store::matches::{self as q, EventRow, MatchRow};
use reqwest::StatusCode;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::support::{owner_token, seat_tokens, Reply, TestApp};

/// Who calls: a seat's token, the owner's, or nobody's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Caller {
    Seat(Seat),
    Owner,
    Anonymous,
}

pub(super) struct Hosted {
    pub(super) app: TestApp,
    pub(super) conn: AsyncPgConnection,
    pub(super) kind: GameKind,
    pub(super) id: Uuid,
    pub(super) owner: String,
    pub(super) seats: Vec<String>,
    pub(super) seed: Seed,
    /// Strings that must not appear in any answer before the end: the seed in every spelling.
    pub(super) seed_spellings: Vec<String>,
    /// Moves seen listed as legal at some point: the pool illegal probes are drawn from.
    pub(super) seen_moves: Vec<Value>,
    /// Take-backs asked for and accepted: each game's matches must see both kinds of answer.
    pub(super) take_backs: (usize, usize),
    pub(super) rng: ChaCha8Rng,
}

/// The match as stored, replayed with the library: the state, the log and each ply's events.
pub(super) struct Truth<G: Game> {
    pub(super) row: MatchRow,
    pub(super) rows: Vec<EventRow>,
    pub(super) state: Consistent<G>,
    pub(super) events: Vec<Vec<G::Event>>,
}

impl Hosted {
    pub(super) fn token(&self, caller: Caller) -> Option<&str> {
        match caller {
            Caller::Seat(s) => Some(&self.seats[s]),
            Caller::Owner => Some(&self.owner),
            Caller::Anonymous => None,
        }
    }

    pub(super) fn callers(&self) -> Vec<Caller> {
        (0..self.seats.len())
            .map(Caller::Seat)
            .chain([Caller::Anonymous, Caller::Owner])
            .collect()
    }

    pub(super) fn viewer(caller: Caller, over: bool) -> Viewer {
        match caller {
            _ if over => Viewer::Full,
            Caller::Seat(s) => Viewer::Seat(s),
            Caller::Owner => Viewer::Full,
            Caller::Anonymous => Viewer::Spectator,
        }
    }

    pub(super) fn path(&self, tail: &str) -> String {
        format!("/v1/matches/{}{tail}", self.id)
    }

    pub(super) async fn get(&self, tail: &str, caller: Caller, over: bool) -> Reply {
        let reply = self.app.get(&self.path(tail), self.token(caller)).await;
        self.assert_no_secret(&reply, caller, over, &format!("GET {tail}"));
        reply
    }

    /// The whole log as `caller` reads it, page after page of `limit` entries (each page checked
    /// for secrets like any answer), following `next_after` to the last page.
    pub(super) async fn log_in_pages(&self, caller: Caller, over: bool, limit: u64) -> Vec<Value> {
        let mut entries = Vec::new();
        let mut after = 0;
        loop {
            let page = self
                .get(&format!("/log?after={after}&limit={limit}"), caller, over)
                .await;
            assert_eq!(
                page.status,
                reqwest::StatusCode::OK,
                "{caller:?}: {}",
                page.body
            );
            entries.extend(page.body["entries"].as_array().unwrap().iter().cloned());
            match page.body["next_after"].as_i64() {
                Some(next) => after = next,
                None => return entries,
            }
        }
    }

    pub(super) async fn post(
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
    pub(super) fn assert_no_secret(&self, reply: &Reply, caller: Caller, over: bool, what: &str) {
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

    pub(super) async fn truth<G: Game>(&mut self) -> Truth<G> {
        let mut row = q::find(&mut self.conn, self.id).await.unwrap().unwrap();
        let rows = q::events(&mut self.conn, self.id).await.unwrap();
        let options: G::Options = serde_json::from_value(row.options.clone()).unwrap();
        let options = G::validate_options(&options, self.seats.len()).unwrap();
        // The snapshot stands at its own version; the log is the truth and may run ahead.
        let (snapshot, _) = replay_log::<G>(options.clone(), &rows, row.version as usize);
        assert_eq!(engine::to_json(&snapshot), row.state, "snapshot = replay");
        let (state, events) = replay_log::<G>(options, &rows, rows.len());
        row.version = rows.len() as i64;
        row.state = engine::to_json(&state);
        Truth {
            row,
            rows,
            state,
            events,
        }
    }
}

/// The first `upto` rows of a log replayed by the test's own oracle, not the service's mending
/// code: it keeps the state before every entry that stands, and a take-back or a correction
/// must name the newest of them, whose state it returns to. Returns the state and each row's
/// events (none for a take-back).
pub(super) fn replay_log<G: Game>(
    options: ValidOptions<G::Options>,
    rows: &[EventRow],
    upto: usize,
) -> (Consistent<G>, Vec<Vec<G::Event>>) {
    let mut state = Consistent::<G>::new(options);
    let mut standing: Vec<(i64, Consistent<G>)> = Vec::new();
    let mut events = Vec::new();
    for row in &rows[..upto] {
        let before = state.clone();
        let input: Option<GameInput<G>> = match (row.seat, row.revises) {
            (Some(seat), None) => Some(Input::Move {
                seat: seat as Seat,
                mv: serde_json::from_value(row.payload.clone()).unwrap(),
            }),
            (None, _) => Some(Input::Chance(
                serde_json::from_value(row.payload.clone()).unwrap(),
            )),
            (Some(_), Some(_)) => None,
        };
        let before = match row.revises {
            Some(mended) => {
                let (ply, before) = standing.pop().expect("a mending has an entry to mend");
                assert_eq!(ply, mended, "ply {} mends the newest entry", row.ply);
                state = before.clone();
                before
            }
            None => before,
        };
        match input {
            Some(input) => {
                let played = engine::play_input::<G>(&mut state, &input)
                    .unwrap_or_else(|e| panic!("the log fails to replay at ply {}: {e}", row.ply));
                events.push(played);
                standing.push((row.ply, before));
            }
            None => events.push(Vec::new()),
        }
    }
    (state, events)
}

pub(super) fn options_for(kind: GameKind) -> Value {
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
pub(super) async fn host<G: Game>(app: TestApp, seed_byte: u8, rng: &mut ChaCha8Rng) -> Hosted {
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
        take_backs: (0, 0),
        rng: ChaCha8Rng::seed_from_u64(rng.next_u64()),
    }
}

/// Replaces the match's seed and its first chance (the log is append-only, so its trigger is
/// bypassed for this one session).
pub(super) async fn reseed<G: Game>(
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
            revises: None,
            reported_by: None,
            restores: None,
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
