//! Legal moves.

use super::*;

#[test]
fn legal_moves_list_every_ten_swap_and_king_target_pair_once() {
    let state = table(
        &["10 K", "3 3", "4 4", "6 6"],
        &[("J", "Q"), ("8", "7"), ("9", "2"), ("5", "3")],
        0,
    );
    let moves = PlusMinus::legal_moves(&state, 0);
    // 10 fits on J (0 plus) and 9 (2 plus): 2 × C(8, 2) = 56. K fits on Q (0 minus): C(3, 2) = 3.
    assert_eq!(moves.len(), 56 + 3);
    for mv in &moves {
        PlusMinus::validate(&state, 0, mv).unwrap();
    }
    assert!(PlusMinus::legal_moves(&state, 1).is_empty());
}
