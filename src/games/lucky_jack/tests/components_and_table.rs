//! Components and table.

use super::*;

#[test]
fn the_jackpot_table_is_printed_literally() {
    // Rulebook score table; RULINGS 2.1 / J10 (4-card Jack = 10 000, not 9 000).
    let three = [1000, 2000, 3000, 4000, 5000, 6000, 7000];
    let four = [3000, 4000, 5000, 6000, 7000, 8000, 10_000];
    for (i, s) in Symbol::ALL.into_iter().enumerate() {
        assert_eq!(s.jackpot_points(3), Some(three[i]), "{s:?} x3");
        assert_eq!(s.jackpot_points(4), Some(four[i]), "{s:?} x4");
        assert_eq!(s.jackpot_points(5), None);
    }
}

#[test]
fn symbols_are_ordered_lemon_lowest_to_jack_highest() {
    // RULINGS 2.1 symbol order.
    assert!(Lemon < Cherry && Cherry < Grape && Grape < Clover);
    assert!(Clover < Bell && Bell < Seven && Seven < Jack);
    assert_eq!(serde_json::to_string(&Seven).unwrap(), "\"seven\"");
}

#[test]
fn the_deck_has_twelve_of_each_of_seven_symbols() {
    // RULINGS J1: 84 cards, not 96.
    let deck = Counts::full_deck();
    assert_eq!(deck.total(), 84);
    assert_eq!(deck.canonical().len(), DECK_SIZE);
    assert_eq!(deck.canonical()[12], Cherry);
}

#[test]
fn four_jacks_score_ten_thousand() {
    // Rulebook: "4 Card Jackpot … Jack 10 000 pts"; RULINGS J10.
    let mut s = table(
        Options::default(),
        vec![four_jacks_and_a_lemon(), vec![Lemon; 7]],
        vec![Lemon],
        0,
    );
    let events = play(&mut s, 0, discard(Lemon));
    assert!(events.contains(&jackpot(0, Jack, 4, 10_000)));
    assert_eq!(s.results[0].points, vec![10_000, 0]);
}
