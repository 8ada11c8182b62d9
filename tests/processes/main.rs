//! The process-level tests in one binary (one link instead of three): the real service binary
//! as a child process, through a PostgreSQL outage, a SIGTERM and a database in trouble
//! (`faults`), against a streaming replica (`replica`), and three instances on one database
//! (`scaling`). They start their own PostgreSQL clusters and processes, so they run one at a time
//! (the `processes` test group of `.config/nextest.toml`).

// Test code: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../audit/mod.rs"]
mod audit;
mod faults;
mod newcomer;
mod parts;
mod replica;
mod scaling;
