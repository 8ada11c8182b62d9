//! State checks.

use super::*;

#[test]
fn inconsistent_states_are_rejected_with_stable_codes() {
    let good = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    let code = |f: &dyn Fn(&mut State)| {
        let mut s = good.clone();
        f(&mut s);
        PlusMinus::check_state(&s).unwrap_err().code
    };
    assert_eq!(
        code(&|s| s.hands[0].insert(0, Card::Ace)),
        "cards_not_conserved"
    );
    assert_eq!(code(&|s| s.hands[0] = cards("9 2")), "not_sorted");
    assert_eq!(code(&|s| s.players = 7), "bad_player_count");
    assert_eq!(
        code(&|s| s.stacks.pop().map(|_| ()).unwrap()),
        "bad_seat_count"
    );
    assert_eq!(code(&|s| s.turn = 1), "bad_turn");
    assert_eq!(code(&|s| s.dealer = 2), "bad_dealer");
    assert_eq!(code(&|s| s.round = 4), "bad_round");
    assert_eq!(code(&|s| s.options.first_dealer = 5), "invalid_options");
    assert_eq!(code(&|s| s.plays_remaining = 0), "phase_contradiction");
    assert_eq!(code(&|s| s.phase = Phase::Drawing), "chance_mismatch");
    assert_eq!(
        code(&|s| s.results.push(RoundResult::new(1, 0, vec![]))),
        "bad_round_results"
    );
    assert_eq!(code(&|s| s.phase = Phase::Choose), "phase_contradiction");
    let mut s = good.clone();
    ok(&mut s, 0, &play("9", plus(2)));
    ok(&mut s, 0, &pass("2"));
    PlusMinus::check_state(&s).unwrap();
    if let Some(PendingChance::Draw { count, .. }) = &mut s.chance {
        *count = 2;
    }
    assert_eq!(
        PlusMinus::check_state(&s).unwrap_err().code,
        "chance_mismatch"
    );
}
