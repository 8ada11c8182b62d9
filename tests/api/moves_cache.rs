//! Instances keep live matches in memory between moves (issue 14). A cached copy is only a guess:
//! these tests change a match through another instance while the first holds it warm, and check
//! that the first never acts on what it remembers.

use reqwest::StatusCode;
use serde_json::{json, Value};

use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::pooled_connection::AsyncDieselConnectionManager;
use diesel_async::AsyncPgConnection;
use referee::store::matches::{self, EventRow};
use referee::store::moves::batch::{Append, GroupCommit};
use referee::store::moves::probe::GroupProbe;
use referee::store::moves::solo::SoloConnections;

use crate::support::*;

/// The seat to act and its legal moves, as that seat sees them.
async fn turn(app: &TestApp, id: &str, tokens: &[String]) -> (usize, Value, Value) {
    let seen = app.read_match(id, None).await.body;
    let seat = seen["to_act"][0].as_u64().expect("someone may act") as usize;
    let mine = app.read_match(id, Some(&tokens[seat])).await.body;
    let first = mine["view"]["legal_moves"][0].clone();
    (seat, first, mine["version"].clone())
}

/// The seat to act makes its first legal move through `app`: that seat, and the reply.
async fn move_on(app: &TestApp, id: &str, tokens: &[String]) -> (usize, Value) {
    let (seat, mv, version) = turn(app, id, tokens).await;
    let moved = app
        .post_move(id, Some(&tokens[seat]), Some(version), &mv)
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.body);
    (seat, moved.body)
}

async fn new_match(app: &TestApp) -> Value {
    app.create_lucky_jack(
        &["Ann", "Ben"],
        json!({"rounds": 3, "max_turns_per_round": 40}),
        "server",
    )
    .await
}

every_pipeline!(
    a_token_reissued_through_another_instance_no_longer_moves_on_an_instance_that_cached_the_match
);
async fn a_token_reissued_through_another_instance_no_longer_moves_on_an_instance_that_cached_the_match(
    pipeline: Pipeline,
) {
    let a = spawn_app_on(pipeline).await;
    let b = a.second_instance().await;
    let created = new_match(&a).await;
    let id = match_id(&created);
    let mut tokens = seat_tokens(&created);

    // A caches the match with this move.
    move_on(&a, &id, &tokens).await;

    let (seat, mv, version) = turn(&a, &id, &tokens).await;
    let reissued = b
        .post(
            &format!("/v1/matches/{id}/seats/{seat}/token"),
            &json!({}),
            Some(&owner_token(&created)),
        )
        .await;
    assert_eq!(reissued.status, StatusCode::OK, "{}", reissued.body);
    let old = std::mem::replace(
        &mut tokens[seat],
        reissued.body["token"].as_str().unwrap().to_owned(),
    );

    let with_old = a
        .post_move(&id, Some(&old), Some(version.clone()), &mv)
        .await;
    assert_eq!(
        with_old.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        with_old.body
    );
    let with_new = a
        .post_move(&id, Some(&tokens[seat]), Some(version), &mv)
        .await;
    assert_eq!(with_new.status, StatusCode::OK, "{}", with_new.body);
    a.audit_snapshots().await;
}

every_pipeline!(
    a_match_abandoned_through_another_instance_takes_no_move_on_an_instance_that_cached_it
);
async fn a_match_abandoned_through_another_instance_takes_no_move_on_an_instance_that_cached_it(
    pipeline: Pipeline,
) {
    let a = spawn_app_on(pipeline).await;
    let b = a.second_instance().await;
    let created = new_match(&a).await;
    let id = match_id(&created);
    let tokens = seat_tokens(&created);
    let (_, moved) = move_on(&a, &id, &tokens).await;

    let abandoned = b
        .post(
            &format!("/v1/matches/{id}/abandon"),
            &json!({}),
            Some(&owner_token(&created)),
        )
        .await;
    assert_eq!(abandoned.status, StatusCode::OK, "{}", abandoned.body);

    let (seat, mv, _) = turn(&a, &id, &tokens).await;
    let refused = a.post_move(&id, Some(&tokens[seat]), None, &mv).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    let stored = a.read_match(&id, None).await.body;
    assert_eq!(stored["status"], "abandoned");
    assert_eq!(stored["version"], moved["version"]);
}

every_pipeline!(
    a_seat_renamed_through_another_instance_is_credited_under_its_new_name_by_a_warm_instance
);
async fn a_seat_renamed_through_another_instance_is_credited_under_its_new_name_by_a_warm_instance(
    pipeline: Pipeline,
) {
    let a = spawn_app_on(pipeline).await;
    let b = a.second_instance().await;
    let created = new_match(&a).await;
    let id = match_id(&created);
    let tokens = seat_tokens(&created);

    // A refused move (the seat not to act) already leaves the match in A's cache.
    let (seat, mv, _) = turn(&a, &id, &tokens).await;
    let other = 1 - seat;
    let refused = a.post_move(&id, Some(&tokens[other]), None, &mv).await;
    assert!(refused.status.is_client_error(), "{}", refused.body);

    let renamed = b
        .send(
            b.client
                .patch(format!("{}/v1/matches/{id}/seats/{other}", b.base))
                .bearer_auth(owner_token(&created))
                .json(&json!({"name": "Cleo"})),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);

    let finished = play_to_end(&a, &created).await;
    assert_eq!(finished["status"], "finished");
    let cleo = a.get("/v1/players/Cleo/stats", None).await;
    assert_eq!(cleo.status, StatusCode::OK, "{}", cleo.body);
    assert_eq!(cleo.body["overall"]["played"], 1, "{}", cleo.body);
    let old_name = if other == 0 { "Ann" } else { "Ben" };
    let before = a.get(&format!("/v1/players/{old_name}/stats"), None).await;
    assert_ne!(before.body["overall"]["played"], 1, "{}", before.body);
}

every_pipeline!(
    two_instances_moving_the_same_matches_in_turn_with_warm_caches_store_every_move_once
);
async fn two_instances_moving_the_same_matches_in_turn_with_warm_caches_store_every_move_once(
    pipeline: Pipeline,
) {
    let a = spawn_app_on(pipeline).await;
    let b = a.second_instance().await;
    let instances = [&a, &b];
    let mut matches = Vec::new();
    for _ in 0..3 {
        let created = new_match(&a).await;
        let start = created["match"]["version"].as_i64().unwrap();
        matches.push((created, start, 0_i64));
    }
    // Each match moves on A, then B, then A…, so each instance's copy is stale at every other
    // move; a stale copy must write nothing and play again from the stored match.
    for step in 0..60 {
        for (created, _, acknowledged) in matches.iter_mut() {
            let app = instances[step % 2];
            let id = match_id(created);
            let tokens = seat_tokens(created);
            if app.read_match(&id, None).await.body["status"] != "in_progress" {
                continue;
            }
            let (seat, mv, _) = turn(app, &id, &tokens).await;
            let reply = app.post_move(&id, Some(&tokens[seat]), None, &mv).await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            *acknowledged += reply.body["entries"].as_array().unwrap().len() as i64;
        }
    }
    let mut db = a.db().await;
    for (created, start, acknowledged) in &matches {
        let id = match_id(created);
        let stored: Vec<i64> = diesel_async::RunQueryDsl::load(
            diesel::sql_query(format!(
                "SELECT count(*) AS n FROM match_events WHERE match_id = '{id}'"
            )),
            &mut db,
        )
        .await
        .map(|rows: Vec<Count>| rows.into_iter().map(|r| r.n).collect())
        .unwrap();
        assert_eq!(stored, vec![start + acknowledged], "match {id}");
        let version = a.read_match(&id, None).await.body["version"].clone();
        assert_eq!(version, json!(start + acknowledged));
    }
    a.audit_snapshots().await;
}

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

/// What a move's append would be for this match, one ply on; `stale` read an older version.
pub(crate) async fn append_for(
    db: &mut diesel_async::AsyncPgConnection,
    id: &str,
    stale: bool,
    ply: Option<i64>,
) -> Append {
    let (row, _, tail) = matches::find_current(db, id.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    let version = tail.last().map_or(row.version, |event| event.ply);
    let now = chrono::Utc::now();
    Append {
        id: row.id,
        read_version: version - i64::from(stale),
        read_access_version: row.access_version,
        read_snapshot: row.version,
        version: version + 1,
        snapshot: None,
        now,
        events: vec![EventRow {
            match_id: row.id,
            ply: ply.unwrap_or(version + 1),
            seat: Some(0),
            payload: json!({"type": "draw"}),
            idempotency_key: None,
            request_hash: None,
            response: None,
            revises: None,
            reported_by: None,
            restores: None,
            created_at: now,
        }],
    }
}

/// The last ply of each match's log.
async fn last_plies(db: &mut diesel_async::AsyncPgConnection, ids: &[String]) -> Vec<i64> {
    let mut plies = Vec::new();
    for id in ids {
        let events = matches::events(db, id.parse().unwrap()).await.unwrap();
        plies.push(events.last().map_or(0, |event| event.ply));
    }
    plies
}

every_pipeline!(
    moves_appended_together_are_each_checked_and_one_failing_append_leaves_the_others_stored
);
async fn moves_appended_together_are_each_checked_and_one_failing_append_leaves_the_others_stored(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let mut ids = Vec::new();
    for _ in 0..5 {
        ids.push(match_id(&new_match(&app).await));
    }
    let mut db = app.db().await;
    let good = append_for(&mut db, &ids[0], false, None).await;
    // Ply 0 breaks the log's check, and so the whole statement.
    let failing = append_for(&mut db, &ids[1], false, Some(0)).await;
    let stale = append_for(&mut db, &ids[2], true, None).await;
    // Ply 1 is the deal, already stored: another instance got there first.
    let raced = append_for(&mut db, &ids[3], false, Some(1)).await;
    let also_good = append_for(&mut db, &ids[4], false, None).await;
    let before = last_plies(&mut db, &ids).await;

    let pool = test_pool(&app);
    let writes = GroupCommit::new(pool, solo(&app), 8, &tokio::runtime::Handle::current());
    let (good, failing, stale, raced, also_good) = tokio::join!(
        writes.write(good),
        writes.write(failing),
        writes.write(stale),
        writes.write(raced),
        writes.write(also_good),
    );
    assert!(good.unwrap());
    assert!(failing.is_err());
    assert!(
        !stale.unwrap(),
        "an append read at an old version stores nothing"
    );
    assert!(
        !raced.unwrap(),
        "an append whose ply is taken lost a race and stores nothing"
    );
    assert!(also_good.unwrap());
    assert_eq!(
        last_plies(&mut db, &ids).await,
        vec![
            before[0] + 1,
            before[1],
            before[2],
            before[3],
            before[4] + 1
        ]
    );
}

/// A pool of the test's own, like the service's shared one.
fn test_pool(app: &TestApp) -> Pool<AsyncPgConnection> {
    let manager = AsyncDieselConnectionManager::<AsyncPgConnection>::new(app.database_url());
    Pool::builder(manager).max_size(4).build().unwrap()
}

/// Connections of the test's thread, for what is sent alone.
fn solo(app: &TestApp) -> std::sync::Arc<SoloConnections> {
    let timeouts = referee::config::DatabaseTimeouts::default();
    std::sync::Arc::new(SoloConnections::new(&app.database_url(), timeouts))
}

every_pipeline!(
    an_append_that_finds_none_pending_goes_alone_on_its_threads_connection_and_the_rest_queue
);
/// A move with nothing to be written together with goes out at once on a connection its own
/// thread drives, without the hop to the writers' thread (issue 39); moves that arrive while it
/// is in flight queue for the shared writers as before, and every one is stored.
async fn an_append_that_finds_none_pending_goes_alone_on_its_threads_connection_and_the_rest_queue(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let mut ids = Vec::new();
    for _ in 0..4 {
        ids.push(match_id(&new_match(&app).await));
    }
    let mut db = app.db().await;
    let mut appends = Vec::new();
    for id in &ids {
        appends.push(append_for(&mut db, id, false, None).await);
    }
    let before = last_plies(&mut db, &ids).await;
    let (shared, solo) = (test_pool(&app), solo(&app));
    let writes = GroupCommit::new(
        shared.clone(),
        solo.clone(),
        8,
        &tokio::runtime::Handle::current(),
    );

    let first = appends.remove(0);
    assert!(writes.write(first).await.unwrap());
    assert_eq!(solo.pool().status().size, 1, "the lone move's connection");
    assert_eq!(shared.status().size, 0, "the writers were not asked");

    // The test's runtime has one thread: the first write is in flight before the others queue.
    let [a, b, c]: [_; 3] = appends.try_into().unwrap();
    let (a, b, c) = tokio::join!(writes.write(a), writes.write(b), writes.write(c));
    assert!(a.unwrap() && b.unwrap() && c.unwrap());
    assert!(
        shared.status().size >= 1,
        "the queued moves went to a writer"
    );
    assert_eq!(solo.pool().status().size, 1);
    let after = last_plies(&mut db, &ids).await;
    assert_eq!(after, before.iter().map(|ply| ply + 1).collect::<Vec<_>>());
}

every_pipeline!(a_warm_instance_reads_a_match_as_another_instance_moved_it_and_reissued_a_token);
/// A read is answered from the live copy only while the copy is the stored match (issue 39):
/// after a move or a token re-issued through another instance, the warm instance reads the
/// database, so it shows the move and no longer knows the old token.
async fn a_warm_instance_reads_a_match_as_another_instance_moved_it_and_reissued_a_token(
    pipeline: Pipeline,
) {
    let a = spawn_app_on(pipeline).await;
    let b = a.second_instance().await;
    let created = new_match(&a).await;
    let id = match_id(&created);
    let tokens = seat_tokens(&created);

    // A holds the match live after this move, and reads it from there.
    let (seat, _) = move_on(&a, &id, &tokens).await;
    let warm = a.read_match(&id, Some(&tokens[seat])).await.body;
    assert_eq!(warm, b.read_match(&id, Some(&tokens[seat])).await.body);

    let (seat, moved) = move_on(&b, &id, &tokens).await;
    let seen = a.read_match(&id, Some(&tokens[seat])).await.body;
    assert_eq!(seen["version"], moved["version"], "{seen}");
    assert_eq!(seen, b.read_match(&id, Some(&tokens[seat])).await.body);

    // A holds it live again, then B re-issues a seat's token.
    let (seat, _) = move_on(&a, &id, &tokens).await;
    let reissued = b
        .post(
            &format!("/v1/matches/{id}/seats/{seat}/token"),
            &json!({}),
            Some(&owner_token(&created)),
        )
        .await;
    assert_eq!(reissued.status, StatusCode::OK, "{}", reissued.body);
    let with_old = a.read_match(&id, Some(&tokens[seat])).await;
    assert_eq!(
        with_old.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        with_old.body
    );
    let new_token = reissued.body["token"].as_str().unwrap();
    let with_new = a.read_match(&id, Some(new_token)).await;
    assert_eq!(with_new.status, StatusCode::OK, "{}", with_new.body);
}

every_pipeline!(each_audience_reading_a_warm_match_again_gets_what_a_cold_instance_answers_it);
/// A read from a live copy is written out once per version and audience and kept for whoever asks
/// again (issue 39): each seat, a spectator and the owner, reading in turn and then again in the
/// other order, get the very bytes and tag that an instance reading the database gives them,
/// never another audience's (a seat's hidden cards), and never an answer from before a move.
async fn each_audience_reading_a_warm_match_again_gets_what_a_cold_instance_answers_it(
    pipeline: Pipeline,
) {
    let warm = spawn_app_on(pipeline).await;
    let cold = warm.second_instance().await;
    let created = new_match(&warm).await;
    let (id, tokens) = (match_id(&created), seat_tokens(&created));
    let owner = owner_token(&created);
    let audiences: Vec<Option<&str>> = vec![Some(&tokens[0]), Some(&tokens[1]), None, Some(&owner)];
    for _ in 0..2 {
        // The warm instance holds the match live after this move, at its new version.
        move_on(&warm, &id, &tokens).await;
        let firsts: Vec<_> = audiences.iter().chain(audiences.iter().rev()).collect();
        let mut bodies = Vec::new();
        for token in firsts {
            let (kept, stored) = (
                warm.read_match(&id, *token).await,
                cold.read_match(&id, *token).await,
            );
            assert_eq!(kept.status, StatusCode::OK, "{}", kept.body);
            assert_eq!(kept.body, stored.body, "as {token:?}");
            assert_eq!(kept.headers["etag"], stored.headers["etag"], "as {token:?}");
            bodies.push(kept.body);
        }
        assert_ne!(
            bodies[0]["view"], bodies[1]["view"],
            "each seat sees its own hand"
        );
    }
}

every_pipeline!(
    reads_of_several_warm_matches_at_once_are_each_checked_against_their_own_stored_match
);
/// Reads that arrive together may check their live copies with one probe statement (issue 39):
/// each still answers with its own match as stored, moved through the other instance or not.
async fn reads_of_several_warm_matches_at_once_are_each_checked_against_their_own_stored_match(
    pipeline: Pipeline,
) {
    let a = spawn_app_on(pipeline).await;
    let b = a.second_instance().await;
    let mut matches = Vec::new();
    for _ in 0..6 {
        let created = new_match(&a).await;
        let (id, tokens) = (match_id(&created), seat_tokens(&created));
        move_on(&a, &id, &tokens).await;
        matches.push((id, tokens));
    }
    for (id, tokens) in matches.iter().step_by(2) {
        move_on(&b, id, tokens).await;
    }
    let reads = matches.iter().map(|(id, _)| a.read_match(id, None));
    let seen = futures_util::future::join_all(reads).await;
    for ((id, _), seen) in matches.iter().zip(seen) {
        assert_eq!(seen.status, StatusCode::OK, "{}", seen.body);
        assert_eq!(seen.body, b.read_match(id, None).await.body, "match {id}");
    }
}

every_pipeline!(probes_sent_together_each_get_their_own_match_and_an_unknown_id_gets_none);
/// The grouped probe (issue 39) answers each read with its own match: probes queued before a
/// reader runs go out as one statement (the test's runtime has one thread: the first finds
/// nothing pending and goes alone, the other three are queued before a reader runs), and each
/// gets the row of its id.
async fn probes_sent_together_each_get_their_own_match_and_an_unknown_id_gets_none(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let mut ids = Vec::new();
    for moves in 0..3 {
        let created = new_match(&app).await;
        let (id, tokens) = (match_id(&created), seat_tokens(&created));
        for _ in 0..moves {
            move_on(&app, &id, &tokens).await;
        }
        ids.push(id);
    }
    let plies = last_plies(&mut app.db().await, &ids).await;
    let pool = test_pool(&app);
    let probes = GroupProbe::new(pool, solo(&app), 8, &tokio::runtime::Handle::current());
    let uuid = |id: &String| id.parse().unwrap();
    let (first, second, third, unknown) = tokio::join!(
        probes.probe(uuid(&ids[0])),
        probes.probe(uuid(&ids[1])),
        probes.probe(uuid(&ids[2])),
        probes.probe(uuid::Uuid::new_v4()),
    );
    let seen: Vec<i64> = [first, second, third]
        .into_iter()
        .map(|probe| probe.unwrap().expect("a stored match").last_ply.unwrap())
        .collect();
    assert_eq!(seen, plies);
    assert_ne!(plies[0], plies[2], "the matches stand at different plies");
    assert_eq!(unknown.unwrap(), None);
}

/// Prepares `statement` on a connection of its own to `url`, then runs `then` on it.
async fn prepared(url: &str, statement: &str, then: &str) -> Vec<String> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
        .batch_execute(&format!("PREPARE checked AS {statement}"))
        .await
        .unwrap();
    let messages = client.simple_query(then).await.unwrap();
    messages
        .iter()
        .filter_map(|message| match message {
            tokio_postgres::SimpleQueryMessage::Row(row) => row.get(0).map(str::to_owned),
            _ => None,
        })
        .collect()
}

/// The plan a connection keeps for `statement` (as JSON; its `parameters` null), made on a young
/// database: a fresh service's, holding three matches.
async fn kept_plan_on_a_young_database(statement: &str, parameters: usize) -> String {
    let app = spawn_app().await;
    for _ in 0..3 {
        new_match(&app).await;
    }
    let nulls = vec!["NULL"; parameters].join(", ");
    let explain = format!(
        "SET plan_cache_mode = force_generic_plan; EXPLAIN (FORMAT JSON) EXECUTE checked({nulls})"
    );
    prepared(&app.database_url(), statement, &explain)
        .await
        .concat()
}

/// A batch of moves checks and locks each match through its key (issue 39). Compared by `=`, the
/// status of the match had the planner choose the status index on a small table, and a
/// connection keeps its plan: every batch then walked every match in progress, a cost that grew
/// with the tables and not with the batch. The plan checked is the one a connection keeps.
#[tokio::test]
async fn a_batch_of_moves_finds_its_matches_by_key_not_by_walking_every_match_in_progress() {
    let plan =
        kept_plan_on_a_young_database(&referee::store::moves::batch::append_statement(), 18).await;
    assert!(plan.contains("\"matches_pkey\""), "{plan}");
    assert!(!plan.contains("matches_status_created_idx"), "{plan}");
}

/// The check of live copies keeps one plan for any number of matches (issue 39): given the array
/// itself, PostgreSQL planned every probe afresh for the length of its list, and the planning cost
/// more than the probe. After five executions it keeps a generic plan.
#[tokio::test]
async fn the_check_of_live_copies_keeps_one_plan_whatever_the_number_of_matches() {
    let app = spawn_app().await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        ids.push(format!("'{}'", match_id(&new_match(&app).await)));
    }
    let executions: String = (1..=ids.len())
        .map(|n| format!("EXECUTE checked(ARRAY[{}]::uuid[]); ", ids[..n].join(", ")))
        .collect();
    let plans = prepared(
        &app.database_url(),
        &referee::store::moves::probe::probe_statement(),
        &format!(
            "{executions} SELECT generic_plans FROM pg_prepared_statements WHERE name = 'checked'"
        ),
    )
    .await;
    assert_eq!(plans.last().map(String::as_str), Some("1"), "{plans:?}");
}

/// The check of live copies looks each match up by its key, whatever the tables held when a
/// connection made the plan it keeps (issue 39). As a plain join, the plan kept on a young
/// database hashed the list of ids and read all of `matches` on every probe.
#[tokio::test]
async fn the_check_of_live_copies_finds_each_match_by_key_not_by_reading_every_match() {
    let plan =
        kept_plan_on_a_young_database(&referee::store::moves::probe::probe_statement(), 1).await;
    assert!(plan.contains("\"matches_pkey\""), "{plan}");
    assert!(!plan.contains("\"Seq Scan\""), "{plan}");
    assert!(!plan.contains("\"Hash Join\""), "{plan}");
}

/// The recount of the running totals at a finish reads the finishing players' own results, by
/// their key, whatever the tables held when a connection made the plan it keeps (issue 39). On a
/// young database the kept plan found every match of the game in the space through the household
/// and game indexes, then kept the players' seats: a finish then cost more with every match
/// played by anyone.
#[tokio::test]
async fn the_recount_at_a_finish_reads_the_players_own_results_not_every_match_of_the_game() {
    let statement = referee::store::results::totals::recount_statement(true);
    let plan = kept_plan_on_a_young_database(&statement, 3).await;
    assert!(plan.contains("\"match_seats_player_key_idx\""), "{plan}");
    assert!(plan.contains("\"matches_pkey\""), "{plan}");
    assert!(!plan.contains("matches_household_created_idx"), "{plan}");
    assert!(!plan.contains("matches_game_created_idx"), "{plan}");
    assert!(!plan.contains("\"Seq Scan\""), "{plan}");
}
