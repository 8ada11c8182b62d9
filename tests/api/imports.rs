//! Bringing plays in (issue 28): a BG Stats file becomes finished score sheets with their
//! results, idempotently, each play all or nothing, with a report; a bad file is refused naming
//! its first bad field; and everything exported imports into an empty service with the same
//! statistics, leaderboards and ratings.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{owner_token, play_to_end, spawn_app, Reply, TestApp};

async fn import(app: &TestApp, file: &Value) -> Reply {
    app.post("/v1/imports/bgstats", file, None).await
}

/// A file as BG Stats itself writes one (trimmed): players, games, plays with text scores.
fn family_file() -> Value {
    json!({
        "players": [
            {"id": 1, "name": "Mum", "uuid": "0A6C3E1F-3B8D-4F5E-9C11-2D6E7F8A9B01", "isAnonymous": false},
            {"id": 2, "name": "Dad"},
            {"id": 3, "name": "Zoé"},
            {"id": 4, "name": "Leo"}
        ],
        "games": [
            {"id": 10, "name": "Lucky Jack", "bggId": 0, "highestWins": true},
            {"id": 11, "name": "Catan", "highestWins": true},
            {"id": 12, "name": "Plus & Minus"},
            {"id": 13, "name": "Lucky Dice", "usesTeams": true}
        ],
        "locations": [{"id": 1, "name": "Kitchen"}],
        "plays": [
            {"uuid": "6F1D2C3B-4A59-4E6F-8A7B-9C0D1E2F3A41", "gameRefId": 10,
             "playDate": "2025-12-24 20:00:00", "durationMin": 40, "ignored": false,
             "playerScores": [
                {"playerRefId": 1, "score": "12000", "winner": true, "rank": 1},
                {"playerRefId": 2, "score": "3000", "winner": false, "rank": 2},
                {"playerRefId": 3, "score": "3000", "winner": false, "rank": 2}]},
            {"uuid": "6F1D2C3B-4A59-4E6F-8A7B-9C0D1E2F3A42", "gameRefId": 12,
             "playDate": "2025-12-25 18:30:00",
             "playerScores": [
                {"playerRefId": 3, "score": "41", "winner": false},
                {"playerRefId": 4, "score": "57", "winner": false},
                {"playerRefId": 1, "score": "30", "winner": false}]},
            {"uuid": "6F1D2C3B-4A59-4E6F-8A7B-9C0D1E2F3A43", "gameRefId": 11,
             "playDate": "2025-12-26 15:00:00",
             "playerScores": [{"playerRefId": 1, "score": "10"}, {"playerRefId": 2, "score": "8"}]},
            {"uuid": "6F1D2C3B-4A59-4E6F-8A7B-9C0D1E2F3A44", "gameRefId": 10,
             "playDate": "2025-12-27 15:00:00", "ignored": true,
             "playerScores": [{"playerRefId": 1, "score": "10"}, {"playerRefId": 2, "score": "8"}]},
            {"uuid": "6F1D2C3B-4A59-4E6F-8A7B-9C0D1E2F3A45", "gameRefId": 10,
             "playDate": "2025-12-28 15:00:00",
             "playerScores": [{"playerRefId": 1, "score": "1000"}]},
            {"uuid": "6F1D2C3B-4A59-4E6F-8A7B-9C0D1E2F3A46", "gameRefId": 13,
             "playDate": "2025-12-29 15:00:00",
             "playerScores": [{"playerRefId": 1, "score": "3"}, {"playerRefId": 4, "score": "2"}]},
            {"uuid": "6F1D2C3B-4A59-4E6F-8A7B-9C0D1E2F3A47", "gameRefId": 10,
             "playDate": "2025-12-30 15:00:00",
             "playerScores": [{"playerRefId": 1, "score": "ten"}, {"playerRefId": 2, "score": "8"}]}
        ]
    })
}

#[tokio::test]
async fn a_bg_stats_file_becomes_finished_sheets_and_a_report_of_what_was_created_and_skipped() {
    let app = spawn_app().await;
    // Mum has played here before, as "mum".
    let created = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-dice", "players": [{"name": "mum"}, {"name": "Ben"}]}),
            None,
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let sheet = created.body["sheet"]["id"].as_str().unwrap().to_owned();
    let token = owner_token(&created.body);
    let finished = app
        .post(
            &format!("/v1/sheets/{sheet}/finish"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(
        finished.status,
        StatusCode::CONFLICT,
        "no round yet: {}",
        finished.body
    );

    let reply = import(&app, &family_file()).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let report = reply.body;
    assert_eq!(
        (
            report["created"].clone(),
            report["matched"].clone(),
            report["skipped"].clone()
        ),
        (json!(2), json!(0), json!(5))
    );
    let outcome = |i: usize| report["plays"][i]["outcome"].as_str().unwrap().to_owned();
    let reason = |i: usize| {
        report["plays"][i]["reason"]["code"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(outcome(0), "created");
    assert_eq!(outcome(1), "created");
    assert_eq!(reason(2), "unknown_game", "Catan is not refereed here");
    assert_eq!(reason(3), "ignored_play");
    assert_eq!(reason(4), "player_count", "one player alone");
    assert_eq!(reason(5), "teams_not_supported");
    assert_eq!(reason(6), "score_not_whole");
    let mum = report["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Mum")
        .unwrap();
    assert_eq!(
        mum["known_as"], "mum",
        "matched by name key to the player already here"
    );

    // The play is a finished sheet with the file's results, at the file's date.
    let id = report["plays"][0]["id"].as_str().unwrap();
    assert_eq!(
        id, "6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a41",
        "the play keeps its id"
    );
    let sheet = app.get(&format!("/v1/sheets/{id}"), None).await.body;
    assert_eq!(sheet["status"], "finished");
    assert_eq!(sheet["winners"], json!(["Mum"]));
    assert_eq!(sheet["finished_at"], "2025-12-24T20:00:00Z");
    assert_eq!(sheet["standings"]["totals"], json!([12000, 3000, 3000]));
    assert_eq!(sheet["entries"][0]["kind"], "import");
    // Plus & Minus had no ranks in the file: ranked by score, the highest first.
    let leo = app.get("/v1/players/leo/stats", None).await.body;
    assert_eq!(leo["games"][0]["game"], "plus-minus");
    assert_eq!(leo["games"][0]["won"], 1);
    // Rated as results: Mum first of three.
    let ratings = app.get("/v1/players/mum/ratings", None).await.body;
    assert_eq!(ratings["games"][0]["game"], "lucky-jack");
    assert_eq!(ratings["games"][0]["place"], 1);

    // An imported sheet is closed: no round to add or take away; its players may be renamed.
    let owner = report["plays"][0]["owner_token"].as_str().unwrap();
    let more = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({"tally": {"jackpot": null}}),
            Some(owner),
        )
        .await;
    assert_eq!(more.status, StatusCode::CONFLICT, "{}", more.body);
    app.audit_snapshots().await;
    app.audit_totals().await;
}

#[tokio::test]
async fn the_same_file_imported_twice_creates_nothing_new() {
    let app = spawn_app().await;
    let first = import(&app, &family_file()).await.body;
    let again = import(&app, &family_file()).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(
        (again.body["created"].clone(), again.body["matched"].clone()),
        (json!(0), first["created"].clone())
    );
    assert_eq!(again.body["plays"][0]["owner_token"], Value::Null);
    let listed = app.get("/v1/matches?kind=sheet", None).await.body;
    assert_eq!(listed["total"], 2);
    app.audit_totals().await;
}

#[tokio::test]
async fn a_file_that_does_not_read_is_refused_naming_its_first_bad_field() {
    let app = spawn_app().await;
    let mut file = family_file();
    file["plays"][1]["playerScores"][0]["playerRefId"] = json!(99);
    let reply = import(&app, &file).await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.body
    );
    assert_eq!(reply.body["code"], "invalid_import");
    assert_eq!(
        reply.body["params"]["field"],
        "plays[1].playerScores[0].playerRefId"
    );

    let mut file = family_file();
    file["plays"][2]["playDate"] = json!(20251226);
    let reply = import(&app, &file).await;
    assert_eq!(
        reply.body["params"]["field"], "plays[2].playDate",
        "{}",
        reply.body
    );

    // Keyset cursors count microseconds from 1970; RFC 3339 has four-digit years.
    let mut file = family_file();
    file["plays"][0]["playDate"] = json!("1969-12-31 23:00:00");
    let reply = import(&app, &file).await;
    assert_eq!(
        reply.body["params"]["field"], "plays[0].playDate",
        "{}",
        reply.body
    );

    let mut file = family_file();
    file["plays"][0]["playDate"] = json!("Christmas");
    let reply = import(&app, &file).await;
    assert_eq!(
        reply.body["params"]["field"], "plays[0].playDate",
        "{}",
        reply.body
    );

    let not_json = app
        .send(
            app.client
                .post(format!("{}/v1/imports/bgstats", app.base))
                .header("Content-Type", "application/json")
                .body("{\"plays\": ["),
        )
        .await;
    assert_eq!(
        not_json.status,
        StatusCode::BAD_REQUEST,
        "{}",
        not_json.body
    );
    let as_text = app
        .send(
            app.client
                .post(format!("{}/v1/imports/bgstats", app.base))
                .header("Content-Type", "text/plain")
                .body("{}"),
        )
        .await;
    assert_eq!(
        as_text.status,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "{}",
        as_text.body
    );
    let huge = app
        .send(
            app.client
                .post(format!("{}/v1/imports/bgstats", app.base))
                .header("Content-Type", "application/json")
                .body(vec![b' '; 8 * 1024 * 1024 + 1]),
        )
        .await;
    assert_eq!(huge.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", huge.body);
    let play = family_file()["plays"][0].clone();
    let mut many = family_file();
    many["plays"] = Value::Array(vec![play; 5_001]);
    let reply = import(&app, &many).await;
    let mut without_plays = family_file();
    without_plays.as_object_mut().unwrap().remove("plays");
    let refused = import(&app, &without_plays).await;
    assert_eq!(refused.body["params"]["field"], "plays", "{}", refused.body);
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.body
    );
    assert_eq!(reply.body["params"]["limit"], "import_plays");
    let nothing = app.get("/v1/matches", None).await.body;
    assert_eq!(nothing["total"], 0, "a refused file writes nothing");
}

/// Issue 28: "export everything, import into a fresh database, and the statistics,
/// leaderboards and ratings are identical".
#[tokio::test]
async fn everything_exported_imports_into_an_empty_service_with_the_same_statistics_and_ratings() {
    let app = spawn_app().await;
    let names = ["Ann", "Ben", "Cat", "Dan"];
    // Lucky Jack sheets, one corrected after it finished and one with a player renamed.
    let mut sheets = Vec::new();
    for (i, table) in [[0, 1, 2], [1, 2, 3], [0, 2, 3], [0, 1, 3], [3, 2, 1]]
        .iter()
        .enumerate()
    {
        let players: Vec<Value> = table.iter().map(|&p| json!({"name": names[p]})).collect();
        let created = app
            .post(
                "/v1/sheets",
                &json!({"game": "lucky-jack", "players": players}),
                None,
            )
            .await
            .body;
        let id = created["sheet"]["id"].as_str().unwrap().to_owned();
        let token = owner_token(&created);
        for tally in [
            json!({"jackpot": {"seat": i % 3, "symbol": "jack", "size": 4}}),
            json!({"jackpot": {"seat": (i + 1) % 3, "symbol": "lemon", "size": 3}}),
            json!({"jackpot": null}),
        ] {
            let reply = app
                .post(
                    &format!("/v1/sheets/{id}/entries"),
                    &json!({"tally": tally}),
                    Some(&token),
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        }
        sheets.push((id, token));
    }
    let (id, token) = &sheets[1];
    let fixed = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({"corrects": 1, "tally": {"jackpot": {"seat": 2, "symbol": "jack", "size": 4}}}),
            Some(token),
        )
        .await;
    assert_eq!(fixed.status, StatusCode::OK, "{}", fixed.body);
    let (id, token) = &sheets[2];
    let renamed = app
        .send(
            app.client
                .patch(format!("{}/v1/sheets/{id}/seats/1", app.base))
                .bearer_auth(token)
                .json(&json!({"name": "Cleo"})),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    // A hosted match played to its end, and a sheet abandoned after a round.
    let hosted = app
        .create_lucky_jack(&["Ann", "Dan"], json!({}), "server")
        .await;
    play_to_end(&app, &hosted).await;
    let created = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": [{"name": "Ben"}, {"name": "Cat"}]}),
            None,
        )
        .await
        .body;
    let id = created["sheet"]["id"].as_str().unwrap();
    let token = owner_token(&created);
    app.post(
        &format!("/v1/sheets/{id}/entries"),
        &json!({"tally": {"jackpot": null}}),
        Some(&token),
    )
    .await;
    let gave_up = app
        .post(
            &format!("/v1/sheets/{id}/abandon"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(gave_up.status, StatusCode::OK, "{}", gave_up.body);

    let export = app.get("/v1/exports/bgstats", None).await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.body);
    let plays = export.body["plays"].as_array().unwrap();
    assert_eq!(plays.len(), 7, "six results and one abandoned after play");
    assert!(plays.iter().any(|p| p["ignored"] == true));
    assert!(plays[0]["referee"]["seats"][0]["rating"]["after"]["mu"].is_number());

    let fresh = spawn_app().await;
    let report = import(&fresh, &export.body).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.body);
    assert_eq!(report.body["created"], 7, "{}", report.body);

    let same = |path: String| {
        let (app, fresh) = (&app, &fresh);
        async move {
            let here = app.get(&path, None).await;
            let there = fresh.get(&path, None).await;
            assert_eq!(here.status, StatusCode::OK, "{path}: {}", here.body);
            assert_eq!(here.body, there.body, "{path}");
        }
    };
    for name in ["ann", "ben", "cat", "cleo", "dan"] {
        same(format!("/v1/players/{name}/stats")).await;
        same(format!("/v1/players/{name}/ratings")).await;
    }
    same("/v1/games/lucky-jack/leaderboard".to_owned()).await;
    same("/v1/games/lucky-jack/ratings".to_owned()).await;
    same("/v1/players/ann/versus/ben".to_owned()).await;
    // The history's rating points are the same too, though the kind of a hosted match is now a
    // sheet's.
    let points = |body: Value| -> Vec<Value> {
        body["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| json!([p["match_id"], p["before"], p["after"], p["rank"]]))
            .collect()
    };
    let path = "/v1/players/dan/ratings/lucky-jack";
    assert_eq!(
        points(app.get(path, None).await.body),
        points(fresh.get(path, None).await.body)
    );
    // And importing it again there creates nothing new.
    let again = import(&fresh, &export.body).await.body;
    assert_eq!(
        (again["created"].clone(), again["matched"].clone()),
        (json!(0), json!(7))
    );
    fresh.audit_snapshots().await;
    fresh.audit_totals().await;
}

#[tokio::test]
async fn a_players_history_export_carries_each_results_rating_change() {
    let app = spawn_app().await;
    import(&app, &family_file()).await;
    let rating = app
        .get("/v1/players/dad/ratings/lucky-jack", None)
        .await
        .body;
    let point = &rating["items"][0];
    let text = |path: &str| {
        let url = format!("{}{path}", app.base);
        async move { reqwest::get(url).await.unwrap().text().await.unwrap() }
    };
    let ndjson = text("/v1/players/dad/history").await;
    let line: Value = serde_json::from_str(ndjson.lines().next().unwrap()).unwrap();
    assert_eq!(line["rating"]["before"], point["before"]);
    assert_eq!(line["rating"]["after"], point["after"]);
    let csv = text("/v1/players/dad/history?format=csv").await;
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let cell = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(cell("rating_before"), "0");
    assert_eq!(
        cell("rating_after").parse::<f64>().unwrap(),
        point["after"]["rating"].as_f64().unwrap()
    );
    assert_eq!(
        cell("mu_after").parse::<f64>().unwrap(),
        point["after"]["mu"].as_f64().unwrap()
    );
}

#[tokio::test]
async fn a_score_beyond_any_game_is_skipped_so_lifetime_totals_cannot_overflow() {
    let app = spawn_app().await;
    let mut file = family_file();
    file["plays"][0]["playerScores"][0]["score"] = json!("9223372036854775807");
    let report = import(&app, &file).await.body;
    assert_eq!(report["plays"][0]["outcome"], "skipped");
    assert_eq!(report["plays"][0]["reason"]["code"], "score_out_of_range");
    assert_eq!(
        report["plays"][1]["outcome"], "created",
        "the other plays still come in"
    );
}

/// A file of one Lucky Jack play between Mum and Dad, dated `date`, which `winner` wins.
fn one_play(uuid: &str, date: &str, winner: u64) -> Value {
    let score = |player: u64| if player == winner { "5000" } else { "1000" };
    json!({
        "players": [{"id": 1, "name": "Mum"}, {"id": 2, "name": "Dad"}],
        "games": [{"id": 10, "name": "Lucky Jack"}],
        "plays": [{"uuid": uuid, "gameRefId": 10, "playDate": date,
                   "playerScores": [{"playerRefId": 1, "score": score(1)},
                                    {"playerRefId": 2, "score": score(2)}]}]
    })
}

#[tokio::test]
async fn a_play_imported_with_an_old_date_is_rated_after_the_results_already_here() {
    // docs/ratings.md, "In the order results reach the service": an import cannot reach back
    // and re-rate what was rated before it (issue 38, finding 2).
    let app = spawn_app().await;
    let recent = one_play(
        "6F1D2C3B-4A59-4E6F-8A7B-9C0D1E2F3B01",
        "2025-12-24 20:00:00",
        1,
    );
    assert_eq!(import(&app, &recent).await.body["created"], 1);
    let history = "/v1/players/mum/ratings/lucky-jack";
    let before = app.get(history, None).await.body["items"].clone();
    let old = one_play(
        "6F1D2C3B-4A59-4E6F-8A7B-9C0D1E2F3B02",
        "1999-01-01 20:00:00",
        2,
    );
    assert_eq!(import(&app, &old).await.body["created"], 1);

    let items = app.get(history, None).await.body["items"].clone();
    assert_eq!(items.as_array().unwrap().len(), 2, "{items}");
    assert_eq!(
        items[0], before[0],
        "the result already here is not rated again"
    );
    assert_eq!(items[1]["finished_at"], "1999-01-01T20:00:00Z");
    assert_eq!(
        items[1]["before"], items[0]["after"],
        "the old play starts from Mum's rating after the result that arrived before it"
    );
    app.audit_totals().await;
}

#[tokio::test]
async fn a_play_whose_id_is_stored_with_other_scores_is_a_conflict_not_a_match() {
    // Issue 38, finding 6: the first to import an id cannot make a later import of other
    // content say `matched`; the stored play is left as it was.
    let app = spawn_app().await;
    let uuid = "6F1D2C3B-4A59-4E6F-8A7B-9C0D1E2F3B03";
    let first = import(&app, &one_play(uuid, "2025-12-24 20:00:00", 2))
        .await
        .body;
    let id = first["plays"][0]["id"].as_str().unwrap().to_owned();
    let stored = app
        .get(&format!("/v1/matches/{id}/result"), None)
        .await
        .body;

    let theirs = import(&app, &one_play(uuid, "2025-12-24 20:00:00", 1)).await;
    assert_eq!(theirs.status, StatusCode::OK, "{}", theirs.body);
    let report = &theirs.body;
    assert_eq!(
        (
            report["created"].clone(),
            report["matched"].clone(),
            report["conflicts"].clone()
        ),
        (json!(0), json!(0), json!(1)),
        "{report}"
    );
    assert_eq!(report["plays"][0]["outcome"], "conflict");
    assert_eq!(report["plays"][0]["reason"]["code"], "content_differs");
    let after = app
        .get(&format!("/v1/matches/{id}/result"), None)
        .await
        .body;
    assert_eq!(after, stored, "the stored play is unchanged");

    let same = import(&app, &one_play(uuid, "2025-12-24 20:00:00", 2))
        .await
        .body;
    assert_eq!(
        (same["matched"].clone(), same["conflicts"].clone()),
        (json!(1), json!(0))
    );
}

/// A Lucky Jack play with BG Stats' anonymous player second, between Mum and Dad.
fn anonymous_file() -> Value {
    json!({
        "players": [
            {"id": 1, "name": "Mum"},
            {"id": 2, "name": "Dad"},
            {"id": 3, "name": "Anonymous", "isAnonymous": true}
        ],
        "games": [{"id": 10, "name": "Lucky Jack"}],
        "plays": [
            {"uuid": "7A1D2C3B-4A59-4E6F-8A7B-9C0D1E2F3A41", "gameRefId": 10,
             "playDate": "2025-12-24 20:00:00",
             "playerScores": [
                {"playerRefId": 1, "score": "9000", "winner": true, "rank": 1},
                {"playerRefId": 3, "score": "6000", "rank": 2},
                {"playerRefId": 2, "score": "3000", "rank": 3}]}
        ]
    })
}

/// BG Stats' "Anonymous" is someone who played but is not kept: the play keeps their seat and
/// score, but they are no player here (issue 41: "never rates an anonymous seat").
#[tokio::test]
async fn an_anonymous_player_keeps_a_seat_in_the_play_but_is_counted_and_rated_for_nobody() {
    let app = spawn_app().await;
    let report = import(&app, &anonymous_file()).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.body);
    assert_eq!(report.body["created"], 1, "{}", report.body);
    let anonymous = report.body["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Anonymous")
        .expect("the anonymous seat is reported");
    assert_eq!(anonymous["anonymous"], true);
    assert_eq!(anonymous["known_as"], Value::Null);

    let sheet = report.body["plays"][0]["id"].as_str().unwrap();
    let shown = app.get(&format!("/v1/sheets/{sheet}"), None).await.body;
    assert_eq!(shown["standings"]["totals"], json!([9000, 6000, 3000]));
    for path in [
        "/v1/games/lucky-jack/leaderboard",
        "/v1/games/lucky-jack/ratings",
    ] {
        let board = app.get(path, None).await;
        assert_eq!(board.status, StatusCode::OK, "{path}: {}", board.body);
        let text = board.body.to_string();
        assert!(
            text.contains("Mum") && text.contains("Dad"),
            "{path}: {text}"
        );
        assert!(!text.contains("Anonymous"), "{path} lists nobody: {text}");
    }
    let nobody = app.get("/v1/players/anonymous/stats", None).await;
    assert!(
        !nobody.body.to_string().contains("\"played\":1"),
        "no one called Anonymous played: {}",
        nobody.body
    );
    // Dad, last, was rated as if Mum and he had played alone.
    let mut two = anonymous_file();
    two["plays"][0]["playerScores"]
        .as_array_mut()
        .unwrap()
        .remove(1);
    let alone = spawn_app().await;
    import(&alone, &two).await;
    let path = "/v1/players/dad/ratings/lucky-jack";
    assert_eq!(
        app.get(path, None).await.body["items"][0]["after"],
        alone.get(path, None).await.body["items"][0]["after"]
    );

    // Exported, the seat is BG Stats' anonymous player again, and imports as one.
    let export = app.get("/v1/exports/bgstats", None).await.body;
    let players = export["players"].as_array().unwrap();
    assert!(
        players
            .iter()
            .any(|p| p["name"] == "Anonymous" && p["isAnonymous"] == true),
        "{export}"
    );
    let fresh = spawn_app().await;
    let again = import(&fresh, &export).await;
    assert_eq!(again.body["created"], 1, "{}", again.body);
    let text = fresh
        .get("/v1/games/lucky-jack/ratings", None)
        .await
        .body
        .to_string();
    assert!(!text.contains("Anonymous"), "{text}");
    app.audit_totals().await;
}

/// The page previews an import before it brings anything in: a dry run answers what the import
/// would create, match and skip, and who the players are here, and writes nothing.
#[tokio::test]
async fn a_dry_run_reports_what_the_import_would_do_and_writes_nothing() {
    let app = spawn_app().await;
    let preview = app
        .post("/v1/imports/bgstats?dry_run=true", &family_file(), None)
        .await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    assert_eq!(preview.body["created"], 2, "{}", preview.body);
    assert!(preview.body["plays"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["owner_token"].is_null()));
    let sheet = preview.body["plays"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        app.get(&format!("/v1/sheets/{sheet}"), None).await.status,
        StatusCode::NOT_FOUND,
        "nothing was written"
    );
    let board = app.get("/v1/games/lucky-jack/leaderboard", None).await.body;
    assert!(!board.to_string().contains("Mum"), "{board}");

    // The import then does what the preview said, owner tokens aside.
    let report = import(&app, &family_file()).await.body;
    let without_tokens = |mut report: Value| {
        for play in report["plays"].as_array_mut().unwrap() {
            play["owner_token"] = Value::Null;
        }
        report
    };
    assert_eq!(without_tokens(report), preview.body);
    // A preview of a file already brought in matches every play.
    let again = app
        .post("/v1/imports/bgstats?dry_run=true", &family_file(), None)
        .await
        .body;
    assert_eq!(
        (again["created"].clone(), again["matched"].clone()),
        (json!(0), json!(2))
    );
}

/// A table may rank its own way (a tie broken, a dispute settled), so the file's ranks are
/// kept; but ranks against the scores are most often a slip, and ratings count ranks: the
/// report says which play to check.
#[tokio::test]
async fn a_play_whose_ranks_contradict_its_scores_is_kept_as_ranked_with_a_note() {
    let app = spawn_app().await;
    let mut file = anonymous_file();
    file["players"][2] = json!({"id": 3, "name": "Zoé"});
    // Dad, with the fewest points, is ranked above Zoé.
    file["plays"][0]["playerScores"][2]["rank"] = json!(2);
    file["plays"][0]["playerScores"][1]["rank"] = json!(3);
    let report = import(&app, &file).await.body;
    assert_eq!(report["created"], 1, "{report}");
    let notes = &report["plays"][0]["notes"];
    assert_eq!(notes[0]["code"], "ranks_contradict_scores", "{report}");
    let detail = notes[0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("Dad 2nd with 3000 points above Zoé 3rd with 6000"),
        "{detail}"
    );
    let sheet = report["plays"][0]["id"].as_str().unwrap();
    let shown = app.get(&format!("/v1/sheets/{sheet}"), None).await.body;
    assert_eq!(
        shown["standings"]["ranks"],
        json!([1, 3, 2]),
        "kept as ranked"
    );
    // The first file's ranks agree with its scores: no note.
    let fresh = spawn_app().await;
    let plain = import(&fresh, &anonymous_file()).await.body;
    assert_eq!(plain["plays"][0]["notes"], json!([]), "{plain}");
}
