//! Draw pile exhausted.

use super::*;

/// Seat 0 to play with an empty or small draw pile: everything else is in the discard pile.
fn nearly_exhausted(pile_left: &[Symbol]) -> State {
    let hands = vec![vec![Clover, Bell, Jack, Lemon, Lemon], vec![Lemon; 7]];
    let mut rest = Counts::full_deck();
    for card in hands.iter().flatten().chain(pile_left) {
        rest.take(*card);
    }
    // Discard pile: the rest, with a jack on top.
    let mut discard = rest.canonical();
    let jack = discard.iter().position(|&c| c == Jack).unwrap();
    discard.remove(jack);
    discard.push(Jack);
    table(Options::default(), hands, discard, 0)
}

#[test]
fn drawing_from_an_empty_pile_reshuffles_the_whole_discard_pile() {
    // Rulebook "End of the Draw Pile"; RULINGS 2.6 / J9: the whole pile, top included.
    let mut s = nearly_exhausted(&[]);
    let discarded = s.discard.len();
    let events = play(&mut s, 0, Move::Draw);
    assert_eq!(
        events,
        vec![Event::Reshuffled {
            seat: 0,
            cards: discarded
        }]
    );
    assert!(s.discard.is_empty());
    assert_eq!(s.draw_pile.total(), discarded);
    assert!(matches!(
        s.chance,
        Some(PendingChance::Flip { seat: 0, .. })
    ));
    resolve(&mut s, Chance::Flip { card: Grape });
    assert_eq!(s.discard, vec![Grape]);
    assert!(matches!(
        s.chance,
        Some(PendingChance::Draw { count: 1, .. })
    ));
    resolve(&mut s, draw(&[Bell]));
    assert_eq!(s.pending, Some(Bell));
}

#[test]
fn a_penalty_draw_larger_than_the_pile_is_split_around_a_reshuffle() {
    // RULINGS 2.6: "pending draws then continue".
    let mut s = nearly_exhausted(&[Seven]);
    play(&mut s, 0, discard(Lemon));
    assert!(matches!(
        s.chance,
        Some(PendingChance::Draw { count: 1, .. })
    ));
    let events = resolve(&mut s, draw(&[Seven]));
    assert!(matches!(events.last(), Some(Event::Reshuffled { .. })));
    resolve(&mut s, Chance::Flip { card: Clover });
    assert_eq!(s.draw_owed, 1);
    resolve(&mut s, draw(&[Cherry]));
    assert_eq!(s.hands[0].len(), 6);
    assert_eq!(s.turn, 1);
}

#[test]
fn a_draw_with_no_card_left_anywhere_is_void() {
    // RULINGS 2.6: "If still no card can be drawn, remaining draws are void."
    let hands = vec![vec![Lemon; 12], vec![Cherry; 12]];
    let mut s = table(Options::default(), hands, vec![Grape], 0);
    // Put every other card into the two hands to leave a one-card discard pile and no pile.
    let rest = s.draw_pile.canonical();
    s.draw_pile = Counts::default();
    for (i, card) in rest.into_iter().enumerate() {
        s.hands[i % 2].push(card);
    }
    for hand in &mut s.hands {
        hand.sort();
    }
    s.turn_start_hand = s.hands[0].len();
    LuckyJack::check_state(&s).unwrap();
    play(&mut s, 0, Move::Draw);
    let events = resolve(&mut s, Chance::Flip { card: Grape });
    assert!(events.contains(&Event::DrawVoid { seat: 0, count: 1 }));
    assert!(s.pending.is_none());
    assert_eq!(s.turn, 1);
}

#[test]
fn a_reshuffle_clears_the_takeable_marker() {
    // RULINGS 2.6: "takeable is cleared".
    let mut s = nearly_exhausted(&[Cherry]);
    s.options.drawn_discard_follows_symbol_rule = true;
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Cherry]));
    let events = play(&mut s, 0, Move::DiscardDrawn);
    // The lower drawn discard costs 2 cards; the pile is empty, so the discard pile (with the
    // card just made takeable) is reshuffled and nobody can take it any more.
    assert!(events.iter().any(|e| matches!(e, Event::Reshuffled { .. })));
    assert!(s.takeable.is_none());
    resolve(&mut s, Chance::Flip { card: Seven });
    resolve(&mut s, draw(&[Cherry, Cherry]));
    assert_eq!(s.turn, 1);
    assert!(!LuckyJack::legal_moves(&s, 1).contains(&Move::TakeIt));
}
