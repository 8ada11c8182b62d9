//! Setup and chance.

use super::*;

#[test]
fn the_deal_gives_eight_face_up_cards_and_a_flipped_luck_plus_goes_under_the_draw_pile() {
    // Rulebook 1: "Deal 8 cards FACE UP ... If a LUCK PLUS card is the first card to be turned
    // over, it is placed under the DRAW PILE and the next card is turned over." RULINGS 1.2.
    let mut state = LuckPlus::setup(LuckPlus::validate_options(&Options::default(), 3).unwrap());
    assert_eq!(state.phase, Phase::Deal);
    let deck = full_deck();
    let hands: Vec<Vec<Card>> = (0..3).map(|s| deck[s * 8..s * 8 + 8].to_vec()).collect();
    chance(
        &mut state,
        Chance::Deal {
            hands,
            flips: cs(&["LP", "LP", "GO-9"]),
        },
    );
    assert_eq!(state.match_pile, cs(&["GO-9"]));
    assert_eq!(state.draw_bottom, cs(&["LP", "LP"]));
    assert_eq!(state.draw_pile.len(), 108 - 24 - 3);
    assert_eq!(state.turn, 1, "the player left of the dealer begins");
    assert_eq!(state.phase, Phase::PreRoll);
    assert!(state.first_turn && state.dice.is_none());
}

#[test]
fn a_seeded_deal_of_eight_players_leaves_43_cards_plus_any_luck_plus_put_under() {
    // RULINGS 1.2: n = 8: 64 dealt, 43 in the draw pile after the flip.
    for seed in 0..20 {
        let mut state =
            LuckPlus::setup(LuckPlus::validate_options(&Options::default(), 8).unwrap());
        let outcome = LuckPlus::sample_chance(&state, &mut SplitMix(seed));
        chance(&mut state, outcome);
        assert_eq!(state.draw_pile.len() + state.draw_bottom.len(), 43);
        assert_ne!(state.match_pile, vec![Card::Lp]);
    }
}

#[test]
fn impossible_deals_rolls_and_draws_are_refused_and_change_nothing() {
    let state = LuckPlus::setup(LuckPlus::validate_options(&Options::default(), 2).unwrap());
    let deck = full_deck();
    let hands = vec![deck[0..8].to_vec(), deck[8..16].to_vec()];
    let check = |outcome: Chance| {
        let mut copy = state.clone();
        let err = LuckPlus::resolve_chance(&mut copy, &outcome).unwrap_err();
        assert_eq!(copy, state);
        err.code()
    };
    let deal = |hands: Vec<Vec<Card>>, flips: &[&str]| Chance::Deal {
        hands,
        flips: cs(flips),
    };
    assert_eq!(check(deal(hands.clone(), &["GO-7", "LP"])), "bad_flips");
    assert_eq!(check(deal(hands.clone(), &[])), "bad_flips");
    assert_eq!(check(deal(hands.clone(), &["LP"])), "bad_flips");
    assert_eq!(
        check(deal(vec![hands[0].clone()], &["GO-7"])),
        "wrong_hand_count"
    );
    assert_eq!(
        check(deal(
            vec![hands[0].clone(), deck[8..15].to_vec()],
            &["GO-7"]
        )),
        "wrong_card_count"
    );
    let mut twelves = hands.clone();
    twelves[1] = cs(&[
        "STOP-12", "STOP-12", "GO-1", "GO-1", "GO-1", "GO-1", "GO-2", "GO-2",
    ]);
    assert_eq!(check(deal(twelves, &["GO-7"])), "card_not_in_pile");
    assert_eq!(
        check(Chance::Roll { dice: [1, 2] }),
        "unexpected_chance_kind"
    );

    let mut table = table(
        Options::default(),
        &[&["GO-1"], &["STOP-11", "GO-12"]],
        &["GO-9"],
        None,
        false,
        0,
    );
    assert_eq!(
        LuckPlus::resolve_chance(&mut table, &Chance::Roll { dice: [1, 2] })
            .unwrap_err()
            .code(),
        "no_chance_pending"
    );
    play(&mut table, 0, Move::Roll);
    for bad in [[0, 3], [7, 1]] {
        assert_eq!(
            LuckPlus::resolve_chance(&mut table.clone(), &Chance::Roll { dice: bad })
                .unwrap_err()
                .code(),
            "bad_die"
        );
    }
    chance(&mut table, Chance::Roll { dice: [6, 6] });
    play(&mut table, 0, Move::Draw);
    // Seat 1 holds the only STOP-11.
    assert_eq!(
        LuckPlus::resolve_chance(&mut table.clone(), &Chance::Draw { card: c("STOP-11") })
            .unwrap_err()
            .code(),
        "card_not_in_pile"
    );
}

#[test]
fn a_seeded_roll_shows_two_faces_from_one_to_six() {
    let mut state = table(
        Options::default(),
        &[&["GO-1"], FILL],
        &["GO-9"],
        None,
        false,
        0,
    );
    play(&mut state, 0, Move::Roll);
    for seed in 0..50 {
        match LuckPlus::sample_chance(&state, &mut SplitMix(seed)) {
            Chance::Roll { dice } => assert!(dice.iter().all(|d| (1..=6).contains(d))),
            other => panic!("{other:?}"),
        }
    }
}
