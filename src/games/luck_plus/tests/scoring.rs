//! Scoring.

use super::*;

#[test]
fn by_hands_the_player_who_goes_out_wins_one_hand() {
    // Rulebook "SCORING: By hands".
    assert_eq!(hand_end(ScoringMode::Hands, None).points, vec![0, 1, 0]);
    assert_eq!(Options::default().target(), 5);
}

#[test]
fn by_points_the_cards_left_go_to_the_player_out_plus_30_for_a_luck_out() {
    // Rulebook "By point system": number = face value, DBL 15, LP 25.
    let r = hand_end(ScoringMode::PointsToWinner, None);
    assert_eq!(r.left_points, vec![18, 0, 37]);
    assert_eq!(r.points, vec![0, 55 + 30, 0]);
}

#[test]
fn in_penalty_scoring_each_keeps_his_points_and_a_luck_out_subtracts_30_unless_ignored() {
    // Rulebook "keep the point total he is caught with"; RULINGS 1.9 and option
    // `luck_out_bonus_in_penalty`.
    assert_eq!(
        hand_end(ScoringMode::PenaltyPoints, None).points,
        vec![18, -30, 37]
    );
    let options = Options {
        scoring: ScoringMode::PenaltyPoints,
        luck_out_bonus_in_penalty: LuckOutPenaltyBonus::Ignore,
        ..Options::default()
    };
    let r = score_hand(
        &options,
        2,
        1,
        &[Out {
            seat: 0,
            luck_out: true,
        }],
        vec![vec![], cs(&["GO-3"])],
    );
    assert_eq!(r.points, vec![0, 3]);
}

#[test]
fn the_game_ends_at_the_target_and_penalty_scoring_ranks_the_lowest_first() {
    // Rulebook "SCORING": "first to reach a designated score"; "the player with the least amount
    // of points is the winner".
    let options = Options {
        scoring: ScoringMode::PenaltyPoints,
        target: Some(50),
        ..Options::default()
    };
    let first = hand_end(ScoringMode::PenaltyPoints, Some(50));
    let (standings, over) = LuckPlus::tally_standings(&options, 3, std::slice::from_ref(&first));
    assert!(!over);
    assert!(standings.winners.is_empty());
    let (standings, over) = LuckPlus::tally_standings(&options, 3, &[first.clone(), first]);
    assert!(over);
    assert_eq!(standings.totals, vec![36, -60, 74]);
    assert_eq!(standings.winners, vec![1]);
}

#[test]
fn a_finished_hand_reaching_the_target_ends_the_game_with_its_winner() {
    let options = Options {
        target: Some(1),
        ..Options::default()
    };
    let mut s = going_out(options);
    let events = play(&mut s, 0, one(Basis::SingleDie, &["GO-4"]));
    assert!(LuckPlus::is_over(&s));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::GameEnded { winners, .. } if *winners == vec![0])));
    assert_eq!(LuckPlus::standings(&s).winners, vec![0]);
    assert_eq!(reject(&s, 1, Move::Roll), "game_over");
}
