//! Lucky Dice over HTTP: a whole server-rolled game, seats rolling at the same moment, table-rolled
//! dice, and the stateless endpoints.

use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{every_pipeline, spawn_app_on, Pipeline};
use crate::support::{match_id, owner_token, play_to_end, seat_tokens, TestApp};

const SEED: &str = "00000000000000000000000000000000000000000000000000000000000000d1";

fn seats(value: &Value) -> Vec<usize> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap() as usize)
        .collect()
}

/// Every `rolled` event keeps the 3n dice in pools + tray.
fn assert_dice_conserved(events: &[Value], players: u64) {
    for event in events.iter().filter(|e| e["type"] == "rolled") {
        let pools: u64 = event["pools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .sum();
        assert_eq!(
            pools + event["tray"].as_u64().unwrap(),
            3 * players,
            "{event}"
        );
    }
}

every_pipeline!(a_server_rolled_game_is_played_to_its_winner_with_three_coasters);
async fn a_server_rolled_game_is_played_to_its_winner_with_three_coasters(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match("lucky-dice", &["Ann", "Ben", "Cleo"], json!({}), "server")
        .await;
    let id = match_id(&created);
    // The coasters are drawn and the large die rolled at creation: the race is on.
    assert_eq!(created["match"]["view"]["phase"], "race");
    assert_eq!(created["match"]["to_act"], json!([0, 1, 2]));
    assert_eq!(created["match"]["version"], 2);
    assert_eq!(created["match"]["view"]["pools"], json!([3, 3, 3]));

    let finished = play_to_end(&app, &created).await;
    assert_eq!(finished["status"], "finished");
    let result = app.get(&format!("/v1/matches/{id}/result"), None).await;
    assert_eq!(result.status, StatusCode::OK);
    let totals: Vec<i64> = result.body["standings"]["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    // Rulebook END OF THE GAME: the first with three face-down coasters wins; ties share.
    let winners = seats(&result.body["standings"]["winners"]);
    assert!(!winners.is_empty());
    let expected: Vec<usize> = (0..3).filter(|&s| totals[s] == 3).collect();
    assert_eq!(winners, expected);
    assert_eq!(
        result.body["winners"].as_array().unwrap().len(),
        winners.len()
    );

    // The log tells where every die went, and the export replays to the same standings.
    let log = app
        .get(
            &format!("/v1/matches/{id}/log"),
            Some(&owner_token(&created)),
        )
        .await;
    assert_eq!(log.status, StatusCode::OK);
    let events: Vec<Value> = log.body["entries"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["events"].as_array().unwrap().clone())
        .collect();
    assert!(events.iter().any(|e| e["type"] == "rolled"));
    assert!(events.iter().any(|e| e["type"] == "game_ended"));
    assert_dice_conserved(&events, 3);
    let export = app.get(&format!("/v1/matches/{id}/export"), None).await;
    let parsed: referee::matches::MatchExport =
        serde_json::from_value(export.body.clone()).unwrap();
    let verified = referee::matches::verify_export(&parsed).unwrap();
    assert_eq!(
        serde_json::to_value(&verified).unwrap()["standings"],
        result.body["standings"]
    );
    app.audit_snapshots().await;
}

every_pipeline!(the_reply_to_a_roll_says_where_each_die_went_and_a_stale_count_is_409);
async fn the_reply_to_a_roll_says_where_each_die_went_and_a_stale_count_is_409(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match("lucky-dice", &["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let tokens = seat_tokens(&created);
    // A roll of a dice count the seat does not hold: the client's view is out of date.
    let stale = app
        .post_move(
            &id,
            Some(&tokens[0]),
            None,
            &json!({"type": "roll", "dice": 2}),
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.body);
    assert_eq!(stale.body["code"], "wrong_dice_count");
    assert_eq!(stale.body["params"]["held"], 3);
    assert_eq!(stale.body["params"]["claimed"], 2);
    // A roll with no count is refused while the count is strict (default).
    let missing = app
        .post_move(&id, Some(&tokens[0]), None, &json!({"type": "roll"}))
        .await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(missing.body["code"], "dice_count_required");

    let rolled = app
        .post_move(
            &id,
            Some(&tokens[0]),
            None,
            &json!({"type": "roll", "dice": 3}),
        )
        .await;
    assert_eq!(rolled.status, StatusCode::OK, "{}", rolled.body);
    let entries = rolled.body["entries"].as_array().unwrap();
    assert_eq!(entries[0]["seat"], 0);
    assert_eq!(entries[0]["events"][0]["type"], "rolling");
    assert_eq!(entries[1]["events"][0]["type"], "rolled");
    let dice = entries[1]["events"][0]["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 3);
    for die in dice {
        assert!(["tray", "left", "right", "stays"].contains(&die["to"].as_str().unwrap()));
    }
    app.audit_snapshots().await;
}

/// One burst: every seat that may act submits at the same moment, with the dice count it last
/// saw and no `expected_version`. Returns (seat, status, body) per request.
async fn burst(app: &TestApp, id: &str, tokens: &[String]) -> Vec<(usize, StatusCode, Value)> {
    let owner_view = app.read_match(id, None).await.body;
    let phase = owner_view["view"]["phase"].as_str().unwrap().to_owned();
    let pools = owner_view["view"]["pools"].clone();
    let to_act = seats(&owner_view["to_act"]);
    let requests = to_act.iter().map(|&seat| {
        let dice = pools[seat].clone();
        let mv = if phase == "race" {
            json!({"type": "roll", "dice": dice})
        } else if seat % 2 == 0 {
            json!({"type": "extra_roll", "dice": dice})
        } else {
            json!({"type": "finish_extra_rolls"})
        };
        let path = format!("/v1/matches/{id}/moves");
        let token = tokens[seat].clone();
        async move {
            let reply = app.post(&path, &json!({"move": mv}), Some(&token)).await;
            (seat, reply.status, reply.body)
        }
    });
    join_all(requests).await
}

every_pipeline!(seats_rolling_at_the_same_moment_are_serialised_exactly_once_with_dice_conserved);
async fn seats_rolling_at_the_same_moment_are_serialised_exactly_once_with_dice_conserved(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let names = ["Ann", "Ben", "Cleo", "Dev", "Eve"];
    let created = app
        .create_match("lucky-dice", &names, json!({"coaster_target": 2}), "server")
        .await;
    let id = match_id(&created);
    let tokens = seat_tokens(&created);
    let mut accepted: Vec<(usize, i64)> = Vec::new();
    let mut conflicts = 0;
    for _ in 0..400 {
        let detail = app.read_match(&id, None).await.body;
        if detail["status"] == "finished" {
            break;
        }
        for (seat, status, body) in burst(&app, &id, &tokens).await {
            match status {
                StatusCode::OK => {
                    let ply = body["entries"][0]["ply"].as_i64().unwrap();
                    assert_eq!(body["entries"][0]["seat"], seat);
                    accepted.push((seat, ply));
                }
                // Another seat's roll got there first: dice were passed to this seat, "Stop!"
                // was called, or the round ended. Never a silent mis-count.
                StatusCode::CONFLICT => {
                    conflicts += 1;
                    let code = body["code"].as_str().unwrap();
                    assert!(
                        [
                            "wrong_dice_count",
                            "stop_phase",
                            "not_in_stop_phase",
                            "match_finished"
                        ]
                        .contains(&code),
                        "{body}"
                    );
                }
                // The round moved on so that this seat may no longer act (it emptied, or the
                // race ended for it).
                StatusCode::UNPROCESSABLE_ENTITY => {
                    assert_eq!(body["code"], "not_your_turn", "{body}");
                }
                other => panic!("seat {seat}: {other} {body}"),
            }
        }
    }
    let detail = app.read_match(&id, None).await.body;
    assert_eq!(
        detail["status"], "finished",
        "the bursts play the game to its end"
    );
    assert!(conflicts > 0, "simultaneous rolls collide at least once");

    // Every accepted move is in the log exactly once, at the ply its reply named, for its seat;
    // nothing else was accepted.
    let log = app
        .get(
            &format!("/v1/matches/{id}/log"),
            Some(&owner_token(&created)),
        )
        .await
        .body;
    let entries = log["entries"].as_array().unwrap();
    let moves: Vec<(usize, i64)> = entries
        .iter()
        .filter(|e| e["seat"].is_u64())
        .map(|e| {
            (
                e["seat"].as_u64().unwrap() as usize,
                e["ply"].as_i64().unwrap(),
            )
        })
        .collect();
    let mut sorted = accepted.clone();
    sorted.sort_by_key(|&(_, ply)| ply);
    assert_eq!(moves, sorted);
    let plies: Vec<i64> = entries.iter().map(|e| e["ply"].as_i64().unwrap()).collect();
    assert_eq!(plies, (1..=plies.len() as i64).collect::<Vec<_>>());
    // Each roll move is followed by exactly its own roll outcome.
    for (i, entry) in entries.iter().enumerate() {
        if entry["move"]["type"] == "roll" || entry["move"]["type"] == "extra_roll" {
            let next = &entries[i + 1];
            assert!(next["seat"].is_null());
            assert_eq!(next["events"][0]["type"], "rolled");
            assert_eq!(next["events"][0]["seat"], entry["seat"]);
            assert_eq!(
                next["chance"]["faces"].as_array().unwrap().len() as u64,
                entry["move"]["dice"].as_u64().unwrap()
            );
        }
    }
    let events: Vec<Value> = entries
        .iter()
        .flat_map(|e| e["events"].as_array().unwrap().clone())
        .collect();
    assert_dice_conserved(&events, names.len() as u64);
    app.audit_snapshots().await;
}

every_pipeline!(
    a_table_reports_the_coasters_the_large_die_and_each_roll_and_impossible_ones_are_refused
);
async fn a_table_reports_the_coasters_the_large_die_and_each_roll_and_impossible_ones_are_refused(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match("lucky-dice", &["Ann", "Ben"], json!({}), "table")
        .await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    let tokens = seat_tokens(&created);
    assert_eq!(created["match"]["chance_pending"], true);
    let report = |outcome: Value, token: String| {
        let app = &app;
        let path = format!("/v1/matches/{id}/chance");
        async move {
            app.post(&path, &json!({"outcome": outcome}), Some(&token))
                .await
        }
    };
    // Two clover/pig coasters do not exist in the balanced set.
    let twice = json!({"kind": "coasters", "coasters": [
        {"left": "clover", "right": "pig"}, {"left": "clover", "right": "pig"}]});
    let refused = report(twice, owner.clone()).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["code"], "coaster_not_in_pile");
    let drawn = report(
        json!({"kind": "coasters", "coasters": [
            {"left": "clover", "right": "pig"}, {"left": "penny", "right": "hamsa"}]}),
        owner.clone(),
    )
    .await;
    assert_eq!(drawn.status, StatusCode::OK, "{}", drawn.body);
    let started = report(
        json!({"kind": "lucky_symbol", "symbol": "cat"}),
        owner.clone(),
    )
    .await;
    assert_eq!(started.body["to_act"], json!([0, 1]));

    // Ben's phone rolls; Ann's roll waits until Ben's faces are reported.
    let rolling = app
        .post_move(
            &id,
            Some(&tokens[1]),
            None,
            &json!({"type": "roll", "dice": 3}),
        )
        .await;
    assert_eq!(rolling.status, StatusCode::OK);
    assert_eq!(rolling.body["chance_pending"], true);
    let blocked = app
        .post_move(
            &id,
            Some(&tokens[0]),
            None,
            &json!({"type": "roll", "dice": 3}),
        )
        .await;
    assert_eq!(blocked.body["code"], "chance_pending");
    let short = report(
        json!({"kind": "roll", "faces": ["cat", "pig"]}),
        tokens[1].clone(),
    )
    .await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(short.body["code"], "wrong_face_count");
    // Cat is lucky (tray); penny and hamsa are Ben's coaster symbols: both to Ann (2 players).
    let faces = report(
        json!({"kind": "roll", "faces": ["cat", "penny", "hamsa"]}),
        tokens[1].clone(),
    )
    .await;
    assert_eq!(faces.status, StatusCode::OK, "{}", faces.body);
    let rolled = &faces.body["entries"][0]["events"][0];
    assert_eq!(
        rolled["dice"][0],
        json!({"face": "cat", "to": "tray", "seat": null})
    );
    assert_eq!(
        rolled["dice"][1],
        json!({"face": "penny", "to": "left", "seat": 0})
    );
    assert_eq!(
        rolled["dice"][2],
        json!({"face": "hamsa", "to": "right", "seat": 0})
    );
    assert_eq!(rolled["pools"], json!([5, 0]));
    assert_eq!(faces.body["entries"][0]["events"][1]["type"], "stopped");
    // Ann still believes she holds 3 dice: 409.
    let stale = app
        .post_move(
            &id,
            Some(&tokens[0]),
            None,
            &json!({"type": "extra_roll", "dice": 3}),
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert_eq!(stale.body["code"], "wrong_dice_count");
    let declined = app
        .post_move(
            &id,
            Some(&tokens[0]),
            None,
            &json!({"type": "finish_extra_rolls"}),
        )
        .await;
    assert_eq!(declined.status, StatusCode::OK, "{}", declined.body);
    assert_eq!(declined.body["view"]["totals"], json!([0, 1]));
    assert_eq!(
        declined.body["view"]["chance"],
        json!({"kind": "coasters", "seats": [1]})
    );
    app.audit_snapshots().await;
}

every_pipeline!(the_stateless_endpoints_check_one_roll_and_score_a_described_game);
async fn the_stateless_endpoints_check_one_roll_and_score_a_described_game(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let games = app.get("/v1/games", None).await.body;
    let entry = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["slug"] == "lucky-dice")
        .unwrap()
        .clone();
    assert_eq!(entry["title"], "Lucky Dice");
    assert_eq!(
        entry["default_options"]["coaster_set"]
            .as_array()
            .unwrap()
            .len(),
        18
    );
    assert_eq!(entry["default_options"]["extra_rolls"], 3);

    let setup = app
        .post(
            "/v1/games/lucky-dice/states",
            &json!({"players": 4, "seed": SEED}),
            None,
        )
        .await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.body);
    assert_eq!(setup.body["to_act"], json!([0, 1, 2, 3]));
    let state = setup.body["state"].clone();
    let legal = app
        .post(
            "/v1/games/lucky-dice/legal-moves",
            &json!({"state": state, "seat": 2}),
            None,
        )
        .await;
    assert_eq!(legal.body["moves"], json!([{"type": "roll", "dice": 3}]));
    let check = app
        .post(
            "/v1/games/lucky-dice/check",
            &json!({"state": state, "seat": 2, "move": {"type": "roll", "dice": 3}}),
            None,
        )
        .await;
    assert_eq!(check.body["legal"], true, "{}", check.body);
    assert_eq!(check.body["next"]["chance_pending"], true);
    let stale = app
        .post(
            "/v1/games/lucky-dice/check",
            &json!({"state": state, "seat": 2, "move": {"type": "roll", "dice": 4}}),
            None,
        )
        .await;
    assert_eq!(stale.body["legal"], false);
    assert_eq!(stale.body["refusal"]["code"], "wrong_dice_count");
    // The faces of that roll, reported to the stateless chance endpoint.
    let faces = app
        .post(
            "/v1/games/lucky-dice/chance",
            &json!({"state": check.body["next"]["state"], "outcome": {"kind": "roll", "faces": ["pig", "pig", "pig"]}}),
            None,
        )
        .await;
    assert_eq!(faces.status, StatusCode::OK, "{}", faces.body);
    assert_eq!(faces.body["events"][0]["type"], "rolled");

    // An inconsistent state: a die too many.
    let mut extra_die = state.clone();
    extra_die["pools"][0] = json!(4);
    let refused = app
        .post(
            "/v1/games/lucky-dice/score",
            &json!({"state": extra_die}),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["params"]["reason"], "dice_not_conserved");

    // A score sheet: who emptied their dice each round. Ann and Cleo both reach 3 in round 4.
    let rounds =
        json!([{"emptied": [0]}, {"emptied": [2, 1]}, {"emptied": [0, 2]}, {"emptied": [2, 0]}]);
    let tally = app
        .post(
            "/v1/games/lucky-dice/tally",
            &json!({"players": 3, "rounds": rounds}),
            None,
        )
        .await;
    assert_eq!(tally.status, StatusCode::OK, "{}", tally.body);
    assert_eq!(tally.body["standings"]["totals"], json!([3, 1, 3]));
    assert_eq!(tally.body["standings"]["winners"], json!([0, 2]));
    assert_eq!(tally.body["over"], true);
    assert_eq!(tally.body["rounds"][1]["emptied"], json!([1, 2]));
    let mut late = rounds.as_array().unwrap().clone();
    late.push(json!({"emptied": [1]}));
    let after = app
        .post(
            "/v1/games/lucky-dice/tally",
            &json!({"players": 3, "rounds": late}),
            None,
        )
        .await;
    assert_eq!(after.body["code"], "game_over");
    let nobody = app
        .post(
            "/v1/games/lucky-dice/tally",
            &json!({"players": 3, "rounds": [{"emptied": []}]}),
            None,
        )
        .await;
    assert_eq!(nobody.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(nobody.body["code"], "no_round_winner");
    let variant = app
        .post(
            "/v1/games/lucky-dice/tally",
            &json!({"players": 2, "options": {"end_mode": "until_pile_empty"},
                    "rounds": (0..17).map(|i| json!({"emptied": [i % 2]})).collect::<Vec<_>>()}),
            None,
        )
        .await;
    // 18 coasters, 2 on the table: 16 replacements, the 17th winner finds the pile empty.
    assert_eq!(variant.body["over"], true, "{}", variant.body);
    assert_eq!(variant.body["standings"]["totals"], json!([9, 8]));
    assert_eq!(variant.body["standings"]["winners"], json!([0]));
}
