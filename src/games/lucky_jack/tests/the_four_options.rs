//! The four options.

use super::*;

/// Seat 0 to move holding Clover, Bell, Jack and Lemon, seat 1 seven Lemons, `top` on the discard
/// pile.
fn four_cards_on(top: Symbol) -> State {
    table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon], vec![Lemon; 7]],
        vec![top],
        0,
    )
}

/// [`four_cards_on`] `top`, once seat 0 has drawn `card` (still pending).
fn drawn(top: Symbol, card: Symbol) -> State {
    let mut s = four_cards_on(top);
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[card]));
    s
}

#[test]
fn a_same_symbol_discard_ends_the_turn() {
    // Rulebook option 1; RULINGS J2 (the current top).
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon, Grape], vec![Lemon; 7]],
        vec![Jack, Clover],
        0,
    );
    let events = play(&mut s, 0, discard(Clover));
    assert!(events.contains(&Event::Discarded {
        seat: 0,
        card: Clover,
        option: DiscardOption::Same
    }));
    assert_eq!(s.hands[0].len(), 4);
    assert_eq!(LuckyJack::to_act(&s), vec![1]);
}

#[test]
fn a_higher_symbol_discard_ends_the_turn() {
    // Rulebook option 2.
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon, Grape], vec![Lemon; 7]],
        vec![Clover],
        0,
    );
    let events = play(&mut s, 0, discard(Jack));
    assert!(matches!(
        events[0],
        Event::Discarded {
            option: DiscardOption::Higher,
            ..
        }
    ));
    assert_eq!(s.discard.last(), Some(&Jack));
    assert_eq!(s.turn, 1);
}

#[test]
fn a_lower_symbol_discard_draws_two_cards() {
    // Rulebook option 3: "then they must take 2 cards from the draw pile".
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon, Grape], vec![Lemon; 7]],
        vec![Clover],
        0,
    );
    play(&mut s, 0, discard(Lemon));
    assert!(matches!(
        s.chance,
        Some(PendingChance::Draw {
            seat: 0,
            count: 2,
            ..
        })
    ));
    assert!(LuckyJack::to_act(&s).is_empty());
    assert_eq!(reject(&s, 1, Move::Draw), "chance_pending");
    resolve(&mut s, draw(&[Seven, Cherry]));
    assert_eq!(s.hands[0], vec![Cherry, Grape, Clover, Bell, Seven, Jack]);
    assert_eq!(s.turn, 1);
}

#[test]
fn drawing_one_card_leaves_it_pending_until_kept() {
    // Rulebook option 4: "either he adds the card to his deck or he discards it".
    let mut s = drawn(Clover, Bell);
    assert_eq!(s.pending, Some(Bell));
    assert_eq!(
        LuckyJack::legal_moves(&s, 0),
        vec![Move::Keep, Move::DiscardDrawn]
    );
    let events = play(&mut s, 0, Move::Keep);
    assert_eq!(
        events[0],
        Event::Kept {
            seat: 0,
            card: Some(Bell)
        }
    );
    assert_eq!(s.hands[0].len(), 5);
    assert_eq!(s.turn, 1);
}

#[test]
fn a_discarded_drawn_card_skips_the_symbol_check_by_default() {
    // RULINGS 2.4 / J5: discarding the drawn card has no symbol check or penalty.
    let mut s = drawn(Jack, Lemon);
    let events = play(&mut s, 0, Move::DiscardDrawn);
    assert!(events.contains(&Event::DiscardedDrawn {
        seat: 0,
        card: Lemon,
        option: None
    }));
    assert!(s.chance.is_none());
    assert_eq!(s.hands[0].len(), 4);
    assert_eq!(
        s.takeable,
        Some(Takeable {
            card: Lemon,
            from: 0,
            by: 1
        })
    );
}

#[test]
fn drawing_then_discarding_a_different_card_is_forbidden() {
    // Rulebook note: "It is forbidden to take a card from the stock, put it in your hand, and
    // then discard another card." RULINGS 2.4.
    let mut s = drawn(Clover, Bell);
    assert_eq!(reject(&s, 0, discard(Jack)), "drawn_card_pending");
    assert_eq!(reject(&s, 0, Move::Draw), "drawn_card_pending");
    play(&mut s, 0, Move::Keep);
    assert_eq!(reject(&s, 0, discard(Jack)), "not_your_turn");
}

#[test]
fn keep_and_discard_drawn_need_a_pending_card() {
    let s = four_cards_on(Clover);
    assert_eq!(reject(&s, 0, Move::Keep), "no_drawn_card");
    assert_eq!(reject(&s, 0, Move::DiscardDrawn), "no_drawn_card");
    assert_eq!(reject(&s, 0, discard(Seven)), "card_not_in_hand");
    assert_eq!(reject(&s, 1, Move::Draw), "not_your_turn");
    assert_eq!(reject(&s, 5, Move::Draw), "unknown_seat");
}
