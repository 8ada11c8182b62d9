//! Hosted matches: whole games, table randomness, versions, idempotency, tokens, history.

use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::support::{every_pipeline, spawn_app_on, Pipeline};
use crate::support::{match_id, owner_token, play_to_end, seat_token, TestApp};

every_pipeline!(a_server_seeded_match_is_played_scored_replayed_and_exported);
async fn a_server_seeded_match_is_played_scored_replayed_and_exported(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_lucky_jack(
            &["Ann", "Ben", "Cleo"],
            json!({"rounds": 3, "max_turns_per_round": 40}),
            "server",
        )
        .await;
    let id = match_id(&created);
    let seed_hash = created["match"]["seed_sha256"].as_str().unwrap().to_owned();
    assert!(
        created["match"]["seed"].is_null(),
        "the seed stays secret while the match runs"
    );

    let finished = play_to_end(&app, &created).await;
    assert_eq!(finished["status"], "finished");

    // The result names the seats with the best total; all of them on a tie.
    let result = app.get(&format!("/v1/matches/{id}/result"), None).await;
    assert_eq!(result.status, StatusCode::OK);
    let totals: Vec<i64> = result.body["standings"]["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    let best = *totals.iter().max().unwrap();
    let expected: Vec<usize> = (0..3).filter(|&s| totals[s] == best).collect();
    let winners: Vec<usize> = result.body["standings"]["winners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(winners, expected);
    assert_eq!(
        result.body["breakdown"]["rounds"].as_array().unwrap().len(),
        3
    );

    // The seed is revealed and matches the hash published at creation.
    let seed = finished["seed"].as_str().expect("seed revealed at the end");
    assert_eq!(
        hex::encode(Sha256::digest(hex::decode(seed).unwrap())),
        seed_hash
    );

    // The stored snapshot equals the replay of the whole log.
    let version = finished["version"].as_i64().unwrap();
    let replayed = app
        .get(&format!("/v1/matches/{id}/plies/{version}"), None)
        .await;
    assert_eq!(replayed.status, StatusCode::OK);
    assert_eq!(replayed.body["view"], finished["view"]);

    // The export replays, with no generator, to the same result.
    let export = app.get(&format!("/v1/matches/{id}/export"), None).await;
    assert_eq!(export.status, StatusCode::OK);
    assert_eq!(export.body["seed"], seed);
    assert_eq!(export.body["log"].as_array().unwrap().len() as i64, version);
    let parsed: referee::matches::MatchExport =
        serde_json::from_value(export.body.clone()).unwrap();
    let verified = referee::matches::verify_export(&parsed).unwrap();
    assert_eq!(
        serde_json::to_value(&verified).unwrap()["standings"],
        result.body["standings"]
    );

    // It is listed as finished, with its winners by name.
    let list = app
        .get("/v1/matches?status=finished&game=lucky-jack", None)
        .await;
    assert_eq!(list.body["items"][0]["id"], id.as_str());
    assert_eq!(
        list.body["items"][0]["winners"].as_array().unwrap().len(),
        expected.len()
    );

    // A finished match takes no more moves.
    let late = app
        .post_move(
            &id,
            Some(&seat_token(&created, 0)),
            None,
            &json!({"type": "draw"}),
        )
        .await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    assert_eq!(late.body["code"], "match_finished");
    app.audit_snapshots().await;
}

every_pipeline!(a_table_match_takes_the_deal_and_draws_from_the_table_and_checks_them);
async fn a_table_match_takes_the_deal_and_draws_from_the_table_and_checks_them(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "table")
        .await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    assert_eq!(created["match"]["version"], 0);
    assert_eq!(created["match"]["chance_pending"], true);
    assert!(created["match"]["seed_sha256"].is_null());

    // Nobody moves before the deal is reported.
    let early = app
        .post_move(
            &id,
            Some(&seat_token(&created, 1)),
            None,
            &json!({"type": "draw"}),
        )
        .await;
    assert_eq!(early.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(early.body["code"], "chance_pending");

    // A deal with a card too many is impossible at this table: 13 jacks do not exist.
    let impossible = json!({"kind": "deal", "hands": [
        ["jack","jack","jack","jack","jack","jack","jack"],
        ["jack","jack","jack","jack","jack","jack","seven"]], "flip": "bell"});
    let refused = app
        .post_chance(&id, Some(&owner), None, &json!(impossible))
        .await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );

    // Spectators may not report chance.
    let deal = json!({"kind": "deal", "hands": [
        ["lemon","cherry","grape","clover","bell","seven","jack"],
        ["lemon","lemon","lemon","grape","clover","seven","seven"]], "flip": "clover"});
    let anonymous = app.post_chance(&id, None, None, &json!(deal)).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);

    let dealt = app
        .post_chance(&id, Some(&owner), Some(json!(0)), &json!(deal))
        .await;
    assert_eq!(dealt.status, StatusCode::OK, "{}", dealt.body);
    assert_eq!(dealt.body["version"], 1);
    // Seat 1 starts (left of dealer 0) and discards a seven on the clover: no penalty.
    let seat1 = seat_token(&created, 1);
    let played = app
        .post_move(
            &id,
            Some(&seat1),
            Some(json!(1)),
            &json!({"type": "discard", "card": "seven"}),
        )
        .await;
    assert_eq!(played.status, StatusCode::OK, "{}", played.body);
    assert_eq!(played.body["version"], 2);
    assert_eq!(played.body["chance_pending"], false);

    // Seat 0 discards a lower symbol and must draw two: the table reports them.
    let lower = app
        .post_move(
            &id,
            Some(&seat_token(&created, 0)),
            None,
            &json!({"type": "discard", "card": "lemon"}),
        )
        .await;
    assert_eq!(lower.status, StatusCode::OK, "{}", lower.body);
    assert_eq!(lower.body["chance_pending"], true);
    let drawn = app
        .post_chance(
            &id,
            Some(&seat_token(&created, 0)),
            None,
            &json!({"kind": "draw", "cards": ["bell", "bell"]}),
        )
        .await;
    assert_eq!(drawn.status, StatusCode::OK, "{}", drawn.body);
    let me = app.read_match(&id, Some(&seat_token(&created, 0))).await;
    assert_eq!(me.body["view"]["hand_sizes"][0], 8);

    // Server-randomness matches refuse reported outcomes.
    let server = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let refused = app
        .post(
            &format!(
                "/v1/matches/{}/chance",
                server["match"]["id"].as_str().unwrap()
            ),
            &json!({"outcome": deal}),
            Some(&owner_token(&server)),
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert_eq!(refused.body["code"], "server_randomness");
    app.audit_snapshots().await;
}

every_pipeline!(a_stale_expected_version_is_a_conflict_and_changes_nothing);
async fn a_stale_expected_version_is_a_conflict_and_changes_nothing(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let seat = created["match"]["to_act"][0].as_u64().unwrap() as usize;
    let token = seat_token(&created, seat);
    let stale = app
        .post_move(&id, Some(&token), Some(json!(0)), &json!({"type": "draw"}))
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert_eq!(stale.body["code"], "stale_version");
    assert_eq!(stale.body["params"]["current"], 1);
    let after = app.read_match(&id, None).await;
    assert_eq!(after.body["version"], 1);
    app.audit_snapshots().await;
}

every_pipeline!(an_idempotent_retry_gets_the_first_answer_and_stores_nothing_twice);
async fn an_idempotent_retry_gets_the_first_answer_and_stores_nothing_twice(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let seat = created["match"]["to_act"][0].as_u64().unwrap() as usize;
    let token = seat_token(&created, seat);
    let send = |body: Value| {
        app.client
            .post(format!("{}/v1/matches/{id}/moves", app.base))
            .bearer_auth(&token)
            .header("Idempotency-Key", "move-42")
            .json(&body)
    };
    let body = json!({"expected_version": 1, "move": {"type": "draw"}});
    let first = app.send(send(body.clone())).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    // The retry carries the now-stale version, yet gets the first answer back.
    let retry = app.send(send(body)).await;
    assert_eq!(retry.status, StatusCode::OK);
    assert_eq!(retry.body, first.body);
    let log = app
        .get(
            &format!("/v1/matches/{id}/log"),
            Some(&owner_token(&created)),
        )
        .await;
    assert_eq!(
        log.body["entries"].as_array().unwrap().len() as i64,
        first.body["version"].as_i64().unwrap()
    );

    // The same key for a different request is refused.
    let other = app.send(send(json!({"move": {"type": "keep"}}))).await;
    assert_eq!(other.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(other.body["code"], "idempotency_key_reused");
    app.audit_snapshots().await;
}

every_pipeline!(tokens_decide_who_moves_and_what_each_viewer_sees);
async fn tokens_decide_who_moves_and_what_each_viewer_sees(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben", "Cleo"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let path = format!("/v1/matches/{id}");

    // No token: a move is refused; a bad token is refused everywhere.
    let anonymous = app
        .post(
            &format!("{path}/moves"),
            &json!({"move": {"type": "draw"}}),
            None,
        )
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        anonymous.headers["content-type"],
        "application/problem+json"
    );
    let forged = app.get(&path, Some("seat_forged")).await;
    assert_eq!(forged.status, StatusCode::UNAUTHORIZED);

    // A seat token moves only for its own seat.
    let acting = created["match"]["to_act"][0].as_u64().unwrap() as usize;
    let other = (acting + 1) % 3;
    let wrong = app
        .post(
            &format!("{path}/moves"),
            &json!({"seat": acting, "move": {"type": "draw"}}),
            Some(&seat_token(&created, other)),
        )
        .await;
    assert_eq!(wrong.status, StatusCode::FORBIDDEN);
    assert_eq!(wrong.body["code"], "wrong_seat");
    let not_turn = app
        .post(
            &format!("{path}/moves"),
            &json!({"move": {"type": "draw"}}),
            Some(&seat_token(&created, other)),
        )
        .await;
    assert_eq!(not_turn.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(not_turn.body["code"], "not_your_turn");
    assert_eq!(not_turn.body["params"]["to_act"], json!([acting]));

    // The owner may move for a seat it names.
    let by_owner = app
        .post(
            &format!("{path}/moves"),
            &json!({"seat": acting, "move": {"type": "draw"}}),
            Some(&owner_token(&created)),
        )
        .await;
    assert_eq!(by_owner.status, StatusCode::OK, "{}", by_owner.body);

    // A seat sees its own hand only; a spectator sees none; nobody but the owner sees the pile.
    for seat in 0..3 {
        let view = app.get(&path, Some(&seat_token(&created, seat))).await.body["view"].clone();
        for other in 0..3 {
            assert_eq!(
                view["hands"][other].is_array(),
                seat == other,
                "seat {seat} sees hand {other}?"
            );
        }
        assert!(view["draw_pile"].is_null());
        let log = app
            .get(&format!("{path}/log"), Some(&seat_token(&created, seat)))
            .await
            .body;
        for entry in log["entries"].as_array().unwrap() {
            assert!(
                entry["chance"].is_null(),
                "chance outcomes hold hidden cards"
            );
            for event in entry["events"].as_array().unwrap() {
                if event["type"] == "dealt" && event["seat"] != seat {
                    assert!(event["cards"].is_null(), "seat {seat} saw {event}");
                }
            }
        }
    }
    let spectator = app.get(&path, None).await.body;
    assert_eq!(spectator["viewer"], "spectator");
    assert!(spectator["view"]["hands"]
        .as_array()
        .unwrap()
        .iter()
        .all(Value::is_null));
    let full = app.get(&path, Some(&owner_token(&created))).await.body;
    assert!(full["view"]["draw_pile"].is_object());

    // Before the end only the owner may export (the log holds every hand), and never the seed.
    let export = app
        .get(&format!("{path}/export"), Some(&seat_token(&created, 0)))
        .await;
    assert_eq!(export.status, StatusCode::FORBIDDEN);
    let export = app
        .get(&format!("{path}/export"), Some(&owner_token(&created)))
        .await;
    assert_eq!(export.status, StatusCode::OK);
    assert!(export.body["seed"].is_null());
    app.audit_snapshots().await;
}

every_pipeline!(the_state_at_any_ply_is_rebuilt_from_the_log);
async fn the_state_at_any_ply_is_rebuilt_from_the_log(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let before = app.get(&format!("/v1/matches/{id}/plies/0"), None).await;
    assert_eq!(before.status, StatusCode::OK);
    assert_eq!(before.body["chance_pending"], true, "before the deal");
    let dealt = app
        .get(
            &format!("/v1/matches/{id}/plies/1"),
            Some(&owner_token(&created)),
        )
        .await;
    let now = app.read_match(&id, Some(&owner_token(&created))).await;
    assert_eq!(dealt.body["view"], now.body["view"]);
    let beyond = app.get(&format!("/v1/matches/{id}/plies/2"), None).await;
    assert_eq!(beyond.status, StatusCode::NOT_FOUND);
    assert_eq!(beyond.body["code"], "unknown_ply");
}

async fn create_named(app: &TestApp, names: &[&str]) -> String {
    match_id(&app.create_lucky_jack(names, json!({}), "server").await)
}

every_pipeline!(the_match_list_filters_and_pages_without_skipping_or_repeating);
async fn the_match_list_filters_and_pages_without_skipping_or_repeating(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let mut created = Vec::new();
    for i in 0..5 {
        created.push(create_named(&app, &["Ann", if i % 2 == 0 { "Ben" } else { "Cleo" }]).await);
    }
    // Pages of two, newest first; a match created mid-way does not disturb the walk.
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/v1/matches?limit=2&cursor={c}"),
            None => "/v1/matches?limit=2".to_owned(),
        };
        let page = app.get(&path, None).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        for item in page.body["items"].as_array().unwrap() {
            seen.push(item["id"].as_str().unwrap().to_owned());
        }
        if seen.len() == 2 {
            create_named(&app, &["Dana", "Eve"]).await;
        }
        match page.body["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    let mut expected = created.clone();
    expected.reverse();
    assert_eq!(seen, expected);

    // Player names compare case-insensitively.
    let cleo = app.get("/v1/matches?player=cLEO", None).await;
    assert_eq!(cleo.body["items"].as_array().unwrap().len(), 2);
    assert_eq!(cleo.body["total"], 2);
    let all = app.get("/v1/matches?limit=2", None).await;
    assert_eq!(all.body["total"], 6, "the total counts every page");
    let in_progress = app.get("/v1/matches?status=in_progress", None).await;
    assert_eq!(in_progress.body["items"].as_array().unwrap().len(), 6);
    let bad = app.get("/v1/matches?cursor=nonsense", None).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.body["code"], "invalid_cursor");
    app.audit_snapshots().await;
}

every_pipeline!(of_many_identical_moves_sent_at_once_exactly_one_is_accepted);
async fn of_many_identical_moves_sent_at_once_exactly_one_is_accepted(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let seat = created["match"]["to_act"][0].as_u64().unwrap() as usize;
    let token = seat_token(&created, seat);
    let body = json!({"expected_version": 1, "move": {"type": "draw"}});
    let path = format!("/v1/matches/{id}/moves");
    let attempts = (0..16).map(|_| app.post(&path, &body, Some(&token)));
    let replies = futures_util::future::join_all(attempts).await;
    let accepted = replies
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .count();
    let conflicts = replies
        .iter()
        .filter(|r| r.status == StatusCode::CONFLICT)
        .count();
    assert_eq!((accepted, conflicts), (1, 15));
    app.audit_snapshots().await;
}

every_pipeline!(a_match_played_under_other_rules_is_never_replayed_under_these);
async fn a_match_played_under_other_rules_is_never_replayed_under_these(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    app.sql(&format!(
        "UPDATE matches SET rules_version = 'lucky-jack/0' WHERE id = '{id}'"
    ))
    .await;
    for path in ["", "/log", "/plies/1"] {
        let reply = app.get(&format!("/v1/matches/{id}{path}"), None).await;
        assert_eq!(reply.status, StatusCode::CONFLICT, "{path}: {}", reply.body);
        assert_eq!(reply.body["code"], "rules_version_unsupported");
        assert_eq!(reply.body["params"]["rules_version"], "lucky-jack/0");
    }
    let seat = created["match"]["to_act"][0].as_u64().unwrap() as usize;
    let moved = app
        .post_move(
            &id,
            Some(&seat_token(&created, seat)),
            None,
            &json!({"type": "draw"}),
        )
        .await;
    assert_eq!(moved.body["code"], "rules_version_unsupported");
    // Its history stays readable.
    let listed = app.get("/v1/matches", None).await;
    assert_eq!(listed.body["items"][0]["id"], id.as_str());
}

every_pipeline!(idempotent_retries_racing_each_other_store_one_move_and_share_one_answer);
async fn idempotent_retries_racing_each_other_store_one_move_and_share_one_answer(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let seat = created["match"]["to_act"][0].as_u64().unwrap() as usize;
    let token = seat_token(&created, seat);
    let attempts = (0..32).map(|_| {
        app.send(
            app.client
                .post(format!("{}/v1/matches/{id}/moves", app.base))
                .bearer_auth(&token)
                .header("Idempotency-Key", "the-same-draw")
                .json(&json!({"move": {"type": "draw"}})),
        )
    });
    let replies = futures_util::future::join_all(attempts).await;
    assert!(
        replies.iter().all(|r| r.status == StatusCode::OK),
        "every retry gets the answer"
    );
    assert!(
        replies.iter().all(|r| r.body == replies[0].body),
        "and the same answer"
    );
    let log = app
        .get(
            &format!("/v1/matches/{id}/log"),
            Some(&owner_token(&created)),
        )
        .await;
    let moves = log.body["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| !e["seat"].is_null())
        .count();
    assert_eq!(moves, 1, "one stored move");
    app.audit_snapshots().await;
}

every_pipeline!(two_service_instances_on_one_database_lose_no_update);
async fn two_service_instances_on_one_database_lose_no_update(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let second = app.second_instance().await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let seat = created["match"]["to_act"][0].as_u64().unwrap() as usize;
    let token = seat_token(&created, seat);
    // The same ply through both instances at once: exactly one wins.
    let body = json!({"expected_version": 1, "move": {"type": "draw"}});
    let path = format!("/v1/matches/{id}/moves");
    let (a, b) = tokio::join!(
        app.post(&path, &body, Some(&token)),
        second.post(&path, &body, Some(&token))
    );
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    // Each instance sees what the other wrote.
    let through_second = second.read_match(&id, None).await;
    assert_eq!(
        through_second.body["version"],
        app.read_match(&id, None).await.body["version"]
    );
    app.audit_snapshots().await;
}
