//! A seat that may not act now is refused with the game's own rule when the game has one, not
//! the generic `not_your_turn`: the codes the rulebooks document reach HTTP clients.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{every_pipeline, spawn_app_on, Pipeline};
use crate::support::{match_id, owner_token, seat_tokens, spawn_app, Reply, TestApp};

/// A table match's id, owner token and seat tokens.
async fn table_match(app: &TestApp, game: &str, names: &[&str]) -> (String, String, Vec<String>) {
    let created = app.create_match(game, names, json!({}), "table").await;
    (
        match_id(&created),
        owner_token(&created),
        seat_tokens(&created),
    )
}

fn assert_ok(reply: &Reply) {
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
}

fn assert_refused(reply: &Reply, code: &str) {
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.body
    );
    assert_eq!(reply.body["code"], code, "{}", reply.body);
}

every_pipeline!(lucky_jack_answers_not_next_player_to_a_seat_taking_a_card_offered_to_another);
async fn lucky_jack_answers_not_next_player_to_a_seat_taking_a_card_offered_to_another(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let (id, owner, seats) = table_match(&app, "lucky-jack", &["Ann", "Ben", "Cleo"]).await;
    let deal = json!({"kind": "deal", "hands": [
        ["lemon","cherry","grape","clover","bell","seven","jack"],
        ["lemon","lemon","lemon","grape","clover","seven","seven"],
        ["cherry","cherry","grape","grape","bell","bell","jack"]], "flip": "clover"});
    assert_ok(&app.post_chance(&id, Some(&owner), None, &deal).await);
    // Seat 1 (left of dealer 0) draws a seven and discards it: seat 2 may take it, not seat 0.
    let draw = json!({"type": "draw"});
    assert_ok(&app.post_move(&id, Some(&seats[1]), None, &draw).await);
    let seven = json!({"kind": "draw", "cards": ["seven"]});
    assert_ok(&app.post_chance(&id, Some(&owner), None, &seven).await);
    let discard = json!({"type": "discard_drawn"});
    assert_ok(&app.post_move(&id, Some(&seats[1]), None, &discard).await);
    let take = json!({"type": "take_it"});
    let refused = app.post_move(&id, Some(&seats[0]), None, &take).await;
    assert_refused(&refused, "not_next_player");
    assert_eq!(refused.body["params"]["next"], 2, "{}", refused.body);
    // The refusal played nothing: the seat the card is offered to still takes it.
    assert_ok(&app.post_move(&id, Some(&seats[2]), None, &take).await);
}

every_pipeline!(lucky_dice_names_the_stop_caller_and_declined_and_exhausted_extra_rolls);
async fn lucky_dice_names_the_stop_caller_and_declined_and_exhausted_extra_rolls(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let (id, owner, seats) = table_match(&app, "lucky-dice", &["Ann", "Ben", "Cleo", "Dan"]).await;
    let report = |outcome: Value| {
        let (app, id, owner) = (&app, id.clone(), owner.clone());
        async move { app.post_chance(&id, Some(&owner), None, &outcome).await }
    };
    let coasters = json!({"kind": "coasters", "coasters": [
        {"left": "pig", "right": "cat"}, {"left": "penny", "right": "hamsa"},
        {"left": "pig", "right": "horseshoe"}, {"left": "clover", "right": "penny"}]});
    assert_ok(&report(coasters).await);
    assert_ok(&report(json!({"kind": "lucky_symbol", "symbol": "hamsa"})).await);
    // Seat 0 empties its pool in one roll: Stop is called for it.
    let roll = json!({"type": "roll", "dice": 3});
    assert_ok(&app.post_move(&id, Some(&seats[0]), None, &roll).await);
    assert_ok(&report(json!({"kind": "roll", "faces": ["hamsa", "hamsa", "hamsa"]})).await);
    // Seat 1 declines its extra rolls; seat 2 uses all three; seat 3 may still roll.
    let finish = json!({"type": "finish_extra_rolls"});
    assert_ok(&app.post_move(&id, Some(&seats[1]), None, &finish).await);
    let extra = json!({"type": "extra_roll", "dice": 3});
    for _ in 0..3 {
        assert_ok(&app.post_move(&id, Some(&seats[2]), None, &extra).await);
        assert_ok(&report(json!({"kind": "roll", "faces": ["cat", "cat", "cat"]})).await);
    }
    let state = app.read_match(&id, Some(&owner)).await.body;
    assert_eq!(state["to_act"], json!([3]), "{state}");

    let caller = json!({"type": "extra_roll", "dice": 0});
    let refused = app.post_move(&id, Some(&seats[0]), None, &caller).await;
    assert_refused(&refused, "stop_caller_cannot_roll");
    // A race roll after Stop was made against an out-of-date view: 409, like a stale version.
    let refused = app.post_move(&id, Some(&seats[0]), None, &roll).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert_eq!(refused.body["code"], "stop_phase", "{}", refused.body);
    let refused = app.post_move(&id, Some(&seats[1]), None, &extra).await;
    assert_refused(&refused, "extra_rolls_declined");
    let refused = app.post_move(&id, Some(&seats[2]), None, &extra).await;
    assert_refused(&refused, "extra_rolls_exhausted");
    assert_eq!(refused.body["params"]["allowed"], 3, "{}", refused.body);
}

every_pipeline!(plus_minus_answers_already_chosen_to_a_seat_choosing_its_face_up_cards_twice);
async fn plus_minus_answers_already_chosen_to_a_seat_choosing_its_face_up_cards_twice(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let created = app
        .create_match(
            "plus-minus",
            &["Ann", "Ben", "Cleo"],
            json!({"face_up_chosen_by_player": true}),
            "table",
        )
        .await;
    let (id, owner, seats) = (
        match_id(&created),
        owner_token(&created),
        seat_tokens(&created),
    );
    let deal = json!({"kind": "deal", "hands": [["2","3","K","Q"], ["4","6","A","9"],
        ["7","8","J","10"]], "face_up": [[], [], []]});
    assert_ok(&app.post_chance(&id, Some(&owner), None, &deal).await);
    let choose = |cards: [&str; 2]| json!({"type": "choose_face_up", "cards": cards});
    assert_ok(
        &app.post_move(&id, Some(&seats[1]), None, &choose(["A", "9"]))
            .await,
    );
    let again = app
        .post_move(&id, Some(&seats[1]), None, &choose(["4", "6"]))
        .await;
    assert_refused(&again, "already_chosen");
}

#[tokio::test]
async fn a_move_the_game_would_allow_is_still_refused_to_a_seat_that_may_not_act() {
    let app = spawn_app().await;
    let (id, owner, seats) = table_match(&app, "lucky-jack", &["Ann", "Ben"]).await;
    let deal = json!({"kind": "deal", "hands": [
        ["lemon","cherry","grape","clover","bell","seven","jack"],
        ["lemon","lemon","lemon","grape","clover","seven","seven"]], "flip": "clover"});
    assert_ok(&app.post_chance(&id, Some(&owner), None, &deal).await);
    // Seat 1 starts; seat 0's draw has no rule of its own against it but its turn.
    let refused = app
        .post_move(&id, Some(&seats[0]), None, &json!({"type": "draw"}))
        .await;
    assert_refused(&refused, "not_your_turn");
    assert_eq!(
        refused.body["params"]["to_act"],
        json!([1]),
        "{}",
        refused.body
    );
}
