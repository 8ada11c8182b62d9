//! Jackpots.

use super::*;

#[test]
fn three_identical_cards_left_after_a_free_discard_win_the_round() {
    // Rulebook "End of the Round" 1; RULINGS 2.5.
    let mut s = table(
        Options::default(),
        vec![vec![Bell, Bell, Bell, Jack], vec![Lemon; 7]],
        vec![Seven],
        0,
    );
    assert!(LuckyJack::legal_moves(&s, 0).contains(&announce(Jack)));
    let events = play(&mut s, 0, discard(Jack));
    assert!(events.contains(&jackpot(0, Bell, 3, 5000)));
    assert!(events.contains(&Event::RoundEnded {
        round: 1,
        winner: Some(0)
    }));
    // Only the winner scores; the next round's deal is pending.
    assert_eq!(LuckyJack::score(&s).totals, vec![5000, 0]);
    assert_eq!(s.round, 2);
    assert_eq!(s.phase, Phase::Deal);
    assert_eq!(s.starter, 0);
}

#[test]
fn a_four_card_jackpot_needs_a_hand_of_five() {
    // Rulebook "End of the Round" 2: "must not have more than 5 cards, including 4 identical".
    let mut s = table(
        Options::default(),
        vec![vec![Cherry, Cherry, Cherry, Cherry, Seven], vec![Lemon; 7]],
        vec![Bell],
        0,
    );
    play(&mut s, 0, discard(Seven));
    assert_eq!(
        s.results[0].result,
        RoundOutcome::Jackpot {
            seat: 0,
            symbol: Cherry,
            size: 4,
            points: 4000
        }
    );
}

#[test]
fn a_four_card_hand_of_one_symbol_wins_three_by_discarding_one() {
    // RULINGS 2.5: a player may hold JJJJ and aim for 4; discarding a jack wins a 3-card jackpot.
    let mut s = table(
        Options::default(),
        vec![vec![Jack; 4], vec![Lemon; 7]],
        vec![Seven],
        0,
    );
    play(&mut s, 0, discard(Jack));
    assert_eq!(s.results[0].points, vec![7000, 0]);
}

#[test]
fn a_lower_symbol_discard_cannot_win_a_jackpot() {
    // RULINGS J7: the 2 penalty cards come first.
    let mut s = table(
        Options::default(),
        vec![vec![Grape, Grape, Grape, Lemon], vec![Lemon; 7]],
        vec![Seven],
        0,
    );
    assert_eq!(reject(&s, 0, announce(Lemon)), "not_a_jackpot");
    play(&mut s, 0, discard(Lemon));
    assert!(s.results.is_empty());
    assert_eq!(s.draw_owed, 2);
    resolve(&mut s, draw(&[Jack, Jack]));
    assert_eq!(s.hands[0].len(), 5);
}

#[test]
fn with_lower_discard_can_win_the_jackpot_comes_before_the_penalty() {
    // Option lower_discard_can_win.
    let options = Options {
        lower_discard_can_win: true,
        ..Options::default()
    };
    let mut s = table(
        options,
        vec![vec![Grape, Grape, Grape, Lemon], vec![Lemon; 7]],
        vec![Seven],
        0,
    );
    play(&mut s, 0, discard(Lemon));
    assert_eq!(s.results[0].points, vec![3000, 0]);
    assert!(matches!(s.chance, Some(PendingChance::Deal { .. })));
}

#[test]
fn without_auto_declare_a_jackpot_counts_only_when_announced() {
    // Option jackpot_auto_declare = false (RULINGS J8 made optional).
    let options = Options {
        jackpot_auto_declare: false,
        ..Options::default()
    };
    let hands = vec![vec![Bell, Bell, Bell, Jack], vec![Lemon; 7]];
    let mut silent = table(options.clone(), hands.clone(), vec![Seven], 0);
    play(&mut silent, 0, discard(Jack));
    assert!(silent.results.is_empty());
    assert_eq!(silent.turn, 1);
    assert_eq!(silent.hands[0], vec![Bell, Bell, Bell]);

    let mut loud = table(options.clone(), hands, vec![Seven], 0);
    let moves = LuckyJack::legal_moves(&loud, 0);
    assert!(moves.contains(&announce(Jack)) && moves.contains(&discard(Jack)));
    assert!(!moves.contains(&announce(Bell)));
    assert_eq!(reject(&loud, 0, announce(Bell)), "not_a_jackpot");
    play(&mut loud, 0, announce(Jack));
    assert_eq!(loud.results[0].points, vec![5000, 0]);
}

#[test]
fn a_player_going_for_four_scores_nothing_when_beaten() {
    // Rulebook: "If another player obtains a JACKPOT of 3 or 4 cards before him, they lose
    // everything!"; RULINGS J11 (0 points, not negative).
    let mut s = table(
        Options::default(),
        vec![vec![Jack; 4], vec![Bell, Bell, Bell, Seven]],
        vec![Lemon],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Lemon]));
    play(&mut s, 0, Move::Keep);
    play(&mut s, 1, discard(Seven));
    assert_eq!(s.results[0].points, vec![0, 5000]);
}

#[test]
fn with_the_symbol_rule_a_lower_drawn_discard_draws_two() {
    // Option drawn_discard_follows_symbol_rule (RULINGS J5 made optional).
    let options = Options {
        drawn_discard_follows_symbol_rule: true,
        ..Options::default()
    };
    let mut s = table(
        options,
        vec![vec![Clover, Bell, Jack, Lemon], vec![Lemon; 7]],
        vec![Seven],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Cherry]));
    let events = play(&mut s, 0, Move::DiscardDrawn);
    assert!(events.contains(&Event::DiscardedDrawn {
        seat: 0,
        card: Cherry,
        option: Some(DiscardOption::Lower)
    }));
    assert!(matches!(
        s.chance,
        Some(PendingChance::Draw { count: 2, .. })
    ));
    resolve(&mut s, draw(&[Grape, Grape]));
    assert_eq!(s.hands[0].len(), 6);
    // The card stays takeable by the next seat.
    assert_eq!(s.turn, 1);
    assert!(LuckyJack::legal_moves(&s, 1).contains(&Move::TakeIt));
}

#[test]
fn with_the_symbol_rule_a_higher_drawn_discard_can_win() {
    let options = Options {
        drawn_discard_follows_symbol_rule: true,
        ..Options::default()
    };
    let mut s = table(options, vec![vec![Bell; 4], vec![Lemon; 7]], vec![Lemon], 0);
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Jack]));
    play(&mut s, 0, Move::DiscardDrawn);
    assert_eq!(s.results[0].points, vec![7000, 0]);
}

#[test]
fn by_default_a_drawn_discard_never_wins() {
    let mut s = table(
        Options::default(),
        vec![vec![Bell; 4], vec![Lemon; 7]],
        vec![Lemon],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Jack]));
    play(&mut s, 0, Move::DiscardDrawn);
    assert!(s.results.is_empty());
}

#[test]
fn an_empty_discard_pile_constrains_nothing() {
    // Brief: an empty discard pile (theoretically possible) = no symbol constraint.
    let mut s = table(
        Options::default(),
        vec![vec![Lemon, Bell, Jack, Grape], vec![Lemon; 7]],
        vec![],
        0,
    );
    let events = play(&mut s, 0, discard(Lemon));
    assert!(matches!(
        events[0],
        Event::Discarded {
            option: DiscardOption::Higher,
            ..
        }
    ));
    assert!(s.chance.is_none());
}

#[test]
fn with_the_symbol_rule_and_lower_wins_a_lower_drawn_discard_wins_before_its_penalty() {
    // Options drawn_discard_follows_symbol_rule and lower_discard_can_win together: the drawn
    // discard is a regular lower discard, whose jackpot check comes before the penalty draw.
    let options = Options {
        drawn_discard_follows_symbol_rule: true,
        lower_discard_can_win: true,
        ..Options::default()
    };
    let mut s = table(options, vec![vec![Bell; 4], vec![Lemon; 7]], vec![Seven], 0);
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Cherry]));
    play(&mut s, 0, Move::DiscardDrawn);
    assert_eq!(s.results[0].points, vec![7000, 0]);
    assert!(s
        .chance
        .as_ref()
        .is_none_or(|c| !matches!(c, PendingChance::Draw { .. })));
}
