//! Look-alike names are one player (issue 25, item 6): names are compared by their UTS #39
//! confusable skeleton, in statistics, on leaderboards, in histories and filters, and when seating
//! a table; seats stored under the older key are re-keyed once at start-up.

use diesel::sql_types::{Integer, Text};
use diesel_async::RunQueryDsl;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{owner_token, spawn_app, TestApp};

/// `Ann` with a Latin, a Cyrillic (U+0410) and a Greek (U+0391) capital A.
const ANNS: [&str; 3] = ["Ann", "\u{410}nn", "\u{391}nn"];

async fn create_sheet(app: &TestApp, names: &[&str]) -> crate::support::Reply {
    let players: Vec<Value> = names.iter().map(|n| json!({ "name": n })).collect();
    app.post(
        "/v1/sheets",
        &json!({"game": "lucky-jack", "players": players}),
        None,
    )
    .await
}

/// A finished three-round Lucky Jack sheet that seat 0 wins with a jackpot.
async fn finished_sheet(app: &TestApp, names: &[&str]) {
    let created = create_sheet(app, names).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let id = created.body["sheet"]["id"].as_str().unwrap().to_owned();
    let token = owner_token(&created.body);
    let rounds = [
        json!({"jackpot": {"seat": 0, "symbol": "jack", "size": 3}}),
        json!({"jackpot": null}),
        json!({"jackpot": null}),
    ];
    for tally in rounds {
        let reply = app
            .post(
                &format!("/v1/sheets/{id}/entries"),
                &json!({ "tally": tally }),
                Some(&token),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
}

#[tokio::test]
async fn three_look_alike_anns_are_one_player_in_statistics_and_on_the_leaderboard() {
    let app = spawn_app().await;
    for ann in ANNS {
        finished_sheet(&app, &[ann, "Ben"]).await;
    }
    let board = app.get("/v1/games/lucky-jack/leaderboard", None).await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.body);
    let rows = board.body.as_array().unwrap();
    assert_eq!(rows.len(), 2, "one Ann and Ben: {}", board.body);
    assert_eq!(
        (rows[0]["played"].clone(), rows[0]["won"].clone()),
        (json!(3), json!(3))
    );
    for ann in ANNS {
        let stats = app.get(&format!("/v1/players/{ann}/stats"), None).await;
        assert_eq!(stats.status, StatusCode::OK, "{}", stats.body);
        assert_eq!(
            stats.body["overall"]["played"], 3,
            "{ann:?}: {}",
            stats.body
        );
        assert_eq!(stats.body["overall"]["current_streak"], 3);
        let listed = app
            .send(
                app.client
                    .get(format!("{}/v1/matches", app.base))
                    .query(&[("player", ann), ("kind", "sheet")]),
            )
            .await;
        assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
        assert_eq!(listed.body["items"].as_array().unwrap().len(), 3, "{ann:?}");
        let won = app
            .send(
                app.client
                    .get(format!("{}/v1/matches", app.base))
                    .query(&[("winner", ann)]),
            )
            .await;
        assert_eq!(won.body["items"].as_array().unwrap().len(), 3, "{ann:?}");
        let history = app
            .send(
                app.client
                    .get(format!("{}/v1/players/{ann}/history", app.base))
                    .query(&[("format", "csv")]),
            )
            .await;
        let text = history.body.as_str().unwrap();
        assert_eq!(text.lines().count(), 4, "header and three rows: {text}");
    }
}

#[tokio::test]
async fn a_table_may_not_seat_two_look_alike_names() {
    let app = spawn_app().await;
    let sheet = create_sheet(&app, &[ANNS[0], "Ben", ANNS[1]]).await;
    assert_eq!(
        sheet.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        sheet.body
    );
    assert_eq!(sheet.body["code"], "duplicate_player");
    let hosted = app
        .post(
            "/v1/matches",
            &json!({"game": "lucky-jack", "seats": [{"name": ANNS[1]}, {"name": ANNS[2]}]}),
            None,
        )
        .await;
    assert_eq!(
        hosted.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        hosted.body
    );
    assert_eq!(hosted.body["code"], "duplicate_player");
    // A look-alike only as a capital: Cyrillic `В` for `B`.
    let sheet = create_sheet(&app, &["Bob", "\u{412}ob"]).await;
    assert_eq!(
        sheet.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        sheet.body
    );
    assert_eq!(sheet.body["code"], "duplicate_player");
}

/// Issue 25, item 6: the small capital `ᴀ` looks like `A` but Unicode's confusables data keeps
/// it apart, so a name using it is refused rather than made a look-alike second player; the
/// page would show it as "Ann".
#[tokio::test]
async fn a_name_with_a_small_capital_letter_is_refused_as_a_disguise() {
    let app = spawn_app().await;
    let sheet = create_sheet(&app, &["\u{1D00}nn", "Ben"]).await;
    assert_eq!(
        sheet.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        sheet.body
    );
    assert_eq!(sheet.body["code"], "invalid_player_name");
    assert_eq!(sheet.body["params"]["character"], "U+1D00");
    // Everyday letters of any script, and emoji, are names like any other.
    let sheet = create_sheet(&app, &["Иван", "さくら", "Oma 🎲"]).await;
    assert_eq!(sheet.status, StatusCode::CREATED, "{}", sheet.body);
}

#[derive(diesel::QueryableByName)]
struct Key {
    #[diesel(sql_type = Text)]
    player_key: String,
}

#[derive(diesel::QueryableByName)]
struct Scheme {
    #[diesel(sql_type = Integer)]
    scheme: i32,
}

#[tokio::test]
async fn seats_stored_under_the_old_key_are_re_keyed_once_when_instances_start() {
    let app = spawn_app().await;
    finished_sheet(&app, &[ANNS[0], "Ben"]).await;
    finished_sheet(&app, &[ANNS[1], "Ben"]).await;
    // As the previous release stored them: lower-cased, no skeleton (so the Cyrillic `А` is a
    // Cyrillic `а`), with the running totals counted under those keys and the scheme at 1.
    app.sql("UPDATE match_seats SET player_key = lower(player_name)")
        .await;
    stored_under_scheme(&app, 1).await;
    let before = app.get("/v1/games/lucky-jack/leaderboard", None).await;
    assert_eq!(
        before.body.as_array().unwrap().len(),
        3,
        "two Anns: {}",
        before.body
    );

    // Two instances starting at once: one re-keys, the other waits and finds it done.
    let (first, second) = tokio::join!(app.second_instance(), app.second_instance());
    for instance in [&first, &second] {
        let board = instance.get("/v1/games/lucky-jack/leaderboard", None).await;
        let rows = board.body.as_array().unwrap();
        assert_eq!(rows.len(), 2, "one Ann: {}", board.body);
        assert_eq!(rows[0]["played"], 2, "{}", board.body);
        let stats = instance
            .get(&format!("/v1/players/{}/stats", ANNS[2]), None)
            .await;
        assert_eq!(stats.body["overall"]["played"], 2, "{}", stats.body);
    }
    let mut db = app.db().await;
    let keys: Vec<Key> =
        diesel::sql_query("SELECT DISTINCT player_key FROM match_seats ORDER BY player_key")
            .load(&mut db)
            .await
            .unwrap();
    let keys: Vec<String> = keys.into_iter().map(|k| k.player_key).collect();
    assert_eq!(keys, ["ann", "ben"]);
    let scheme: Scheme = diesel::sql_query("SELECT scheme FROM name_key_scheme")
        .get_result(&mut db)
        .await
        .unwrap();
    assert_eq!(scheme.scheme, referee::vocabulary::NAME_KEY_SCHEME);
}

/// Hardening round 4, finding 10: three look-alike pairs were still two players. Greek `Ν` and
/// `Υ` look like `N` and `Y` while their small forms look like `v` and `u`, so they are read as
/// written (`Νed` is `Ned`, `Υann` is `Yann`); the lunate `Ϲ`, which looks like `C` but would be
/// stored as `Σ`, is refused like a small capital (docs/security.md).
#[tokio::test]
async fn greek_capital_nu_and_upsilon_are_the_latin_capitals_they_look_like_in_a_name() {
    let app = spawn_app().await;
    for (latin, greek) in [("Ned", "\u{39D}ed"), ("Yann", "\u{3A5}ann")] {
        let sheet = create_sheet(&app, &[latin, "Ben", greek]).await;
        assert_eq!(
            sheet.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{greek:?}: {}",
            sheet.body
        );
        assert_eq!(sheet.body["code"], "duplicate_player", "{}", sheet.body);
        finished_sheet(&app, &[latin, "Ben"]).await;
        finished_sheet(&app, &[greek, "Ben"]).await;
        for name in [latin, greek] {
            let stats = app.get(&format!("/v1/players/{name}/stats"), None).await;
            assert_eq!(stats.status, StatusCode::OK, "{}", stats.body);
            assert_eq!(
                stats.body["overall"]["played"], 2,
                "{name:?}: {}",
                stats.body
            );
        }
    }
    let board = app.get("/v1/games/lucky-jack/leaderboard", None).await;
    let rows = board.body.as_array().unwrap();
    assert_eq!(rows.len(), 3, "Ned, Yann and Ben: {}", board.body);
    // The small forms look like other letters, and are other players: `νed` is `ved`.
    let sheet = create_sheet(&app, &["Ned", "\u{3BD}ed"]).await;
    assert_eq!(sheet.status, StatusCode::CREATED, "{}", sheet.body);
}

#[tokio::test]
async fn a_name_with_a_lunate_sigma_that_looks_like_c_is_refused_as_a_disguise() {
    let app = spawn_app().await;
    for (name, character) in [("\u{3F9}y", "U+03F9"), ("\u{3F2}y", "U+03F2")] {
        let sheet = create_sheet(&app, &[name, "Ben"]).await;
        assert_eq!(
            sheet.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name:?}: {}",
            sheet.body
        );
        assert_eq!(sheet.body["code"], "invalid_player_name", "{}", sheet.body);
        assert_eq!(sheet.body["params"]["character"], character);
        let hosted = app
            .post(
                "/v1/matches",
                &json!({"game": "lucky-jack", "seats": [{"name": name}, {"name": "Ben"}]}),
                None,
            )
            .await;
        assert_eq!(
            hosted.body["code"], "invalid_player_name",
            "{}",
            hosted.body
        );
    }
    // The Greek capital sigma itself is a letter like any other.
    let sheet = create_sheet(&app, &["Cy", "\u{3A3}y"]).await;
    assert_eq!(sheet.status, StatusCode::CREATED, "{}", sheet.body);
}

/// The key scheme changed for `Νed` (3): a seat stored under scheme 2 as `ved` is re-keyed at
/// start-up and joins `Ned`.
#[tokio::test]
async fn a_greek_capital_nu_stored_under_the_previous_key_joins_its_latin_look_alike_at_start_up() {
    let app = spawn_app().await;
    finished_sheet(&app, &["Ned", "Ben"]).await;
    finished_sheet(&app, &["\u{39D}ed", "Ben"]).await;
    // As scheme 2 keyed it: Greek `Ν` folded to `ν`, whose skeleton is `v`.
    app.sql("UPDATE match_seats SET player_key = 'ved' WHERE player_name = '\u{39D}ed'")
        .await;
    stored_under_scheme(&app, 2).await;
    let before = app.get("/v1/games/lucky-jack/leaderboard", None).await;
    assert_eq!(
        before.body.as_array().unwrap().len(),
        3,
        "two Neds: {}",
        before.body
    );
    let restarted = app.second_instance().await;
    let stats = restarted.get("/v1/players/Ned/stats", None).await;
    assert_eq!(stats.body["overall"]["played"], 2, "{}", stats.body);
    let board = restarted
        .get("/v1/games/lucky-jack/leaderboard", None)
        .await;
    assert_eq!(
        board.body.as_array().unwrap().len(),
        2,
        "one Ned: {}",
        board.body
    );
}

/// Hardening round 4, finding 1: a request naming far more players than any game seats is
/// refused by its count before any name is checked, so a large body of look-alike names costs
/// nothing per pair (docs/security.md).
#[tokio::test]
async fn more_players_than_the_game_seats_are_refused_by_their_count_before_their_names() {
    let app = spawn_app().await;
    let names: Vec<String> = (0..1_568).map(|_| "Ann".to_owned()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let sheet = create_sheet(&app, &names).await;
    assert_eq!(
        sheet.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        sheet.body
    );
    assert_eq!(sheet.body["code"], "player_count", "{}", sheet.body);
    let seats: Vec<Value> = names.iter().map(|name| json!({"name": name})).collect();
    let hosted = app
        .post(
            "/v1/matches",
            &json!({"game": "lucky-jack", "seats": seats}),
            None,
        )
        .await;
    assert_eq!(
        hosted.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        hosted.body
    );
    assert_eq!(hosted.body["code"], "player_count", "{}", hosted.body);
}

/// The store as a release of name-key scheme `scheme` left it: the running totals counted under
/// the keys the seats hold now, and the scheme recorded.
async fn stored_under_scheme(app: &TestApp, scheme: i32) {
    app.sql("DELETE FROM player_game_stats").await;
    app.sql(
        "INSERT INTO player_game_stats (game, player_key, player_name, played, won, score_sum) \
         SELECT m.game, s.player_key, max(s.player_name), count(*), \
                count(*) FILTER (WHERE s.winner), sum(s.final_score) \
         FROM match_seats s JOIN matches m ON m.id = s.match_id GROUP BY 1, 2",
    )
    .await;
    app.sql(&format!("UPDATE name_key_scheme SET scheme = {scheme}"))
        .await;
}
