//! Tally.

use super::*;

#[test]
fn a_described_hand_is_checked_then_scored_like_play() {
    let options = Options {
        scoring: ScoringMode::PointsToWinner,
        ..Options::default()
    };
    let tally = |out: Vec<Out>, cards: Vec<Vec<Card>>| Tally {
        out,
        cards_left: cards,
    };
    let out1 = vec![Out {
        seat: 1,
        luck_out: false,
    }];
    let good = tally(out1.clone(), vec![cs(&["GO-3"]), vec![], cs(&["LP"])]);
    let scored = LuckPlus::score_tally(&options, 3, 2, &good).unwrap();
    assert_eq!(
        scored,
        score_hand(&options, 3, 2, &good.out, good.cards_left.clone())
    );
    assert_eq!(scored.points, vec![0, 28, 0]);
    assert_eq!(scored.dealer, 1);
    let code = |t: Tally| {
        LuckPlus::score_tally(&options, 3, 1, &t)
            .unwrap_err()
            .code()
    };
    assert_eq!(
        code(tally(
            vec![],
            vec![cs(&["GO-3"]), cs(&["GO-3"]), cs(&["LP"])]
        )),
        "no_one_out"
    );
    assert_eq!(
        code(tally(out1.clone(), vec![cs(&["GO-3"]), vec![]])),
        "wrong_hand_count"
    );
    assert_eq!(
        code(tally(
            out1.clone(),
            vec![cs(&["GO-3"]), cs(&["GO-1"]), cs(&["LP"])]
        )),
        "out_hand_not_empty"
    );
    assert_eq!(
        code(tally(out1.clone(), vec![vec![], vec![], cs(&["LP"])])),
        "empty_hand_not_out"
    );
    assert_eq!(
        code(tally(
            out1.clone(),
            vec![cs(&["STOP-12", "STOP-12"]), vec![], cs(&["LP"])]
        )),
        "cards_not_in_deck"
    );
    let two = vec![
        Out {
            seat: 0,
            luck_out: true,
        },
        Out {
            seat: 1,
            luck_out: false,
        },
    ];
    assert_eq!(
        code(tally(two.clone(), vec![vec![], vec![], cs(&["LP"])])),
        "several_out"
    );
    let full = Options {
        luck_out_full_round: true,
        ..options.clone()
    };
    let both =
        LuckPlus::score_tally(&full, 3, 1, &tally(two, vec![vec![], vec![], cs(&["LP"])])).unwrap();
    assert_eq!(both.points, vec![25 + 30, 25, 0]);
    let twice = vec![out1[0], out1[0]];
    assert_eq!(
        code(tally(twice, vec![cs(&["GO-3"]), vec![], cs(&["LP"])])),
        "seat_out_twice"
    );
    let ghost = vec![Out {
        seat: 5,
        luck_out: false,
    }];
    assert_eq!(
        code(tally(ghost, vec![cs(&["GO-3"]), vec![], cs(&["LP"])])),
        "unknown_seat"
    );
}

#[test]
fn a_round_scored_by_hands_won_needs_only_who_went_out() {
    // Rulebook, Scoring: "the player who goes out wins the hand"; the first to the target in
    // hands wins. The cards left in the other hands count only when scoring by points.
    let by_hands = Options::default();
    assert_eq!(by_hands.scoring, ScoringMode::Hands);
    let who_went_out = Tally {
        out: vec![Out {
            seat: 2,
            luck_out: false,
        }],
        cards_left: vec![vec![], vec![], vec![], vec![]],
    };
    let scored = LuckPlus::score_tally(&by_hands, 4, 0, &who_went_out).unwrap();
    assert_eq!(scored.points, vec![0, 0, 1, 0]);
    let by_points = Options {
        scoring: ScoringMode::PointsToWinner,
        ..Options::default()
    };
    let refused = LuckPlus::score_tally(&by_points, 4, 0, &who_went_out).unwrap_err();
    assert_eq!(refused.code(), "empty_hand_not_out");
}
