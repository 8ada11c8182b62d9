//! Setup and deal.

use super::*;

#[test]
fn setup_waits_for_the_deal_with_the_whole_deck() {
    // Rulebook "Setup": all cards shuffled, 7 each.
    let s = LuckyJack::setup(LuckyJack::validate_options(&Options::default(), 4).unwrap());
    assert!(LuckyJack::chance_pending(&s));
    assert!(LuckyJack::to_act(&s).is_empty());
    assert_eq!(s.draw_pile, Counts::full_deck());
    assert!(matches!(
        s.chance,
        Some(PendingChance::Deal { hands: 4, .. })
    ));
    LuckyJack::check_state(&s).unwrap();
}

#[test]
fn the_deal_gives_seven_cards_each_and_flips_one() {
    // Rulebook "Setup" + "How to play": 7 cards each; the starter flips the first discard.
    // RULINGS 2.2: 2 players leave 69 in the draw pile, 6 players 41.
    for (players, left) in [(2, 69), (6, 41)] {
        let mut s =
            LuckyJack::setup(LuckyJack::validate_options(&Options::default(), players).unwrap());
        let deal = LuckyJack::sample_chance(&s, &mut SplitMix(players as u64));
        let events = resolve(&mut s, deal);
        assert!(s.hands.iter().all(|h| h.len() == 7));
        assert_eq!(s.draw_pile.total(), left);
        assert_eq!(s.discard.len(), 1);
        assert!(matches!(
            events.last(),
            Some(Event::Flipped { seat: 1, .. })
        ));
    }
}

#[test]
fn seeded_deals_are_reproducible() {
    let s = LuckyJack::setup(LuckyJack::validate_options(&Options::default(), 3).unwrap());
    let a = LuckyJack::sample_chance(&s, &mut SplitMix(9));
    let b = LuckyJack::sample_chance(&s, &mut SplitMix(9));
    let c = LuckyJack::sample_chance(&s, &mut SplitMix(10));
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn the_starter_after_the_flip_plays_first() {
    // Rulebook: "the player seated to the left of the player who dealt … will begin"; RULINGS J3.
    let options = Options {
        dealer: 2,
        ..Options::default()
    };
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&options, 3).unwrap());
    assert_eq!(s.starter, 0);
    resolve(&mut s, standard_deal(3));
    assert_eq!(LuckyJack::to_act(&s), vec![0]);
}

#[test]
fn without_starter_plays_after_flip_the_seat_left_of_the_starter_begins() {
    // Option starter_plays_after_flip = false (RULINGS 2.8).
    let options = Options {
        starter_plays_after_flip: false,
        ..Options::default()
    };
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&options, 3).unwrap());
    resolve(&mut s, standard_deal(3));
    assert_eq!(s.starter, 1);
    assert_eq!(LuckyJack::to_act(&s), vec![2]);
}

#[test]
fn the_starter_moves_one_seat_left_each_round() {
    // Rulebook "Setup": "For the following round, the player seated to the left of the player
    // who started the first hand will begin. And so on."
    let options = Options {
        rounds: 5,
        max_turns_per_round: Some(1),
        ..Options::default()
    };
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&options, 3).unwrap());
    let mut starters = Vec::new();
    while !LuckyJack::is_over(&s) {
        starters.push(s.starter);
        resolve(&mut s, standard_deal(3));
        let seat = s.turn;
        play(&mut s, seat, discard(Jack));
    }
    assert_eq!(starters, vec![1, 2, 0, 1, 2]);
    assert_eq!(
        s.results.iter().map(|r| r.starter).collect::<Vec<_>>(),
        starters
    );
}
