//! I take it.

use super::*;

fn after_a_discarded_draw(options: Options, next_hand: Vec<Symbol>) -> State {
    let mut s = table(
        options,
        vec![vec![Clover, Bell, Jack, Lemon], next_hand, vec![Grape; 5]],
        vec![Lemon, Clover],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Seven]));
    play(&mut s, 0, Move::DiscardDrawn);
    s
}

#[test]
fn the_next_player_only_may_take_a_discarded_drawn_card() {
    // Rulebook option 4: "the next player can take it by announcing: I TAKE IT!"; RULINGS J6.
    let mut s = after_a_discarded_draw(Options::default(), vec![Bell, Bell, Bell, Lemon, Cherry]);
    assert_eq!(reject(&s, 2, Move::TakeIt), "not_next_player");
    assert!(LuckyJack::legal_moves(&s, 1).contains(&Move::TakeIt));
    let took = Event::TookIt {
        seat: 1,
        card: Seven,
    };
    assert_eq!(play(&mut s, 1, Move::TakeIt), vec![took]);
    // The discard top reverts to the card below; the taker then plays a normal turn.
    assert_eq!(s.discard, vec![Lemon, Clover]);
    assert_eq!(s.hands[1].len(), 6);
    assert_eq!(LuckyJack::to_act(&s), vec![1]);
    assert_eq!(reject(&s, 1, Move::TakeIt), "nothing_to_take");
    play(&mut s, 1, discard(Seven));
    assert_eq!(s.turn, 2);
}

#[test]
fn taking_must_be_the_first_action_of_the_turn() {
    // RULINGS J6: "before anything else".
    let mut s = after_a_discarded_draw(Options::default(), vec![Bell, Bell, Bell, Lemon, Cherry]);
    play(&mut s, 1, Move::Draw);
    resolve(&mut s, draw(&[Lemon]));
    assert_eq!(reject(&s, 1, Move::TakeIt), "take_too_late");
    play(&mut s, 1, Move::Keep);
    // Seat 2 comes too late as well: the marker lapsed with seat 1's action.
    assert!(s.takeable.is_none());
    assert_eq!(reject(&s, 2, Move::TakeIt), "nothing_to_take");
}

#[test]
fn a_card_discarded_from_the_hand_cannot_be_taken() {
    // Rulebook option 4: "If he chooses to discard it, and only then, the next player can take".
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon], vec![Lemon; 7]],
        vec![Clover],
        0,
    );
    play(&mut s, 0, discard(Jack));
    assert_eq!(reject(&s, 1, Move::TakeIt), "nothing_to_take");
}

#[test]
fn a_player_with_three_cards_may_take_it_and_then_discard() {
    // RULINGS 2.4: "iTakeIt is still allowed at h = 3 (it adds a card)".
    let mut s = after_a_discarded_draw(Options::default(), vec![Bell, Bell, Lemon]);
    assert_eq!(
        LuckyJack::legal_moves(&s, 1),
        vec![Move::TakeIt, Move::Draw]
    );
    play(&mut s, 1, Move::TakeIt);
    assert_eq!(s.turn_start_hand, 4);
    play(&mut s, 1, discard(Seven));
    assert_eq!(s.hands[1], vec![Lemon, Bell, Bell]);
    assert_eq!(s.turn, 2);
}

#[test]
fn with_i_take_it_ends_turn_taking_is_the_whole_turn() {
    // Option i_take_it_ends_turn (RULINGS 2.4).
    let options = Options {
        i_take_it_ends_turn: true,
        ..Options::default()
    };
    let mut s = after_a_discarded_draw(options, vec![Bell, Bell, Lemon]);
    play(&mut s, 1, Move::TakeIt);
    assert_eq!(s.turn, 2);
    assert_eq!(s.hands[1].len(), 4);
}
