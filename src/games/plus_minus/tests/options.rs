//! Options.

use super::*;

#[test]
fn options_default_to_the_rulings() {
    // RULINGS 5.6.
    let o = Options::default();
    assert_eq!(o.rounds, None);
    assert_eq!(o.first_dealer, 0);
    assert_eq!(o.higher_by, HigherBy::Rank);
    assert!(o.empty_stack_accepts_any);
    assert!(o.pass_after_forfeit);
    assert!(!o.face_up_chosen_by_player);
    let parsed: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(parsed, o);
}

#[test]
fn three_to_six_players_and_a_real_first_dealer_and_at_least_one_round() {
    // Overview: "3 to 6 players".
    let o = Options::default();
    assert_eq!(
        PlusMinus::validate_options(&o, 2).unwrap_err().option,
        "players"
    );
    assert_eq!(
        PlusMinus::validate_options(&o, 7).unwrap_err().option,
        "players"
    );
    for n in 3..=6 {
        PlusMinus::validate_options(&o, n).unwrap();
    }
    let dealer = Options {
        first_dealer: 3,
        ..Options::default()
    };
    assert_eq!(
        PlusMinus::validate_options(&dealer, 3).unwrap_err().option,
        "first_dealer"
    );
    let zero = Options {
        rounds: Some(0),
        ..Options::default()
    };
    assert_eq!(
        PlusMinus::validate_options(&zero, 3).unwrap_err().option,
        "rounds"
    );
    assert!(serde_json::from_str::<Options>(r#"{"turbo": true}"#).is_err());
}
