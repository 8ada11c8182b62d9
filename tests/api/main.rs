//! HTTP tests against the real PostgreSQL: each test has the app on its own port and database.

// Test code: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod abandon;
mod bad_input;
mod bounds;
mod caching;
mod chance_authority;
mod distribution;
mod edges;
mod errors;
mod evening;
mod game_refusals;
mod hands;
mod history;
mod hosted;
mod households;
mod imports;
mod invites;
mod leaks;
mod lobby;
mod luck_plus;
mod lucky_dice;
mod lucky_jack_options;
mod lucky_luau;
mod mending;
mod migrations;
mod move_log;
mod moves_cache;
mod names;
mod openapi;
mod page;
mod plus_minus;
mod ratings;
mod records;
mod sheet_mending;
mod sheets;
mod stateless;
mod stream_limits;
mod streams;
mod support;
mod walkthroughs;
