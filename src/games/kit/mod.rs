//! What several games need and no game owns: a multiset of cards, sorted hands, the checks a
//! reported deal or draw must pass, and the refusals every game shares. Nothing here names a game.

pub mod consistency;
pub mod counts;
pub mod deal;
pub mod guard;
pub mod hand;
pub mod refusal;
pub mod rounds;
pub mod schema;
pub mod scored;
#[cfg(test)]
pub mod sightings;
