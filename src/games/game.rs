//! The [`Game`] trait and the vocabulary every game shares (seats, viewers, violations, option
//! and consistency errors). It names no game: games depend on it, never the other way round.

use std::fmt::Debug;

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use utoipa::ToSchema;

use super::{GameKind, Randomness, Standings};

/// Named counts for one seat, e.g. `{"jackpots": 2, "jackpots_jack": 1}`.
pub type Highlights = std::collections::BTreeMap<String, i64>;

/// A seat at the table, `0..players`, in clockwise order. The player "on the left" of seat `s`
/// is `(s + 1) % players`.
pub type Seat = usize;

/// Who is looking at a state: one seat, an onlooker, or the referee itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// A player: sees the public table plus their own hidden cards.
    Seat(Seat),
    /// Anyone without a seat: sees only what is public.
    Spectator,
    /// The referee or the match owner: sees everything, including the draw pile.
    Full,
}

impl Viewer {
    /// Whether this viewer may see what is hidden in `seat`'s hand.
    pub fn sees_seat(self, seat: Seat) -> bool {
        match self {
            Viewer::Full => true,
            Viewer::Seat(own) => own == seat,
            Viewer::Spectator => false,
        }
    }
}

/// A rule violation: one closed enum per game, declared with
/// [`violations!`](super::kit::refusal), serialised with its `code` tag so its fields are the
/// violation's parameters, and a `Display` message for people.
pub trait Violation: Serialize + Debug + std::fmt::Display + Clone {
    /// The stable snake_case code clients switch on: generated from the same literal as the serde
    /// `code` tag, so the two can never disagree.
    fn code(&self) -> &'static str;

    /// True when the move was made against a view that is out of date (e.g. a roll of a dice
    /// count the seat no longer holds): the referee answers 409, like a stale version, rather
    /// than 422.
    fn is_stale(&self) -> bool {
        false
    }
}

/// Whose a pending chance outcome is, which decides who may report it at a physical table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanceOwner {
    /// The outcome of this seat's own action: its draw, its roll.
    Seat(Seat),
    /// A deal or an outcome every seat shares (a flip, a shared die): the dealer's, when the game
    /// has a dealer, else no seat's.
    Table { dealer: Option<Seat> },
}

/// Options that cannot be played with, named precisely.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("option `{option}`: {detail}")]
pub struct OptionsError {
    pub option: &'static str,
    pub detail: String,
}

/// A client-supplied state that cannot have arisen from play (cards missing, wrong seat count, a
/// phase that contradicts the rest). Stateless endpoints reject such states before using them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct Inconsistency {
    /// Stable snake_case code, e.g. `cards_not_conserved`.
    pub code: &'static str,
    pub detail: String,
}

impl Inconsistency {
    pub fn new(code: &'static str, detail: impl Into<String>) -> Self {
        Self {
            code,
            detail: detail.into(),
        }
    }
}

/// The data every wire type of a game needs: JSON both ways, an OpenAPI schema, and value equality.
pub trait Wire:
    Serialize + DeserializeOwned + ToSchema + Clone + PartialEq + Debug + 'static
{
}
impl<T: Serialize + DeserializeOwned + ToSchema + Clone + PartialEq + Debug + 'static> Wire for T {}

/// One game's rules. Required methods are the primitives; `play` is built on them and is never
/// overridden. A sixth game is a new module implementing this trait plus one line in the registry
/// ([`crate::for_each_game`]).
pub trait Game {
    const KIND: GameKind;
    /// Bumped whenever a rules fix could change how a stored match replays.
    const RULES_VERSION: &'static str;
    const MIN_PLAYERS: usize;
    const MAX_PLAYERS: usize;

    /// Per-match options; `Default` gives the rulebook's (and RULINGS') defaults.
    type Options: Wire + Default;
    /// The complete state, hidden information included. It is what stateless endpoints take.
    type State: Wire;
    /// A move a seat proposes.
    type Move: Wire;
    /// A realised chance outcome: the deal, a drawn card, dice faces.
    type Chance: Wire;
    /// What a move or chance outcome did, for logs and move responses.
    type Event: Wire;
    /// What one viewer may see of a state.
    type View: Wire;
    /// The itemised score of a state: per round and per game.
    type Score: Wire;
    type Violation: Violation;
    /// One round (or hand; for single-round games the whole game) as people at a physical table
    /// describe it on a score sheet: what they count up, not how play went.
    type Tally: Wire;
    /// A described round scored: points per seat and the game's itemised breakdown.
    type TallyScore: Wire;

    fn validate_options(options: &Self::Options, players: usize) -> Result<(), OptionsError>;

    /// The player-count rule every game's options share; `validate_options` calls it first.
    fn check_players(players: usize) -> Result<(), OptionsError> {
        if (Self::MIN_PLAYERS..=Self::MAX_PLAYERS).contains(&players) {
            return Ok(());
        }
        Err(OptionsError {
            option: "players",
            detail: format!(
                "{} is played by {} to {} players, not {players}",
                Self::KIND.title(),
                Self::MIN_PLAYERS,
                Self::MAX_PLAYERS
            ),
        })
    }

    /// The state before anything has happened: normally with the first deal pending as chance.
    /// Call only with options that passed [`Game::validate_options`].
    fn setup(options: Self::Options, players: usize) -> Self::State;

    /// Checks an untrusted state for consistency (conservation, seats, phase).
    fn check_state(state: &Self::State) -> Result<(), Inconsistency>;

    /// The seats that may move now: several in simultaneous or out-of-turn play, none while chance
    /// is pending or once the game is over.
    fn to_act(state: &Self::State) -> Vec<Seat>;

    /// Whether play waits for a chance outcome (see the state's own `chance` field for what).
    fn chance_pending(state: &Self::State) -> bool;

    /// Whose the pending chance outcome is, `None` when none is pending. Read it from the pending
    /// chance: a variant that names the seat drawing or rolling is that seat's own.
    fn chance_owner(state: &Self::State) -> Option<ChanceOwner>;

    /// Samples the pending chance event from `rng`. Precondition: [`Game::chance_pending`].
    fn sample_chance(state: &Self::State, rng: &mut dyn Randomness) -> Self::Chance;

    /// Applies a chance outcome, checking it was possible (the card was still in the pile, the die
    /// has that face). On error the state is unchanged.
    fn resolve_chance(
        state: &mut Self::State,
        outcome: &Self::Chance,
    ) -> Result<Vec<Self::Event>, Self::Violation>;

    /// Every legal move for `seat` now (empty if it may not act).
    fn legal_moves(state: &Self::State, seat: Seat) -> Vec<Self::Move>;

    /// Why `seat` may not make `mv` now, if it may not. The referee also asks it for seats not in
    /// [`Game::to_act`], to answer with the game's own rule (`not_next_player`...), so it must
    /// refuse without panicking for any seat of the table.
    fn validate(state: &Self::State, seat: Seat, mv: &Self::Move) -> Result<(), Self::Violation>;

    /// Applies a move that [`Game::validate`] accepted.
    fn apply(state: &mut Self::State, seat: Seat, mv: &Self::Move) -> Vec<Self::Event>;

    fn is_over(state: &Self::State) -> bool;

    /// The number of seats at the table: cheap, unlike counting [`Game::standings`], which scores.
    fn players(state: &Self::State) -> usize;

    fn score(state: &Self::State) -> Self::Score;

    /// Totals, ranks and winners (winners are final only once the game is over).
    fn standings(state: &Self::State) -> Standings;

    fn view(state: &Self::State, viewer: Viewer) -> Self::View;

    /// The event as `viewer` may see it (hidden cards removed).
    fn redact_event(event: &Self::Event, viewer: Viewer) -> Self::Event;

    /// Checks a described round against the rules (cards that exist, at most one winner,
    /// plausible counts) and scores it with the code play uses. `round` counts from 1.
    fn score_tally(
        options: &Self::Options,
        players: usize,
        round: u32,
        tally: &Self::Tally,
    ) -> Result<Self::TallyScore, Self::Violation>;

    /// Points per seat of a scored round.
    fn tally_points(score: &Self::TallyScore) -> Vec<i64>;

    /// Totals of a series of scored rounds, ranked, and whether the game's end rule is met
    /// (rounds played, a target reached, coasters won).
    fn tally_standings(
        options: &Self::Options,
        players: usize,
        rounds: &[Self::TallyScore],
    ) -> (Standings, bool);

    /// Per-seat figures people brag about from a finished game, e.g. `jackpots_jack: 2`.
    /// Statistics add them up over games; keys starting with `best_` keep the maximum instead.
    fn highlights(state: &Self::State) -> Vec<Highlights> {
        let _ = state;
        Vec::new()
    }

    /// The same figures from a score sheet's rounds.
    fn tally_highlights(players: usize, rounds: &[Self::TallyScore]) -> Vec<Highlights> {
        let _ = (players, rounds);
        Vec::new()
    }

    /// Validates then applies; a rejected move leaves the state untouched.
    fn play(
        state: &mut Self::State,
        seat: Seat,
        mv: &Self::Move,
    ) -> Result<Vec<Self::Event>, Self::Violation> {
        Self::validate(state, seat, mv)?;
        Ok(Self::apply(state, seat, mv))
    }
}
