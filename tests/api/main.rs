//! HTTP tests against the real PostgreSQL: each test has the app on its own port and database.

mod bad_input;
mod errors;
mod history;
mod hosted;
mod leaks;
mod luck_plus;
mod lucky_dice;
mod lucky_luau;
mod migrations;
mod openapi;
mod plus_minus;
mod sheets;
mod stateless;
mod support;
mod walkthroughs;
