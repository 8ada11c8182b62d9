//! Shared by `tests/rules/luck_plus/scenarios.rs` (engine) and `tests/api/luck_plus.rs` (HTTP): the
//! scenario file format, the table a case starts from, and the final expectations.
//!
//! A case starts from `setup` or from a mid-hand `table`, runs `steps` (a seat's move or a
//! chance outcome, each expecting `ok` or a violation code) and checks `expect`.
#![allow(dead_code)]

use referee::games::luck_plus::{
    full_deck, remove_one, Card, Chance, LuckPlus, Move, Options, Out, Phase, State,
};
use referee::games::{Game, Seat};
use serde::Deserialize;

// The module beside this one in either binary that includes it (`rules`, `api`).
use super::data_files;

/// A Luck Plus scenario file: its source and its cases.
pub type File = data_files::File<Case>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub name: String,
    #[serde(default)]
    pub source: Option<String>,
    pub players: usize,
    #[serde(default)]
    pub options: Options,
    #[serde(default)]
    pub table: Option<Table>,
    #[serde(default)]
    pub steps: Vec<Step>,
    #[serde(default)]
    pub expect: Expect,
}

/// A hand in progress: face-up `hands`, the `match_pile` (bottom to top), the `dice` showing
/// (`rolled_this_turn` when the turn seat rolled them), `turn` to play. Every other card is in
/// the draw pile, unless `draw_pile` lists it (then the rest goes under the match pile).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub hands: Vec<Vec<Card>>,
    pub match_pile: Vec<Card>,
    #[serde(default)]
    pub dice: Option<[u8; 2]>,
    #[serde(default)]
    pub rolled_this_turn: bool,
    pub turn: Seat,
    #[serde(default)]
    pub first_turn: bool,
    #[serde(default)]
    pub draw_pile: Option<Vec<Card>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    #[serde(default)]
    pub seat: Option<Seat>,
    #[serde(default, rename = "move")]
    pub mv: Option<Move>,
    #[serde(default)]
    pub chance: Option<Chance>,
    /// `ok` (default) or the violation code.
    #[serde(default = "ok")]
    pub expect: String,
}

fn ok() -> String {
    "ok".into()
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub phase: Option<Phase>,
    pub turn: Option<Seat>,
    pub hand: Option<u32>,
    pub hands: Option<Vec<Vec<Card>>>,
    pub hand_sizes: Option<Vec<usize>>,
    pub match_top: Option<Card>,
    pub dice: Option<[u8; 2]>,
    pub drawn: Option<Card>,
    pub out: Option<Vec<Vec<Out>>>,
    pub hand_points: Option<Vec<Vec<i64>>>,
    pub totals: Option<Vec<i64>>,
    pub winners: Option<Vec<Seat>>,
    pub over: Option<bool>,
    /// Events that must occur (as JSON), among all events of the steps.
    pub events: Option<Vec<serde_json::Value>>,
}

/// The state a case starts from.
pub fn start(case: &Case) -> State {
    let valid = LuckPlus::validate_options(&case.options, case.players).expect("valid options");
    let mut state = LuckPlus::setup(valid);
    let Some(table) = &case.table else {
        return state;
    };
    assert_eq!(table.hands.len(), case.players, "table hands");
    state.chance = None;
    let mut rest = full_deck();
    for (seat, hand) in table.hands.iter().enumerate() {
        let mut hand = hand.clone();
        hand.sort();
        for &card in &hand {
            assert!(remove_one(&mut rest, card), "too many {card}");
        }
        state.hands[seat] = hand;
    }
    for &card in &table.match_pile {
        assert!(remove_one(&mut rest, card), "too many {card}");
    }
    state.match_pile = table.match_pile.clone();
    if let Some(pile) = &table.draw_pile {
        let mut pile = pile.clone();
        pile.sort();
        for &card in &pile {
            assert!(remove_one(&mut rest, card), "too many {card}");
        }
        rest.append(&mut state.match_pile);
        state.match_pile = rest;
        state.draw_pile = pile;
    } else {
        state.draw_pile = rest;
    }
    state.dice = table.dice;
    state.rolled_this_turn = table.rolled_this_turn;
    state.phase = if table.rolled_this_turn {
        Phase::Rolled
    } else {
        Phase::PreRoll
    };
    state.turn = table.turn;
    state.first_turn = table.first_turn;
    state.had_turn = vec![true; case.players];
    LuckPlus::check_state(&state).expect("scenario table is consistent");
    state
}

/// Checks the final expectations of a case.
pub fn check_expect(state: &State, events: &[serde_json::Value], e: &Expect) -> Result<(), String> {
    let fail =
        |what: &str, want: String, got: String| Err(format!("{what}: expected {want}, got {got}"));
    macro_rules! eq {
        ($field:ident, $got:expr) => {
            if let Some(want) = &e.$field {
                let got = $got;
                if *want != got {
                    return fail(stringify!($field), format!("{want:?}"), format!("{got:?}"));
                }
            }
        };
    }
    eq!(phase, state.phase);
    eq!(turn, state.turn);
    eq!(hand, state.hand);
    eq!(hands, state.hands.clone());
    eq!(
        hand_sizes,
        state.hands.iter().map(Vec::len).collect::<Vec<_>>()
    );
    if e.match_top.is_some() {
        eq!(match_top, *state.match_pile.last().unwrap());
    }
    if e.dice.is_some() {
        eq!(dice, state.dice.unwrap());
    }
    if e.drawn.is_some() {
        eq!(drawn, state.drawn.unwrap());
    }
    eq!(
        out,
        state
            .results
            .iter()
            .map(|r| r.out.clone())
            .collect::<Vec<_>>()
    );
    eq!(
        hand_points,
        state
            .results
            .iter()
            .map(|r| r.points.clone())
            .collect::<Vec<_>>()
    );
    eq!(totals, LuckPlus::score(state).totals);
    eq!(winners, LuckPlus::standings(state).winners);
    eq!(over, LuckPlus::is_over(state));
    if let Some(want) = &e.events {
        for w in want {
            if !events.contains(w) {
                return fail("events", format!("{w} among them"), format!("{events:?}"));
            }
        }
    }
    Ok(())
}

/// Every scenario file, sorted by name.
pub fn files() -> Vec<(String, File)> {
    data_files::load("luck_plus")
}
