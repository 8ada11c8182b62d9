//! Abandoning leaves a trace (issue 25, item 14): a match or sheet abandoned after play began stays
//! in each seated player's record as `abandoned`, by whom and at which version, in statistics, on
//! the leaderboard and in exports; one abandoned before play counts nowhere.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{match_id, owner_token, seat_tokens, spawn_app, TestApp};

async fn first_move(app: &TestApp, id: &str, tokens: &[String]) {
    let owner_view = app.read_match(id, None).await.body;
    let seat = owner_view["to_act"][0].as_u64().unwrap() as usize;
    let mine = app.read_match(id, Some(&tokens[seat])).await.body;
    let chosen = mine["view"]["legal_moves"][0].clone();
    let version = Some(mine["version"].clone());
    let reply = app
        .post_move(id, Some(&tokens[seat]), version, &chosen)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
}

async fn abandon(app: &TestApp, path: &str, owner: &str) -> Value {
    let reply = app.post(path, &json!({}), Some(owner)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["status"], "abandoned");
    reply.body
}

async fn history(app: &TestApp, name: &str) -> Vec<Value> {
    let reply = app
        .send(
            app.client
                .get(format!("{}/v1/players/{name}/history", app.base)),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    match reply.body {
        Value::String(text) => text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
        // One line is a JSON document by itself.
        line => vec![line],
    }
}

#[tokio::test]
async fn a_match_abandoned_after_a_move_stays_in_each_players_record_and_export_as_abandoned() {
    let app = spawn_app().await;
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    first_move(&app, &id, &seat_tokens(&created)).await;
    let mut watching = app
        .stream(&format!("/v1/matches/{id}/stream"), None, &[])
        .await
        .unwrap_or_else(|refused| panic!("{}", refused.body));
    let answer = abandon(
        &app,
        &format!("/v1/matches/{id}/abandon"),
        &owner_token(&created),
    )
    .await;
    let shown = app.read_match(&id, None).await.body;
    assert_eq!(shown["abandoned"], answer["abandoned"], "{shown}");
    // A live stream's last view shows the same trace as a read.
    let streamed = watching.until_closed().await;
    let last_view = streamed.iter().rev().find(|e| e.kind == "view").unwrap();
    assert_eq!(
        last_view.data["match"]["abandoned"], shown["abandoned"],
        "{:?}",
        last_view.data
    );
    assert_eq!(shown["abandoned"]["by"], "owner", "{shown}");
    assert_eq!(shown["abandoned"]["after_play"], true);
    let export = app
        .get(
            &format!("/v1/matches/{id}/export"),
            Some(&owner_token(&created)),
        )
        .await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.body);
    assert_eq!(export.body["status"], "abandoned");
    assert_eq!(
        export.body["abandoned"], shown["abandoned"],
        "{}",
        export.body
    );

    for name in ["Ann", "Ben"] {
        let stats = app.get(&format!("/v1/players/{name}/stats"), None).await;
        assert_eq!(stats.status, StatusCode::OK, "{}", stats.body);
        let overall = &stats.body["overall"];
        assert_eq!(overall["abandoned"], 1, "{name}: {}", stats.body);
        assert_eq!(overall["played"], 0, "not played, not lost: {}", stats.body);
        assert_eq!(stats.body["games"][0]["game"], "lucky-jack");
        assert_eq!(stats.body["games"][0]["abandoned"], 1);
    }
    let board = app.get("/v1/games/lucky-jack/leaderboard", None).await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.body);
    let rows = board.body.as_array().unwrap();
    assert_eq!(rows.len(), 2, "{}", board.body);
    for row in rows {
        assert_eq!(
            (row["played"].clone(), row["abandoned"].clone()),
            (json!(0), json!(1))
        );
        assert_eq!(row["win_rate"], 0.0);
    }
    // Over a period too (it counts seats, not the running totals).
    let since = app
        .get("/v1/players/Ann/stats?from=2000-01-01T00:00:00Z", None)
        .await;
    assert_eq!(since.body["overall"]["abandoned"], 1, "{}", since.body);

    let lines = history(&app, "ann").await;
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["status"], "abandoned");
    let trace = &lines[0]["abandoned"];
    assert_eq!(trace["by"], "owner", "{trace}");
    assert_eq!(trace["after_play"], true);
    assert!(trace["at_version"].as_i64().unwrap() >= 1, "{trace}");
    assert!(trace["at"].is_string(), "{trace}");

    let csv = app
        .send(
            app.client
                .get(format!("{}/v1/players/Ben/history?format=csv", app.base)),
        )
        .await;
    let text = csv.body.as_str().unwrap();
    let mut rows = text.lines();
    assert!(
        rows.next()
            .unwrap()
            .contains(",abandoned_by,abandoned_at,abandoned_at_version,abandoned_after_play,"),
        "{text}"
    );
    let row = rows.next().unwrap();
    assert!(row.contains(",abandoned,"), "{row}");
    // The last six columns, the rating change, are empty: an abandoned match rates nobody.
    assert!(
        row.contains(",owner,") && row.ends_with(",true,,,,,,"),
        "{row}"
    );
}

#[tokio::test]
async fn a_match_abandoned_before_any_move_counts_in_no_statistics() {
    let app = spawn_app().await;
    // Server randomness deals at creation: a deal alone is not play.
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({}), "server")
        .await;
    let id = match_id(&created);
    abandon(
        &app,
        &format!("/v1/matches/{id}/abandon"),
        &owner_token(&created),
    )
    .await;

    let stats = app.get("/v1/players/Ann/stats", None).await;
    assert_eq!(stats.body["overall"]["abandoned"], 0, "{}", stats.body);
    assert_eq!(stats.body["overall"]["played"], 0);
    assert_eq!(stats.body["games"], json!([]));
    let board = app.get("/v1/games/lucky-jack/leaderboard", None).await;
    assert_eq!(board.body, json!([]));
    // History still shows it, with its trace.
    let lines = history(&app, "Ann").await;
    assert_eq!(lines[0]["abandoned"]["after_play"], false, "{}", lines[0]);
}

#[tokio::test]
async fn a_sheet_abandoned_with_a_round_recorded_counts_as_abandoned_and_an_empty_one_does_not() {
    let app = spawn_app().await;
    for rounds in [1, 0] {
        let created = app
            .post(
                "/v1/sheets",
                &json!({"game": "lucky-jack", "players": [{"name": "Cleo"}, {"name": "Dee"}]}),
                None,
            )
            .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
        let id = created.body["sheet"]["id"].as_str().unwrap().to_owned();
        let token = owner_token(&created.body);
        for _ in 0..rounds {
            let reply = app
                .post(
                    &format!("/v1/sheets/{id}/entries"),
                    &json!({"tally": {"jackpot": null}}),
                    Some(&token),
                )
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        }
        let shown = abandon(&app, &format!("/v1/sheets/{id}/abandon"), &token).await;
        assert_eq!(shown["abandoned"]["at_version"], rounds, "{shown}");
        assert_eq!(shown["abandoned"]["after_play"], rounds > 0);
    }
    let stats = app.get("/v1/players/cleo/stats", None).await;
    assert_eq!(stats.body["overall"]["abandoned"], 1, "{}", stats.body);
    assert_eq!(stats.body["overall"]["played"], 0);
    let lines = history(&app, "Dee").await;
    assert_eq!(lines.len(), 2);
    let versions: Vec<Value> = lines
        .iter()
        .map(|l| l["abandoned"]["at_version"].clone())
        .collect();
    assert_eq!(versions, [json!(0), json!(1)], "newest first");
}

#[derive(diesel::QueryableByName, Debug, PartialEq)]
struct Trace {
    #[diesel(sql_type = diesel::sql_types::Text)]
    player: String,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    at_version: i64,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    after_play: bool,
}

#[test]
fn matches_abandoned_before_the_migration_get_their_trace_and_count_once_play_had_begun() {
    use diesel::migration::MigrationSource;
    use diesel::pg::Pg;
    use diesel::RunQueryDsl;
    use diesel_migrations::MigrationHarness;

    let scratch = crate::support::Scratch::new("referee_abandon_backfill");
    let mut conn = scratch.connect();
    // Creates diesel's bookkeeping table, which running one migration at a time does not.
    assert!(conn.applied_migrations().unwrap().is_empty());
    let migrations = MigrationSource::<Pg>::migrations(&referee::store::MIGRATIONS).unwrap();
    let (before, after): (Vec<_>, Vec<_>) = migrations
        .iter()
        .partition(|m| m.name().to_string().as_str() < "2026-11-25-000016");
    for migration in before {
        conn.run_migration(migration.as_ref()).unwrap();
    }
    // Two matches abandoned by the previous release: Ann's after a seat moved (ply 2, after the
    // deal), Ben's after the deal only; and a sheet of Cleo's abandoned with one entry.
    for (id, kind, version) in [
        ("00000000-0000-0000-0000-00000000000a", "hosted", 1),
        ("00000000-0000-0000-0000-00000000000b", "hosted", 1),
        ("00000000-0000-0000-0000-00000000000c", "sheet", 1),
    ] {
        diesel::sql_query(format!(
            "INSERT INTO matches (id, game, rules_version, options, randomness, owner_token_hash, \
                 status, version, state, kind, chance_reporters) \
             VALUES ('{id}', 'lucky-jack', 'lucky-jack/1', '{{}}', 'table', '\\x00', \
                 'abandoned', {version}, '{{}}', '{kind}', 'owner')"
        ))
        .execute(&mut conn)
        .unwrap();
    }
    for (id, name) in [("a", "Ann"), ("b", "Ben"), ("c", "Cleo")] {
        diesel::sql_query(format!(
            "INSERT INTO match_seats (match_id, seat, player_name, token_hash, player_key) \
             VALUES ('00000000-0000-0000-0000-00000000000{id}', 0, '{name}', '\\x00', lower('{name}'))"
        ))
        .execute(&mut conn)
        .unwrap();
    }
    diesel::sql_query(
        "INSERT INTO match_events (match_id, ply, seat, payload) VALUES \
         ('00000000-0000-0000-0000-00000000000a', 1, NULL, '{}'), \
         ('00000000-0000-0000-0000-00000000000a', 2, 0, '{}'), \
         ('00000000-0000-0000-0000-00000000000b', 1, NULL, '{}')",
    )
    .execute(&mut conn)
    .unwrap();
    for migration in after {
        conn.run_migration(migration.as_ref()).unwrap();
    }

    let traces: Vec<Trace> = diesel::sql_query(
        "SELECT s.player_name AS player, a.at_version, a.after_play \
         FROM match_abandons a JOIN match_seats s USING (match_id) \
         WHERE a.abandoned_by = 'owner' ORDER BY 1",
    )
    .load(&mut conn)
    .unwrap();
    let expected = [("Ann", 2, true), ("Ben", 1, false), ("Cleo", 1, true)].map(
        |(player, at_version, after_play)| Trace {
            player: player.to_owned(),
            at_version,
            after_play,
        },
    );
    assert_eq!(traces, expected, "the log's last ply, not the snapshot's");
    let counted: Vec<Trace> = diesel::sql_query(
        "SELECT player_name AS player, abandoned AS at_version, played > 0 AS after_play \
         FROM player_game_stats ORDER BY 1",
    )
    .load(&mut conn)
    .unwrap();
    let expected =
        [("Ann", 1, false), ("Cleo", 1, false)].map(|(player, abandoned, played)| Trace {
            player: player.to_owned(),
            at_version: abandoned,
            after_play: played,
        });
    assert_eq!(counted, expected, "abandoned, not played");
}
