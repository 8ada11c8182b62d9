//! Property tests: random legal play from random seeds keeps every invariant of Plus & Minus.

use proptest::prelude::*;
use referee::games::plus_minus::{
    all_stacks, Card, Event, HigherBy, Move, Options, PlusMinus, State, DECK_SIZE,
};
use referee::games::{Game, Seat, Viewer};
use referee::seed::Seed;

use crate::invariants::{play_randomly, Random};

fn cards_in(state: &State) -> usize {
    state.hands.iter().map(Vec::len).sum::<usize>()
        + state
            .stacks
            .iter()
            .map(|s| s.plus.len() + s.minus.len())
            .sum::<usize>()
        + state.draw_stack.len()
}

/// Moves worth probing beyond the listed ones: every card as a plain play on every stack, a
/// pass and a forfeit. (`validate` must agree with `legal_moves` on all of them.)
fn probes(players: usize) -> Vec<Move> {
    let mut all = vec![Move::Forfeit];
    for card in Card::ALL {
        all.push(Move::Pass { card });
        for stack in all_stacks(players) {
            all.push(Move::Play {
                card,
                stack,
                swap: None,
                king_targets: None,
            });
        }
    }
    all
}

/// Structural secrecy: a seat's or spectator's view carries no other hand, no buried stack card
/// and no pile.
fn check_view_secrecy(state: &State, viewer: Viewer) {
    let view = PlusMinus::view(state, viewer);
    for (seat, hand) in view.hands.iter().enumerate() {
        assert_eq!(
            hand.is_some(),
            viewer.sees_seat(seat),
            "{viewer:?} hand {seat}"
        );
    }
    for (seat, stacks) in view.stacks.iter().enumerate() {
        for (stack, real) in [
            (&stacks.plus, &state.stacks[seat].plus),
            (&stacks.minus, &state.stacks[seat].minus),
        ] {
            assert!(stack.cards.is_none(), "{viewer:?} sees buried cards");
            assert_eq!(stack.size, real.len());
            if stack.top.is_some() {
                assert_eq!(stack.top, real.last().copied());
            }
        }
    }
    assert!(view.draw_stack.is_none(), "{viewer:?} sees the draw stack");
    if let Some(chance) = &view.chance {
        assert!(chance.pile.is_none(), "{viewer:?} sees the chance pile");
    }
}

fn check_event_secrecy(event: &Event, viewer: Viewer) {
    let redacted = PlusMinus::redact_event(event, viewer);
    match &redacted {
        Event::Dealt { seat, hand, .. } => {
            assert_eq!(
                hand.is_some(),
                viewer.sees_seat(*seat),
                "{viewer:?} {event:?}"
            )
        }
        Event::Drew { seat, cards, .. } => {
            assert_eq!(
                cards.is_some(),
                viewer.sees_seat(*seat),
                "{viewer:?} {event:?}"
            )
        }
        Event::Passed { seat, to, card } => assert_eq!(
            card.is_some(),
            viewer.sees_seat(*seat) || viewer.sees_seat(*to),
            "{viewer:?} {event:?}"
        ),
        Event::MinusToPlus { cards, .. } => assert!(cards.is_none(), "{viewer:?} {event:?}"),
        other => assert_eq!(other, event, "public events are unchanged"),
    }
}

fn options_from(flags: u8, rounds: u32, dealer: usize, players: usize) -> Options {
    Options {
        rounds: Some(rounds),
        first_dealer: dealer % players,
        higher_by: if flags & 1 != 0 {
            HigherBy::Points
        } else {
            HigherBy::Rank
        },
        empty_stack_accepts_any: flags & 2 == 0,
        pass_after_forfeit: flags & 4 == 0,
        face_up_chosen_by_player: flags & 8 != 0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_play_keeps_every_invariant(
        seed in prop::array::uniform32(any::<u8>()),
        players in 3usize..=6,
        flags in any::<u8>(),
        rounds in 1u32..=2,
        dealer in 0usize..6,
        picks in prop::collection::vec(any::<u32>(), 1..64),
    ) {
        let options = options_from(flags, rounds, dealer, players);
        PlusMinus::validate_options(&options, players).unwrap();
        let random = Random { seed: Seed::from_bytes(seed), picks: &picks, max_plies: 5_000, check_every: 10 };
        let probes = probes(players);
        let played = play_randomly::<PlusMinus>(options, players, &random, |state, events| {
            prop_assert_eq!(cards_in(state), DECK_SIZE);
            for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Spectator]) {
                check_view_secrecy(state, viewer);
                for event in events {
                    check_event_secrecy(event, viewer);
                }
            }
            if PlusMinus::is_over(state) || PlusMinus::chance_pending(state) {
                return Ok(());
            }
            for seat in 0..players {
                let legal = PlusMinus::legal_moves(state, seat);
                for mv in &probes {
                    let valid = PlusMinus::validate(state, seat, mv).is_ok();
                    prop_assert_eq!(valid, legal.contains(mv), "seat {} {:?}", seat, mv);
                }
            }
            Ok(())
        })?;
        let (state, ply) = (played.state, played.plies);
        prop_assert!(PlusMinus::is_over(&state), "every turn draws, so rounds end");
        prop_assert_eq!(state.results.len() as u32, rounds);
        prop_assert!(ply >= 40 * u64::from(rounds), "whole rounds were played ({} plies)", ply);
        for result in &state.results {
            let cards: usize = result.seats.iter().map(|s| s.plus_cards + s.minus_cards + s.hand_cards).sum();
            prop_assert_eq!(cards, DECK_SIZE, "every card is on a stack or in a hand at round end");
        }
        let totals = PlusMinus::score(&state).totals;
        let best = *totals.iter().max().unwrap();
        let expected: Vec<Seat> = (0..players).filter(|&s| totals[s] == best).collect();
        prop_assert_eq!(PlusMinus::standings(&state).winners, expected);
    }

    #[test]
    fn a_state_survives_a_json_round_trip_and_the_full_view_holds_everything(
        seed in prop::array::uniform32(any::<u8>()),
        players in 3usize..=6,
        steps in 0u64..150,
    ) {
        let picks: Vec<u32> = (0..64).collect();
        let random = Random { seed: Seed::from_bytes(seed), picks: &picks, max_plies: steps, check_every: u64::MAX };
        let state = play_randomly::<PlusMinus>(Options::default(), players, &random, |_, _| Ok(()))?.state;
        let full = PlusMinus::view(&state, Viewer::Full);
        prop_assert!(full.hands.iter().all(Option::is_some));
        prop_assert_eq!(full.draw_stack.as_ref(), Some(&state.draw_stack));
        for (seat, stacks) in full.stacks.iter().enumerate() {
            prop_assert_eq!(stacks.plus.cards.as_ref(), Some(&state.stacks[seat].plus));
            prop_assert_eq!(stacks.minus.cards.as_ref(), Some(&state.stacks[seat].minus));
        }
    }
}
