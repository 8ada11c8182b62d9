//! Going out and LUCK OUT.

use super::*;

#[test]
fn going_out_on_the_first_turn_is_a_luck_out_worth_30_more_points() {
    // Rulebook "GOING OUT AND WINNING" 1 and "SCORING: LUCK OUT PLAY - 30 point bonus".
    let options = Options {
        scoring: ScoringMode::PointsToWinner,
        ..Options::default()
    };
    let mut s = going_out(options);
    s.first_turn = true;
    play(&mut s, 0, one(Basis::SingleDie, &["GO-4"]));
    let result = &s.results[0];
    assert_eq!(
        result.out,
        vec![Out {
            seat: 0,
            luck_out: true
        }]
    );
    assert_eq!(result.left_points, vec![0, 12 + 12 + 10]);
    assert_eq!(result.points, vec![34 + 30, 0]);
}

#[test]
fn with_luck_out_full_round_every_other_player_gets_one_complete_turn() {
    // Rulebook "GOING OUT AND WINNING" 1, OPTION; RULINGS 1.8 and 1.9.
    let options = Options {
        luck_out_full_round: true,
        scoring: ScoringMode::PointsToWinner,
        ..Options::default()
    };
    let mut s = table(
        options,
        &[&["GO-4"], &["STOP-4", "GO-1"], &["GO-4"]],
        &["GO-9"],
        Some([4, 1]),
        true,
        0,
    );
    s.first_turn = true;
    let events = play(&mut s, 0, one(Basis::SingleDie, &["GO-4"]));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::FinalRound { seats } if *seats == vec![1, 2])));
    assert_eq!((s.turn, s.phase), (1, Phase::PreRoll));
    assert!(s.results.is_empty());
    play(&mut s, 1, one(Basis::Top, &["STOP-4"]));
    assert_eq!(s.turn, 2);
    // Seat 2 had a turn before: going out now is not a LUCK OUT.
    play(&mut s, 2, one(Basis::Top, &["GO-4"]));
    let result = &s.results[0];
    assert_eq!(
        result.out,
        vec![
            Out {
                seat: 0,
                luck_out: true
            },
            Out {
                seat: 2,
                luck_out: false
            }
        ]
    );
    assert_eq!(result.points, vec![1 + 30, 0, 1]);
}

#[test]
fn a_player_out_in_the_full_round_can_receive_no_cards() {
    // Rulebook: "once a player gets a LUCK OUT, he cannot receive any more cards".
    let mut s = table(
        Options {
            luck_out_full_round: true,
            ..Options::default()
        },
        &[&["GO-4"], &["GO-3", "GO-8"], &["GO-12", "GO-10"]],
        &["GO-9"],
        Some([4, 1]),
        true,
        0,
    );
    s.first_turn = true;
    play(&mut s, 0, one(Basis::SingleDie, &["GO-4"]));
    roll(&mut s, 1, [6, 6]);
    play(&mut s, 1, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("TP-2") });
    let give = |to: Seat| Move::Transfer {
        card: c("TP-2"),
        to,
        extra: vec![],
    };
    assert_eq!(reject(&s, 1, give(0)), "transfer_target_invalid");
    play(&mut s, 1, give(2));
}

#[test]
fn without_the_option_the_first_player_out_ends_the_hand() {
    let mut s = table(
        Options::default(),
        &[&["GO-4"], FILL, FILL_B],
        &["GO-9"],
        Some([4, 1]),
        true,
        0,
    );
    s.first_turn = true;
    play(&mut s, 0, one(Basis::SingleDie, &["GO-4"]));
    assert_eq!(s.results.len(), 1);
    assert_eq!(s.phase, Phase::Deal);
    assert_eq!(s.dealer, 1, "the deal passes to the left (RULINGS A19)");
    assert_eq!(s.turn, 2);
}

const FILL_B: &[&str] = &["GO-10", "GO-10"];
