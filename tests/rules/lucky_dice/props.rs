//! Property tests: random legal play from random seeds keeps every invariant of Lucky Dice. In
//! the race the acting seat is picked at random among `to_act`, as arrival order would.

use proptest::prelude::*;
use referee::games::lucky_dice::{
    balanced_coaster_set, EndMode, LuckyDice, Move, Options, Phase, State,
};
use referee::games::{Game, Seat, Viewer};
use referee::seed::Seed;

use crate::invariants::{play_randomly, Random};

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
        let random = Random { seed: Seed::from_bytes(seed), picks: &picks, max_plies: 200_000, check_every: 10 };
        let all = candidates();
        let played = play_randomly::<LuckyDice>(options.clone(), players, &random, |state, events| {
            // RULINGS 3.3: during a round the 3n dice are always in pools + tray.
            prop_assert_eq!(state.pools.iter().sum::<u32>() + state.tray, 3 * players as u32);
            for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Spectator, Viewer::Full]) {
                check_view(state, viewer);
            }
            for event in events {
                for viewer in [Viewer::Seat(0), Viewer::Spectator] {
                    prop_assert_eq!(&LuckyDice::redact_event(event, viewer), event);
                }
            }
            if LuckyDice::is_over(state) || LuckyDice::chance_pending(state) {
                return Ok(());
            }
            let to_act = LuckyDice::to_act(state);
            if state.phase == Phase::Race && options.auto_stop {
                let holding: Vec<Seat> = (0..players).filter(|&s| state.pools[s] > 0).collect();
                prop_assert_eq!(&to_act, &holding, "every seat holding dice may roll");
            }
            for seat in 0..players {
                let legal = LuckyDice::legal_moves(state, seat);
                for mv in &all {
                    let valid = LuckyDice::validate(state, seat, mv).is_ok();
                    if strict {
                        prop_assert_eq!(valid, legal.contains(mv), "seat {} {:?}", seat, mv);
                    } else if valid {
                        prop_assert!(to_act.contains(&seat));
                    }
                }
            }
            Ok(())
        })?;
        let state = played.state;
        prop_assert!(LuckyDice::is_over(&state), "the game ends");
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
    }

    #[test]
    fn a_state_survives_a_json_round_trip(
        seed in prop::array::uniform32(any::<u8>()),
        players in 2usize..=6,
        steps in 0u64..300,
    ) {
        let picks: Vec<u32> = (0..64).collect();
        let random = Random { seed: Seed::from_bytes(seed), picks: &picks, max_plies: steps, check_every: u64::MAX };
        let state = play_randomly::<LuckyDice>(Options::default(), players, &random, |_, _| Ok(()))?.state;
        // A full view carries everything in the state.
        let full = LuckyDice::view(&state, Viewer::Full);
        prop_assert_eq!(full.pile, Some(state.pile.clone()));
        prop_assert_eq!(full.chance, state.chance.clone());
        prop_assert_eq!(full.coasters, state.coasters.clone());
    }
}
