//! Components and ranks.

use super::*;

#[test]
fn points_are_ace_20_two_to_five_5_six_to_nine_0_ten_to_king_10_deck_320() {
    // Step 6; RULINGS 5.1.
    let expect = [20, 5, 5, 5, 5, 0, 0, 0, 0, 10, 10, 10, 10];
    for (c, p) in Card::ALL.iter().zip(expect) {
        assert_eq!(c.points(), p, "{c:?}");
    }
    assert_eq!(points_of(&full_deck()), 320);
    assert_eq!(full_deck().len(), DECK_SIZE);
}

#[test]
fn card_names_are_the_printed_indices() {
    let names: Vec<String> = Card::ALL
        .iter()
        .map(|c| {
            serde_json::to_value(c)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        names,
        ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    );
    assert_eq!(Card::Jack.rank(), 11);
    assert_eq!(Card::Ace.rank(), 1);
    assert_eq!(Card::King.rank(), 13);
}

#[test]
fn a_card_fits_on_the_same_rank_or_one_above_or_below_as_in_the_rulebook_example() {
    // Step 1: "a 6 on a 6", "a 6 on a 7, or a 6 on a 5".
    let six = Card::Six;
    assert!(six.fits_on(Card::Six));
    assert!(six.fits_on(Card::Seven));
    assert!(six.fits_on(Card::Five));
    assert!(!six.fits_on(Card::Eight));
    assert!(!six.fits_on(Card::Four));
    assert!(Card::Jack.fits_on(Card::Queen));
    assert!(Card::Ten.fits_on(Card::Jack));
}

#[test]
fn any_card_fits_on_an_ace_or_king_top() {
    // Step 4 (first bullet); 5.4.2.
    for c in Card::ALL {
        assert!(c.fits_on(Card::Ace), "{c:?} on A");
        assert!(c.fits_on(Card::King), "{c:?} on K");
    }
}

#[test]
fn aces_and_kings_themselves_need_an_adjacent_top_and_there_is_no_wrap() {
    // RULINGS P3, P4.
    assert!(!Card::Ace.fits_on(Card::Three));
    assert!(Card::Ace.fits_on(Card::Two));
    assert!(!Card::King.fits_on(Card::Ten));
    assert!(Card::King.fits_on(Card::Queen));
    // Q on an A top is allowed only because A tops are wild, not by wrapping.
    assert!(!Card::Two.fits_on(Card::Queen));
}
