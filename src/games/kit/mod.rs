//! What several games need and no game owns: a multiset of cards, sorted hands, and the checks a
//! reported deal or draw must pass. Nothing here names a game.

pub mod consistency;
pub mod counts;
pub mod deal;
pub mod hand;
pub mod schema;
