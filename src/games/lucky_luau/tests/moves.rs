//! Moves (RB "How to Play"; RULINGS 4.4).

use super::*;

#[test]
fn a_face_down_draw_waits_for_chance_then_is_strung_left_to_right() {
    let mut state = new_game(2);
    let events = play(&mut state, 0, Move::DrawFaceDown);
    assert_eq!(events, vec![Event::DrawingFaceDown { seat: 0 }]);
    assert!(LuckyLuau::chance_pending(&state));
    assert!(LuckyLuau::to_act(&state).is_empty());
    LuckyLuau::resolve_chance(&mut state, &Chance::Draw { card: Card::Blue }).unwrap();
    assert_eq!(
        state.pending,
        Some(Pending {
            card: Card::Blue,
            face_up: false
        })
    );
    play(&mut state, 0, string_end());
    assert_eq!(state.seats[0].lei, vec![Slot::Blue]);
    assert_eq!(state.turn, 1, "play continues clockwise");
    draw(&mut state, 1, Card::Red);
    play(&mut state, 1, string_end());
    draw(&mut state, 0, Card::Red);
    play(&mut state, 0, string_end());
    assert_eq!(
        state.seats[0].lei,
        vec![Slot::Blue, Slot::Red],
        "appended on the right"
    );
    assert_eq!(state.face_down.total(), 43);
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn a_tossed_card_goes_back_face_up_and_whoever_takes_it_must_string_it() {
    // RB: "toss it back to the pile face up"; "If you draw a face up card, you must string it".
    let mut state = new_game(2);
    draw(&mut state, 0, Card::Kukui);
    play(&mut state, 0, Move::Toss);
    assert_eq!(state.face_up.get(Card::Kukui), 1);
    assert_eq!(
        refuse(&state, 1, Move::DrawFaceUp { card: Card::Blue }),
        "card_not_available"
    );
    assert!(LuckyLuau::legal_moves(&state, 1).contains(&Move::DrawFaceUp { card: Card::Kukui }));
    play(&mut state, 1, Move::DrawFaceUp { card: Card::Kukui });
    assert_eq!(refuse(&state, 1, Move::Toss), "cannot_toss_face_up");
    assert!(!LuckyLuau::legal_moves(&state, 1).contains(&Move::Toss));
    play(&mut state, 1, string_end());
    assert_eq!(state.seats[1].lei, vec![Slot::Kukui]);
}

#[test]
fn turn_order_moves_are_refused_out_of_turn_and_out_of_order() {
    let mut state = new_game(3);
    assert_eq!(refuse(&state, 1, Move::DrawFaceDown), "not_your_turn");
    assert_eq!(refuse(&state, 0, string_end()), "no_drawn_card");
    assert_eq!(refuse(&state, 0, Move::Toss), "no_drawn_card");
    assert_eq!(refuse(&state, 5, Move::DrawFaceDown), "unknown_seat");
    draw(&mut state, 0, Card::Ti);
    assert_eq!(refuse(&state, 0, Move::DrawFaceDown), "drawn_card_pending");
    assert_eq!(
        refuse(&state, 0, Move::String { spacer: Some(0) }),
        "not_a_spacer"
    );
}

#[test]
fn moves_wait_while_a_face_down_draw_is_unresolved() {
    let mut state = new_game(2);
    play(&mut state, 0, Move::DrawFaceDown);
    assert_eq!(refuse(&state, 1, Move::PlaceHook), "chance_pending");
}

#[test]
fn tools_may_be_used_on_any_players_turn_but_not_between_ones_own_draw_and_string() {
    // RB: "may be used at any time, on any player's turn"; RULINGS L8.
    let mut state = new_game(3);
    assert_eq!(LuckyLuau::to_act(&state), vec![0, 1, 2]);
    play(&mut state, 2, Move::PlaceHook);
    play(&mut state, 1, Move::PlaceSpacer);
    assert_eq!(refuse(&state, 2, Move::PlaceHook), "tool_already_used");
    play(&mut state, 0, Move::DrawFaceDown);
    LuckyLuau::resolve_chance(&mut state, &Chance::Draw { card: Card::Red }).unwrap();
    assert_eq!(refuse(&state, 0, Move::PlaceHook), "tool_not_during_draw");
    assert_eq!(
        refuse(&state, 0, Move::Knife { index: 0 }),
        "tool_not_during_draw"
    );
    assert_eq!(
        LuckyLuau::legal_moves(&state, 0),
        vec![string_end(), Move::Toss]
    );
    play(&mut state, 2, Move::Knife { index: 0 });
    assert_eq!(state.seats[2].cut, Some(Slot::Hook));
    assert_eq!(
        refuse(&state, 2, Move::Knife { index: 0 }),
        "tool_already_used"
    );
    assert_eq!(refuse(&state, 1, Move::Knife { index: 5 }), "no_such_slot");
    play(&mut state, 0, string_end());
    play(&mut state, 0, Move::PlaceHook);
    assert_eq!(state.seats[0].lei, vec![Slot::Red, Slot::Hook]);
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn a_spacer_holds_a_place_that_a_drawn_card_fills_later() {
    // RB Spacers; RULINGS L7: only a drawn pile card fills it; the Spacer leaves the game.
    let mut state = new_game(2);
    play(&mut state, 0, Move::PlaceSpacer);
    draw(&mut state, 0, Card::Red);
    play(&mut state, 0, string_end());
    draw(&mut state, 1, Card::Ti);
    play(&mut state, 1, string_end());
    draw(&mut state, 0, Card::Blue);
    assert!(LuckyLuau::legal_moves(&state, 0).contains(&Move::String { spacer: Some(0) }));
    let events = play(&mut state, 0, Move::String { spacer: Some(0) });
    assert_eq!(
        events[0],
        Event::Strung {
            seat: 0,
            card: Card::Blue,
            index: 0,
            filled_spacer: true
        }
    );
    assert_eq!(state.seats[0].lei, vec![Slot::Blue, Slot::Red]);
    assert!(state.seats[0].spacer_used);
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn the_knife_removes_a_slot_from_the_game_and_the_lei_closes_up() {
    // RB Knife; RULINGS L6.
    let mut state = new_game(2);
    for card in [Card::Blue, Card::Yellow, Card::Blue] {
        draw(&mut state, 0, card);
        play(&mut state, 0, string_end());
        draw(&mut state, 1, Card::Ti);
        play(&mut state, 1, string_end());
    }
    play(&mut state, 0, Move::Knife { index: 1 });
    assert_eq!(state.seats[0].lei, vec![Slot::Blue, Slot::Blue]);
    assert_eq!(state.seats[0].cut, Some(Slot::Yellow));
    assert_eq!(
        refuse(&state, 0, Move::Knife { index: 0 }),
        "tool_already_used"
    );
    assert_eq!(LuckyLuau::score(&state).seats[0].lei_points, 8);
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn the_game_continues_after_a_tossed_last_face_down_card_until_the_centre_is_empty() {
    // RB "The game ends when there are no cards left to take"; RULINGS L11.
    let mut state = near_end(&[Card::Blue]);
    draw(&mut state, 0, Card::Blue);
    play(&mut state, 0, Move::Toss);
    assert_eq!(state.phase, Phase::Play);
    assert_eq!(
        LuckyLuau::legal_moves(&state, 1)[0],
        Move::DrawFaceUp { card: Card::Blue }
    );
    assert_eq!(refuse(&state, 1, Move::DrawFaceDown), "pile_empty");
    play(&mut state, 1, Move::DrawFaceUp { card: Card::Blue });
    let events = play(&mut state, 1, string_end());
    assert_eq!(events.last(), Some(&Event::CentreEmpty));
    assert_eq!(state.phase, Phase::End);
}

#[test]
fn in_the_end_phase_only_the_knife_and_finish_remain_and_the_last_finish_scores() {
    // RB Knife: "or at the end of the game after all cards have been drawn"; RULINGS 4.4.
    let mut state = near_end(&[Card::Kukui]);
    draw(&mut state, 0, Card::Kukui);
    play(&mut state, 0, string_end());
    assert_eq!(LuckyLuau::to_act(&state), vec![0, 1]);
    assert_eq!(refuse(&state, 0, Move::DrawFaceDown), "end_phase");
    assert_eq!(refuse(&state, 0, Move::PlaceHook), "tool_not_in_end_phase");
    let finish = Move::Finish {
        guests: None,
        rainbows: None,
    };
    let moves = LuckyLuau::legal_moves(&state, 1);
    assert_eq!(moves[0], finish);
    assert!(moves.contains(&Move::Knife { index: 0 }));
    play(&mut state, 1, Move::Knife { index: 0 });
    play(
        &mut state,
        1,
        Move::Finish {
            guests: Some(vec![[1, 0], [0, 0], [0, 0]]),
            rainbows: None,
        },
    );
    assert_eq!(refuse(&state, 1, finish.clone()), "already_finished");
    assert_eq!(
        refuse(&state, 1, Move::Knife { index: 0 }),
        "already_finished"
    );
    assert_eq!(LuckyLuau::to_act(&state), vec![0]);
    let events = play(&mut state, 0, finish);
    assert!(matches!(events.last(), Some(Event::GameEnded { .. })));
    assert!(LuckyLuau::is_over(&state));
    assert_eq!(LuckyLuau::score(&state).seats[1].guest_points, 1);
    assert_eq!(refuse(&state, 0, Move::Knife { index: 0 }), "game_over");
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn finish_is_refused_in_play_and_checks_guests_and_rainbows() {
    let state = new_game(2);
    assert_eq!(
        refuse(
            &state,
            0,
            Move::Finish {
                guests: None,
                rainbows: None
            }
        ),
        "not_end_phase"
    );
    let mut state = near_end(&[Card::Rainbow]);
    state.seats[0].lei.clear();
    state.seats[1].lei.retain(|&s| s != Slot::Blue);
    state.seats[0].lei.push(Slot::Blue);
    for _ in 0..4 {
        state.seats[0].lei.push(Slot::Blue);
    }
    // Rebuild a consistent table: seat 0 = 5 blues, seat 1 = everything else but a rainbow.
    let mut rest = Counts::full_pile();
    rest.set(Card::Blue, 0);
    assert!(rest.take(Card::Rainbow));
    state.seats[1].lei = rest.canonical().into_iter().map(Slot::from).collect();
    LuckyLuau::check_state(&state).unwrap();
    draw(&mut state, 0, Card::Rainbow);
    play(&mut state, 0, string_end());
    let bad_guests = Move::Finish {
        guests: Some(vec![[0, 0]]),
        rainbows: None,
    };
    assert_eq!(refuse(&state, 0, bad_guests), "wrong_guest_count");
    let count = Move::Finish {
        guests: None,
        rainbows: Some(vec![]),
    };
    assert_eq!(refuse(&state, 0, count), "wrong_rainbow_count");
    let pink = Move::Finish {
        guests: None,
        rainbows: Some(vec![Colour::Pink]),
    };
    assert_eq!(refuse(&state, 0, pink), "rainbow_colour_not_adjacent");
    play(
        &mut state,
        0,
        Move::Finish {
            guests: None,
            rainbows: Some(vec![Colour::Blue]),
        },
    );
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn the_winner_is_the_highest_total_with_guests_and_the_guest_tiebreak() {
    // RB "the player with the highest total wins!"; "Tiebreaker". Standings only read the leis
    // and the reports, so a bare end-of-game table is enough here.
    let mut state = new_game(2);
    state.seats[0].lei = vec![Slot::Red, Slot::Red];
    state.seats[1].lei = vec![Slot::Yellow, Slot::Yellow, Slot::Ti, Slot::Ti];
    state.seats[0].finished = true;
    state.seats[0].guests = vec![[0, 0], [0, 1], [0, 0]];
    state.seats[1].finished = true;
    state.seats[1].guests = vec![[0, 0], [0, 0], [0, 5]];
    state.phase = Phase::Over;
    let standings = LuckyLuau::standings(&state);
    assert_eq!(standings.totals, vec![6, 6]);
    assert_eq!(standings.winners, vec![0], "Guest 2 flipped breaks the tie");
    state.seats[0].guests = vec![[3, 0], [0, 0], [0, 0]];
    assert_eq!(
        LuckyLuau::standings(&state).winners,
        vec![0],
        "side A bonus counts"
    );
    state.seats[0].guests = vec![[0, 0]; 3];
    state.seats[1].guests = vec![[0, 0]; 3];
    assert_eq!(
        LuckyLuau::standings(&state).winners,
        vec![0, 1],
        "still tied: shared"
    );
}
