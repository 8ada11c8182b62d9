//! Property tests: random legal play from random seeds keeps every invariant of Lucky Dice. In
//! the race the acting seat is picked at random among `to_act`, as arrival order would.

use proptest::prelude::*;
use referee::games::lucky_dice::{
    balanced_coaster_set, Chance, EndMode, LuckyDice, Move, Options, Phase, State,
};
use referee::games::{Game, Seat, Viewer};
use referee::seed::Seed;

#[derive(Clone, Debug)]
enum Step {
    Move(Seat, Move),
    Chance(Chance),
}

fn candidates() -> Vec<Move> {
    let mut all = vec![
        Move::Stop,
        Move::FinishExtraRolls,
        Move::Roll { dice: None },
        Move::ExtraRoll { dice: None },
    ];
    for dice in 0..=18 {
        all.push(Move::Roll { dice: Some(dice) });
        all.push(Move::ExtraRoll { dice: Some(dice) });
    }
    all
}

fn options_from(
    flags: u8,
    target: u32,
    extra_rolls: u32,
    set_size: usize,
    players: usize,
) -> Options {
    let variant = flags & 1 != 0;
    let set: Vec<_> = balanced_coaster_set()
        .into_iter()
        .take(set_size.max(players))
        .collect();
    let target = if variant {
        target
    } else {
        target.min((set.len() / players) as u32).max(1)
    };
    Options {
        end_mode: if variant {
            EndMode::UntilPileEmpty
        } else {
            EndMode::ThreeCoasters
        },
        coaster_target: target,
        coaster_set: set,
        extra_rolls,
        auto_stop: flags & 2 == 0,
        strict_roll_count: flags & 4 == 0,
    }
}

fn check_view(state: &State, viewer: Viewer) {
    let view = LuckyDice::view(state, viewer);
    assert_eq!(
        view.pile.is_some(),
        viewer == Viewer::Full,
        "{viewer:?} and the pile"
    );
    assert_eq!(view.pools, state.pools);
    assert_eq!(view.to_act, LuckyDice::to_act(state));
    match viewer {
        Viewer::Seat(seat) => assert_eq!(view.legal_moves, LuckyDice::legal_moves(state, seat)),
        _ => assert!(view.legal_moves.is_empty()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_play_keeps_every_invariant(
        seed in prop::array::uniform32(any::<u8>()),
        players in 2usize..=6,
        flags in any::<u8>(),
        target in 1u32..=3,
        extra_rolls in 0u32..=3,
        set_size in 6usize..=18,
        picks in prop::collection::vec(any::<u32>(), 1..64),
    ) {
        let options = options_from(flags, target, extra_rolls, set_size, players);
        LuckyDice::validate_options(&options, players).unwrap();
        let strict = options.strict_roll_count;
        let seed = Seed::from_bytes(seed);
        let mut state = LuckyDice::setup(options.clone(), players);
        let mut log = Vec::new();
        let mut ply: u64 = 0;
        let all = candidates();
        while !LuckyDice::is_over(&state) {
            prop_assert!(ply < 200_000, "the game ends");
            LuckyDice::check_state(&state).unwrap();
            // RULINGS 3.3: during a round the 3n dice are always in pools + tray.
            prop_assert_eq!(state.pools.iter().sum::<u32>() + state.tray, 3 * players as u32);
            for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Spectator, Viewer::Full]) {
                check_view(&state, viewer);
            }
            let events = if LuckyDice::chance_pending(&state) {
                prop_assert!(LuckyDice::to_act(&state).is_empty());
                let outcome = LuckyDice::sample_chance(&state, &mut seed.stream(ply));
                log.push(Step::Chance(outcome.clone()));
                LuckyDice::resolve_chance(&mut state, &outcome).unwrap()
            } else {
                let to_act = LuckyDice::to_act(&state);
                prop_assert!(!to_act.is_empty());
                if state.phase == Phase::Race && options.auto_stop {
                    let holding: Vec<Seat> = (0..players).filter(|&s| state.pools[s] > 0).collect();
                    prop_assert_eq!(&to_act, &holding, "every seat holding dice may roll");
                }
                for seat in 0..players {
                    let legal = LuckyDice::legal_moves(&state, seat);
                    prop_assert_eq!(legal.is_empty(), !to_act.contains(&seat));
                    for mv in &legal {
                        prop_assert!(LuckyDice::validate(&state, seat, mv).is_ok(), "listed {:?}", mv);
                    }
                    for mv in &all {
                        let valid = LuckyDice::validate(&state, seat, mv).is_ok();
                        if strict {
                            prop_assert_eq!(valid, legal.contains(mv), "seat {} {:?}", seat, mv);
                        } else if valid {
                            prop_assert!(to_act.contains(&seat));
                        }
                    }
                }
                let pick = picks[ply as usize % picks.len()] as usize;
                let seat = to_act[pick % to_act.len()];
                let legal = LuckyDice::legal_moves(&state, seat);
                let mv = legal[(pick / 7) % legal.len()].clone();
                log.push(Step::Move(seat, mv.clone()));
                LuckyDice::play(&mut state, seat, &mv).unwrap()
            };
            for event in &events {
                for viewer in [Viewer::Seat(0), Viewer::Spectator] {
                    prop_assert_eq!(&LuckyDice::redact_event(event, viewer), event);
                }
            }
            ply += 1;
        }
        LuckyDice::check_state(&state).unwrap();
        prop_assert!(LuckyDice::to_act(&state).is_empty());
        let totals = LuckyDice::score(&state).totals;
        let best = *totals.iter().max().unwrap();
        let expected: Vec<Seat> = (0..players).filter(|&s| totals[s] == best).collect();
        prop_assert_eq!(LuckyDice::standings(&state).winners, expected);
        if options.end_mode == EndMode::ThreeCoasters {
            prop_assert_eq!(best, i64::from(options.coaster_target));
        }
        // The score sheet of the same rounds reaches the same standings and end.
        let rounds: Vec<_> = state
            .results
            .iter()
            .map(|r| {
                LuckyDice::score_tally(
                    &options,
                    players,
                    r.round,
                    &referee::games::lucky_dice::Tally { emptied: r.emptied.clone() },
                )
                .unwrap()
            })
            .collect();
        let (standings, over) = LuckyDice::tally_standings(&options, players, &rounds);
        prop_assert!(over);
        prop_assert_eq!(standings, LuckyDice::standings(&state));

        // Replaying the recorded log from setup reproduces the exact state.
        let mut replay = LuckyDice::setup(options, players);
        for step in &log {
            match step {
                Step::Move(seat, mv) => { LuckyDice::play(&mut replay, *seat, mv).unwrap(); }
                Step::Chance(c) => { LuckyDice::resolve_chance(&mut replay, c).unwrap(); }
            }
        }
        prop_assert_eq!(replay, state);
    }

    #[test]
    fn a_state_survives_a_json_round_trip(
        seed in prop::array::uniform32(any::<u8>()),
        players in 2usize..=6,
        steps in 0usize..300,
    ) {
        let seed = Seed::from_bytes(seed);
        let mut state = LuckyDice::setup(Options::default(), players);
        for ply in 0..steps as u64 {
            if LuckyDice::is_over(&state) { break; }
            if LuckyDice::chance_pending(&state) {
                let outcome = LuckyDice::sample_chance(&state, &mut seed.stream(ply));
                LuckyDice::resolve_chance(&mut state, &outcome).unwrap();
            } else {
                let to_act = LuckyDice::to_act(&state);
                let seat = to_act[ply as usize % to_act.len()];
                let legal = LuckyDice::legal_moves(&state, seat);
                let mv = legal[ply as usize % legal.len()].clone();
                LuckyDice::play(&mut state, seat, &mv).unwrap();
            }
        }
        let json = serde_json::to_string(&state).unwrap();
        let back: State = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, &state);
        LuckyDice::check_state(&back).unwrap();
        // A full view carries everything in the state.
        let full = LuckyDice::view(&state, Viewer::Full);
        prop_assert_eq!(full.pile, Some(state.pile.clone()));
        prop_assert_eq!(full.chance, state.chance.clone());
        prop_assert_eq!(full.coasters, state.coasters.clone());
    }
}
