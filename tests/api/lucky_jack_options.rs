//! How Lucky Jack's options combine (docs/rules/lucky-jack.md, "How the options combine"), each
//! through the stateless referee path a companion app uses: a table set up by the test, then
//! `/check` and `/chance` exactly as the app would send them.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{spawn_app, TestApp};

const GAME: &str = "/v1/games/lucky-jack";

/// A table in the middle of round 1 under `options`: each seat's hand, the discard pile (top
/// last), `turn` to act with its turn just begun, and the other cards in the draw pile.
async fn table(
    app: &TestApp,
    options: Value,
    hands: &[&[&str]],
    discard: &[&str],
    turn: usize,
) -> Value {
    let empty = app
        .post(
            &format!("{GAME}/states"),
            &json!({"players": hands.len(), "options": options}),
            None,
        )
        .await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.body);
    let mut state = empty.body["state"].clone();
    for card in hands.iter().flat_map(|hand| hand.iter()).chain(discard) {
        let left = &mut state["draw_pile"][*card];
        *left = json!(left.as_i64().unwrap() - 1);
    }
    state["hands"] = json!(hands);
    state["discard"] = json!(discard);
    state["phase"] = json!("turn");
    state["chance"] = Value::Null;
    state["turn"] = json!(turn);
    state["turn_start_hand"] = json!(hands[turn].len());
    state
}

/// Plays `mv` for `seat`, which must be legal; returns the events and moves `state` on.
async fn play(app: &TestApp, state: &mut Value, seat: usize, mv: Value) -> Value {
    let reply = app
        .post(
            &format!("{GAME}/check"),
            &json!({"state": state, "seat": seat, "move": mv}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["legal"], true, "{mv}: {}", reply.body);
    *state = reply.body["next"]["state"].clone();
    reply.body["next"]["events"].clone()
}

/// Reports the cards drawn at the table.
async fn drawn(app: &TestApp, state: &mut Value, cards: &[&str]) {
    let reply = app
        .post(
            &format!("{GAME}/chance"),
            &json!({"state": state, "outcome": {"kind": "draw", "cards": cards}}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    *state = reply.body["state"].clone();
}

/// The round results so far: each round's points per seat.
fn points(state: &Value) -> Vec<Value> {
    state["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|round| round["points"].clone())
        .collect()
}

/// Options `drawn_discard_follows_symbol_rule` and `lower_discard_can_win` together: a drawn
/// discard lower than the top is a regular lower discard, whose jackpot check comes before its
/// penalty draw, so four identical cards left in hand win the 4-card jackpot (issue 26).
#[tokio::test]
async fn with_the_symbol_rule_and_lower_wins_a_lower_drawn_discard_wins_before_its_penalty() {
    let app = spawn_app().await;
    let options = json!({"drawn_discard_follows_symbol_rule": true, "lower_discard_can_win": true});
    let mut state = table(&app, options, &[&["lemon"; 7], &["bell"; 4]], &["seven"], 1).await;
    play(&app, &mut state, 1, json!({"type": "draw"})).await;
    drawn(&app, &mut state, &["cherry"]).await;
    let events = play(&app, &mut state, 1, json!({"type": "discard_drawn"})).await;
    assert_eq!(
        events[0],
        json!({"type": "discarded_drawn", "seat": 1, "card": "cherry", "option": "lower"})
    );
    assert_eq!(points(&state), vec![json!([0, 7000])], "{events}");
}

/// The symbol rule alone: the same lower drawn discard draws its two penalty cards and wins
/// nothing, as a lower `discard` does without `lower_discard_can_win`.
#[tokio::test]
async fn with_the_symbol_rule_alone_a_lower_drawn_discard_draws_two_and_wins_nothing() {
    let app = spawn_app().await;
    let options = json!({"drawn_discard_follows_symbol_rule": true});
    let mut state = table(&app, options, &[&["lemon"; 7], &["bell"; 4]], &["seven"], 1).await;
    play(&app, &mut state, 1, json!({"type": "draw"})).await;
    drawn(&app, &mut state, &["cherry"]).await;
    play(&app, &mut state, 1, json!({"type": "discard_drawn"})).await;
    assert!(points(&state).is_empty());
    assert_eq!(state["chance"]["kind"], "draw", "{state}");
    assert_eq!(state["chance"]["count"], 2, "{state}");
}

/// `lower_discard_can_win` alone: a drawn discard has no symbol check (RULINGS J5), so it never
/// wins, whatever the other option says.
#[tokio::test]
async fn lower_wins_alone_leaves_a_drawn_discard_without_a_symbol_check() {
    let app = spawn_app().await;
    let options = json!({"lower_discard_can_win": true});
    let mut state = table(&app, options, &[&["lemon"; 7], &["bell"; 4]], &["seven"], 1).await;
    play(&app, &mut state, 1, json!({"type": "draw"})).await;
    drawn(&app, &mut state, &["cherry"]).await;
    let events = play(&app, &mut state, 1, json!({"type": "discard_drawn"})).await;
    assert_eq!(events[0]["option"], Value::Null, "{events}");
    assert!(points(&state).is_empty());
    assert!(state["chance"].is_null(), "no penalty: {state}");
}
