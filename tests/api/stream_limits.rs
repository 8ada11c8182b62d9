//! What one client can hold of the live streams, and how soon a stream's place is freed: caps
//! per client address and per token, seats and owners beside spectators, closed and stalled
//! connections, resume points ahead of the match, and re-issued tokens.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::{every_pipeline, spawn_app_tuned_on, Pipeline};
use crate::support::{
    match_id, owner_token, seat_tokens, spawn_app_tuned, EventStream, Reply, TestApp,
};

async fn new_match(app: &TestApp) -> Value {
    app.create_lucky_jack(&["Ann", "Ben", "Cy"], json!({"rounds": 3}), "server")
        .await
}

/// Opens a stream as the client at `address` (through the trusted local proxy).
async fn stream_from(
    app: &TestApp,
    path: &str,
    address: &str,
    token: Option<&str>,
) -> Result<EventStream, Reply> {
    app.stream(path, token, &[("X-Forwarded-For", address)])
        .await
}

fn refused(opened: Result<EventStream, Reply>, why: &str) -> Reply {
    match opened {
        Ok(_) => panic!("{why}"),
        Err(reply) => reply,
    }
}

every_pipeline!(
    one_address_that_fills_its_streams_leaves_health_checks_reads_and_other_addresses_served
);
async fn one_address_that_fills_its_streams_leaves_health_checks_reads_and_other_addresses_served(
    pipeline: Pipeline,
) {
    let app = spawn_app_tuned_on(pipeline, |s| {
        s.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        s.live.streams_per_client = 2;
        // One worker of 16 connections: at most 8 streams, whatever is configured.
        s.max_connections = 16;
        s.live.streams_per_instance = Some(1000);
    })
    .await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    let path = format!("/v1/matches/{id}/stream");
    let mut held = Vec::new();
    for _ in 0..2 {
        held.push(
            stream_from(&app, &path, "198.51.100.7", None)
                .await
                .unwrap(),
        );
    }
    let over = refused(
        stream_from(&app, &path, "198.51.100.7", None).await,
        "a third stream from one address is over its cap",
    );
    assert_eq!(over.status, StatusCode::TOO_MANY_REQUESTS, "{}", over.body);
    assert_eq!(over.body["code"], "client_stream_limit");
    assert!(over.headers.contains_key("retry-after"));

    assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK);
    assert_eq!(app.read_match(&id, None).await.status, StatusCode::OK);
    let other = stream_from(&app, &path, "203.0.113.9", None).await;
    assert!(other.is_ok(), "another address still streams");
    held.push(other.unwrap());

    // Spectators get three quarters of the 8 streams; the rest waits for owners and seats.
    for n in 0..3 {
        held.push(
            stream_from(&app, &path, &format!("192.0.2.{n}"), None)
                .await
                .unwrap(),
        );
    }
    let full = refused(
        stream_from(&app, &path, "192.0.2.200", None).await,
        "spectators have taken their share of the instance",
    );
    assert_eq!(full.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(full.body["code"], "stream_capacity");
    assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK);
    assert_eq!(app.read_match(&id, None).await.status, StatusCode::OK);
    // Spectators at an address never hold its players out, nor spectators everywhere its
    // seats: a seat streaming from the address whose spectators are at their cap, with the
    // instance's spectator share taken, finds the allowance and the quarter kept for players.
    let seat = stream_from(&app, &path, "198.51.100.7", Some(&seat_tokens(&created)[0])).await;
    assert!(seat.is_ok(), "a seat streams from a spectator-full address");
}

#[tokio::test]
async fn spectators_that_fill_a_match_leave_its_seats_and_owner_streaming() {
    let app = spawn_app_tuned(|s| {
        s.live.streams_per_match = 2;
    })
    .await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    let path = format!("/v1/matches/{id}/stream");
    let _a = app.stream(&path, None, &[]).await.unwrap();
    let _b = app.stream(&path, None, &[]).await.unwrap();
    let full = refused(
        app.stream(&path, None, &[]).await,
        "spectators have filled the match",
    );
    assert_eq!(full.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(full.body["code"], "too_many_streams");

    let tokens = seat_tokens(&created);
    let mut seat = app.stream(&path, Some(&tokens[0]), &[]).await.unwrap();
    assert_eq!(seat.next().await.unwrap().kind, "view");
    let mut owner = app
        .stream(&path, Some(&owner_token(&created)), &[])
        .await
        .unwrap();
    assert_eq!(owner.next().await.unwrap().kind, "view");

    // A token is counted on its own: one seat cannot take the place of the others.
    let mut more = Vec::new();
    for _ in 0..4 {
        more.push(app.stream(&path, Some(&tokens[1]), &[]).await.unwrap());
    }
    let over = refused(
        app.stream(&path, Some(&tokens[1]), &[]).await,
        "a fifth stream with one token is over its cap",
    );
    assert_eq!(over.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(over.body["code"], "token_stream_limit");
    // A made-up token is no way around the spectators' cap.
    let forged = refused(
        app.stream(&path, Some("not-a-token"), &[]).await,
        "an unknown token opens nothing",
    );
    assert_eq!(forged.status, StatusCode::UNAUTHORIZED);
}

/// Opens a stream over a raw connection and reads its answer's head.
async fn raw_stream(address: &str, path: &str) -> (TcpStream, String) {
    let mut socket = TcpStream::connect(address).await.unwrap();
    socket
        .write_all(format!("GET {path} HTTP/1.1\r\nHost: test\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        let n = socket.read(&mut byte).await.unwrap();
        assert_eq!(n, 1, "the answer's head is complete");
        head.push(byte[0]);
    }
    (socket, String::from_utf8(head).unwrap())
}

/// Reads what the server has sent so far, then closes the connection cleanly (a close with
/// unread data would be a reset, which the server notices anyway).
async fn close(mut socket: TcpStream) {
    let mut buffer = [0u8; 4096];
    while let Ok(Ok(n)) =
        tokio::time::timeout(Duration::from_millis(200), socket.read(&mut buffer)).await
    {
        assert!(n > 0, "the server keeps the stream open");
    }
    socket.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_stream_whose_client_closes_its_connection_frees_its_place_at_once() {
    let app = spawn_app_tuned(|s| {
        s.live.streams_per_match = 3;
    })
    .await;
    let id = match_id(&new_match(&app).await);
    let address = app.base.trim_start_matches("http://").to_owned();
    let path = format!("/v1/matches/{id}/stream");
    let mut sockets = Vec::new();
    for _ in 0..3 {
        let (socket, head) = raw_stream(&address, &path).await;
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        sockets.push(socket);
    }
    let (_, head) = raw_stream(&address, &path).await;
    assert!(head.starts_with("HTTP/1.1 429"), "{head}");
    for socket in sockets {
        close(socket).await;
    }

    let closed = Instant::now();
    loop {
        let (socket, head) = raw_stream(&address, &path).await;
        if head.starts_with("HTTP/1.1 200") {
            drop(socket);
            break;
        }
        assert!(
            closed.elapsed() < Duration::from_secs(2),
            "a closed stream still holds its place after {:?}",
            closed.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_client_that_stops_reading_has_its_connection_closed_by_the_server() {
    let app = spawn_app_tuned(|s| {
        s.live.slow_subscriber = Duration::ZERO;
    })
    .await;
    let reply = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": [{"name": "Mum"}, {"name": "Dad"}], "options": {"rounds": 5}}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let id = reply.body["sheet"]["id"].as_str().unwrap().to_owned();
    let token = owner_token(&reply.body);

    // A client with a tiny receive window, which never reads.
    let address: std::net::SocketAddr = app.base.trim_start_matches("http://").parse().unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(2048).unwrap();
    let mut socket = socket.connect(address).await.unwrap();
    socket
        .write_all(format!("GET /v1/sheets/{id}/stream HTTP/1.1\r\nHost: test\r\n\r\n").as_bytes())
        .await
        .unwrap();

    // Each correction makes the sheet, and so each view, longer: the buffers fill fast.
    let entry = |corrects: Option<i64>| json!({"tally": {"jackpot": {"seat": 0, "symbol": "bell", "size": 3}}, "corrects": corrects, "note": "x".repeat(500)});
    for _round in 0..5 {
        let mut last = None;
        // A round, then as many corrections of it as a round may have.
        for _ in 0..21 {
            let entered = app
                .post(
                    &format!("/v1/sheets/{id}/entries"),
                    &entry(last),
                    Some(&token),
                )
                .await;
            assert_eq!(entered.status, StatusCode::OK, "{}", entered.body);
            last = entered.body["version"].as_i64();
        }
    }

    // Still without reading: the server has reset the connection, which dropped what it held
    // unread in its buffers. Only what this client's own small buffer holds is left to read,
    // then the reset; a connection kept open would send on, or block.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut buffer = vec![0u8; 64 * 1024];
    let mut read = 0;
    loop {
        match tokio::time::timeout(Duration::from_secs(2), socket.read(&mut buffer)).await {
            Ok(Err(error)) => {
                assert_eq!(error.kind(), std::io::ErrorKind::ConnectionReset);
                break;
            }
            Ok(Ok(0)) => break,
            Ok(Ok(n)) => read += n,
            Err(_) => panic!("the connection of a client that stopped reading is still open"),
        }
        assert!(
            read <= 16 * 1024,
            "the server sent on ({read} bytes) to a client it had dropped"
        );
    }
}

#[tokio::test]
async fn a_resume_point_past_the_current_version_is_refused_for_matches_and_sheets() {
    let app = spawn_app_tuned(|_| {}).await;
    let id = match_id(&new_match(&app).await);
    let version = app.read_match(&id, None).await.body["version"]
        .as_i64()
        .unwrap();
    for (path, headers) in [
        (format!("/v1/matches/{id}/stream?after=1000000"), vec![]),
        (
            format!("/v1/matches/{id}/stream"),
            vec![("Last-Event-ID", "9223372036854775807")],
        ),
    ] {
        let ahead = refused(
            app.stream(&path, None, &headers).await,
            "a resume point ahead of the match is refused",
        );
        assert_eq!(ahead.status, StatusCode::CONFLICT, "{}", ahead.body);
        assert_eq!(ahead.body["code"], "resume_point_ahead");
        assert_eq!(ahead.body["params"]["version"], version);
    }
    assert!(app
        .stream(
            &format!("/v1/matches/{id}/stream?after={version}"),
            None,
            &[]
        )
        .await
        .is_ok());

    let reply = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": [{"name": "Mum"}, {"name": "Dad"}], "options": {"rounds": 3}}),
            None,
        )
        .await;
    let sheet = reply.body["sheet"]["id"].as_str().unwrap().to_owned();
    for (path, headers) in [
        (format!("/v1/sheets/{sheet}/stream?after=5"), vec![]),
        (
            format!("/v1/sheets/{sheet}/stream"),
            vec![("Last-Event-ID", "1")],
        ),
    ] {
        let ahead = refused(
            app.stream(&path, None, &headers).await,
            "a resume point ahead of the sheet is refused",
        );
        assert_eq!(ahead.status, StatusCode::CONFLICT, "{}", ahead.body);
        assert_eq!(ahead.body["code"], "resume_point_ahead");
        assert_eq!(ahead.body["params"]["version"], 0);
    }
    let null = refused(
        app.stream(
            &format!("/v1/sheets/{sheet}/stream"),
            None,
            &[("Last-Event-ID", "null")],
        )
        .await,
        "null is no version",
    );
    assert_eq!(null.status, StatusCode::BAD_REQUEST);

    let spec = app.get("/openapi.json", None).await.body;
    let parameters = spec["paths"]["/v1/matches/{id}/stream"]["get"]["parameters"]
        .as_array()
        .unwrap();
    let last_event_id = parameters
        .iter()
        .find(|p| p["name"] == "Last-Event-ID")
        .unwrap();
    assert_eq!(last_event_id["schema"]["type"], "string");
    assert_eq!(last_event_id["schema"]["pattern"], "^[0-9]{1,15}$");
}

/// The next event that is not a heartbeat, within `patience`.
async fn next_within(
    stream: &mut EventStream,
    patience: Duration,
) -> Option<crate::support::StreamEvent> {
    tokio::time::timeout(patience, async {
        loop {
            match stream.next().await {
                Some(event) if event.kind == "heartbeat" => continue,
                other => return other,
            }
        }
    })
    .await
    .expect("the stream answered in time")
}

every_pipeline!(reissuing_a_seats_token_ends_its_streams_on_every_instance_within_seconds);
async fn reissuing_a_seats_token_ends_its_streams_on_every_instance_within_seconds(
    pipeline: Pipeline,
) {
    let app = spawn_app_tuned_on(pipeline, |_| {}).await;
    let other = app.second_instance().await;
    let created = new_match(&app).await;
    let id = match_id(&created);
    let tokens = seat_tokens(&created);
    let path = format!("/v1/matches/{id}/stream?format=ndjson");
    let mut here = app.stream(&path, Some(&tokens[1]), &[]).await.unwrap();
    let mut there = other.stream(&path, Some(&tokens[1]), &[]).await.unwrap();
    let mut bystander = app.stream(&path, Some(&tokens[2]), &[]).await.unwrap();
    for stream in [&mut here, &mut there, &mut bystander] {
        assert_eq!(stream.next().await.unwrap().kind, "view");
    }

    let reissued = app
        .post(
            &format!("/v1/matches/{id}/seats/1/token"),
            &json!({}),
            Some(&owner_token(&created)),
        )
        .await;
    assert_eq!(reissued.status, StatusCode::OK, "{}", reissued.body);
    for stream in [&mut here, &mut there] {
        let ended = next_within(stream, Duration::from_secs(5)).await.unwrap();
        assert_eq!(ended.kind, "error", "{:?}", ended.data);
        assert_eq!(ended.data["problem"]["status"], 401);
        assert!(next_within(stream, Duration::from_secs(5)).await.is_none());
    }
    // The other seat's stream goes on: nothing ended it.
    assert!(
        tokio::time::timeout(Duration::from_millis(500), bystander.next())
            .await
            .is_err(),
        "the other seat's stream is still open and quiet"
    );
}
