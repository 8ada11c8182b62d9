//! Views, states, codes.

use super::*;

#[test]
fn views_show_the_table_to_everyone_and_the_pile_only_to_the_full_view() {
    let state = race(first_coasters(3), Cat);
    let seat = LuckyDice::view(&state, Viewer::Seat(1));
    assert_eq!(seat.legal_moves, vec![roll(3)]);
    assert_eq!(seat.pools, vec![3, 3, 3]);
    assert_eq!(seat.pile, None);
    assert_eq!(seat.pile_size, 15);
    let spectator = LuckyDice::view(&state, Viewer::Spectator);
    assert!(spectator.legal_moves.is_empty());
    assert_eq!(spectator.pile, None);
    let full = LuckyDice::view(&state, Viewer::Full);
    assert_eq!(full.pile, Some(state.pile.clone()));
    assert_eq!(full.to_act, vec![0, 1, 2]);
    let event = Event::Rolling {
        seat: 0,
        dice: 3,
        extra: false,
    };
    assert_eq!(LuckyDice::redact_event(&event, Viewer::Spectator), event);
}

#[test]
fn inconsistent_states_are_rejected_with_stable_codes() {
    let mut base = race(first_coasters(3), Cat);
    roll_faces(&mut base, 0, &[Pig, Cat, Penny]);
    LuckyDice::check_state(&base).unwrap();
    let code = |f: &dyn Fn(&mut State)| {
        let mut s = base.clone();
        f(&mut s);
        LuckyDice::check_state(&s).expect_err("inconsistent").code
    };
    assert_eq!(code(&|s| s.players = 7), "bad_player_count");
    assert_eq!(code(&|s| s.pools.push(0)), "bad_seat_count");
    assert_eq!(code(&|s| s.pools[1] += 1), "dice_not_conserved");
    assert_eq!(code(&|s| s.tray += 1), "dice_not_conserved");
    assert_eq!(
        code(&|s| {
            s.pile.pop();
        }),
        "coasters_not_conserved"
    );
    assert_eq!(code(&|s| s.pile.reverse()), "pile_not_sorted");
    assert_eq!(code(&|s| s.options.extra_rolls = 99), "invalid_options");
    assert_eq!(code(&|s| s.round = 2), "bad_round_results");
    assert_eq!(code(&|s| s.lucky_symbol = None), "phase_contradiction");
    assert_eq!(code(&|s| s.stop_caller = Some(1)), "phase_contradiction");
    assert_eq!(
        code(&|s| s.chance = Some(PendingChance::Roll {
            seat: 1,
            dice: 2,
            extra: false
        })),
        "chance_mismatch"
    );
    assert_eq!(
        code(&|s| s.chance = Some(PendingChance::LuckySymbol { round: 1 })),
        "chance_mismatch"
    );
    assert_eq!(
        code(&|s| {
            let coaster = s.coasters[2].take().unwrap();
            s.won[2].push(coaster);
        }),
        "bad_round_results"
    );
    // With automatic stop an empty pool cannot stay in the race.
    assert_eq!(
        code(&|s| {
            s.tray += s.pools[2];
            s.pools[2] = 0;
        }),
        "phase_contradiction"
    );
}
