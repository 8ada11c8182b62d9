//! HTTP tests against the real PostgreSQL: each test has the app on its own port and database.

mod errors;
mod hosted;
mod lucky_luau;
mod stateless;
mod support;
