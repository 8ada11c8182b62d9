//! Violation codes.

use super::*;

/// Statistics keep the best lei: the lei's own points before Guests (the rulebook's sample = 33).
#[test]
fn highlights_keep_each_players_lei_points_as_their_best_lei() {
    let lei = |s: &str| TallyLei {
        player: None,
        lei: LeiText::Words(s.into()),
        guests: Some(vec![[5, 0], [0, 0], [0, 0]]),
    };
    let tally = Tally {
        leis: vec![
            lei("blue red purple blue cut:yellow hook kukui blue rainbow"),
            lei("red red"),
        ],
    };
    let score = LuckyLuau::score_tally(&Options::default(), 2, 1, &tally).unwrap();
    let seats = LuckyLuau::tally_highlights(2, &[score]);
    assert_eq!(seats[0]["best_lei"], 33, "Guest bonuses are not lei points");
    assert_eq!(seats[1]["best_lei"], 6);
}

#[test]
fn the_card_tables_agree() {
    crate::games::kit::counts::assert_kind_tables::<Card>();
}
