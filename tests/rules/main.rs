//! The rules core's tests in one binary (one link instead of eleven): per game the rulebook
//! scenarios (`tests/data/<game>/*.json`) and properties of random play, the purity rule of
//! `src/games/`, and what the scenario runners share.

// Test code: a failed unwrap is a failed test, with its location.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod data_files;
mod invariants;
mod layers;
mod luck_plus;
mod luck_plus_support;
mod lucky_dice;
mod lucky_jack;
mod lucky_luau;
mod plus_minus;
mod purity;
mod scenario_files;
