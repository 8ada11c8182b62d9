//! What every game keeps, checked over the `Game` trait alone, once per game: random play through
//! the referee (the path the HTTP API takes) from random seeds, and at every state reached (or
//! every n-th, see [`Random::check_every`])
//!
//! - the state is consistent and survives a JSON round trip, as the stateless endpoints take it;
//! - every listed legal move survives a JSON round trip and is accepted, and only the seats that
//!   may act have any;
//! - a refusal (another seat's turn, an unknown seat, a move not listed, a chance outcome when
//!   none is pending, a move while one is) leaves the state unchanged;
//! - views, events and scores survive a JSON round trip, and neither a seat's view nor a
//!   spectator's shows anything hidden from it (see [`check_secrecy`]);
//!
//! and at the end, the replay of the recorded log equals the state, event for event.
//!
//! Each game's own properties (conservation of its cards or dice, the fields its views hide, its
//! end rule) stay in `<game>/props.rs`, which plays through [`play_randomly`] as well.

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use referee::games::{Consistent, Game, GameKind, Seat, Viewer};
use referee::referee::{self as engine, GameInput, Input};
use referee::seed::Seed;
use serde::{de::DeserializeOwned, Serialize};
use serde_json::Value;

/// Moves kept to probe refusals with (moves seen listed earlier in the game), at most.
const PROBES: usize = 48;

/// Of which this many are tried at each state.
const PROBES_PER_PLY: usize = 3;

/// A random game: where its chance comes from, how it picks seats and moves, and when it stops.
pub struct Random<'a> {
    pub seed: Seed,
    /// Consumed in turn, one per ply, to pick the acting seat and its move.
    pub picks: &'a [u32],
    /// The game stops here, over or not.
    pub max_plies: u64,
    /// States, views, events, listed moves and refusals are checked in full every this many
    /// plies and at the end: 1 for the shared test, more for a game's own tests, which check their
    /// views themselves (`u64::MAX`: only the first and last states).
    pub check_every: u64,
}

/// The end of a random game and how many plies led there.
pub struct Played<G: Game> {
    pub state: G::State,
    pub plies: u64,
}

/// Plays random legal moves (and chance from the seed) through the referee, checking every
/// invariant of the module at each state. `each` sees the first state and every later one with
/// the events that led to it, for the game's own checks.
pub fn play_randomly<G: Game>(
    options: G::Options,
    players: usize,
    random: &Random,
    mut each: impl FnMut(&G::State, &[G::Event]) -> Result<(), TestCaseError>,
) -> Result<Played<G>, TestCaseError> {
    let mut state = Consistent::<G>::new(G::validate_options(&options, players).unwrap());
    let mut log: Vec<GameInput<G>> = Vec::new();
    let mut events_log = Vec::new();
    let mut seen: Vec<G::Move> = Vec::new();
    let mut chances: Vec<G::Chance> = Vec::new();
    let mut plies: u64 = 0;
    check_state_of::<G>(&state, players, &[])?;
    each(&state, &[])?;
    while !G::is_over(&state) && plies < random.max_plies {
        let in_full = plies % random.check_every == 0;
        // A few probes per ply, in turn, keep long games fast.
        let from = plies as usize % seen.len().max(1);
        let probes: Vec<G::Move> = seen
            .iter()
            .cycle()
            .skip(from)
            .take(PROBES_PER_PLY.min(seen.len()))
            .cloned()
            .collect();
        if in_full {
            check_refusals::<G>(&state, players, &probes, &chances[..chances.len().min(2)])?;
        }
        let input = if G::chance_pending(&state) {
            prop_assert!(
                G::to_act(&state).is_empty(),
                "nobody acts while chance is pending"
            );
            let outcome = G::sample_chance(&state, &mut random.seed.stream(plies));
            round_trip(&outcome)?;
            if chances.len() < PROBES {
                chances.push(outcome.clone());
            }
            Input::Chance(outcome)
        } else {
            let to_act = G::to_act(&state);
            prop_assert!(!to_act.is_empty(), "someone acts when no chance is pending");
            for seat in 0..players {
                let legal = G::legal_moves(&state, seat);
                prop_assert_eq!(legal.is_empty(), !to_act.contains(&seat), "seat {}", seat);
                for mv in &legal {
                    if in_full {
                        check_listed_move::<G>(&state, seat, mv)?;
                    }
                    if seen.len() < PROBES && !seen.contains(mv) {
                        seen.push(mv.clone());
                    }
                }
            }
            let pick = random.picks[plies as usize % random.picks.len()] as usize;
            let seat = to_act[pick % to_act.len()];
            let legal = G::legal_moves(&state, seat);
            let mv = legal[(pick / 7) % legal.len()].clone();
            Input::Move { seat, mv }
        };
        let events = engine::play_input::<G>(&mut state, &input)
            .map_err(|e| TestCaseError::fail(format!("ply {plies}: {input:?} refused: {e}")))?;
        plies += 1;
        let last = G::is_over(&state) || plies == random.max_plies;
        if plies % random.check_every == 0 || last {
            check_state_of::<G>(&state, players, &events)?;
        }
        each(&state, &events)?;
        log.push(input);
        events_log.push(events);
    }
    if G::is_over(&state) {
        prop_assert!(
            G::to_act(&state).is_empty(),
            "nobody acts once the game is over"
        );
        prop_assert!(
            !G::standings(&state).winners.is_empty(),
            "a game over has winners"
        );
    }
    let (replayed, replayed_events) =
        engine::replay::<G>(G::validate_options(&options, players).unwrap(), &log, None).map_err(
            |(ply, e)| TestCaseError::fail(format!("the log fails to replay at {ply}: {e}")),
        )?;
    prop_assert_eq!(&replayed, &state, "the replay of the log equals the state");
    prop_assert_eq!(
        replayed_events,
        events_log,
        "the replay gives the same events"
    );
    Ok(Played {
        state: state.into_inner(),
        plies,
    })
}

/// The checks on one state and the events that led to it.
fn check_state_of<G: Game>(
    state: &G::State,
    players: usize,
    events: &[G::Event],
) -> Result<(), TestCaseError> {
    G::check_state(state).map_err(|e| TestCaseError::fail(format!("{}: {}", e.code, e.detail)))?;
    prop_assert_eq!(
        G::players(state),
        players,
        "the state counts the seats it was set up with"
    );
    // The stateless endpoints take a state as JSON and check it the same way.
    let back = engine::untrusted_state::<G>(engine::to_json(state))
        .map_err(|e| TestCaseError::fail(format!("the state's JSON is refused: {e}")))?;
    prop_assert_eq!(&*back, state, "JSON round trip of the state");
    round_trip(&G::score(state))?;
    let viewers: Vec<Viewer> = (0..players).map(Viewer::Seat).collect();
    let views: Vec<Value> = viewers
        .iter()
        .map(|&v| round_trip(&G::view(state, v)))
        .collect::<Result<_, _>>()?;
    let full = round_trip(&G::view(state, Viewer::Full))?;
    let spectator = round_trip(&G::view(state, Viewer::Spectator))?;
    check_secrecy("view", &full, &spectator, &views, true).map_err(TestCaseError::fail)?;
    for event in events {
        let full = round_trip(event)?;
        prop_assert_eq!(
            round_trip(&G::redact_event(event, Viewer::Full))?,
            full.clone()
        );
        let spectator = round_trip(&G::redact_event(event, Viewer::Spectator))?;
        let seen: Vec<Value> = viewers
            .iter()
            .map(|&v| round_trip(&G::redact_event(event, v)))
            .collect::<Result<_, _>>()?;
        // A card passed from one seat to another is known to both: no "one seat" rule here.
        check_secrecy("event", &full, &spectator, &seen, false).map_err(TestCaseError::fail)?;
    }
    Ok(())
}

/// A listed move parses back from its JSON, as a client would send it, and the referee takes it.
fn check_listed_move<G: Game>(
    state: &Consistent<G>,
    seat: Seat,
    mv: &G::Move,
) -> Result<(), TestCaseError> {
    let parsed: G::Move = engine::parse(engine::What::Move, engine::to_json(mv))
        .map_err(|e| TestCaseError::fail(format!("listed {mv:?} does not parse back: {e}")))?;
    prop_assert_eq!(&parsed, mv, "JSON round trip of a listed move");
    let mut after = state.clone();
    if let Err(e) = engine::play_move::<G>(&mut after, seat, mv) {
        return Err(TestCaseError::fail(format!(
            "seat {seat}: listed {mv:?} is refused: {e}"
        )));
    }
    Ok(())
}

/// Every refusal the referee can give here leaves the state as it was.
fn check_refusals<G: Game>(
    state: &Consistent<G>,
    players: usize,
    moves: &[G::Move],
    chances: &[G::Chance],
) -> Result<(), TestCaseError> {
    let to_act = G::to_act(state);
    let pending = G::chance_pending(state);
    let refused = |seat: Seat, mv: &G::Move| -> Result<bool, TestCaseError> {
        let mut after = state.clone();
        let result = engine::play_move::<G>(&mut after, seat, mv);
        if result.is_err() {
            prop_assert_eq!(
                &after,
                state,
                "a refused {:?} of seat {} changed the state",
                mv,
                seat
            );
        }
        Ok(result.is_err())
    };
    for mv in moves {
        prop_assert!(refused(players, mv)?, "an unknown seat is refused");
        for seat in 0..players {
            let may = !pending && to_act.contains(&seat);
            let refusal = refused(seat, mv)?;
            // A seat that may act may have an unlisted move taken: some games list one
            // spelling of a move (e.g. Lucky Dice's default dice count).
            prop_assert!(
                may || refusal,
                "seat {} may not act, yet {:?} is taken",
                seat,
                mv
            );
        }
    }
    for outcome in chances {
        let mut after = state.clone();
        let result = engine::play_chance::<G>(&mut after, outcome);
        if !pending {
            prop_assert!(
                result.is_err(),
                "a chance outcome with none pending is refused"
            );
        }
        if result.is_err() {
            prop_assert_eq!(&after, state, "a refused chance outcome changed the state");
        }
    }
    Ok(())
}

/// `value` as JSON, after checking it reads back as itself.
fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(
    value: &T,
) -> Result<Value, TestCaseError> {
    let json = engine::to_json(value);
    let back: T = serde_json::from_value(json.clone())
        .map_err(|e| TestCaseError::fail(format!("{json} does not read back: {e}")))?;
    prop_assert_eq!(&back, value, "JSON round trip");
    Ok(json)
}

/// Compares what each seat and a spectator see of one thing with the full version, wherever they
/// differ (walking objects and arrays of the same shape down to the first difference):
///
/// - where the spectator sees the full value, so does every seat: nothing public is hidden from
///   a seat, and nothing a seat cannot see is shown to onlookers;
/// - where the spectator does not, each seat sees either the spectator's value or the full one
///   (no half-redaction), and with `one_owner`, at most one seat sees the full one: a seat's
///   view shows no other seat's hidden cards.
///
/// Fields that name the viewer or what it may do ([`VIEWERS_OWN`]) are left out.
pub fn check_secrecy(
    what: &str,
    full: &Value,
    spectator: &Value,
    seats: &[Value],
    one_owner: bool,
) -> Result<(), String> {
    let seats: Vec<&Value> = seats.iter().collect();
    walk(what, full, spectator, &seats, one_owner)
}

fn walk(
    path: &str,
    full: &Value,
    spectator: &Value,
    seats: &[&Value],
    one_owner: bool,
) -> Result<(), String> {
    if spectator == full && seats.iter().all(|s| *s == full) {
        return Ok(());
    }
    if let Some(fields) = full.as_object() {
        let same_keys = |v: &&Value| {
            v.as_object().is_some_and(|o| {
                o.len() == fields.len() && o.keys().all(|k| fields.contains_key(k))
            })
        };
        if same_keys(&spectator) && seats.iter().all(same_keys) {
            for (key, value) in fields {
                if VIEWERS_OWN.contains(&key.as_str()) {
                    continue;
                }
                let seats: Vec<&Value> = seats.iter().map(|s| &s[key]).collect();
                walk(
                    &format!("{path}.{key}"),
                    value,
                    &spectator[key],
                    &seats,
                    one_owner,
                )?;
            }
            return Ok(());
        }
    }
    if let Some(items) = full.as_array() {
        let same_len = |v: &&Value| v.as_array().is_some_and(|a| a.len() == items.len());
        if same_len(&spectator) && seats.iter().all(same_len) {
            for (index, value) in items.iter().enumerate() {
                let seats: Vec<&Value> = seats.iter().map(|s| &s[index]).collect();
                walk(
                    &format!("{path}[{index}]"),
                    value,
                    &spectator[index],
                    &seats,
                    one_owner,
                )?;
            }
            return Ok(());
        }
    }
    if spectator == full {
        let blind = seats.iter().position(|s| *s != full);
        return match blind {
            Some(seat) => Err(format!(
                "{path}: a spectator sees {full} but seat {seat} sees {}",
                seats[seat]
            )),
            None => Ok(()),
        };
    }
    if let Some(seat) = seats.iter().position(|s| *s != full && *s != spectator) {
        return Err(format!(
            "{path}: seat {seat} sees {}, neither the full {full} nor the spectator's {spectator}",
            seats[seat]
        ));
    }
    let owners: Vec<usize> = (0..seats.len()).filter(|&s| seats[s] == full).collect();
    if one_owner && owners.len() > 1 {
        return Err(format!(
            "{path}: seats {owners:?} all see the hidden {full}"
        ));
    }
    Ok(())
}

/// Fields of a view about who looks, not what is hidden.
const VIEWERS_OWN: &[&str] = &["viewer", "legal_moves"];

/// `players` mapped into the game's range.
fn players_of<G: Game>(players: usize) -> usize {
    G::MIN_PLAYERS + players % (G::MAX_PLAYERS - G::MIN_PLAYERS + 1)
}

/// Random games of `kind` with its default options (the rulebook's), each keeping the invariants
/// above; panics naming the game and the smallest failing input.
fn keeps_the_shared_invariants(kind: GameKind) {
    let config = ProptestConfig {
        cases: 5,
        // A runner outside `proptest!` knows no source file to keep regressions next to.
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let inputs = (
        prop::array::uniform32(any::<u8>()),
        0usize..8,
        prop::collection::vec(any::<u32>(), 1..64),
    );
    let result = TestRunner::new(config).run(&inputs, |(seed, players, picks)| {
        let random = Random {
            seed: Seed::from_bytes(seed),
            picks: &picks,
            max_plies: 200,
            check_every: 1,
        };
        referee::with_game!(kind, G => {
            let options = <G as Game>::Options::default();
            play_randomly::<G>(options, players_of::<G>(players), &random, |_, _| Ok(()))?;
        });
        Ok(())
    });
    if let Err(e) = result {
        panic!("{}: {e}", kind.slug());
    }
}

/// Every game keeps the invariants above, each game on its own thread (the slowest test here).
#[test]
fn every_game_keeps_the_shared_invariants_with_its_default_options() {
    std::thread::scope(|scope| {
        for &kind in GameKind::ALL {
            scope.spawn(move || keeps_the_shared_invariants(kind));
        }
    });
}

/// The secrecy check itself: it must flag a seat that sees another's hand and a spectator that
/// sees what no seat does, or the games' views would pass it vacuously.
#[test]
fn the_secrecy_check_catches_a_seat_or_a_spectator_seeing_too_much() {
    let full = serde_json::json!({"hands": [[1, 2], [3]], "pile": [4], "legal_moves": []});
    let spectator = serde_json::json!({"hands": [null, null], "pile": null, "legal_moves": []});
    let seat = |s: usize| {
        let mut view = spectator.clone();
        view["hands"][s] = full["hands"][s].clone();
        view["legal_moves"] = serde_json::json!(["draw"]);
        view
    };
    assert_eq!(
        check_secrecy("view", &full, &spectator, &[seat(0), seat(1)], true),
        Ok(())
    );
    let mut peeking = seat(0);
    peeking["hands"][1] = full["hands"][1].clone();
    assert!(check_secrecy("view", &full, &spectator, &[peeking, seat(1)], true).is_err());
    let mut onlooker = spectator.clone();
    onlooker["pile"] = full["pile"].clone();
    assert!(check_secrecy("view", &full, &onlooker, &[seat(0), seat(1)], true).is_err());
}
