//! Hands entered at the table (issue 41: "With our own cards, the host sees every hand"): in a
//! table-randomness match each seat enters its own hand on its own phone, and the deal is then
//! reported with the table's public cards only. Docs: docs/contract.md, "Hands entered at the
//! table".

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{match_id, owner_token, seat_tokens, spawn_app, Reply, TestApp};

/// The walkthrough's Lucky Jack deal (docs/walkthroughs/lucky-jack.md), seat by seat.
fn hands() -> [Value; 3] {
    [
        json!(["lemon", "lemon", "cherry", "seven", "seven", "bell", "grape"]),
        json!(["cherry", "grape", "grape", "clover", "bell", "bell", "jack"]),
        json!(["jack", "jack", "jack", "lemon", "cherry", "seven", "bell"]),
    ]
}

async fn enter(app: &TestApp, id: &str, seat: usize, cards: &Value, token: &str) -> Reply {
    let request = app
        .client
        .put(format!("{}/v1/matches/{id}/hands/{seat}", app.base))
        .bearer_auth(token)
        .json(&json!({ "cards": cards }));
    app.send(request).await
}

#[tokio::test]
async fn each_seat_enters_its_own_hand_and_the_deal_is_reported_with_the_public_card_alone() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Mum", "Dad", "Zoé"], json!({}), "table")
        .await;
    let (id, owner, seats) = (
        match_id(&created),
        owner_token(&created),
        seat_tokens(&created),
    );
    let deal = json!({"outcome": {"kind": "deal", "flip": "clover"}});

    // A seat enters its own hand, never another's.
    let other = enter(&app, &id, 0, &hands()[0], &seats[1]).await;
    assert_eq!(other.status, StatusCode::FORBIDDEN, "{}", other.body);
    assert_eq!(other.body["code"], "wrong_seat");
    let empty = enter(&app, &id, 0, &json!([]), &seats[0]).await;
    assert_eq!(
        empty.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        empty.body
    );
    assert_eq!(empty.body["code"], "invalid_hand");
    for seat in [0, 2] {
        let entered = enter(&app, &id, seat, &hands()[seat], &seats[seat]).await;
        assert_eq!(entered.status, StatusCode::OK, "{}", entered.body);
    }

    // Until every seat's hand is in, the deal waits, naming who is missing.
    let early = app
        .post(&format!("/v1/matches/{id}/chance"), &deal, Some(&owner))
        .await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{}", early.body);
    assert_eq!(early.body["code"], "hands_missing");
    assert_eq!(early.body["params"]["missing"], json!([1]));

    // Dad types a card he does not hold, then corrects it: the second entry counts.
    enter(&app, &id, 1, &json!(vec!["jack"; 7]), &seats[1]).await;
    enter(&app, &id, 1, &hands()[1], &seats[1]).await;
    let mine = app
        .get(&format!("/v1/matches/{id}/hands"), Some(&seats[1]))
        .await;
    assert_eq!(mine.body["entered"], json!([0, 1, 2]), "{}", mine.body);
    assert_eq!(mine.body["mine"], hands()[1]);
    // The host sees who has entered, not what.
    let host = app
        .get(&format!("/v1/matches/{id}/hands"), Some(&owner))
        .await;
    assert_eq!(host.body["mine"], Value::Null, "{}", host.body);

    let dealt = app
        .post(&format!("/v1/matches/{id}/chance"), &deal, Some(&owner))
        .await;
    assert_eq!(dealt.status, StatusCode::OK, "{}", dealt.body);
    let log = app
        .get(&format!("/v1/matches/{id}/log"), Some(&owner))
        .await
        .body;
    assert_eq!(
        log["entries"][0]["chance"]["hands"],
        json!(hands()),
        "{log}"
    );
    assert_eq!(log["entries"][0]["chance"]["flip"], "clover");
    let view = app
        .get(&format!("/v1/matches/{id}"), Some(&seats[2]))
        .await
        .body;
    let sorted = |cards: &Value| {
        let mut cards: Vec<String> = serde_json::from_value(cards.clone()).unwrap();
        cards.sort();
        cards
    };
    assert_eq!(
        sorted(&view["view"]["hands"][2]),
        sorted(&hands()[2]),
        "{view}"
    );

    // Once dealt, no hand is awaited.
    let late = enter(&app, &id, 0, &hands()[0], &seats[0]).await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.body);
    assert_eq!(late.body["code"], "no_deal_pending");
}

#[tokio::test]
async fn a_server_dealt_match_takes_no_hands() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Mum", "Dad"], json!({}), "server")
        .await;
    let seats = seat_tokens(&created);
    let refused = enter(&app, &match_id(&created), 0, &hands()[0], &seats[0]).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert_eq!(refused.body["code"], "server_randomness");
}
