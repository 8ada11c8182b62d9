//! Views and events.

use super::*;

#[test]
fn a_seat_sees_only_its_own_hand_and_its_own_drawn_card() {
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon], vec![Lemon; 7]],
        vec![Clover],
        0,
    );
    play(&mut s, 0, Move::Draw);
    let v = LuckyJack::view(&s, Viewer::Seat(1));
    assert_eq!(v.chance.as_ref().unwrap().pile, None);
    resolve(&mut s, draw(&[Seven]));
    let mine = LuckyJack::view(&s, Viewer::Seat(0));
    assert_eq!(mine.hands[0].as_deref(), Some(&s.hands[0][..]));
    assert_eq!(mine.hands[1], None);
    assert_eq!(mine.pending, Some(Seven));
    assert_eq!(mine.draw_pile, None);
    assert_eq!(mine.legal_moves, vec![Move::Keep, Move::DiscardDrawn]);
    let theirs = LuckyJack::view(&s, Viewer::Seat(1));
    assert_eq!(theirs.hands[0], None);
    assert_eq!(theirs.pending, None);
    assert!(theirs.drawn_card_pending);
    assert_eq!(theirs.hand_sizes, vec![4, 7]);
    let spectator = LuckyJack::view(&s, Viewer::Spectator);
    assert!(spectator.hands.iter().all(Option::is_none));
    assert_eq!(spectator.pending, None);
    assert_eq!(spectator.draw_pile_size, s.draw_pile.total());
}

/// Rebuilds the state from a full view: proves the full view loses nothing.
fn state_from_full_view(v: &View) -> State {
    let chance = v.chance.as_ref().map(|c| {
        let pile = c.pile.expect("full view shows the pile");
        match c.kind {
            ChanceKind::Deal => PendingChance::Deal {
                round: v.round,
                hands: v.players,
                cards_per_hand: HAND_SIZE,
                pile,
            },
            ChanceKind::Draw => PendingChance::Draw {
                seat: c.seat.unwrap(),
                count: c.count,
                pile,
            },
            ChanceKind::Flip => PendingChance::Flip {
                seat: c.seat.unwrap(),
                pile,
            },
        }
    });
    State {
        players: v.players,
        options: v.options.clone(),
        round: v.round,
        starter: v.starter,
        turn: v.turn,
        phase: v.phase,
        hands: v.hands.iter().map(|h| h.clone().unwrap()).collect(),
        draw_pile: v.draw_pile.unwrap(),
        discard: v.discard.clone(),
        pending: v.pending,
        takeable: v.takeable,
        turn_start_hand: v.turn_start_hand,
        draw_owed: v.draw_owed,
        turns_this_round: v.turns_this_round,
        results: v.results.clone(),
        chance,
    }
}

#[test]
fn the_full_view_contains_the_whole_state() {
    let options = Options {
        max_turns_per_round: Some(30),
        ..Options::default()
    };
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&options, 3).unwrap());
    let mut rng = SplitMix(5);
    let mut steps = 0;
    while !LuckyJack::is_over(&s) {
        assert_eq!(state_from_full_view(&LuckyJack::view(&s, Viewer::Full)), s);
        if LuckyJack::chance_pending(&s) {
            let c = LuckyJack::sample_chance(&s, &mut rng);
            resolve(&mut s, c);
        } else {
            let seat = s.turn;
            let moves = LuckyJack::legal_moves(&s, seat);
            play(&mut s, seat, moves[steps % moves.len()].clone());
        }
        steps += 1;
    }
    assert_eq!(state_from_full_view(&LuckyJack::view(&s, Viewer::Full)), s);
}

#[test]
fn redacted_events_hide_other_seats_cards() {
    let dealt = Event::Dealt {
        seat: 1,
        count: 7,
        cards: Some(vec![Lemon; 7]),
    };
    let drew = Event::Drew {
        seat: 1,
        count: 2,
        cards: Some(vec![Jack, Bell]),
    };
    let kept = Event::Kept {
        seat: 1,
        card: Some(Jack),
    };
    for e in [&dealt, &drew, &kept] {
        assert_eq!(&LuckyJack::redact_event(e, Viewer::Seat(1)), e);
        assert_eq!(&LuckyJack::redact_event(e, Viewer::Full), e);
        for viewer in [Viewer::Seat(0), Viewer::Spectator] {
            let json = serde_json::to_value(LuckyJack::redact_event(e, viewer)).unwrap();
            assert!(json.get("cards").is_none_or(|c| c.is_null()), "{json}");
            assert!(json.get("card").is_none_or(|c| c.is_null()), "{json}");
        }
    }
    // Face-up cards stay public.
    let took = Event::TookIt {
        seat: 1,
        card: Seven,
    };
    assert_eq!(LuckyJack::redact_event(&took, Viewer::Spectator), took);
}

#[test]
fn standings_rank_the_totals_and_name_winners_only_at_the_end() {
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&Options::default(), 2).unwrap());
    win_round_with(&mut s, 1, Jack);
    let st = LuckyJack::standings(&s);
    assert_eq!(st.totals, vec![0, 7000]);
    assert_eq!(st.ranks, vec![2, 1]);
    assert!(st.winners.is_empty());
}

/// Statistics count jackpots by the symbol's wire name, so the two must agree.
#[test]
fn every_symbol_name_is_its_json_name() {
    for symbol in Symbol::ALL {
        assert_eq!(serde_json::to_value(symbol).unwrap(), symbol.name());
    }
}

/// Statistics' brag figures: jackpots won, by symbol and with four cards (rulebook "End of the
/// Round": a 3- or 4-card JACKPOT wins the round).
#[test]
fn highlights_count_each_seats_jackpots_by_symbol_and_size() {
    let jackpot = |seat, symbol, size| {
        RoundResult::new(
            1,
            0,
            3,
            RoundOutcome::Jackpot {
                seat,
                symbol,
                size,
                points: symbol.jackpot_points(size).unwrap(),
            },
        )
    };
    let rounds = vec![
        jackpot(2, Symbol::Jack, 4),
        jackpot(2, Symbol::Bell, 3),
        RoundResult::new(
            2,
            1,
            3,
            RoundOutcome::NoJackpot {
                reason: NoJackpotReason::NoWinner,
            },
        ),
    ];
    let seats = LuckyJack::tally_highlights(3, &rounds);
    assert!(seats[0].is_empty());
    assert_eq!(seats[2]["jackpots"], 2);
    assert_eq!(seats[2]["jackpots_jack"], 1);
    assert_eq!(seats[2]["jackpots_bell"], 1);
    assert_eq!(seats[2]["four_card_jackpots"], 1);
}

#[test]
fn the_symbol_tables_agree() {
    crate::games::kit::counts::assert_kind_tables::<Symbol>();
}
