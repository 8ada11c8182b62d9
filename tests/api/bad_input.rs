//! Bad input the other modules do not already send (see `errors.rs` and `stateless.rs`): each
//! case is a 4xx `application/problem+json` with a stable `code` and a readable `detail`, never a
//! 5xx, a panic or a dropped connection.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{match_id, owner_token, seat_token, seat_tokens, spawn_app, Reply, TestApp};

const SEED: &str = "00000000000000000000000000000000000000000000000000000000000000aa";

fn assert_problem(reply: &Reply, status: StatusCode, code: &str, case: &str) {
    assert_eq!(reply.status, status, "{case}: {}", reply.body);
    assert_eq!(
        reply.headers["content-type"], "application/problem+json",
        "{case}"
    );
    assert_eq!(reply.body["code"], code, "{case}: {}", reply.body);
    assert_eq!(reply.body["status"], status.as_u16(), "{case}");
    let detail = reply.body["detail"].as_str().unwrap_or_default();
    assert!(
        !detail.trim().is_empty() && detail.len() < 2_000,
        "{case}: a short readable detail, got {detail:?}"
    );
}

/// Posts raw bytes as JSON.
async fn post_raw(
    app: &TestApp,
    path: &str,
    body: impl Into<reqwest::Body>,
    token: Option<&str>,
) -> Reply {
    let mut request = app
        .client
        .post(format!("{}{path}", app.base))
        .header("content-type", "application/json")
        .body(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    app.send(request).await
}

struct Running {
    id: String,
    owner: String,
    seat0: String,
    seats: Vec<String>,
}

async fn running_match(app: &TestApp) -> Running {
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    Running {
        id: match_id(&created),
        owner: owner_token(&created),
        seat0: seat_token(&created, 0),
        seats: seat_tokens(&created),
    }
}

async fn seeded_state(app: &TestApp, game: &str, players: usize) -> Value {
    let reply = app
        .post(
            &format!("/v1/games/{game}/states"),
            &json!({"players": players, "seed": SEED}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{game}: {}", reply.body);
    reply.body["state"].clone()
}

#[tokio::test]
async fn truncated_and_malformed_bodies_are_bad_requests_on_every_json_endpoint() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    let paths = [
        format!("/v1/matches/{}/moves", m.id),
        format!("/v1/matches/{}/chance", m.id),
        "/v1/games/lucky-jack/states".to_owned(),
        "/v1/games/lucky-jack/check".to_owned(),
        "/v1/games/lucky-jack/chance".to_owned(),
        "/v1/games/lucky-jack/legal-moves".to_owned(),
        "/v1/games/lucky-jack/score".to_owned(),
        "/v1/games/lucky-jack/view".to_owned(),
        "/v1/games/lucky-jack/tally".to_owned(),
        "/v1/sheets".to_owned(),
    ];
    for path in &paths {
        for body in [
            "",
            "{",
            "{\"move\": {\"type\": \"dr",
            "[1, 2,",
            "{\"a\" 1}",
            "{'single': 'quotes'}",
            "{\"a\": 1} trailing",
            "\u{feff}{}",
            "\u{ff}\u{fe}",
        ] {
            let reply = post_raw(&app, path, body.to_owned(), Some(&m.seat0)).await;
            assert_problem(
                &reply,
                StatusCode::BAD_REQUEST,
                "malformed_body",
                &format!("{path} {body:?}"),
            );
        }
        let invalid_utf8 = post_raw(
            &app,
            path,
            vec![b'{', b'"', 0xff, 0xfe, b'"', b'}'],
            Some(&m.seat0),
        )
        .await;
        assert_problem(
            &invalid_utf8,
            StatusCode::BAD_REQUEST,
            "malformed_body",
            &format!("{path} invalid UTF-8"),
        );
    }
}

#[tokio::test]
async fn unknown_fields_are_refused_at_the_top_level_and_nested() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    let moves = format!("/v1/matches/{}/moves", m.id);
    let cases: Vec<(String, Value, &str)> = vec![
        (
            "/v1/matches".into(),
            json!({"game": "lucky-jack", "seats": [{"name": "Ann", "age": 7}, {"name": "Ben"}]}),
            "malformed_body",
        ),
        (
            moves.clone(),
            json!({"move": {"type": "draw"}, "seat_token": "x"}),
            "malformed_body",
        ),
        (
            moves.clone(),
            json!({"move": {"type": "discard", "card": "bell", "peek": true}}),
            "invalid_move",
        ),
        // A move with no fields of its own still refuses one it does not have.
        (
            moves.clone(),
            json!({"move": {"type": "draw", "peek": true}}),
            "invalid_move",
        ),
        (
            moves.clone(),
            json!({"move": {"type": "keep", "card": "bell"}}),
            "invalid_move",
        ),
        (
            "/v1/games/lucky-jack/states".into(),
            json!({"players": 2, "options": {"rounds": 3, "nested": {"x": 1}}}),
            "invalid_options",
        ),
        (
            "/v1/games/lucky-jack/states".into(),
            json!({"players": 2, "colour": "red"}),
            "malformed_body",
        ),
        (
            "/v1/games/lucky-dice/tally".into(),
            json!({"players": 2, "rounds": [{"emptied": [0], "bonus": 1}]}),
            "invalid_tally",
        ),
        (
            "/v1/sheets".into(),
            json!({"game": "lucky-jack", "players": [{"name": "Ann", "x": 1}, {"name": "Ben"}]}),
            "malformed_body",
        ),
    ];
    for (path, body, code) in cases {
        let reply = app.post(&path, &body, Some(&m.seat0)).await;
        assert_problem(
            &reply,
            StatusCode::BAD_REQUEST,
            code,
            &format!("{path} {body}"),
        );
    }
    // A state with a field the game does not have.
    let mut state = seeded_state(&app, "lucky-jack", 2).await;
    state["hands"][0] = json!(state["hands"][0]);
    state["secret_pile_order"] = json!([1, 2, 3]);
    let reply = app
        .post("/v1/games/lucky-jack/score", &json!({"state": state}), None)
        .await;
    assert_problem(
        &reply,
        StatusCode::BAD_REQUEST,
        "invalid_state",
        "unknown state field",
    );
}

#[tokio::test]
async fn wrong_types_are_bad_requests() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    let moves = format!("/v1/matches/{}/moves", m.id);
    let state = seeded_state(&app, "lucky-jack", 2).await;
    let cases: Vec<(String, Value, &str)> = vec![
        (
            moves.clone(),
            json!({"expected_version": "1", "move": {"type": "draw"}}),
            "malformed_body",
        ),
        (
            moves.clone(),
            json!({"expected_version": 1.5, "move": {"type": "draw"}}),
            "malformed_body",
        ),
        (
            moves.clone(),
            json!({"seat": "0", "move": {"type": "draw"}}),
            "malformed_body",
        ),
        (
            moves.clone(),
            json!({"seat": -1, "move": {"type": "draw"}}),
            "malformed_body",
        ),
        (moves.clone(), json!({"move": "draw"}), "invalid_move"),
        (
            moves.clone(),
            json!({"move": {"type": "discard", "card": 7}}),
            "invalid_move",
        ),
        (
            moves.clone(),
            json!([{"move": {"type": "draw"}}]),
            "malformed_body",
        ),
        (moves.clone(), json!(null), "malformed_body"),
        (
            "/v1/matches".into(),
            json!({"game": "lucky-jack", "seats": [{"name": 5}, {"name": "B"}]}),
            "malformed_body",
        ),
        (
            "/v1/matches".into(),
            json!({"game": "lucky-jack", "seats": [{"name": "A"}, {"name": "B"}], "randomness": "dice"}),
            "malformed_body",
        ),
        (
            "/v1/matches".into(),
            json!({"game": "lucky-jack", "seats": [{"name": "A"}, {"name": "B"}], "options": {"rounds": "three"}}),
            "invalid_options",
        ),
        (
            "/v1/games/lucky-jack/states".into(),
            json!({"players": true}),
            "malformed_body",
        ),
        (
            "/v1/games/lucky-jack/states".into(),
            json!({"players": 2, "seed": 12}),
            "malformed_body",
        ),
        (
            "/v1/games/lucky-jack/legal-moves".into(),
            json!({"state": state, "seat": "zero"}),
            "malformed_body",
        ),
        (
            "/v1/games/lucky-jack/view".into(),
            json!({"state": state, "viewer": "god"}),
            "malformed_body",
        ),
        (
            "/v1/games/lucky-jack/score".into(),
            json!({"state": "the whole table"}),
            "invalid_state",
        ),
        (
            "/v1/games/lucky-jack/chance".into(),
            json!({"state": state, "outcome": [1, 2]}),
            "invalid_chance",
        ),
    ];
    for (path, body, code) in cases {
        let reply = app.post(&path, &body, Some(&m.seat0)).await;
        assert_problem(
            &reply,
            StatusCode::BAD_REQUEST,
            code,
            &format!("{path} {body}"),
        );
    }
}

#[tokio::test]
async fn nul_characters_are_refused_whether_escaped_or_raw() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    // Raw control characters may not appear inside a JSON string at all.
    let raw = post_raw(
        &app,
        "/v1/matches",
        b"{\"game\": \"lucky-jack\", \"seats\": [{\"name\": \"A\x00\"}, {\"name\": \"B\"}]}"
            .to_vec(),
        None,
    )
    .await;
    assert_problem(
        &raw,
        StatusCode::BAD_REQUEST,
        "malformed_body",
        "raw NUL in a name",
    );
    let raw_move = post_raw(
        &app,
        &format!("/v1/matches/{}/moves", m.id),
        b"{\"move\": {\"type\": \"discard\", \"card\": \"bell\x00\"}}".to_vec(),
        Some(&m.seat0),
    )
    .await;
    assert_problem(
        &raw_move,
        StatusCode::BAD_REQUEST,
        "malformed_body",
        "raw NUL in a move",
    );

    // Escaped NULs: refused by the field's own rule, never handed to PostgreSQL.
    let escaped_move = app
        .post(
            &format!("/v1/matches/{}/moves", m.id),
            &json!({"move": {"type": "discard", "card": "bell\u{0}"}}),
            Some(&m.seat0),
        )
        .await;
    assert_problem(
        &escaped_move,
        StatusCode::BAD_REQUEST,
        "invalid_move",
        "escaped NUL in a move",
    );
    // A field the move does not have, holding a NUL, from the seat whose turn it is: refused,
    // and in any case what is stored is the parsed move, never the raw text (PostgreSQL's jsonb
    // cannot hold \u0000).
    let mover = app.get(&format!("/v1/matches/{}", m.id), None).await.body["to_act"][0]
        .as_u64()
        .unwrap() as usize;
    let junk = app
        .post(
            &format!("/v1/matches/{}/moves", m.id),
            &json!({"move": {"type": "draw", "note": "\u{0}"}}),
            Some(&m.seats[mover]),
        )
        .await;
    assert!(
        junk.status == StatusCode::OK || junk.status.is_client_error(),
        "a NUL in an ignored move field: {} {}",
        junk.status,
        junk.body
    );
    let log = app
        .get(&format!("/v1/matches/{}/log", m.id), Some(&m.owner))
        .await;
    assert_eq!(log.status, StatusCode::OK);
    assert!(!log.body.to_string().contains("note"), "{}", log.body);
    let sheet_name = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": [{"name": "\u{0}"}, {"name": "Ben"}]}),
            None,
        )
        .await;
    assert_problem(
        &sheet_name,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_player_name",
        "escaped NUL in a sheet name",
    );
    let luau_sheet = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-luau", "players": [{"name": "Ann"}, {"name": "Ben"}]}),
            None,
        )
        .await;
    assert_eq!(
        luau_sheet.status,
        StatusCode::CREATED,
        "{}",
        luau_sheet.body
    );
    let sheet = luau_sheet.body["sheet"]["id"].as_str().unwrap();
    let sheet_owner = luau_sheet.body["owner_token"].as_str().unwrap();
    let tally_nul = app
        .post(
            &format!("/v1/sheets/{sheet}/entries"),
            &json!({"tally": {"leis": [
                {"player": "Ann\u{0}", "lei": "blue red"},
                {"player": "Ben", "lei": "yellow"}]}}),
            Some(sheet_owner),
        )
        .await;
    assert_problem(
        &tally_nul,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_tally",
        "escaped NUL in a stored tally",
    );
    let word_nul = app
        .post(
            "/v1/games/lucky-luau/tally",
            &json!({"players": 2, "rounds": [{"leis": [{"lei": "blue\u{0}"}, {"lei": "red"}]}]}),
            None,
        )
        .await;
    assert!(word_nul.status.is_client_error(), "{}", word_nul.body);
    let note_nul = app
        .post(
            &format!("/v1/sheets/{sheet}/entries"),
            &json!({"note": "\u{0}", "tally": {"leis": [{"lei": "blue"}, {"lei": "red"}]}}),
            Some(sheet_owner),
        )
        .await;
    assert_problem(
        &note_nul,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_note",
        "escaped NUL in a note",
    );
    for path in [
        "/v1/players/%00/stats",
        "/v1/players/Ann%00/history",
        "/v1/matches?player=%00",
        "/v1/matches?winner=Ann%00",
    ] {
        let reply = app.get(path, None).await;
        assert!(
            reply.status.is_client_error(),
            "{path}: {} {}",
            reply.status,
            reply.body
        );
        assert_eq!(
            reply.headers["content-type"], "application/problem+json",
            "{path}"
        );
    }
}

#[tokio::test]
async fn numbers_past_two_to_the_53_and_huge_numbers_are_refused_without_a_5xx() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    let moves = format!("/v1/matches/{}/moves", m.id);
    // Too big for the field's type: the JSON does not fit, 400.
    for (path, body) in [
        (
            "/v1/games/lucky-jack/states".to_owned(),
            "{\"players\": 1e400}",
        ),
        (
            "/v1/games/lucky-jack/states".to_owned(),
            "{\"players\": 18446744073709551616}",
        ),
        (
            "/v1/games/lucky-jack/states".to_owned(),
            "{\"players\": -2}",
        ),
        (
            moves.clone(),
            "{\"expected_version\": 1e400, \"move\": {\"type\": \"draw\"}}",
        ),
        (
            moves.clone(),
            "{\"expected_version\": 9223372036854775808, \"move\": {\"type\": \"draw\"}}",
        ),
        (
            moves.clone(),
            "{\"seat\": 18446744073709551616, \"move\": {\"type\": \"draw\"}}",
        ),
        (
            moves.clone(),
            "{\"seat\": 1e400, \"move\": {\"type\": \"draw\"}}",
        ),
        (
            "/v1/games/lucky-dice/tally".to_owned(),
            "{\"players\": 3, \"rounds\": [{\"emptied\": [18446744073709551616]}]}",
        ),
        // Past 2^53 - 1, where JavaScript numbers lose integers (docs/contract.md), whatever
        // the field could hold.
        (
            moves.clone(),
            "{\"expected_version\": 9007199254740992, \"move\": {\"type\": \"draw\"}}",
        ),
    ] {
        let reply = post_raw(&app, &path, body.to_owned(), Some(&m.seat0)).await;
        assert_problem(
            &reply,
            StatusCode::BAD_REQUEST,
            "malformed_body",
            &format!("{path} {body}"),
        );
    }
    // 2^53 - 1 itself is a number like any other: here, a stale version.
    let largest = post_raw(
        &app,
        &moves,
        "{\"expected_version\": 9007199254740991, \"move\": {\"type\": \"draw\"}}".to_owned(),
        Some(&m.seat0),
    )
    .await;
    assert_eq!(largest.status, StatusCode::CONFLICT, "{}", largest.body);
    // JSON Schema counts 2.0 as an integer, so clients generated from the spec may send it.
    let integral = post_raw(
        &app,
        "/v1/games/lucky-jack/states",
        "{\"players\": 2.0, \"seed\": null}".to_owned(),
        None,
    )
    .await;
    assert_eq!(integral.status, StatusCode::OK, "{}", integral.body);
    let fractional = post_raw(
        &app,
        "/v1/games/lucky-jack/states",
        "{\"players\": 2.5}".to_owned(),
        None,
    )
    .await;
    assert_problem(
        &fractional,
        StatusCode::BAD_REQUEST,
        "malformed_body",
        "2.5 players",
    );
    // A move with a huge number inside: the game's move does not parse.
    let huge_dice = post_raw(
        &app,
        &moves,
        "{\"move\": {\"type\": \"discard\", \"card\": 1e400}}".to_owned(),
        Some(&m.seat0),
    )
    .await;
    assert!(
        huge_dice.status == StatusCode::BAD_REQUEST,
        "{}",
        huge_dice.body
    );

    // Past 2^53 but within the field's type: refused before parsing, since a JavaScript client
    // could not hold it (docs/contract.md), whichever field it is in.
    let past_53 = 9_007_199_254_740_993_u64;
    let state = seeded_state(&app, "lucky-jack", 2).await;
    for (path, body, token) in [
        (
            "/v1/games/lucky-jack/states".to_owned(),
            json!({"players": past_53}),
            None,
        ),
        (
            "/v1/matches".to_owned(),
            json!({"game": "lucky-jack", "seats": [{"name": "A"}, {"name": "B"}], "options": {"rounds": past_53}}),
            None,
        ),
        (
            moves.clone(),
            json!({"expected_version": past_53, "move": {"type": "draw"}}),
            Some(&m.seat0),
        ),
        (
            moves.clone(),
            json!({"seat": past_53, "move": {"type": "draw"}}),
            Some(&m.owner),
        ),
        (
            "/v1/games/lucky-jack/check".to_owned(),
            json!({"state": state, "seat": u64::MAX, "move": {"type": "draw"}}),
            None,
        ),
    ] {
        let reply = app.post(&path, &body, token.map(String::as_str)).await;
        assert_problem(
            &reply,
            StatusCode::BAD_REQUEST,
            "malformed_body",
            &format!("{path} {body}"),
        );
        assert!(reply.body["detail"]
            .as_str()
            .unwrap()
            .contains("out of range"));
    }
    let ply = app
        .get(
            &format!("/v1/matches/{}/plies/9223372036854775807", m.id),
            None,
        )
        .await;
    assert_problem(&ply, StatusCode::NOT_FOUND, "unknown_ply", "ply i64::MAX");
    let ply = app
        .get(
            &format!("/v1/matches/{}/plies/9223372036854775808", m.id),
            None,
        )
        .await;
    assert_problem(&ply, StatusCode::NOT_FOUND, "not_found", "ply past i64");
    let limit = app
        .get("/v1/matches?limit=18446744073709551616", None)
        .await;
    assert_problem(
        &limit,
        StatusCode::BAD_REQUEST,
        "invalid_query",
        "limit past u64",
    );
}

#[tokio::test]
async fn ten_thousand_nested_arrays_are_a_bad_request_not_a_stack_overflow() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    let deep =
        |depth: usize, inner: &str| format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth));
    for (path, body) in [
        ("/v1/matches".to_owned(), deep(10_000, "")),
        (
            format!("/v1/matches/{}/moves", m.id),
            format!("{{\"move\": {}}}", deep(10_000, "1")),
        ),
        (
            "/v1/games/lucky-jack/states".to_owned(),
            format!("{{\"players\": 2, \"options\": {}}}", deep(10_000, "")),
        ),
        (
            "/v1/games/lucky-jack/score".to_owned(),
            format!(
                "{{\"state\": {}}}",
                "{\"a\":".repeat(10_000) + "1" + &"}".repeat(10_000)
            ),
        ),
    ] {
        let reply = post_raw(&app, &path, body, Some(&m.seat0)).await;
        assert_problem(
            &reply,
            StatusCode::BAD_REQUEST,
            "malformed_body",
            &format!("{path} nested"),
        );
    }
    // The server is still up.
    assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK);
}

#[tokio::test]
async fn oversized_bodies_are_refused_with_413_on_every_json_endpoint() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    let big = format!("{{\"pad\": \"{}\"}}", "x".repeat(70 * 1024));
    for path in [
        format!("/v1/matches/{}/moves", m.id),
        "/v1/games/lucky-jack/check".to_owned(),
        "/v1/games/plus-minus/tally".to_owned(),
        "/v1/sheets".to_owned(),
    ] {
        let reply = post_raw(&app, &path, big.clone(), Some(&m.seat0)).await;
        assert_problem(
            &reply,
            StatusCode::PAYLOAD_TOO_LARGE,
            "body_too_large",
            &path,
        );
    }
}

#[tokio::test]
async fn unknown_and_malformed_games_and_match_ids_are_not_found_on_every_endpoint() {
    let app = spawn_app().await;
    let m = running_match(&app).await;
    for (path, body) in [
        ("states", json!({"players": 2})),
        ("check", json!({"state": {}, "seat": 0, "move": {}})),
        ("chance", json!({"state": {}, "outcome": {}})),
        ("legal-moves", json!({"state": {}, "seat": 0})),
        ("score", json!({"state": {}})),
        ("view", json!({"state": {}, "viewer": "spectator"})),
        ("tally", json!({"players": 2, "rounds": []})),
    ] {
        let reply = app
            .post(&format!("/v1/games/chess/{path}"), &body, None)
            .await;
        assert_problem(&reply, StatusCode::NOT_FOUND, "unknown_game", path);
    }
    let unknown = uuid::Uuid::new_v4();
    for tail in ["/log", "/plies/0", "/result", "/export", "/bgstats"] {
        let reply = app.get(&format!("/v1/matches/{unknown}{tail}"), None).await;
        assert_problem(&reply, StatusCode::NOT_FOUND, "unknown_match", tail);
    }
    for tail in ["/moves", "/chance"] {
        let reply = app
            .post(
                &format!("/v1/matches/{unknown}{tail}"),
                &json!({"move": {"type": "draw"}, "outcome": {}})
                    .as_object()
                    .map(|o| {
                        let key = if tail == "/moves" { "move" } else { "outcome" };
                        json!({key: o[key]})
                    })
                    .unwrap(),
                Some(&m.seat0),
            )
            .await;
        assert_problem(&reply, StatusCode::NOT_FOUND, "unknown_match", tail);
    }
    for id in [
        "not-a-uuid",
        "00000000-0000-0000-0000",
        "%00",
        "1",
        &"f".repeat(300),
    ] {
        for tail in ["", "/log", "/plies/0", "/result", "/export"] {
            let reply = app.get(&format!("/v1/matches/{id}{tail}"), None).await;
            assert_problem(
                &reply,
                StatusCode::NOT_FOUND,
                "not_found",
                &format!("{id}{tail}"),
            );
        }
        let reply = app
            .post_move(id, Some(&m.seat0), None, &json!({"type": "draw"}))
            .await;
        assert_problem(
            &reply,
            StatusCode::NOT_FOUND,
            "not_found",
            &format!("{id}/moves"),
        );
    }
    let ply = app
        .get(&format!("/v1/matches/{}/plies/abc", m.id), None)
        .await;
    assert_problem(&ply, StatusCode::NOT_FOUND, "not_found", "ply abc");
}

/// One inconsistent state per game, posted to every stateless endpoint that takes a state.
async fn assert_inconsistent(app: &TestApp, game: &str, state: &Value, reason: &str) {
    for (path, body) in [
        (
            "check",
            json!({"state": state, "seat": 0, "move": {"type": "draw"}}),
        ),
        ("legal-moves", json!({"state": state, "seat": 0})),
        ("score", json!({"state": state})),
        ("view", json!({"state": state, "viewer": {"seat": 0}})),
        (
            "chance",
            json!({"state": state, "outcome": {"kind": "draw"}}),
        ),
    ] {
        let reply = app
            .post(&format!("/v1/games/{game}/{path}"), &body, None)
            .await;
        let case = format!("{game}/{path} ({reason})");
        assert_problem(
            &reply,
            StatusCode::UNPROCESSABLE_ENTITY,
            "inconsistent_state",
            &case,
        );
        assert_eq!(
            reply.body["params"]["reason"], reason,
            "{case}: {}",
            reply.body
        );
    }
}

fn push_copy_of_last(list: &mut Value) {
    let last = list.as_array().unwrap().last().unwrap().clone();
    list.as_array_mut().unwrap().push(last);
}

#[tokio::test]
async fn each_games_inconsistent_client_states_are_unprocessable_with_the_reason() {
    let app = spawn_app().await;

    let jack = seeded_state(&app, "lucky-jack", 3).await;
    let mut out_of_range = jack.clone();
    out_of_range["turn"] = json!(3);
    assert_inconsistent(&app, "lucky-jack", &out_of_range, "bad_turn").await;
    let mut missing_hand = jack.clone();
    missing_hand["hands"].as_array_mut().unwrap().pop();
    assert_inconsistent(&app, "lucky-jack", &missing_hand, "bad_hand_count").await;

    let dice = seeded_state(&app, "lucky-dice", 3).await;
    let mut extra_die = dice.clone();
    extra_die["pools"][0] = json!(extra_die["pools"][0].as_u64().unwrap() + 1);
    assert_inconsistent(&app, "lucky-dice", &extra_die, "dice_not_conserved").await;
    let mut missing_seat = dice.clone();
    missing_seat["pools"].as_array_mut().unwrap().pop();
    assert_inconsistent(&app, "lucky-dice", &missing_seat, "bad_seat_count").await;

    let plus = seeded_state(&app, "luck-plus", 2).await;
    let mut duplicated = plus.clone();
    push_copy_of_last(&mut duplicated["hands"][0]);
    assert_inconsistent(&app, "luck-plus", &duplicated, "cards_not_conserved").await;
    let mut out_of_range = plus.clone();
    out_of_range["turn"] = json!(7);
    assert_inconsistent(&app, "luck-plus", &out_of_range, "bad_turn").await;

    let pm = seeded_state(&app, "plus-minus", 3).await;
    let mut duplicated = pm.clone();
    push_copy_of_last(&mut duplicated["hands"][1]);
    assert_inconsistent(&app, "plus-minus", &duplicated, "cards_not_conserved").await;
    let mut out_of_range = pm.clone();
    out_of_range["turn"] = json!(3);
    assert_inconsistent(&app, "plus-minus", &out_of_range, "bad_turn").await;

    let luau = seeded_state(&app, "lucky-luau", 2).await;
    let mut out_of_range = luau.clone();
    out_of_range["turn"] = json!(2);
    assert_inconsistent(&app, "lucky-luau", &out_of_range, "bad_turn").await;
    let mut missing_seat = luau.clone();
    missing_seat["seats"].as_array_mut().unwrap().pop();
    assert_inconsistent(&app, "lucky-luau", &missing_seat, "bad_seat_count").await;

    // A negative count where the game counts up from zero does not even parse.
    let mut negative = dice.clone();
    negative["pools"][0] = json!(-1);
    let reply = app
        .post(
            "/v1/games/lucky-dice/score",
            &json!({"state": negative}),
            None,
        )
        .await;
    assert_problem(
        &reply,
        StatusCode::BAD_REQUEST,
        "invalid_state",
        "negative pool",
    );
}
