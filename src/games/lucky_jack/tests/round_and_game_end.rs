//! Round and game end.

use super::*;

#[test]
fn the_turn_cap_ends_a_round_with_no_score() {
    // Option max_turns_per_round; RULINGS 2.7 / J12.
    let options = Options {
        max_turns_per_round: Some(2),
        ..Options::default()
    };
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&options, 2).unwrap());
    resolve(&mut s, standard_deal(2));
    play(&mut s, 1, discard(Jack));
    let events = play(&mut s, 0, discard(Jack));
    assert!(events.contains(&Event::RoundEnded {
        round: 1,
        winner: None
    }));
    assert_eq!(
        s.results[0].result,
        RoundOutcome::NoJackpot {
            reason: NoJackpotReason::TurnLimit
        }
    );
    assert_eq!(s.results[0].points, vec![0, 0]);
}

#[test]
fn the_game_ends_after_the_agreed_rounds_with_the_highest_total_winning() {
    // Rulebook "End of the Game"; RULINGS 2.7.
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&Options::default(), 3).unwrap());
    win_round_with(&mut s, 2, Bell);
    win_round_with(&mut s, 0, Lemon);
    win_round_with(&mut s, 2, Cherry);
    assert!(LuckyJack::is_over(&s));
    assert_eq!(LuckyJack::score(&s).totals, vec![1000, 0, 7000]);
    assert_eq!(LuckyJack::standings(&s).winners, vec![2]);
    assert_eq!(reject(&s, 0, Move::Draw), "game_over");
}

#[test]
fn equal_totals_share_the_victory() {
    // RULINGS J12: a tie is a shared win.
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&Options::default(), 3).unwrap());
    win_round_with(&mut s, 0, Grape);
    win_round_with(&mut s, 1, Cherry);
    win_round_with(&mut s, 1, Lemon);
    assert_eq!(LuckyJack::standings(&s).winners, vec![0, 1]);
}

#[test]
fn a_five_round_game_lasts_five_rounds() {
    let options = Options {
        rounds: 5,
        ..Options::default()
    };
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&options, 2).unwrap());
    for round in 0..5 {
        assert!(!LuckyJack::is_over(&s));
        win_round_with(&mut s, round % 2, Seven);
    }
    assert!(LuckyJack::is_over(&s));
    assert_eq!(LuckyJack::score(&s).totals, vec![18_000, 12_000]);
}
