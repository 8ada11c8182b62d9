//! The move log (issue 24): a move appends its events and nothing else until a snapshot is due,
//! reads rebuild the match from the newest snapshot and the events after it, and a commit of
//! several moves tells the other instances once.

use diesel::QueryableByName;
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::pooled_connection::AsyncDieselConnectionManager;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use futures_util::future::poll_fn;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio_postgres::AsyncMessage;

use referee::store::moves::batch::{append_moves, Append};
use referee::store::watches;

use crate::moves_cache::append_for;
use crate::support::*;

#[derive(QueryableByName)]
struct Snapshot {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    version: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    logged: i64,
    #[diesel(sql_type = diesel::sql_types::Text)]
    state: String,
}

async fn snapshot(db: &mut AsyncPgConnection, id: &str) -> Snapshot {
    diesel::sql_query(
        "SELECT version, state::text AS state, \
                (SELECT max(ply) FROM match_events WHERE match_id = $1) AS logged \
         FROM matches WHERE id = $1",
    )
    .bind::<diesel::sql_types::Uuid, _>(id.parse::<uuid::Uuid>().unwrap())
    .get_result(db)
    .await
    .unwrap()
}

/// A server-dealt Lucky Jack match of Ann and Ben: its id, seat tokens and owner token.
async fn ann_and_ben(app: &TestApp) -> (String, Vec<String>, String) {
    let created = app
        .create_lucky_jack(
            &["Ann", "Ben"],
            json!({"rounds": 3, "max_turns_per_round": 40}),
            "server",
        )
        .await;
    (
        match_id(&created),
        seat_tokens(&created),
        owner_token(&created),
    )
}

/// Plays the first legal move of whoever is to act; the reply's body.
async fn play_one(app: &TestApp, id: &str, tokens: &[String]) -> Value {
    let seen = app.read_match(id, None).await.body;
    let seat = seen["to_act"][0].as_u64().expect("someone may act") as usize;
    let mine = app.read_match(id, Some(&tokens[seat])).await.body;
    let mv = mine["view"]["legal_moves"][0].clone();
    let reply = app
        .post_move(id, Some(&tokens[seat]), Some(mine["version"].clone()), &mv)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body
}

every_pipeline!(a_move_appends_its_events_and_rewrites_the_match_row_only_when_a_snapshot_is_due);
async fn a_move_appends_its_events_and_rewrites_the_match_row_only_when_a_snapshot_is_due(
    pipeline: Pipeline,
) {
    // Docs: docs/configuration.md, SNAPSHOT_EVERY_PLIES.
    let every = 4;
    let app = spawn_app_tuned_on(pipeline, |settings| settings.moves.snapshot_every = every).await;
    let (id, tokens, _) = ann_and_ben(&app).await;
    let mut db = app.db().await;
    let mut before = snapshot(&mut db, &id).await;
    let mut snapshots_written = 0;
    for _ in 0..24 {
        let reply = play_one(&app, &id, &tokens).await;
        let after = snapshot(&mut db, &id).await;
        assert_eq!(after.logged, reply["version"].as_i64().unwrap());
        if reply["status"] != "in_progress" {
            assert_eq!(
                after.version, after.logged,
                "a match that ends is snapshotted"
            );
            break;
        }
        if after.logged - before.version >= every {
            assert_eq!(after.version, after.logged, "the snapshot was due");
            snapshots_written += 1;
        } else {
            assert_eq!(
                after.version, before.version,
                "no snapshot before it is due"
            );
            assert_eq!(after.state, before.state, "the stored state is left alone");
        }
        // Whatever the snapshot, every read answers the match as it stands.
        let read = app.read_match(&id, None).await.body;
        assert_eq!(read["version"], reply["version"]);
        before = after;
    }
    assert!(snapshots_written >= 2, "moves went past several snapshots");
    app.audit_snapshots().await;
}

every_pipeline!(a_match_read_with_events_beyond_its_snapshot_is_rebuilt_from_them_for_every_reader);
async fn a_match_read_with_events_beyond_its_snapshot_is_rebuilt_from_them_for_every_reader(
    pipeline: Pipeline,
) {
    let app = spawn_app_tuned_on(pipeline, |settings| settings.moves.snapshot_every = 1000).await;
    let (id, tokens, _) = ann_and_ben(&app).await;
    for _ in 0..6 {
        play_one(&app, &id, &tokens).await;
    }
    // A second instance has nothing cached: it reads the snapshot (still the deal) and the log.
    let other = app.second_instance().await;
    let here = app.read_match(&id, Some(&tokens[0])).await.body;
    let there = other.read_match(&id, Some(&tokens[0])).await.body;
    assert_eq!(here, there);
    let mut db = app.db().await;
    assert!(snapshot(&mut db, &id).await.version < here["version"].as_i64().unwrap());
    // It was last changed by its last event, not by its snapshot's write.
    let log = app.get(&format!("/v1/matches/{id}/log"), None).await.body;
    let last = log["entries"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(here["updated_at"], last["at"]);
    // And it moves on from there.
    play_one(&other, &id, &tokens).await;
    app.audit_snapshots().await;
}

every_pipeline!(a_log_page_deep_in_a_match_replays_from_the_snapshot_kept_before_it);
async fn a_log_page_deep_in_a_match_replays_from_the_snapshot_kept_before_it(pipeline: Pipeline) {
    // Docs: docs/configuration.md, SNAPSHOT_EVERY_PLIES (issue 39: "a page replays from the
    // nearest snapshot, not from ply 1").
    let app = spawn_app_tuned_on(pipeline, |settings| settings.moves.snapshot_every = 4).await;
    let (id, tokens, owner) = ann_and_ben(&app).await;
    for _ in 0..16 {
        if play_one(&app, &id, &tokens).await["status"] != "in_progress" {
            break;
        }
    }
    let log = async |after: i64| {
        app.get(&format!("/v1/matches/{id}/log?after={after}"), Some(&owner))
            .await
    };
    let whole = log(0).await.body;
    let ply = async |n: i64| {
        app.get(&format!("/v1/matches/{id}/plies/{n}"), Some(&owner))
            .await
    };
    let mut db = app.db().await;
    #[derive(QueryableByName)]
    struct Kept {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        ply: i64,
    }
    let kept: Vec<Kept> =
        diesel::sql_query("SELECT ply FROM match_snapshots WHERE match_id = $1 ORDER BY ply")
            .bind::<diesel::sql_types::Uuid, _>(id.parse::<uuid::Uuid>().unwrap())
            .load(&mut db)
            .await
            .unwrap();
    assert!(kept.len() >= 2, "moves went past several snapshots");
    let deep = kept[1].ply;
    let view_after = ply(deep + 1).await.body;
    // The plies before the second kept snapshot go (the test steps around the log's append-only
    // guard): a page after it and a ply beyond it read the same without them, and a page
    // before it cannot be read any more.
    for statement in [
        "ALTER TABLE match_events DISABLE TRIGGER match_events_append_only",
        &format!("DELETE FROM match_events WHERE match_id = '{id}' AND ply <= {deep}"),
        "ALTER TABLE match_events ENABLE TRIGGER match_events_append_only",
    ] {
        diesel::sql_query(statement).execute(&mut db).await.unwrap();
    }
    let page = log(deep).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert_eq!(
        page.body["entries"].as_array().unwrap()[..],
        whole["entries"].as_array().unwrap()[deep as usize..]
    );
    assert_eq!(ply(deep + 1).await.body, view_after);
    assert_eq!(
        log(kept[0].ply - 1).await.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "a page before the kept snapshot still reads the plies it needs"
    );
}

every_pipeline!(
    moves_to_several_followed_matches_committed_together_send_one_change_notice_naming_them_and_no_other
);
/// A batch of moves is one notice naming every match it moved that some feed follows (holds a
/// lease in force on), and no other match (issue 39).
async fn moves_to_several_followed_matches_committed_together_send_one_change_notice_naming_them_and_no_other(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let mut expected = Vec::new();
    let mut db = app.db().await;
    let mut appends = Vec::new();
    // Followed, not followed, or followed once: a lease that has lapsed announces nothing.
    for lease in ["held", "held", "none", "lapsed", "held"] {
        let created = app
            .create_lucky_jack(&["Ann", "Ben"], json!({"rounds": 3}), "server")
            .await;
        let append = append_for(&mut db, &match_id(&created), false, None).await;
        assert_eq!(
            append.read_snapshot, append.read_version,
            "a new match's log is its snapshot"
        );
        if lease != "none" {
            assert!(watches::watch(&mut db, append.id).await.unwrap());
        }
        if lease == "lapsed" {
            diesel::sql_query(
                "UPDATE match_watches SET until = now() - interval '1 second' WHERE match_id = $1",
            )
            .bind::<diesel::sql_types::Uuid, _>(append.id)
            .execute(&mut db)
            .await
            .unwrap();
        }
        if lease == "held" {
            expected.push(format!("{}:{}", append.id, append.version));
        }
        appends.push(append);
    }

    let (_listening, mut heard) = listen(&app).await;

    // One statement, one commit: the five moves as one batch.
    let manager = AsyncDieselConnectionManager::<AsyncPgConnection>::new(app.database_url());
    let pool = Pool::builder(manager).max_size(2).build().unwrap();
    let mut conn = pool.get().await.unwrap();
    let batch: Vec<&Append> = appends.iter().collect();
    let stored = append_moves(&mut conn, &batch).await.unwrap();
    assert_eq!(stored, vec![true; 5]);
    let received = heard_until_now(&mut conn, &mut heard).await;
    // A score sheet takes no lease: its changes are announced by its own row, always.
    let sheet = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": [{"name": "Ann"}, {"name": "Ben"}]}),
            None,
        )
        .await;
    assert_eq!(sheet.status, StatusCode::CREATED, "{}", sheet.body);
    let sheet_id = sheet.body["sheet"]["id"].as_str().unwrap().parse().unwrap();
    assert!(!watches::watch(&mut db, sheet_id).await.unwrap());
    assert_eq!(received.len(), 1, "one notice for the commit: {received:?}");
    let mut named: Vec<String> = received[0].split(',').map(str::to_owned).collect();
    named.sort();
    expected.sort();
    assert_eq!(named, expected);
}

/// A connection listening for change notices, and what it hears.
async fn listen(app: &TestApp) -> (tokio_postgres::Client, UnboundedReceiver<String>) {
    let (client, mut connection) =
        tokio_postgres::connect(&app.database_url(), tokio_postgres::NoTls)
            .await
            .unwrap();
    let (notices, heard) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(Ok(message)) = poll_fn(|cx| connection.poll_message(cx)).await {
            if let AsyncMessage::Notification(notice) = message {
                let _ = notices.send(notice.payload().to_owned());
            }
        }
    });
    client
        .batch_execute("LISTEN referee_changes")
        .await
        .unwrap();
    (client, heard)
}

/// The notices heard for everything committed so far: notices arrive in commit order, so one
/// sent now closes them.
async fn heard_until_now(
    conn: &mut AsyncPgConnection,
    heard: &mut UnboundedReceiver<String>,
) -> Vec<String> {
    diesel::sql_query("NOTIFY referee_changes, 'end'")
        .execute(conn)
        .await
        .unwrap();
    let mut received = Vec::new();
    while let Some(payload) = heard.recv().await {
        if payload == "end" {
            break;
        }
        received.push(payload);
    }
    received
}

/// Waits until some statement on the database waits for a lock another transaction holds.
async fn until_one_waits_for_a_lock(db: &mut AsyncPgConnection) {
    for _ in 0..1_000 {
        let waiting: Count = diesel::sql_query(
            "SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'",
        )
        .get_result(db)
        .await
        .unwrap();
        if waiting.n > 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("no statement waited for the lock");
}

/// A new Lucky Jack match's next move, as appended, and a connection to its database.
async fn a_new_match_and_its_next_move(app: &TestApp) -> (AsyncPgConnection, Append) {
    let created = app
        .create_lucky_jack(&["Ann", "Ben"], json!({"rounds": 3}), "server")
        .await;
    let mut db = app.db().await;
    let append = append_for(&mut db, &match_id(&created), false, None).await;
    (db, append)
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

every_pipeline!(a_feed_that_starts_while_a_move_is_being_appended_waits_for_its_commit);
/// Moves are announced only for followed matches (issue 39), so a feed must never start between a
/// move that found no lease and that move's commit: taking the lease waits for every writer of
/// the match in flight, and the feed's first read, made after it, then holds their moves.
async fn a_feed_that_starts_while_a_move_is_being_appended_waits_for_its_commit(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let (mut db, append) = a_new_match_and_its_next_move(&app).await;
    let mut writer = app.db().await;
    diesel::sql_query("BEGIN")
        .execute(&mut writer)
        .await
        .unwrap();
    assert_eq!(append_moves(&mut writer, &[&append]).await.unwrap(), [true]);

    let url = app.database_url();
    let leasing = tokio::spawn(async move {
        let mut conn = AsyncPgConnection::establish(&url).await.unwrap();
        watches::watch(&mut conn, append.id).await.unwrap()
    });
    until_one_waits_for_a_lock(&mut db).await;
    assert!(
        !leasing.is_finished(),
        "the lease waits for the move in flight"
    );
    diesel::sql_query("COMMIT")
        .execute(&mut writer)
        .await
        .unwrap();
    assert!(leasing.await.unwrap());
}

every_pipeline!(a_move_appended_while_its_match_is_being_leased_waits_and_is_announced);
/// The other order: a move that reaches the match while a feed is taking its lease waits for the
/// lease's commit, and its notice sees the lease (the trigger reads the leases afresh, not as
/// they stood when the move's statement began).
async fn a_move_appended_while_its_match_is_being_leased_waits_and_is_announced(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let (mut db, append) = a_new_match_and_its_next_move(&app).await;
    let expected = format!("{}:{}", append.id, append.version);
    let (_listening, mut heard) = listen(&app).await;
    let mut leaser = app.db().await;
    diesel::sql_query("BEGIN")
        .execute(&mut leaser)
        .await
        .unwrap();
    assert!(watches::watch(&mut leaser, append.id).await.unwrap());

    let url = app.database_url();
    let appending = tokio::spawn(async move {
        let mut conn = AsyncPgConnection::establish(&url).await.unwrap();
        append_moves(&mut conn, &[&append]).await.unwrap()
    });
    until_one_waits_for_a_lock(&mut db).await;
    assert!(!appending.is_finished(), "the move waits for the lease");
    diesel::sql_query("COMMIT")
        .execute(&mut leaser)
        .await
        .unwrap();
    assert_eq!(appending.await.unwrap(), [true]);
    assert_eq!(heard_until_now(&mut db, &mut heard).await, [expected]);
}
