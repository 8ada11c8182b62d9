//! How large a match may grow and how a long one is read: every counting option has a documented
//! maximum, a match stops taking moves at its ply limit, its log is read in pages and its export
//! is streamed.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{every_pipeline, spawn_app_on, Pipeline};
use crate::support::{
    match_id, owner_token, play_to_end, seat_tokens, spawn_app, spawn_app_tuned, Reply, TestApp,
};
use referee::vocabulary::limits;

fn assert_problem(reply: &Reply, status: StatusCode, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.body["code"], code, "{}", reply.body);
}

async fn create(app: &TestApp, game: &str, players: usize, options: Value) -> Reply {
    let seats: Vec<Value> = ["Ann", "Ben", "Cleo", "Dan"][..players]
        .iter()
        .map(|n| json!({ "name": n }))
        .collect();
    app.post(
        "/v1/matches",
        &json!({"game": game, "seats": seats, "options": options}),
        None,
    )
    .await
}

/// Each game's counting options past their maximum, the option named and its maximum, and the
/// options at that maximum.
const PAST_THE_MAXIMA: &[(&str, usize, &str, &str, u64, &str)] = &[
    (
        "plus-minus",
        3,
        r#"{"rounds": 1000000000}"#,
        "rounds",
        60,
        r#"{"rounds": 60}"#,
    ),
    (
        "plus-minus",
        3,
        r#"{"rounds": 61}"#,
        "rounds",
        60,
        r#"{"rounds": 60}"#,
    ),
    (
        "luck-plus",
        2,
        r#"{"target": 21}"#,
        "target",
        20,
        r#"{"target": 20}"#,
    ),
    (
        "luck-plus",
        2,
        r#"{"scoring": "points_to_winner", "target": 1001}"#,
        "target",
        1000,
        r#"{"scoring": "points_to_winner", "target": 1000}"#,
    ),
    (
        "luck-plus",
        2,
        r#"{"scoring": "penalty_points", "target": 4294967295}"#,
        "target",
        1000,
        r#"{"scoring": "penalty_points", "target": 1000}"#,
    ),
    (
        "lucky-jack",
        2,
        r#"{"max_turns_per_round": 1001}"#,
        "max_turns_per_round",
        1000,
        r#"{"max_turns_per_round": 1000}"#,
    ),
    (
        "lucky-jack",
        2,
        r#"{"rounds": 7}"#,
        "rounds",
        5,
        r#"{"rounds": 5}"#,
    ),
    (
        "lucky-dice",
        2,
        r#"{"end_mode": "until_pile_empty", "coaster_target": 51}"#,
        "coaster_target",
        50,
        r#"{"end_mode": "until_pile_empty", "coaster_target": 50}"#,
    ),
    (
        "lucky-dice",
        2,
        r#"{"extra_rolls": 11}"#,
        "extra_rolls",
        10,
        r#"{"extra_rolls": 10}"#,
    ),
    (
        "lucky-luau",
        2,
        r#"{"pink_value": 21}"#,
        "pink_value",
        20,
        r#"{"pink_value": 20}"#,
    ),
];

#[tokio::test]
async fn every_counting_option_past_its_maximum_is_refused_naming_the_maximum() {
    let app = spawn_app().await;
    for &(game, players, past, option, max, at) in PAST_THE_MAXIMA {
        let past: Value = serde_json::from_str(past).unwrap();
        let refused = create(&app, game, players, past.clone()).await;
        assert_problem(
            &refused,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_options",
        );
        assert_eq!(
            refused.body["params"],
            json!({"option": option, "max": max}),
            "{game} {past}"
        );
        let at: Value = serde_json::from_str(at).unwrap();
        let created = create(&app, game, players, at.clone()).await;
        assert_eq!(
            created.status,
            StatusCode::CREATED,
            "{game} {at}: {}",
            created.body
        );
    }
}

#[tokio::test]
async fn a_sheet_and_a_stateless_state_are_held_to_the_same_maxima() {
    let app = spawn_app().await;
    let sheet = app
        .post(
            "/v1/sheets",
            &json!({"game": "plus-minus", "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}], "options": {"rounds": 1000000000}}),
            None,
        )
        .await;
    assert_problem(&sheet, StatusCode::UNPROCESSABLE_ENTITY, "invalid_options");
    assert_eq!(sheet.body["params"]["max"], 60);
    let state = app
        .post(
            "/v1/games/luck-plus/states",
            &json!({"players": 2, "options": {"target": 1000}}),
            None,
        )
        .await;
    assert_problem(&state, StatusCode::UNPROCESSABLE_ENTITY, "invalid_options");
    assert_eq!(state.body["params"], json!({"option": "target", "max": 20}));
}

#[tokio::test]
async fn the_openapi_document_states_each_options_maximum() {
    let app = spawn_app().await;
    let spec = app.get("/openapi.json", None).await.body;
    let schemas = &spec["components"]["schemas"];
    for (schema, property, max) in [
        ("PlusMinusOptions", "rounds", 60),
        ("LuckPlusOptions", "target", 1000),
        ("LuckyJackOptions", "max_turns_per_round", 1000),
        ("LuckyJackOptions", "rounds", 5),
        ("LuckyDiceOptions", "coaster_target", 50),
        ("LuckyDiceOptions", "extra_rolls", 10),
        ("LuckyLuauOptions", "pink_value", 20),
        ("LuckyLuauOptions", "ti_value", 20),
    ] {
        assert_eq!(
            schemas[schema]["properties"][property]["maximum"], max,
            "{schema}.{property}"
        );
    }
    let log = &spec["paths"]["/v1/matches/{id}/log"]["get"]["parameters"];
    let limit = log
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "limit")
        .expect("a limit parameter");
    assert_eq!(limit["schema"]["maximum"], limits::LOG_PAGE_MAX);
}

#[tokio::test]
async fn a_match_at_its_ply_limit_takes_no_more_moves_nor_chance_reports() {
    // No move cache: the version written below is the one the next move reads.
    let app = spawn_app_tuned(|settings| settings.moves.cached_matches = 0).await;
    let created = app
        .post(
            "/v1/matches",
            &referee::request_examples::create_match(),
            None,
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let created = created.body;
    let id = match_id(&created);
    let owner = owner_token(&created);
    // A match one ply short of the limit still takes its next input: the limit counts what is
    // stored, and what is stored stays below it until then.
    app.sql(&format!(
        "UPDATE matches SET version = {} WHERE id = '{id}'",
        limits::MATCH_PLIES - 1
    ))
    .await;
    let outcome = referee::request_examples::submit_chance()["outcome"].clone();
    let accepted = app.post_chance(&id, Some(&owner), None, &outcome).await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.body);
    assert_eq!(accepted.body["version"], limits::MATCH_PLIES);
    // At the limit, every move and every report is refused, naming the limit.
    let seat = accepted.body["to_act"][0].as_u64().unwrap() as usize;
    let token = seat_tokens(&created)[seat].clone();
    let mine = app.read_match(&id, Some(&token)).await.body;
    let mv = mine["view"]["legal_moves"][0].clone();
    let refused = app.post_move(&id, Some(&token), None, &mv).await;
    assert_problem(&refused, StatusCode::CONFLICT, "match_too_long");
    assert_eq!(
        refused.body["params"],
        json!({"limit": "match_plies", "max": limits::MATCH_PLIES, "version": limits::MATCH_PLIES})
    );
    assert!(
        refused.body["detail"]
            .as_str()
            .unwrap()
            .contains(&limits::MATCH_PLIES.to_string()),
        "{}",
        refused.body
    );
    let report = app.post_chance(&id, Some(&owner), None, &outcome).await;
    assert_problem(&report, StatusCode::CONFLICT, "match_too_long");
    // Even with the version the client last saw: the limit is not a stale view.
    let guarded = app
        .post_move(&id, Some(&token), Some(json!(limits::MATCH_PLIES)), &mv)
        .await;
    assert_problem(&guarded, StatusCode::CONFLICT, "match_too_long");
}

/// Plays up to `moves` moves of a server-seeded match (fewer if it ends), each the acting seat's
/// first legal move.
async fn play_moves(app: &TestApp, created: &Value, moves: usize) -> i64 {
    let id = match_id(created);
    let tokens = seat_tokens(created);
    let mut version = 0;
    for turn in 0..moves {
        let public = app.read_match(&id, None).await.body;
        version = public["version"].as_i64().unwrap();
        if public["status"] != "in_progress" {
            break;
        }
        let seat = public["to_act"][0].as_u64().unwrap() as usize;
        let mine = app.read_match(&id, Some(&tokens[seat])).await.body;
        let legal = mine["view"]["legal_moves"].as_array().unwrap();
        let mv = &legal[turn * 7 % legal.len()];
        let reply = app.post_move(&id, Some(&tokens[seat]), None, mv).await;
        assert_eq!(reply.status, StatusCode::OK, "{mv}: {}", reply.body);
        version = reply.body["version"].as_i64().unwrap();
    }
    version
}

/// Reads the log page by page, `limit` entries a page, following each page's `Link` header;
/// checks that `next_after` says the same and that only the last page has neither.
async fn read_in_pages(app: &TestApp, id: &str, token: Option<&str>, limit: i64) -> Vec<Value> {
    let mut entries = Vec::new();
    let mut path = format!("/v1/matches/{id}/log?limit={limit}");
    loop {
        let page = app.get(&path, token).await;
        assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
        let got = page.body["entries"].as_array().unwrap();
        assert!(got.len() as i64 <= limit, "{path}");
        entries.extend(got.iter().cloned());
        let link = page.headers.get("link").map(|l| l.to_str().unwrap());
        match (&page.body["next_after"], link) {
            (Value::Null, None) => {
                assert_eq!(
                    entries.len() as i64,
                    page.body["version"].as_i64().unwrap(),
                    "the last page ends at the version"
                );
                return entries;
            }
            (Value::Number(after), Some(link)) => {
                assert_eq!(got.len() as i64, limit, "only the last page is short");
                assert_eq!(got.last().unwrap()["ply"], json!(after));
                let expected =
                    format!("</v1/matches/{id}/log?after={after}&limit={limit}>; rel=\"next\"");
                assert_eq!(link, expected);
                path = link
                    .trim_start_matches('<')
                    .split('>')
                    .next()
                    .unwrap()
                    .to_owned();
            }
            (next, link) => panic!("next_after {next} and Link {link:?} disagree"),
        }
    }
}

#[tokio::test]
async fn reading_a_long_match_page_by_page_gives_exactly_its_whole_log_for_every_viewer() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben", "Cleo"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let version = play_moves(&app, &created, 90).await;
    assert!(version > 100, "a long enough match: {version} plies");
    let owner = owner_token(&created);
    let tokens = seat_tokens(&created);
    let viewers: Vec<Option<&str>> = vec![
        None,
        Some(&tokens[0]),
        Some(&tokens[1]),
        Some(&tokens[2]),
        Some(&owner),
    ];
    for token in viewers {
        let whole = app
            .get(&format!("/v1/matches/{id}/log?limit=1000"), token)
            .await;
        assert_eq!(whole.status, StatusCode::OK, "{}", whole.body);
        assert_eq!(whole.body["next_after"], Value::Null);
        assert!(whole.headers.get("link").is_none());
        let whole = whole.body["entries"].as_array().unwrap().clone();
        assert_eq!(whole.len() as i64, version);
        let plies: Vec<i64> = whole.iter().map(|e| e["ply"].as_i64().unwrap()).collect();
        assert_eq!(plies, (1..=version).collect::<Vec<_>>());
        for limit in [1, 17, version - 1, version] {
            let paged = read_in_pages(&app, &id, token, limit).await;
            assert_eq!(paged, whole, "pages of {limit}");
        }
        // The default page is the first 200 plies (or all of them).
        let default = app.get(&format!("/v1/matches/{id}/log"), token).await;
        let first = default.body["entries"].as_array().unwrap();
        assert_eq!(first[..], whole[..whole.len().min(200)]);
        // From the middle: exactly the plies after `after`.
        let tail = app
            .get(&format!("/v1/matches/{id}/log?after=50&limit=1000"), token)
            .await;
        assert_eq!(tail.body["entries"].as_array().unwrap()[..], whole[50..]);
    }
}

#[tokio::test]
async fn a_log_page_past_the_maximum_size_or_beyond_the_version_is_refused() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let version = play_moves(&app, &created, 3).await;
    for limit in [0, limits::LOG_PAGE_MAX + 1, 1_000_000] {
        let reply = app
            .get(&format!("/v1/matches/{id}/log?limit={limit}"), None)
            .await;
        assert_problem(&reply, StatusCode::BAD_REQUEST, "invalid_limit");
        assert_eq!(reply.body["params"]["max"], limits::LOG_PAGE_MAX);
    }
    let largest = app
        .get(
            &format!("/v1/matches/{id}/log?limit={}", limits::LOG_PAGE_MAX),
            None,
        )
        .await;
    assert_eq!(largest.status, StatusCode::OK, "{}", largest.body);
    let negative = app
        .get(&format!("/v1/matches/{id}/log?after=-1"), None)
        .await;
    assert_problem(&negative, StatusCode::BAD_REQUEST, "invalid_query");
    let words = app
        .get(&format!("/v1/matches/{id}/log?after=two"), None)
        .await;
    assert_problem(&words, StatusCode::BAD_REQUEST, "invalid_query");
    // At the version: an empty last page, what a client that is up to date reads.
    let current = app
        .get(&format!("/v1/matches/{id}/log?after={version}"), None)
        .await;
    assert_eq!(current.status, StatusCode::OK, "{}", current.body);
    assert_eq!(current.body["entries"], json!([]));
    assert_eq!(current.body["next_after"], Value::Null);
    assert_eq!(current.body["version"], version);
    assert!(current.headers.get("link").is_none());
    // Beyond it: that ply does not exist (yet).
    let beyond = app
        .get(&format!("/v1/matches/{id}/log?after={}", version + 1), None)
        .await;
    assert_problem(&beyond, StatusCode::NOT_FOUND, "unknown_ply");
    assert_eq!(
        beyond.body["params"],
        json!({"after": version + 1, "version": version})
    );
}

#[tokio::test]
async fn a_log_page_is_a_304_until_the_match_moves_on() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    play_moves(&app, &created, 4).await;
    let path = format!("{}/v1/matches/{id}/log?limit=2", app.base);
    let first = app.send(app.client.get(&path)).await;
    let tag = first.headers["etag"].to_str().unwrap().to_owned();
    let second_page = app
        .send(
            app.client
                .get(format!("{}/v1/matches/{id}/log?after=2&limit=2", app.base)),
        )
        .await;
    assert_ne!(
        second_page.headers["etag"].to_str().unwrap(),
        tag,
        "each page has its own tag"
    );
    let again = app
        .send(app.client.get(&path).header("If-None-Match", &tag))
        .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    // One more move: the page's entries are the same, but the version it reports is not.
    play_moves(&app, &created, 1).await;
    let moved = app
        .send(app.client.get(&path).header("If-None-Match", &tag))
        .await;
    assert_eq!(moved.status, StatusCode::OK);
    assert_eq!(moved.body["entries"], first.body["entries"]);
    assert_ne!(moved.body["version"], first.body["version"]);
}

every_pipeline!(a_long_matchs_export_streams_its_whole_log_and_still_verifies);
async fn a_long_matchs_export_streams_its_whole_log_and_still_verifies(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match("plus-minus", &["Ann", "Ben", "Cleo"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let finished = play_to_end(&app, &created).await;
    let version = finished["version"].as_i64().unwrap();
    let export = app.get(&format!("/v1/matches/{id}/export"), None).await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.body);
    assert_eq!(export.headers["content-type"], "application/json");
    let log = export.body["log"].as_array().unwrap();
    assert_eq!(log.len() as i64, version);
    let plies: Vec<i64> = log.iter().map(|e| e["ply"].as_i64().unwrap()).collect();
    assert_eq!(plies, (1..=version).collect::<Vec<_>>());
    let keys: Vec<&str> = export
        .body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys.len(),
        15,
        "the document keeps every field of MatchExport: {keys:?}"
    );
    let parsed: referee::matches::MatchExport =
        serde_json::from_value(export.body.clone()).unwrap();
    let verified = referee::matches::verify_export(&parsed).unwrap();
    let result = app.get(&format!("/v1/matches/{id}/result"), None).await;
    assert_eq!(
        serde_json::to_value(&verified.standings).unwrap(),
        result.body["standings"]
    );
}
