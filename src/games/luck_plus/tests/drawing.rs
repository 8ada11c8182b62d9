//! Drawing.

use super::*;

/// Seat 0 to play GO-3 and GO-4 on GO-12 with 1 and 6 rolled: nothing matches, so it draws.
fn must_draw() -> State {
    table(
        Options::default(),
        &[&["GO-3", "GO-4"], FILL],
        &["GO-12"],
        Some([1, 6]),
        true,
        0,
    )
}

#[test]
fn a_player_who_cannot_or_will_not_match_draws_and_an_unplayable_card_ends_the_turn() {
    // Rulebook 4; RULINGS 1.5 `draw`.
    let mut s = must_draw();
    assert_eq!(reject(&s, 0, Move::Roll), "must_match_or_draw");
    play(&mut s, 0, Move::Draw);
    assert_eq!(s.phase, Phase::Drawing);
    let events = chance(&mut s, Chance::Draw { card: c("GO-10") });
    assert!(ended(&events, TurnEnd::Unplayable));
    assert_eq!(s.hands[0], cs(&["GO-3", "GO-4", "GO-10"]));
    assert_eq!(s.turn, 1);
}

#[test]
fn a_playable_drawn_card_may_be_played_first_then_more_cards_or_kept() {
    // Rulebook 4 ("If the card can be played, then the player can continue"); RULINGS A8, A9.
    let base = table(
        Options::default(),
        &[&["GO-1", "GO-6", "GO-9"], FILL],
        &["GO-12"],
        Some([1, 6]),
        true,
        0,
    );
    let mut s = base.clone();
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("TR-7") });
    assert_eq!((s.phase, s.drawn), (Phase::Drawn, Some(c("TR-7"))));
    assert_eq!(
        reject(&s, 0, one(Basis::Pair, &["GO-1", "GO-6"])),
        "drawn_card_pending"
    );
    assert_eq!(reject(&s, 0, Move::Roll), "drawn_card_pending");
    let mut kept = s.clone();
    assert!(ended(&play(&mut kept, 0, Move::Keep), TurnEnd::Kept));
    assert!(kept.hands[0].contains(&c("TR-7")));
    play(
        &mut s,
        0,
        play_groups(vec![
            g(Basis::Total, &["TR-7"]),
            g(Basis::Pair, &["GO-1", "GO-6"]),
        ]),
    );
    assert_eq!(s.hands[0], cs(&["GO-9"]));
    assert_eq!(s.phase, Phase::Matching);
    assert_eq!(reject(&s, 0, Move::Keep), "no_drawn_card");
}

#[test]
fn a_drawn_card_that_completes_a_pair_with_the_hand_is_playable() {
    // RULINGS 1.5 "Playable": a pair together with a card already in hand.
    let mut s = table(
        Options::default(),
        &[&["GO-2", "GO-9"], FILL],
        &["GO-12"],
        Some([2, 5]),
        true,
        0,
    );
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("STOP-5") });
    assert_eq!(s.phase, Phase::Drawn);
    assert!(LuckPlus::legal_moves(&s, 0).contains(&one(Basis::Pair, &["GO-2", "STOP-5"])));
    assert!(!LuckPlus::legal_moves(&s, 0).contains(&one(Basis::Pair, &["STOP-5", "GO-2"])));
}

#[test]
fn example_2c_a_drawn_transfer_goes_to_the_left_player_and_the_giver_rolls_again() {
    // Rulebook Example #2c and "TRANSFER CARD".
    let mut s = table(
        Options::default(),
        &[&["GO-3", "GO-4"], FILL, &["GO-1", "GO-2"]],
        &["TR-12"],
        Some([1, 6]),
        true,
        0,
    );
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("TR-6") });
    let give = |to: Seat, extra: &[&str]| Move::Transfer {
        card: c("TR-6"),
        to,
        extra: cs(extra),
    };
    assert_eq!(reject(&s, 0, give(2, &[])), "transfer_must_go_left");
    assert_eq!(reject(&s, 0, give(0, &[])), "transfer_target_invalid");
    assert_eq!(reject(&s, 0, give(1, &["GO-3"])), "extra_not_allowed");
    play(&mut s, 0, give(1, &[]));
    assert!(s.hands[1].contains(&c("TR-6")));
    assert_eq!(s.phase, Phase::MustRoll);
    assert_eq!(reject(&s, 0, one(Basis::Top, &["GO-3"])), "must_roll");
    assert_eq!(reject(&s, 0, Move::Draw), "must_roll");
    play(&mut s, 0, Move::Roll);
}

#[test]
fn a_drawn_transfer_plus_goes_to_any_opponent_with_an_extra_card_and_its_number() {
    // Rulebook "TRANSFER PLUS CARD"; RULINGS A11, A12 and option `tp_extra_same_number_as`.
    let hands: &[&[&str]] = &[
        &["GO-11", "STOP-11", "TR-11", "GO-2", "DBL"],
        FILL,
        &["GO-1"],
    ];
    let mut s = table(Options::default(), hands, &["GO-12"], Some([1, 6]), true, 0);
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("TP-3") });
    let give = |to: Seat, extra: &[&str]| Move::Transfer {
        card: c("TP-3"),
        to,
        extra: cs(extra),
    };
    assert_eq!(
        reject(&s, 0, give(2, &["GO-11", "GO-2"])),
        "extra_not_same_number"
    );
    assert_eq!(reject(&s, 0, give(2, &["GO-10"])), "card_not_in_hand");
    let mut tp = s.clone();
    play(&mut tp, 0, give(2, &["GO-11", "STOP-11", "TR-11"]));
    assert_eq!(
        tp.hands[2],
        cs(&["GO-1", "TP-3", "GO-11", "STOP-11", "TR-11"])
    );
    assert_eq!(tp.hands[0], cs(&["GO-2", "DBL"]));
    assert_eq!(tp.phase, Phase::MustRoll);
    let mut by_tp = s.clone();
    by_tp.options.tp_extra_same_number_as = TpExtraSameNumberAs::TpCard;
    assert_eq!(
        reject(&by_tp, 0, give(2, &["GO-11", "STOP-11"])),
        "extra_not_same_number"
    );
    play(&mut by_tp, 0, give(2, &["DBL"]));
}

#[test]
fn giving_away_the_last_cards_goes_out() {
    // RULINGS 1.8: giving cards away also counts.
    let mut s = table(
        Options::default(),
        &[&["GO-11"], FILL],
        &["GO-12"],
        Some([1, 6]),
        true,
        0,
    );
    play(&mut s, 0, Move::Draw);
    chance(&mut s, Chance::Draw { card: c("TP-4") });
    play(
        &mut s,
        0,
        Move::Transfer {
            card: c("TP-4"),
            to: 1,
            extra: cs(&["GO-11"]),
        },
    );
    assert_eq!(
        s.results[0].out,
        vec![Out {
            seat: 0,
            luck_out: false
        }]
    );
}

#[test]
fn an_empty_draw_pile_is_refilled_from_the_match_pile_but_its_top() {
    // Rulebook "GOING OUT" 4; RULINGS 1.7 and option `reshuffle_match_pile`.
    let mut s = table(
        Options::default(),
        &[&["GO-3", "GO-4"], FILL],
        &["GO-5", "GO-6", "GO-12"],
        Some([1, 6]),
        true,
        0,
    );
    let rest = std::mem::take(&mut s.draw_pile);
    s.hands[1].extend(rest);
    s.hands[1].sort();
    LuckPlus::check_state(&s).unwrap();
    let mut on = s.clone();
    let events = play(&mut on, 0, Move::Draw);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Reshuffled { cards: 2, .. })));
    assert_eq!(on.match_pile, cs(&["GO-12"]));
    assert_eq!(on.draw_pile, cs(&["GO-5", "GO-6"]));
    let mut off = s.clone();
    off.options.reshuffle_match_pile = false;
    let events = play(&mut off, 0, Move::Draw);
    assert!(ended(&events, TurnEnd::DrawVoid));
    assert_eq!(off.turn, 1);
}

#[test]
fn the_luck_plus_cards_put_under_the_draw_pile_are_its_last_cards() {
    // Rulebook 1: the LP "is placed under the DRAW PILE".
    let mut s = must_draw();
    let mut rest = std::mem::take(&mut s.draw_pile);
    remove_one(&mut rest, Card::Lp);
    s.draw_bottom = vec![Card::Lp];
    s.hands[1].extend(rest);
    s.hands[1].sort();
    LuckPlus::check_state(&s).unwrap();
    let events = play(&mut s, 0, Move::Draw);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Drew {
            card: Card::Lp,
            playable: true,
            ..
        }
    )));
    assert_eq!(s.phase, Phase::Drawn);
    assert!(s.draw_bottom.is_empty());
}
