//! Client states that contradict themselves, one per game.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::{assert_problem, seeded_state};
use crate::support::{spawn_app, TestApp};

/// One inconsistent state per game, posted to every stateless endpoint that takes a state.
async fn assert_inconsistent(app: &TestApp, game: &str, state: &Value, reason: &str) {
    for (path, body) in [
        (
            "check",
            json!({"state": state, "seat": 0, "move": {"type": "draw"}}),
        ),
        ("legal-moves", json!({"state": state, "seat": 0})),
        ("score", json!({"state": state})),
        ("view", json!({"state": state, "viewer": {"seat": 0}})),
        (
            "chance",
            json!({"state": state, "outcome": {"kind": "draw"}}),
        ),
    ] {
        let reply = app
            .post(&format!("/v1/games/{game}/{path}"), &body, None)
            .await;
        let case = format!("{game}/{path} ({reason})");
        assert_problem(
            &reply,
            StatusCode::UNPROCESSABLE_ENTITY,
            "inconsistent_state",
            &case,
        );
        assert_eq!(
            reply.body["params"]["reason"], reason,
            "{case}: {}",
            reply.body
        );
    }
}

fn push_copy_of_last(list: &mut Value) {
    let last = list.as_array().unwrap().last().unwrap().clone();
    list.as_array_mut().unwrap().push(last);
}

#[tokio::test]
async fn each_games_inconsistent_client_states_are_unprocessable_with_the_reason() {
    let app = spawn_app().await;

    let jack = seeded_state(&app, "lucky-jack", 3).await;
    let mut out_of_range = jack.clone();
    out_of_range["turn"] = json!(3);
    assert_inconsistent(&app, "lucky-jack", &out_of_range, "bad_turn").await;
    let mut missing_hand = jack.clone();
    missing_hand["hands"].as_array_mut().unwrap().pop();
    assert_inconsistent(&app, "lucky-jack", &missing_hand, "bad_hand_count").await;

    let dice = seeded_state(&app, "lucky-dice", 3).await;
    let mut extra_die = dice.clone();
    extra_die["pools"][0] = json!(extra_die["pools"][0].as_u64().unwrap() + 1);
    assert_inconsistent(&app, "lucky-dice", &extra_die, "dice_not_conserved").await;
    let mut missing_seat = dice.clone();
    missing_seat["pools"].as_array_mut().unwrap().pop();
    assert_inconsistent(&app, "lucky-dice", &missing_seat, "bad_seat_count").await;

    let plus = seeded_state(&app, "luck-plus", 2).await;
    let mut duplicated = plus.clone();
    push_copy_of_last(&mut duplicated["hands"][0]);
    assert_inconsistent(&app, "luck-plus", &duplicated, "cards_not_conserved").await;
    let mut out_of_range = plus.clone();
    out_of_range["turn"] = json!(7);
    assert_inconsistent(&app, "luck-plus", &out_of_range, "bad_turn").await;

    let pm = seeded_state(&app, "plus-minus", 3).await;
    let mut duplicated = pm.clone();
    push_copy_of_last(&mut duplicated["hands"][1]);
    assert_inconsistent(&app, "plus-minus", &duplicated, "cards_not_conserved").await;
    let mut out_of_range = pm.clone();
    out_of_range["turn"] = json!(3);
    assert_inconsistent(&app, "plus-minus", &out_of_range, "bad_turn").await;

    let luau = seeded_state(&app, "lucky-luau", 2).await;
    let mut out_of_range = luau.clone();
    out_of_range["turn"] = json!(2);
    assert_inconsistent(&app, "lucky-luau", &out_of_range, "bad_turn").await;
    let mut missing_seat = luau.clone();
    missing_seat["seats"].as_array_mut().unwrap().pop();
    assert_inconsistent(&app, "lucky-luau", &missing_seat, "bad_seat_count").await;

    // A negative count where the game counts up from zero does not even parse.
    let mut negative = dice.clone();
    negative["pools"][0] = json!(-1);
    let reply = app
        .post(
            "/v1/games/lucky-dice/score",
            &json!({"state": negative}),
            None,
        )
        .await;
    assert_problem(
        &reply,
        StatusCode::BAD_REQUEST,
        "invalid_state",
        "negative pool",
    );
}
