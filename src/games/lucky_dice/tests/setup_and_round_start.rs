//! Setup and round start.

use super::*;

#[test]
fn setup_gives_three_dice_each_and_every_seat_draws_a_coaster() {
    // Rulebook SETUP: "Each player draws a coaster ... Each player also receives three small
    // dice. Extra dice are not needed"; RULINGS 3.2.
    let state = LuckyDice::setup(LuckyDice::validate_options(&Options::default(), 4).unwrap());
    assert_eq!(state.pools, vec![3, 3, 3, 3]);
    assert_eq!(state.tray, 0);
    assert_eq!(state.pile.len(), 18);
    assert_eq!(state.phase, Phase::DrawCoasters);
    assert_eq!(
        state.chance,
        Some(PendingChance::Coasters {
            seats: vec![0, 1, 2, 3]
        })
    );
    assert!(LuckyDice::to_act(&state).is_empty());
    LuckyDice::check_state(&state).unwrap();
}

#[test]
fn drawn_coasters_go_face_up_then_the_large_die_sets_the_lucky_symbol() {
    // Rulebook: "At the start of every round, take the large yellow die and roll it ... The
    // symbol rolled is the ultimate lucky symbol for this round!"
    let mut state = LuckyDice::setup(LuckyDice::validate_options(&Options::default(), 3).unwrap());
    let coasters = first_coasters(3);
    let events = resolve(
        &mut state,
        Chance::Coasters {
            coasters: coasters.clone(),
        },
    );
    assert_eq!(
        state.coasters,
        coasters.iter().copied().map(Some).collect::<Vec<_>>()
    );
    assert_eq!(state.pile.len(), 15);
    assert!(matches!(
        &events[0],
        Event::CoastersDrawn { pile_left: 15, .. }
    ));
    assert_eq!(state.chance, Some(PendingChance::LuckySymbol { round: 1 }));
    assert_eq!(
        reject(&state, 0, roll(3)).code(),
        "chance_pending",
        "nobody rolls before the large die"
    );
    let events = resolve(&mut state, Chance::LuckySymbol { symbol: Cat });
    assert_eq!(
        events,
        vec![Event::RoundStarted {
            round: 1,
            lucky_symbol: Cat
        }]
    );
    assert_eq!(state.lucky_symbol, Some(Cat));
    // "Now everyone plays at the same time."
    assert_eq!(LuckyDice::to_act(&state), vec![0, 1, 2]);
}

#[test]
fn an_impossible_coaster_draw_is_refused_and_changes_nothing() {
    // Chance is checked exactly: count, and each coaster still in the pile as a multiset.
    let state = LuckyDice::setup(LuckyDice::validate_options(&Options::default(), 2).unwrap());
    let err = refuse_chance(
        &state,
        Chance::Coasters {
            coasters: vec![c(Clover, Pig)],
        },
    );
    assert_eq!(err.code(), "wrong_coaster_count");
    // Clover/pig exists once: twice is impossible.
    let err = refuse_chance(
        &state,
        Chance::Coasters {
            coasters: vec![c(Clover, Pig), c(Clover, Pig)],
        },
    );
    assert_eq!(
        err,
        LuckyDiceViolation::CoasterNotInPile {
            coaster: c(Clover, Pig)
        }
    );
    // A coaster not in the set at all.
    let err = refuse_chance(
        &state,
        Chance::Coasters {
            coasters: vec![c(Pig, Pig), c(Clover, Pig)],
        },
    );
    assert_eq!(err.code(), "coaster_not_in_pile");
    let err = refuse_chance(&state, Chance::LuckySymbol { symbol: Pig });
    assert_eq!(
        err,
        LuckyDiceViolation::UnexpectedChanceKind {
            expected: ChanceKind::Coasters,
            got: ChanceKind::LuckySymbol
        }
    );
}
