//! Engine throughput: complete random games, seeded so every run plays the same games.

// A measuring tool, not the service: a broken assumption should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use referee::games::lucky_jack::{LuckyJack, Options};
use referee::games::{Consistent, Game, ValidOptions};
use referee::referee::{replay, GameInput, Input, Mendable};
use referee::seed::Seed;

/// Plays one complete 4-player, 3-round game with uniformly chosen legal moves; returns the
/// number of plies (moves + chance events).
fn lucky_jack_random_game(game: u8) -> u64 {
    let options = Options {
        max_turns_per_round: Some(500),
        ..Options::default()
    };
    let seed = Seed::from_bytes([game; 32]);
    let mut picker = seed.stream(u64::MAX);
    let picker: &mut dyn referee::games::Randomness = &mut picker;
    let mut state = LuckyJack::setup(LuckyJack::validate_options(&options, 4).unwrap());
    let mut ply = 0u64;
    while !LuckyJack::is_over(&state) {
        if LuckyJack::chance_pending(&state) {
            let outcome = LuckyJack::sample_chance(&state, &mut seed.stream(ply));
            LuckyJack::resolve_chance(&mut state, &outcome).expect("sampled outcomes are possible");
        } else {
            let seat = LuckyJack::to_act(&state)[0];
            let moves = LuckyJack::legal_moves(&state, seat);
            let mv = &moves[picker.below(moves.len())];
            LuckyJack::play(&mut state, seat, mv).expect("legal moves are legal");
        }
        ply += 1;
    }
    ply
}

fn lucky_jack(c: &mut Criterion) {
    let mut group = c.benchmark_group("lucky_jack");
    group.throughput(Throughput::Elements(1));
    let mut game = 0u8;
    group.bench_function("random_full_game", |b| {
        b.iter_batched(
            || {
                game = game.wrapping_add(1);
                game
            },
            lucky_jack_random_game,
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// A 4-player Lucky Jack state after `plies` random plies, as the move pipeline stores it.
fn lucky_jack_state_text(plies: u64) -> String {
    let seed = Seed::from_bytes([7; 32]);
    let mut picker = seed.stream(u64::MAX);
    let picker: &mut dyn referee::games::Randomness = &mut picker;
    let options = LuckyJack::validate_options(&Options::default(), 4).unwrap();
    let mut state = LuckyJack::setup(options);
    for ply in 0..plies {
        if LuckyJack::is_over(&state) {
            break;
        }
        if LuckyJack::chance_pending(&state) {
            let outcome = LuckyJack::sample_chance(&state, &mut seed.stream(ply));
            LuckyJack::resolve_chance(&mut state, &outcome).unwrap();
        } else {
            let seat = LuckyJack::to_act(&state)[0];
            let moves = LuckyJack::legal_moves(&state, seat);
            LuckyJack::play(&mut state, seat, &moves[picker.below(moves.len())]).unwrap();
        }
    }
    serde_json::to_string(&state).unwrap()
}

/// What a move pays to take its match's stored state: parsing the JSON text, and then the
/// consistency check that makes it a `Consistent` state the referee accepts.
fn stored_state(c: &mut Criterion) {
    let text = lucky_jack_state_text(40);
    let mut group = c.benchmark_group("stored_state");
    group.bench_function("lucky_jack_parse", |b| {
        b.iter(|| serde_json::from_str::<<LuckyJack as Game>::State>(&text).unwrap())
    });
    group.bench_function("lucky_jack_parse_and_check", |b| {
        b.iter(|| {
            let state = serde_json::from_str(&text).unwrap();
            Consistent::<LuckyJack>::check(state).unwrap()
        })
    });
    group.finish();
}

/// One 4-player game's log (the same game every run), as the inputs a replay plays.
fn lucky_jack_log() -> (ValidOptions<Options>, Vec<GameInput<LuckyJack>>) {
    let options = Options {
        max_turns_per_round: Some(500),
        ..Options::default()
    };
    let options = LuckyJack::validate_options(&options, 4).unwrap();
    let seed = Seed::from_bytes([3; 32]);
    let mut picker = seed.stream(u64::MAX);
    let picker: &mut dyn referee::games::Randomness = &mut picker;
    let mut state = LuckyJack::setup(options.clone());
    let mut inputs = Vec::new();
    while !LuckyJack::is_over(&state) {
        let input = if LuckyJack::chance_pending(&state) {
            Input::Chance(LuckyJack::sample_chance(
                &state,
                &mut seed.stream(inputs.len() as u64),
            ))
        } else {
            let seat = LuckyJack::to_act(&state)[0];
            let moves = LuckyJack::legal_moves(&state, seat);
            let mv = moves[picker.below(moves.len())].clone();
            Input::Move { seat, mv }
        };
        match &input {
            Input::Chance(outcome) => LuckyJack::resolve_chance(&mut state, outcome).map(drop),
            Input::Move { seat, mv } => LuckyJack::play(&mut state, *seat, mv).map(drop),
        }
        .unwrap();
        inputs.push(input);
    }
    (options, inputs)
}

/// What a take-back or a correction pays before it is judged: the whole log replayed from the
/// deal, through the mending policy, which keeps the state before each entry still mendable;
/// beside it the same log replayed as the log pages replay it.
fn mending(c: &mut Criterion) {
    let (options, inputs) = lucky_jack_log();
    let mut group = c.benchmark_group("mending");
    group.throughput(Throughput::Elements(inputs.len() as u64));
    group.bench_function("lucky_jack_replay", |b| {
        b.iter(|| replay::<LuckyJack>(options.clone(), &inputs, None).unwrap())
    });
    group.bench_function("lucky_jack_mendable_replay", |b| {
        b.iter(|| {
            let mut line = Mendable::<LuckyJack>::new(Consistent::new(options.clone()));
            for (index, input) in inputs.iter().enumerate() {
                line.play(index as i64 + 1, input, None).unwrap();
            }
            line
        })
    });
    group.finish();
}

criterion_group!(benches, lucky_jack, stored_state, mending);
criterion_main!(benches);
