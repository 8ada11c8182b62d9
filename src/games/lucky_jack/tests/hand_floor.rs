//! Hand floor.

use super::*;

#[test]
fn a_player_with_three_cards_must_draw_and_keep() {
    // Rulebook note: "A player can never have less than 3 unmatched cards … pick a card and add
    // it to their hand"; RULINGS J4.
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack], vec![Lemon; 7]],
        vec![Lemon],
        0,
    );
    assert_eq!(LuckyJack::legal_moves(&s, 0), vec![Move::Draw]);
    assert_eq!(reject(&s, 0, discard(Jack)), "hand_minimum");
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Grape]));
    assert_eq!(LuckyJack::legal_moves(&s, 0), vec![Move::Keep]);
    assert_eq!(reject(&s, 0, Move::DiscardDrawn), "must_keep_drawn");
    play(&mut s, 0, Move::Keep);
    assert_eq!(s.hands[0].len(), 4);
}

#[test]
fn a_hand_of_four_may_discard_down_to_three() {
    // RULINGS 2.4: discarding needs h >= 4.
    let mut s = table(
        Options::default(),
        vec![vec![Lemon, Bell, Jack, Grape], vec![Lemon; 7]],
        vec![Lemon],
        0,
    );
    play(&mut s, 0, discard(Jack));
    assert_eq!(s.hands[0].len(), 3);
    assert!(s.results.is_empty());
}
