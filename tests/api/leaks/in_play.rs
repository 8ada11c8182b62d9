//! While the match is on: every endpoint for every caller, the moves a caller may not make, and
//! one move at a time.

use rand_chacha::rand_core::RngCore;
use rand_chacha::ChaCha8Rng;
use referee::games::{Game, GameKind, Seat, Viewer};
use referee::referee as engine;
use referee::store::matches as q;
use reqwest::StatusCode;
use serde_json::{json, Value};

use super::expected::{assert_problem, expected_entry, problem_of, public_score, without_at};
use super::hosted::{replay_log, Caller, Hosted, Truth};
use crate::support::Reply;

/// Every endpoint, for every caller, against the truth (the match is in progress).
pub(super) async fn check_everything<G: Game>(m: &mut Hosted) {
    let truth = m.truth::<G>().await;
    let version = truth.row.version;
    let over = G::is_over(&truth.state);
    assert!(!over);
    let spectator_view = engine::to_json(&G::view(&truth.state, Viewer::Spectator));
    let earlier = (m.rng.next_u64() % (version as u64 + 1)) as usize;
    let options: G::Options = serde_json::from_value(truth.row.options.clone()).unwrap();
    let options = G::validate_options(&options, m.seats.len()).unwrap();
    let (earlier_state, _) = replay_log::<G>(options, &truth.rows, earlier);

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

        // The log: each ply as the engine redacts it for this viewer, read in pages of a random
        // size (at most eight pages, to keep the test quick).
        let limit = (1 + m.rng.next_u64() % (version as u64 + 1))
            .max(version as u64 / 8 + 1)
            .min(1000);
        let entries = m.log_in_pages(caller, false, limit).await;
        assert_eq!(entries.len(), truth.rows.len(), "{who}: pages of {limit}");
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
            streamed_entries, entries,
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
                .map(|r| match (r.seat, r.revises) {
                    (Some(seat), Some(ply)) => {
                        json!({"ply": r.ply, "seat": seat, "takes_back": ply})
                    }
                    (Some(seat), None) => json!({"ply": r.ply, "seat": seat, "move": r.payload}),
                    (None, _) => json!({"ply": r.ply, "seat": null, "chance": r.payload}),
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
    let logged = q::events(&mut m.conn, m.id).await.unwrap().len() as i64;
    assert_eq!(logged, version, "a refused request changed the match");
}

/// Moves a caller may not make: each refusal is exactly the engine's, stores nothing, and (being
/// computed from the state and the caller's own seat) can say nothing hidden the view does not.
pub(super) async fn probe_moves<G: Game>(
    m: &mut Hosted,
    truth: &Truth<G>,
    caller: Caller,
    who: &str,
) {
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
pub(super) async fn play_one<G: Game>(
    m: &mut Hosted,
    truth: &Truth<G>,
    with_key: bool,
) -> Truth<G> {
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
    let typed: G::Move = serde_json::from_value(mv.clone()).unwrap();
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
    // A third of the moves are taken back at once, whether the policy allows it or not.
    let after = match m.rng.next_u64() % 3 {
        0 => take_back_one::<G>(m, truth, after, seat, &typed).await,
        _ => after,
    };
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

/// `seat` asks to take back the move it just made (`mv`, from `before` to `after`): refused with
/// the condition the policy names (docs/contract.md, "Mending a match": three take-backs in a row
/// at most, counted until another seat acts or a chance event happens), or accepted with the
/// table back as it was before the move, the answer its view and its log entry as redacted.
async fn take_back_one<G: Game>(
    m: &mut Hosted,
    before: &Truth<G>,
    after: Truth<G>,
    seat: Seat,
    mv: &G::Move,
) -> Truth<G> {
    let over = G::is_over(&after.state);
    // The seat's entries at the end of the log, and how many of them are take-backs.
    let in_a_row = after
        .rows
        .iter()
        .rev()
        .take_while(|row| row.seat == Some(seat as i32))
        .filter(|row| row.revises.is_some())
        .count();
    let refusal = if over {
        Some("match_finished")
    } else if in_a_row >= engine::TAKE_BACKS_PER_TURN as usize {
        Some("take_back_limit")
    } else if G::reveals(&before.state, seat, mv) {
        Some("information_revealed")
    } else if after.rows.len() > before.rows.len() + 1 {
        Some("chance_since")
    } else {
        None
    };
    let body = json!({"expected_version": after.row.version});
    let reply = m
        .post("/take-backs", &body, Caller::Seat(seat), None, over)
        .await;
    let who = format!("seat {seat}'s take-back at version {}", after.row.version);
    m.take_backs.0 += 1;
    if let Some(code) = refusal {
        assert_problem(&reply, StatusCode::CONFLICT, code, &who);
        let logged = q::events(&mut m.conn, m.id).await.unwrap().len();
        assert_eq!(logged, after.rows.len(), "{who}: a refusal stores nothing");
        return after;
    }
    assert_eq!(reply.status, StatusCode::OK, "{who}: {}", reply.body);
    m.take_backs.1 += 1;
    let back = m.truth::<G>().await;
    assert_eq!(back.row.version, after.row.version + 1, "{who}");
    assert_eq!(
        engine::to_json(&back.state),
        engine::to_json(&before.state),
        "{who}: the table is as it was before the move"
    );
    let viewer = Hosted::viewer(Caller::Seat(seat), false);
    assert_eq!(
        reply.body["view"],
        engine::to_json(&G::view(&back.state, viewer)),
        "{who}: the answer is the seat's view"
    );
    let last = back.rows.len() - 1;
    assert_eq!(reply.body["entries"].as_array().unwrap().len(), 1);
    assert_eq!(
        without_at(&reply.body["entries"][0]),
        expected_entry::<G>(&back.rows[last], &back.events[last], viewer),
        "{who}: its log entry"
    );
    back
}

/// A random legal move; in Luck Plus mostly one that gets cards out of the hand, or a hand of
/// random moves lasts for hundreds of plies.
pub(super) fn pick_move(kind: GameKind, moves: &[Value], rng: &mut ChaCha8Rng) -> Value {
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
