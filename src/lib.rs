//! The tabletop referee service: pure game rules (`games`), the referee that applies them,
//! hosted matches stored in PostgreSQL, and the HTTP API.

pub mod bgstats;
pub mod config;
pub mod exports;
pub mod frames;
pub mod games;
pub mod households;
pub mod http;
pub mod live;
pub mod matches;
pub mod metrics;
pub mod payloads;
pub mod private_postgres;
pub mod problem;
pub mod rating_model;
pub mod ratings;
pub mod records;
pub mod referee;
pub mod request_examples;
pub mod seed;
pub mod sheets;
pub mod startup;
pub mod stats;
pub mod store;
pub mod tagged;
pub mod tokens;
pub mod vocabulary;
