//! Skill ratings (issue 28, docs/ratings.md): rated in the write that finishes a result, in the
//! order results arrived, again from a corrected or renamed result onwards, never for an
//! abandoned one; read per player, as a history, as a leaderboard by rating and head-to-head.
//! Every test ends with the audit that the stored ratings equal every game rated again from
//! its first result.

use referee::rating_model::{Model, Rating};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{every_pipeline, spawn_app_on, Pipeline};
use crate::support::{owner_token, play_to_end, spawn_app, TestApp};

/// A three-round Lucky Jack sheet, not yet played: its id and owner token.
async fn new_sheet(app: &TestApp, names: &[&str]) -> (String, String) {
    let players: Vec<Value> = names.iter().map(|n| json!({ "name": n })).collect();
    let created = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": players, "options": {"rounds": 3}}),
            None,
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let id = created.body["sheet"]["id"].as_str().unwrap().to_owned();
    (id, owner_token(&created.body))
}

async fn enter(app: &TestApp, id: &str, token: &str, entry: Value) -> Value {
    let reply = app
        .post(&format!("/v1/sheets/{id}/entries"), &entry, Some(token))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body
}

fn jackpot(seat: usize, symbol: &str, size: usize) -> Value {
    json!({"tally": {"jackpot": {"seat": seat, "symbol": symbol, "size": size}}})
}

fn nothing() -> Value {
    json!({"tally": {"jackpot": null}})
}

/// A finished sheet where `first` takes four jacks, `second` three lemons and the rest nothing:
/// ranks first, second, then the rest tied. Returns its id and owner token.
async fn finished(app: &TestApp, names: &[&str], first: usize, second: usize) -> (String, String) {
    let (id, token) = new_sheet(app, names).await;
    enter(app, &id, &token, jackpot(first, "jack", 4)).await;
    enter(app, &id, &token, jackpot(second, "lemon", 3)).await;
    let last = enter(app, &id, &token, nothing()).await;
    assert_eq!(last["status"], "finished");
    (id, token)
}

fn ranks(names: usize, first: usize, second: usize) -> Vec<u32> {
    (0..names)
        .map(|seat| match seat {
            s if s == first => 1,
            s if s == second => 2,
            _ => 3,
        })
        .collect()
}

/// A player's current rating in a game, read from the service.
async fn rating(app: &TestApp, name: &str, game: &str) -> Option<Value> {
    let reply = app.get(&format!("/v1/players/{name}/ratings"), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == game)
        .map(|g| g["rating"].clone())
}

fn as_rating(value: &Value) -> Rating {
    Rating {
        mu: value["mu"].as_f64().unwrap(),
        sigma: value["sigma"].as_f64().unwrap(),
    }
}

/// Rates results in order from scratch, as the model alone says: the expected ratings.
fn expected(results: &[(&[&str], Vec<u32>)]) -> std::collections::HashMap<String, Rating> {
    let model = Model::default();
    let mut now = std::collections::HashMap::new();
    for (names, ranks) in results {
        let before: Vec<Rating> = names
            .iter()
            .map(|n| *now.get(*n).unwrap_or(&model.initial()))
            .collect();
        for (name, after) in names.iter().zip(model.rate(&before, ranks)) {
            now.insert(name.to_string(), after);
        }
    }
    now
}

#[tokio::test]
async fn finishing_a_sheet_rates_its_players_as_the_weng_lin_model_does_and_shows_mu_minus_three_sigma(
) {
    let app = spawn_app().await;
    let names = ["Ann", "Ben", "Cat"];
    finished(&app, &names, 1, 0).await;
    let want = expected(&[(&names, ranks(3, 1, 0))]);
    for name in names {
        let got = rating(&app, name, "lucky-jack").await.unwrap();
        assert_eq!(as_rating(&got), want[name], "{name}");
        assert_eq!(got["rating"].as_f64().unwrap(), want[name].ordinal());
    }
    assert!(want["Ben"].ordinal() > want["Ann"].ordinal());
    let ben = app.get("/v1/players/ben/ratings", None).await.body;
    assert_eq!(ben["player"], "Ben");
    assert_eq!(ben["games"][0]["place"], 1);
    assert_eq!(ben["games"][0]["players"], 3);
    assert_eq!(ben["games"][0]["rated"], 1);
    assert_eq!(ben["games"][0]["won"], 1);
    app.audit_totals().await;
}

#[tokio::test]
async fn results_are_rated_in_the_order_they_finished_each_from_the_ratings_before_it() {
    let app = spawn_app().await;
    finished(&app, &["Ann", "Ben", "Cat"], 0, 1).await;
    finished(&app, &["Ben", "Dan"], 1, 0).await;
    finished(&app, &["Cat", "Ann", "Dan"], 2, 0).await;
    let want = expected(&[
        (&["Ann", "Ben", "Cat"], ranks(3, 0, 1)),
        (&["Ben", "Dan"], ranks(2, 1, 0)),
        (&["Cat", "Ann", "Dan"], ranks(3, 2, 0)),
    ]);
    for name in ["Ann", "Ben", "Cat", "Dan"] {
        let got = rating(&app, name, "lucky-jack").await.unwrap();
        assert_eq!(as_rating(&got), want[name], "{name}");
    }
    // The history has one point per result, oldest first, each starting where the last ended.
    let history = app.get("/v1/players/ann/ratings/lucky-jack", None).await;
    assert_eq!(history.status, StatusCode::OK, "{}", history.body);
    let points = history.body["items"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    assert_eq!(points[0]["before"]["rating"], 0.0, "a newcomer starts at 0");
    assert_eq!(points[0]["rank"], 1);
    assert_eq!(points[0]["players"], 3);
    assert_eq!(points[1]["before"], points[0]["after"]);
    assert_eq!(as_rating(&points[1]["after"]), want["Ann"]);
    assert_eq!(history.body["next_cursor"], Value::Null);
    app.audit_totals().await;
}

/// Issue 28: "an abandoned match rates nobody".
#[tokio::test]
async fn an_abandoned_sheet_rates_nobody() {
    let app = spawn_app().await;
    let (id, token) = new_sheet(&app, &["Ann", "Ben"]).await;
    enter(&app, &id, &token, jackpot(0, "jack", 4)).await;
    let gave_up = app
        .post(
            &format!("/v1/sheets/{id}/abandon"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(gave_up.status, StatusCode::OK, "{}", gave_up.body);
    let ann = app.get("/v1/players/ann/ratings", None).await.body;
    assert_eq!(ann["games"], json!([]));
    let board = app.get("/v1/games/lucky-jack/ratings", None).await.body;
    assert_eq!(board["items"], json!([]));
    app.audit_totals().await;
}

/// Issue 28: "a correction of a finished sheet recomputes that game's ratings from that result
/// forward". The corrected sheet keeps its place: it was played before the later one.
#[tokio::test]
async fn correcting_a_finished_sheet_rates_the_game_again_from_that_result_in_its_old_place() {
    let app = spawn_app().await;
    let (first, token) = finished(&app, &["Ann", "Ben"], 0, 1).await;
    finished(&app, &["Ben", "Cat"], 0, 1).await;
    let before = app.get(&format!("/v1/sheets/{first}"), None).await.body;
    // Round 1's four jacks were Ben's: he won the first sheet too.
    let fixed = enter(
        &app,
        &first,
        &token,
        json!({"corrects": 1, "tally": {"jackpot": {"seat": 1, "symbol": "jack", "size": 4}}}),
    )
    .await;
    assert_eq!(fixed["status"], "finished");
    assert_eq!(
        fixed["finished_at"], before["finished_at"],
        "it keeps when it finished"
    );
    let want = expected(&[(&["Ann", "Ben"], vec![2, 1]), (&["Ben", "Cat"], vec![1, 2])]);
    for name in ["Ann", "Ben", "Cat"] {
        let got = rating(&app, name, "lucky-jack").await.unwrap();
        assert_eq!(as_rating(&got), want[name], "{name}");
    }
    app.audit_totals().await;
}

#[tokio::test]
async fn taking_the_last_round_off_a_finished_sheet_takes_its_rating_away_until_it_finishes_again()
{
    let app = spawn_app().await;
    let (id, token) = finished(&app, &["Ann", "Ben"], 0, 1).await;
    let removed = app
        .post(
            &format!("/v1/sheets/{id}/remove-last-round"),
            &json!({"note": "entered too soon"}),
            Some(&token),
        )
        .await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.body);
    assert_eq!(rating(&app, "Ann", "lucky-jack").await, None);
    app.audit_totals().await;
    enter(&app, &id, &token, nothing()).await;
    assert!(rating(&app, "Ann", "lucky-jack").await.is_some());
    app.audit_totals().await;
}

#[tokio::test]
async fn renaming_a_player_of_a_finished_sheet_moves_the_result_and_its_rating_to_the_new_name() {
    let app = spawn_app().await;
    let (id, token) = finished(&app, &["Ann", "Ben"], 0, 1).await;
    finished(&app, &["Ann", "Cat"], 1, 0).await;
    let renamed = app
        .send(
            app.client
                .patch(format!("{}/v1/sheets/{id}/seats/1", app.base))
                .bearer_auth(&token)
                .json(&json!({"name": "Bea"})),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    assert_eq!(rating(&app, "Ben", "lucky-jack").await, None);
    let want = expected(&[(&["Ann", "Bea"], vec![1, 2]), (&["Ann", "Cat"], vec![2, 1])]);
    for name in ["Ann", "Bea", "Cat"] {
        let got = rating(&app, name, "lucky-jack").await.unwrap();
        assert_eq!(as_rating(&got), want[name], "{name}");
    }
    app.audit_totals().await;
}

#[tokio::test]
async fn a_rename_re_rates_the_later_results_its_players_reach_and_keeps_the_others() {
    // docs/ratings.md, "Corrections": Ann's seat of the first sheet is renamed Dan after three
    // more results, so Dan's later result starts from a rating it did not have. Fay and Eve's
    // result is reached by no one of the first sheet and keeps what it stored; Ben's later
    // result with Cat, and Cat's with Dan, are reached and rated again.
    let app = spawn_app().await;
    let (id, token) = finished(&app, &["Ann", "Ben"], 0, 1).await;
    finished(&app, &["Fay", "Eve"], 0, 1).await;
    finished(&app, &["Ben", "Cat"], 1, 0).await;
    finished(&app, &["Cat", "Dan"], 0, 1).await;
    let history = "/v1/players/eve/ratings/lucky-jack";
    let eve_before = app.get(history, None).await.body;
    let renamed = app
        .send(
            app.client
                .patch(format!("{}/v1/sheets/{id}/seats/0", app.base))
                .bearer_auth(&token)
                .json(&json!({"name": "Dan"})),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    assert_eq!(app.get(history, None).await.body, eve_before);
    let want = expected(&[
        (&["Dan", "Ben"], vec![1, 2]),
        (&["Fay", "Eve"], vec![1, 2]),
        (&["Ben", "Cat"], vec![2, 1]),
        (&["Cat", "Dan"], vec![1, 2]),
    ]);
    for name in ["Ben", "Cat", "Dan", "Eve", "Fay"] {
        let got = rating(&app, name, "lucky-jack").await.unwrap();
        assert_eq!(as_rating(&got), want[name], "{name}");
    }
    assert_eq!(rating(&app, "Ann", "lucky-jack").await, None);
    app.audit_totals().await;
}

every_pipeline!(a_hosted_match_that_finishes_rates_its_seats_by_their_final_ranks);
async fn a_hosted_match_that_finishes_rates_its_seats_by_their_final_ranks(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    // Short rounds keep the match to a few hundred moves; its ranks are the game's own.
    let options = json!({"rounds": 3, "max_turns_per_round": 20});
    let created = app
        .create_lucky_jack(&["Ann", "Ben", "Cat"], options, "server")
        .await;
    let end = play_to_end(&app, &created).await;
    let ranks: Vec<u32> = end["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rank"].as_u64().unwrap() as u32)
        .collect();
    let want = expected(&[(&["Ann", "Ben", "Cat"], ranks)]);
    for name in ["Ann", "Ben", "Cat"] {
        let got = rating(&app, name, "lucky-jack").await.unwrap();
        assert_eq!(as_rating(&got), want[name], "{name}");
    }
    let history = app
        .get("/v1/players/cat/ratings/lucky-jack", None)
        .await
        .body;
    assert_eq!(history["items"][0]["kind"], "hosted");
    app.audit_totals().await;
}

#[tokio::test]
async fn sheets_finishing_at_once_are_rated_one_after_the_other() {
    let app = spawn_app().await;
    let mut sheets = Vec::new();
    for _ in 0..6 {
        let (id, token) = new_sheet(&app, &["Ann", "Ben", "Cat"]).await;
        enter(&app, &id, &token, jackpot(0, "jack", 4)).await;
        enter(&app, &id, &token, jackpot(1, "lemon", 3)).await;
        sheets.push((id, token));
    }
    let finishing = sheets
        .iter()
        .map(|(id, token)| enter(&app, id, token, nothing()));
    futures_util::future::join_all(finishing).await;
    let ann = app.get("/v1/players/ann/ratings", None).await.body;
    assert_eq!(ann["games"][0]["rated"], 6);
    // The audit rates the game again in finish order and compares every stored change.
    app.audit_totals().await;
}

#[tokio::test]
async fn the_leaderboard_by_rating_pages_by_keyset_and_equal_ratings_share_a_place() {
    let app = spawn_app().await;
    // Two separate tables with the same result: Ann and Dan rate alike, Ben and Eve alike.
    finished(&app, &["Ann", "Ben", "Cat"], 0, 1).await;
    finished(&app, &["Dan", "Eve", "Fay"], 0, 1).await;
    let page = app.get("/v1/games/lucky-jack/ratings?limit=3", None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let rows = page.body["items"].as_array().unwrap().clone();
    let names: Vec<&str> = rows.iter().map(|r| r["player"].as_str().unwrap()).collect();
    assert_eq!(names, ["Ann", "Dan", "Ben"]);
    let places: Vec<i64> = rows.iter().map(|r| r["place"].as_i64().unwrap()).collect();
    assert_eq!(places, [1, 1, 3]);
    let cursor = page.body["next_cursor"].as_str().unwrap().to_owned();
    let next = app
        .get(
            &format!("/v1/games/lucky-jack/ratings?limit=3&cursor={cursor}"),
            None,
        )
        .await
        .body;
    let names: Vec<&str> = next["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Eve", "Cat", "Fay"]);
    assert_eq!(
        next["items"][0]["place"], 3,
        "a tie across pages keeps its place"
    );
    assert_eq!(next["next_cursor"], Value::Null);
}

#[tokio::test]
async fn a_rating_history_pages_in_the_order_rated_each_point_starting_where_the_last_ended() {
    // docs/ratings.md, "Reading ratings": one point per rated result in the order rated, paged
    // by keyset; each `before` is the previous point's `after`, across pages too.
    let app = spawn_app().await;
    for first in [0, 1, 0] {
        finished(&app, &["Ann", "Ben"], first, 1 - first).await;
    }
    let path = "/v1/players/ann/ratings/lucky-jack";
    let page = app.get(&format!("{path}?limit=2"), None).await.body;
    let cursor = page["next_cursor"].as_str().unwrap().to_owned();
    assert!(cursor.starts_with('r'), "{cursor}");
    let rest = app
        .get(&format!("{path}?limit=2&cursor={cursor}"), None)
        .await
        .body;
    assert_eq!(rest["next_cursor"], Value::Null);
    let points: Vec<Value> = [&page, &rest]
        .iter()
        .flat_map(|p| p["items"].as_array().unwrap().clone())
        .collect();
    assert_eq!(points.len(), 3);
    for pair in points.windows(2) {
        assert_eq!(pair[1]["before"], pair[0]["after"]);
    }
}

/// Issue 28: "the same filters (period) as the existing history queries".
#[tokio::test]
async fn over_a_period_the_leaderboard_history_and_head_to_head_count_only_results_in_it() {
    let app = spawn_app().await;
    let (old, _) = finished(&app, &["Ann", "Ben"], 0, 1).await;
    // Last year's sheet, moved back in time (its rating changes with it).
    app.sql(&format!(
        "UPDATE matches SET finished_at = '2025-06-01T20:00:00Z' WHERE id = '{old}'"
    ))
    .await;
    app.sql(&format!(
        "UPDATE rating_changes SET rated_at = '2025-06-01T20:00:00Z' WHERE match_id = '{old}'"
    ))
    .await;
    finished(&app, &["Ann", "Ben"], 1, 0).await;
    let this_year = "from=2026-01-01T00:00:00Z";
    let board = app
        .get(&format!("/v1/games/lucky-jack/ratings?{this_year}"), None)
        .await
        .body;
    assert_eq!(board["items"][0]["player"], "Ben");
    assert_eq!(board["items"][0]["rated"], 1);
    let last_year = app
        .get("/v1/games/lucky-jack/ratings?to=2026-01-01T00:00:00Z", None)
        .await
        .body;
    assert_eq!(last_year["items"][0]["player"], "Ann");
    let history = app
        .get(
            &format!("/v1/players/ann/ratings/lucky-jack?{this_year}"),
            None,
        )
        .await
        .body;
    assert_eq!(history["items"].as_array().unwrap().len(), 1);
    let versus = app
        .get(&format!("/v1/players/ann/versus/ben?{this_year}"), None)
        .await
        .body;
    assert_eq!(versus["games"][0]["played"], 1);
    assert_eq!(versus["games"][0]["opponent_ahead"], 1);
    app.audit_totals().await;
}

#[tokio::test]
async fn head_to_head_counts_who_finished_ahead_per_game_and_lists_shared_results_newest_first() {
    let app = spawn_app().await;
    finished(&app, &["Ann", "Ben", "Cat"], 0, 1).await;
    finished(&app, &["Ben", "Ann"], 0, 1).await;
    finished(&app, &["Ann", "Cat", "Ben"], 0, 1).await;
    // Cat first, Dan second, Ann and Ben tied third.
    finished(&app, &["Cat", "Dan", "Ann", "Ben"], 0, 1).await;
    let reply = app
        .get("/v1/players/ann/versus/BEN?game=lucky-jack&limit=2", None)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let body = reply.body;
    assert_eq!(
        (body["player"].clone(), body["opponent"].clone()),
        (json!("Ann"), json!("Ben"))
    );
    let game = &body["games"][0];
    assert_eq!(game["game"], "lucky-jack");
    assert_eq!(
        [
            &game["played"],
            &game["player_ahead"],
            &game["opponent_ahead"],
            &game["level"]
        ],
        [&json!(4), &json!(2), &json!(1), &json!(1)]
    );
    assert_eq!(
        game["player_rating"],
        rating(&app, "Ann", "lucky-jack").await.unwrap()
    );
    let items = body["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["player"]["rank"], 3, "newest first: the tie");
    assert_eq!(items[0]["opponent"]["rank"], 3);
    let cursor = body["next_cursor"].as_str().unwrap();
    let rest = app
        .get(&format!("/v1/players/ann/versus/ben?cursor={cursor}"), None)
        .await
        .body;
    assert_eq!(rest["items"].as_array().unwrap().len(), 2);
    assert_eq!(
        rest["items"][1]["opponent"]["rank"], 2,
        "the oldest: Ben second"
    );
}

/// Hardening round 4: a head-to-head of one player with themself is well-formed (two names the
/// schema accepts) and refused by a rule, so it is a 422, as the operation declares, not a 400
/// (which a spec-driven fuzzer reads as a schema-valid request refused as malformed).
#[tokio::test]
async fn a_head_to_head_of_one_player_with_themself_is_refused_by_a_rule_with_422() {
    let app = spawn_app().await;
    for path in [
        "/v1/players/ann/versus/ANN",
        "/v1/players/Ann/versus/\u{410}nn",
    ] {
        let reply = app.get(path, None).await;
        assert_eq!(reply.status.as_u16(), 422, "{path}: {}", reply.body);
        assert_eq!(reply.body["code"], "same_player", "{path}: {}", reply.body);
        assert_eq!(reply.body["status"], 422, "{}", reply.body);
    }
    let spec = referee::http::openapi();
    let responses = &spec["paths"]["/v1/players/{name}/versus/{opponent}"]["get"]["responses"];
    assert!(responses.get("422").is_some(), "{responses}");
}

#[tokio::test]
async fn rating_reads_refuse_a_bad_cursor_a_bad_limit_an_unknown_game_and_one_player_twice() {
    let app = spawn_app().await;
    for (path, status, code) in [
        (
            "/v1/games/lucky-jack/ratings?cursor=nope",
            400,
            "invalid_cursor",
        ),
        ("/v1/games/lucky-jack/ratings?limit=0", 400, "invalid_limit"),
        (
            "/v1/games/lucky-jack/ratings?limit=101",
            400,
            "invalid_limit",
        ),
        ("/v1/games/chess/ratings", 404, "unknown_game"),
        ("/v1/players/ann/ratings/chess", 404, "unknown_game"),
        (
            "/v1/players/ann/ratings/lucky-jack?cursor=1-2",
            400,
            "invalid_cursor",
        ),
        (
            "/v1/players/ann/ratings/lucky-jack?limit=501",
            400,
            "invalid_limit",
        ),
        ("/v1/players/ann/versus/ANN", 422, "same_player"),
        ("/v1/players/ann/versus/ben?cursor=x", 400, "invalid_cursor"),
        (
            "/v1/players/ann/versus/ben?game=chess",
            400,
            "invalid_query",
        ),
    ] {
        let reply = app.get(path, None).await;
        assert_eq!(reply.status.as_u16(), status, "{path}: {}", reply.body);
        assert_eq!(reply.body["code"], code, "{path}: {}", reply.body);
    }
    // Nobody rated yet: empty answers, not errors.
    let nobody = app.get("/v1/players/zed/ratings", None).await;
    assert_eq!(nobody.status, StatusCode::OK);
    assert_eq!(nobody.body["games"], json!([]));
}

/// Results finished before ratings existed (or under an older rating scheme) are rated when the
/// service starts.
#[tokio::test]
async fn results_stored_before_ratings_are_rated_at_start_up() {
    let app = spawn_app().await;
    finished(&app, &["Ann", "Ben"], 0, 1).await;
    finished(&app, &["Ben", "Cat"], 0, 1).await;
    let before = rating(&app, "Ben", "lucky-jack").await.unwrap();
    app.sql("DELETE FROM rating_changes").await;
    app.sql("DELETE FROM player_ratings").await;
    app.sql("UPDATE rating_scheme SET scheme = 0").await;
    let restarted = app.second_instance().await;
    assert_eq!(
        rating(&restarted, "Ben", "lucky-jack").await.unwrap(),
        before
    );
    app.audit_totals().await;
}
