//! Live streams of matches and sheets: every entry in order, resumption without gap or duplicate,
//! delivery across instances, heartbeats and caps. No test waits on a clock except heartbeats,
//! which are set to one second and awaited with a generous timeout.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{every_pipeline, spawn_app_on, spawn_app_tuned_on, Pipeline};
use crate::support::{
    match_id, owner_token, play_to_end, seat_token, seat_tokens, StreamEvent, TestApp,
};

/// Plays up to `moves` legal moves (a fixed pseudo-random choice); returns the version reached.
async fn play(app: &TestApp, created: &Value, moves: usize) -> i64 {
    play_with(app, &match_id(created), &seat_tokens(created), moves).await
}

/// [`play`] with these seat tokens.
async fn play_with(app: &TestApp, id: &str, tokens: &[String], moves: usize) -> i64 {
    let id = id.to_owned();
    let mut pick: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..moves {
        let public = app.read_match(&id, None).await.body;
        if public["status"] == "finished" {
            break;
        }
        let seat = public["to_act"][0].as_u64().unwrap() as usize;
        let mine = app.read_match(&id, Some(&tokens[seat])).await.body;
        let legal = mine["view"]["legal_moves"].as_array().unwrap();
        pick ^= pick << 13;
        pick ^= pick >> 7;
        pick ^= pick << 17;
        let chosen = &legal[(pick % legal.len() as u64) as usize];
        let reply = app
            .post_move(
                &id,
                Some(&tokens[seat]),
                Some(mine["version"].clone()),
                chosen,
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    app.read_match(&id, None).await.body["version"]
        .as_i64()
        .unwrap()
}

fn entries(events: &[StreamEvent]) -> Vec<Value> {
    events
        .iter()
        .filter(|e| e.kind == "entry")
        .map(|e| {
            assert_eq!(
                e.id,
                e.data["entry"]["ply"].as_i64(),
                "the id is the version"
            );
            e.data["entry"].clone()
        })
        .collect()
}

async fn log_entries(app: &TestApp, id: &str, token: Option<&str>) -> Vec<Value> {
    let log = app.get(&format!("/v1/matches/{id}/log"), token).await;
    assert_eq!(log.status, StatusCode::OK, "{}", log.body);
    log.body["entries"].as_array().unwrap().clone()
}

async fn new_match(app: &TestApp) -> Value {
    app.create_lucky_jack(&["Ann", "Ben", "Cy"], json!({"rounds": 3}), "server")
        .await
}

every_pipeline!(a_stream_sees_every_entry_of_a_full_match_in_order_and_ends);
async fn a_stream_sees_every_entry_of_a_full_match_in_order_and_ends(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    // A short game: the whole match is played.
    let created = app
        .create_match(
            "plus-minus",
            &["Ann", "Ben", "Cy"],
            json!({"rounds": 1}),
            "server",
        )
        .await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    let from_start = app
        .stream(
            &format!("/v1/matches/{id}/stream?after=0"),
            Some(&owner),
            &[],
        )
        .await
        .unwrap();
    let mut spectator = app
        .stream(&format!("/v1/matches/{id}/stream?format=ndjson"), None, &[])
        .await
        .unwrap();
    let opening = spectator.next().await.unwrap();
    assert_eq!(
        opening.kind, "view",
        "without a resume point, the view comes first"
    );
    assert_eq!(opening.data["match"]["viewer"], "spectator");

    // Live clients read as events come: one that stopped reading for long would be dropped.
    let from_start = tokio::spawn(async move {
        let mut from_start = from_start;
        from_start.until_closed().await
    });
    let watching = tokio::spawn(async move {
        let mut spectator = spectator;
        spectator.until_closed().await
    });
    let finished = play_to_end(&app, &created).await;
    let last = finished["version"].as_i64().unwrap();

    let seen = from_start.await.unwrap();
    let streamed = entries(&seen);
    let plies: Vec<i64> = streamed
        .iter()
        .map(|e| e["ply"].as_i64().unwrap())
        .collect();
    assert_eq!(
        plies,
        (1..=last).collect::<Vec<_>>(),
        "every entry once, in order; the stream ended with {:?}",
        seen.last()
    );
    assert_eq!(streamed, log_entries(&app, &id, Some(&owner)).await);
    let tail: Vec<&str> = seen.iter().rev().take(2).map(|e| e.kind.as_str()).collect();
    assert_eq!(
        tail,
        ["end", "view"],
        "the final view, then the end, then the stream closes"
    );
    assert_eq!(seen[seen.len() - 2].data["match"]["status"], "finished");
    assert_eq!(seen[seen.len() - 1].data["status"], "finished");

    let watched = watching.await.unwrap();
    let plies: Vec<i64> = entries(&watched)
        .iter()
        .map(|e| e["ply"].as_i64().unwrap())
        .collect();
    let first = opening.id.unwrap() + 1;
    assert_eq!(plies, (first..=last).collect::<Vec<_>>());
    assert_eq!(watched.last().unwrap().kind, "end");

    // A stream opened on a finished match sends what is asked for and ends at once.
    let late = app
        .stream(
            &format!("/v1/matches/{id}/stream?after={}", last - 1),
            None,
            &[],
        )
        .await
        .unwrap()
        .until_closed()
        .await;
    let kinds: Vec<&str> = late.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["entry", "view", "end"]);
}

every_pipeline!(a_dropped_stream_resumes_with_last_event_id_without_gap_or_duplicate);
async fn a_dropped_stream_resumes_with_last_event_id_without_gap_or_duplicate(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    let seat = seat_token(&created, 1);
    let path = format!("/v1/matches/{id}/stream?after=0");
    let mut first = app.stream(&path, Some(&seat), &[]).await.unwrap();
    let reached = play(&app, &created, 6).await;
    let before = first.until_view(reached).await;
    let last_id = before.last().unwrap().id.unwrap();
    drop(first);

    let end = play(&app, &created, 6).await;
    let resumed = app
        .stream(
            &path,
            Some(&seat),
            &[("Last-Event-ID", &last_id.to_string())],
        )
        .await
        .unwrap()
        .until_view(end)
        .await;
    let mut all = entries(&before);
    all.extend(entries(&resumed));
    let plies: Vec<i64> = all.iter().map(|e| e["ply"].as_i64().unwrap()).collect();
    assert_eq!(plies, (1..=end).collect::<Vec<_>>(), "no gap, no duplicate");
    assert_eq!(all, log_entries(&app, &id, Some(&seat)).await);
    assert_eq!(
        resumed.last().unwrap().data["match"]["viewer"],
        json!({"seat": 1})
    );
}

every_pipeline!(a_subscriber_on_one_instance_sees_a_move_made_through_another);
async fn a_subscriber_on_one_instance_sees_a_move_made_through_another(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let other = app.second_instance().await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    let path = format!("/v1/matches/{id}/stream");
    let mut on_a = app.stream(&path, None, &[]).await.unwrap();
    let mut on_b = other.stream(&path, None, &[]).await.unwrap();
    let start = on_b.next().await.unwrap().id.unwrap();
    on_a.next().await.unwrap();

    let reached = play(&app, &created, 1).await;
    assert!(reached > start);
    for stream in [&mut on_a, &mut on_b] {
        let seen = stream.until_view(reached).await;
        let plies: Vec<i64> = entries(&seen)
            .iter()
            .map(|e| e["ply"].as_i64().unwrap())
            .collect();
        assert_eq!(plies, (start + 1..=reached).collect::<Vec<_>>());
    }
}

every_pipeline!(heartbeats_keep_a_quiet_stream_open_in_both_formats);
async fn heartbeats_keep_a_quiet_stream_open_in_both_formats(pipeline: Pipeline) {
    let app = spawn_app_tuned_on(pipeline, |s| {
        s.live.heartbeat = std::time::Duration::from_secs(1)
    })
    .await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    for query in ["", "?format=ndjson"] {
        let mut stream = app
            .stream(&format!("/v1/matches/{id}/stream{query}"), None, &[])
            .await
            .unwrap();
        assert_eq!(stream.next().await.unwrap().kind, "view");
        let beat = stream.next().await.unwrap();
        assert_eq!(beat.kind, "heartbeat", "{query}");
        if query.is_empty() {
            assert!(stream.text.contains("\n: heartbeat\n\n"), "an SSE comment");
        } else {
            assert_eq!(beat.data, json!({"type": "heartbeat"}));
        }
    }
}

every_pipeline!(streams_over_a_cap_are_refused_with_a_problem_and_counted);
async fn streams_over_a_cap_are_refused_with_a_problem_and_counted(pipeline: Pipeline) {
    let app = spawn_app_tuned_on(pipeline, |s| {
        s.live.streams_per_match = 1;
        s.live.streams_per_instance = Some(2);
    })
    .await;
    let one = match_id(&new_match(&app).await);
    let two = match_id(&new_match(&app).await);
    let three = match_id(&new_match(&app).await);
    let _held = app
        .stream(&format!("/v1/matches/{one}/stream"), None, &[])
        .await
        .unwrap();
    let Err(refused) = app
        .stream(&format!("/v1/matches/{one}/stream"), None, &[])
        .await
    else {
        panic!("a second stream on the match is over its cap");
    };
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.body["code"], "too_many_streams");
    assert!(refused.headers.contains_key("retry-after"));
    let _also_held = app
        .stream(&format!("/v1/matches/{two}/stream"), None, &[])
        .await
        .unwrap();
    let Err(full) = app
        .stream(&format!("/v1/matches/{three}/stream"), None, &[])
        .await
    else {
        panic!("a third stream is over the instance's cap");
    };
    assert_eq!(full.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(full.body["code"], "stream_capacity");

    let metrics = app.get("/metrics", None).await.body;
    let metrics = metrics.as_str().unwrap();
    assert!(metrics.contains("referee_live_streams_open"), "{metrics}");
    assert!(metrics.contains("referee_live_streams_dropped_total{reason=\"match_full\"}"));
    assert!(metrics.contains("referee_live_events_total{type=\"view\"}"));
}

every_pipeline!(a_stream_refuses_what_a_read_would);
async fn a_stream_refuses_what_a_read_would(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let id = match_id(&new_match(&app).await);
    let cases = [
        (
            format!("/v1/matches/{id}/stream"),
            Some("not-a-token"),
            "",
            StatusCode::UNAUTHORIZED,
        ),
        (
            format!("/v1/matches/{}/stream", uuid::Uuid::new_v4()),
            None,
            "",
            StatusCode::NOT_FOUND,
        ),
        (
            format!("/v1/matches/{id}/stream"),
            None,
            "x",
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/v1/matches/{id}/stream?after=-1"),
            None,
            "",
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/v1/matches/{id}/stream?format=xml"),
            None,
            "",
            StatusCode::BAD_REQUEST,
        ),
    ];
    for (path, token, last_event_id, status) in cases {
        let headers: Vec<(&str, &str)> = if last_event_id.is_empty() {
            vec![]
        } else {
            vec![("Last-Event-ID", last_event_id)]
        };
        let Err(refused) = app.stream(&path, token, &headers).await else {
            panic!("{path} is refused");
        };
        assert_eq!(refused.status, status, "{path}: {}", refused.body);
        assert_eq!(refused.headers["content-type"], "application/problem+json");
    }
}

every_pipeline!(a_sheet_stream_sends_each_entry_and_the_new_standings);
async fn a_sheet_stream_sends_each_entry_and_the_new_standings(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let reply = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": [{"name": "Mum"}, {"name": "Dad"}], "options": {"rounds": 3}}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let id = reply.body["sheet"]["id"].as_str().unwrap().to_owned();
    let token = owner_token(&reply.body);
    let mut stream = app
        .stream(&format!("/v1/sheets/{id}/stream?format=ndjson"), None, &[])
        .await
        .unwrap();
    assert_eq!(stream.next().await.unwrap().id, Some(0));
    for tally in [
        json!({"jackpot": {"seat": 0, "symbol": "bell", "size": 3}}),
        json!({"jackpot": null}),
        json!({"jackpot": null}),
    ] {
        let entered = app
            .post(
                &format!("/v1/sheets/{id}/entries"),
                &json!({"tally": tally}),
                Some(&token),
            )
            .await;
        assert_eq!(entered.status, StatusCode::OK, "{}", entered.body);
    }
    let seen = stream.until_view(3).await;
    let seqs: Vec<i64> = seen
        .iter()
        .filter(|e| e.kind == "entry")
        .map(|e| e.data["entry"]["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs, [1, 2, 3]);
    let view = &seen.last().unwrap().data["sheet"];
    assert_eq!(view["status"], "finished");
    assert_eq!(view["standings"]["totals"], json!([5000, 0]));
}

every_pipeline!(a_renamed_seat_sends_a_new_view_and_an_abandoned_match_ends_its_streams);
async fn a_renamed_seat_sends_a_new_view_and_an_abandoned_match_ends_its_streams(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    let mut stream = app
        .stream(&format!("/v1/matches/{id}/stream"), None, &[])
        .await
        .unwrap();
    let opening = stream.next().await.unwrap();
    let before = app.get(&format!("/v1/matches/{id}"), None).await;
    let tag = before.headers["etag"].to_str().unwrap().to_owned();

    let renamed = app
        .send(
            app.client
                .patch(format!("{}/v1/matches/{id}/seats/1", app.base))
                .bearer_auth(&owner)
                .json(&json!({"name": "Bea"})),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    let view = stream.next().await.unwrap();
    assert_eq!(view.kind, "view");
    assert_eq!(view.id, opening.id, "a rename makes no new version");
    assert_eq!(view.data["match"]["seats"][1]["name"], "Bea");
    let after = app
        .send(
            app.client
                .get(format!("{}/v1/matches/{id}", app.base))
                .header("If-None-Match", &tag),
        )
        .await;
    assert_eq!(
        after.status,
        StatusCode::OK,
        "the old tag no longer matches"
    );

    let abandoned = app
        .post(
            &format!("/v1/matches/{id}/abandon"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(abandoned.status, StatusCode::OK, "{}", abandoned.body);
    let rest = stream.until_closed().await;
    let kinds: Vec<&str> = rest.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["view", "end"]);
    assert_eq!(rest[1].data["status"], "abandoned");
}

every_pipeline!(
    spectators_of_one_match_cost_one_read_of_what_is_new_per_change_however_many_they_are
);
async fn spectators_of_one_match_cost_one_read_of_what_is_new_per_change_however_many_they_are(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    let mut spectators = Vec::new();
    for n in 0..16 {
        let format = if n % 2 == 0 { "" } else { "?format=ndjson" };
        let mut stream = app
            .stream(&format!("/v1/matches/{id}/stream{format}"), None, &[])
            .await
            .unwrap();
        let opening = stream.next().await.unwrap();
        assert_eq!(opening.kind, "view");
        spectators.push((opening.id.unwrap(), stream));
    }
    let before = app.feeds.reads();

    let moves = 6;
    let reached = play(&app, &created, moves).await;
    let mut seen = Vec::new();
    for (start, stream) in &mut spectators {
        let events = stream.until_view(reached).await;
        let plies: Vec<i64> = entries(&events)
            .iter()
            .map(|e| e["ply"].as_i64().unwrap())
            .collect();
        assert_eq!(plies, (*start + 1..=reached).collect::<Vec<_>>());
        seen.push(entries(&events));
    }
    assert!(
        seen.windows(2).all(|pair| pair[0] == pair[1]),
        "every spectator sees the same entries"
    );
    let reads = app.feeds.reads() - before;
    // One read per move (each is one commit, so one notice), however many streams; one more at
    // most if the change listener (re)connected meanwhile, which has every feed read again.
    assert!(
        (1..=moves as u64 + 1).contains(&reads),
        "{reads} reads for {moves} moves and {} streams",
        spectators.len()
    );
}

every_pipeline!(a_stream_resumed_behind_the_feed_gets_every_entry_once_in_order);
async fn a_stream_resumed_behind_the_feed_gets_every_entry_once_in_order(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    let seat = seat_token(&created, 1);
    // A spectator keeps the match's feed going, ahead of the stream resumed below.
    let mut watcher = app
        .stream(&format!("/v1/matches/{id}/stream"), None, &[])
        .await
        .unwrap();
    let start = watcher.next().await.unwrap().id.unwrap();
    let middle = play(&app, &created, 4).await;
    assert!(middle > start);
    watcher.until_view(middle).await;

    let mut resumed = app
        .stream(
            &format!("/v1/matches/{id}/stream?format=ndjson"),
            Some(&seat),
            &[("Last-Event-ID", &start.to_string())],
        )
        .await
        .unwrap();
    let caught_up = resumed.until_view(middle).await;
    let end = play(&app, &created, 4).await;
    let live = resumed.until_view(end).await;

    let mut all = entries(&caught_up);
    all.extend(entries(&live));
    let plies: Vec<i64> = all.iter().map(|e| e["ply"].as_i64().unwrap()).collect();
    assert_eq!(
        plies,
        (start + 1..=end).collect::<Vec<_>>(),
        "no gap, no duplicate"
    );
    let logged: Vec<Value> = log_entries(&app, &id, Some(&seat))
        .await
        .into_iter()
        .filter(|e| e["ply"].as_i64().unwrap() > start)
        .collect();
    assert_eq!(all, logged, "as the seat's log shows them");
    assert_eq!(
        live.last().unwrap().data["match"]["viewer"],
        json!({"seat": 1})
    );
}

every_pipeline!(
    a_seat_stream_ends_with_an_error_once_its_token_is_reissued_and_the_new_token_streams_on
);
async fn a_seat_stream_ends_with_an_error_once_its_token_is_reissued_and_the_new_token_streams_on(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    let owner = owner_token(&created);
    let mut tokens = seat_tokens(&created);
    let path = format!("/v1/matches/{id}/stream?format=ndjson");
    let mut old = app.stream(&path, Some(&tokens[1]), &[]).await.unwrap();
    let start = old.next().await.unwrap().id.unwrap();

    let reissued = app
        .post(
            &format!("/v1/matches/{id}/seats/1/token"),
            &json!({}),
            Some(&owner),
        )
        .await;
    assert_eq!(reissued.status, StatusCode::OK, "{}", reissued.body);
    tokens[1] = reissued.body["token"].as_str().unwrap().to_owned();
    let mut new = app.stream(&path, Some(&tokens[1]), &[]).await.unwrap();
    assert_eq!(new.next().await.unwrap().kind, "view");

    let reached = play_with(&app, &id, &tokens, 2).await;
    let rest = old.until_closed().await;
    let kinds: Vec<&str> = rest.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(
        kinds,
        ["error"],
        "nothing new for the old token, then the end"
    );
    assert_eq!(rest[0].data["problem"]["status"], 401);
    let seen = new.until_view(reached).await;
    let plies: Vec<i64> = entries(&seen)
        .iter()
        .map(|e| e["ply"].as_i64().unwrap())
        .collect();
    assert_eq!(plies, (start + 1..=reached).collect::<Vec<_>>());
}

every_pipeline!(streams_opened_while_moves_land_get_every_entry_once_in_order);
async fn streams_opened_while_moves_land_get_every_entry_once_in_order(pipeline: Pipeline) {
    // All from one address, as many as the match takes.
    let app = spawn_app_tuned_on(pipeline, |s| s.live.streams_per_client = 64).await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    // The moves go through another instance, while streams open on this one, one after the
    // other: each joins the feed at whatever point it has reached.
    let other = app.second_instance().await;
    let playing = {
        let created = created.clone();
        tokio::spawn(async move { play(&other, &created, 12).await })
    };
    let path = format!("/v1/matches/{id}/stream?after=0&format=ndjson");
    let mut streams = Vec::new();
    // At least two, and fewer than the cap of 64 per match however long the moves take.
    while (!playing.is_finished() && streams.len() < 48) || streams.len() < 2 {
        streams.push(app.stream(&path, None, &[]).await.unwrap());
    }
    let end = playing.await.unwrap();
    let logged = log_entries(&app, &id, None).await;
    for stream in &mut streams {
        let seen = stream.until_view(end).await;
        assert_eq!(entries(&seen), logged, "every entry once, in order");
    }
}

every_pipeline!(
    a_stream_opened_while_its_feed_has_a_notice_still_to_read_starts_with_the_log_not_an_old_view
);
async fn a_stream_opened_while_its_feed_has_a_notice_still_to_read_starts_with_the_log_not_an_old_view(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    let seat = seat_token(&created, 1);
    let mut watcher = app
        .stream(&format!("/v1/matches/{id}/stream"), None, &[])
        .await
        .unwrap();
    let start = watcher.next().await.unwrap().id.unwrap();
    // Moves whose notices never come: the feed stays at `start` while the match moves on.
    app.sql("ALTER TABLE match_events DISABLE TRIGGER match_events_notify_change")
        .await;
    let moved = play(&app, &created, 3).await;
    app.sql("ALTER TABLE match_events ENABLE TRIGGER match_events_notify_change")
        .await;
    assert!(moved > start);

    let mut stream = app
        .stream(
            &format!("/v1/matches/{id}/stream?after={start}&format=ndjson"),
            Some(&seat),
            &[],
        )
        .await
        .unwrap();
    let first = stream.next().await.unwrap();
    assert_eq!(
        first.kind, "entry",
        "the log comes first, not the feed's older view"
    );
    // The next move's notice brings the feed up to date, and the stream goes on from there.
    let end = play(&app, &created, 1).await;
    let mut seen = vec![first];
    seen.extend(stream.until_view(end).await);
    let plies: Vec<i64> = entries(&seen)
        .iter()
        .map(|e| e["ply"].as_i64().unwrap())
        .collect();
    assert_eq!(
        plies,
        (start + 1..=end).collect::<Vec<_>>(),
        "no gap, no duplicate"
    );
    let views: Vec<i64> = seen
        .iter()
        .filter(|e| e.kind == "view")
        .map(|e| e.id.unwrap())
        .collect();
    assert!(
        views.iter().all(|v| *v >= moved),
        "no view older than the match: {views:?}"
    );
}
