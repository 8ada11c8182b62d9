//! Plus & Minus over HTTP: a whole seeded match, a table-reported match, hidden information in
//! views and logs, and the stateless endpoints including the tally.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{every_pipeline, spawn_app_on, Pipeline};
use crate::support::{match_id, owner_token, play_to_end, seat_token};

every_pipeline!(a_server_seeded_three_round_match_is_played_to_its_winners);
async fn a_server_seeded_three_round_match_is_played_to_its_winners(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match("plus-minus", &["Ann", "Ben", "Cleo"], json!({}), "server")
        .await;
    let id = match_id(&created);
    let finished = play_to_end(&app, &created).await;
    assert_eq!(finished["status"], "finished");
    let result = app.get(&format!("/v1/matches/{id}/result"), None).await;
    assert_eq!(result.status, StatusCode::OK, "{}", result.body);
    let rounds = result.body["breakdown"]["rounds"].as_array().unwrap();
    // One round per dealer, the deal moving left (rulebook step 8).
    assert_eq!(rounds.len(), 3);
    let dealers: Vec<u64> = rounds
        .iter()
        .map(|r| r["dealer"].as_u64().unwrap())
        .collect();
    assert_eq!(dealers, vec![0, 1, 2]);
    let totals: Vec<i64> = result.body["standings"]["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    let summed: Vec<i64> = (0..3)
        .map(|s| {
            rounds
                .iter()
                .map(|r| r["points"][s].as_i64().unwrap())
                .sum()
        })
        .collect();
    assert_eq!(totals, summed);
    let best = *totals.iter().max().unwrap();
    let expected: Vec<u64> = (0..3u64).filter(|&s| totals[s as usize] == best).collect();
    let winners: Vec<u64> = result.body["standings"]["winners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .collect();
    assert_eq!(winners, expected);
    app.audit_snapshots().await;
}

/// Every hand but `seat`'s is hidden, no stack shows more than its top, no pile is shown.
fn assert_view_hides(view: &Value, seat: usize, players: usize) {
    for other in 0..players {
        assert_eq!(
            view["hands"][other].is_null(),
            other != seat,
            "seat {seat} and hand {other}: {view}"
        );
        for stack in ["plus", "minus"] {
            assert!(view["stacks"][other][stack]["cards"].is_null(), "{view}");
        }
    }
    assert!(view["draw_stack"].is_null());
}

every_pipeline!(seats_never_see_other_hands_buried_cards_or_passes_they_were_not_party_to);
async fn seats_never_see_other_hands_buried_cards_or_passes_they_were_not_party_to(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match(
            "plus-minus",
            &["Ann", "Ben", "Cleo", "Dan"],
            json!({"rounds": 1}),
            "server",
        )
        .await;
    let id = match_id(&created);
    let tokens: Vec<String> = (0..4).map(|s| seat_token(&created, s)).collect();
    let mut passes_seen = 0;
    for step in 0..60u64 {
        let spectator = app.read_match(&id, None).await.body;
        if spectator["status"] == "finished" {
            break;
        }
        assert!(spectator["view"]["hands"]
            .as_array()
            .unwrap()
            .iter()
            .all(Value::is_null));
        let seat = spectator["to_act"][0].as_u64().unwrap() as usize;
        let mine = app.read_match(&id, Some(&tokens[seat])).await.body;
        assert_view_hides(&mine["view"], seat, 4);
        let moves = mine["view"]["legal_moves"].as_array().unwrap();
        let chosen = &moves[(step as usize * 7) % moves.len()];
        let reply = app
            .post_move(&id, Some(&tokens[seat]), None, &json!(chosen))
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{chosen}: {}", reply.body);
    }
    for (seat, token) in tokens.iter().enumerate() {
        let log = app.get(&format!("/v1/matches/{id}/log"), Some(token)).await;
        assert_eq!(log.status, StatusCode::OK, "{}", log.body);
        for entry in log.body["entries"].as_array().unwrap() {
            for event in entry["events"].as_array().unwrap() {
                let about = event["seat"].as_u64().map(|s| s as usize);
                match event["type"].as_str().unwrap() {
                    "dealt" => assert_eq!(event["hand"].is_null(), about != Some(seat), "{event}"),
                    "drew" => assert_eq!(event["cards"].is_null(), about != Some(seat), "{event}"),
                    "passed" => {
                        passes_seen += 1;
                        let to = event["to"].as_u64().unwrap() as usize;
                        let party = about == Some(seat) || to == seat;
                        assert_eq!(event["card"].is_null(), !party, "seat {seat}: {event}");
                    }
                    "minus_to_plus" => assert!(event["cards"].is_null(), "{event}"),
                    _ => {}
                }
            }
            // A seat's log shows its own moves (a pass names its card) and no chance outcome.
            if let Some(mover) = entry["seat"].as_u64() {
                assert_eq!(entry["move"].is_null(), mover as usize != seat, "{entry}");
            } else {
                assert!(entry["chance"].is_null(), "{entry}");
            }
        }
    }
    assert!(passes_seen > 0, "the test saw passes");
    app.audit_snapshots().await;
}

every_pipeline!(a_table_match_takes_the_reported_deal_and_draws_and_refuses_an_impossible_one);
async fn a_table_match_takes_the_reported_deal_and_draws_and_refuses_an_impossible_one(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match("plus-minus", &["Ann", "Ben", "Cleo"], json!({}), "table")
        .await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    // Five aces do not exist.
    let impossible = json!({"kind": "deal", "hands": [["A","A"],["A","A"],["2","3"]],
        "face_up": [["A","K"],["9","J"],["5","5"]]});
    let refused = app
        .post_chance(&id, Some(&owner), None, &json!(impossible))
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["code"], "card_not_in_pile");
    let deal = json!({"kind": "deal", "hands": [["2","3"],["4","6"],["7","8"]],
        "face_up": [["A","K"],["J","9"],["5","5"]]});
    let dealt = app
        .post_chance(&id, Some(&owner), Some(json!(0)), &json!(deal))
        .await;
    assert_eq!(dealt.status, StatusCode::OK, "{}", dealt.body);
    assert_eq!(
        dealt.body["chance_pending"], true,
        "the first draw is awaited"
    );
    // The first player (seat 1, left of dealer 0) draws two.
    let drew = app
        .post_chance(
            &id,
            Some(&owner),
            None,
            &json!({"kind": "draw", "cards": ["10", "Q"]}),
        )
        .await;
    assert_eq!(drew.status, StatusCode::OK, "{}", drew.body);
    let ben = seat_token(&created, 1);
    let view = app.read_match(&id, Some(&ben)).await.body;
    assert_eq!(view["view"]["hands"][1], json!(["4", "6", "10", "Q"]));
    assert_eq!(view["view"]["stacks"][0]["plus"]["top"], "K");
    // A 10 without its swap is refused with the rule's code; with the swap it is played.
    let bare = app
        .post_move(
            &id,
            Some(&ben),
            None,
            &json!({"type": "play", "card": "10", "stack": {"seat": 1, "stack": "plus"}}),
        )
        .await;
    assert_eq!(bare.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bare.body["code"], "swap_required");
    let ten = json!({"type": "play", "card": "10", "stack": {"seat": 1, "stack": "plus"},
        "swap": [{"seat": 0, "stack": "minus"}, {"seat": 2, "stack": "minus"}]});
    let played = app.post_move(&id, Some(&ben), None, &json!(ten)).await;
    assert_eq!(played.status, StatusCode::OK, "{}", played.body);
    let early = app
        .post_move(&id, Some(&ben), None, &json!({"type": "forfeit"}))
        .await;
    assert_eq!(early.body["code"], "nothing_to_forfeit");
    let passed = app
        .post_move(&id, Some(&ben), None, &json!({"type": "pass", "card": "Q"}))
        .await;
    assert_eq!(passed.status, StatusCode::OK, "{}", passed.body);
    // Seat 2 draws one card; a Q is impossible now only if all four are out, so ask for 10 ×2.
    let two = app
        .post_chance(
            &id,
            Some(&owner),
            None,
            &json!({"kind": "draw", "cards": ["10", "10"]}),
        )
        .await;
    assert_eq!(two.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(two.body["code"], "wrong_card_count");
    // Cleo's view shows the card Ben passed her; Ann's does not show Cleo's hand.
    let cleo = app
        .read_match(&id, Some(&seat_token(&created, 2)))
        .await
        .body;
    assert_eq!(cleo["view"]["hands"][2], json!(["7", "8", "Q"]));
    let ann = app
        .read_match(&id, Some(&seat_token(&created, 0)))
        .await
        .body;
    assert!(ann["view"]["hands"][2].is_null());
    app.audit_snapshots().await;
}

every_pipeline!(the_stateless_endpoints_list_check_and_tally_plus_and_minus);
async fn the_stateless_endpoints_list_check_and_tally_plus_and_minus(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let games = app.get("/v1/games", None).await.body;
    let entry = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["slug"] == "plus-minus")
        .unwrap()
        .clone();
    assert_eq!(entry["title"], "Plus & Minus");
    assert_eq!(entry["min_players"], 3);
    assert_eq!(entry["max_players"], 6);
    assert_eq!(entry["default_options"]["empty_stack_accepts_any"], true);

    let setup = app
        .post(
            "/v1/games/plus-minus/states",
            &json!({"players": 4, "seed": "0000000000000000000000000000000000000000000000000000000000000002"}),
            None,
        )
        .await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.body);
    let state = setup.body["state"].clone();
    let seat = setup.body["to_act"][0].as_u64().unwrap();
    let moves = app
        .post(
            "/v1/games/plus-minus/legal-moves",
            &json!({"state": state, "seat": seat}),
            None,
        )
        .await;
    assert_eq!(moves.status, StatusCode::OK, "{}", moves.body);
    let moves = moves.body["moves"].as_array().unwrap().clone();
    for mv in moves.iter().take(20) {
        let check = app
            .post(
                "/v1/games/plus-minus/check",
                &json!({"state": state, "seat": seat, "move": mv}),
                None,
            )
            .await;
        assert_eq!(check.body["legal"], true, "{mv}: {}", check.body);
    }
    let pass = app
        .post(
            "/v1/games/plus-minus/check",
            &json!({"state": state, "seat": seat, "move": {"type": "pass", "card": "A"}}),
            None,
        )
        .await;
    assert_eq!(pass.body["legal"], false);
    assert_eq!(pass.body["refusal"]["code"], "pass_before_play");

    let mut broken = state.clone();
    broken["draw_stack"].as_array_mut().unwrap().pop();
    let reply = app
        .post(
            "/v1/games/plus-minus/score",
            &json!({"state": broken}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.body["code"], "inconsistent_state");

    // A table tallies one round of a 3-player game: K Q 7 − 5 − A = −5, 2 − (10 J) = −15,
    // (A A) − (9 3) = 35.
    let round = json!({"players": [
        {"plus": ["K", "Q", "7"], "minus": ["5"], "hand": ["A"]},
        {"plus": ["2"], "minus": ["10", "J"], "hand": []},
        {"plus": ["A", "A"], "minus": [], "hand": ["9", "3"]}]});
    let tally = app
        .post(
            "/v1/games/plus-minus/tally",
            &json!({"players": 3, "rounds": [round, round, round]}),
            None,
        )
        .await;
    assert_eq!(tally.status, StatusCode::OK, "{}", tally.body);
    assert_eq!(tally.body["standings"]["totals"], json!([-15, -45, 105]));
    assert_eq!(tally.body["standings"]["winners"], json!([2]));
    assert_eq!(tally.body["over"], true);
    assert_eq!(tally.body["rounds"][0]["seats"][0]["plus_points"], 20);
    let mut aces = round.clone();
    aces["players"][1]["hand"] = json!(["A", "A", "A"]);
    let bad = app
        .post(
            "/v1/games/plus-minus/tally",
            &json!({"players": 3, "rounds": [round, aces]}),
            None,
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.body["code"], "too_many_of_rank");
    assert_eq!(bad.body["params"]["round"], 2);
}
