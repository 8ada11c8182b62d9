//! Components and options.

use super::*;

#[test]
fn the_default_coaster_set_is_the_balanced_eighteen() {
    // RULINGS 3.1 / D1: every symbol 3× left and 3× right, never twice on one coaster, all 15
    // unordered pairs, the 3 opposite pairs twice.
    let set = balanced_coaster_set();
    assert_eq!(set.len(), 18);
    for s in Symbol::ALL {
        assert_eq!(set.iter().filter(|c| c.left == s).count(), 3, "{s:?} left");
        assert_eq!(
            set.iter().filter(|c| c.right == s).count(),
            3,
            "{s:?} right"
        );
    }
    assert!(set.iter().all(|c| c.left != c.right));
    let mut pairs: Vec<(Symbol, Symbol)> = set
        .iter()
        .map(|c| (c.left.min(c.right), c.left.max(c.right)))
        .collect();
    pairs.sort();
    let twice: Vec<_> = pairs
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    pairs.dedup();
    assert_eq!(pairs.len(), 15);
    assert_eq!(twice, vec![(Clover, Penny), (Pig, Horseshoe), (Cat, Hamsa)]);
}

#[test]
fn there_are_six_symbols_in_rulings_order_written_in_snake_case() {
    // RULINGS 3.1: CLOVER, PIG, CAT, PENNY, HORSESHOE, HAMSA = s0..s5.
    assert_eq!(Symbol::ALL.len(), FACES);
    assert_eq!(Symbol::ALL.map(Symbol::index), [0, 1, 2, 3, 4, 5]);
    assert_eq!(serde_json::to_string(&Horseshoe).unwrap(), "\"horseshoe\"");
    assert!(serde_json::from_str::<Symbol>("\"rabbit\"").is_err());
}

#[test]
fn default_options_are_the_rulings_defaults() {
    // RULINGS 3.6: threeCoasters, target 3, default set, 3 extra rolls, autoStop, strict count.
    let o = Options::default();
    assert_eq!(o.end_mode, EndMode::ThreeCoasters);
    assert_eq!(o.coaster_target, 3);
    assert_eq!(o.coaster_set, balanced_coaster_set());
    assert_eq!(o.extra_rolls, 3);
    assert!(o.auto_stop && o.strict_roll_count);
    let parsed: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(parsed, o);
    assert!(serde_json::from_str::<Options>(r#"{"turbo": true}"#).is_err());
}

#[test]
fn options_that_cannot_be_played_name_the_option() {
    let check = |o: Options, n: usize| {
        LuckyDice::validate_options(&o, n)
            .map(drop)
            .map_err(|e| e.option)
    };
    assert_eq!(check(Options::default(), 1), Err("players"));
    assert_eq!(check(Options::default(), 7), Err("players"));
    for n in 2..=6 {
        // RULINGS 3.5: the default pile never runs out before someone has 3 coasters.
        assert_eq!(check(Options::default(), n), Ok(()));
    }
    let target = |coaster_target| Options {
        coaster_target,
        ..Options::default()
    };
    let small = Options {
        coaster_set: balanced_coaster_set()[..3].to_vec(),
        ..Options::default()
    };
    assert_eq!(check(small.clone(), 4), Err("coaster_set"));
    let huge = Options {
        coaster_set: vec![c(Pig, Cat); MAX_COASTER_SET + 1],
        ..Options::default()
    };
    assert_eq!(check(huge, 2), Err("coaster_set"));
    assert_eq!(check(target(0), 3), Err("coaster_target"));
    // 6 players × 4 coasters > 18: the pile could run out.
    assert_eq!(check(target(4), 6), Err("coaster_target"));
    assert_eq!(check(target(4), 4), Ok(()));
    // The variant ends by itself when the pile runs out.
    let variant = Options {
        end_mode: EndMode::UntilPileEmpty,
        coaster_target: 9,
        ..Options::default()
    };
    assert_eq!(check(variant, 6), Ok(()));
    assert_eq!(
        check(
            Options {
                extra_rolls: MAX_EXTRA_ROLLS + 1,
                ..Options::default()
            },
            3
        ),
        Err("extra_rolls")
    );
}
