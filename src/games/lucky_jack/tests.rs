//! Unit tests, one per rule or option. Comments cite the rulebook (`rules/lucky-jack.txt`) or
//! RULINGS.md §2.

use super::*;
use crate::games::chance::tests::SplitMix;
use crate::games::Violation as _;
use Symbol::*;

fn discard(card: Symbol) -> Move {
    Move::Discard {
        card,
        jackpot: false,
    }
}

fn announce(card: Symbol) -> Move {
    Move::Discard {
        card,
        jackpot: true,
    }
}

/// A round in progress: `hands` dealt, `discard` face up (bottom to top), `turn` to play; every
/// other card in the draw pile.
fn table(options: Options, hands: Vec<Vec<Symbol>>, discard: Vec<Symbol>, turn: Seat) -> State {
    let players = hands.len();
    let mut state = LuckyJack::setup(options, players);
    state.chance = None;
    state.phase = Phase::Turn;
    for (seat, mut hand) in hands.into_iter().enumerate() {
        hand.sort();
        for &card in &hand {
            assert!(state.draw_pile.take(card));
        }
        state.hands[seat] = hand;
    }
    for &card in &discard {
        assert!(state.draw_pile.take(card));
    }
    state.discard = discard;
    state.turn = turn;
    state.turn_start_hand = state.hands[turn].len();
    LuckyJack::check_state(&state).expect("test table is consistent");
    state
}

fn play(state: &mut State, seat: Seat, mv: Move) -> Vec<Event> {
    let events = LuckyJack::play(state, seat, &mv)
        .unwrap_or_else(|v| panic!("seat {seat} {mv:?} rejected: {v}"));
    LuckyJack::check_state(state).expect("consistent after move");
    events
}

fn reject(state: &State, seat: Seat, mv: Move) -> &'static str {
    let mut copy = state.clone();
    let err = LuckyJack::play(&mut copy, seat, &mv).expect_err("move should be rejected");
    assert_eq!(&copy, state, "a rejected move leaves the state unchanged");
    err.code()
}

fn resolve(state: &mut State, outcome: Chance) -> Vec<Event> {
    let events = LuckyJack::resolve_chance(state, &outcome)
        .unwrap_or_else(|v| panic!("{outcome:?} rejected: {v}"));
    LuckyJack::check_state(state).expect("consistent after chance");
    events
}

fn draw(cards: &[Symbol]) -> Chance {
    Chance::Draw {
        cards: cards.to_vec(),
    }
}

fn standard_deal(players: usize) -> Chance {
    // Seat s gets a spread of symbols; the flip is a clover.
    let hands = (0..players)
        .map(|s| {
            (0..HAND_SIZE)
                .map(|i| Symbol::ALL[(s + i) % 7])
                .collect::<Vec<_>>()
        })
        .collect();
    Chance::Deal {
        hands,
        flip: Clover,
    }
}

fn four_jacks_and_a_lemon() -> Vec<Symbol> {
    vec![Jack, Jack, Jack, Jack, Lemon]
}

// ---------------------------------------------------------------- components and table

#[test]
fn the_jackpot_table_is_printed_literally() {
    // Rulebook score table; RULINGS 2.1 / J10 (4-card Jack = 10 000, not 9 000).
    let three = [1000, 2000, 3000, 4000, 5000, 6000, 7000];
    let four = [3000, 4000, 5000, 6000, 7000, 8000, 10_000];
    for (i, s) in Symbol::ALL.into_iter().enumerate() {
        assert_eq!(s.jackpot_points(3), Some(three[i]), "{s:?} x3");
        assert_eq!(s.jackpot_points(4), Some(four[i]), "{s:?} x4");
        assert_eq!(s.jackpot_points(5), None);
    }
}

#[test]
fn symbols_are_ordered_lemon_lowest_to_jack_highest() {
    // RULINGS 2.1 symbol order.
    assert!(Lemon < Cherry && Cherry < Grape && Grape < Clover);
    assert!(Clover < Bell && Bell < Seven && Seven < Jack);
    assert_eq!(serde_json::to_string(&Seven).unwrap(), "\"seven\"");
}

#[test]
fn the_deck_has_twelve_of_each_of_seven_symbols() {
    // RULINGS J1: 84 cards, not 96.
    let deck = Counts::full_deck();
    assert_eq!(deck.total(), 84);
    assert_eq!(deck.canonical().len(), DECK_SIZE);
    assert_eq!(deck.canonical()[12], Cherry);
}

#[test]
fn four_jacks_score_ten_thousand() {
    // Rulebook: "4 Card Jackpot … Jack 10 000 pts"; RULINGS J10.
    let mut s = table(
        Options::default(),
        vec![four_jacks_and_a_lemon(), vec![Lemon; 7]],
        vec![Lemon],
        0,
    );
    let events = play(&mut s, 0, discard(Lemon));
    assert!(events.contains(&Event::Jackpot {
        seat: 0,
        symbol: Jack,
        size: 4,
        points: 10_000
    }));
    assert_eq!(s.results[0].points, vec![10_000, 0]);
}

// ---------------------------------------------------------------- options

#[test]
fn options_default_to_the_rulings() {
    // RULINGS 2.8 defaults.
    let o: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(o, Options::default());
    assert_eq!(o.rounds, 3);
    assert!(o.jackpot_auto_declare && o.starter_plays_after_flip);
    assert!(!o.i_take_it_ends_turn && !o.lower_discard_can_win);
    assert!(serde_json::from_str::<Options>(r#"{"roundz": 3}"#).is_err());
}

#[test]
fn a_game_has_three_or_five_rounds_and_a_real_dealer() {
    // Rulebook "End of the Game": 3 or 5 rounds.
    let ok = |o: &Options, n| LuckyJack::validate_options(o, n);
    assert!(ok(&Options::default(), 2).is_ok());
    let five = Options {
        rounds: 5,
        ..Options::default()
    };
    assert!(ok(&five, 6).is_ok());
    let four = Options {
        rounds: 4,
        ..Options::default()
    };
    assert_eq!(ok(&four, 3).unwrap_err().option, "rounds");
    let dealer = Options {
        dealer: 3,
        ..Options::default()
    };
    assert_eq!(ok(&dealer, 3).unwrap_err().option, "dealer");
    assert_eq!(ok(&Options::default(), 7).unwrap_err().option, "players");
    assert_eq!(ok(&Options::default(), 1).unwrap_err().option, "players");
    let cap = Options {
        max_turns_per_round: Some(0),
        ..Options::default()
    };
    assert_eq!(ok(&cap, 2).unwrap_err().option, "max_turns_per_round");
}

#[test]
fn moves_and_chance_reject_unknown_fields() {
    assert_eq!(
        serde_json::from_str::<Move>(r#"{"type":"discard","card":"bell"}"#).unwrap(),
        discard(Bell)
    );
    assert!(serde_json::from_str::<Move>(r#"{"type":"discard","card":"bell","x":1}"#).is_err());
    assert!(serde_json::from_str::<Chance>(r#"{"kind":"flip","card":"bell","y":2}"#).is_err());
    assert_eq!(
        serde_json::from_str::<Move>(r#"{"type":"take_it"}"#).unwrap(),
        Move::TakeIt
    );
}

// ---------------------------------------------------------------- setup and deal

#[test]
fn setup_waits_for_the_deal_with_the_whole_deck() {
    // Rulebook "Setup": all cards shuffled, 7 each.
    let s = LuckyJack::setup(Options::default(), 4);
    assert!(LuckyJack::chance_pending(&s));
    assert!(LuckyJack::to_act(&s).is_empty());
    assert_eq!(s.draw_pile, Counts::full_deck());
    assert!(matches!(
        s.chance,
        Some(PendingChance::Deal { hands: 4, .. })
    ));
    LuckyJack::check_state(&s).unwrap();
}

#[test]
fn the_deal_gives_seven_cards_each_and_flips_one() {
    // Rulebook "Setup" + "How to play": 7 cards each; the starter flips the first discard.
    // RULINGS 2.2: 2 players leave 69 in the draw pile, 6 players 41.
    for (players, left) in [(2, 69), (6, 41)] {
        let mut s = LuckyJack::setup(Options::default(), players);
        let deal = LuckyJack::sample_chance(&s, &mut SplitMix(players as u64));
        let events = resolve(&mut s, deal);
        assert!(s.hands.iter().all(|h| h.len() == 7));
        assert_eq!(s.draw_pile.total(), left);
        assert_eq!(s.discard.len(), 1);
        assert!(matches!(
            events.last(),
            Some(Event::Flipped { seat: 1, .. })
        ));
    }
}

#[test]
fn seeded_deals_are_reproducible() {
    let s = LuckyJack::setup(Options::default(), 3);
    let a = LuckyJack::sample_chance(&s, &mut SplitMix(9));
    let b = LuckyJack::sample_chance(&s, &mut SplitMix(9));
    let c = LuckyJack::sample_chance(&s, &mut SplitMix(10));
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn the_starter_after_the_flip_plays_first() {
    // Rulebook: "the player seated to the left of the player who dealt … will begin"; RULINGS J3.
    let options = Options {
        dealer: 2,
        ..Options::default()
    };
    let mut s = LuckyJack::setup(options, 3);
    assert_eq!(s.starter, 0);
    resolve(&mut s, standard_deal(3));
    assert_eq!(LuckyJack::to_act(&s), vec![0]);
}

#[test]
fn without_starter_plays_after_flip_the_seat_left_of_the_starter_begins() {
    // Option starter_plays_after_flip = false (RULINGS 2.8).
    let options = Options {
        starter_plays_after_flip: false,
        ..Options::default()
    };
    let mut s = LuckyJack::setup(options, 3);
    resolve(&mut s, standard_deal(3));
    assert_eq!(s.starter, 1);
    assert_eq!(LuckyJack::to_act(&s), vec![2]);
}

#[test]
fn the_starter_moves_one_seat_left_each_round() {
    // Rulebook "Setup": "For the following round, the player seated to the left of the player
    // who started the first hand will begin. And so on."
    let options = Options {
        rounds: 5,
        max_turns_per_round: Some(1),
        ..Options::default()
    };
    let mut s = LuckyJack::setup(options, 3);
    let mut starters = Vec::new();
    while !LuckyJack::is_over(&s) {
        starters.push(s.starter);
        resolve(&mut s, standard_deal(3));
        let seat = s.turn;
        play(&mut s, seat, discard(Jack));
    }
    assert_eq!(starters, vec![1, 2, 0, 1, 2]);
    assert_eq!(
        s.results.iter().map(|r| r.starter).collect::<Vec<_>>(),
        starters
    );
}

// ---------------------------------------------------------------- the four options

#[test]
fn a_same_symbol_discard_ends_the_turn() {
    // Rulebook option 1; RULINGS J2 (the current top).
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon, Grape], vec![Lemon; 7]],
        vec![Jack, Clover],
        0,
    );
    let events = play(&mut s, 0, discard(Clover));
    assert!(events.contains(&Event::Discarded {
        seat: 0,
        card: Clover,
        option: DiscardOption::Same
    }));
    assert_eq!(s.hands[0].len(), 4);
    assert_eq!(LuckyJack::to_act(&s), vec![1]);
}

#[test]
fn a_higher_symbol_discard_ends_the_turn() {
    // Rulebook option 2.
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon, Grape], vec![Lemon; 7]],
        vec![Clover],
        0,
    );
    let events = play(&mut s, 0, discard(Jack));
    assert!(matches!(
        events[0],
        Event::Discarded {
            option: DiscardOption::Higher,
            ..
        }
    ));
    assert_eq!(s.discard.last(), Some(&Jack));
    assert_eq!(s.turn, 1);
}

#[test]
fn a_lower_symbol_discard_draws_two_cards() {
    // Rulebook option 3: "then they must take 2 cards from the draw pile".
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon, Grape], vec![Lemon; 7]],
        vec![Clover],
        0,
    );
    play(&mut s, 0, discard(Lemon));
    assert!(matches!(
        s.chance,
        Some(PendingChance::Draw {
            seat: 0,
            count: 2,
            ..
        })
    ));
    assert!(LuckyJack::to_act(&s).is_empty());
    assert_eq!(reject(&s, 1, Move::Draw), "chance_pending");
    resolve(&mut s, draw(&[Seven, Cherry]));
    assert_eq!(s.hands[0], vec![Cherry, Grape, Clover, Bell, Seven, Jack]);
    assert_eq!(s.turn, 1);
}

#[test]
fn drawing_one_card_leaves_it_pending_until_kept() {
    // Rulebook option 4: "either he adds the card to his deck or he discards it".
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon], vec![Lemon; 7]],
        vec![Clover],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Bell]));
    assert_eq!(s.pending, Some(Bell));
    assert_eq!(
        LuckyJack::legal_moves(&s, 0),
        vec![Move::Keep, Move::DiscardDrawn]
    );
    let events = play(&mut s, 0, Move::Keep);
    assert_eq!(
        events[0],
        Event::Kept {
            seat: 0,
            card: Some(Bell)
        }
    );
    assert_eq!(s.hands[0].len(), 5);
    assert_eq!(s.turn, 1);
}

#[test]
fn a_discarded_drawn_card_skips_the_symbol_check_by_default() {
    // RULINGS 2.4 / J5: discarding the drawn card has no symbol check or penalty.
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon], vec![Lemon; 7]],
        vec![Jack],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Lemon]));
    let events = play(&mut s, 0, Move::DiscardDrawn);
    assert!(events.contains(&Event::DiscardedDrawn {
        seat: 0,
        card: Lemon,
        option: None
    }));
    assert!(s.chance.is_none());
    assert_eq!(s.hands[0].len(), 4);
    assert_eq!(
        s.takeable,
        Some(Takeable {
            card: Lemon,
            from: 0,
            by: 1
        })
    );
}

#[test]
fn drawing_then_discarding_a_different_card_is_forbidden() {
    // Rulebook note: "It is forbidden to take a card from the stock, put it in your hand, and
    // then discard another card." RULINGS 2.4.
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon], vec![Lemon; 7]],
        vec![Clover],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Bell]));
    assert_eq!(reject(&s, 0, discard(Jack)), "drawn_card_pending");
    assert_eq!(reject(&s, 0, Move::Draw), "drawn_card_pending");
    play(&mut s, 0, Move::Keep);
    assert_eq!(reject(&s, 0, discard(Jack)), "not_your_turn");
}

#[test]
fn keep_and_discard_drawn_need_a_pending_card() {
    let s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon], vec![Lemon; 7]],
        vec![Clover],
        0,
    );
    assert_eq!(reject(&s, 0, Move::Keep), "no_drawn_card");
    assert_eq!(reject(&s, 0, Move::DiscardDrawn), "no_drawn_card");
    assert_eq!(reject(&s, 0, discard(Seven)), "card_not_in_hand");
    assert_eq!(reject(&s, 1, Move::Draw), "not_your_turn");
    assert_eq!(reject(&s, 5, Move::Draw), "unknown_seat");
}

// ---------------------------------------------------------------- hand floor

#[test]
fn a_player_with_three_cards_must_draw_and_keep() {
    // Rulebook note: "A player can never have less than 3 unmatched cards … pick a card and add
    // it to their hand"; RULINGS J4.
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack], vec![Lemon; 7]],
        vec![Lemon],
        0,
    );
    assert_eq!(LuckyJack::legal_moves(&s, 0), vec![Move::Draw]);
    assert_eq!(reject(&s, 0, discard(Jack)), "hand_minimum");
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Grape]));
    assert_eq!(LuckyJack::legal_moves(&s, 0), vec![Move::Keep]);
    assert_eq!(reject(&s, 0, Move::DiscardDrawn), "must_keep_drawn");
    play(&mut s, 0, Move::Keep);
    assert_eq!(s.hands[0].len(), 4);
}

#[test]
fn a_hand_of_four_may_discard_down_to_three() {
    // RULINGS 2.4: discarding needs h >= 4.
    let mut s = table(
        Options::default(),
        vec![vec![Lemon, Bell, Jack, Grape], vec![Lemon; 7]],
        vec![Lemon],
        0,
    );
    play(&mut s, 0, discard(Jack));
    assert_eq!(s.hands[0].len(), 3);
    assert!(s.results.is_empty());
}

// ---------------------------------------------------------------- I take it

fn after_a_discarded_draw(options: Options, next_hand: Vec<Symbol>) -> State {
    let mut s = table(
        options,
        vec![vec![Clover, Bell, Jack, Lemon], next_hand, vec![Grape; 5]],
        vec![Lemon, Clover],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Seven]));
    play(&mut s, 0, Move::DiscardDrawn);
    s
}

#[test]
fn the_next_player_only_may_take_a_discarded_drawn_card() {
    // Rulebook option 4: "the next player can take it by announcing: I TAKE IT!"; RULINGS J6.
    let mut s = after_a_discarded_draw(Options::default(), vec![Bell, Bell, Bell, Lemon, Cherry]);
    assert_eq!(reject(&s, 2, Move::TakeIt), "not_next_player");
    assert!(LuckyJack::legal_moves(&s, 1).contains(&Move::TakeIt));
    let events = play(&mut s, 1, Move::TakeIt);
    assert_eq!(
        events,
        vec![Event::TookIt {
            seat: 1,
            card: Seven
        }]
    );
    // The discard top reverts to the card below; the taker then plays a normal turn.
    assert_eq!(s.discard, vec![Lemon, Clover]);
    assert_eq!(s.hands[1].len(), 6);
    assert_eq!(LuckyJack::to_act(&s), vec![1]);
    assert_eq!(reject(&s, 1, Move::TakeIt), "nothing_to_take");
    play(&mut s, 1, discard(Seven));
    assert_eq!(s.turn, 2);
}

#[test]
fn taking_must_be_the_first_action_of_the_turn() {
    // RULINGS J6: "before anything else".
    let mut s = after_a_discarded_draw(Options::default(), vec![Bell, Bell, Bell, Lemon, Cherry]);
    play(&mut s, 1, Move::Draw);
    resolve(&mut s, draw(&[Lemon]));
    assert_eq!(reject(&s, 1, Move::TakeIt), "take_too_late");
    play(&mut s, 1, Move::Keep);
    // Seat 2 comes too late as well: the marker lapsed with seat 1's action.
    assert!(s.takeable.is_none());
    assert_eq!(reject(&s, 2, Move::TakeIt), "nothing_to_take");
}

#[test]
fn a_card_discarded_from_the_hand_cannot_be_taken() {
    // Rulebook option 4: "If he chooses to discard it, and only then, the next player can take".
    let mut s = table(
        Options::default(),
        vec![vec![Clover, Bell, Jack, Lemon], vec![Lemon; 7]],
        vec![Clover],
        0,
    );
    play(&mut s, 0, discard(Jack));
    assert_eq!(reject(&s, 1, Move::TakeIt), "nothing_to_take");
}

#[test]
fn a_player_with_three_cards_may_take_it_and_then_discard() {
    // RULINGS 2.4: "iTakeIt is still allowed at h = 3 (it adds a card)".
    let mut s = after_a_discarded_draw(Options::default(), vec![Bell, Bell, Lemon]);
    assert_eq!(
        LuckyJack::legal_moves(&s, 1),
        vec![Move::TakeIt, Move::Draw]
    );
    play(&mut s, 1, Move::TakeIt);
    assert_eq!(s.turn_start_hand, 4);
    play(&mut s, 1, discard(Seven));
    assert_eq!(s.hands[1], vec![Lemon, Bell, Bell]);
    assert_eq!(s.turn, 2);
}

#[test]
fn with_i_take_it_ends_turn_taking_is_the_whole_turn() {
    // Option i_take_it_ends_turn (RULINGS 2.4).
    let options = Options {
        i_take_it_ends_turn: true,
        ..Options::default()
    };
    let mut s = after_a_discarded_draw(options, vec![Bell, Bell, Lemon]);
    play(&mut s, 1, Move::TakeIt);
    assert_eq!(s.turn, 2);
    assert_eq!(s.hands[1].len(), 4);
}

// ---------------------------------------------------------------- jackpots

#[test]
fn three_identical_cards_left_after_a_free_discard_win_the_round() {
    // Rulebook "End of the Round" 1; RULINGS 2.5.
    let mut s = table(
        Options::default(),
        vec![vec![Bell, Bell, Bell, Jack], vec![Lemon; 7]],
        vec![Seven],
        0,
    );
    assert!(LuckyJack::legal_moves(&s, 0).contains(&announce(Jack)));
    let events = play(&mut s, 0, discard(Jack));
    assert!(events.contains(&Event::Jackpot {
        seat: 0,
        symbol: Bell,
        size: 3,
        points: 5000
    }));
    assert!(events.contains(&Event::RoundEnded {
        round: 1,
        winner: Some(0)
    }));
    // Only the winner scores; the next round's deal is pending.
    assert_eq!(LuckyJack::score(&s).totals, vec![5000, 0]);
    assert_eq!(s.round, 2);
    assert_eq!(s.phase, Phase::Deal);
    assert_eq!(s.starter, 0);
}

#[test]
fn a_four_card_jackpot_needs_a_hand_of_five() {
    // Rulebook "End of the Round" 2: "must not have more than 5 cards, including 4 identical".
    let mut s = table(
        Options::default(),
        vec![vec![Cherry, Cherry, Cherry, Cherry, Seven], vec![Lemon; 7]],
        vec![Bell],
        0,
    );
    play(&mut s, 0, discard(Seven));
    assert_eq!(
        s.results[0].result,
        RoundOutcome::Jackpot {
            seat: 0,
            symbol: Cherry,
            size: 4,
            points: 4000
        }
    );
}

#[test]
fn a_four_card_hand_of_one_symbol_wins_three_by_discarding_one() {
    // RULINGS 2.5: a player may hold JJJJ and aim for 4; discarding a jack wins a 3-card jackpot.
    let mut s = table(
        Options::default(),
        vec![vec![Jack; 4], vec![Lemon; 7]],
        vec![Seven],
        0,
    );
    play(&mut s, 0, discard(Jack));
    assert_eq!(s.results[0].points, vec![7000, 0]);
}

#[test]
fn a_lower_symbol_discard_cannot_win_a_jackpot() {
    // RULINGS J7: the 2 penalty cards come first.
    let mut s = table(
        Options::default(),
        vec![vec![Grape, Grape, Grape, Lemon], vec![Lemon; 7]],
        vec![Seven],
        0,
    );
    assert_eq!(reject(&s, 0, announce(Lemon)), "not_a_jackpot");
    play(&mut s, 0, discard(Lemon));
    assert!(s.results.is_empty());
    assert_eq!(s.draw_owed, 2);
    resolve(&mut s, draw(&[Jack, Jack]));
    assert_eq!(s.hands[0].len(), 5);
}

#[test]
fn with_lower_discard_can_win_the_jackpot_comes_before_the_penalty() {
    // Option lower_discard_can_win.
    let options = Options {
        lower_discard_can_win: true,
        ..Options::default()
    };
    let mut s = table(
        options,
        vec![vec![Grape, Grape, Grape, Lemon], vec![Lemon; 7]],
        vec![Seven],
        0,
    );
    play(&mut s, 0, discard(Lemon));
    assert_eq!(s.results[0].points, vec![3000, 0]);
    assert!(matches!(s.chance, Some(PendingChance::Deal { .. })));
}

#[test]
fn without_auto_declare_a_jackpot_counts_only_when_announced() {
    // Option jackpot_auto_declare = false (RULINGS J8 made optional).
    let options = Options {
        jackpot_auto_declare: false,
        ..Options::default()
    };
    let hands = vec![vec![Bell, Bell, Bell, Jack], vec![Lemon; 7]];
    let mut silent = table(options.clone(), hands.clone(), vec![Seven], 0);
    play(&mut silent, 0, discard(Jack));
    assert!(silent.results.is_empty());
    assert_eq!(silent.turn, 1);
    assert_eq!(silent.hands[0], vec![Bell, Bell, Bell]);

    let mut loud = table(options.clone(), hands, vec![Seven], 0);
    let moves = LuckyJack::legal_moves(&loud, 0);
    assert!(moves.contains(&announce(Jack)) && moves.contains(&discard(Jack)));
    assert!(!moves.contains(&announce(Bell)));
    assert_eq!(reject(&loud, 0, announce(Bell)), "not_a_jackpot");
    play(&mut loud, 0, announce(Jack));
    assert_eq!(loud.results[0].points, vec![5000, 0]);
}

#[test]
fn a_player_going_for_four_scores_nothing_when_beaten() {
    // Rulebook: "If another player obtains a JACKPOT of 3 or 4 cards before him, they lose
    // everything!"; RULINGS J11 (0 points, not negative).
    let mut s = table(
        Options::default(),
        vec![vec![Jack; 4], vec![Bell, Bell, Bell, Seven]],
        vec![Lemon],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Lemon]));
    play(&mut s, 0, Move::Keep);
    play(&mut s, 1, discard(Seven));
    assert_eq!(s.results[0].points, vec![0, 5000]);
}

#[test]
fn with_the_symbol_rule_a_lower_drawn_discard_draws_two() {
    // Option drawn_discard_follows_symbol_rule (RULINGS J5 made optional).
    let options = Options {
        drawn_discard_follows_symbol_rule: true,
        ..Options::default()
    };
    let mut s = table(
        options,
        vec![vec![Clover, Bell, Jack, Lemon], vec![Lemon; 7]],
        vec![Seven],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Cherry]));
    let events = play(&mut s, 0, Move::DiscardDrawn);
    assert!(events.contains(&Event::DiscardedDrawn {
        seat: 0,
        card: Cherry,
        option: Some(DiscardOption::Lower)
    }));
    assert!(matches!(
        s.chance,
        Some(PendingChance::Draw { count: 2, .. })
    ));
    resolve(&mut s, draw(&[Grape, Grape]));
    assert_eq!(s.hands[0].len(), 6);
    // The card stays takeable by the next seat.
    assert_eq!(s.turn, 1);
    assert!(LuckyJack::legal_moves(&s, 1).contains(&Move::TakeIt));
}

#[test]
fn with_the_symbol_rule_a_higher_drawn_discard_can_win() {
    let options = Options {
        drawn_discard_follows_symbol_rule: true,
        ..Options::default()
    };
    let mut s = table(options, vec![vec![Bell; 4], vec![Lemon; 7]], vec![Lemon], 0);
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Jack]));
    play(&mut s, 0, Move::DiscardDrawn);
    assert_eq!(s.results[0].points, vec![7000, 0]);
}

#[test]
fn by_default_a_drawn_discard_never_wins() {
    let mut s = table(
        Options::default(),
        vec![vec![Bell; 4], vec![Lemon; 7]],
        vec![Lemon],
        0,
    );
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Jack]));
    play(&mut s, 0, Move::DiscardDrawn);
    assert!(s.results.is_empty());
}

#[test]
fn an_empty_discard_pile_constrains_nothing() {
    // Brief: an empty discard pile (theoretically possible) = no symbol constraint.
    let mut s = table(
        Options::default(),
        vec![vec![Lemon, Bell, Jack, Grape], vec![Lemon; 7]],
        vec![],
        0,
    );
    let events = play(&mut s, 0, discard(Lemon));
    assert!(matches!(
        events[0],
        Event::Discarded {
            option: DiscardOption::Higher,
            ..
        }
    ));
    assert!(s.chance.is_none());
}

// ---------------------------------------------------------------- draw pile exhausted

/// Seat 0 to play with an empty or small draw pile: everything else is in the discard pile.
fn nearly_exhausted(pile_left: &[Symbol]) -> State {
    let hands = vec![vec![Clover, Bell, Jack, Lemon, Lemon], vec![Lemon; 7]];
    let mut rest = Counts::full_deck();
    for card in hands.iter().flatten().chain(pile_left) {
        rest.take(*card);
    }
    // Discard pile: the rest, with a jack on top.
    let mut discard = rest.canonical();
    let jack = discard.iter().position(|&c| c == Jack).unwrap();
    discard.remove(jack);
    discard.push(Jack);
    table(Options::default(), hands, discard, 0)
}

#[test]
fn drawing_from_an_empty_pile_reshuffles_the_whole_discard_pile() {
    // Rulebook "End of the Draw Pile"; RULINGS 2.6 / J9: the whole pile, top included.
    let mut s = nearly_exhausted(&[]);
    let discarded = s.discard.len();
    let events = play(&mut s, 0, Move::Draw);
    assert_eq!(
        events,
        vec![Event::Reshuffled {
            seat: 0,
            cards: discarded
        }]
    );
    assert!(s.discard.is_empty());
    assert_eq!(s.draw_pile.total(), discarded);
    assert!(matches!(
        s.chance,
        Some(PendingChance::Flip { seat: 0, .. })
    ));
    resolve(&mut s, Chance::Flip { card: Grape });
    assert_eq!(s.discard, vec![Grape]);
    assert!(matches!(
        s.chance,
        Some(PendingChance::Draw { count: 1, .. })
    ));
    resolve(&mut s, draw(&[Bell]));
    assert_eq!(s.pending, Some(Bell));
}

#[test]
fn a_penalty_draw_larger_than_the_pile_is_split_around_a_reshuffle() {
    // RULINGS 2.6: "pending draws then continue".
    let mut s = nearly_exhausted(&[Seven]);
    play(&mut s, 0, discard(Lemon));
    assert!(matches!(
        s.chance,
        Some(PendingChance::Draw { count: 1, .. })
    ));
    let events = resolve(&mut s, draw(&[Seven]));
    assert!(matches!(events.last(), Some(Event::Reshuffled { .. })));
    resolve(&mut s, Chance::Flip { card: Clover });
    assert_eq!(s.draw_owed, 1);
    resolve(&mut s, draw(&[Cherry]));
    assert_eq!(s.hands[0].len(), 6);
    assert_eq!(s.turn, 1);
}

#[test]
fn a_draw_with_no_card_left_anywhere_is_void() {
    // RULINGS 2.6: "If still no card can be drawn, remaining draws are void."
    let hands = vec![vec![Lemon; 12], vec![Cherry; 12]];
    let mut s = table(Options::default(), hands, vec![Grape], 0);
    // Put every other card into the two hands to leave a one-card discard pile and no pile.
    let rest = s.draw_pile.canonical();
    s.draw_pile = Counts::default();
    for (i, card) in rest.into_iter().enumerate() {
        s.hands[i % 2].push(card);
    }
    for hand in &mut s.hands {
        hand.sort();
    }
    s.turn_start_hand = s.hands[0].len();
    LuckyJack::check_state(&s).unwrap();
    play(&mut s, 0, Move::Draw);
    let events = resolve(&mut s, Chance::Flip { card: Grape });
    assert!(events.contains(&Event::DrawVoid { seat: 0, count: 1 }));
    assert!(s.pending.is_none());
    assert_eq!(s.turn, 1);
}

#[test]
fn a_reshuffle_clears_the_takeable_marker() {
    // RULINGS 2.6: "takeable is cleared".
    let options = Options {
        drawn_discard_follows_symbol_rule: true,
        ..Options::default()
    };
    let mut s = nearly_exhausted(&[Cherry]);
    s.options = options;
    play(&mut s, 0, Move::Draw);
    resolve(&mut s, draw(&[Cherry]));
    let events = play(&mut s, 0, Move::DiscardDrawn);
    // The lower drawn discard costs 2 cards; the pile is empty, so the discard pile (with the
    // card just made takeable) is reshuffled and nobody can take it any more.
    assert!(events.iter().any(|e| matches!(e, Event::Reshuffled { .. })));
    assert!(s.takeable.is_none());
    resolve(&mut s, Chance::Flip { card: Seven });
    resolve(&mut s, draw(&[Cherry, Cherry]));
    assert_eq!(s.turn, 1);
    assert!(!LuckyJack::legal_moves(&s, 1).contains(&Move::TakeIt));
}

// ---------------------------------------------------------------- round and game end

#[test]
fn the_turn_cap_ends_a_round_with_no_score() {
    // Option max_turns_per_round; RULINGS 2.7 / J12.
    let options = Options {
        max_turns_per_round: Some(2),
        ..Options::default()
    };
    let mut s = LuckyJack::setup(options, 2);
    resolve(&mut s, standard_deal(2));
    play(&mut s, 1, discard(Jack));
    let events = play(&mut s, 0, discard(Jack));
    assert!(events.contains(&Event::RoundEnded {
        round: 1,
        winner: None
    }));
    assert_eq!(
        s.results[0].result,
        RoundOutcome::NoJackpot {
            reason: NoJackpotReason::TurnLimit
        }
    );
    assert_eq!(s.results[0].points, vec![0, 0]);
}

/// Plays one round in which `winner` wins a 3-card jackpot of `symbol`: it holds 3 × `symbol`
/// plus 4 fillers of a symbol never lower than the top, and sheds a filler each turn while the
/// others draw and keep.
fn win_round_with(s: &mut State, winner: Seat, symbol: Symbol) {
    let filler = if symbol == Jack { Seven } else { Jack };
    let mine = vec![symbol, symbol, symbol, filler, filler, filler, filler];
    let mut rest = Counts::full_deck();
    for &card in mine.iter().chain([Lemon].iter()) {
        rest.take(card);
    }
    let rest = rest.canonical();
    let mut chunks = rest.chunks(HAND_SIZE);
    let hands = (0..s.players)
        .map(|seat| {
            if seat == winner {
                mine.clone()
            } else {
                chunks.next().unwrap().to_vec()
            }
        })
        .collect();
    resolve(s, Chance::Deal { hands, flip: Lemon });
    while s.phase == Phase::Turn {
        let seat = s.turn;
        if seat == winner {
            play(s, seat, discard(filler));
        } else {
            play(s, seat, Move::Draw);
            let card = LuckyJack::sample_chance(s, &mut SplitMix(seat as u64));
            resolve(s, card);
            play(s, seat, Move::Keep);
        }
    }
}

#[test]
fn the_game_ends_after_the_agreed_rounds_with_the_highest_total_winning() {
    // Rulebook "End of the Game"; RULINGS 2.7.
    let mut s = LuckyJack::setup(Options::default(), 3);
    win_round_with(&mut s, 2, Bell);
    win_round_with(&mut s, 0, Lemon);
    win_round_with(&mut s, 2, Cherry);
    assert!(LuckyJack::is_over(&s));
    assert_eq!(LuckyJack::score(&s).totals, vec![1000, 0, 7000]);
    assert_eq!(LuckyJack::standings(&s).winners, vec![2]);
    assert_eq!(reject(&s, 0, Move::Draw), "game_over");
}

#[test]
fn equal_totals_share_the_victory() {
    // RULINGS J12: a tie is a shared win.
    let mut s = LuckyJack::setup(Options::default(), 3);
    win_round_with(&mut s, 0, Grape);
    win_round_with(&mut s, 1, Cherry);
    win_round_with(&mut s, 1, Lemon);
    assert_eq!(LuckyJack::standings(&s).winners, vec![0, 1]);
}

#[test]
fn a_five_round_game_lasts_five_rounds() {
    let options = Options {
        rounds: 5,
        ..Options::default()
    };
    let mut s = LuckyJack::setup(options, 2);
    for round in 0..5 {
        assert!(!LuckyJack::is_over(&s));
        win_round_with(&mut s, round % 2, Seven);
    }
    assert!(LuckyJack::is_over(&s));
    assert_eq!(LuckyJack::score(&s).totals, vec![18_000, 12_000]);
}

// ---------------------------------------------------------------- chance validation

#[test]
fn impossible_chance_outcomes_are_rejected_without_change() {
    let mut s = LuckyJack::setup(Options::default(), 2);
    let before = s.clone();
    let check = |s: &mut State, c: Chance| -> &'static str {
        LuckyJack::resolve_chance(s, &c).unwrap_err().code()
    };
    assert_eq!(check(&mut s, draw(&[Lemon])), "unexpected_chance_kind");
    let one_hand = Chance::Deal {
        hands: vec![vec![Lemon; 7]],
        flip: Lemon,
    };
    assert_eq!(check(&mut s, one_hand), "wrong_hand_count");
    let short = Chance::Deal {
        hands: vec![vec![Lemon; 7], vec![Lemon; 6]],
        flip: Lemon,
    };
    assert_eq!(check(&mut s, short), "wrong_card_count");
    // 7 + 5 lemons fit, but the flip would be a 13th.
    let thirteen = Chance::Deal {
        hands: vec![
            vec![Lemon; 7],
            vec![Lemon, Lemon, Lemon, Lemon, Lemon, Jack, Jack],
        ],
        flip: Lemon,
    };
    assert_eq!(check(&mut s, thirteen), "card_not_in_pile");
    assert_eq!(s, before);

    resolve(&mut s, standard_deal(2));
    assert_eq!(check(&mut s, draw(&[Lemon])), "no_chance_pending");

    // Every jack is in a hand: a drawn jack is impossible.
    let mut s = table(
        Options::default(),
        vec![
            vec![Jack, Jack, Jack, Jack, Jack, Jack, Lemon],
            vec![Jack, Jack, Jack, Jack, Jack, Jack, Lemon],
        ],
        vec![Bell],
        0,
    );
    play(&mut s, 0, discard(Lemon));
    let before = s.clone();
    assert_eq!(check(&mut s, draw(&[Lemon])), "wrong_card_count");
    assert_eq!(
        check(&mut s, draw(&[Lemon, Lemon, Lemon])),
        "wrong_card_count"
    );
    assert_eq!(check(&mut s, draw(&[Lemon, Jack])), "card_not_in_pile");
    assert_eq!(
        check(&mut s, Chance::Flip { card: Jack }),
        "unexpected_chance_kind"
    );
    assert_eq!(s, before);
    resolve(&mut s, draw(&[Lemon, Lemon]));
}

// ---------------------------------------------------------------- check_state

#[test]
fn check_state_rejects_inconsistent_states() {
    let mut good = LuckyJack::setup(Options::default(), 3);
    resolve(&mut good, standard_deal(3));
    let code = |f: &dyn Fn(&mut State)| {
        let mut s = good.clone();
        f(&mut s);
        LuckyJack::check_state(&s).unwrap_err().code
    };
    assert_eq!(code(&|s| s.players = 7), "bad_player_count");
    assert_eq!(code(&|s| s.players = 1), "bad_player_count");
    assert_eq!(code(&|s| s.hands.truncate(2)), "bad_hand_count");
    assert_eq!(code(&|s| s.draw_pile.add(Jack, 1)), "cards_not_conserved");
    assert_eq!(code(&|s| s.hands[0][0] = Jack), "cards_not_conserved");
    assert_eq!(code(&|s| s.turn = 3), "bad_turn");
    assert_eq!(code(&|s| s.starter = 2), "bad_starter");
    assert_eq!(code(&|s| s.round = 4), "bad_round");
    assert_eq!(code(&|s| s.options.rounds = 4), "invalid_options");
    assert_eq!(code(&|s| s.options.dealer = 5), "invalid_options");
    assert_eq!(
        code(&|s| {
            let card = s.hands[1].pop().unwrap();
            s.pending = Some(card);
            s.turn_start_hand = s.hands[1].len();
        }),
        "phase_contradiction"
    );
    assert_eq!(
        code(&|s| s.chance = Some(deal_chance(s))),
        "chance_mismatch"
    );
    assert_eq!(code(&|s| s.phase = Phase::Drawing), "phase_contradiction");
    assert_eq!(code(&|s| s.hands[0].reverse()), "hand_not_sorted");
    assert_eq!(code(&|s| s.results.push(s_result(s))), "bad_round_results");
    assert_eq!(code(&|s| s.turn_start_hand = 9), "phase_contradiction");
    assert_eq!(
        code(&|s| {
            s.takeable = Some(Takeable {
                card: Clover,
                from: 0,
                by: 2,
            })
        }),
        "phase_contradiction"
    );
}

fn s_result(s: &State) -> RoundResult {
    RoundResult {
        round: 1,
        starter: s.starter,
        result: RoundOutcome::Jackpot {
            seat: 0,
            symbol: Jack,
            size: 3,
            points: 7000,
        },
        points: vec![7000, 0, 0],
    }
}

#[test]
fn check_state_accepts_every_state_of_a_played_game() {
    let options = Options {
        max_turns_per_round: Some(60),
        ..Options::default()
    };
    let mut s = LuckyJack::setup(options, 4);
    let mut rng = SplitMix(3);
    let mut steps = 0;
    while !LuckyJack::is_over(&s) && steps < 5000 {
        if LuckyJack::chance_pending(&s) {
            let c = LuckyJack::sample_chance(&s, &mut rng);
            resolve(&mut s, c);
        } else {
            let seat = LuckyJack::to_act(&s)[0];
            let moves = LuckyJack::legal_moves(&s, seat);
            let mv = moves[(steps * 7) % moves.len()].clone();
            play(&mut s, seat, mv);
        }
        steps += 1;
    }
    assert!(LuckyJack::is_over(&s));
}

// ---------------------------------------------------------------- legal moves

fn candidate_moves() -> Vec<Move> {
    let mut all = vec![Move::Draw, Move::Keep, Move::DiscardDrawn, Move::TakeIt];
    for card in Symbol::ALL {
        all.push(discard(card));
        all.push(announce(card));
    }
    all
}

#[test]
fn legal_moves_are_exactly_the_moves_that_validate() {
    let options = Options {
        max_turns_per_round: Some(40),
        jackpot_auto_declare: false,
        ..Options::default()
    };
    let mut s = LuckyJack::setup(options, 3);
    let mut rng = SplitMix(11);
    let mut steps = 0;
    while !LuckyJack::is_over(&s) {
        if LuckyJack::chance_pending(&s) {
            let c = LuckyJack::sample_chance(&s, &mut rng);
            resolve(&mut s, c);
            continue;
        }
        for seat in 0..3 {
            let legal = LuckyJack::legal_moves(&s, seat);
            for mv in candidate_moves() {
                let ok = LuckyJack::validate(&s, seat, &mv).is_ok();
                assert_eq!(ok, legal.contains(&mv), "seat {seat} {mv:?} in {s:?}");
            }
        }
        let seat = s.turn;
        let moves = LuckyJack::legal_moves(&s, seat);
        let mv = moves[(steps * 5 + 1) % moves.len()].clone();
        play(&mut s, seat, mv);
        steps += 1;
    }
}

// ---------------------------------------------------------------- views and events

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
    let mut s = LuckyJack::setup(options, 3);
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
    let mut s = LuckyJack::setup(Options::default(), 2);
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
