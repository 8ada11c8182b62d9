//! Read replicas: the real service binary against a private PostgreSQL 15 primary and a real
//! streaming replica of it (initdb, then `pg_basebackup -R`), on private ports.
//!
//! History reads (list, statistics, leaderboard, history export) must be served by the replica,
//! a seat must never read its own acknowledged move as missing, on any instance (even while the
//! replica's replay is paused), and a stopped replica must leave history reads answering from the
//! primary.

use crate::parts::*;

use std::time::{Duration, Instant};

use diesel::sql_types::BigInt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A primary, its streaming replica and the service using both.
struct Setup {
    primary: PrivateCluster,
    replica: PrivateCluster,
    service: Service,
    client: reqwest::Client,
    database: String,
}

impl Setup {
    /// `max_lag_ms`: the service's bound on waiting for the replica (`DATABASE_READ_MAX_LAG_MS`);
    /// generous where a test needs every read served by the replica even on a loaded machine.
    async fn start(max_lag_ms: &str) -> Self {
        let primary = PrivateCluster::init();
        primary.start();
        let replica = PrivateCluster::replica_of(&primary);
        replica.start();
        let database = unique("referee_replica");
        let service = instance(&primary, &replica, &database, max_lag_ms);
        let client = reqwest::Client::builder()
            .timeout(PATIENCE)
            .build()
            .unwrap();
        service.wait_ready(&client).await;
        let setup = Self {
            primary,
            replica,
            service,
            client,
            database,
        };
        // The service created and migrated the database on the primary; wait until the replica
        // has it too (and one history read has been served there), so the tests start steady.
        let deadline = Instant::now() + PATIENCE;
        while setup.replica_reads().await == 0.0 {
            assert!(Instant::now() < deadline, "the replica never served a read");
            setup.get("/v1/matches?limit=1").await;
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        setup
    }

    /// Another instance of the service on the same primary and replica (as behind a load
    /// balancer), ready.
    async fn second_instance(&self, max_lag_ms: &str) -> Service {
        let other = instance(&self.primary, &self.replica, &self.database, max_lag_ms);
        other.wait_ready(&self.client).await;
        other
    }

    async fn get(&self, path: &str) -> (StatusCode, String) {
        self.get_at(&self.service.base, path).await
    }

    async fn get_at(&self, base: &str, path: &str) -> (StatusCode, String) {
        let response = self
            .client
            .get(format!("{base}{path}"))
            .send()
            .await
            .unwrap();
        (response.status(), response.text().await.unwrap())
    }

    /// A history read that must answer 200 with JSON.
    async fn read(&self, path: &str) -> Value {
        self.read_at(&self.service.base, path).await
    }

    async fn read_at(&self, base: &str, path: &str) -> Value {
        let (status, body) = self.get_at(base, path).await;
        assert_eq!(status, StatusCode::OK, "GET {path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    /// The newest version the match list shows for the player's only match.
    async fn listed_version(&self, player: &str) -> i64 {
        self.listed_version_at(&self.service.base, player).await
    }

    async fn listed_version_at(&self, base: &str, player: &str) -> i64 {
        let page = self
            .read_at(base, &format!("/v1/matches?player={player}&limit=5"))
            .await;
        assert_eq!(page["items"].as_array().unwrap().len(), 1, "{page}");
        page["items"][0]["version"].as_i64().unwrap()
    }

    /// `referee_history_reads_total` for the lines with this label.
    async fn history_reads(&self, label: &str) -> f64 {
        let (_, text) = self.get("/metrics").await;
        text.lines()
            .filter(|line| line.starts_with("referee_history_reads_total{") && line.contains(label))
            .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
            .sum()
    }

    async fn replica_reads(&self) -> f64 {
        self.history_reads("served_by=\"replica\"").await
    }

    async fn primary_fallbacks(&self) -> f64 {
        self.history_reads("served_by=\"primary\"").await
    }

    /// Hosts a two-seat Lucky Jack match for `ann` and `ben`.
    async fn host(&self, ann: &str, ben: &str) -> Playing {
        let body = json!({"game": "lucky-jack",
                          "seats": [{"name": ann}, {"name": ben}],
                          "options": {"max_turns_per_round": 60}});
        let response = self
            .client
            .post(format!("{}/v1/matches", self.service.base))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::CREATED);
        let created: Value = response.json().await.unwrap();
        Playing {
            id: created["match"]["id"].as_str().unwrap().to_owned(),
            seats: created["seat_tokens"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["token"].as_str().unwrap().to_owned())
                .collect(),
            last: created["match"].clone(),
        }
    }

    /// The next move of the seat to act (`draw`, or `keep` a drawn card); the version it was
    /// acknowledged at.
    async fn play(&self, game: &mut Playing) -> i64 {
        let seat = game.last["to_act"][0].as_u64().expect("a seat acts") as usize;
        let mv = if game.last["view"]["drawn_card_pending"] == true {
            json!({"type": "keep"})
        } else {
            json!({"type": "draw"})
        };
        let response = self
            .client
            .post(format!(
                "{}/v1/matches/{}/moves",
                self.service.base, game.id
            ))
            .bearer_auth(&game.seats[seat])
            .json(&json!({"expected_version": game.last["version"], "move": mv}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "move {mv}");
        game.last = response.json().await.unwrap();
        game.last["version"].as_i64().unwrap()
    }

    async fn sql(&self, cluster: &PrivateCluster) -> AsyncPgConnection {
        AsyncPgConnection::establish(&cluster.url(&self.database))
            .await
            .unwrap()
    }
}

/// The service on `primary`, reading history from `replica`.
fn instance(
    primary: &PrivateCluster,
    replica: &PrivateCluster,
    database: &str,
    max_lag_ms: &str,
) -> Service {
    Service::spawn_with(
        &primary.url(database),
        &[
            ("DATABASE_READ_URL", &replica.url(database)),
            // A replica left alone after a failure is tried again soon, so that the test sees
            // it come back without waiting long.
            ("DATABASE_READ_RETRY_SECONDS", "1"),
            ("DATABASE_READ_MAX_LAG_MS", max_lag_ms),
        ],
    )
}

struct Playing {
    id: String,
    seats: Vec<String>,
    last: Value,
}

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

async fn count(conn: &mut AsyncPgConnection, sql: &str) -> i64 {
    diesel::sql_query(sql)
        .get_result::<Count>(conn)
        .await
        .unwrap()
        .n
}

/// Table scans a cluster has counted on the tables history reads use (its own sessions only:
/// a replica counts the scans run on it, not the primary's).
async fn history_table_scans(conn: &mut AsyncPgConnection) -> i64 {
    // A fresh statistics snapshot for each call.
    diesel::sql_query("SELECT pg_stat_clear_snapshot()")
        .execute(conn)
        .await
        .unwrap();
    count(
        conn,
        "SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0)::bigint AS n \
         FROM pg_stat_user_tables WHERE relname IN ('matches', 'match_seats', 'player_game_stats')",
    )
    .await
}

fn player(prefix: &str) -> String {
    format!(
        "{prefix}{}",
        &uuid::Uuid::new_v4().simple().to_string()[..10]
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_reads_are_served_by_the_replica_and_not_by_the_primary() {
    let setup = Setup::start("10000").await;
    let (ann, ben) = (player("ann"), player("ben"));
    let mut game = setup.host(&ann, &ben).await;
    for _ in 0..6 {
        setup.play(&mut game).await;
    }

    let mut on_replica = setup.sql(&setup.replica).await;
    let mut on_primary = setup.sql(&setup.primary).await;
    let replica_before = history_table_scans(&mut on_replica).await;
    let primary_before = history_table_scans(&mut on_primary).await;
    let served_before = setup.replica_reads().await;
    let fallbacks_before = setup.primary_fallbacks().await;

    let rounds = 40;
    for i in 0..rounds {
        setup.read(&format!("/v1/matches?player={ann}")).await;
        setup.read("/v1/matches?status=in_progress&limit=50").await;
        setup.read(&format!("/v1/players/{ben}/stats")).await;
        setup.read("/v1/games/lucky-jack/leaderboard").await;
        let (status, body) = setup
            .get(&format!("/v1/players/{ann}/history?format=ndjson"))
            .await;
        assert_eq!(status, StatusCode::OK, "history {i}: {body}");
        assert!(body.contains(&game.id), "{body}");
    }
    let reads = 5 * rounds;

    // The service's own counter: every one of those reads went to the replica.
    assert_eq!(setup.replica_reads().await - served_before, reads as f64);
    assert_eq!(setup.primary_fallbacks().await, fallbacks_before);
    // The replica's sessions carry the name the service gives them.
    let sessions = count(
        &mut on_replica,
        "SELECT count(*) AS n FROM pg_stat_activity \
         WHERE application_name = 'referee-history' AND datname = current_database()",
    )
    .await;
    assert!(sessions >= 1, "no service session on the replica");
    // PostgreSQL's own counts: the scans happened on the replica (each read scans at least once;
    // statistics reach the view within seconds, hence the wait) and not on the primary.
    let deadline = Instant::now() + PATIENCE;
    let replica_scans = loop {
        let scans = history_table_scans(&mut on_replica).await - replica_before;
        if scans >= reads || Instant::now() > deadline {
            break scans;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    assert!(
        replica_scans >= reads,
        "the replica counted {replica_scans} scans for {reads} history reads"
    );
    let primary_scans = history_table_scans(&mut on_primary).await - primary_before;
    eprintln!(
        "scans during {reads} history reads: replica {replica_scans}, primary {primary_scans}"
    );
    assert!(
        primary_scans < reads / 2,
        "the primary counted {primary_scans} scans during {reads} history reads"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_never_reads_its_own_move_as_missing_on_any_instance_even_while_the_replica_lags() {
    // The default bound: a paused replica is given up on after a quarter of a second.
    let setup = Setup::start("250").await;
    let (ann, ben) = (player("ann"), player("ben"));
    let mut game = setup.host(&ann, &ben).await;

    // A second instance, as behind a load balancer: moves go to one, reads to both.
    let other = setup.second_instance("250").await;

    // Streaming normally: every acknowledged move is in the very next history read, on either
    // instance.
    for _ in 0..20 {
        let version = setup.play(&mut game).await;
        assert_eq!(setup.listed_version_at(&other.base, &ann).await, version);
        assert_eq!(setup.listed_version(&ann).await, version);
        let (status, body) = setup
            .get_at(
                &other.base,
                &format!("/v1/players/{ben}/history?format=ndjson"),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        assert!(body.contains(&game.id), "{body}");
    }
    assert!(setup.replica_reads().await > 0.0);

    // Replay paused: the replica falls behind for real, and the reads still see each move
    // (from the primary, once the replica has not caught up within the bound).
    let mut on_replica = setup.sql(&setup.replica).await;
    diesel::sql_query("SELECT pg_wal_replay_pause()")
        .execute(&mut on_replica)
        .await
        .unwrap();
    let fallbacks_before = setup.primary_fallbacks().await;
    for _ in 0..5 {
        let version = setup.play(&mut game).await;
        assert_eq!(setup.listed_version_at(&other.base, &ann).await, version);
        assert_eq!(setup.listed_version(&ann).await, version);
    }
    assert!(setup.primary_fallbacks().await > fallbacks_before);
    assert!(setup.history_reads("reason=\"lag\"").await >= 1.0);

    // Replay resumed: reads go back to the replica once it is tried again, still current.
    diesel::sql_query("SELECT pg_wal_replay_resume()")
        .execute(&mut on_replica)
        .await
        .unwrap();
    let served_before = setup.replica_reads().await;
    let deadline = Instant::now() + PATIENCE;
    while setup.replica_reads().await == served_before {
        assert!(
            Instant::now() < deadline,
            "reads never went back to the replica"
        );
        let version = setup.play(&mut game).await;
        assert_eq!(setup.listed_version(&ann).await, version);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_replica_degrades_history_reads_to_the_primary_without_errors() {
    let setup = Setup::start("10000").await;
    let (ann, ben) = (player("ann"), player("ben"));
    let mut game = setup.host(&ann, &ben).await;
    let mut version = 0;
    for _ in 0..4 {
        version = setup.play(&mut game).await;
    }
    assert_eq!(setup.listed_version(&ann).await, version);

    setup.replica.stop("immediate");
    let fallbacks_before = setup.primary_fallbacks().await;
    for _ in 0..10 {
        version = setup.play(&mut game).await;
        assert_eq!(setup.listed_version(&ann).await, version);
        let stats = setup.read(&format!("/v1/players/{ann}/stats")).await;
        assert_eq!(stats["overall"]["played"], 0, "the match is not finished");
        setup.read("/v1/games/lucky-jack/leaderboard").await;
        let (status, body) = setup
            .get(&format!("/v1/players/{ben}/history?format=csv"))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(body.contains(&game.id), "{body}");
    }
    assert!(setup.primary_fallbacks().await >= fallbacks_before + 40.0);
    assert!(setup.history_reads("reason=\"replica_unavailable\"").await >= 1.0);
    // Readiness is the primary's alone.
    let (status, _) = setup.get("/readyz").await;
    assert_eq!(status, StatusCode::OK);

    // Back up: reads return to the replica by themselves.
    setup.replica.start();
    let served_before = setup.replica_reads().await;
    let deadline = Instant::now() + PATIENCE;
    while setup.replica_reads().await == served_before {
        assert!(
            Instant::now() < deadline,
            "reads never went back to the replica"
        );
        assert_eq!(setup.listed_version(&ann).await, version);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
