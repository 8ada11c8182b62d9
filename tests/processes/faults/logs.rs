//! Logs: no log level prints a secret, and a normal start and visit warn of nothing.

use std::collections::BTreeSet;
use std::time::Duration;

use diesel_async::{AsyncConnection, AsyncPgConnection};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::parts::*;

/// What a secret may look like in a log line: as text, in hex, and as the decimal bytes a driver
/// prints for a bind parameter (`[104, 101, ...]`), which is how tokio-postgres logs them.
fn spellings(secret: &[u8]) -> Vec<String> {
    let decimal = format!("{secret:?}");
    let mut all = vec![
        hex::encode(secret),
        hex::encode_upper(secret),
        decimal.trim_matches(['[', ']']).to_owned(),
    ];
    if let Ok(text) = std::str::from_utf8(secret) {
        all.push(text.to_owned());
    }
    all
}

/// Every hand in a stored state (the arrays under `hands`), as the state's JSON spells it.
fn hands_in(state: &Value, found: &mut BTreeSet<String>) {
    match state {
        Value::Object(fields) => {
            for (name, value) in fields {
                match (name.as_str(), value) {
                    ("hands", Value::Array(hands)) => found.extend(
                        hands
                            .iter()
                            .filter(|hand| hand.as_array().is_some_and(|cards| cards.len() >= 3))
                            .map(Value::to_string),
                    ),
                    _ => hands_in(value, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| hands_in(item, found)),
        _ => {}
    }
}

/// Plays a server-seeded Lucky Jack match to its end on the service, every move with an
/// `Idempotency-Key`; returns the secrets it met: (what, spellings), each of which the log must
/// not show. Hands are read from the stored state while the match runs.
async fn play_with_secrets(
    client: &reqwest::Client,
    base: &str,
    database_url: &str,
) -> Vec<(String, Vec<String>)> {
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Stored {
        #[diesel(sql_type = diesel::sql_types::Jsonb)]
        state: Value,
    }
    let created: Value = client
        .post(format!("{base}/v1/matches"))
        .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
        .json(
            &json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}],
                      "options": {"max_turns_per_round": 20}, "randomness": "server"}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["match"]["id"].as_str().unwrap().to_owned();
    let mut tokens = vec![created["owner_token"].as_str().unwrap().to_owned()];
    tokens.extend(
        created["seat_tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["token"].as_str().unwrap().to_owned()),
    );
    let mut conn = AsyncPgConnection::establish(database_url).await.unwrap();
    let mut keys = Vec::new();
    let mut hands = BTreeSet::new();
    let mut last = created["match"].clone();
    for _ in 0..3000 {
        if last["status"] == "finished" {
            break;
        }
        let stored: Stored =
            diesel::sql_query(format!("SELECT state FROM matches WHERE id = '{id}'"))
                .get_result(&mut conn)
                .await
                .unwrap();
        hands_in(&stored.state, &mut hands);
        let seat = last["to_act"][0].as_u64().expect("a seat acts") as usize;
        let mine: Value = client
            .get(format!("{base}/v1/matches/{id}"))
            .bearer_auth(&tokens[1 + seat])
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let mv = if mine["view"]["drawn_card_pending"] == true {
            json!({"type": "keep"})
        } else {
            json!({"type": "draw"})
        };
        let key = uuid::Uuid::new_v4().simple().to_string();
        let response = client
            .post(format!("{base}/v1/matches/{id}/moves"))
            .bearer_auth(&tokens[1 + seat])
            .header("Idempotency-Key", &key)
            .json(&json!({"expected_version": mine["version"], "move": mv}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{mv}");
        keys.push(key);
        last = response.json().await.unwrap();
    }
    let finished: Value = client
        .get(format!("{base}/v1/matches/{id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(finished["status"], "finished", "the match did not end");
    let seed = hex::decode(finished["seed"].as_str().expect("the seed, revealed")).unwrap();
    assert!(!hands.is_empty(), "no hand was read from the stored state");

    let mut secrets = vec![("the seed".to_owned(), spellings(&seed))];
    for token in &tokens {
        secrets.push((format!("token {token}"), spellings(token.as_bytes())));
        let hash = referee::tokens::hash(token);
        secrets.push((format!("the hash of token {token}"), spellings(&hash)));
    }
    for key in keys {
        secrets.push((format!("idempotency key {key}"), spellings(key.as_bytes())));
    }
    for hand in hands {
        secrets.push((format!("hand {hand}"), spellings(hand.as_bytes())));
    }
    secrets
}

/// Takes a table's seats by invite on the service, every way a code reaches it: a lookup, a
/// lookup and a redeem of wrong codes, a redeem typed in lower case with a hyphen, a refused
/// second redeem, a malformed code, paths no route takes; returns the codes (as issued, as typed, wrong), their stored
/// hashes and the seat tokens redeemed, each of which the log must not show.
async fn join_by_invites(
    client: &reqwest::Client,
    base: &str,
    database_url: &str,
) -> Vec<(String, Vec<String>)> {
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Stored {
        #[diesel(sql_type = diesel::sql_types::Bytea)]
        code_hash: Vec<u8>,
    }
    let created: Value = client
        .post(format!("{base}/v1/matches"))
        .json(
            &json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}],
                      "invites": true}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let codes: Vec<String> = created["invites"]
        .as_array()
        .expect("invites")
        .iter()
        .map(|i| i["code"].as_str().unwrap().to_owned())
        .collect();
    let mut secrets = Vec::new();
    let call = async |method: reqwest::Method, path: String, expected: StatusCode| {
        let response = client
            .request(method, format!("{base}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), expected, "{path}");
        response.json::<Value>().await.unwrap()
    };
    let wrong = "ZZZZZ-ZZZZ1";
    let typed = format!("{}-{}", &codes[0][..5], &codes[0][5..]).to_lowercase();
    call(
        reqwest::Method::GET,
        format!("/v1/invites/{}", codes[0]),
        StatusCode::OK,
    )
    .await;
    call(
        reqwest::Method::GET,
        format!("/v1/invites/{wrong}"),
        StatusCode::NOT_FOUND,
    )
    .await;
    call(
        reqwest::Method::POST,
        format!("/v1/invites/{wrong}/redeem"),
        StatusCode::NOT_FOUND,
    )
    .await;
    call(
        reqwest::Method::POST,
        "/v1/invites/SECRETLY-MALFORMED/redeem".to_owned(),
        StatusCode::BAD_REQUEST,
    )
    .await;
    // Paths no route takes, still holding a right code: a trailing slash, a wrong method.
    call(
        reqwest::Method::GET,
        format!("/v1/invites/{}/", codes[1]),
        StatusCode::NOT_FOUND,
    )
    .await;
    call(
        reqwest::Method::DELETE,
        format!("/v1/invites/{}", codes[1]),
        StatusCode::METHOD_NOT_ALLOWED,
    )
    .await;
    for path in [
        format!("/v1/invites/{typed}/redeem"),
        format!("/v1/invites/{}/redeem", codes[1]),
    ] {
        let seat = call(reqwest::Method::POST, path, StatusCode::OK).await;
        let token = seat["token"].as_str().unwrap();
        secrets.push((format!("token {token}"), spellings(token.as_bytes())));
    }
    call(
        reqwest::Method::POST,
        format!("/v1/invites/{}/redeem", codes[0]),
        StatusCode::CONFLICT,
    )
    .await;
    for code in codes
        .iter()
        .chain([&typed, &wrong.to_owned(), &"SECRETLY-MALFORMED".to_owned()])
    {
        secrets.push((format!("invite code {code}"), vec![code.clone()]));
    }
    let mut conn = AsyncPgConnection::establish(database_url).await.unwrap();
    let stored: Vec<Stored> = diesel::sql_query("SELECT code_hash FROM match_invites")
        .load(&mut conn)
        .await
        .unwrap();
    assert_eq!(stored.len(), 2);
    for hash in stored {
        secrets.push((
            "an invite code's stored hash".to_owned(),
            spellings(&hash.code_hash),
        ));
    }
    secrets
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_log_level_prints_a_seed_a_hidden_hand_a_token_its_hash_an_idempotency_key_or_an_invite_code(
) {
    // Everything; and debug with a directive that asks for the driver's bind parameters by name.
    for filter in ["trace", "debug,tokio_postgres::query=trace"] {
        let database = SharedServerDatabase::new();
        let service = Service::spawn_with(&database.url(), &[("RUST_LOG", filter)]);
        let client = reqwest::Client::builder()
            .timeout(PATIENCE)
            .build()
            .unwrap();
        service.wait_ready(&client).await;
        let mut secrets = play_with_secrets(&client, &service.base, &database.url()).await;
        secrets.extend(join_by_invites(&client, &service.base, &database.url()).await);
        // Let the last lines reach the file.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let log = std::fs::read_to_string(&service.log).unwrap();
        let verbose = log
            .lines()
            .filter(|line| line.contains("DEBUG") || line.contains("TRACE"))
            .count();
        // At debug nothing of ours or of the HTTP stack speaks; at trace they do.
        assert!(
            filter != "trace" || verbose > 50,
            "RUST_LOG={filter}: the log is not verbose, so proves nothing:\n{log}"
        );
        for (what, spellings) in &secrets {
            for spelling in spellings {
                if let Some(at) = log.find(spelling.as_str()) {
                    let line_start = log[..at].rfind('\n').map_or(0, |i| i + 1);
                    let line_end = log[at..].find('\n').map_or(log.len(), |i| at + i);
                    panic!(
                        "RUST_LOG={filter}: the log shows {what} as {spelling:?}:\n{}",
                        &log[line_start..line_end.min(line_start + 2000)]
                    );
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_and_a_visit_to_the_page_and_the_docs_log_no_warning_or_error() {
    // Issue 41, item 10: "A normal start logs red ERROR lines for `/readyz` while migrating,
    // and ordinary page use logged 533 WARN lines from the metrics middleware for page files."
    // Readiness is asked from the start, while the database is being prepared, as a load
    // balancer would.
    let database = SharedServerDatabase::new();
    let service = Service::spawn_with(&database.url(), &[("RUST_LOG", "info")]);
    let client = reqwest::Client::builder()
        .timeout(PATIENCE)
        .build()
        .unwrap();
    service.wait_ready(&client).await;
    let visit = [
        "/",
        "/sw.js",
        "/app/app.js",
        "/app/sheet.css",
        "/app/icon.svg",
        "/app/manifest.webmanifest",
        "/docs/",
        "/docs/swagger-ui.css",
        "/openapi.json",
        "/v1/games",
    ];
    for path in visit {
        let answer = client
            .get(format!("{}{path}", service.base))
            .send()
            .await
            .unwrap();
        assert!(answer.status().is_success(), "{path}: {}", answer.status());
    }
    // A refusal is the API at work, not something for whoever reads the log: a sheet that is
    // not there, a move with no token.
    for (path, status) in [
        (
            format!("/v1/sheets/{}", uuid::Uuid::nil()),
            StatusCode::NOT_FOUND,
        ),
        ("/v1/matches/not-an-id".to_owned(), StatusCode::NOT_FOUND),
    ] {
        let answer = client
            .get(format!("{}{path}", service.base))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), status, "{path}");
    }
    // Let the last lines reach the file.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let log = std::fs::read_to_string(&service.log).unwrap();
    let loud: Vec<&str> = log
        .lines()
        .filter(|line| line.contains("WARN") || line.contains("ERROR"))
        .collect();
    assert!(loud.is_empty(), "warnings or errors:\n{}", loud.join("\n"));
}
