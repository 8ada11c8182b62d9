//! Fault tests: the real service binary, driven over HTTP by concurrent clients, while its
//! PostgreSQL goes away and comes back, and while it is told to stop.
//!
//! The outage test runs its own private PostgreSQL cluster (so it can stop it without disturbing
//! the shared server other tests use); the SIGTERM test uses its own database on the shared
//! server.

mod busy;
mod load;
mod logs;
mod outage;
mod requests;
mod sigterm;
