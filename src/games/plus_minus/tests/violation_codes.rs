//! Violation codes.

use super::*;

#[test]
fn a_move_in_the_gap_between_rounds_is_refused_as_round_over() {
    let state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    let mut state = with_draw(state, "");
    ok(&mut state, 0, &play("9", plus(2)));
    ok(&mut state, 0, &pass("2"));
    assert_eq!(refuse(&state, 1, &Move::Forfeit), V::RoundOver { round: 1 });
}

/// Statistics keep each seat's best round (rulebook step 7: a round scores Plus − Minus − hand).
#[test]
fn highlights_keep_each_seats_best_round() {
    let round = |players: serde_json::Value, n: u32| {
        let tally: Tally =
            serde_json::from_value(serde_json::json!({ "players": players })).unwrap();
        PlusMinus::score_tally(&Options::default(), 3, n, &tally).unwrap()
    };
    let rounds = vec![
        round(
            serde_json::json!([{"plus": ["K"]}, {"minus": ["A"]}, {}]),
            1,
        ),
        round(
            serde_json::json!([{"plus": ["A"]}, {"plus": ["2"]}, {"hand": ["5"]}]),
            2,
        ),
    ];
    let seats = PlusMinus::tally_highlights(3, &rounds);
    assert_eq!(seats[0]["best_round"], 20);
    assert_eq!(seats[1]["best_round"], 5);
    assert_eq!(seats[2]["best_round"], 0);
}
