//! Property tests: random legal play from random seeds keeps every invariant of Lucky Jack.

use proptest::prelude::*;
use referee::games::lucky_jack::{Event, LuckyJack, Move, Options, State, Symbol, DECK_SIZE};
use referee::games::{Game, Seat, Viewer};
use referee::seed::Seed;

use crate::invariants::{play_randomly, Random};

fn candidates() -> Vec<Move> {
    let mut all = vec![Move::Draw, Move::Keep, Move::DiscardDrawn, Move::TakeIt];
    for card in Symbol::ALL {
        for jackpot in [false, true] {
            all.push(Move::Discard { card, jackpot });
        }
    }
    all
}

fn cards_in(state: &State) -> usize {
    state.hands.iter().map(Vec::len).sum::<usize>()
        + state.draw_pile.total()
        + state.discard.len()
        + usize::from(state.pending.is_some())
}

/// Structural secrecy: a seat's or spectator's view carries no other hand, no pile composition
/// and no drawn card of another seat.
fn check_view_secrecy(state: &State, viewer: Viewer) {
    let json = serde_json::to_value(LuckyJack::view(state, viewer)).unwrap();
    for (seat, hand) in json["hands"].as_array().unwrap().iter().enumerate() {
        assert_eq!(
            hand.is_null(),
            !viewer.sees_seat(seat),
            "{viewer:?} hand {seat}"
        );
    }
    assert!(json["draw_pile"].is_null(), "{viewer:?} sees the pile");
    if let Some(chance) = json["chance"].as_object() {
        assert!(chance["pile"].is_null(), "{viewer:?} sees the chance pile");
    }
    if !viewer.sees_seat(state.turn) {
        assert!(json["pending"].is_null(), "{viewer:?} sees a drawn card");
    }
}

fn check_event_secrecy(event: &Event, viewer: Viewer) {
    let redacted = LuckyJack::redact_event(event, viewer);
    match &redacted {
        Event::Dealt { seat, cards, .. } | Event::Drew { seat, cards, .. } => {
            assert_eq!(
                cards.is_some(),
                viewer.sees_seat(*seat),
                "{viewer:?} {event:?}"
            );
        }
        Event::Kept { seat, card } => {
            assert_eq!(
                card.is_some(),
                viewer.sees_seat(*seat),
                "{viewer:?} {event:?}"
            );
        }
        other => assert_eq!(other, event, "public events are unchanged"),
    }
}

fn options_from(flags: u8, cap: u32, rounds_five: bool, dealer: usize, players: usize) -> Options {
    Options {
        rounds: if rounds_five { 5 } else { 3 },
        dealer: dealer % players,
        i_take_it_ends_turn: flags & 1 != 0,
        drawn_discard_follows_symbol_rule: flags & 2 != 0,
        lower_discard_can_win: flags & 4 != 0,
        jackpot_auto_declare: flags & 8 == 0,
        starter_plays_after_flip: flags & 16 == 0,
        max_turns_per_round: Some(cap),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_play_keeps_every_invariant(
        seed in prop::array::uniform32(any::<u8>()),
        players in 2usize..=6,
        flags in any::<u8>(),
        cap in 1u32..60,
        rounds_five in any::<bool>(),
        dealer in 0usize..6,
        picks in prop::collection::vec(any::<u32>(), 1..64),
    ) {
        let options = options_from(flags, cap, rounds_five, dealer, players);
        LuckyJack::validate_options(&options, players).unwrap();
        let random = Random { seed: Seed::from_bytes(seed), picks: &picks, max_plies: 100_000, check_every: 10 };
        let all = candidates();
        let played = play_randomly::<LuckyJack>(options.clone(), players, &random, |state, events| {
            prop_assert_eq!(cards_in(state), DECK_SIZE);
            for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Spectator]) {
                check_view_secrecy(state, viewer);
                for event in events {
                    check_event_secrecy(event, viewer);
                }
            }
            if LuckyJack::is_over(state) || LuckyJack::chance_pending(state) {
                return Ok(());
            }
            let to_act = LuckyJack::to_act(state);
            prop_assert_eq!(to_act.len(), 1);
            for seat in 0..players {
                let legal = LuckyJack::legal_moves(state, seat);
                for mv in &all {
                    let valid = LuckyJack::validate(state, seat, mv).is_ok();
                    prop_assert_eq!(valid, legal.contains(mv), "seat {} {:?}", seat, mv);
                }
            }
            Ok(())
        })?;
        let state = played.state;
        prop_assert!(LuckyJack::is_over(&state), "the turn cap ends every game");
        let totals = LuckyJack::score(&state).totals;
        let best = *totals.iter().max().unwrap();
        let expected: Vec<Seat> = (0..players).filter(|&s| totals[s] == best).collect();
        prop_assert_eq!(LuckyJack::standings(&state).winners, expected);
        prop_assert_eq!(state.results.len() as u32, options.rounds);
    }

    #[test]
    fn a_state_survives_a_json_round_trip(
        seed in prop::array::uniform32(any::<u8>()),
        players in 2usize..=6,
        steps in 0u64..200,
    ) {
        let options = Options { max_turns_per_round: Some(30), ..Options::default() };
        let picks: Vec<u32> = (0..64).collect();
        let random = Random { seed: Seed::from_bytes(seed), picks: &picks, max_plies: steps, check_every: u64::MAX };
        let state = play_randomly::<LuckyJack>(options, players, &random, |_, _| Ok(()))?.state;
        // A full view is a superset of the state: everything hidden appears in it.
        let full = LuckyJack::view(&state, Viewer::Full);
        prop_assert!(full.hands.iter().all(Option::is_some));
        prop_assert_eq!(full.draw_pile, Some(state.draw_pile));
        prop_assert_eq!(full.pending, state.pending);
    }
}
