//! Pieces of the consistency checks every game runs on a client-supplied state (see each game's
//! `consistency.rs`), with the same codes and messages for all.

use std::fmt::Debug;

use crate::games::{Game, Inconsistency};

/// Refuses a state: `code` is the stable reason, `detail` says what is wrong with this one.
pub fn bad(code: &'static str, detail: impl Into<String>) -> Result<(), Inconsistency> {
    Err(Inconsistency::new(code, detail))
}

/// The seat count is one `G` is played with.
pub fn player_count<G: Game>(players: usize) -> Result<(), Inconsistency> {
    if (G::MIN_PLAYERS..=G::MAX_PLAYERS).contains(&players) {
        return Ok(());
    }
    bad(
        "bad_player_count",
        format!(
            "{players} players; {} seats {} to {}",
            G::KIND.title(),
            G::MIN_PLAYERS,
            G::MAX_PLAYERS
        ),
    )
}

/// The state's options are playable with its seat count.
pub fn options<G: Game>(options: &G::Options, players: usize) -> Result<(), Inconsistency> {
    G::validate_options(options, players)
        .map(drop)
        .or_else(|error| bad("invalid_options", error.to_string()))
}

/// One result per finished round (rounds count from 1): every round up to the current one once
/// the game is over, the ones before it while it runs.
pub fn round_results(
    results: usize,
    round: u32,
    over: bool,
    phase: impl Debug,
) -> Result<(), Inconsistency> {
    let finished = if over { round } else { round.saturating_sub(1) };
    if round == 0 || results != finished as usize {
        return bad(
            "bad_round_results",
            format!("{results} round results in round {round} ({phase:?})"),
        );
    }
    Ok(())
}
