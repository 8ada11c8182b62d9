//! Households (issue 40): a group owns its records and its players. Docs: docs/households.md.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{owner_token, seat_tokens, spawn_app, Reply, TestApp};

const KEY: &str = "Household-Key";

/// A new household: (id, owner key, reader key).
async fn household(app: &TestApp, name: &str) -> (String, String, String) {
    let made = app
        .post("/v1/households", &json!({ "name": name }), None)
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let key = |field: &str| made.body[field].as_str().unwrap().to_owned();
    (
        made.body["household"]["id"].as_str().unwrap().to_owned(),
        key("owner_key"),
        key("reader_key"),
    )
}

async fn get_in(app: &TestApp, path: &str, key: Option<&str>) -> Reply {
    let mut request = app.client.get(format!("{}{path}", app.base));
    if let Some(key) = key {
        request = request.header(KEY, key);
    }
    app.send(request).await
}

async fn post_in(app: &TestApp, path: &str, body: &Value, key: Option<&str>) -> Reply {
    let mut request = app.client.post(format!("{}{path}", app.base)).json(body);
    if let Some(key) = key {
        request = request.header(KEY, key);
    }
    app.send(request).await
}

/// A three-round Lucky Jack sheet of `players`, made in the space of `key`, which `winner` (a
/// seat) wins with a jackpot every round: its id.
async fn finished_sheet(
    app: &TestApp,
    key: Option<&str>,
    players: &[&str],
    winner: usize,
) -> String {
    let players: Vec<Value> = players.iter().map(|n| json!({ "name": n })).collect();
    let made = post_in(
        app,
        "/v1/sheets",
        &json!({"game": "lucky-jack", "players": players, "options": {"rounds": 3}}),
        key,
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let id = made.body["sheet"]["id"].as_str().unwrap().to_owned();
    let owner = owner_token(&made.body);
    let mut entry = made;
    for _ in 0..3 {
        entry = app
            .post(
                &format!("/v1/sheets/{id}/entries"),
                &json!({"tally": {"jackpot": {"seat": winner, "symbol": "bell", "size": 3}}}),
                Some(&owner),
            )
            .await;
        assert_eq!(entry.status, StatusCode::OK, "{}", entry.body);
    }
    assert_eq!(entry.body["status"], "finished");
    id
}

fn played_and_won(stats: &Value) -> (i64, i64) {
    let overall = &stats["overall"];
    (
        overall["played"].as_i64().unwrap(),
        overall["won"].as_i64().unwrap(),
    )
}

#[tokio::test]
async fn two_households_mum_is_two_players_and_neither_is_the_public_mum() {
    // Issue 40: "two families' Mum: two players, in two groups".
    let app = spawn_app().await;
    let (_, lees, _) = household(&app, "The Lees").await;
    let (_, okafors, okafors_reader) = household(&app, "The Okafors").await;
    finished_sheet(&app, Some(&lees), &["Mum", "Dad"], 0).await;
    finished_sheet(&app, Some(&okafors), &["Mum", "Zoé"], 1).await;
    finished_sheet(&app, None, &["Mum", "Ben"], 0).await;
    finished_sheet(&app, None, &["Mum", "Ben"], 0).await;

    let stats = async |key: Option<&str>| {
        played_and_won(&get_in(&app, "/v1/players/Mum/stats", key).await.body)
    };
    assert_eq!(stats(Some(&lees)).await, (1, 1));
    assert_eq!(stats(Some(&okafors_reader)).await, (1, 0));
    assert_eq!(
        stats(None).await,
        (2, 2),
        "the public Mum counts only public sheets"
    );

    let board = async |key: Option<&str>| -> Vec<String> {
        let rows = get_in(&app, "/v1/games/lucky-jack/leaderboard", key)
            .await
            .body;
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| r["player"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(board(Some(&lees)).await, ["Mum", "Dad"]);
    assert_eq!(board(Some(&okafors)).await, ["Zoé", "Mum"]);
    assert_eq!(board(None).await, ["Mum", "Ben"]);

    let rated = async |key: Option<&str>| -> Vec<String> {
        let page = get_in(&app, "/v1/games/lucky-jack/ratings", key).await.body;
        page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["player"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(rated(Some(&lees)).await, ["Mum", "Dad"]);
    assert_eq!(rated(Some(&okafors)).await, ["Zoé", "Mum"]);
    assert_eq!(rated(None).await, ["Mum", "Ben"]);
    let mums = get_in(&app, "/v1/players/Mum/ratings", Some(&lees))
        .await
        .body;
    assert_eq!(mums["games"][0]["rated"], 1, "{mums}");
    app.audit_totals().await;
}

#[tokio::test]
async fn a_key_of_one_household_reads_nothing_of_another_on_any_endpoint() {
    // Issue 40: "a key of group A reads nothing of group B on every endpoint, streams included".
    let app = spawn_app().await;
    let (_, ours, our_reader) = household(&app, "Ours").await;
    let (_, theirs, _) = household(&app, "Theirs").await;
    let sheet = finished_sheet(&app, Some(&ours), &["Nana", "Pip"], 0).await;
    let made = post_in(
        &app,
        "/v1/matches",
        &json!({"game": "lucky-jack", "seats": [{"name": "Nana"}, {"name": "Pip"}],
                "options": {}, "randomness": "server"}),
        Some(&ours),
    )
    .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    let hosted = made.body["match"]["id"].as_str().unwrap().to_owned();

    let records = [
        format!("/v1/sheets/{sheet}"),
        format!("/v1/sheets/{sheet}/evening"),
        format!("/v1/sheets/{sheet}/export"),
        format!("/v1/sheets/{sheet}/bgstats"),
        format!("/v1/sheets/{sheet}/stream?format=ndjson"),
        format!("/v1/matches/{hosted}"),
        format!("/v1/matches/{hosted}/log"),
        format!("/v1/matches/{hosted}/plies/0"),
        format!("/v1/matches/{hosted}/result"),
        format!("/v1/matches/{hosted}/stream?format=ndjson"),
    ];
    for path in &records {
        for key in [None, Some(theirs.as_str())] {
            let seen = get_in(&app, path, key).await;
            assert_eq!(
                seen.status,
                StatusCode::NOT_FOUND,
                "{path} with {key:?}: {}",
                seen.body
            );
        }
    }
    // The household's own keys read them (a stream's first chunk is enough).
    for path in records.iter().filter(|p| !p.contains("stream")) {
        let seen = get_in(&app, path, Some(&our_reader)).await;
        assert_ne!(seen.status, StatusCode::NOT_FOUND, "{path}: {}", seen.body);
        assert!(
            seen.status.is_success() || seen.status == StatusCode::CONFLICT,
            "{path}: {}",
            seen.body
        );
    }
    // A seat's own token still opens its match, whatever the space.
    let seat = &seat_tokens(&made.body)[0];
    assert_eq!(
        app.read_match(&hosted, Some(seat)).await.status,
        StatusCode::OK
    );

    // What is read by player, by game or in bulk holds nothing of the other household.
    let queries = [
        "/v1/players/Nana/stats",
        "/v1/players/Nana/history",
        "/v1/players/Nana/ratings",
        "/v1/players/Nana/ratings/lucky-jack",
        "/v1/players/Nana/versus/Pip",
        "/v1/games/lucky-jack/leaderboard",
        "/v1/games/lucky-jack/ratings",
        "/v1/matches?player=Nana",
        "/v1/matches",
        "/v1/exports/bgstats",
    ];
    for path in queries {
        for key in [None, Some(theirs.as_str())] {
            let seen = get_in(&app, path, key).await;
            assert_eq!(seen.status, StatusCode::OK, "{path}: {}", seen.body);
            let text = seen.body.to_string();
            assert!(
                !text.contains(&sheet) && !text.contains(&hosted),
                "{path} with {key:?}: {text}"
            );
            // (A head-to-head names the two players it was asked about, nothing more.)
            let names_asked = path.contains("Pip");
            assert!(
                names_asked || !text.contains("Pip"),
                "{path} with {key:?} names another household's player: {text}"
            );
        }
        let ours_seen = get_in(&app, path, Some(&our_reader)).await;
        assert_eq!(
            ours_seen.status,
            StatusCode::OK,
            "{path}: {}",
            ours_seen.body
        );
    }
    let ours_listed = get_in(&app, "/v1/matches", Some(&our_reader)).await.body;
    assert_eq!(ours_listed["total"], 2, "{ours_listed}");
}

#[tokio::test]
async fn a_reader_key_only_reads_and_a_replaced_key_opens_nothing() {
    let app = spawn_app().await;
    let (id, owner, reader) = household(&app, "The Lees").await;
    let (other, _, other_reader) = household(&app, "The Okafors").await;
    let sheet = json!({"game": "lucky-jack", "players": [{"name": "Mum"}, {"name": "Dad"}]});

    let refused = post_in(&app, "/v1/sheets", &sheet, Some(&reader)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert_eq!(refused.body["code"], "household_reader_key");
    let unknown = get_in(&app, "/v1/players/Mum/stats", Some("hh_owner_nothing")).await;
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED, "{}", unknown.body);
    assert_eq!(unknown.body["code"], "invalid_household_key");

    let shown = get_in(&app, &format!("/v1/households/{id}"), Some(&reader)).await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.body);
    assert_eq!(shown.body["name"], "The Lees");
    let hidden = get_in(&app, &format!("/v1/households/{other}"), Some(&reader)).await;
    assert_eq!(hidden.status, StatusCode::NOT_FOUND, "{}", hidden.body);
    assert_eq!(
        get_in(&app, &format!("/v1/households/{id}"), Some(&other_reader))
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // A reader key is replaced by the owner only; the one before opens nothing at once.
    let by_reader = post_in(
        &app,
        &format!("/v1/households/{id}/keys/reader"),
        &json!(null),
        Some(&reader),
    )
    .await;
    assert_eq!(
        by_reader.status,
        StatusCode::FORBIDDEN,
        "{}",
        by_reader.body
    );
    let new_reader = post_in(
        &app,
        &format!("/v1/households/{id}/keys/reader"),
        &json!(null),
        Some(&owner),
    )
    .await;
    assert_eq!(new_reader.status, StatusCode::OK, "{}", new_reader.body);
    let new_reader = new_reader.body["key"].as_str().unwrap().to_owned();
    assert_eq!(
        get_in(&app, "/v1/players/Mum/stats", Some(&reader))
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        get_in(&app, "/v1/players/Mum/stats", Some(&new_reader))
            .await
            .status,
        StatusCode::OK
    );

    let new_owner = post_in(
        &app,
        &format!("/v1/households/{id}/keys/owner"),
        &json!(null),
        Some(&owner),
    )
    .await;
    assert_eq!(new_owner.status, StatusCode::OK, "{}", new_owner.body);
    let new_owner = new_owner.body["key"].as_str().unwrap().to_owned();
    assert_eq!(
        post_in(&app, "/v1/sheets", &sheet, Some(&owner))
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        post_in(&app, "/v1/sheets", &sheet, Some(&new_owner))
            .await
            .status,
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn one_file_brought_into_two_households_and_the_public_space_is_three_sets_of_plays() {
    let app = spawn_app().await;
    let (_, ours, _) = household(&app, "Ours").await;
    let (_, theirs, _) = household(&app, "Theirs").await;
    let file = referee::request_examples::import_bgstats();
    for key in [Some(ours.as_str()), Some(theirs.as_str()), None] {
        let report = post_in(&app, "/v1/imports/bgstats", &file, key).await;
        assert_eq!(report.status, StatusCode::OK, "{}", report.body);
        assert_eq!(report.body["created"], 1, "{key:?}: {}", report.body);
        // Brought in again into the same space, nothing new.
        let again = post_in(&app, "/v1/imports/bgstats", &file, key).await;
        assert_eq!(again.body["created"], 0, "{}", again.body);
        assert_eq!(again.body["matched"], 1, "{}", again.body);
    }
    let listed = async |key: Option<&str>| {
        get_in(&app, "/v1/matches?kind=sheet", key).await.body["total"].clone()
    };
    let each = listed(Some(&ours)).await;
    assert!(each.as_i64().unwrap() > 0, "{each}");
    assert_eq!(listed(Some(&theirs)).await, each);
    assert_eq!(listed(None).await, each);
    app.audit_totals().await;
}

#[tokio::test]
async fn public_records_brought_in_by_name_move_with_their_players_and_what_stays_is_reported() {
    // Issue 40: "a family can bring its public records into a new group (by name, with a report
    // of what moved)".
    let app = spawn_app().await;
    let mum_and_dad = finished_sheet(&app, None, &["Mum", "Dad"], 0).await;
    finished_sheet(&app, None, &["Dad", "Zoé"], 1).await;
    let with_grandpa = finished_sheet(&app, None, &["Mum", "Grandpa"], 1).await;
    finished_sheet(&app, None, &["Ann", "Ben"], 0).await;
    // Ben meets Dad's old table partner later in public: his rating rests on hers.
    finished_sheet(&app, None, &["Grandpa", "Ben"], 1).await;
    let unfinished = post_in(
        &app,
        "/v1/sheets",
        &json!({"game": "lucky-jack", "players": [{"name": "Mum"}, {"name": "Dad"}]}),
        None,
    )
    .await;
    let unfinished = unfinished.body["sheet"]["id"].as_str().unwrap().to_owned();
    let (id, owner, reader) = household(&app, "The Lees").await;
    let path = format!("/v1/households/{id}/bring-in");
    let family = json!(["mum", "Dad", "Zoé"]);

    let preview = post_in(
        &app,
        &path,
        &json!({"players": family, "dry_run": true}),
        Some(&owner),
    )
    .await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    let public_sheet = get_in(&app, &format!("/v1/sheets/{mum_and_dad}"), None).await;
    assert_eq!(
        public_sheet.status,
        StatusCode::OK,
        "a dry run moves nothing"
    );

    let report = post_in(&app, &path, &json!({ "players": family }), Some(&owner)).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.body);
    let mut previewed = preview.body.clone();
    previewed["dry_run"] = json!(false);
    assert_eq!(report.body, previewed, "the preview said what then moved");
    assert_eq!(report.body["moved"], 2);
    assert_eq!(
        report.body["games"],
        json!([{"game": "lucky-jack", "records": 2}])
    );
    assert_eq!(
        report.body["players"],
        json!([{"name": "mum", "records": 1}, {"name": "Dad", "records": 2},
               {"name": "Zoé", "records": 1}])
    );
    assert_eq!(report.body["stayed"], 2);
    let left = &report.body["left_behind"];
    assert_eq!(left[0]["id"], unfinished.as_str());
    assert_eq!(left[0]["reason"], "in_play");
    assert_eq!(left[1]["id"], with_grandpa.as_str());
    assert_eq!(left[1]["reason"], "other_players");
    assert_eq!(left[1]["others"], json!(["Grandpa"]));

    let sheet = format!("/v1/sheets/{mum_and_dad}");
    assert_eq!(
        get_in(&app, &sheet, None).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get_in(&app, &sheet, Some(&reader)).await.status,
        StatusCode::OK
    );
    let stats = async |name: &str, key: Option<&str>| {
        let reply = get_in(&app, &format!("/v1/players/{name}/stats"), key).await;
        played_and_won(&reply.body)
    };
    assert_eq!(stats("Mum", Some(&reader)).await, (1, 1));
    assert_eq!(stats("Dad", Some(&reader)).await, (2, 0));
    assert_eq!(stats("Zoé", Some(&reader)).await, (1, 1));
    assert_eq!(
        stats("Mum", None).await,
        (1, 0),
        "her game with Grandpa stays"
    );
    let rated = async |key: Option<&str>| -> Vec<String> {
        let page = get_in(&app, "/v1/games/lucky-jack/ratings", key).await.body;
        let mut names: Vec<String> = page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["player"].as_str().unwrap().to_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(rated(Some(&owner)).await, ["Dad", "Mum", "Zoé"]);
    assert_eq!(rated(None).await, ["Ann", "Ben", "Grandpa", "Mum"]);

    let again = post_in(&app, &path, &json!({ "players": family }), Some(&owner)).await;
    assert_eq!(again.body["moved"], 0, "{}", again.body);
    assert_eq!(again.body["stayed"], 2);
    let by_reader = post_in(&app, &path, &json!({ "players": family }), Some(&reader)).await;
    assert_eq!(by_reader.status, StatusCode::FORBIDDEN);
    assert_eq!(by_reader.body["code"], "household_reader_key");
    let (_, others, _) = household(&app, "The Okafors").await;
    let elsewhere = post_in(&app, &path, &json!({ "players": family }), Some(&others)).await;
    assert_eq!(elsewhere.status, StatusCode::NOT_FOUND);
    assert_eq!(elsewhere.body["code"], "unknown_household");
    app.audit_totals().await;
}

/// Issue 41: "An evening is the sheets and matches the same people played that night, whatever
/// the game." In a household, where a name is one person, the evening of a sheet holds every
/// sheet and hosted match of that night at which two or more of its players sat.
#[tokio::test]
async fn a_households_evening_is_every_game_the_same_people_played_that_night() {
    let app = spawn_app().await;
    let (_, key, _) = household(&app, "The Lees").await;
    let key = Some(key.as_str());
    let start = |game: &str, players: &[&str]| {
        let players: Vec<Value> = players.iter().map(|n| json!({ "name": n })).collect();
        let body = json!({"game": game, "players": players});
        let app = &app;
        async move {
            let made = post_in(app, "/v1/sheets", &body, key).await;
            assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
            made.body["sheet"]["id"].as_str().unwrap().to_owned()
        }
    };
    // Two Lucky Jack games, then Lucky Luau with Grandpa, then a hosted match for two of them.
    let jack = finished_sheet(&app, key, &["Mum", "Dad", "Zoé"], 2).await;
    let luau = start("lucky-luau", &["Grandpa", "mum", "Dad"]).await;
    let seats = json!([{"name": "Zoé"}, {"name": "Dad"}]);
    let hosted = post_in(
        &app,
        "/v1/matches",
        &json!({"game": "lucky-jack", "seats": seats, "randomness": "server"}),
        key,
    )
    .await;
    assert_eq!(hosted.status, StatusCode::CREATED, "{}", hosted.body);
    let hosted = hosted.body["match"]["id"].as_str().unwrap().to_owned();
    // Not the same people: only Dad of the three.
    start("lucky-dice", &["Dad", "Leo"]).await;
    // The same people, but a year before.
    let mut old = json!({
        "players": [{"id": 1, "name": "Mum"}, {"id": 2, "name": "Dad"}],
        "games": [{"id": 1, "name": "Lucky Jack"}],
        "plays": [{"gameRefId": 1, "playDate": "2025-11-28 20:00:00",
                   "playerScores": [{"playerRefId": 1, "score": "10"},
                                    {"playerRefId": 2, "score": "8"}]}]
    });
    let imported = post_in(&app, "/v1/imports/bgstats", &old, key).await;
    assert_eq!(imported.body["created"], 1, "{}", imported.body);
    // The same names in the public space are other people.
    old["plays"][0]["playDate"] = json!(chrono::Utc::now().format("%Y-%m-%d %H:%M:%S").to_string());
    post_in(&app, "/v1/imports/bgstats", &old, None).await;

    for asked in [&jack, &luau] {
        let evening = get_in(&app, &format!("/v1/sheets/{asked}/evening"), key).await;
        assert_eq!(evening.status, StatusCode::OK, "{}", evening.body);
        let games: Vec<(&str, &str)> = evening.body["sheets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["id"].as_str().unwrap(), s["kind"].as_str().unwrap()))
            .collect();
        assert_eq!(
            games,
            [
                (jack.as_str(), "sheet"),
                (luau.as_str(), "sheet"),
                (hosted.as_str(), "hosted")
            ],
            "{}",
            evening.body
        );
        // Each sheet still follows its own play-again chain.
        assert_eq!(evening.body["current"], asked.as_str());
        assert_eq!(
            evening.body["players"],
            json!([
                {"name": "Zoé", "sheets": 2, "wins": 1},
                {"name": "mum", "sheets": 2, "wins": 0},
                {"name": "Dad", "sheets": 3, "wins": 0},
                {"name": "Grandpa", "sheets": 1, "wins": 0},
            ]),
            "{}",
            evening.body
        );
    }
    // A hosted match of the evening has the same evening, and answers only for matches.
    let from_match = get_in(&app, &format!("/v1/matches/{hosted}/evening"), key).await;
    assert_eq!(from_match.status, StatusCode::OK, "{}", from_match.body);
    assert_eq!(from_match.body["sheets"].as_array().unwrap().len(), 3);
    assert_eq!(from_match.body["current"], hosted.as_str());
    let not_a_match = get_in(&app, &format!("/v1/matches/{jack}/evening"), key).await;
    assert_eq!(
        not_a_match.body["code"], "unknown_match",
        "{}",
        not_a_match.body
    );
    let not_a_sheet = get_in(&app, &format!("/v1/sheets/{hosted}/evening"), key).await;
    assert_eq!(
        not_a_sheet.body["code"], "unknown_sheet",
        "{}",
        not_a_sheet.body
    );
    // In the public space a name is anyone's: an evening is its play-again chain alone.
    let public = start_public(&app, &["Mum", "Dad"]).await;
    let evening = app.get(&format!("/v1/sheets/{public}/evening"), None).await;
    assert_eq!(
        evening.body["sheets"].as_array().unwrap().len(),
        1,
        "{}",
        evening.body
    );
}

async fn start_public(app: &TestApp, players: &[&str]) -> String {
    let players: Vec<Value> = players.iter().map(|n| json!({ "name": n })).collect();
    let made = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-dice", "players": players}),
            None,
        )
        .await;
    made.body["sheet"]["id"].as_str().unwrap().to_owned()
}
