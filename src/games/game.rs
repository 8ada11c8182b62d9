//! The [`Game`] trait and the vocabulary every game shares (seats, viewers, violations, option
//! and consistency errors). It names no game: games depend on it, never the other way round.

use std::fmt::Debug;

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use utoipa::ToSchema;

use super::{GameKind, Order, Randomness, Standings};

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

    /// Each seat's hidden cards (`hands`, one entry per seat) where this viewer may see them.
    pub fn hands_seen<T: Clone>(self, hands: &[T]) -> Vec<Option<T>> {
        hands
            .iter()
            .enumerate()
            .map(|(seat, hand)| self.sees_seat(seat).then(|| hand.clone()))
            .collect()
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
    /// The option's documented maximum, when the value went past it (or out of a range that ends
    /// there): problem documents show it as `max`.
    pub max: Option<u64>,
}

impl OptionsError {
    /// Options that cannot be played together, or a value the game has no rule for.
    pub fn new(option: &'static str, detail: impl Into<String>) -> Self {
        Self {
            option,
            detail: detail.into(),
            max: None,
        }
    }

    /// A value outside the option's documented range, whose upper end is `max`.
    pub fn beyond(option: &'static str, max: u64, detail: impl Into<String>) -> Self {
        Self {
            option,
            detail: detail.into(),
            max: Some(max),
        }
    }

    /// An option that counts something (rounds, a target, a cap) may be at most `max`: a match
    /// must stay finite and of a size the service can replay.
    pub fn check_at_most(option: &'static str, value: u64, max: u64) -> Result<(), Self> {
        if value <= max {
            return Ok(());
        }
        Err(Self::beyond(
            option,
            max,
            format!("at most {max}, not {value}"),
        ))
    }

    /// An option that names a seat (the dealer, the first player) must name one at the table.
    pub fn check_seat(option: &'static str, seat: Seat, players: usize) -> Result<(), Self> {
        if seat < players {
            return Ok(());
        }
        Err(Self::new(
            option,
            format!("seat {seat} does not exist with {players} players"),
        ))
    }
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

/// A game's options checked against the number of seats they are played with; each game
/// implements it on its options, in `options.rs`.
pub trait OptionRules {
    /// The game's own rules for options (the player count is already within the game's range).
    fn check(&self, players: usize) -> Result<(), OptionsError>;
}

/// A state's table: how many seats it has and whether play could have produced it. Each game
/// implements it on its state, beside its consistency checks (`consistency.rs`).
pub trait Table {
    /// The number of seats: cheap, unlike counting [`Game::standings`], which scores.
    fn players(&self) -> usize;

    /// Checks a state for consistency (conservation, seats, phase): a client-supplied one could
    /// have been made up. [`Consistent::check`] turns a state that passes into a checked one.
    fn check(&self) -> Result<(), Inconsistency>;
}

/// The rules of play on a state of game `G`: legality, the legal moves, and the effects of moves
/// and chance, in `G`'s own types. Each game implements it on its state, in `rules.rs`.
pub trait Rules<G: Game> {
    /// Why `seat` may not make `mv` now, if it may not. The referee also asks it for seats not in
    /// [`Game::to_act`], to answer with the game's own rule (`not_next_player`...), so it must
    /// refuse without panicking for any seat of the table.
    fn validate(&self, seat: Seat, mv: &G::Move) -> Result<(), G::Violation>;

    /// Every legal move for `seat` now (empty if it may not act).
    fn legal_moves(&self, seat: Seat) -> Vec<G::Move>;

    /// Applies a move that [`Rules::validate`] accepted.
    fn apply(&mut self, seat: Seat, mv: &G::Move) -> Vec<G::Event>;

    /// Whether `mv`, a move [`Rules::validate`] accepted for `seat` on this state, shows some
    /// seat or spectator what was hidden from them until then (a card from a hand laid face up,
    /// a card passed to another seat). The table has then seen it, so the move can never be taken
    /// back. Chance outcomes are not moves: a draw's card is revealed by its chance event.
    fn reveals(&self, seat: Seat, mv: &G::Move) -> bool;

    /// Applies a chance outcome, checking it was possible (the card was still in the pile, the die
    /// has that face). On error the state is unchanged.
    fn resolve_chance(&mut self, outcome: &G::Chance) -> Result<Vec<G::Event>, G::Violation>;
}

/// What one viewer may see of a state `S`; each game implements it on its view, in `view.rs`.
pub trait Sight<S> {
    fn of(state: &S, viewer: Viewer) -> Self;
}

/// An event as one viewer may see it; each game implements it on its events, in `view.rs`.
pub trait Redact {
    /// The event with what `viewer` may not see removed.
    fn redacted(&self, viewer: Viewer) -> Self;
}

/// A score, of a game or of one round: points per seat and how they rank.
pub trait Ranked {
    /// Points (or totals) per seat.
    fn points(&self) -> Vec<i64>;

    /// Which end of the totals wins.
    fn order(&self) -> Order {
        Order::HighestWins
    }

    /// Totals, ranks and winners (winners only when `over`).
    fn standings(&self, over: bool) -> Standings {
        Standings::rank(self.points(), self.order(), over)
    }
}

/// Options that passed [`Game::validate_options`] for a number of players: the only thing
/// [`Game::setup`] takes, so a game is never set up with options it refuses.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidOptions<O> {
    options: O,
    players: usize,
}

impl<O> ValidOptions<O> {
    pub fn options(&self) -> &O {
        &self.options
    }

    pub fn players(&self) -> usize {
        self.players
    }

    pub fn into_inner(self) -> (O, usize) {
        (self.options, self.players)
    }
}

/// A state of game `G` that is consistent: made only by [`Consistent::check`] (the consistency
/// check), [`Consistent::new`] (setup) and advanced only by [`Consistent::play`] and
/// [`Consistent::resolve_chance`], which keep it consistent. It reads as the plain state; a
/// client-supplied state stays a plain `G::State` until it is checked.
pub struct Consistent<G: Game>(G::State);

impl<G: Game> Consistent<G> {
    /// The state of a new game.
    pub fn new(options: ValidOptions<G::Options>) -> Self {
        Self(G::setup(options))
    }

    /// The state, if play could have produced it.
    pub fn check(state: G::State) -> Result<Self, Inconsistency> {
        state.check()?;
        Ok(Self(state))
    }

    /// Validates then applies a move; a rejected move leaves the state untouched.
    pub fn play(&mut self, seat: Seat, mv: &G::Move) -> Result<Vec<G::Event>, G::Violation> {
        G::play(&mut self.0, seat, mv)
    }

    /// Applies a chance outcome once the game has checked it was possible.
    pub fn resolve_chance(&mut self, outcome: &G::Chance) -> Result<Vec<G::Event>, G::Violation> {
        G::resolve_chance(&mut self.0, outcome)
    }

    pub fn into_inner(self) -> G::State {
        self.0
    }
}

impl<G: Game> std::ops::Deref for Consistent<G> {
    type Target = G::State;

    fn deref(&self) -> &G::State {
        &self.0
    }
}

impl<G: Game> Clone for Consistent<G> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<G: Game> Debug for Consistent<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<G: Game> PartialEq for Consistent<G> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<G: Game> Serialize for Consistent<G> {
    fn serialize<Z: serde::Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        self.0.serialize(serializer)
    }
}

/// One game's rules, in shakmaty's manner: few required primitives, and provided methods built on
/// them that are not overridden (except the two `highlights` defaults, which games fill in). The
/// options, state, view, events and scores carry their own small traits ([`OptionRules`],
/// [`Table`], [`Rules`], [`Sight`], [`Redact`], [`Ranked`]), implemented in the file where that
/// logic lives. The primitives take the plain state and trust it to be consistent; code outside
/// the games holds a [`Consistent`] state and reaches them through it. A sixth game is a new
/// module implementing this trait plus one line in the registry ([`crate::for_each_game`]).
pub trait Game: Sized + 'static {
    const KIND: GameKind;
    /// Bumped whenever a rules fix could change how a stored match replays.
    const RULES_VERSION: &'static str;
    const MIN_PLAYERS: usize;
    const MAX_PLAYERS: usize;

    /// Per-match options; `Default` gives the rulebook's (and RULINGS') defaults.
    type Options: Wire + Default + OptionRules;
    /// The complete state, hidden information included. It is what stateless endpoints take.
    /// Send and Sync: a live match keeps it between moves, on whichever worker comes next.
    type State: Wire + Table + Rules<Self> + Send + Sync;
    /// A move a seat proposes.
    type Move: Wire;
    /// A realised chance outcome: the deal, a drawn card, dice faces.
    type Chance: Wire;
    /// What a move or chance outcome did, for logs and move responses.
    type Event: Wire + Redact;
    /// What one viewer may see of a state.
    type View: Wire + Sight<Self::State>;
    /// The itemised score of a state: per round and per game.
    type Score: Wire + Ranked;
    type Violation: Violation;
    /// One round (or hand; for single-round games the whole game) as people at a physical table
    /// describe it on a score sheet: what they count up, not how play went.
    type Tally: Wire;
    /// A described round scored: points per seat and the game's itemised breakdown.
    type TallyScore: Wire + Ranked;

    // ---- required primitives

    /// The state before anything has happened: normally with the first deal pending as chance.
    fn setup(options: ValidOptions<Self::Options>) -> Self::State;

    /// The seats that may move now: several in simultaneous or out-of-turn play, none while chance
    /// is pending or once the game is over.
    fn to_act(state: &Self::State) -> Vec<Seat>;

    /// Whose the pending chance outcome is, `None` when none is pending. Read it from the pending
    /// chance: a variant that names the seat drawing or rolling is that seat's own.
    fn chance_owner(state: &Self::State) -> Option<ChanceOwner>;

    /// Samples the pending chance event from `rng`. Precondition: [`Game::chance_pending`].
    fn sample_chance(state: &Self::State, rng: &mut dyn Randomness) -> Self::Chance;

    fn is_over(state: &Self::State) -> bool;

    fn score(state: &Self::State) -> Self::Score;

    /// Checks a described round against the rules (cards that exist, at most one winner,
    /// plausible counts) and scores it with the code play uses. `round` counts from 1.
    fn score_tally(
        options: &Self::Options,
        players: usize,
        round: u32,
        tally: &Self::Tally,
    ) -> Result<Self::TallyScore, Self::Violation>;

    /// Totals of a series of scored rounds, ranked, and whether the game's end rule is met
    /// (rounds played, a target reached, coasters won).
    fn tally_standings(
        options: &Self::Options,
        players: usize,
        rounds: &[Self::TallyScore],
    ) -> (Standings, bool);

    // ---- provided, built on the primitives

    /// Options checked against the player count (the range every game has, then the game's own
    /// rules): the only way to the [`ValidOptions`] that [`Game::setup`] takes.
    fn validate_options(
        options: &Self::Options,
        players: usize,
    ) -> Result<ValidOptions<Self::Options>, OptionsError> {
        Self::check_players(players)?;
        options.check(players)?;
        Ok(ValidOptions {
            options: options.clone(),
            players,
        })
    }

    /// The player-count rule every game's options share; `validate_options` checks it first.
    fn check_players(players: usize) -> Result<(), OptionsError> {
        if (Self::MIN_PLAYERS..=Self::MAX_PLAYERS).contains(&players) {
            return Ok(());
        }
        Err(OptionsError::new(
            "players",
            format!(
                "{} is played by {} to {} players, not {players}",
                Self::KIND.title(),
                Self::MIN_PLAYERS,
                Self::MAX_PLAYERS
            ),
        ))
    }

    /// Applies a chance outcome, checking it was possible; on error the state is unchanged.
    fn resolve_chance(
        state: &mut Self::State,
        outcome: &Self::Chance,
    ) -> Result<Vec<Self::Event>, Self::Violation> {
        state.resolve_chance(outcome)
    }

    /// Every legal move for `seat` now (empty if it may not act).
    fn legal_moves(state: &Self::State, seat: Seat) -> Vec<Self::Move> {
        state.legal_moves(seat)
    }

    /// Why `seat` may not make `mv` now, if it may not (see [`Rules::validate`]).
    fn validate(state: &Self::State, seat: Seat, mv: &Self::Move) -> Result<(), Self::Violation> {
        state.validate(seat, mv)
    }

    /// Applies a move that [`Game::validate`] accepted.
    fn apply(state: &mut Self::State, seat: Seat, mv: &Self::Move) -> Vec<Self::Event> {
        state.apply(seat, mv)
    }

    /// Whether a legal `mv` by `seat` shows anyone what was hidden from them (see
    /// [`Rules::reveals`]).
    fn reveals(state: &Self::State, seat: Seat, mv: &Self::Move) -> bool {
        state.reveals(seat, mv)
    }

    /// Checks an untrusted state for consistency (conservation, seats, phase).
    fn check_state(state: &Self::State) -> Result<(), Inconsistency> {
        state.check()
    }

    /// The number of seats at the table.
    fn players(state: &Self::State) -> usize {
        state.players()
    }

    /// Whether play waits for a chance outcome (see the state's own `chance` field for what).
    fn chance_pending(state: &Self::State) -> bool {
        Self::chance_owner(state).is_some()
    }

    fn view(state: &Self::State, viewer: Viewer) -> Self::View {
        Self::View::of(state, viewer)
    }

    /// The moves a view lists: its seat's legal moves, none for a spectator or the full view.
    fn view_moves(state: &Self::State, viewer: Viewer) -> Vec<Self::Move> {
        match viewer {
            Viewer::Seat(seat) => Self::legal_moves(state, seat),
            _ => Vec::new(),
        }
    }

    /// The event as `viewer` may see it (hidden cards removed).
    fn redact_event(event: &Self::Event, viewer: Viewer) -> Self::Event {
        event.redacted(viewer)
    }

    /// Totals, ranks and winners (winners are final only once the game is over).
    fn standings(state: &Self::State) -> Standings {
        Self::score(state).standings(Self::is_over(state))
    }

    /// Points per seat of a scored round.
    fn tally_points(score: &Self::TallyScore) -> Vec<i64> {
        score.points()
    }

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

/// Writes the head of a game's `impl Game`, given its kind, rules version, player range, violation
/// enum and scored tally: `engine!(LuckyJack, "lucky-jack/1", players 2..=6, LuckyJackViolation,
/// RoundResult)`. Every game names its other types alike in its own module (`Options`, `State`,
/// `Move`, `Chance`, `Event`, `View`, `Score`, `Tally`) and ends in `Phase::Over`, which gives
/// [`Game::is_over`].
macro_rules! engine {
    (
        $kind:ident, $rules:literal, players $min:literal..=$max:literal,
        $violation:ty, $tally_score:ty $(,)?
    ) => {
        const KIND: $crate::games::GameKind = $crate::games::GameKind::$kind;
        const RULES_VERSION: &'static str = $rules;
        const MIN_PLAYERS: usize = $min;
        const MAX_PLAYERS: usize = $max;

        type Options = Options;
        type State = State;
        type Move = Move;
        type Chance = Chance;
        type Event = Event;
        type View = View;
        type Score = Score;
        type Violation = $violation;
        type Tally = Tally;
        type TallyScore = $tally_score;

        fn is_over(state: &State) -> bool {
            state.phase == Phase::Over
        }
    };
}
pub(crate) use engine;
