//! The lobby: invites to open seats, re-issued tokens, renamed seats, abandoned matches and
//! sheets, rematches.

use std::collections::HashSet;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{
    create_with_invites, invite_code, match_id, owner_token, play_to_end, seat_token, spawn_app,
    TestApp,
};

const ALPHABET: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The first legal move of the seat to act, played with its own token.
async fn first_move(app: &TestApp, id: &str, tokens: &[String]) -> Value {
    let owner_view = app.read_match(id, None).await.body;
    let seat = owner_view["to_act"][0].as_u64().unwrap() as usize;
    let mine = app.read_match(id, Some(&tokens[seat])).await.body;
    let chosen = mine["view"]["legal_moves"][0].clone();
    let reply = app
        .post_move(
            id,
            Some(&tokens[seat]),
            Some(mine["version"].clone()),
            &chosen,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body
}

#[tokio::test]
async fn invite_codes_look_unguessable_and_redeem_once_for_a_working_seat_token() {
    let app = spawn_app().await;
    let created = create_with_invites(&app, &["Ann", "Ben", "Cleo", "Dee"]).await;
    let id = match_id(&created);
    assert_eq!(
        created["seat_tokens"],
        json!([]),
        "open seats have no token yet"
    );
    let codes: Vec<String> = (0..4).map(|s| invite_code(&created, s)).collect();
    for (seat, code) in codes.iter().enumerate() {
        assert_eq!(code.len(), 10, "{code}");
        assert!(code.chars().all(|c| ALPHABET.contains(c)), "{code}");
        assert_eq!(created["invites"][seat]["seat"], seat);
        assert_eq!(
            created["invites"][seat]["link"],
            format!("/v1/invites/{code}")
        );
    }
    assert_eq!(
        codes.iter().collect::<HashSet<_>>().len(),
        4,
        "codes differ"
    );

    // The link shows the seat, not a token.
    let link = app.get(&format!("/v1/invites/{}", codes[1]), None).await;
    assert_eq!(link.status, StatusCode::OK, "{}", link.body);
    assert_eq!(link.body["match_id"], id.as_str());
    assert_eq!(link.body["name"], "Ben");
    assert_eq!(link.body["redeemed"], false);
    let typed = app
        .get(&format!("/v1/invites/{}", codes[1].to_lowercase()), None)
        .await;
    assert_eq!(
        typed.body["redeem"],
        format!("/v1/invites/{}/redeem", codes[1]),
        "the link names the code as issued"
    );

    // Typed back in lower case with a hyphen, it still redeems.
    let typed = format!("{}-{}", &codes[1][..5], &codes[1][5..]).to_lowercase();
    let redeemed = app
        .post(&format!("/v1/invites/{typed}/redeem"), &json!({}), None)
        .await;
    assert_eq!(redeemed.status, StatusCode::OK, "{}", redeemed.body);
    assert_eq!(redeemed.body["seat"], 1);
    assert_eq!(redeemed.body["match_id"], id.as_str());
    let token = redeemed.body["token"].as_str().unwrap().to_owned();
    let seen = app.read_match(&id, Some(&token)).await;
    assert_eq!(seen.status, StatusCode::OK);
    assert_eq!(seen.body["viewer"], json!({"seat": 1}));

    let again = app
        .post(
            &format!("/v1/invites/{}/redeem", codes[1]),
            &json!({}),
            None,
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.body["code"], "invite_redeemed");
    let link = app.get(&format!("/v1/invites/{}", codes[1]), None).await;
    assert_eq!(link.body["redeemed"], true);

    // Every seat redeemed: the table plays with the phones' tokens.
    let mut tokens = Vec::new();
    for code in &codes {
        if code == &codes[1] {
            tokens.push(token.clone());
            continue;
        }
        let reply = app
            .post(&format!("/v1/invites/{code}/redeem"), &json!({}), None)
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        tokens.push(reply.body["token"].as_str().unwrap().to_owned());
    }
    let moved = first_move(&app, &id, &tokens).await;
    assert!(moved["version"].as_i64().unwrap() > 0, "{moved}");
}

#[tokio::test]
async fn wrong_invite_codes_are_refused_clearly_and_limited_per_address() {
    let app = spawn_app().await;
    let created = create_with_invites(&app, &["Ann", "Ben"]).await;
    let malformed = app.post("/v1/invites/ABC/redeem", &json!({}), None).await;
    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    assert_eq!(malformed.body["code"], "invalid_invite_code");
    let unknown = app.get("/v1/invites/0000000000", None).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.body["code"], "unknown_invite");
    // A malformed code is refused without a lookup, so it costs no try; ten wrong codes in
    // all, then even a right one waits for a try to come back.
    for n in 0..9 {
        let reply = app
            .post(
                &format!("/v1/invites/ZZZZZZZZ{n:02}/redeem"),
                &json!({}),
                None,
            )
            .await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.body);
    }
    let limited = app
        .post(
            &format!("/v1/invites/{}/redeem", invite_code(&created, 0)),
            &json!({}),
            None,
        )
        .await;
    assert_eq!(
        limited.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        limited.body
    );
    assert_eq!(limited.body["code"], "rate_limited");
    assert!(limited.headers.contains_key("retry-after"));
}

#[tokio::test]
async fn a_reissued_token_or_invite_locks_out_the_old_token_at_once() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(
            &["Ann", "Ben"],
            json!({"rounds": 3, "max_turns_per_round": 40}),
            "server",
        )
        .await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    let old = seat_token(&created, 1);

    let by_seat = app
        .post(
            &format!("/v1/matches/{id}/seats/1/token"),
            &json!({}),
            Some(&old),
        )
        .await;
    assert_eq!(by_seat.status, StatusCode::FORBIDDEN);
    assert_eq!(by_seat.body["code"], "owner_only");
    let anonymous = app
        .post(&format!("/v1/matches/{id}/seats/1/token"), &json!({}), None)
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let no_seat = app
        .post(
            &format!("/v1/matches/{id}/seats/7/token"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(no_seat.status, StatusCode::NOT_FOUND);
    assert_eq!(no_seat.body["code"], "unknown_seat");

    let reissued = app
        .post(
            &format!("/v1/matches/{id}/seats/1/token"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(reissued.status, StatusCode::OK, "{}", reissued.body);
    let new = reissued.body["token"].as_str().unwrap().to_owned();
    assert_ne!(new, old);
    assert_eq!(
        app.read_match(&id, Some(&old)).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(app.read_match(&id, Some(&new)).await.status, StatusCode::OK);

    // A new invite closes the seat to the token until a phone redeems it.
    let invite = app
        .post(
            &format!("/v1/matches/{id}/seats/1/invite"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(invite.status, StatusCode::OK, "{}", invite.body);
    assert_eq!(
        app.read_match(&id, Some(&new)).await.status,
        StatusCode::UNAUTHORIZED
    );
    let code = invite.body["code"].as_str().unwrap();
    let redeemed = app
        .post(&format!("/v1/invites/{code}/redeem"), &json!({}), None)
        .await;
    assert_eq!(redeemed.status, StatusCode::OK, "{}", redeemed.body);
    let phone = redeemed.body["token"].as_str().unwrap();
    assert_eq!(
        app.read_match(&id, Some(phone)).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_seat_is_renamed_before_the_first_move_and_not_after() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(
            &["Ann", "Ben"],
            json!({"rounds": 3, "max_turns_per_round": 40}),
            "server",
        )
        .await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    let rename = |name: &'static str| {
        app.client
            .patch(format!("{}/v1/matches/{id}/seats/1", app.base))
            .bearer_auth(&owner)
            .json(&json!({ "name": name }))
    };
    let renamed = app.send(rename("Bea")).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    assert_eq!(renamed.body["seats"][1]["name"], "Bea");
    let taken = app.send(rename("ANN")).await;
    assert_eq!(taken.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(taken.body["code"], "duplicate_player");
    let blank = app.send(rename("  ")).await;
    assert_eq!(blank.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(blank.body["code"], "invalid_player_name");

    let tokens = vec![seat_token(&created, 0), seat_token(&created, 1)];
    first_move(&app, &id, &tokens).await;
    let late = app.send(rename("Bo")).await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    assert_eq!(late.body["code"], "play_started");
    let listed = app.get("/v1/matches?player=Bea", None).await;
    assert_eq!(
        listed.body["items"][0]["id"],
        id.as_str(),
        "{}",
        listed.body
    );
}

#[tokio::test]
async fn an_abandoned_match_stays_in_history_takes_no_moves_and_is_not_counted_as_played() {
    let app = spawn_app().await;
    let finished = app
        .create_lucky_jack(
            &["Ann", "Ben"],
            json!({"rounds": 3, "max_turns_per_round": 40}),
            "server",
        )
        .await;
    play_to_end(&app, &finished).await;
    let created = app
        .create_lucky_jack(
            &["Ann", "Ben"],
            json!({"rounds": 3, "max_turns_per_round": 40}),
            "server",
        )
        .await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    let tokens = vec![seat_token(&created, 0), seat_token(&created, 1)];
    first_move(&app, &id, &tokens).await;

    let by_seat = app
        .post(
            &format!("/v1/matches/{id}/abandon"),
            &json!({}),
            Some(&tokens[0]),
        )
        .await;
    assert_eq!(by_seat.status, StatusCode::FORBIDDEN);
    let abandoned = app
        .post(
            &format!("/v1/matches/{id}/abandon"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(abandoned.status, StatusCode::OK, "{}", abandoned.body);
    assert_eq!(abandoned.body["status"], "abandoned");
    let twice = app
        .post(
            &format!("/v1/matches/{id}/abandon"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(
        twice.status,
        StatusCode::OK,
        "abandoning again changes nothing"
    );

    let seat = app.read_match(&id, None).await.body["to_act"][0]
        .as_u64()
        .unwrap() as usize;
    let mine = app.read_match(&id, Some(&tokens[seat])).await.body;
    let refused = app
        .post_move(
            &id,
            Some(&tokens[seat]),
            None,
            &mine["view"]["legal_moves"][0],
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert_eq!(refused.body["code"], "match_abandoned");
    let finished_id = match_id(&finished);
    let over = app
        .post(
            &format!("/v1/matches/{finished_id}/abandon"),
            &json!({}),
            Some(&owner_token(&finished)),
        )
        .await;
    assert_eq!(over.status, StatusCode::CONFLICT);
    assert_eq!(over.body["code"], "match_finished");

    let listed = app.get("/v1/matches?status=abandoned", None).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    assert_eq!(listed.body["items"][0]["id"], id.as_str());
    let all = app.get("/v1/matches?player=Ann", None).await;
    assert_eq!(all.body["items"].as_array().unwrap().len(), 2);
    // Abandoned after a move: not played, but in each player's record as abandoned.
    let stats = app.get("/v1/players/Ann/stats", None).await;
    assert_eq!(stats.body["overall"]["played"], 1, "{}", stats.body);
    assert_eq!(stats.body["overall"]["abandoned"], 1, "{}", stats.body);
    let board = app.get("/v1/games/lucky-jack/leaderboard", None).await;
    for row in board.body.as_array().unwrap() {
        assert_eq!(row["played"], 1, "{row}");
    }
}

#[tokio::test]
async fn an_abandoned_sheet_takes_no_entries_or_corrections() {
    let app = spawn_app().await;
    let created = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": [{"name": "Ann"}, {"name": "Ben"}]}),
            None,
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let id = created.body["sheet"]["id"].as_str().unwrap().to_owned();
    let owner = created.body["owner_token"].as_str().unwrap().to_owned();
    let first = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({"tally": {"jackpot": null}}),
            Some(&owner),
        )
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    let wrong = app
        .post(
            &format!("/v1/sheets/{id}/abandon"),
            &json!({}),
            Some("own_nope"),
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    let abandoned = app
        .post(
            &format!("/v1/sheets/{id}/abandon"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(abandoned.status, StatusCode::OK, "{}", abandoned.body);
    assert_eq!(abandoned.body["status"], "abandoned");
    let entry = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({"tally": {"jackpot": null}}),
            Some(&owner),
        )
        .await;
    assert_eq!(entry.status, StatusCode::CONFLICT, "{}", entry.body);
    assert_eq!(entry.body["code"], "match_abandoned");
    let correction = app
        .post(
            &format!("/v1/sheets/{id}/entries"),
            &json!({"corrects": 1, "tally": {"jackpot": null}}),
            Some(&owner),
        )
        .await;
    assert_eq!(
        correction.status,
        StatusCode::CONFLICT,
        "{}",
        correction.body
    );
    assert_eq!(correction.body["code"], "match_abandoned");
}

#[tokio::test]
async fn a_rematch_has_the_same_players_and_options_and_fresh_tokens() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(
            &["Ann", "Ben", "Cleo"],
            json!({"rounds": 5, "max_turns_per_round": 30}),
            "server",
        )
        .await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    let early = app
        .post(
            &format!("/v1/matches/{id}/rematch"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(early.status, StatusCode::CONFLICT);
    assert_eq!(early.body["code"], "match_not_finished");
    app.post(
        &format!("/v1/matches/{id}/abandon"),
        &json!({}),
        Some(&owner),
    )
    .await;
    let bad = app
        .post(
            &format!("/v1/matches/{id}/rematch?invites=yes"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.body["code"], "invalid_query");

    let rematch = app
        .post(
            &format!("/v1/matches/{id}/rematch"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(rematch.status, StatusCode::CREATED, "{}", rematch.body);
    let new_id = match_id(&rematch.body);
    assert_ne!(new_id, id);
    assert_eq!(rematch.body["match"]["rematch_of"], id.as_str());
    let (old, new) = (&created["match"], &rematch.body["match"]);
    assert_eq!(new["options"], old["options"]);
    assert_eq!(new["game"], old["game"]);
    assert_eq!(new["randomness"], old["randomness"]);
    let names = |m: &Value| -> Vec<Value> {
        m["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].clone())
            .collect()
    };
    assert_eq!(names(new), names(old));
    for seat in 0..3 {
        let token = seat_token(&rematch.body, seat);
        assert_ne!(token, seat_token(&created, seat));
        assert_eq!(
            app.read_match(&new_id, Some(&token)).await.status,
            StatusCode::OK
        );
        let old_token = seat_token(&created, seat);
        assert_eq!(
            app.read_match(&new_id, Some(&old_token)).await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_ne!(owner_token(&rematch.body), owner);
    assert_eq!(
        app.read_match(&id, None).await.body["rematch"],
        new_id.as_str()
    );
    assert_eq!(
        app.read_match(&new_id, None).await.body["rematch_of"],
        id.as_str()
    );

    let again = app
        .post(
            &format!("/v1/matches/{id}/rematch?invites=true"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.body["code"], "rematch_exists");
    assert_eq!(again.body["params"]["rematch"], new_id.as_str());
}
