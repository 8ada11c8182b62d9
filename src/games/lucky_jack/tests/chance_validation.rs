//! Chance validation.

use super::*;

#[test]
fn impossible_chance_outcomes_are_rejected_without_change() {
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&Options::default(), 2).unwrap());
    let before = s.clone();
    let check = |s: &mut State, c: Chance| -> &'static str {
        LuckyJack::resolve_chance(s, &c).unwrap_err().code()
    };
    assert_eq!(check(&mut s, draw(&[Lemon])), "unexpected_chance_kind");
    let one_hand = Chance::Deal {
        hands: vec![vec![Lemon; 7]],
        flip: Lemon,
    };
    assert_eq!(check(&mut s, one_hand), "wrong_hand_count");
    let short = Chance::Deal {
        hands: vec![vec![Lemon; 7], vec![Lemon; 6]],
        flip: Lemon,
    };
    assert_eq!(check(&mut s, short), "wrong_card_count");
    // 7 + 5 lemons fit, but the flip would be a 13th.
    let thirteen = Chance::Deal {
        hands: vec![
            vec![Lemon; 7],
            vec![Lemon, Lemon, Lemon, Lemon, Lemon, Jack, Jack],
        ],
        flip: Lemon,
    };
    assert_eq!(check(&mut s, thirteen), "card_not_in_pile");
    assert_eq!(s, before);

    resolve(&mut s, standard_deal(2));
    assert_eq!(check(&mut s, draw(&[Lemon])), "no_chance_pending");

    // Every jack is in a hand: a drawn jack is impossible.
    let mut s = table(
        Options::default(),
        vec![
            vec![Jack, Jack, Jack, Jack, Jack, Jack, Lemon],
            vec![Jack, Jack, Jack, Jack, Jack, Jack, Lemon],
        ],
        vec![Bell],
        0,
    );
    play(&mut s, 0, discard(Lemon));
    let before = s.clone();
    assert_eq!(check(&mut s, draw(&[Lemon])), "wrong_card_count");
    assert_eq!(
        check(&mut s, draw(&[Lemon, Lemon, Lemon])),
        "wrong_card_count"
    );
    assert_eq!(check(&mut s, draw(&[Lemon, Jack])), "card_not_in_pile");
    assert_eq!(
        check(&mut s, Chance::Flip { card: Jack }),
        "unexpected_chance_kind"
    );
    assert_eq!(s, before);
    resolve(&mut s, draw(&[Lemon, Lemon]));
}
