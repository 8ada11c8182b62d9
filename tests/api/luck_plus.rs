//! Luck Plus over HTTP: whole server-seeded games in each scoring mode, a table reporting its
//! deal and dice, the rulebook's examples of play replayed through the stateless endpoints, and
//! score sheets of described hands.

#[path = "../rules/data_files.rs"]
mod data_files;
#[path = "../rules/luck_plus_support.rs"]
mod scenarios;

use referee::games::luck_plus::State;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{every_pipeline, spawn_app_on, Pipeline};
use crate::support::{match_id, owner_token, play_to_end, seat_token, TestApp};

/// Plays a server-seeded game to its end and checks its winners against the mode's order.
async fn whole_game(pipeline: Pipeline, options: Value, lowest_wins: bool) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match("luck-plus", &["Ann", "Ben", "Cleo"], options, "server")
        .await;
    let id = match_id(&created);
    let finished = play_to_end(&app, &created).await;
    assert_eq!(finished["status"], "finished");
    let result = app.get(&format!("/v1/matches/{id}/result"), None).await;
    assert_eq!(result.status, StatusCode::OK, "{}", result.body);
    let totals: Vec<i64> = result.body["standings"]["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    let best = if lowest_wins {
        *totals.iter().min().unwrap()
    } else {
        *totals.iter().max().unwrap()
    };
    let expected: Vec<usize> = (0..3).filter(|&s| totals[s] == best).collect();
    let winners: Vec<usize> = result.body["standings"]["winners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(winners, expected);
    let hands = result.body["breakdown"]["hands"].as_array().unwrap();
    assert!(!hands.is_empty());
    assert!(hands
        .iter()
        .all(|h| !h["out"].as_array().unwrap().is_empty()));
    app.audit_snapshots().await;
}

every_pipeline!(a_server_seeded_game_scored_by_hands_is_played_to_its_winner);
async fn a_server_seeded_game_scored_by_hands_is_played_to_its_winner(pipeline: Pipeline) {
    whole_game(pipeline, json!({"scoring": "hands", "target": 1}), false).await;
}

every_pipeline!(a_server_seeded_game_scored_by_points_to_the_winner_is_played_to_its_winner);
async fn a_server_seeded_game_scored_by_points_to_the_winner_is_played_to_its_winner(
    pipeline: Pipeline,
) {
    whole_game(
        pipeline,
        json!({"scoring": "points_to_winner", "target": 1}),
        false,
    )
    .await;
}

every_pipeline!(a_server_seeded_game_scored_by_penalty_points_is_won_by_the_lowest_total);
async fn a_server_seeded_game_scored_by_penalty_points_is_won_by_the_lowest_total(
    pipeline: Pipeline,
) {
    whole_game(
        pipeline,
        json!({"scoring": "penalty_points", "target": 1, "luck_out_full_round": true}),
        true,
    )
    .await;
}

every_pipeline!(a_table_reports_the_deal_and_the_dice_and_an_impossible_roll_is_refused);
async fn a_table_reports_the_deal_and_the_dice_and_an_impossible_roll_is_refused(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match("luck-plus", &["Ann", "Ben"], json!({}), "table")
        .await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    let seat1 = seat_token(&created, 1);

    // Three STOP-12 do not exist.
    let impossible = json!({"kind": "deal", "hands": [
        ["STOP-12","STOP-12","STOP-12","GO-1","GO-1","GO-1","GO-1","GO-2"],
        ["GO-3","GO-3","GO-3","GO-3","GO-4","GO-4","GO-4","GO-4"]], "flips": ["GO-9"]});
    let refused = app
        .post_chance(&id, Some(&owner), None, &json!(impossible))
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["code"], "card_not_in_pile");

    // An LP flipped first goes under the draw pile; the GO-9 starts the match pile.
    let deal = json!({"kind": "deal", "hands": [
        ["GO-9","GO-3","GO-5","STOP-8","GO-7","GO-7","TR-12","DBL"],
        ["GO-1","GO-2","GO-4","GO-6","GO-8","GO-10","GO-11","STOP-3"]], "flips": ["LP", "TR-9"]});
    let dealt = app
        .post_chance(&id, Some(&owner), Some(json!(0)), &json!(deal))
        .await;
    assert_eq!(dealt.status, StatusCode::OK, "{}", dealt.body);
    let view = app.read_match(&id, Some(&seat1)).await.body;
    assert_eq!(view["view"]["match_top"], "TR-9");
    assert_eq!(view["view"]["draw_bottom"], json!(["LP"]));
    assert_eq!(view["view"]["hands"][0][0], "GO-3", "hands are face up");

    // Seat 1 (left of dealer 0) rolls; the table reports the dice.
    let rolled = app
        .post_move(&id, Some(&seat1), None, &json!({"type": "roll"}))
        .await;
    assert_eq!(rolled.status, StatusCode::OK, "{}", rolled.body);
    assert_eq!(rolled.body["chance_pending"], true);
    let seven = app
        .post_chance(
            &id,
            Some(&owner),
            None,
            &json!({"kind": "roll", "dice": [7, 1]}),
        )
        .await;
    assert_eq!(seven.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(seven.body["code"], "bad_die");
    let dice = app
        .post_chance(
            &id,
            Some(&owner),
            None,
            &json!({"kind": "roll", "dice": [2, 4]}),
        )
        .await;
    assert_eq!(dice.status, StatusCode::OK, "{}", dice.body);
    // The pair and the total in one play; the GO-6 is last, so a roll is owed.
    let played = app
        .post(
            &format!("/v1/matches/{id}/moves"),
            &json!({"move": {"type": "play", "groups": [
                {"basis": "pair", "cards": ["GO-2", "GO-4"]},
                {"basis": "total", "cards": ["GO-6"]}]}}),
            Some(&seat1),
        )
        .await;
    assert_eq!(played.status, StatusCode::OK, "{}", played.body);
    let drawn = app
        .post_move(&id, Some(&seat1), None, &json!({"type": "draw"}))
        .await;
    assert_eq!(drawn.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(drawn.body["code"], "must_roll");
    app.audit_snapshots().await;
}

/// Replays a scenario case through `/check` and `/chance`; returns the final state.
async fn replay_case(app: &TestApp, case: &scenarios::Case) -> (State, Vec<Value>) {
    let mut state = serde_json::to_value(scenarios::start(case)).unwrap();
    let mut events = Vec::new();
    for (i, step) in case.steps.iter().enumerate() {
        let (code, next) = if let Some(mv) = &step.mv {
            let reply = app
                .post(
                    "/v1/games/luck-plus/check",
                    &json!({"state": state, "seat": step.seat.unwrap(), "move": mv}),
                    None,
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            if reply.body["legal"] == true {
                ("ok".to_owned(), Some(reply.body["next"].clone()))
            } else {
                (
                    reply.body["refusal"]["code"].as_str().unwrap().to_owned(),
                    None,
                )
            }
        } else {
            let reply = app
                .post(
                    "/v1/games/luck-plus/chance",
                    &json!({"state": state, "outcome": step.chance}),
                    None,
                )
                .await;
            if reply.status == StatusCode::OK {
                ("ok".to_owned(), Some(reply.body))
            } else {
                (reply.body["code"].as_str().unwrap().to_owned(), None)
            }
        };
        assert_eq!(code, step.expect, "{} step {i}", case.name);
        if let Some(next) = next {
            state = next["state"].clone();
            events.extend(next["events"].as_array().unwrap().iter().cloned());
        }
    }
    (serde_json::from_value(state).unwrap(), events)
}

every_pipeline!(every_example_of_play_in_the_rulebook_replays_through_the_api);
async fn every_example_of_play_in_the_rulebook_replays_through_the_api(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let mut replayed = 0;
    for (name, file) in scenarios::files() {
        if !(name.starts_with("example_") || name == "dice_3_and_4.json") {
            continue;
        }
        for case in &file.cases {
            let (state, events) = replay_case(&app, case).await;
            scenarios::check_expect(&state, &events, &case.expect)
                .unwrap_or_else(|why| panic!("{name} / {}: {why}", case.name));
            replayed += 1;
        }
    }
    assert!(replayed >= 25, "{replayed} cases");
}

every_pipeline!(the_catalogue_lists_luck_plus_and_its_legal_moves_all_check_as_legal);
async fn the_catalogue_lists_luck_plus_and_its_legal_moves_all_check_as_legal(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let games = app.get("/v1/games", None).await;
    let entry = games
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["slug"] == "luck-plus")
        .unwrap()
        .clone();
    assert_eq!(entry["title"], "Luck Plus");
    assert_eq!(entry["min_players"], 2);
    assert_eq!(entry["max_players"], 8);
    assert_eq!(entry["default_options"]["scoring"], "hands");
    let seed = "0000000000000000000000000000000000000000000000000000000000000005";
    let setup = app
        .post(
            "/v1/games/luck-plus/states",
            &json!({"players": 4, "seed": seed}),
            None,
        )
        .await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.body);
    let seat = setup.body["to_act"][0].as_u64().unwrap();
    let moves = app
        .post(
            "/v1/games/luck-plus/legal-moves",
            &json!({"state": setup.body["state"], "seat": seat}),
            None,
        )
        .await;
    let moves = moves.body["moves"].as_array().unwrap().clone();
    assert!(moves.contains(&json!({"type": "roll"})));
    for mv in &moves {
        let check = app
            .post(
                "/v1/games/luck-plus/check",
                &json!({"state": setup.body["state"], "seat": seat, "move": mv}),
                None,
            )
            .await;
        assert_eq!(check.body["legal"], true, "{mv}: {}", check.body);
    }
    let draw = app
        .post(
            "/v1/games/luck-plus/check",
            &json!({"state": setup.body["state"], "seat": seat, "move": {"type": "draw"}}),
            None,
        )
        .await;
    assert_eq!(draw.body["refusal"]["code"], "no_draw_before_roll");
}

every_pipeline!(described_hands_are_scored_in_each_mode_and_end_at_the_target);
async fn described_hands_are_scored_in_each_mode_and_end_at_the_target(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    // Hand 1: Ben goes out (Ann holds GO-3 + LP = 28, Cleo DBL + TR-7 = 22); hand 2: Cleo lucks
    // out (Ann 12, Ben 5).
    let hands = json!([
        {"out": [{"seat": 1, "luck_out": false}], "cards_left": [["GO-3", "LP"], [], ["DBL", "TR-7"]]},
        {"out": [{"seat": 2, "luck_out": true}], "cards_left": [["GO-12"], ["STOP-5"], []]}
    ]);
    let tally = |options: Value| json!({"players": 3, "options": options, "rounds": hands.clone()});
    let by_hands = app
        .post(
            "/v1/games/luck-plus/tally",
            &tally(json!({"target": 2})),
            None,
        )
        .await;
    assert_eq!(by_hands.status, StatusCode::OK, "{}", by_hands.body);
    assert_eq!(by_hands.body["standings"]["totals"], json!([0, 1, 1]));
    assert_eq!(by_hands.body["over"], false);
    let by_points = app
        .post(
            "/v1/games/luck-plus/tally",
            &tally(json!({"scoring": "points_to_winner", "target": 100})),
            None,
        )
        .await;
    assert_eq!(by_points.status, StatusCode::OK, "{}", by_points.body);
    assert_eq!(by_points.body["standings"]["totals"], json!([0, 50, 47]));
    assert_eq!(by_points.body["standings"]["winners"], json!([]));
    assert_eq!(by_points.body["over"], false);
    let penalty = app
        .post(
            "/v1/games/luck-plus/tally",
            &tally(json!({"scoring": "penalty_points", "target": 40})),
            None,
        )
        .await;
    assert_eq!(penalty.body["standings"]["totals"], json!([40, 5, -8]));
    assert_eq!(penalty.body["standings"]["winners"], json!([2]));
    assert_eq!(penalty.body["over"], true);

    // A hand after the end, more STOP-12s than exist, nobody out.
    let mut three = hands.as_array().unwrap().clone();
    three.push(hands[0].clone());
    let late = app
        .post(
            "/v1/games/luck-plus/tally",
            &json!({"players": 3, "options": {"scoring": "points_to_winner", "target": 50}, "rounds": three}),
            None,
        )
        .await;
    assert_eq!(late.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(late.body["code"], "game_over");
    let fake = json!([{"out": [{"seat": 0, "luck_out": false}],
        "cards_left": [[], ["STOP-12", "STOP-12"], ["GO-1"]]}]);
    let bad = app
        .post(
            "/v1/games/luck-plus/tally",
            &json!({"players": 3, "rounds": fake}),
            None,
        )
        .await;
    assert_eq!(bad.body["code"], "cards_not_in_deck");
    let nobody = json!([{"out": [], "cards_left": [["GO-1"], ["GO-2"], ["GO-3"]]}]);
    let bad = app
        .post(
            "/v1/games/luck-plus/tally",
            &json!({"players": 3, "rounds": nobody}),
            None,
        )
        .await;
    assert_eq!(bad.body["code"], "no_one_out");
}
