//! Tally.

use super::*;

#[test]
fn a_tally_is_scored_with_the_play_scoring_and_checked_for_impossible_cards() {
    let tally: Tally = serde_json::from_value(serde_json::json!({"players": [
        {"plus": ["K", "Q", "7"], "minus": ["5"], "hand": ["A"]},
        {"plus": ["2"], "minus": ["10", "J"], "hand": []},
        {"plus": ["A", "A"], "minus": [], "hand": ["9", "3"]}]}))
    .unwrap();
    let o = Options::default();
    let r = PlusMinus::score_tally(&o, 3, 1, &tally).unwrap();
    assert_eq!(r.points, vec![20 - 5 - 20, 5 - 20, 40 - 5]);
    assert_eq!(
        r.seats[0],
        seat_score(&cards("K Q 7"), &cards("5"), &cards("A"))
    );
    assert_eq!(r.dealer, 0);
    assert_eq!(PlusMinus::tally_points(&r), r.points);
    let mut five_aces = tally.clone();
    five_aces.players[1].hand = cards("A A A");
    assert_eq!(
        PlusMinus::score_tally(&o, 3, 1, &five_aces),
        Err(V::TooManyOfRank {
            card: Card::Ace,
            count: 6
        })
    );
    assert_eq!(
        PlusMinus::score_tally(&o, 4, 1, &tally),
        Err(V::WrongPlayerCount {
            expected: 4,
            got: 3
        })
    );
    assert_eq!(
        PlusMinus::score_tally(&o, 3, 4, &tally),
        Err(V::from(Common::GameOver))
    );
    let (_, over) = PlusMinus::tally_standings(&o, 3, &[r.clone(), r.clone()]);
    assert!(!over);
    let (standings, over) = PlusMinus::tally_standings(&o, 3, &[r.clone(), r.clone(), r]);
    assert!(over);
    assert_eq!(standings.totals, vec![-15, -45, 105]);
    assert_eq!(standings.winners, vec![2]);
}
