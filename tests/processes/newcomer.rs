//! A newcomer's first run (issue 41): where PostgreSQL is installed but no server answers, the one
//! run command starts a private cluster of its own instead of failing, keeps its data between
//! runs, and stops it when the service stops.

use std::path::PathBuf;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;

use crate::parts::{free_port, unique, Service};

#[tokio::test]
async fn with_no_postgresql_answering_the_service_runs_on_a_private_cluster_kept_between_runs() {
    let dir = PathBuf::from("/tmp").join(unique("referee-private"));
    let closed = free_port().to_string();
    let dir_text = dir.display().to_string();
    // Nothing listens on PGPORT: the default database does not answer.
    let env = [
        ("PGPORT", closed.as_str()),
        ("PRIVATE_POSTGRES_DIR", dir_text.as_str()),
    ];
    let client = reqwest::Client::new();

    let mut first = Service::spawn_with_no_database_url(&env);
    first.wait_ready(&client).await;
    let made = client
        .post(format!("{}/v1/sheets", first.base))
        .json(&json!({"game": "lucky-dice", "players": [{"name": "Mum"}, {"name": "Zoé"}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), StatusCode::CREATED);
    let made: serde_json::Value = made.json().await.unwrap();
    let sheet = made["sheet"]["id"].as_str().unwrap().to_owned();
    first.terminate();
    assert!(first.wait_exit(Duration::from_secs(60)).await.success());
    assert!(
        dir.join("data/PG_VERSION").exists(),
        "the cluster is kept in {dir_text}"
    );
    assert!(
        !dir.join("data/postmaster.pid").exists(),
        "the private cluster stops with the service"
    );

    let mut second = Service::spawn_with_no_database_url(&env);
    second.wait_ready(&client).await;
    let kept = client
        .get(format!("{}/v1/sheets/{sheet}", second.base))
        .send()
        .await
        .unwrap();
    assert_eq!(kept.status(), StatusCode::OK, "the sheet outlives the run");
    second.terminate();
    assert!(second.wait_exit(Duration::from_secs(60)).await.success());
    let _ = std::fs::remove_dir_all(&dir);
}
