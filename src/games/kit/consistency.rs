//! Consistency checks for client-supplied states: could this state have arisen from play (cards
//! conserved, seats and phase agreeing)? Not to be confused with the `/check` endpoint, which asks
//! whether a move is legal ([`Game::validate`](crate::games::Game::validate)). Each game's
//! `consistency.rs` runs its own checks; these are the pieces they share, with the same codes and
//! messages for all.

use std::fmt::Debug;

use crate::games::{Game, Inconsistency, Seat};

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

/// What every state is checked for first, in this order: a seat count `G` is played with, one
/// entry per seat in each per-seat list (`lists`: each list's length and what it holds, refused
/// as `code`), then options playable with that many seats.
pub fn table<G: Game>(
    players: usize,
    options: &G::Options,
    code: &'static str,
    lists: &[(usize, &str)],
) -> Result<(), Inconsistency> {
    player_count::<G>(players)?;
    if lists.iter().any(|&(len, _)| len != players) {
        let counted: Vec<String> = lists
            .iter()
            .map(|(len, what)| format!("{len} {what}"))
            .collect();
        return bad(
            code,
            format!("{} for {players} players", counted.join(" and ")),
        );
    }
    self::options::<G>(options, players)
}

/// The seat whose turn it is is at the table.
pub fn turn_seat(turn: Seat, players: usize) -> Result<(), Inconsistency> {
    if turn < players {
        return Ok(());
    }
    bad("bad_turn", format!("turn seat {turn} of {players}"))
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

/// A game of a fixed number of `rounds` ends only after its last, with one result per finished
/// round.
pub fn fixed_rounds(
    results: usize,
    round: u32,
    rounds: u32,
    over: bool,
    phase: impl Debug,
) -> Result<(), Inconsistency> {
    if over && round != rounds {
        return bad("bad_round", "the game ended before its last round");
    }
    round_results(results, round, over, phase)
}

/// Each finished round's result is one that play of the round could give (`consistent(round,
/// result)`, rounds counting from 1); the first that is not is refused.
pub fn each_round<R: Debug>(
    results: &[R],
    consistent: impl Fn(u32, &R) -> bool,
) -> Result<(), Inconsistency> {
    for (i, result) in results.iter().enumerate() {
        let round = i as u32 + 1;
        if !consistent(round, result) {
            return bad(
                "bad_round_results",
                format!("round {round}'s result is inconsistent: {result:?}"),
            );
        }
    }
    Ok(())
}

/// The pending deal is the one the round's setup awaits (`expected`).
pub fn deal_awaited<P: PartialEq + Debug>(pending: &P, expected: &P) -> Result<(), Inconsistency> {
    if pending == expected {
        return Ok(());
    }
    bad(
        "chance_mismatch",
        format!("deal chance {pending:?} is not this round's"),
    )
}

/// A pending `what` chance (`chance`, as the state holds it) that the table contradicts.
pub fn chance_contradicts(what: &str, chance: impl Debug) -> Result<(), Inconsistency> {
    bad(
        "chance_mismatch",
        format!("{what} chance {chance:?} contradicts the table"),
    )
}

/// A phase that cannot wait for the chance event pending (or for none).
pub fn cannot_wait(phase: impl Debug, chance: impl Debug) -> Result<(), Inconsistency> {
    bad(
        "chance_mismatch",
        format!("phase {phase:?} cannot wait for {chance:?}"),
    )
}
