//! Options, states, views, codes.

use super::*;

/// Seat 0 to play GO-1 and GO-2 on GO-9 with 1 and 2 rolled.
fn rolled_one_two() -> State {
    table(
        Options::default(),
        &[&["GO-1", "GO-2"], FILL],
        &["GO-9"],
        Some([1, 2]),
        true,
        0,
    )
}

#[test]
fn options_name_the_offending_option() {
    let bad = |o: Options, players| LuckPlus::validate_options(&o, players).unwrap_err().option;
    assert_eq!(bad(Options::default(), 1), "players");
    assert_eq!(bad(Options::default(), 9), "players");
    assert_eq!(
        bad(
            Options {
                dealer: 4,
                ..Options::default()
            },
            4
        ),
        "dealer"
    );
    assert_eq!(
        bad(
            Options {
                target: Some(0),
                ..Options::default()
            },
            4
        ),
        "target"
    );
    let parsed: Result<Options, _> = serde_json::from_value(serde_json::json!({"targett": 3}));
    assert!(parsed.is_err());
}

#[test]
fn inconsistent_states_are_refused_with_a_stable_code() {
    let s = rolled_one_two();
    let code = |f: &dyn Fn(&mut State)| {
        let mut bad = s.clone();
        f(&mut bad);
        LuckPlus::check_state(&bad).unwrap_err().code
    };
    assert_eq!(
        code(&|b| b.hands[0].insert(0, Card::Go(1))),
        "cards_not_conserved"
    );
    assert_eq!(code(&|b| b.hands[0].reverse()), "hand_not_sorted");
    assert_eq!(code(&|b| b.players = 9), "bad_player_count");
    assert_eq!(
        code(&|b| b.hands.pop().map(|_| ()).unwrap_or(())),
        "bad_hand_count"
    );
    assert_eq!(code(&|b| b.options.dealer = 5), "invalid_options");
    assert_eq!(
        code(&|b| b.drawn = Some(Card::Go(1))),
        "phase_contradiction"
    );
    assert_eq!(
        code(&|b| b.chance = Some(PendingChance::Roll { seat: 0 })),
        "chance_mismatch"
    );
    assert_eq!(code(&|b| b.dealer = 1), "bad_dealer");
    assert_eq!(
        code(&|b| b.draw_bottom = vec![Card::Go(1)]),
        "bad_draw_bottom"
    );
    assert_eq!(
        code(&|b| {
            let card = b.hands[0].pop().unwrap();
            b.match_pile.insert(0, card);
            b.hands[0].clear();
            b.match_pile.insert(0, Card::Go(2));
        }),
        "cards_not_conserved"
    );
    assert_eq!(
        code(&|b| {
            let cards = std::mem::take(&mut b.hands[0]);
            b.match_pile.splice(0..0, cards);
        }),
        "phase_contradiction"
    );
    assert_eq!(
        code(&|b| b.results.push(hand_end(ScoringMode::Hands, None))),
        "bad_hand_results"
    );
}

#[test]
fn every_viewer_sees_every_face_up_hand_but_only_the_full_view_lists_the_draw_pile() {
    // Rulebook 1: hands are dealt FACE UP (RULINGS 1.3).
    let s = rolled_one_two();
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        let v = LuckPlus::view(&s, viewer);
        assert_eq!(v.hands, s.hands);
        assert_eq!(v.draw_pile, None);
        assert_eq!(v.draw_pile_size, s.draw_pile.len());
    }
    assert_eq!(
        LuckPlus::view(&s, Viewer::Full).draw_pile,
        Some(s.draw_pile.clone())
    );
    assert!(!LuckPlus::view(&s, Viewer::Seat(0)).legal_moves.is_empty());
    assert!(LuckPlus::view(&s, Viewer::Seat(1)).legal_moves.is_empty());
    assert!(LuckPlus::view(&s, Viewer::Spectator).legal_moves.is_empty());
    let event = Event::Drew {
        seat: 0,
        card: Card::Lp,
        playable: true,
    };
    assert_eq!(LuckPlus::redact_event(&event, Viewer::Spectator), event);
}

#[test]
fn an_empty_play_is_refused() {
    let s = table(
        Options::default(),
        &[&["GO-1"], FILL],
        &["GO-9"],
        Some([1, 2]),
        true,
        0,
    );
    assert_eq!(reject(&s, 0, play_groups(vec![])), "empty_play");
    assert_eq!(reject(&s, 1, Move::Draw), "not_your_turn");
    assert_eq!(reject(&s, 4, Move::Draw), "unknown_seat");
    let mut rolling = s.clone();
    rolling.phase = Phase::Matching;
    play(&mut rolling, 0, Move::Roll);
    assert_eq!(reject(&rolling, 0, Move::Draw), "chance_pending");
}

/// Statistics count hands won and LUCK OUTs ("LUCK OUT: going out on your first turn").
#[test]
fn highlights_count_hands_won_and_luck_outs() {
    let options = Options::default();
    let hand = |seat: Seat, luck_out: bool, left: Vec<Vec<Card>>| {
        let tally = Tally {
            out: vec![Out { seat, luck_out }],
            cards_left: left,
        };
        LuckPlus::score_tally(&options, 2, 1, &tally).unwrap()
    };
    let hands = vec![
        hand(0, true, vec![vec![], cs(&["GO-3"])]),
        hand(0, false, vec![vec![], cs(&["DBL"])]),
        hand(1, false, vec![cs(&["LP"]), vec![]]),
    ];
    let seats = LuckPlus::tally_highlights(2, &hands);
    assert_eq!(seats[0]["hands_won"], 2);
    assert_eq!(seats[0]["luck_outs"], 1);
    assert_eq!(seats[1]["hands_won"], 1);
    assert!(!seats[1].contains_key("luck_outs"));
}
