//! Values JSON allows and the service refuses: NUL characters, numbers past 2^53 and huge ones.

use reqwest::StatusCode;
use serde_json::json;

use super::{assert_problem, post_raw, running_match, seeded_state};
use crate::support::spawn_app;

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
