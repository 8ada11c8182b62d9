//! The request examples of the hosted-match and score-sheet operations. They tell one story
//! that works against a fresh service, so "Try it out" on the docs page succeeds in order:
//! create a Lucky Jack match played at a real table, report its deal, correct the card mistyped
//! in it, make the first move and take it back; start a score sheet, enter its first round. The deal and the move come from the engine itself (a
//! seeded deal, the first legal move), never typed by hand, so they stay valid as rules change.

use serde_json::{json, Value};

use crate::games::lucky_jack::{LuckyJack, Options};
use crate::games::{Consistent, Game, GameKind, Seat};
use crate::referee::{self, to_json};
use crate::seed::Seed;

type Story = LuckyJack;

const PLAYERS: [&str; 3] = ["Ann", "Ben", "Cleo"];

fn options() -> Options {
    Options {
        rounds: 3,
        ..Default::default()
    }
}

/// `POST /v1/matches`: a table-randomness match, so that its chance can be reported.
pub fn create_match() -> Value {
    json!({
        "game": Story::KIND,
        "seats": PLAYERS.map(|name| json!({"name": name})),
        "options": {"rounds": options().rounds},
        "randomness": "table",
    })
}

/// A deal, drawn from stream `stream` of a fixed seed, and the state after it.
fn dealt(stream: u64) -> (<Story as Game>::Chance, <Story as Game>::State) {
    let Ok(options) = Story::validate_options(&options(), PLAYERS.len()) else {
        unreachable!("the story's options are valid")
    };
    let mut state = Consistent::<Story>::new(options);
    let seed = Seed::from_bytes([7; 32]);
    let outcome = Story::sample_chance(&state, &mut seed.stream(stream));
    // The story's first chance is the whole deal: nothing else is pending after it (checked by
    // the examples test, which plays the story).
    let _ = referee::play_chance::<Story>(&mut state, &outcome);
    (outcome, state.into_inner())
}

/// The deal as the owner first typed it.
fn typed() -> (<Story as Game>::Chance, <Story as Game>::State) {
    dealt(1)
}

/// The deal as it really was, which the owner then sends as a correction.
fn really_dealt() -> (<Story as Game>::Chance, <Story as Game>::State) {
    dealt(2)
}

/// The first move after the real deal: the first legal move of the seat to act that shows the
/// table nothing hidden, so that it may be taken back.
fn first_move() -> (Seat, Option<<Story as Game>::Move>) {
    let (_, state) = really_dealt();
    let seat = Story::to_act(&state).first().copied().unwrap_or_default();
    let mv = Story::legal_moves(&state, seat)
        .into_iter()
        .find(|mv| !Story::reveals(&state, seat, mv));
    (seat, mv)
}

/// A match of `G` to create: the story's for Lucky Jack, three players and the rulebook's
/// options for the others.
pub fn create_match_of<G: Game>() -> Value {
    if G::KIND == GameKind::LuckyJack {
        return create_match();
    }
    json!({
        "game": G::KIND,
        "seats": PLAYERS.map(|name| json!({"name": name})),
        "randomness": "server",
    })
}

/// A score sheet of `G` to start: the story's for Lucky Jack, three players for the others.
pub fn create_sheet_of<G: Game>() -> Value {
    if G::KIND == GameKind::LuckyJack {
        return create_sheet();
    }
    json!({"game": G::KIND, "players": PLAYERS.map(|name| json!({"name": name}))})
}

/// `POST /v1/matches/{id}/chance`: the deal, reported by the owner at version 0 (with a card
/// mistyped, as the correction then says).
pub fn submit_chance() -> Value {
    json!({"expected_version": 0, "outcome": to_json(&typed().0)})
}

/// `POST /v1/matches/{id}/corrections`: the deal as it really was, replacing the one reported at
/// version 1 before anyone moved.
pub fn correct_chance() -> Value {
    json!({"expected_version": 1, "outcome": to_json(&really_dealt().0)})
}

/// `POST /v1/matches/{id}/moves`: the first move after the corrected deal, sent with the owner
/// token (hence `seat`).
pub fn submit_move() -> Value {
    let (seat, mv) = first_move();
    json!({"expected_version": 2, "seat": seat, "move": mv})
}

/// `POST /v1/matches/{id}/take-backs`: that move taken back, for its seat, by the owner.
pub fn take_back() -> Value {
    json!({"expected_version": 3, "seat": first_move().0})
}

/// `POST /v1/sheets`: Friday's Lucky Jack, five rounds.
pub fn create_sheet() -> Value {
    json!({
        "game": Story::KIND,
        "players": PLAYERS.map(|name| json!({"name": name})),
        "options": {"rounds": 5},
    })
}

/// `POST /v1/sheets/{id}/entries`: round 1, Cleo's jackpot of four jacks.
pub fn append_entry() -> Value {
    json!({
        "expected_version": 0,
        "tally": {"jackpot": {"seat": 2, "symbol": "jack", "size": 4}},
        "note": "Cleo's four jacks",
    })
}

/// `POST /v1/sheets/{id}/remove-last-round`: round 1 was typed on the wrong sheet, at version 1.
pub fn remove_last_round() -> Value {
    json!({
        "expected_version": 1,
        "note": "entered on the wrong sheet",
    })
}

/// `PATCH /v1/sheets/{id}/seats/{seat}`: a player's name as the family writes it, at version 1.
pub fn rename_sheet_player() -> Value {
    json!({
        "expected_version": 1,
        "name": "Grandpa Joe",
        "note": "Joe wants his full title",
    })
}

/// `POST /v1/sheets/{id}/finish`: the little one fell asleep after round 1 (version 1).
pub fn finish_sheet() -> Value {
    json!({
        "expected_version": 1,
        "note": "bedtime",
    })
}

/// `POST /v1/imports/bgstats`: last Christmas's Lucky Jack as a BG Stats file holds a play
/// (scores as text, ranks, a winner), and a game of Catan the import skips.
pub fn import_bgstats() -> Value {
    let score = |player: usize, score: &str, rank: usize| {
        json!({"playerRefId": player, "score": score, "winner": rank == 1, "newPlayer": false,
               "startPlayer": false, "rank": rank, "seatOrder": player - 1})
    };
    let play = |uuid: &str, game: usize, date: &str, scores: Vec<Value>| {
        json!({"uuid": uuid, "gameRefId": game, "locationRefId": 1, "playDate": date,
               "durationMin": 35, "ignored": false, "manualWinner": false, "rounds": 0,
               "usesTeams": false, "playerScores": scores})
    };
    let game = |id: usize, name: &str, uuid: &str| {
        json!({"id": id, "name": name, "uuid": uuid, "cooperative": false, "highestWins": true,
               "noPoints": false, "usesTeams": false})
    };
    json!({
        "players": PLAYERS
            .iter()
            .enumerate()
            .map(|(i, name)| json!({"id": i + 1, "name": name,
                                    "uuid": format!("7d3c1f2e-0b4a-4c6d-9e8f-1a2b3c4d5e6{i}")}))
            .collect::<Vec<_>>(),
        "locations": [{"id": 1, "name": "Kitchen", "uuid": "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"}],
        "games": [
            game(1, "Lucky Jack", "2b3c4d5e-6f70-4a81-92a3-b4c5d6e7f809"),
            game(2, "Catan", "3c4d5e6f-7081-4a92-83b4-c5d6e7f8091a"),
        ],
        "plays": [
            play("5f0e7d1c-2b3a-4c5d-8e9f-0a1b2c3d4e5f", 1, "2025-12-25 20:30:00",
                 vec![score(1, "9500", 1), score(2, "4000", 2), score(3, "1500", 3)]),
            play("5f0e7d1c-2b3a-4c5d-8e9f-0a1b2c3d4e60", 2, "2025-12-26 16:00:00",
                 vec![score(1, "10", 1), score(2, "7", 2)]),
        ]
    })
}
