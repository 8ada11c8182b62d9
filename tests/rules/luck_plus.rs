//! Luck Plus: the rulebook's scenarios and properties of random play.

mod props;
mod scenarios;
