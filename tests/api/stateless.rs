//! The stateless referee: states the client holds.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::spawn_app;

const SEED: &str = "0000000000000000000000000000000000000000000000000000000000000001";

#[tokio::test]
async fn the_catalogue_lists_lucky_jack_with_its_options_and_defaults() {
    let app = spawn_app().await;
    let games = app.get("/v1/games", None).await;
    assert_eq!(games.status, StatusCode::OK);
    let jack = games
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["slug"] == "lucky-jack")
        .unwrap()
        .clone();
    assert_eq!(jack["min_players"], 2);
    assert_eq!(jack["max_players"], 6);
    assert_eq!(jack["default_options"]["rounds"], 3);
    assert!(jack["options_schema"]["properties"]["rounds"].is_object());
    assert!(
        !jack["options_schema"].to_string().contains("$ref"),
        "the options schema stands alone"
    );
}

async fn seeded_state(app: &crate::support::TestApp) -> Value {
    let reply = app
        .post(
            "/v1/games/lucky-jack/states",
            &json!({"players": 3, "seed": SEED}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["chance_pending"], false);
    reply.body
}

#[tokio::test]
async fn a_seed_always_deals_the_same_state() {
    let app = spawn_app().await;
    assert_eq!(
        seeded_state(&app).await["state"],
        seeded_state(&app).await["state"]
    );
    let unseeded = app
        .post("/v1/games/lucky-jack/states", &json!({"players": 3}), None)
        .await;
    assert_eq!(unseeded.body["chance_pending"], true);
    let bad_seed = app
        .post(
            "/v1/games/lucky-jack/states",
            &json!({"players": 3, "seed": "xyz"}),
            None,
        )
        .await;
    assert_eq!(bad_seed.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad_seed.body["code"], "invalid_seed");
}

#[tokio::test]
async fn every_listed_legal_move_checks_as_legal_and_a_refusal_names_its_rule() {
    let app = spawn_app().await;
    let setup = seeded_state(&app).await;
    let seat = setup["to_act"][0].as_u64().unwrap();
    let moves = app
        .post(
            "/v1/games/lucky-jack/legal-moves",
            &json!({"state": setup["state"], "seat": seat}),
            None,
        )
        .await;
    assert_eq!(moves.status, StatusCode::OK);
    let moves = moves.body["moves"].as_array().unwrap().clone();
    assert!(!moves.is_empty());
    for mv in &moves {
        let check = app
            .post(
                "/v1/games/lucky-jack/check",
                &json!({"state": setup["state"], "seat": seat, "move": mv}),
                None,
            )
            .await;
        assert_eq!(check.status, StatusCode::OK);
        assert_eq!(
            check.body["legal"], true,
            "{mv} was listed as legal: {}",
            check.body
        );
        assert!(check.body["next"]["state"].is_object());
    }
    let other = (seat + 1) % 3;
    let refused = app
        .post(
            "/v1/games/lucky-jack/check",
            &json!({"state": setup["state"], "seat": other, "move": {"type": "draw"}}),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::OK);
    assert_eq!(refused.body["legal"], false);
    assert_eq!(refused.body["refusal"]["code"], "not_your_turn");
    let nobody = app
        .post(
            "/v1/games/lucky-jack/check",
            &json!({"state": setup["state"], "seat": 9, "move": {"type": "draw"}}),
            None,
        )
        .await;
    assert_eq!(nobody.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(nobody.body["code"], "unknown_seat");
}

#[tokio::test]
async fn an_inconsistent_state_is_refused_with_the_reason() {
    let app = spawn_app().await;
    let mut state = seeded_state(&app).await["state"].clone();
    state["hands"][0]
        .as_array_mut()
        .unwrap()
        .push(json!("jack"));
    for path in ["check", "legal-moves", "score"] {
        let body = json!({"state": state, "seat": 0, "move": {"type": "draw"}});
        let body = match path {
            "check" => body,
            "legal-moves" => json!({"state": state, "seat": 0}),
            _ => json!({"state": state}),
        };
        let reply = app
            .post(&format!("/v1/games/lucky-jack/{path}"), &body, None)
            .await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{path}: {}",
            reply.body
        );
        assert_eq!(reply.body["code"], "inconsistent_state");
        assert!(reply.body["params"]["reason"].is_string());
    }
    let mut garbage = state.clone();
    garbage["players"] = json!("three");
    let reply = app
        .post(
            "/v1/games/lucky-jack/score",
            &json!({"state": garbage}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.body["code"], "invalid_state");
}

#[tokio::test]
async fn a_table_deal_is_reported_then_scored_and_viewed() {
    let app = spawn_app().await;
    let empty = app
        .post("/v1/games/lucky-jack/states", &json!({"players": 2}), None)
        .await
        .body;
    let deal = json!({"kind": "deal", "hands": [
        ["lemon","cherry","grape","clover","bell","seven","jack"],
        ["lemon","lemon","lemon","grape","clover","seven","seven"]], "flip": "clover"});
    let dealt = app
        .post(
            "/v1/games/lucky-jack/chance",
            &json!({"state": empty["state"], "outcome": deal}),
            None,
        )
        .await;
    assert_eq!(dealt.status, StatusCode::OK, "{}", dealt.body);
    assert_eq!(dealt.body["to_act"], json!([1]));
    let again = app
        .post(
            "/v1/games/lucky-jack/chance",
            &json!({"state": dealt.body["state"], "outcome": deal}),
            None,
        )
        .await;
    assert_eq!(again.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(again.body["code"], "no_chance_pending");

    let score = app
        .post(
            "/v1/games/lucky-jack/score",
            &json!({"state": dealt.body["state"]}),
            None,
        )
        .await;
    assert_eq!(score.status, StatusCode::OK);
    assert_eq!(score.body["standings"]["totals"], json!([0, 0]));
    assert_eq!(score.body["over"], false);

    let view = app
        .post(
            "/v1/games/lucky-jack/view",
            &json!({"state": dealt.body["state"], "viewer": {"seat": 0}}),
            None,
        )
        .await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.body);
    assert!(view.body["hands"][0].is_array());
    assert!(view.body["hands"][1].is_null());
}

#[tokio::test]
async fn a_score_sheet_of_jackpots_is_totalled_ranked_and_ended_by_the_rules() {
    let app = spawn_app().await;
    // Three rounds: Ann's 3-card bell (5 000), no jackpot, Cleo's four jacks (10 000).
    let rounds = json!([
        {"jackpot": {"seat": 0, "symbol": "bell", "size": 3}},
        {"jackpot": null},
        {"jackpot": {"seat": 2, "symbol": "jack", "size": 4}}
    ]);
    let reply = app
        .post(
            "/v1/games/lucky-jack/tally",
            &json!({"players": 3, "rounds": rounds}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["standings"]["totals"], json!([5000, 0, 10000]));
    assert_eq!(reply.body["standings"]["ranks"], json!([2, 3, 1]));
    assert_eq!(reply.body["standings"]["winners"], json!([2]));
    assert_eq!(reply.body["over"], true);
    assert_eq!(reply.body["rounds"][2]["result"]["points"], 10000);

    // A fourth round in a three-round game, a 5-card "jackpot", a seat that is not there.
    let mut four = rounds.as_array().unwrap().clone();
    four.push(json!({"jackpot": null}));
    let late = app
        .post(
            "/v1/games/lucky-jack/tally",
            &json!({"players": 3, "rounds": four}),
            None,
        )
        .await;
    assert_eq!(
        late.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        late.body
    );
    assert_eq!(late.body["code"], "game_over");
    let five = json!([{"jackpot": {"seat": 0, "symbol": "bell", "size": 5}}]);
    let bad = app
        .post(
            "/v1/games/lucky-jack/tally",
            &json!({"players": 3, "rounds": five}),
            None,
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.body["code"], "invalid_jackpot_size");
    assert_eq!(bad.body["params"]["round"], 1);
    let ghost = json!([{"jackpot": {"seat": 7, "symbol": "bell", "size": 3}}]);
    let bad = app
        .post(
            "/v1/games/lucky-jack/tally",
            &json!({"players": 3, "rounds": ghost}),
            None,
        )
        .await;
    assert_eq!(bad.body["code"], "unknown_seat");
}

/// Each game's documented examples come from real play: the check example's state is the one its
/// setup example deals, and its move is legal there; its view example shows the seat to act its
/// own hand. A refused move would still be a 200, so the reply itself is checked.
#[tokio::test]
async fn every_games_documented_examples_are_real_play() {
    let app = spawn_app().await;
    let spec = app.get("/openapi.json", None).await.body;
    let example = |path: &str| {
        spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["example"].clone()
    };
    for game in app.get("/v1/games", None).await.body.as_array().unwrap() {
        let slug = game["slug"].as_str().unwrap();
        let path = |operation: &str| format!("/v1/games/{slug}/{operation}");
        let dealt = app
            .post(&path("states"), &example(&path("states")), None)
            .await;
        assert_eq!(dealt.status, StatusCode::OK, "{slug}: {}", dealt.body);
        let check = example(&path("check"));
        assert_eq!(
            check["state"], dealt.body["state"],
            "{slug}: the dealt state"
        );
        assert!(
            dealt.body["to_act"]
                .as_array()
                .unwrap()
                .contains(&check["seat"]),
            "{slug}: the seat to act moves"
        );
        let checked = app.post(&path("check"), &check, None).await;
        assert_eq!(checked.status, StatusCode::OK, "{slug}: {}", checked.body);
        assert_eq!(checked.body["legal"], true, "{slug}: {}", checked.body);
        let chance = example(&path("chance"));
        let reported = app.post(&path("chance"), &chance, None).await;
        assert_eq!(reported.status, StatusCode::OK, "{slug}: {}", reported.body);
        let tally = example(&path("tally"));
        assert!(
            !tally["rounds"].as_array().unwrap().is_empty(),
            "{slug}: the tally example scores a round"
        );
    }
}
