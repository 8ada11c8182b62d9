//! Prometheus metrics, one registry for the process, served at `/metrics`: request counts and
//! latency histograms by route and status (the HTTP middleware), rule decisions by game and code,
//! and database pool use.
//!
//! The registry is built once at start-up from constant names: a failure there is a programming
//! error, hence `expect`.
#![allow(clippy::expect_used)]

use std::sync::LazyLock;

use actix_web_prom::{PrometheusMetrics, PrometheusMetricsBuilder};
use prometheus::{IntCounterVec, IntGaugeVec, Opts, Registry};

pub struct Metrics {
    pub registry: Registry,
    /// The HTTP middleware: request counts and latency histograms by route, method and status,
    /// and the `/metrics` endpoint. Built once, since its metrics join the process registry.
    pub http: PrometheusMetrics,
    moves: IntCounterVec,
    pool: IntGaugeVec,
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

    pub fn record_pool(&self, size: usize, available: usize, waiting: usize) {
        for (state, value) in [
            ("size", size),
            ("available", available),
            ("waiting", waiting),
        ] {
            self.pool.with_label_values(&[state]).set(value as i64);
        }
    }
}
