//! Unit tests, one per rule or option. Comments cite the rulebook (`rules/lucky-jack.txt`) or
//! RULINGS.md §2.

use super::*;
use crate::games::chance::tests::SplitMix;
use crate::games::Violation as _;
use Symbol::*;

mod chance_validation;
mod check_state;
mod components_and_table;
mod draw_pile_exhausted;
mod hand_floor;
mod i_take_it;
mod jackpots;
mod legal_moves;
mod options;
mod reveals;
mod round_and_game_end;
mod setup_and_deal;
mod the_four_options;
mod views_and_events;

fn discard(card: Symbol) -> Move {
    Move::Discard {
        card,
        jackpot: false,
    }
}

/// The jackpot event `seat` scores with `size` cards of `symbol`.
fn jackpot(seat: Seat, symbol: Symbol, size: usize, points: u32) -> Event {
    Event::Jackpot {
        seat,
        symbol,
        size,
        points,
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
    let mut state = LuckyJack::setup(LuckyJack::validate_options(&options, players).unwrap());
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
fn every_violation_code_is_its_variant_name_in_snake_case() {
    // The codes clients switch on are the ones serde's `rename_all = "snake_case"` gave.
    for (name, code) in LuckyJackViolation::VARIANTS {
        assert_eq!(crate::games::kit::refusal::snake_case(name), *code);
    }
}
