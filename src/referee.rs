//! The referee: applies a game's rules to untrusted input in one fixed order, resolves chance from
//! a seed, and replays logs. Generic over [`Game`]; the functions at the bottom serve the stateless
//! endpoints, taking each part of a request typed or as JSON (see [`Untrusted`]).
//!
//! Check order for a move: the seat exists → the game is not over → no chance is pending → the
//! seat may act now → the game's own rules. A seat that may not act now is refused with the
//! game's own rule for its move when the game has one, else `not_your_turn`. (Match-level checks
//! — unknown match, token, stale version — happen before, in `matches`.)

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::games::kit::refusal::{Common, Unnamed};
use crate::games::{
    Consistent, Game, Inconsistency, OptionsError, Seat, Standings, ValidOptions, Viewer, Violation,
};
use crate::payloads::{Json, Payloads};
use crate::seed::Seed;

mod mending;
mod parse;

pub use mending::{
    replay_mend, Entry, MendRefusal, Mendable, Mended, Reporter, Run, Settled, TAKE_BACKS_PER_TURN,
};

pub use parse::{
    from_json_value, integral_numbers_as_integers, is_some_games, parse, to_json, What,
};

/// Why the referee refused something. Each maps to one problem `code`.
#[derive(Debug, Clone, thiserror::Error)]
pub enum RefereeError {
    /// A payload that does not have the shape of the game's type (400).
    #[error("{what} is not valid for this game: {detail}")]
    Malformed { what: What, detail: String },
    #[error("{0}")]
    Options(OptionsError),
    /// A client-supplied state that play could not have produced (422).
    #[error("the state is inconsistent: {0}")]
    Inconsistent(Inconsistency),
    #[error("{players} players cannot play this game (it takes {min} to {max})")]
    PlayerCount {
        players: usize,
        min: usize,
        max: usize,
    },
    /// A refusal every game shares, checked here before the game's own rules (in the referee's
    /// words: it speaks to a client, not to a table).
    #[error("{}", in_own_words(.0))]
    Common(Common),
    #[error("seat {seat} may not act now; seats that may: {to_act:?}")]
    NotYourTurn { seat: Seat, to_act: Vec<Seat> },
    /// The game's own rules refuse the move or outcome (422; 409 when `stale`).
    #[error("{message}")]
    Violation {
        code: &'static str,
        message: String,
        params: Map<String, Value>,
        /// The move was made against an out-of-date view.
        stale: bool,
    },
    /// A score sheet goes on after the game's end rule was met.
    #[error("the game ended after round {rounds}; no further round can be scored")]
    TallyAfterEnd { rounds: usize },
    /// A take-back or a correction the mending policy refuses (409; 403 for the wrong reporter).
    #[error(transparent)]
    Mend(#[from] MendRefusal),
}

impl RefereeError {
    pub fn code(&self) -> &'static str {
        match self {
            RefereeError::Malformed { what, .. } => what.code(),
            RefereeError::Options(_) => "invalid_options",
            RefereeError::Inconsistent(_) => "inconsistent_state",
            RefereeError::PlayerCount { .. } => "player_count",
            RefereeError::Common(common) => common.code(),
            RefereeError::NotYourTurn { .. } => "not_your_turn",
            RefereeError::Violation { code, .. } => code,
            RefereeError::TallyAfterEnd { .. } => "game_over",
            RefereeError::Mend(refusal) => refusal.code(),
        }
    }

    /// The violation's parameters, for problem documents.
    pub fn params(&self) -> Map<String, Value> {
        let mut params = Map::new();
        match self {
            RefereeError::Options(e) => {
                params.insert("option".into(), e.option.into());
                if let Some(max) = e.max {
                    params.insert("max".into(), max.into());
                }
            }
            RefereeError::Inconsistent(e) => {
                params.insert("reason".into(), e.code.into());
            }
            RefereeError::PlayerCount { players, min, max } => {
                params.insert("players".into(), (*players).into());
                params.insert("min".into(), (*min).into());
                params.insert("max".into(), (*max).into());
            }
            RefereeError::Common(Common::UnknownSeat { seat, players }) => {
                params.insert("seat".into(), (*seat).into());
                params.insert("players".into(), (*players).into());
            }
            RefereeError::NotYourTurn { seat, to_act } => {
                params.insert("seat".into(), (*seat).into());
                params.insert("to_act".into(), to_act.clone().into());
            }
            RefereeError::Violation { params: p, .. } => params.clone_from(p),
            RefereeError::TallyAfterEnd { rounds } => {
                params.insert("rounds".into(), (*rounds).into());
            }
            RefereeError::Mend(refusal) => params = refusal.params(),
            _ => {}
        }
        params
    }

    /// True for refusals that are about the game (what `check` answers with `legal: false`),
    /// false for input that is broken whatever the rules say.
    pub fn is_rule_refusal(&self) -> bool {
        matches!(
            self,
            RefereeError::Common(
                Common::GameOver | Common::ChancePending(_) | Common::NoChancePending
            ) | RefereeError::NotYourTurn { .. }
                | RefereeError::Violation { .. }
        )
    }

    fn violation<V: crate::games::Violation>(violation: V) -> Self {
        let mut params = match serde_json::to_value(&violation) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        };
        params.remove("code");
        RefereeError::Violation {
            code: violation.code(),
            message: violation.to_string(),
            params,
            stale: violation.is_stale(),
        }
    }
}

/// The referee's wording of a shared refusal: the games word the same refusals for a table.
fn in_own_words(common: &Common) -> String {
    match common {
        Common::GameOver => "the game is over".into(),
        Common::ChancePending(_) => {
            "play waits for a chance outcome (a deal, a draw or a roll) to be resolved first".into()
        }
        Common::UnknownSeat { seat, players } => {
            format!("seat {seat} is not at this table of {players}")
        }
        Common::NoChancePending => "no chance outcome is awaited now".into(),
    }
}

/// A refusal as clients see it in a `check` answer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Refusal {
    /// Stable snake_case code, e.g. `card_not_in_hand`.
    pub code: String,
    /// A sentence for people.
    pub message: String,
    /// The refusal's parameters (the card, the hand size, the seats that may act...).
    #[schema(value_type = std::collections::BTreeMap<String, Value>)]
    pub params: Map<String, Value>,
}

impl From<&RefereeError> for Refusal {
    fn from(error: &RefereeError) -> Self {
        Self {
            code: error.code().to_owned(),
            message: error.to_string(),
            params: error.params(),
        }
    }
}

/// One input of a match log, typed for game `G`.
#[derive(Debug, Clone, PartialEq)]
pub enum Input<M, C> {
    Move { seat: Seat, mv: M },
    Chance(C),
}

pub type GameInput<G> = Input<<G as Game>::Move, <G as Game>::Chance>;

/// A replayed state with the events of each input.
pub type Replayed<G> = (Consistent<G>, Vec<Vec<<G as Game>::Event>>);

/// Parses options (absent means the defaults) and checks them against the player count.
pub fn options<G: Game>(
    value: Option<Value>,
    players: usize,
) -> Result<ValidOptions<G::Options>, RefereeError> {
    check_player_count::<G>(players)?;
    let options: G::Options = match value {
        None | Some(Value::Null) => G::Options::default(),
        Some(value) => parse(What::Options, value)?,
    };
    validated_options::<G>(options, players)
}

/// Refuses a number of players the game does not seat: checked before any per-player work.
pub fn check_player_count<G: Game>(players: usize) -> Result<(), RefereeError> {
    if !(G::MIN_PLAYERS..=G::MAX_PLAYERS).contains(&players) {
        return Err(RefereeError::PlayerCount {
            players,
            min: G::MIN_PLAYERS,
            max: G::MAX_PLAYERS,
        });
    }
    Ok(())
}

fn validated_options<G: Game>(
    options: G::Options,
    players: usize,
) -> Result<ValidOptions<G::Options>, RefereeError> {
    G::validate_options(&options, players).map_err(RefereeError::Options)
}

/// Parses an untrusted state and checks it is one that play could have produced.
pub fn untrusted_state<G: Game>(value: Value) -> Result<Consistent<G>, RefereeError> {
    consistent::<G>(parse(What::State, value)?)
}

/// A client-supplied state, already in the game's type, if play could have produced it.
pub fn consistent<G: Game>(state: G::State) -> Result<Consistent<G>, RefereeError> {
    Consistent::check(state).map_err(RefereeError::Inconsistent)
}

fn check_seat<G: Game>(state: &Consistent<G>, seat: Seat) -> Result<(), RefereeError> {
    let players = G::players(state);
    if seat >= players {
        return Err(RefereeError::Common(Common::UnknownSeat { seat, players }));
    }
    Ok(())
}

/// Plays one move through the shared checks, then the game's rules. Leaves the state unchanged on
/// any refusal.
pub fn play_move<G: Game>(
    state: &mut Consistent<G>,
    seat: Seat,
    mv: &G::Move,
) -> Result<Vec<G::Event>, RefereeError> {
    check_seat::<G>(state, seat)?;
    if G::is_over(state) {
        return Err(RefereeError::Common(Common::GameOver));
    }
    if G::chance_pending(state) {
        return Err(RefereeError::Common(Common::ChancePending(Unnamed)));
    }
    let to_act = G::to_act(state);
    if !to_act.contains(&seat) {
        return Err(refusal_out_of_turn::<G>(state, seat, mv, to_act));
    }
    state.play(seat, mv).map_err(RefereeError::violation)
}

/// Why a seat that may not act now may not make `mv`: the game's own rule when it has a more
/// specific one (Lucky Jack's `not_next_player`, Lucky Dice's `stop_caller_cannot_roll`...), else
/// the generic `not_your_turn`. Never plays the move: a game that would accept it still gets
/// `not_your_turn`, so `to_act` stays the one gate.
fn refusal_out_of_turn<G: Game>(
    state: &Consistent<G>,
    seat: Seat,
    mv: &G::Move,
    to_act: Vec<Seat>,
) -> RefereeError {
    let generic = RefereeError::NotYourTurn { seat, to_act };
    match G::validate(state, seat, mv) {
        // The games' own `not_your_turn` names one seat; the shared one names every seat that may.
        Err(violation) if violation.code() != generic.code() => RefereeError::violation(violation),
        _ => generic,
    }
}

/// Applies a reported chance outcome, which the game checks is possible.
pub fn play_chance<G: Game>(
    state: &mut Consistent<G>,
    outcome: &G::Chance,
) -> Result<Vec<G::Event>, RefereeError> {
    if G::is_over(state) {
        return Err(RefereeError::Common(Common::GameOver));
    }
    if !G::chance_pending(state) {
        return Err(RefereeError::Common(Common::NoChancePending));
    }
    state
        .resolve_chance(outcome)
        .map_err(RefereeError::violation)
}

pub fn play_input<G: Game>(
    state: &mut Consistent<G>,
    input: &GameInput<G>,
) -> Result<Vec<G::Event>, RefereeError> {
    match input {
        Input::Move { seat, mv } => play_move::<G>(state, *seat, mv),
        Input::Chance(outcome) => play_chance::<G>(state, outcome),
    }
}

/// Resolves every pending chance event from `seed`, the event at ply `p` drawing from stream `p`.
/// Returns the realised outcomes with their events, in order, starting at `next_ply`.
pub fn resolve_from_seed<G: Game>(
    state: &mut Consistent<G>,
    seed: &Seed,
    next_ply: u64,
) -> Vec<(G::Chance, Vec<G::Event>)> {
    let mut resolved = Vec::new();
    let mut ply = next_ply;
    while G::chance_pending(state) && !G::is_over(state) {
        let outcome = G::sample_chance(state, &mut seed.stream(ply));
        let events = state
            .resolve_chance(&outcome)
            .unwrap_or_else(|v| panic!("{} sampled an impossible outcome: {v}", G::KIND.slug()));
        resolved.push((outcome, events));
        ply += 1;
    }
    resolved
}

/// The state after the first `upto` inputs of a log (all of them if `None`), with each input's
/// events. A log that does not replay is an error: it names the first ply that fails.
pub fn replay<G: Game>(
    options: ValidOptions<G::Options>,
    inputs: &[GameInput<G>],
    upto: Option<usize>,
) -> Result<Replayed<G>, (usize, RefereeError)> {
    let mut state = Consistent::<G>::new(options);
    let count = upto.unwrap_or(inputs.len()).min(inputs.len());
    let mut events = Vec::with_capacity(count);
    for (index, input) in inputs[..count].iter().enumerate() {
        events.push(play_input::<G>(&mut state, input).map_err(|e| (index + 1, e))?);
    }
    Ok((state, events))
}

// ---------------------------------------------------------------------------------------------
// The stateless endpoints: a request typed for the game or held as JSON, checked in one order.

/// A state with what clients need to act on it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct StateReply<P: Payloads = Json> {
    /// The full state (hidden information included): post it back to the other stateless
    /// endpoints.
    pub state: P::State,
    /// Seats that may move now.
    pub to_act: Vec<Seat>,
    /// True when play waits for a chance outcome (report it to `/chance`).
    pub chance_pending: bool,
    pub over: bool,
    /// What happened, in order.
    pub events: Vec<P::Event>,
}

/// A game whose wire types are its own [`Payloads`]: every engine.
pub trait Engine: Game + ToSchema + 'static {}
impl<G: Game + ToSchema + 'static> Engine for G {}

/// How the parts of a request become game `G`'s values: a request parsed straight into the game's
/// types ([`Payloads`] of `G`) is taken as it is; one held as JSON ([`Json`]) is parsed here, part
/// by part, so each part gets its own refusal code in the referee's check order.
pub trait Untrusted<G: Game>: Payloads {
    fn state(state: Self::State) -> Result<G::State, RefereeError>;
    fn game_move(mv: Self::Move) -> Result<G::Move, RefereeError>;
    fn chance(outcome: Self::Chance) -> Result<G::Chance, RefereeError>;
    fn tally(round: Self::Tally) -> Result<G::Tally, RefereeError>;
    /// Absent options are the defaults; the player count is checked first.
    fn options(
        options: Option<Self::Options>,
        players: usize,
    ) -> Result<ValidOptions<G::Options>, RefereeError>;
}

impl<G: Engine> Untrusted<G> for G {
    fn state(state: G::State) -> Result<G::State, RefereeError> {
        Ok(state)
    }
    fn game_move(mv: G::Move) -> Result<G::Move, RefereeError> {
        Ok(mv)
    }
    fn chance(outcome: G::Chance) -> Result<G::Chance, RefereeError> {
        Ok(outcome)
    }
    fn tally(round: G::Tally) -> Result<G::Tally, RefereeError> {
        Ok(round)
    }
    fn options(
        options: Option<G::Options>,
        players: usize,
    ) -> Result<ValidOptions<G::Options>, RefereeError> {
        check_player_count::<G>(players)?;
        validated_options::<G>(options.unwrap_or_default(), players)
    }
}

impl<G: Game> Untrusted<G> for Json {
    fn state(state: Value) -> Result<G::State, RefereeError> {
        parse(What::State, state)
    }
    fn game_move(mv: Value) -> Result<G::Move, RefereeError> {
        parse(What::Move, mv)
    }
    fn chance(outcome: Value) -> Result<G::Chance, RefereeError> {
        parse(What::Chance, outcome)
    }
    fn tally(round: Value) -> Result<G::Tally, RefereeError> {
        parse(What::Tally, round)
    }
    fn options(
        options: Option<Value>,
        players: usize,
    ) -> Result<ValidOptions<G::Options>, RefereeError> {
        self::options::<G>(options, players)
    }
}

fn state_reply<G: Engine>(state: Consistent<G>, events: &[G::Event]) -> StateReply<G> {
    StateReply {
        to_act: G::to_act(&state),
        chance_pending: G::chance_pending(&state),
        over: G::is_over(&state),
        events: events
            .iter()
            .map(|e| G::redact_event(e, Viewer::Full))
            .collect(),
        state: state.into_inner(),
    }
}

/// A fresh state for `players`; with a seed, every chance event up to the first move is resolved.
pub fn setup<G: Engine, P: Untrusted<G>>(
    players: usize,
    options: Option<P::Options>,
    seed: Option<&Seed>,
) -> Result<StateReply<G>, RefereeError> {
    let mut state = Consistent::<G>::new(P::options(options, players)?);
    let mut events = Vec::new();
    if let Some(seed) = seed {
        for (_, evs) in resolve_from_seed::<G>(&mut state, seed, 1) {
            events.extend(evs);
        }
    }
    Ok(state_reply::<G>(state, &events))
}

/// Plays `mv` as `seat` on a client-supplied state: the state is checked before the move is read.
pub fn check<G: Engine, P: Untrusted<G>>(
    state: P::State,
    seat: Seat,
    mv: P::Move,
) -> Result<StateReply<G>, RefereeError> {
    let mut state = consistent::<G>(P::state(state)?)?;
    let mv = P::game_move(mv)?;
    let events = play_move::<G>(&mut state, seat, &mv)?;
    Ok(state_reply::<G>(state, &events))
}

/// Applies a reported chance outcome to a client-supplied state.
pub fn chance<G: Engine, P: Untrusted<G>>(
    state: P::State,
    outcome: P::Chance,
) -> Result<StateReply<G>, RefereeError> {
    let mut state = consistent::<G>(P::state(state)?)?;
    let outcome = P::chance(outcome)?;
    let events = play_chance::<G>(&mut state, &outcome)?;
    Ok(state_reply::<G>(state, &events))
}

/// Every legal move of `seat` in a client-supplied state.
pub fn legal_moves<G: Engine, P: Untrusted<G>>(
    state: P::State,
    seat: Seat,
) -> Result<Vec<G::Move>, RefereeError> {
    let state = consistent::<G>(P::state(state)?)?;
    check_seat::<G>(&state, seat)?;
    Ok(G::legal_moves(&state, seat))
}

/// A score with its itemised breakdown.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct ScoreReply<P: Payloads = Json> {
    /// The game's itemised breakdown.
    pub breakdown: P::Score,
    pub standings: Standings,
    pub over: bool,
}

/// The score of a client-supplied state.
pub fn score<G: Engine, P: Untrusted<G>>(state: P::State) -> Result<ScoreReply<G>, RefereeError> {
    let state = consistent::<G>(P::state(state)?)?;
    Ok(ScoreReply {
        breakdown: G::score(&state),
        standings: G::standings(&state),
        over: G::is_over(&state),
    })
}

/// What `viewer` may see of a client-supplied state.
pub fn view<G: Engine, P: Untrusted<G>>(
    state: P::State,
    viewer: Viewer,
) -> Result<G::View, RefereeError> {
    let state = consistent::<G>(P::state(state)?)?;
    if let Viewer::Seat(seat) = viewer {
        check_seat::<G>(&state, seat)?;
    }
    Ok(G::view(&state, viewer))
}

/// Described rounds scored one by one, with the running standings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct TallyReply<P: Payloads = Json> {
    /// Each round scored: points per seat and the game's breakdown.
    pub rounds: Vec<P::TallyScore>,
    pub standings: Standings,
    /// Whether the game's end rule is met (rounds played, target reached...).
    pub over: bool,
}

/// Described rounds, scored, with the standings they lead to.
pub struct Tallied<G: Game> {
    pub rounds: Vec<G::TallyScore>,
    pub standings: Standings,
    pub over: bool,
}

/// Scores the rounds of a physical game, as a score sheet describes them. On a refusal, says
/// which round (0-based) was refused.
pub fn tally<G: Game>(
    options: &G::Options,
    players: usize,
    rounds: &[G::Tally],
) -> Result<Tallied<G>, (usize, RefereeError)> {
    let mut scored: Vec<G::TallyScore> = Vec::with_capacity(rounds.len());
    for (index, round) in rounds.iter().enumerate() {
        if G::tally_standings(options, players, &scored).1 {
            return Err((index, RefereeError::TallyAfterEnd { rounds: index }));
        }
        let score = G::score_tally(options, players, index as u32 + 1, round)
            .map_err(|v| (index, RefereeError::violation(v)))?;
        scored.push(score);
    }
    let (standings, over) = G::tally_standings(options, players, &scored);
    Ok(Tallied {
        rounds: scored,
        standings,
        over,
    })
}

/// Described rounds checked and scored, the refused round named in the refusal.
pub fn tally_reply<G: Engine, P: Untrusted<G>>(
    players: usize,
    options: Option<P::Options>,
    rounds: Vec<P::Tally>,
) -> Result<TallyReply<G>, RefereeError> {
    let options = P::options(options, players)?;
    let rounds: Vec<G::Tally> = rounds.into_iter().map(P::tally).collect::<Result<_, _>>()?;
    let tallied =
        tally::<G>(options.options(), players, &rounds).map_err(|(index, e)| match e {
            RefereeError::Violation {
                code,
                message,
                mut params,
                stale,
            } => {
                params.insert("round".into(), (index + 1).into());
                RefereeError::Violation {
                    code,
                    message: format!("round {}: {message}", index + 1),
                    params,
                    stale,
                }
            }
            other => other,
        })?;
    Ok(TallyReply {
        rounds: tallied.rounds,
        standings: tallied.standings,
        over: tallied.over,
    })
}
