//! The real parts the process-level tests start: the service binary as a child process, a
//! private PostgreSQL 15 cluster, and a database of its own on the shared server. Shared by the
//! faults, the replica and the scaling tests; each uses a part of it.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use diesel::Connection;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_async::AsyncPgConnection;
use reqwest::StatusCode;

/// Generous bound for anything that should happen "soon" on a loaded CI machine.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A free port below Linux's ephemeral range (32768 and up), so that while the private cluster is
/// down no outgoing connection or `bind(0)` elsewhere can take its port before it restarts.
pub fn port_outside_ephemeral_range() -> u16 {
    let random = uuid::Uuid::new_v4().as_u128();
    (0..1000u128)
        .map(|i| 20_000 + ((random + i * 7919) % 12_000) as u16)
        .find(|&port| TcpListener::bind(("127.0.0.1", port)).is_ok())
        .expect("a free port between 20000 and 32000")
}

pub fn unique(prefix: &str) -> String {
    format!("{prefix}_{}", uuid::Uuid::new_v4().simple())
}

/// Runs a command to completion, panicking with its output if it fails.
pub fn run(command: &mut Command) {
    let output = command
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

// ---------------------------------------------------------------------------------------------
// A private PostgreSQL cluster

/// A throwaway PostgreSQL 15 cluster on its own port, stopped and removed on drop.
pub struct PrivateCluster {
    pub dir: PathBuf,
    pub port: u16,
    pub as_postgres_user: bool,
}

impl PrivateCluster {
    pub fn bin(tool: &str) -> PathBuf {
        let dir = std::env::var("PG_BIN").unwrap_or_else(|_| "/usr/lib/postgresql/15/bin".into());
        Path::new(&dir).join(tool)
    }

    /// A PostgreSQL tool, run as the `postgres` OS user when we are root (initdb refuses root).
    pub fn tool(&self, tool: &str) -> Command {
        if self.as_postgres_user {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(Self::bin(tool));
            command
        } else {
            Command::new(Self::bin(tool))
        }
    }

    pub fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// Initialises a cluster with trust authentication (not started yet).
    pub fn init() -> Self {
        let uid = Command::new("id").arg("-u").output().expect("run id -u");
        let as_postgres_user = String::from_utf8_lossy(&uid.stdout).trim() == "0";
        // Under /tmp: postgres must be able to reach it, and socket paths must stay short.
        let dir = PathBuf::from("/tmp").join(unique("referee-faults"));
        std::fs::create_dir(&dir).unwrap();
        let cluster = Self {
            dir,
            port: port_outside_ephemeral_range(),
            as_postgres_user,
        };
        if as_postgres_user {
            run(Command::new("chown")
                .arg("postgres:postgres")
                .arg(&cluster.dir));
        }
        run(cluster
            .tool("initdb")
            .arg("-D")
            .arg(cluster.data())
            .args(["-A", "trust", "-U", "postgres", "--no-sync", "--no-locale"])
            .args(["-E", "UTF8"]));
        cluster
    }

    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    /// Starts the cluster (again) on its port and waits until it accepts connections.
    pub fn start(&self) {
        // fsync off: the crash we simulate is of PostgreSQL, not of the machine, and CI disks are
        // slow; commits are still written to the WAL before they are acknowledged.
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.display()
        );
        run(self
            .tool("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .arg("-l")
            .arg(self.dir.join("server.log"))
            .args(["-o", &options, "-w", "-t", "60", "start"]));
    }

    /// Stops the cluster: `fast` ends sessions cleanly, `immediate` is a crash.
    pub fn stop(&self, mode: &str) {
        run(self
            .tool("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .args(["-m", mode, "-w", "-t", "60", "stop"]));
    }
}

impl Drop for PrivateCluster {
    fn drop(&mut self) {
        let _ = self
            .tool("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .args(["-m", "immediate", "-w", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if std::thread::panicking() {
            print_tail("PostgreSQL log", &self.dir.join("server.log"));
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn print_tail(what: &str, path: &Path) {
    if let Ok(file) = std::fs::File::open(path) {
        let lines: Vec<String> = BufReader::new(file).lines().map_while(Result::ok).collect();
        eprintln!("--- last lines of the {what} ---");
        for line in &lines[lines.len().saturating_sub(40)..] {
            eprintln!("{line}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The service binary

/// The `referee` binary running as a child process, killed on drop.
pub struct Service {
    pub child: Child,
    pub base: String,
    pub log: PathBuf,
}

impl Service {
    pub fn spawn(database_url: &str) -> Self {
        Self::spawn_with(database_url, &[])
    }

    /// The service with more environment variables (they override the defaults below).
    pub fn spawn_with(database_url: &str, env: &[(&str, &str)]) -> Self {
        Self::launch(Some(database_url), env)
    }

    /// The service as a newcomer starts it: no `DATABASE_URL`, the default database wanted.
    pub fn spawn_with_no_database_url(env: &[(&str, &str)]) -> Self {
        Self::launch(None, env)
    }

    fn launch(database_url: Option<&str>, env: &[(&str, &str)]) -> Self {
        let address = format!("127.0.0.1:{}", free_port());
        let log = std::env::temp_dir().join(format!("{}.log", unique("referee-faults-service")));
        // The service logs to stdout; both streams go to a file shown if the test fails.
        let output = std::fs::File::create(&log).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
        match database_url {
            Some(url) => command.env("DATABASE_URL", url),
            None => command.env_remove("DATABASE_URL"),
        };
        let child = command
            .env("BIND_ADDRESS", &address)
            .env("RATE_LIMIT_PER_SECOND", "0")
            // Every test client is one address: it may hold as many streams as the test needs.
            .env("LIVE_STREAMS_PER_CLIENT", "10000")
            .env("DATABASE_POOL_SIZE", "4")
            .env("WORKERS", "2")
            .env("RUST_LOG", "warn")
            // One invite key for every instance a test starts, as a deployment configures one.
            .env(
                "INVITE_KEY",
                "7465737420696e76697465206b6579206f6620746865207465737420737569746521",
            )
            .env_remove("LOG_FORMAT")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(output.try_clone().unwrap())
            .stderr(output)
            .spawn()
            .expect("start the referee binary");
        Self {
            child,
            base: format!("http://{address}"),
            log,
        }
    }

    /// Waits until `/healthz` answers 200: the service is listening.
    pub async fn wait_listening(&self, client: &reqwest::Client) {
        self.wait_for_200(client, "/healthz", "start listening")
            .await;
    }

    /// Waits until `/readyz` answers 200: the service is listening and its database prepared.
    pub async fn wait_ready(&self, client: &reqwest::Client) {
        self.wait_for_200(client, "/readyz", "become ready").await;
    }

    async fn wait_for_200(&self, client: &reqwest::Client, path: &str, what: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Ok(response) = client.get(format!("{}{path}", self.base)).send().await {
                if response.status() == StatusCode::OK {
                    return;
                }
            }
            assert!(Instant::now() < deadline, "the service did not {what}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub fn terminate(&self) {
        run(Command::new("kill").args(["-TERM", &self.child.id().to_string()]));
    }

    /// Waits (bounded) for the process to exit.
    pub async fn wait_exit(&mut self, within: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the service did not exit within {within:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if std::thread::panicking() {
            print_tail("service log", &self.log);
        }
        let _ = std::fs::remove_file(&self.log);
    }
}

/// A database of its own on the shared PostgreSQL server, dropped (forcibly) on drop.
pub struct SharedServerDatabase {
    pub name: String,
}

pub fn shared_server() -> String {
    std::env::var("TEST_DATABASE_SERVER")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".to_owned())
}

impl SharedServerDatabase {
    pub fn new() -> Self {
        Self {
            name: unique("referee_faults"),
        }
    }

    /// The service creates and migrates it by itself on start.
    pub fn url(&self) -> String {
        format!("{}/{}", shared_server(), self.name)
    }
}

impl Drop for SharedServerDatabase {
    fn drop(&mut self) {
        let url = format!("{}/postgres", shared_server());
        let name = self.name.clone();
        // A sync connection on its own thread: Drop cannot await.
        let _ = std::thread::spawn(move || {
            if let Ok(mut conn) =
                <AsyncConnectionWrapper<AsyncPgConnection> as Connection>::establish(&url)
            {
                let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                let _ = diesel::RunQueryDsl::execute(diesel::sql_query(sql), &mut conn);
            }
        })
        .join();
    }
}

// ---------------------------------------------------------------------------------------------
// A streaming replica of a private cluster

impl PrivateCluster {
    /// A hot standby of `primary` (which must be running): a base backup taken over the
    /// replication protocol with `-R`, so that it starts streaming from `primary` at once. Not
    /// started yet. initdb's defaults already allow it: `wal_level=replica`, ten WAL senders,
    /// and `host replication all 127.0.0.1/32` lines with the cluster's method (trust here).
    pub fn replica_of(primary: &PrivateCluster) -> Self {
        let dir = PathBuf::from("/tmp").join(unique("referee-replica"));
        std::fs::create_dir(&dir).unwrap();
        let replica = Self {
            dir,
            port: port_outside_ephemeral_range(),
            as_postgres_user: primary.as_postgres_user,
        };
        if replica.as_postgres_user {
            run(Command::new("chown")
                .arg("postgres:postgres")
                .arg(&replica.dir));
        }
        run(replica
            .tool("pg_basebackup")
            .arg("-D")
            .arg(replica.data())
            .args(["-R", "-X", "stream", "-c", "fast", "--no-sync"])
            .args(["-h", "127.0.0.1", "-p", &primary.port.to_string()])
            .args(["-U", "postgres"]));
        replica
    }
}
