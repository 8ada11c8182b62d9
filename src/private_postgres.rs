//! A newcomer's database: when `DATABASE_URL` is not set, nothing answers at the default address
//! and PostgreSQL is installed (its server stopped, or never started), the service starts a
//! cluster of its own instead of failing, keeps its data between runs, and stops it when the
//! service stops. A deployment sets `DATABASE_URL` and never gets here; `PRIVATE_POSTGRES=off`
//! turns it off. Docs: README ("Run it"), docs/configuration.md.

use std::net::{Ipv4Addr, TcpListener, TcpStream};

use crate::config::default_database_address as default_address;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A cluster this process started, stopped when dropped.
#[derive(Debug)]
pub struct PrivatePostgres {
    bin: PathBuf,
    data: PathBuf,
    as_postgres_user: bool,
    /// Whether it runs (and is to be stopped with the service).
    started: bool,
}

/// Starts (or finds running) the private cluster when the default database is wanted and does
/// not answer; answers its URL and the cluster to keep until the service stops. `None` when the
/// default database answers, `DATABASE_URL` is set, it is turned off, or PostgreSQL is not
/// installed (the service then reports the database it cannot reach, as before).
pub fn start_if_needed() -> Result<Option<(String, PrivatePostgres)>, String> {
    let wanted = std::env::var_os("DATABASE_URL").is_none()
        && std::env::var("PRIVATE_POSTGRES").as_deref() != Ok("off");
    if !wanted || TcpStream::connect_timeout(&default_address(), Duration::from_secs(1)).is_ok() {
        return Ok(None);
    }
    let Some(bin) = installed_bin() else {
        return Ok(None);
    };
    let as_postgres_user = running_as_root();
    let dir = match std::env::var_os("PRIVATE_POSTGRES_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => default_dir(as_postgres_user)?,
    };
    let mut cluster = PrivatePostgres {
        bin,
        data: dir.join("data"),
        as_postgres_user,
        started: false,
    };
    let port = match cluster.running_port() {
        // Left running by a run that was killed: this run stops it.
        Some(port) => {
            cluster.started = true;
            port
        }
        None => {
            cluster.prepare(&dir)?;
            let port = free_port()?;
            cluster.start(&dir, port)?;
            port
        }
    };
    tracing::info!(
        dir = %dir.display(),
        port,
        "no PostgreSQL answered at {}: using a private cluster of this service's own, kept \
         between runs (PRIVATE_POSTGRES=off turns this off)",
        default_address()
    );
    Ok(Some((
        format!("postgres://postgres@127.0.0.1:{port}/referee"),
        cluster,
    )))
}

/// The newest installed PostgreSQL's programs (`PG_BIN` chooses them).
fn installed_bin() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    // Debian keeps each major version apart, and not on PATH.
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .find(|dir| dir.join("initdb").exists() && dir.join("pg_ctl").exists())
    })
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// Where the cluster lives: the `postgres` user's home when root runs the service (PostgreSQL
/// refuses to run as root, and its user must reach the directory), else the user's data home.
fn default_dir(as_postgres_user: bool) -> Result<PathBuf, String> {
    if as_postgres_user {
        return Ok(PathBuf::from("/var/lib/postgresql/referee-private"));
    }
    let data_home = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".local/share")))
        .ok_or("PRIVATE_POSTGRES_DIR: no HOME to keep a private cluster in")?;
    Ok(data_home.join("referee/postgres"))
}

fn free_port() -> Result<u16, String> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|e| format!("no free port for a private PostgreSQL: {e}"))
}

impl PrivatePostgres {
    /// A PostgreSQL program, run as the `postgres` user when root runs the service.
    fn tool(&self, name: &str) -> Command {
        let program = self.bin.join(name);
        if self.as_postgres_user {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(program);
            command
        } else {
            Command::new(program)
        }
    }

    fn run(&self, mut command: Command, what: &str) -> Result<(), String> {
        let output = command
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("{what}: {e}"))?;
        if output.status.success() {
            return Ok(());
        }
        Err(format!(
            "{what} failed ({}): {}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }

    /// The port of the cluster when it is already running (left by a run that was killed).
    fn running_port(&self) -> Option<u16> {
        let mut status = self.tool("pg_ctl");
        status.arg("status").arg("-D").arg(&self.data);
        let running = status
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        // postmaster.pid's fourth line is the port.
        let pid_file = std::fs::read_to_string(self.data.join("postmaster.pid")).ok()?;
        running
            .then(|| pid_file.lines().nth(3)?.trim().parse().ok())
            .flatten()
    }

    /// Makes the directory and the cluster in it, the first time.
    fn prepare(&self, dir: &Path) -> Result<(), String> {
        if self.data.join("PG_VERSION").exists() {
            return Ok(());
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if self.as_postgres_user {
            let mut chown = Command::new("chown");
            chown.arg("postgres:postgres").arg(dir);
            self.run(chown, "chown the private cluster's directory")?;
        }
        let mut initdb = self.tool("initdb");
        initdb.arg("-D").arg(&self.data).args([
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--no-locale",
        ]);
        self.run(initdb, "initdb")
    }

    fn start(&mut self, dir: &Path, port: u16) -> Result<(), String> {
        // Only this machine, on the port found free; the socket beside the data.
        let options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1",
            dir.display()
        );
        let mut start = self.tool("pg_ctl");
        start
            .arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(dir.join("server.log"))
            .args(["-o", &options, "-w", "-t", "60", "start"]);
        self.run(start, "start the private PostgreSQL")?;
        self.started = true;
        Ok(())
    }
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        if !self.started {
            return;
        }
        let mut stop = self.tool("pg_ctl");
        stop.arg("-D")
            .arg(&self.data)
            .args(["-m", "fast", "-w", "-t", "60", "stop"]);
        match self.run(stop, "stop the private PostgreSQL") {
            Ok(()) => tracing::info!("private PostgreSQL stopped"),
            Err(error) => tracing::error!(%error, "the private PostgreSQL did not stop"),
        }
    }
}
