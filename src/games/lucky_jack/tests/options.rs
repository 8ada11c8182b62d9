//! Options.

use super::*;

#[test]
fn options_default_to_the_rulings() {
    // RULINGS 2.8 defaults.
    let o: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(o, Options::default());
    assert_eq!(o.rounds, 3);
    assert!(o.jackpot_auto_declare && o.starter_plays_after_flip);
    assert!(!o.i_take_it_ends_turn && !o.lower_discard_can_win);
    assert!(serde_json::from_str::<Options>(r#"{"roundz": 3}"#).is_err());
}

#[test]
fn a_game_has_three_or_five_rounds_and_a_real_dealer() {
    // Rulebook "End of the Game": 3 or 5 rounds.
    let ok = |o: &Options, n| LuckyJack::validate_options(o, n);
    assert!(ok(&Options::default(), 2).is_ok());
    let five = Options {
        rounds: 5,
        ..Options::default()
    };
    assert!(ok(&five, 6).is_ok());
    let four = Options {
        rounds: 4,
        ..Options::default()
    };
    assert_eq!(ok(&four, 3).unwrap_err().option, "rounds");
    let dealer = Options {
        dealer: 3,
        ..Options::default()
    };
    assert_eq!(ok(&dealer, 3).unwrap_err().option, "dealer");
    assert_eq!(ok(&Options::default(), 7).unwrap_err().option, "players");
    assert_eq!(ok(&Options::default(), 1).unwrap_err().option, "players");
    let cap = Options {
        max_turns_per_round: Some(0),
        ..Options::default()
    };
    assert_eq!(ok(&cap, 2).unwrap_err().option, "max_turns_per_round");
}

#[test]
fn moves_and_chance_reject_unknown_fields() {
    assert_eq!(
        serde_json::from_str::<Move>(r#"{"type":"discard","card":"bell"}"#).unwrap(),
        discard(Bell)
    );
    assert!(serde_json::from_str::<Move>(r#"{"type":"discard","card":"bell","x":1}"#).is_err());
    assert!(serde_json::from_str::<Chance>(r#"{"kind":"flip","card":"bell","y":2}"#).is_err());
    assert_eq!(
        serde_json::from_str::<Move>(r#"{"type":"take_it"}"#).unwrap(),
        Move::TakeIt
    );
}
