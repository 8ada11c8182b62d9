//! Check_state.

use super::*;

#[test]
fn inconsistent_states_are_rejected_with_stable_codes() {
    let code = |state: &State| LuckyLuau::check_state(state).unwrap_err().code;
    let good = new_game(3);
    let mut s = good.clone();
    s.face_down.add(Card::Blue, 1);
    assert_eq!(code(&s), "cards_not_conserved");
    let mut s = good.clone();
    s.players = 7;
    assert_eq!(code(&s), "bad_player_count");
    let mut s = good.clone();
    s.seats.pop();
    assert_eq!(code(&s), "bad_seat_count");
    let mut s = good.clone();
    s.seats[1].lei.push(Slot::Hook);
    assert_eq!(code(&s), "tools_not_conserved");
    let mut s = good.clone();
    s.seats[1].knife_used = true;
    assert_eq!(code(&s), "tools_not_conserved");
    let mut s = good.clone();
    s.phase = Phase::End;
    assert_eq!(code(&s), "phase_contradiction");
    let mut s = good.clone();
    s.seats[0].finished = true;
    s.seats[0].guests = vec![[0, 0]; 3];
    assert_eq!(code(&s), "phase_contradiction");
    let mut s = good.clone();
    s.chance = Some(PendingChance::Draw {
        seat: 1,
        pile: s.face_down,
    });
    assert_eq!(code(&s), "chance_mismatch");
    let mut s = good.clone();
    s.options.first_player = 4;
    assert_eq!(code(&s), "invalid_options");
    let mut s = good;
    s.turn = 3;
    assert_eq!(code(&s), "bad_turn");
}
