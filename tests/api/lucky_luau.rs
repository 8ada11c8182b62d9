//! Lucky Luau over HTTP: a server-seeded match to its winner, a table match with reported draws
//! and out-of-turn tools, the stateless endpoints and the hand-typed tally.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{every_pipeline, spawn_app_on, Pipeline};
use crate::support::{match_id, owner_token, play_to_end, seat_token};

every_pipeline!(a_server_seeded_lucky_luau_match_is_played_to_its_winner);
async fn a_server_seeded_lucky_luau_match_is_played_to_its_winner(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match(
            "lucky-luau",
            &["Ann", "Ben", "Cleo"],
            json!({"first_player": 1}),
            "server",
        )
        .await;
    assert_eq!(
        created["match"]["to_act"][0], 1,
        "the first player acts first"
    );
    let finished = play_to_end(&app, &created).await;
    assert_eq!(finished["status"], "finished");
    let id = &match_id(&created);
    let result = app.get(&format!("/v1/matches/{id}/result"), None).await;
    assert_eq!(result.status, StatusCode::OK, "{}", result.body);
    let breakdown = &result.body["breakdown"];
    let totals: Vec<i64> = breakdown["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    let best = *totals.iter().max().unwrap();
    let winners = result.body["standings"]["winners"].as_array().unwrap();
    assert!(!winners.is_empty());
    for w in winners {
        assert_eq!(totals[w.as_u64().unwrap() as usize], best);
    }
    assert_eq!(&breakdown["winners"], &result.body["standings"]["winners"]);
    for seat in breakdown["seats"].as_array().unwrap() {
        let lines = seat["lines"].as_array().unwrap();
        assert!(lines
            .last()
            .unwrap()
            .as_str()
            .unwrap()
            .starts_with("Total: "));
    }
    let view = &finished["view"];
    assert_eq!(view["face_down_count"], 0);
    app.audit_snapshots().await;
}

every_pipeline!(a_table_match_takes_reported_draws_refuses_an_impossible_one_and_tools_out_of_turn);
async fn a_table_match_takes_reported_draws_refuses_an_impossible_one_and_tools_out_of_turn(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match("lucky-luau", &["Ann", "Ben"], json!({}), "table")
        .await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    assert_eq!(
        created["match"]["to_act"],
        json!([0, 1]),
        "Ben may use a tool now"
    );
    let (ann, ben) = (seat_token(&created, 0), seat_token(&created, 1));
    let mv = |seat_token: &str, mv: Value| {
        let app = &app;
        let id = id.clone();
        let seat_token = seat_token.to_owned();
        async move {
            app.post_move(&id, Some(&seat_token), None, &json!(mv))
                .await
        }
    };
    let report = |card: &str| {
        let app = &app;
        let id = id.clone();
        let owner = owner.clone();
        let card = card.to_owned();
        async move {
            app.post_chance(
                &id,
                Some(&owner),
                None,
                &json!({"kind": "draw", "card": card}),
            )
            .await
        }
    };
    // Ben places his Fish Hook on Ann's turn.
    let hooked = mv(&ben, json!({"type": "place_hook"})).await;
    assert_eq!(hooked.status, StatusCode::OK, "{}", hooked.body);
    let drawing = mv(&ann, json!({"type": "draw_face_down"})).await;
    assert_eq!(drawing.body["chance_pending"], true);
    // While the table has not said which card it was, nobody moves.
    let early = mv(&ben, json!({"type": "place_spacer"})).await;
    assert_eq!(early.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(early.body["code"], "chance_pending");
    assert_eq!(report("rainbow").await.status, StatusCode::OK);
    // The drawn card is Ann's secret until she strings it.
    let ben_view = app.read_match(&id, Some(&ben)).await.body;
    assert!(ben_view["view"]["pending"]["card"].is_null());
    let ann_view = app.read_match(&id, Some(&ann)).await.body;
    assert_eq!(ann_view["view"]["pending"]["card"], "rainbow");
    let strung = mv(&ann, json!({"type": "string"})).await;
    assert_eq!(strung.status, StatusCode::OK, "{}", strung.body);
    mv(&ben, json!({"type": "draw_face_down"})).await;
    assert_eq!(report("rainbow").await.status, StatusCode::OK);
    mv(&ben, json!({"type": "string"})).await;
    mv(&ann, json!({"type": "draw_face_down"})).await;
    // Both Rainbows are on leis: a third cannot be drawn.
    let impossible = report("rainbow").await;
    assert_eq!(
        impossible.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        impossible.body
    );
    assert_eq!(impossible.body["code"], "card_not_in_pile");
    assert_eq!(report("blue").await.status, StatusCode::OK);
    let toss = mv(&ann, json!({"type": "toss"})).await;
    assert_eq!(toss.status, StatusCode::OK);
    let face_up = mv(&ben, json!({"type": "draw_face_up", "card": "blue"})).await;
    assert_eq!(face_up.status, StatusCode::OK);
    let no_toss = mv(&ben, json!({"type": "toss"})).await;
    assert_eq!(no_toss.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(no_toss.body["code"], "cannot_toss_face_up");
    let knife = mv(&ben, json!({"type": "knife", "index": 0})).await;
    assert_eq!(knife.body["code"], "tool_not_during_draw");
    mv(&ben, json!({"type": "string"})).await;
    let ann_knife = mv(&ann, json!({"type": "knife", "index": 0})).await;
    assert_eq!(ann_knife.status, StatusCode::OK, "{}", ann_knife.body);
    let me = app.read_match(&id, Some(&ben)).await.body;
    assert_eq!(
        me["view"]["seats"][1]["lei"],
        json!(["hook", "rainbow", "blue"])
    );
    assert_eq!(me["view"]["seats"][0]["cut"], "rainbow");
    app.audit_snapshots().await;
}

every_pipeline!(the_stateless_endpoints_play_score_and_view_a_lucky_luau_position);
async fn the_stateless_endpoints_play_score_and_view_a_lucky_luau_position(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let games = app.get("/v1/games/lucky-luau", None).await;
    assert_eq!(games.status, StatusCode::OK);
    assert_eq!(games.body["title"], "Lucky Luau");
    assert_eq!(games.body["default_options"]["pink_value"], 5);
    assert_eq!(
        games.body["default_options"]["orange_colours"],
        json!(["red", "yellow"])
    );

    let setup = app
        .post("/v1/games/lucky-luau/states", &json!({"players": 2}), None)
        .await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.body);
    assert_eq!(setup.body["to_act"], json!([0, 1]));
    let state = setup.body["state"].clone();
    let moves = app
        .post(
            "/v1/games/lucky-luau/legal-moves",
            &json!({"state": state, "seat": 1}),
            None,
        )
        .await;
    assert_eq!(
        moves.body["moves"],
        json!([{"type": "place_spacer"}, {"type": "place_hook"}])
    );
    let check = app
        .post(
            "/v1/games/lucky-luau/check",
            &json!({"state": state, "seat": 0, "move": {"type": "draw_face_down"}}),
            None,
        )
        .await;
    assert_eq!(check.body["legal"], true, "{}", check.body);
    let drawing = check.body["next"]["state"].clone();
    let drawn = app
        .post(
            "/v1/games/lucky-luau/chance",
            &json!({"state": drawing, "outcome": {"kind": "draw", "card": "kukui"}}),
            None,
        )
        .await;
    assert_eq!(drawn.status, StatusCode::OK, "{}", drawn.body);
    let view = app
        .post(
            "/v1/games/lucky-luau/view",
            &json!({"state": drawn.body["state"], "viewer": "spectator"}),
            None,
        )
        .await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.body);
    assert!(view.body["pending"]["card"].is_null());
    assert!(view.body["face_down"].is_null());
    let score = app
        .post(
            "/v1/games/lucky-luau/score",
            &json!({"state": drawn.body["state"]}),
            None,
        )
        .await;
    assert_eq!(score.status, StatusCode::OK);
    assert_eq!(score.body["over"], false);
    let mut broken = drawn.body["state"].clone();
    broken["face_down"]["kukui"] = json!(6);
    let refused = app
        .post(
            "/v1/games/lucky-luau/score",
            &json!({"state": broken}),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["params"]["reason"], "cards_not_conserved");
}

every_pipeline!(a_hand_typed_lei_is_tallied_card_by_card_to_the_rulebooks_33);
async fn a_hand_typed_lei_is_tallied_card_by_card_to_the_rulebooks_33(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let tally = json!({"leis": [
        {"player": "Ann", "lei": "blue red purple blue cut:yellow hook kukui blue rainbow", "guests": [[0, 2], [1, 0], [0, 0]]},
        {"player": "Ben", "lei": ["yellow", "green", "blue", "ti", "mega", "spacer"]}
    ]});
    let reply = app
        .post(
            "/v1/games/lucky-luau/tally",
            &json!({"players": 2, "rounds": [tally]}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let ann = &reply.body["rounds"][0]["seats"][0];
    assert_eq!(ann["lei_points"], 33);
    assert_eq!(ann["total"], 34);
    assert_eq!(ann["player"], "Ann");
    assert_eq!(
        ann["lines"][2],
        "3. Purple = 7: red from Red at 2 (+3), blue from Blue at 4 (+4)"
    );
    assert_eq!(reply.body["standings"]["totals"], json!([34, 15]));
    assert_eq!(reply.body["standings"]["winners"], json!([0]));
    assert_eq!(reply.body["over"], true);

    let typo = json!({"leis": [{"lei": "blue bleu"}, {"lei": "red"}]});
    let refused = app
        .post(
            "/v1/games/lucky-luau/tally",
            &json!({"players": 2, "rounds": [typo]}),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["code"], "unknown_card_word");
    assert_eq!(refused.body["params"]["word"], "bleu");
    let two_games = app
        .post(
            "/v1/games/lucky-luau/tally",
            &json!({"players": 2, "rounds": [tally, tally]}),
            None,
        )
        .await;
    assert_eq!(two_games.body["code"], "game_over");
}
