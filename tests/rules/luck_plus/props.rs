//! Property tests: random legal play from random seeds keeps every invariant of Luck Plus
//! (RULINGS 1.1 conservation of the 108 cards, 1.5 legal moves, replay).

use proptest::prelude::*;
use referee::games::luck_plus::{
    Basis, Card, Group, LuckOutPenaltyBonus, LuckPlus, Move, Options, ScoringMode, State,
    StopMistake, TpExtraSameNumberAs, DECK_SIZE,
};
use referee::games::{Game, Seat, Viewer};
use referee::seed::Seed;

use crate::invariants::{play_randomly, Random};

fn cards_in(state: &State) -> usize {
    state.hands.iter().map(Vec::len).sum::<usize>()
        + state.draw_pile.len()
        + state.draw_bottom.len()
        + state.match_pile.len()
}

/// Moves that are never listed but must be refused (or accepted) consistently: every other kind
/// with simple parameters, so listed-vs-valid disagreements on kinds are caught.
fn probes(state: &State, seat: Seat) -> Vec<Move> {
    let mut probes = vec![
        Move::Roll,
        Move::Draw,
        Move::Keep,
        Move::LuckPlus { bonus: vec![] },
    ];
    let mut distinct = state.hands[seat].clone();
    distinct.dedup();
    for &card in &distinct {
        for basis in [
            Basis::Top,
            Basis::Split,
            Basis::Total,
            Basis::Doubles,
            Basis::SingleDie,
        ] {
            probes.push(Move::Play {
                groups: vec![Group {
                    basis,
                    cards: vec![card],
                }],
            });
        }
        probes.push(Move::Bonus { cards: vec![card] });
    }
    probes
}

fn options_from(flags: u16, mode: u8, target: u32, dealer: usize, players: usize) -> Options {
    Options {
        scoring: match mode % 3 {
            0 => ScoringMode::Hands,
            1 => ScoringMode::PointsToWinner,
            _ => ScoringMode::PenaltyPoints,
        },
        target: Some(match mode % 3 {
            0 => 1 + target % 2,
            _ => 1 + target % 40,
        }),
        luck_out_full_round: flags & 1 != 0,
        luck_out_bonus_in_penalty: if flags & 2 != 0 {
            LuckOutPenaltyBonus::Ignore
        } else {
            LuckOutPenaltyBonus::Subtract
        },
        reshuffle_match_pile: flags & 4 == 0,
        dice_reuse_within_roll: flags & 8 != 0,
        dealer: dealer % players,
        tp_extra_same_number_as: if flags & 16 != 0 {
            TpExtraSameNumberAs::TpCard
        } else {
            TpExtraSameNumberAs::ChosenCard
        },
        stop_mistake: if flags & 32 != 0 {
            StopMistake::Truncate
        } else {
            StopMistake::Reject
        },
        pre_roll_top_match_on_first_turn: flags & 64 == 0,
    }
}

fn check_view_secrecy(state: &State, viewer: Viewer) {
    let json = serde_json::to_value(LuckPlus::view(state, viewer)).unwrap();
    assert!(json["draw_pile"].is_null(), "{viewer:?} sees the draw pile");
    if let Some(chance) = json["chance"].as_object() {
        assert!(chance["pile"].is_null(), "{viewer:?} sees the chance pile");
    }
    // Hands are face up: everyone sees every hand.
    assert_eq!(json["hands"], serde_json::to_value(&state.hands).unwrap());
}

/// Plies checked per random game at most.
const MAX_PLIES: u64 = 3_000;

proptest! {
    // A fixed seed keeps the run's length the same every time: Luck Plus has no turn cap, and a
    // random game can run for thousands of plies (each checked here in full).
    #![proptest_config(ProptestConfig {
        cases: 16,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20_261_122),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_legal_play_keeps_every_invariant_and_replays(
        seed in prop::array::uniform32(any::<u8>()),
        players in 2usize..=8,
        flags in any::<u16>(),
        mode in any::<u8>(),
        target in any::<u32>(),
        dealer in 0usize..8,
        picks in prop::collection::vec(any::<u32>(), 1..64),
    ) {
        let options = options_from(flags, mode, target, dealer, players);
        LuckPlus::validate_options(&options, players).unwrap();
        // The game has no turn cap (RULINGS 1): past MAX_PLIES the case stops checking, unfinished.
        let random = Random { seed: Seed::from_bytes(seed), picks: &picks, max_plies: MAX_PLIES, check_every: 10 };
        let mut ply: u64 = 0;
        let played = play_randomly::<LuckPlus>(options, players, &random, |state, _| {
            ply += 1;
            prop_assert_eq!(cards_in(state), DECK_SIZE);
            if ply % 7 == 0 {
                for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Spectator]) {
                    check_view_secrecy(state, viewer);
                }
            }
            if LuckPlus::is_over(state) || LuckPlus::chance_pending(state) {
                return Ok(());
            }
            let to_act = LuckPlus::to_act(state);
            prop_assert_eq!(to_act.len(), 1);
            let seat = to_act[0];
            let legal = LuckPlus::legal_moves(state, seat);
            prop_assert!(!legal.is_empty(), "the acting seat always has a move");
            if ply % 5 == 0 {
                for mv in probes(state, seat) {
                    let valid = LuckPlus::validate(state, seat, &mv).is_ok();
                    prop_assert_eq!(valid, legal.contains(&mv), "{:?}", mv);
                }
            }
            Ok(())
        })?;
        let standings = LuckPlus::standings(&played.state);
        prop_assert_eq!(!standings.winners.is_empty(), LuckPlus::is_over(&played.state));
    }

    #[test]
    fn a_state_survives_a_json_round_trip_and_the_full_view_shows_everything(
        seed in prop::array::uniform32(any::<u8>()),
        players in 2usize..=8,
        steps in 0u64..300,
    ) {
        let options = Options { target: Some(3), ..Options::default() };
        let picks: Vec<u32> = (0..64).collect();
        let random = Random { seed: Seed::from_bytes(seed), picks: &picks, max_plies: steps, check_every: u64::MAX };
        let state = play_randomly::<LuckPlus>(options, players, &random, |_, _| Ok(()))?.state;
        let full = LuckPlus::view(&state, Viewer::Full);
        prop_assert_eq!(full.draw_pile, Some(state.draw_pile.clone()));
        prop_assert_eq!(full.hands, state.hands.clone());
        prop_assert!(state.hands.iter().flatten().all(|c| *c != Card::Go(13)));
    }
}
