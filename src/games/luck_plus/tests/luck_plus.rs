//! LUCK PLUS.

use super::*;

#[test]
fn a_luck_plus_plays_on_any_top_with_bonus_cards_of_one_number_and_ends_the_turn() {
    // Rulebook "LUCK PLUS CARD": bonus cards, same number, "words on the cards can be
    // different", the turn ends "even if the bonus cards are GO cards".
    let hand: &[&str] = &["LP", "GO-11", "STOP-11", "TR-11", "GO-2"];
    let s = table(
        Options::default(),
        &[hand, FILL],
        &["DBL"],
        Some([1, 6]),
        true,
        0,
    );
    assert_eq!(
        reject(&s, 0, lp(&["GO-11", "GO-2"])),
        "bonus_not_same_number"
    );
    assert_eq!(reject(&s, 0, lp(&["GO-3"])), "card_not_in_hand");
    assert_eq!(reject(&s, 0, lp(&["LP"])), "card_not_in_hand");
    let mut p = s.clone();
    let events = play(&mut p, 0, lp(&["GO-11", "TR-11", "STOP-11"]));
    assert!(ended(&events, TurnEnd::LuckPlus));
    assert_eq!(p.hands[0], cs(&["GO-2"]));
    assert_eq!(p.turn, 1);
    assert_eq!(
        p.phase,
        Phase::PreRoll,
        "a bonus was played: no forced bonus"
    );
    let no_lp = table(
        Options::default(),
        &[&["GO-1"], FILL],
        &["DBL"],
        None,
        false,
        0,
    );
    assert_eq!(reject(&no_lp, 0, lp(&[])), "card_not_in_hand");
}

#[test]
fn bonus_cards_may_be_doubles_or_luck_plus_cards_without_a_new_chain() {
    // Rulebook: "Bonus cards can be DOUBLES cards or LUCK PLUS cards"; RULINGS A13.
    let mut s = table(
        Options::default(),
        &[&["LP", "LP", "LP", "GO-4"], FILL],
        &["GO-9"],
        None,
        false,
        0,
    );
    play(&mut s, 0, lp(&["LP", "LP"]));
    assert_eq!(s.phase, Phase::PreRoll);
}

#[test]
fn a_luck_plus_without_bonus_forces_the_next_player_to_play_one_bonus_and_end_his_turn() {
    // Rulebook: "the next player must utilize the bonus rule and MUST play ANY CARD"; A14.
    let mut s = table(
        Options::default(),
        &[&["LP", "GO-4"], &["GO-7", "STOP-7", "GO-12", "DBL"]],
        &["GO-9"],
        Some([3, 4]),
        false,
        0,
    );
    play(&mut s, 0, lp(&[]));
    assert_eq!((s.turn, s.phase), (1, Phase::ForcedBonus));
    for mv in [Move::Roll, one(Basis::Pair, &["GO-7", "STOP-7"]), lp(&[])] {
        assert_eq!(reject(&s, 1, mv), "forced_bonus_pending");
    }
    assert_eq!(
        reject(&s, 1, Move::Bonus { cards: vec![] }),
        "bonus_required"
    );
    assert_eq!(
        reject(
            &s,
            1,
            Move::Bonus {
                cards: cs(&["GO-7", "DBL"])
            }
        ),
        "bonus_not_same_number"
    );
    let legal = LuckPlus::legal_moves(&s, 1);
    assert!(legal.iter().all(|m| matches!(m, Move::Bonus { .. })));
    let events = play(
        &mut s,
        1,
        Move::Bonus {
            cards: cs(&["STOP-7", "GO-7"]),
        },
    );
    assert!(ended(&events, TurnEnd::ForcedBonus));
    assert_eq!((s.turn, s.phase), (0, Phase::PreRoll));
    assert_eq!(
        reject(
            &s,
            0,
            Move::Bonus {
                cards: cs(&["GO-4"])
            }
        ),
        "no_bonus_owed"
    );
}

#[test]
fn a_luck_plus_may_be_played_when_a_roll_is_owed_or_a_card_was_just_drawn() {
    // Rulebook: "A LUCK PLUS card may be played at any time during a player's turn" (Example
    // #4 plays it after a match, when a roll is owed). Deviation from RULINGS 1.5: also while a
    // drawn card waits (see docs/rules/luck-plus.md).
    let mut s = table(
        Options::default(),
        &[&["LP", "GO-3", "GO-9"], FILL],
        &["GO-12"],
        Some([1, 6]),
        true,
        0,
    );
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("GO-7") });
    assert_eq!(s.phase, Phase::Drawn);
    let mut drawn = s.clone();
    play(&mut drawn, 0, lp(&["GO-7"]));
    assert_eq!(drawn.turn, 1);
    play(&mut s, 0, one(Basis::Total, &["GO-7"]));
    play(&mut s, 0, lp(&["GO-9"]));
    assert_eq!(s.hands[0], cs(&["GO-3"]));
}

#[test]
fn example_4_matches_the_previous_total_then_a_luck_plus_with_bonus_cards_goes_out() {
    // Rulebook Example #4 (RULINGS A2: previous dice total 5).
    let mut s = table(
        Options::default(),
        &[&["TR-5", "LP", "STOP-11", "GO-11"], FILL],
        &["GO-2"],
        Some([2, 3]),
        false,
        0,
    );
    play(&mut s, 0, one(Basis::Total, &["TR-5"]));
    let events = play(&mut s, 0, lp(&["STOP-11", "GO-11"]));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::WentOut {
            seat: 0,
            luck_out: false
        }
    )));
    assert_eq!(s.results[0].points, vec![1, 0]);
    assert_eq!(s.hand, 2);
}
