//! Prometheus metrics, one registry for the process, served at `/metrics`: request counts and
//! latency histograms by route and status (the HTTP middleware), rule decisions by game and code,
//! database pool use, and where history reads were served (replica or primary).
//!
//! The registry is built once at start-up from constant names: a failure there is a programming
//! error, hence `expect`.
#![allow(clippy::expect_used)]

use std::sync::LazyLock;

use actix_web_prom::{PrometheusMetrics, PrometheusMetricsBuilder};
use prometheus::{
    Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
};

pub struct Metrics {
    pub registry: Registry,
    /// The HTTP middleware: request counts and latency histograms by route, method and status,
    /// and the `/metrics` endpoint. Built once, since its metrics join the process registry.
    pub http: PrometheusMetrics,
    moves: IntCounterVec,
    pool: IntGaugeVec,
    open_streams: IntGauge,
    dropped_streams: IntCounterVec,
    stream_events: IntCounterVec,
    /// `stream_events` for each event type, resolved once: streams count every event they write.
    stream_event_types: [(&'static str, IntCounter); 5],
    change_notices: IntCounter,
    feed_reads: IntCounter,
    listener_reconnects: IntCounter,
    move_batches: Histogram,
    history_reads: IntCounterVec,
    replica_wait: Histogram,
}

pub static METRICS: LazyLock<Metrics> = LazyLock::new(|| {
    let registry = Registry::new();
    let moves = IntCounterVec::new(
        Opts::new(
            "referee_moves_total",
            "Moves refereed, by game, outcome (accepted or rejected) and rejection code",
        ),
        &["game", "outcome", "code"],
    )
    .expect("valid metric");
    let pool = IntGaugeVec::new(
        Opts::new(
            "referee_db_pool_connections",
            "Database pool: connections open (size), idle (available) and requests waiting",
        ),
        &["state"],
    )
    .expect("valid metric");
    registry
        .register(Box::new(moves.clone()))
        .expect("registered once");
    registry
        .register(Box::new(pool.clone()))
        .expect("registered once");
    let open_streams = IntGauge::new(
        "referee_live_streams_open",
        "Live streams (match and sheet) open in this instance",
    )
    .expect("valid metric");
    let dropped_streams = IntCounterVec::new(
        Opts::new(
            "referee_live_streams_dropped_total",
            "Live streams ended or refused by the server: slow (the client read too slowly), \
             match_full, client_full, token_full and instance_full (over a cap)",
        ),
        &["reason"],
    )
    .expect("valid metric");
    let stream_events = IntCounterVec::new(
        Opts::new(
            "referee_live_events_total",
            "Events written to live streams, by type (entry, view, end, heartbeat)",
        ),
        &["type"],
    )
    .expect("valid metric");
    let stream_event_types = ["entry", "view", "end", "error", "heartbeat"]
        .map(|kind| (kind, stream_events.with_label_values(&[kind])));
    let change_notices = IntCounter::new(
        "referee_live_change_notices_total",
        "Change notices received from PostgreSQL (LISTEN referee_changes)",
    )
    .expect("valid metric");
    let feed_reads = IntCounter::new(
        "referee_live_feed_reads_total",
        "Reads of what is new in a match for its live streams: one per change notice and per \
         match followed, however many streams follow it in this instance",
    )
    .expect("valid metric");
    let listener_reconnects = IntCounter::new(
        "referee_live_listener_reconnects_total",
        "Times the change listener lost or could not open its connection",
    )
    .expect("valid metric");
    let move_batches = Histogram::with_opts(
        HistogramOpts::new(
            "referee_move_batch_size",
            "Moves written together in one statement and one commit (group commit)",
        )
        .buckets(vec![1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]),
    )
    .expect("valid metric");
    let history_reads = IntCounterVec::new(
        Opts::new(
            "referee_history_reads_total",
            "History reads with a read replica configured, by where they were served (replica or \
             primary) and why the primary (lag, replica_unavailable, replica_error, breaker_open, \
             not_standby)",
        ),
        &["served_by", "reason"],
    )
    .expect("valid metric");
    let replica_wait = Histogram::with_opts(
        HistogramOpts::new(
            "referee_history_replica_wait_seconds",
            "Time a history read spent making sure the replica had replayed the primary's WAL \
             position (connection included), when the replica then served it",
        )
        .buckets(vec![
            0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
        ]),
    )
    .expect("valid metric");
    for metric in [
        Box::new(open_streams.clone()) as Box<dyn prometheus::core::Collector>,
        Box::new(history_reads.clone()),
        Box::new(replica_wait.clone()),
        Box::new(move_batches.clone()),
        Box::new(dropped_streams.clone()),
        Box::new(stream_events.clone()),
        Box::new(change_notices.clone()),
        Box::new(feed_reads.clone()),
        Box::new(listener_reconnects.clone()),
    ] {
        registry.register(metric).expect("registered once");
    }
    let http = PrometheusMetricsBuilder::new("referee")
        .registry(registry.clone())
        .endpoint("/metrics")
        .mask_unmatched_patterns("unmatched")
        .build()
        .expect("the HTTP metrics register once");
    Metrics {
        registry,
        http,
        moves,
        pool,
        open_streams,
        dropped_streams,
        stream_events,
        stream_event_types,
        change_notices,
        feed_reads,
        listener_reconnects,
        move_batches,
        history_reads,
        replica_wait,
    }
});

impl Metrics {
    /// A move the referee accepted, or rejected with `code`.
    pub fn record_move(&self, game: &str, rejected: Option<&str>) {
        let (outcome, code) = match rejected {
            None => ("accepted", ""),
            Some(code) => ("rejected", code),
        };
        self.moves.with_label_values(&[game, outcome, code]).inc();
    }

    /// A group-commit statement carrying `moves` moves.
    pub fn record_move_batch(&self, moves: usize) {
        self.move_batches.observe(moves as f64);
    }

    /// A history read served by the replica (`None`), or by the primary for `fallback`.
    pub fn record_history_read(&self, fallback: Option<&str>) {
        let labels = match fallback {
            None => ["replica", ""],
            Some(reason) => ["primary", reason],
        };
        self.history_reads.with_label_values(&labels).inc();
    }

    /// The wait for a replica that then served the read.
    pub fn record_replica_wait(&self, wait: std::time::Duration) {
        self.replica_wait.observe(wait.as_secs_f64());
    }

    pub fn record_pool(&self, size: usize, available: usize, waiting: usize) {
        for (state, value) in [
            ("size", size),
            ("available", available),
            ("waiting", waiting),
        ] {
            self.pool.with_label_values(&[state]).set(value as i64);
        }
    }

    pub fn set_open_streams(&self, open: usize) {
        self.open_streams.set(open as i64);
    }

    /// A stream the server ended (`slow`) or refused (`match_full`, `instance_full`).
    pub fn record_stream_dropped(&self, reason: &str) {
        self.dropped_streams.with_label_values(&[reason]).inc();
    }

    /// An event of `kind` written to a live stream.
    pub fn record_stream_event(&self, kind: &str) {
        match self
            .stream_event_types
            .iter()
            .find(|(known, _)| *known == kind)
        {
            Some((_, counter)) => counter.inc(),
            None => self.stream_events.with_label_values(&[kind]).inc(),
        }
    }

    pub fn record_change_notice(&self) {
        self.change_notices.inc();
    }

    /// A live feed read what is new in its match.
    pub fn record_feed_read(&self) {
        self.feed_reads.inc();
    }

    pub fn record_listener_reconnect(&self) {
        self.listener_reconnects.inc();
    }
}
