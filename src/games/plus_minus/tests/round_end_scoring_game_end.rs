//! Round end, scoring, game end.

use super::*;

#[test]
fn the_round_ends_after_the_turn_that_took_the_last_card_including_its_pass() {
    // Step 6; RULINGS P11.
    let state = table(
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    let mut state = with_draw(state, "");
    // Seat 0 is mid-turn with the draw stack already empty: it plays, passes, then scoring.
    ok(&mut state, 0, &play("9", plus(2)));
    assert!(state.results.is_empty());
    assert_eq!(state.phase, Phase::Pass);
    let events = ok(&mut state, 0, &pass("2"));
    assert_eq!(state.results.len(), 1);
    assert!(matches!(
        events.last(),
        Some(Event::RoundEnded { round: 1, .. })
    ));
    assert_eq!(state.phase, Phase::Deal);
}

#[test]
fn a_round_scores_plus_minus_and_hand_points() {
    // Steps 6–7: Plus − Minus − hand.
    let state = table(
        &["9 2", "3 A", "4 4"],
        &[("7 K A", "2 5"), ("5", "J"), ("8", "Q")],
        0,
    );
    let mut state = with_draw(state, "");
    ok(&mut state, 0, &play("9", plus(2)));
    ok(&mut state, 0, &pass("2"));
    let r = &state.results[0];
    // Seat 0: plus 7 K A = 30, minus 2 5 = 10, hand empty → 20.
    assert_eq!(
        r.seats[0],
        SeatScore {
            plus_cards: 3,
            plus_points: 30,
            minus_cards: 2,
            minus_points: 10,
            hand_cards: 0,
            hand_points: 0,
            score: 20
        }
    );
    // Seat 1: plus 5 = 5, minus J = 10, hand 2 3 A = 30 → −35.
    assert_eq!(r.points[1], -35);
    assert_eq!(
        r.points,
        r.seats.iter().map(|s| s.score).collect::<Vec<_>>()
    );
    assert_eq!(r.dealer, 0);
    assert_eq!(PlusMinus::score(&state).totals, r.points);
}

#[test]
fn each_player_deals_once_with_the_deal_moving_left_then_the_highest_total_wins() {
    // Step 8; RULINGS P12.
    let mut state = dealt(3, Options::default(), 5);
    let mut dealers = vec![state.dealer];
    let mut rng = SplitMix(77);
    let mut rounds_seen = 1;
    while !PlusMinus::is_over(&state) {
        if PlusMinus::chance_pending(&state) {
            let outcome = PlusMinus::sample_chance(&state, &mut rng);
            PlusMinus::resolve_chance(&mut state, &outcome).unwrap();
            if state.round > rounds_seen {
                rounds_seen = state.round;
                dealers.push(state.dealer);
            }
        } else {
            let seat = PlusMinus::to_act(&state)[0];
            let mv = PlusMinus::legal_moves(&state, seat)[0].clone();
            ok(&mut state, seat, &mv);
        }
        PlusMinus::check_state(&state).unwrap();
    }
    assert_eq!(dealers, vec![0, 1, 2]);
    assert_eq!(state.results.len(), 3);
    let totals = PlusMinus::score(&state).totals;
    let best = *totals.iter().max().unwrap();
    let winners: Vec<Seat> = (0..3).filter(|&s| totals[s] == best).collect();
    assert_eq!(PlusMinus::standings(&state).winners, winners);
}

#[test]
fn option_rounds_shortens_the_game() {
    let options = Options {
        rounds: Some(1),
        ..Options::default()
    };
    let state = table_with(
        options,
        &["9 2", "3 3", "4 4"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    let mut state = with_draw(state, "");
    ok(&mut state, 0, &play("9", plus(2)));
    let events = ok(&mut state, 0, &pass("2"));
    assert!(PlusMinus::is_over(&state));
    assert!(matches!(events.last(), Some(Event::GameEnded { .. })));
    assert_eq!(refuse(&state, 0, &pass("2")), V::from(Common::GameOver));
}

#[test]
fn tied_totals_share_the_win() {
    // RULINGS P12: ties shared.
    let options = Options {
        rounds: Some(1),
        ..Options::default()
    };
    let (standings, over) = PlusMinus::tally_standings(
        &options,
        3,
        &[RoundResult::new(
            1,
            0,
            vec![
                seat_score(&cards("K"), &[], &[]),
                seat_score(&cards("Q"), &[], &[]),
                seat_score(&cards("2"), &[], &[]),
            ],
        )],
    );
    assert!(over);
    assert_eq!(standings.winners, vec![0, 1]);
}
