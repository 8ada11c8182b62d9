//! Settings from the environment, with defaults that work against the local PostgreSQL.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// What the service reads from its environment: everything start-up needs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `DATABASE_URL`: the database is created on start if it does not exist.
    pub database_url: String,
    /// `BIND_ADDRESS`: where the HTTP server listens.
    pub bind_address: SocketAddr,
    /// `DATABASE_POOL_SIZE`: connections kept to PostgreSQL.
    pub pool_size: usize,
    /// The lock and statement timeouts of every connection to PostgreSQL.
    pub database_timeouts: DatabaseTimeouts,
    /// How moves are kept and written: the cache, the batches, the snapshots.
    pub moves: MoveSettings,
    /// `BODY_LIMIT_BYTES`: larger request bodies are refused with 413.
    pub body_limit_bytes: usize,
    /// `WORKERS`: HTTP worker threads (defaults to the number of cores).
    pub workers: Option<usize>,
    /// `RATE_LIMIT_PER_SECOND`: sustained requests per second per client IP, kept as the time
    /// one spent request takes to come back (a second divided by the rate); 0 (`None`) turns
    /// limiting off.
    pub rate_limit_refill: Option<Duration>,
    /// `RATE_LIMIT_BURST`: requests a client IP may send at once before the sustained rate applies.
    pub rate_limit_burst: u32,
    /// `CORS_ALLOWED_ORIGINS`: comma-separated origins browsers may call from (`*` for any);
    /// empty (the default) sends no CORS headers.
    pub cors_allowed_origins: Vec<String>,
    /// `BODY_TIMEOUT_SECONDS`: time to receive a whole request body once its headers are in;
    /// slower bodies are refused with 408.
    pub body_timeout: Duration,
    /// `MAX_CONNECTIONS`: open connections each worker accepts; more wait in the listen queue.
    pub max_connections: usize,
    /// `TRUSTED_PROXIES`: comma-separated addresses or CIDR networks of reverse proxies; a request
    /// from one of them is rate limited by the client address it reports in `Forwarded` or
    /// `X-Forwarded-For`. Empty (the default): the peer address is the client.
    pub trusted_proxies: Vec<Network>,
    /// Live streams (`/stream`): caps, heartbeat and the patience for slow clients.
    pub live: LiveSettings,
    /// `DATABASE_READ_URL` and its settings: a streaming replica for history reads, if any.
    pub read_replica: Option<ReadReplicaSettings>,
    /// `SHUTDOWN_DRAIN_SECONDS`: after SIGTERM or SIGINT, how long `/readyz` fails while requests
    /// are still served, so that a load balancer stops sending before the listener closes; 0
    /// (the default) stops at once.
    pub shutdown_drain: Duration,
    /// Invites: the guessing budget per address and the keys codes are stored under.
    pub invites: InviteSettings,
}

/// The lobby's invite codes: how fast one address may try them, and the keys they are stored
/// under (see docs/security.md).
#[derive(Clone, Debug)]
pub struct InviteSettings {
    /// `INVITE_TRIES_BURST`: invite lookups and redeems one address (an IPv6 /64) may make at
    /// once; each takes a try before the code is looked up, and a code that names an invite
    /// gives its try back.
    pub tries_burst: u32,
    /// `INVITE_TRY_REFILL_SECONDS`: one try comes back every this many seconds (at least 1).
    pub try_refill: Duration,
    /// `INVITE_KEY`, `INVITE_KEY_PREVIOUS` and `INVITE_ACCEPT_UNKEYED`; without `INVITE_KEY`, a
    /// random key for this process (a warning says invites then end with it).
    pub keys: crate::tokens::InviteKeys,
}

impl Default for InviteSettings {
    fn default() -> Self {
        Self {
            tries_burst: 10,
            try_refill: Duration::from_secs(6),
            keys: crate::tokens::InviteKeys::default(),
        }
    }
}

impl InviteSettings {
    pub fn from_env() -> Result<Self, String> {
        use crate::tokens::InviteKeys;
        let default = Self::default();
        let accept_unkeyed = parsed("INVITE_ACCEPT_UNKEYED", true)?;
        let previous = var("INVITE_KEY_PREVIOUS")
            .map(|v| {
                v.split(',')
                    .map(str::trim)
                    .filter(|k| !k.is_empty())
                    .map(|k| {
                        InviteKeys::parse_key(k)
                            .map_err(|e| format!("INVITE_KEY_PREVIOUS: a key {e}"))
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?
            .unwrap_or_default();
        let keys = match var("INVITE_KEY") {
            Some(key) => InviteKeys::new(
                InviteKeys::parse_key(&key).map_err(|e| format!("INVITE_KEY {e}"))?,
                previous,
                accept_unkeyed,
            ),
            None if !previous.is_empty() => {
                return Err("INVITE_KEY_PREVIOUS is set without INVITE_KEY".to_owned())
            }
            None => default.keys.accepting_unkeyed(accept_unkeyed),
        };
        Ok(Self {
            tries_burst: parsed("INVITE_TRIES_BURST", default.tries_burst)?.max(1),
            try_refill: Duration::from_secs(
                parsed("INVITE_TRY_REFILL_SECONDS", default.try_refill.as_secs())?.max(1),
            ),
            keys,
        })
    }
}

/// A streaming replica of the primary that serves history reads while it keeps up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadReplicaSettings {
    /// `DATABASE_READ_URL`: the replica (a hot standby of `DATABASE_URL`'s server).
    pub url: String,
    /// `DATABASE_READ_POOL_SIZE`: connections kept to the replica.
    pub pool_size: usize,
    /// `DATABASE_READ_MAX_LAG_MS`: longest wait for the replica to replay the primary's current
    /// position before a read goes to the primary instead.
    pub max_lag: Duration,
    /// `DATABASE_READ_RETRY_SECONDS`: how long a replica that failed or lagged is left alone.
    pub retry_after: Duration,
    /// `DATABASE_READ_CONNECT_TIMEOUT_MS`: longest wait to connect to the replica (or for a free
    /// connection to it).
    pub connect_timeout: Duration,
    /// The same lock and statement timeouts as the primary's connections.
    pub timeouts: DatabaseTimeouts,
}

impl ReadReplicaSettings {
    /// The settings for `url` with the defaults for the rest.
    pub fn new(url: &str) -> Self {
        Self {
            url: url.to_owned(),
            pool_size: 4,
            max_lag: Duration::from_millis(250),
            retry_after: Duration::from_secs(5),
            connect_timeout: Duration::from_secs(1),
            timeouts: DatabaseTimeouts::default(),
        }
    }

    /// `None` unless `DATABASE_READ_URL` is set.
    pub fn from_env() -> Result<Option<Self>, String> {
        let Some(url) = var("DATABASE_READ_URL") else {
            return Ok(None);
        };
        let default = Self::new(&url);
        let millis = |name: &str, default: Duration| {
            parsed(name, default.as_millis() as u64).map(Duration::from_millis)
        };
        Ok(Some(Self {
            pool_size: parsed("DATABASE_READ_POOL_SIZE", default.pool_size)?.max(1),
            max_lag: millis("DATABASE_READ_MAX_LAG_MS", default.max_lag)?,
            retry_after: Duration::from_secs(parsed(
                "DATABASE_READ_RETRY_SECONDS",
                default.retry_after.as_secs(),
            )?),
            connect_timeout: millis("DATABASE_READ_CONNECT_TIMEOUT_MS", default.connect_timeout)?
                .max(Duration::from_millis(100)),
            timeouts: DatabaseTimeouts::from_env()?,
            ..default
        }))
    }
}

/// Bounds on live streams, so that subscribers cannot grow memory or connections without limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveSettings {
    /// `LIVE_STREAMS_PER_MATCH`: open spectator streams (no token) on one match or sheet in this
    /// instance; more get 429. The owner's and seats' streams are not counted here.
    pub streams_per_match: usize,
    /// `LIVE_STREAMS_PER_INSTANCE`: open streams in this instance; more get 503. By default half
    /// of the connection slots (workers x `MAX_CONNECTIONS`), and never more: the other half
    /// stays for health checks and ordinary requests. Spectators get three quarters of it.
    pub streams_per_instance: Option<usize>,
    /// `LIVE_STREAMS_PER_CLIENT`: open streams from one client address (an IPv6 /64), for its
    /// spectators and for its owners and seats each; more get 429 `client_stream_limit`.
    pub streams_per_client: usize,
    /// `LIVE_STREAMS_PER_TOKEN`: open streams with one owner or seat token; more get 429
    /// `token_stream_limit`.
    pub streams_per_token: usize,
    /// `LIVE_HEARTBEAT_SECONDS`: idle time before a stream sends a heartbeat, so that proxies
    /// keep it open.
    pub heartbeat: Duration,
    /// `LIVE_SLOW_SUBSCRIBER_SECONDS`: how long a stream may leave a change unread (its client
    /// stopped reading) before it is dropped; the client can resume with `Last-Event-ID`.
    pub slow_subscriber: Duration,
}

impl Default for LiveSettings {
    fn default() -> Self {
        Self {
            streams_per_match: 64,
            streams_per_instance: None,
            // A household behind one router: a few devices, each on a match or two.
            streams_per_client: 16,
            // One player's phone and laptop, with a reconnect or two in flight.
            streams_per_token: 4,
            heartbeat: Duration::from_secs(15),
            slow_subscriber: Duration::from_secs(30),
        }
    }
}

impl LiveSettings {
    pub fn from_env() -> Result<Self, String> {
        let default = Self::default();
        Ok(Self {
            streams_per_match: parsed("LIVE_STREAMS_PER_MATCH", default.streams_per_match)?,
            streams_per_instance: var("LIVE_STREAMS_PER_INSTANCE")
                .map(|_| parsed("LIVE_STREAMS_PER_INSTANCE", 0))
                .transpose()?,
            streams_per_client: parsed("LIVE_STREAMS_PER_CLIENT", default.streams_per_client)?
                .max(1),
            streams_per_token: parsed("LIVE_STREAMS_PER_TOKEN", default.streams_per_token)?.max(1),
            heartbeat: Duration::from_secs(
                parsed("LIVE_HEARTBEAT_SECONDS", default.heartbeat.as_secs())?.max(1),
            ),
            slow_subscriber: Duration::from_secs(parsed(
                "LIVE_SLOW_SUBSCRIBER_SECONDS",
                default.slow_subscriber.as_secs(),
            )?),
        })
    }
}

impl LiveSettings {
    /// The cap on an instance's streams: `LIVE_STREAMS_PER_INSTANCE`, at most half of its
    /// `connection_slots`, so that streams never take the connections that health checks and
    /// ordinary requests need.
    pub fn instance_cap(&self, connection_slots: usize) -> usize {
        let half = (connection_slots / 2).max(1);
        self.streams_per_instance.map_or(half, |cap| cap.min(half))
    }
}

/// The unit a client address is counted in by per-client limits (invite tries, live streams):
/// an IPv4 address, or an IPv6 /64, the block one household (or one attacker) usually holds, its
/// devices on different addresses in it; an IPv4-mapped address counts as its IPv4 address.
pub fn household(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into()),
        },
        v4 => v4,
    }
}

/// An IP network, `address/prefix` (a bare address is a network of one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Network {
    address: IpAddr,
    prefix: u32,
}

impl Network {
    pub fn contains(&self, address: IpAddr) -> bool {
        // An IPv4 peer may be seen as IPv4-mapped IPv6 on a dual-stack socket.
        let address = match address {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
            v4 => v4,
        };
        let masked = |bits: u128, width: u32| {
            let host_bits = width - self.prefix;
            bits.checked_shr(host_bits).unwrap_or(0)
        };
        match (self.address, address) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                masked(u32::from(net).into(), 32) == masked(u32::from(ip).into(), 32)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                masked(u128::from(net), 128) == masked(u128::from(ip), 128)
            }
            _ => false,
        }
    }
}

impl std::str::FromStr for Network {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let (address, prefix) = text.split_once('/').unwrap_or((text, ""));
        let address: IpAddr = address
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not an address"))?;
        let width = if address.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix.trim() {
            "" => width,
            bits => bits
                .parse()
                .ok()
                .filter(|&bits| bits <= width)
                .ok_or_else(|| format!("{text:?} has no valid prefix length"))?,
        };
        Ok(Self { address, prefix })
    }
}

/// How long one database statement may wait or run before PostgreSQL cancels it and the request
/// gets a retryable `503`, so that a locked row or a slow disk cannot hold a request (and its
/// pooled connection) indefinitely. Zero turns a timeout off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DatabaseTimeouts {
    /// `DATABASE_LOCK_TIMEOUT_MS`: longest wait for a row or table lock (`lock_timeout`).
    pub lock: Duration,
    /// `DATABASE_STATEMENT_TIMEOUT_MS`: longest run of one statement (`statement_timeout`).
    pub statement: Duration,
}

impl Default for DatabaseTimeouts {
    fn default() -> Self {
        Self {
            lock: Duration::from_secs(2),
            statement: Duration::from_secs(5),
        }
    }
}

impl DatabaseTimeouts {
    pub fn from_env() -> Result<Self, String> {
        let default = Self::default();
        let millis = |name: &str, default: Duration| {
            parsed(name, default.as_millis() as u64).map(Duration::from_millis)
        };
        Ok(Self {
            lock: millis("DATABASE_LOCK_TIMEOUT_MS", default.lock)?,
            statement: millis("DATABASE_STATEMENT_TIMEOUT_MS", default.statement)?,
        })
    }
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn parsed<T: std::str::FromStr>(name: &str, default: T) -> Result<T, String> {
    match var(name) {
        None => Ok(default),
        Some(text) => text
            .trim()
            .parse()
            .map_err(|_| format!("{name}={text:?} is not valid")),
    }
}

/// How an instance keeps live matches and writes their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveSettings {
    /// `MOVE_CACHE_MATCHES`: live matches kept in memory between moves; 0 turns the cache off.
    pub cached_matches: usize,
    /// `MOVE_BATCH_MAX`: moves to different matches written together in one statement and one
    /// commit, at most; 1 writes each move alone.
    pub batch_max: usize,
    /// `SNAPSHOT_EVERY_PLIES`: a match's stored state is rewritten once this many plies have
    /// been appended since the last time (and when it ends); a read replays at most this many
    /// events after it. At least 1.
    pub snapshot_every: i64,
}

impl Default for MoveSettings {
    fn default() -> Self {
        Self {
            cached_matches: 10_000,
            batch_max: 32,
            snapshot_every: 32,
        }
    }
}

impl MoveSettings {
    pub fn from_env() -> Result<Self, String> {
        let default = Self::default();
        let snapshot_every = parsed("SNAPSHOT_EVERY_PLIES", default.snapshot_every)?;
        if snapshot_every < 1 {
            return Err(format!(
                "SNAPSHOT_EVERY_PLIES={snapshot_every} must be at least 1"
            ));
        }
        Ok(Self {
            cached_matches: parsed("MOVE_CACHE_MATCHES", default.cached_matches)?,
            batch_max: parsed("MOVE_BATCH_MAX", default.batch_max)?,
            snapshot_every,
        })
    }
}

/// Where the database is looked for when `DATABASE_URL` is not set: this machine, on `PGPORT`
/// (as PostgreSQL's own tools look) or 5432.
pub fn default_database_address() -> SocketAddr {
    let port = std::env::var("PGPORT")
        .ok()
        .and_then(|port| port.parse().ok())
        .unwrap_or(5432);
    SocketAddr::from(([127, 0, 0, 1], port))
}

impl Settings {
    /// The connections this instance serves at once: workers (as actix counts them by
    /// default) times `MAX_CONNECTIONS`.
    pub fn connection_slots(&self) -> usize {
        let workers = self.workers.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
        });
        workers.max(1) * self.max_connections.max(1)
    }

    pub fn from_env() -> Result<Self, String> {
        Ok(Self {
            database_url: var("DATABASE_URL").unwrap_or_else(|| {
                format!("postgres://postgres@{}/referee", default_database_address())
            }),
            bind_address: parsed("BIND_ADDRESS", SocketAddr::from(([127, 0, 0, 1], 8080)))?,
            pool_size: parsed("DATABASE_POOL_SIZE", 8)?,
            database_timeouts: DatabaseTimeouts::from_env()?,
            moves: MoveSettings::from_env()?,
            body_limit_bytes: parsed("BODY_LIMIT_BYTES", 256 * 1024)?,
            workers: var("WORKERS").map(|_| parsed("WORKERS", 0)).transpose()?,
            rate_limit_refill: match parsed::<u32>("RATE_LIMIT_PER_SECOND", 100)? {
                0 => None,
                per_second => Some(Duration::from_secs(1) / per_second),
            },
            rate_limit_burst: parsed("RATE_LIMIT_BURST", 200)?,
            cors_allowed_origins: var("CORS_ALLOWED_ORIGINS")
                .map(|v| {
                    v.split(',')
                        .map(|o| o.trim().to_owned())
                        .filter(|o| !o.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
            body_timeout: Duration::from_secs(parsed("BODY_TIMEOUT_SECONDS", 10)?),
            max_connections: parsed("MAX_CONNECTIONS", 1024)?,
            trusted_proxies: var("TRUSTED_PROXIES")
                .map(|v| {
                    v.split(',')
                        .map(str::trim)
                        .filter(|p| !p.is_empty())
                        .map(|p| p.parse().map_err(|e| format!("TRUSTED_PROXIES: {e}")))
                        .collect::<Result<_, _>>()
                })
                .transpose()?
                .unwrap_or_default(),
            live: LiveSettings::from_env()?,
            read_replica: ReadReplicaSettings::from_env()?,
            shutdown_drain: Duration::from_secs(parsed("SHUTDOWN_DRAIN_SECONDS", 0)?),
            invites: InviteSettings::from_env()?,
        })
    }
}
