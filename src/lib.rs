//! The tabletop referee service: pure game rules (`games`), the referee that applies them,
//! hosted matches stored in PostgreSQL, and the HTTP API.

pub mod bgstats;
pub mod config;
pub mod examples;
pub mod exports;
pub mod games;
pub mod http;
pub mod live;
pub mod matches;
pub mod metrics;
pub mod problem;
pub mod ratings;
pub mod records;
pub mod referee;
pub mod seed;
pub mod sheets;
pub mod skill;
pub mod startup;
pub mod stats;
pub mod store;
pub mod tokens;
pub mod vocabulary;
pub mod wire;
