//! Tally words.

use super::*;

#[test]
fn card_words_accept_aliases_commas_case_and_lists() {
    let a = parsed("Ti_Leaf, mega-leaf KUKUI_NUT fish_hook leaf nut");
    assert_eq!(
        a.lei,
        vec![
            Slot::Ti,
            Slot::Mega,
            Slot::Kukui,
            Slot::Hook,
            Slot::Ti,
            Slot::Kukui
        ]
    );
    let b = words::parse_lei(
        0,
        &LeiText::List(vec!["blue".into(), "rainbow=blue red".into()]),
    )
    .unwrap();
    assert_eq!(b.lei, vec![Slot::Blue, Slot::Rainbow, Slot::Red]);
    assert_eq!(b.declared, vec![Some(Colour::Blue)]);
}

#[test]
fn unknown_words_and_doubled_tools_are_refused() {
    let parse = |s: &str| words::parse_lei(1, &LeiText::Words(s.into())).unwrap_err();
    assert_eq!(
        parse("blue lotus"),
        V::UnknownCardWord {
            seat: 1,
            word: "lotus".into()
        }
    );
    assert_eq!(parse("rainbow:green").code(), "unknown_card_word");
    assert_eq!(parse("hook blue hook").code(), "tool_used_twice");
    assert_eq!(parse("spacer cut:spacer").code(), "tool_used_twice");
    assert_eq!(parse("cut:blue knife:red").code(), "tool_used_twice");
}

#[test]
fn a_tally_checks_lei_count_card_copies_and_guests() {
    let lei = |s: &str| TallyLei {
        player: None,
        lei: LeiText::Words(s.into()),
        guests: None,
    };
    let o = Options::default();
    let one = Tally {
        leis: vec![lei("blue")],
    };
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 1, &one).unwrap_err().code(),
        "wrong_lei_count"
    );
    let rainbows = Tally {
        leis: vec![lei("rainbow rainbow"), lei("cut:rainbow")],
    };
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 1, &rainbows).unwrap_err(),
        V::TooManyCards {
            card: Card::Rainbow,
            count: 3,
            copies: 2
        }
    );
    let mut guests = Tally {
        leis: vec![lei("blue"), lei("red")],
    };
    guests.leis[0].guests = Some(vec![[1, 2]]);
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 1, &guests)
            .unwrap_err()
            .code(),
        "wrong_guest_count"
    );
    guests.leis[0].guests = Some(vec![[1, 2], [0, 0], [0, 5000]]);
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 1, &guests)
            .unwrap_err()
            .code(),
        "guest_bonus_out_of_range"
    );
}

#[test]
fn a_tied_tally_is_broken_by_flipping_guests_in_order_else_shared() {
    // RB "Tiebreaker"; RULINGS 4.5 and L14.
    let lei = |s: &str, g: Vec<GuestBonus>| TallyLei {
        player: None,
        lei: LeiText::Words(s.into()),
        guests: Some(g),
    };
    let o = Options::default();
    let tally = Tally {
        leis: vec![
            lei("red red", vec![[0, 0], [0, 3], [0, 0]]),
            lei("yellow yellow ti ti", vec![[0, 0], [0, 2], [0, 9]]),
            lei("blue", vec![[0, 9], [0, 9], [0, 9]]),
        ],
    };
    let score = LuckyLuau::score_tally(&o, 3, 1, &tally).unwrap();
    assert_eq!(score.totals, vec![6, 6, 0]);
    assert_eq!(
        score.winners,
        vec![0],
        "Guest 1 flipped: still tied; Guest 2: seat 0"
    );
    let (standings, over) = LuckyLuau::tally_standings(&o, 3, &[score]);
    assert!(over);
    assert_eq!(standings.ranks, vec![1, 2, 3]);
    let shared = Tally {
        leis: vec![
            lei("red red", vec![[0, 0]; 3]),
            lei("yellow yellow ti ti", vec![[0, 0]; 3]),
        ],
    };
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 1, &shared).unwrap().winners,
        vec![0, 1]
    );
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 2, &shared)
            .unwrap_err()
            .code(),
        "game_over",
        "one lei per player per game"
    );
}
