//! The race.

use super::*;

#[test]
fn the_lucky_symbol_goes_to_the_tray() {
    // Rulebook "1. Place them on the tray": "Did you roll the ultimate lucky symbol? Then place
    // the matching die/dice onto the tray. Those dice are out of play".
    let mut state = race(first_coasters(3), Hamsa);
    let events = roll_faces(&mut state, 1, &[Hamsa, Hamsa, Penny]);
    assert_eq!(state.tray, 2);
    assert_eq!(state.pools, vec![3, 1, 3]);
    assert_eq!(rolled_dice(&events)[0], die(Hamsa, Destination::Tray, None));
}

#[test]
fn the_lucky_symbol_goes_to_the_tray_even_when_the_coaster_shows_it() {
    // Rulebook "Important dice rules": "Dice that show the ultimate lucky symbol are always placed
    // on the tray! Even if a player's coaster happens to show the same symbol."
    let mut state = race(vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)], Pig);
    let events = roll_faces(&mut state, 0, &[Pig, Pig, Pig]);
    assert_eq!(
        rolled_dice(&events),
        vec![die(Pig, Destination::Tray, None); 3]
    );
    assert_eq!(state.pools, vec![0, 3, 3]);
    assert_eq!(state.tray, 3);
}

#[test]
fn the_left_symbol_passes_a_die_to_the_player_on_the_left() {
    // Rulebook "2. Place them on the coaster of another player": left symbol → player to your
    // left; D4: left = the next seat clockwise (s + 1).
    let mut state = race(vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)], Hamsa);
    let events = roll_faces(&mut state, 2, &[Pig, Horseshoe, Cat]);
    // Seat 2's left is seat 0 (2 + 1 mod 3), its right seat 1.
    assert_eq!(
        rolled_dice(&events),
        vec![
            die(Pig, Destination::Left, Some(0)),
            die(Horseshoe, Destination::Right, Some(1)),
            die(Cat, Destination::Stays, None),
        ]
    );
    assert_eq!(state.pools, vec![4, 4, 1]);
    let events = roll_faces(&mut state, 0, &[Pig, Cat, Penny, Hamsa]);
    assert_eq!(
        rolled_dice(&events),
        vec![
            die(Pig, Destination::Left, Some(1)),
            die(Cat, Destination::Right, Some(2)),
            die(Penny, Destination::Stays, None),
            die(Hamsa, Destination::Tray, None),
        ]
    );
    assert_eq!(state.pools, vec![1, 5, 2]);
    assert_eq!(state.tray, 1);
}

#[test]
fn the_right_symbol_passes_a_die_to_the_player_on_the_right() {
    // Rulebook: "Did you roll the symbol that is pictured on the right of your coaster? Then place
    // the matching die/dice on the coaster of the player to your right." Seat 0's right is the
    // last seat.
    let mut state = race(first_coasters(4), Hamsa);
    // Seat 0: clover left, pig right.
    let events = roll_faces(&mut state, 0, &[Pig, Pig, Cat]);
    assert_eq!(
        rolled_dice(&events)[0],
        die(Pig, Destination::Right, Some(3))
    );
    assert_eq!(state.pools, vec![1, 3, 3, 5]);
}

#[test]
fn other_faces_stay_with_the_roller() {
    // Rulebook: only the lucky symbol and the coaster's two symbols cast off dice.
    let mut state = race(vec![c(Pig, Cat), c(Penny, Hamsa)], Clover);
    let events = roll_faces(&mut state, 0, &[Penny, Hamsa, Horseshoe]);
    assert!(rolled_dice(&events)
        .iter()
        .all(|d| d.to == Destination::Stays));
    assert_eq!(state.pools, vec![3, 3]);
}

#[test]
fn with_two_players_both_coaster_symbols_pass_to_the_other_player() {
    // Rulebook: "When playing with 2 players, the dice are placed on the coaster of the other
    // player."
    let mut state = race(vec![c(Pig, Cat), c(Penny, Hamsa)], Clover);
    let events = roll_faces(&mut state, 0, &[Pig, Cat, Penny]);
    assert_eq!(
        rolled_dice(&events),
        vec![
            die(Pig, Destination::Left, Some(1)),
            die(Cat, Destination::Right, Some(1)),
            die(Penny, Destination::Stays, None),
        ]
    );
    assert_eq!(state.pools, vec![1, 5]);
}

#[test]
fn a_coaster_with_one_symbol_twice_passes_it_left() {
    // RULINGS D7: not in the default set; if configured the die goes left.
    let mut set = balanced_coaster_set();
    set[0] = c(Pig, Pig);
    let options = Options {
        coaster_set: set,
        ..Options::default()
    };
    let mut state = race_with(
        options,
        vec![c(Pig, Pig), c(Penny, Hamsa), c(Clover, Cat)],
        Hamsa,
    );
    let events = roll_faces(&mut state, 0, &[Pig, Cat, Cat]);
    assert_eq!(
        rolled_dice(&events)[0],
        die(Pig, Destination::Left, Some(1))
    );
}

#[test]
fn passed_dice_join_the_receivers_next_roll_and_a_stale_count_is_refused_as_stale() {
    // Rulebook: "This increases your number of dice! Add them to your rolling"; RULINGS 3.4
    // `len(results) = pool(player)`; issue: "a roll from a seat whose dice count changed since
    // the client last looked is a 409, not a silent mis-count".
    let mut state = race(
        vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)],
        Clover,
    );
    roll_faces(&mut state, 0, &[Pig, Pig, Hamsa]);
    assert_eq!(state.pools[1], 5);
    let err = reject(&state, 1, roll(3));
    assert_eq!(
        err,
        LuckyDiceViolation::WrongDiceCount {
            seat: 1,
            claimed: 3,
            held: 5
        }
    );
    assert!(err.is_stale());
    play(&mut state, 1, roll(5));
    assert_eq!(
        state.chance,
        Some(PendingChance::Roll {
            seat: 1,
            dice: 5,
            extra: false
        })
    );
    // Another seat whose own pool did not change still rolls its count.
    let mut other = race(
        vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)],
        Clover,
    );
    roll_faces(&mut other, 0, &[Pig, Pig, Hamsa]);
    play(&mut other, 2, roll(3));
}

#[test]
fn a_roll_must_state_its_dice_count_unless_the_count_is_not_strict() {
    // RULINGS 3.6 strictRollCount (default true).
    let state = race(first_coasters(2), Clover);
    assert_eq!(
        reject(&state, 0, Move::Roll { dice: None }).code(),
        "dice_count_required"
    );
    let loose = Options {
        strict_roll_count: false,
        ..Options::default()
    };
    let mut state = race_with(loose, first_coasters(2), Clover);
    play(&mut state, 0, Move::Roll { dice: None });
    resolve(&mut state, faces(&[Cat, Cat, Cat]));
    // A wrong count is not refused: the seat rolls what it holds.
    play(&mut state, 1, roll(7));
    assert_eq!(
        state.chance,
        Some(PendingChance::Roll {
            seat: 1,
            dice: 3,
            extra: false
        })
    );
}

#[test]
fn the_faces_reported_must_be_exactly_the_dice_rolled() {
    // RULINGS 3.4: `len(results) = pool(player)`; a table reports the faces for that many dice.
    let mut state = race(first_coasters(3), Clover);
    play(&mut state, 2, roll(3));
    let err = refuse_chance(&state, faces(&[Cat, Cat]));
    assert_eq!(
        err,
        LuckyDiceViolation::WrongFaceCount {
            seat: 2,
            expected: 3,
            got: 2
        }
    );
    assert_eq!(
        refuse_chance(&state, faces(&[Cat; 4])).code(),
        "wrong_face_count"
    );
    let err = refuse_chance(&state, Chance::LuckySymbol { symbol: Cat });
    assert_eq!(err.code(), "unexpected_chance_kind");
}

#[test]
fn rolls_are_serialised_one_pending_roll_at_a_time() {
    // RULINGS D2: "serialized roll events"; while one roll's faces are awaited nobody else rolls.
    let mut state = race(first_coasters(3), Clover);
    play(&mut state, 1, roll(3));
    assert!(LuckyDice::to_act(&state).is_empty());
    assert_eq!(reject(&state, 0, roll(3)).code(), "chance_pending");
    resolve(&mut state, faces(&[Horseshoe, Horseshoe, Horseshoe]));
    assert_eq!(LuckyDice::to_act(&state), vec![0, 1, 2]);
}

#[test]
fn emptying_the_pool_calls_stop_automatically() {
    // Rulebook: "Did you get rid of all your dice? Fantastic! Call out 'Stop!'"; RULINGS D3:
    // the first player whose pool reaches 0 after his own roll.
    let mut state = race(vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)], Hamsa);
    let events = roll_faces(&mut state, 0, &[Pig, Cat, Hamsa]);
    assert!(events.contains(&Event::Stopped {
        seat: 0,
        automatic: true
    }));
    assert_eq!(state.phase, Phase::AfterStop);
    assert_eq!(state.stop_caller, Some(0));
    assert_eq!(LuckyDice::to_act(&state), vec![1, 2]);
}

#[test]
fn after_stop_a_race_roll_is_refused_as_stale() {
    // A seat that did not see "Stop!" yet: its view is out of date (409).
    let mut state = race(vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)], Hamsa);
    roll_faces(&mut state, 0, &[Hamsa, Hamsa, Hamsa]);
    let err = reject(&state, 1, roll(3));
    assert_eq!(err, LuckyDiceViolation::StopPhase { stop_caller: 0 });
    assert!(err.is_stale());
}

#[test]
fn extra_rolls_count_only_the_lucky_symbol() {
    // Rulebook: "Anyone who rolls ultimate lucky symbols may place the corresponding dice on the
    // center tray. The symbols on player coasters no longer apply for these 3 rolls."
    let mut state = race(
        vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)],
        Horseshoe,
    );
    roll_faces(&mut state, 0, &[Horseshoe, Horseshoe, Horseshoe]);
    assert_eq!(reject(&state, 1, extra(4)).code(), "wrong_dice_count");
    let events = extra_faces(&mut state, 1, &[Horseshoe, Penny, Hamsa]);
    assert_eq!(
        rolled_dice(&events),
        vec![
            die(Horseshoe, Destination::Tray, None),
            die(Penny, Destination::Stays, None),
            die(Hamsa, Destination::Stays, None),
        ]
    );
    assert_eq!(state.pools, vec![0, 2, 3]);
    assert_eq!(state.extra_rolls_used, vec![0, 1, 0]);
}

#[test]
fn each_other_player_has_at_most_three_extra_rolls() {
    // Rulebook: "All of the other players ... may roll their remaining dice 3 more times."
    let mut state = race(
        vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)],
        Horseshoe,
    );
    roll_faces(&mut state, 0, &[Horseshoe, Horseshoe, Horseshoe]);
    for _ in 0..3 {
        extra_faces(&mut state, 1, &[Cat, Cat, Cat]);
    }
    assert_eq!(LuckyDice::to_act(&state), vec![2]);
    let err = reject(&state, 1, extra(3));
    assert_eq!(err, LuckyDiceViolation::ExtraRollsExhausted { allowed: 3 });
    assert_eq!(
        reject(&state, 1, Move::FinishExtraRolls).code(),
        "extra_rolls_exhausted"
    );
}

#[test]
fn the_stop_caller_takes_no_extra_rolls() {
    // Rulebook: "All of the other players may now ... roll"; RULINGS STOP_CALLER_CANNOT_ROLL.
    let mut state = race(
        vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)],
        Horseshoe,
    );
    roll_faces(&mut state, 0, &[Horseshoe, Horseshoe, Horseshoe]);
    assert_eq!(
        reject(&state, 0, extra(0)).code(),
        "stop_caller_cannot_roll"
    );
    assert!(LuckyDice::legal_moves(&state, 0).is_empty());
}

#[test]
fn extra_rolls_come_only_after_stop() {
    // RULINGS NOT_IN_STOP_PHASE; the client believed "Stop!" was called: stale.
    let state = race(first_coasters(2), Horseshoe);
    let err = reject(&state, 0, extra(3));
    assert_eq!(err, LuckyDiceViolation::NotInStopPhase);
    assert!(err.is_stale());
    assert_eq!(
        reject(&state, 0, Move::FinishExtraRolls).code(),
        "not_in_stop_phase"
    );
}

#[test]
fn extra_rolls_may_be_declined_and_the_round_ends_when_nobody_may_roll() {
    // RULINGS D5: extra rolls are optional ("may roll"); round end when all others have used 3,
    // have 0 dice, or finished.
    let mut state = race(
        vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)],
        Horseshoe,
    );
    roll_faces(&mut state, 0, &[Horseshoe, Horseshoe, Horseshoe]);
    let events = play(&mut state, 1, Move::FinishExtraRolls);
    assert_eq!(events, vec![Event::ExtraRollsDeclined { seat: 1 }]);
    assert_eq!(reject(&state, 1, extra(3)).code(), "extra_rolls_declined");
    assert_eq!(LuckyDice::to_act(&state), vec![2]);
    let events = play(&mut state, 2, Move::FinishExtraRolls);
    assert!(events.iter().any(|e| matches!(e, Event::RoundEnded { .. })));
    assert_eq!(state.round, 2);
}

#[test]
fn a_player_who_empties_during_extra_rolls_also_wins_a_coaster() {
    // Rulebook: "Each player who was able to get rid of all their dice receives their coaster";
    // RULINGS D6.
    let coasters = vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)];
    let mut state = race(coasters.clone(), Horseshoe);
    roll_faces(&mut state, 0, &[Horseshoe, Horseshoe, Horseshoe]);
    extra_faces(&mut state, 1, &[Horseshoe, Horseshoe, Horseshoe]);
    let events = play(&mut state, 2, Move::FinishExtraRolls);
    let ended = events
        .iter()
        .find(|e| matches!(e, Event::RoundEnded { .. }))
        .unwrap();
    assert_eq!(
        ended,
        &Event::RoundEnded {
            round: 1,
            emptied: vec![0, 1],
            coasters_won: vec![
                SeatCoaster {
                    seat: 0,
                    coaster: coasters[0]
                },
                SeatCoaster {
                    seat: 1,
                    coaster: coasters[1]
                },
            ],
            totals: vec![1, 1, 0],
        }
    );
}

#[test]
fn at_round_end_winners_turn_their_coaster_down_and_draw_a_new_one_others_keep_theirs() {
    // Rulebook: "places it face-down in front of them. Then these players draw a new coaster ...
    // Players who couldn't get rid of all their dice keep their coaster for the next round.
    // Redistribute the dice so each player once more has 3 small dice. The next round starts
    // with rolling the yellow die again".
    let coasters = vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)];
    let mut state = race(coasters.clone(), Horseshoe);
    roll_faces(&mut state, 1, &[Penny, Hamsa, Cat]);
    assert_eq!(state.pools, vec![4, 1, 4]);
    roll_faces(&mut state, 0, &[Horseshoe; 4]);
    for seat in [1, 2] {
        play(&mut state, seat, Move::FinishExtraRolls);
    }
    assert_eq!(state.won, vec![vec![coasters[0]], vec![], vec![]]);
    assert_eq!(
        state.coasters,
        vec![None, Some(coasters[1]), Some(coasters[2])]
    );
    assert_eq!(state.pools, vec![3, 3, 3]);
    assert_eq!(state.tray, 0);
    assert_eq!(state.lucky_symbol, None);
    assert_eq!(
        state.chance,
        Some(PendingChance::Coasters { seats: vec![0] })
    );
    assert_eq!(state.results[0].stop_caller, 0);
    assert_eq!(state.results[0].lucky_symbol, Horseshoe);
    resolve(
        &mut state,
        Chance::Coasters {
            coasters: vec![c(Hamsa, Clover)],
        },
    );
    assert_eq!(state.coasters[0], Some(c(Hamsa, Clover)));
    assert_eq!(state.chance, Some(PendingChance::LuckySymbol { round: 2 }));
}

/// Plays a round in which seat `winner` clears on its first roll and every other seat declines.
fn win_round(state: &mut State, winners: &[Seat]) {
    if state.phase == Phase::DrawCoasters {
        let Some(PendingChance::Coasters { seats }) = state.chance.clone() else {
            unreachable!()
        };
        let coasters = state.pile[..seats.len()].to_vec();
        resolve(state, Chance::Coasters { coasters });
    }
    resolve(state, Chance::LuckySymbol { symbol: Hamsa });
    roll_faces(state, winners[0], &[Hamsa, Hamsa, Hamsa]);
    for seat in 0..state.players {
        if state.phase == Phase::AfterStop && seat != winners[0] {
            if winners.contains(&seat) {
                extra_faces(state, seat, &[Hamsa, Hamsa, Hamsa]);
            } else {
                play(state, seat, Move::FinishExtraRolls);
            }
        }
    }
}

#[test]
fn the_first_player_with_three_face_down_coasters_wins() {
    // Rulebook END OF THE GAME: "The first player to collect three face-down coasters in front of
    // them wins the game."
    let mut state = LuckyDice::setup(LuckyDice::validate_options(&Options::default(), 3).unwrap());
    for round in 1..=3 {
        win_round(&mut state, &[2]);
        assert_eq!(LuckyDice::is_over(&state), round == 3);
    }
    assert_eq!(LuckyDice::score(&state).totals, vec![0, 0, 3]);
    assert_eq!(LuckyDice::standings(&state).winners, vec![2]);
    assert!(LuckyDice::to_act(&state).is_empty());
    assert!(!LuckyDice::chance_pending(&state));
    assert_eq!(reject(&state, 0, roll(3)).code(), "game_over");
}

#[test]
fn players_reaching_three_coasters_in_the_same_round_win_together() {
    // Rulebook: "Did multiple players receive their third face-down coaster in the same round?
    // Then they all win together." RULINGS 3.5 (CONFIRMED).
    let mut state = LuckyDice::setup(LuckyDice::validate_options(&Options::default(), 4).unwrap());
    win_round(&mut state, &[0, 3]);
    win_round(&mut state, &[3, 0]);
    win_round(&mut state, &[1]);
    win_round(&mut state, &[0, 3]);
    assert!(LuckyDice::is_over(&state));
    assert_eq!(LuckyDice::score(&state).totals, vec![3, 1, 0, 3]);
    assert_eq!(LuckyDice::standings(&state).winners, vec![0, 3]);
}

#[test]
fn the_coaster_target_is_an_option() {
    // RULINGS 3.6 coasterTarget.
    let options = Options {
        coaster_target: 1,
        ..Options::default()
    };
    let mut state = LuckyDice::setup(LuckyDice::validate_options(&options, 2).unwrap());
    win_round(&mut state, &[1]);
    assert!(LuckyDice::is_over(&state));
    assert_eq!(LuckyDice::standings(&state).winners, vec![1]);
}

#[test]
fn the_variant_plays_until_a_winner_needs_a_coaster_and_the_pile_is_empty() {
    // Rulebook Tip: "play until the draw pile has been used up and there is nothing left to draw.
    // The player who has received the most coasters wins"; RULINGS 3.5 / D8.
    let options = Options {
        end_mode: EndMode::UntilPileEmpty,
        coaster_set: balanced_coaster_set()[..5].to_vec(),
        ..Options::default()
    };
    let mut state = LuckyDice::setup(LuckyDice::validate_options(&options, 2).unwrap());
    // 5 coasters, 2 on the table: 3 in the pile. Seat 0 wins 3 rounds, draining the pile.
    for _ in 0..3 {
        win_round(&mut state, &[0]);
        assert!(!LuckyDice::is_over(&state));
    }
    // The last coaster is drawn by the third round's winner ...
    assert_eq!(state.pile.len(), 1);
    assert_eq!(
        state.chance,
        Some(PendingChance::Coasters { seats: vec![0] })
    );
    // ... so the next winner needs a coaster and there is none: the game ends.
    win_round(&mut state, &[1]);
    assert!(LuckyDice::is_over(&state));
    assert_eq!(LuckyDice::score(&state).totals, vec![3, 1]);
    assert_eq!(LuckyDice::standings(&state).winners, vec![0]);
    LuckyDice::check_state(&state).unwrap();
}

#[test]
fn in_the_variant_more_winners_than_coasters_left_ends_the_game_and_ties_share() {
    // RULINGS 3.5: "the first round in which a round winner needs a new coaster and the pile is
    // empty"; ties share (CONFIRMED).
    let options = Options {
        end_mode: EndMode::UntilPileEmpty,
        coaster_set: balanced_coaster_set()[..3].to_vec(),
        ..Options::default()
    };
    let mut state = LuckyDice::setup(LuckyDice::validate_options(&options, 2).unwrap());
    // One coaster in the pile, two winners need one.
    win_round(&mut state, &[0, 1]);
    assert!(LuckyDice::is_over(&state));
    assert_eq!(LuckyDice::standings(&state).winners, vec![0, 1]);
}

#[test]
fn with_no_extra_rolls_the_round_ends_at_stop() {
    // RULINGS 3.6 extraRolls.
    let options = Options {
        extra_rolls: 0,
        ..Options::default()
    };
    let mut state = race_with(options, first_coasters(3), Hamsa);
    let events = roll_faces(&mut state, 1, &[Hamsa, Hamsa, Hamsa]);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::RoundEnded { emptied, .. } if *emptied == vec![1])));
    assert_eq!(state.phase, Phase::DrawCoasters);
}

#[test]
fn extra_rolls_is_an_option() {
    let options = Options {
        extra_rolls: 1,
        ..Options::default()
    };
    let mut state = race_with(options, first_coasters(2), Hamsa);
    roll_faces(&mut state, 1, &[Hamsa, Hamsa, Hamsa]);
    extra_faces(&mut state, 0, &[Cat, Cat, Cat]);
    assert_eq!(state.round, 2, "one extra roll, then the round is over");
}

#[test]
fn with_a_manual_stop_the_emptied_seat_must_call_it_and_can_be_refilled_before() {
    // RULINGS 3.4 `stop(player)`: explicit-stop mode only; pool = 0. In real time, dice passed to
    // an emptied player before the call are theirs again.
    let options = Options {
        auto_stop: false,
        ..Options::default()
    };
    let mut state = race_with(
        options,
        vec![c(Pig, Cat), c(Penny, Hamsa), c(Pig, Horseshoe)],
        Hamsa,
    );
    roll_faces(&mut state, 0, &[Hamsa, Hamsa, Hamsa]);
    assert_eq!(state.phase, Phase::Race);
    assert_eq!(LuckyDice::legal_moves(&state, 0), vec![Move::Stop]);
    assert_eq!(reject(&state, 0, roll(0)).code(), "no_dice");
    assert_eq!(
        reject(&state, 1, Move::Stop),
        LuckyDiceViolation::StopNotEmpty { seat: 1, dice: 3 }
    );
    // Seat 2 (left symbol pig → seat 0) passes one back to seat 0.
    roll_faces(&mut state, 2, &[Pig, Cat, Cat]);
    assert_eq!(state.pools[0], 1);
    assert_eq!(reject(&state, 0, Move::Stop).code(), "stop_not_empty");
    roll_faces(&mut state, 0, &[Hamsa]);
    let events = play(&mut state, 0, Move::Stop);
    assert_eq!(
        events[0],
        Event::Stopped {
            seat: 0,
            automatic: false
        }
    );
    assert_eq!(state.phase, Phase::AfterStop);
    assert_eq!(reject(&state, 1, Move::Stop).code(), "stop_phase");
}

#[test]
fn with_automatic_stop_a_stop_move_is_refused() {
    let state = race(first_coasters(2), Hamsa);
    assert_eq!(reject(&state, 0, Move::Stop).code(), "automatic_stop");
    assert!(!LuckyDice::legal_moves(&state, 0).contains(&Move::Stop));
}

#[test]
fn a_seat_that_does_not_exist_is_refused() {
    let state = race(first_coasters(2), Hamsa);
    assert_eq!(
        reject(&state, 5, roll(3)),
        LuckyDiceViolation::from(Common::UnknownSeat {
            seat: 5,
            players: 2
        })
    );
}

#[test]
fn dice_are_conserved_through_a_seeded_game() {
    // RULINGS 3.3 invariant: tray + Σ pools = 3n during a round.
    for players in 2..=6 {
        let mut state =
            LuckyDice::setup(LuckyDice::validate_options(&Options::default(), players).unwrap());
        let rng: &mut dyn Randomness = &mut SplitMix(players as u64);
        let mut steps = 0;
        while !LuckyDice::is_over(&state) {
            steps += 1;
            assert!(steps < 100_000);
            if LuckyDice::chance_pending(&state) {
                let outcome = LuckyDice::sample_chance(&state, rng);
                resolve(&mut state, outcome);
            } else {
                let to_act = LuckyDice::to_act(&state);
                let seat = to_act[rng.below(to_act.len())];
                let moves = LuckyDice::legal_moves(&state, seat);
                let mv = moves[rng.below(moves.len())].clone();
                play(&mut state, seat, mv);
            }
            let dice: u32 = state.pools.iter().sum::<u32>() + state.tray;
            assert_eq!(dice, 3 * players as u32);
        }
        assert!(LuckyDice::score(&state).totals.contains(&3));
    }
}

#[test]
fn sampled_outcomes_follow_the_pending_event() {
    let rng: &mut dyn Randomness = &mut SplitMix(11);
    let state = LuckyDice::setup(LuckyDice::validate_options(&Options::default(), 5).unwrap());
    let Chance::Coasters { coasters } = LuckyDice::sample_chance(&state, rng) else {
        panic!("a coaster draw")
    };
    assert_eq!(coasters.len(), 5);
    let mut state = race(first_coasters(3), Cat);
    play(&mut state, 0, roll(3));
    let Chance::Roll { faces } = LuckyDice::sample_chance(&state, rng) else {
        panic!("a roll")
    };
    assert_eq!(faces.len(), 3);
}
