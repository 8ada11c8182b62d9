//! Invite codes against guessing and against a copy of the database: the per-address budget of
//! tries, taken before each lookup; codes stored under a server key, rotated.

use std::process::Command;
use std::time::Duration;

use futures_util::future::join_all;
use hmac::{Hmac, Mac};
use reqwest::StatusCode;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::support::{create_with_invites, invite_code, match_id, spawn_app_tuned};

const KEY: [u8; 32] = [0x11; 32];
const NEXT_KEY: [u8; 32] = [0x22; 32];

fn keyed(key: &[u8], code: &str) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).unwrap();
    mac.update(format!("invite:{code}").as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// One column of one query, as `psql` prints it unaligned: the real tool, as an operator (or
/// whoever holds a copy of the database) reads it.
fn psql(database_url: &str, query: &str) -> Vec<String> {
    let output = Command::new("psql")
        .args([
            "-X",
            "-A",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            database_url,
            "-c",
            query,
        ])
        .output()
        .expect("psql runs");
    assert!(
        output.status.success(),
        "psql: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .filter(|l| !l.is_empty())
        .collect()
}

fn keys(current: &[u8], previous: &[&[u8]], accept_unkeyed: bool) -> referee::tokens::InviteKeys {
    referee::tokens::InviteKeys::new(
        current.to_vec(),
        previous.iter().map(|k| k.to_vec()).collect(),
        accept_unkeyed,
    )
}

#[tokio::test]
async fn concurrent_wrong_guesses_from_one_address_are_looked_up_no_more_than_the_budget_allows() {
    let app = spawn_app_tuned(|s| {
        s.invites.tries_burst = 10;
        s.invites.try_refill = Duration::from_secs(3600);
        s.pool_size = 8;
    })
    .await;
    create_with_invites(&app, &["Ann", "Ben"]).await;
    let client = reqwest::Client::new();
    let guesses = (0..250).map(|n| {
        let request = client.post(format!("{}/v1/invites/ZZZZZZZ{n:03}/redeem", app.base));
        async move { request.send().await.unwrap().status() }
    });
    let answers = join_all(guesses).await;
    let looked_up = answers
        .iter()
        .filter(|s| **s == StatusCode::NOT_FOUND)
        .count();
    let refused = answers
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!(
        (looked_up, refused),
        (10, 240),
        "250 concurrent wrong guesses against a budget of 10: {answers:?}"
    );
}

#[tokio::test]
async fn a_right_code_redeems_one_refill_after_a_wrong_guesser_at_the_same_address_spent_the_budget(
) {
    let refill = Duration::from_secs(2);
    let app = spawn_app_tuned(|s| {
        s.invites.tries_burst = 3;
        s.invites.try_refill = refill;
    })
    .await;
    let created = create_with_invites(&app, &["Ann", "Ben"]).await;
    let code = invite_code(&created, 1);
    // The family's right codes, looked at before the guesser comes: each gives its try back.
    for _ in 0..5 {
        let look = app.get(&format!("/v1/invites/{code}"), None).await;
        assert_eq!(look.status, StatusCode::OK, "{}", look.body);
    }
    for n in 0..3 {
        let wrong = app
            .post(
                &format!("/v1/invites/ZZZZZZZZ{n:02}/redeem"),
                &json!({}),
                None,
            )
            .await;
        assert_eq!(wrong.status, StatusCode::NOT_FOUND, "{}", wrong.body);
    }
    let waiting = app
        .post(&format!("/v1/invites/{code}/redeem"), &json!({}), None)
        .await;
    assert_eq!(waiting.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(waiting.body["code"], "rate_limited");
    let retry_after: u64 = waiting.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (1..=refill.as_secs()).contains(&retry_after),
        "the family waits one refill at most, not a window: {retry_after} s"
    );
    tokio::time::sleep(Duration::from_secs(retry_after) + Duration::from_millis(100)).await;
    let redeemed = app
        .post(&format!("/v1/invites/{code}/redeem"), &json!({}), None)
        .await;
    assert_eq!(redeemed.status, StatusCode::OK, "{}", redeemed.body);
    assert_eq!(redeemed.body["match_id"], match_id(&created).as_str());
}

#[tokio::test]
async fn a_stored_invite_is_the_hmac_of_its_code_under_the_server_key_never_its_plain_hash() {
    let app = spawn_app_tuned(|s| s.invites.keys = keys(&KEY, &[], false)).await;
    let created = create_with_invites(&app, &["Ann", "Ben", "Cleo"]).await;
    let url = app.database_url();
    let stored = psql(
        &url,
        "SELECT encode(code_hash, 'hex') FROM match_invites ORDER BY seat",
    );
    let mapped = psql(
        &url,
        "SELECT encode(code_hash, 'hex') FROM invite_codes ORDER BY seat",
    );
    assert_eq!(stored.len(), 3, "{stored:?}");
    for seat in 0..3 {
        let code = invite_code(&created, seat);
        let keyed = keyed(&KEY, &code);
        assert_eq!(stored[seat], keyed, "seat {seat}: stored under the key");
        assert_eq!(mapped[seat], keyed, "seat {seat}: the code map too");
        for plain in [code.clone(), format!("invite:{code}")] {
            let plain = hex::encode(Sha256::digest(plain.as_bytes()));
            assert!(
                !stored.contains(&plain) && !mapped.contains(&plain),
                "the plain SHA-256 of seat {seat}'s code is stored"
            );
        }
    }
}

#[tokio::test]
async fn an_invite_issued_under_a_previous_key_redeems_after_a_rotation_and_not_once_it_is_dropped()
{
    let old = spawn_app_tuned(|s| s.invites.keys = keys(&KEY, &[], false)).await;
    let created = create_with_invites(&old, &["Ann", "Ben", "Cleo"]).await;
    let rotated = old
        .second_instance_tuned(|s| s.invites.keys = keys(&NEXT_KEY, &[&KEY], false))
        .await;
    let dropped = old
        .second_instance_tuned(|s| s.invites.keys = keys(&NEXT_KEY, &[], false))
        .await;

    let unknown = dropped
        .post(
            &format!("/v1/invites/{}/redeem", invite_code(&created, 0)),
            &json!({}),
            None,
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.body);
    assert_eq!(unknown.body["code"], "unknown_invite");
    let redeemed = rotated
        .post(
            &format!("/v1/invites/{}/redeem", invite_code(&created, 0)),
            &json!({}),
            None,
        )
        .await;
    assert_eq!(redeemed.status, StatusCode::OK, "{}", redeemed.body);

    // A re-issued invite is stored under the new key, which the old instance does not know.
    let owner = created["owner_token"].as_str().unwrap();
    let reissued = rotated
        .post(
            &format!("/v1/matches/{}/seats/1/invite", match_id(&created)),
            &json!({}),
            Some(owner),
        )
        .await;
    assert_eq!(reissued.status, StatusCode::OK, "{}", reissued.body);
    let code = reissued.body["code"].as_str().unwrap();
    let stored = psql(
        &old.database_url(),
        "SELECT encode(code_hash, 'hex') FROM match_invites WHERE seat = 1",
    );
    assert_eq!(stored, vec![keyed(&NEXT_KEY, code)]);
    let at_old = old.get(&format!("/v1/invites/{code}"), None).await;
    assert_eq!(at_old.status, StatusCode::NOT_FOUND, "{}", at_old.body);
    let at_dropped = dropped.get(&format!("/v1/invites/{code}"), None).await;
    assert_eq!(at_dropped.status, StatusCode::OK, "{}", at_dropped.body);

    // An invite stored as before keys (plain SHA-256) is found only while that is accepted.
    let legacy = invite_code(&created, 2);
    let id = match_id(&created);
    let rewrite = format!(
        "BEGIN; \
         UPDATE invite_codes SET code_hash = sha256('invite:{legacy}') \
           WHERE match_id = '{id}' AND seat = 2; \
         UPDATE match_invites SET code_hash = sha256('invite:{legacy}') \
           WHERE match_id = '{id}' AND seat = 2; \
         COMMIT; SELECT 1"
    );
    psql(&old.database_url(), &rewrite);
    let strict = rotated.get(&format!("/v1/invites/{legacy}"), None).await;
    assert_eq!(strict.status, StatusCode::NOT_FOUND, "{}", strict.body);
    let lenient = old
        .second_instance_tuned(|s| s.invites.keys = keys(&NEXT_KEY, &[], true))
        .await;
    let redeemed = lenient
        .post(&format!("/v1/invites/{legacy}/redeem"), &json!({}), None)
        .await;
    assert_eq!(redeemed.status, StatusCode::OK, "{}", redeemed.body);
}
