//! Luck Plus engine throughput: random full hands, and legal-move enumeration, seeded so every
//! run plays the same hands.

// A measuring tool, not the service: a broken assumption should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use referee::games::luck_plus::{LuckPlus, Options, State};
use referee::games::{Game, Randomness};
use referee::seed::Seed;

/// Plays one complete 4-player hand (target 1 hand) with uniformly chosen legal moves; returns
/// the number of plies (moves + chance events).
fn random_hand(game: u8) -> u64 {
    let options = Options {
        target: Some(1),
        ..Options::default()
    };
    let seed = Seed::from_bytes([game; 32]);
    let mut picker = seed.stream(u64::MAX);
    let picker: &mut dyn Randomness = &mut picker;
    let mut state = LuckPlus::setup(LuckPlus::validate_options(&options, 4).unwrap());
    let mut ply = 0u64;
    while !LuckPlus::is_over(&state) {
        if LuckPlus::chance_pending(&state) {
            let outcome = LuckPlus::sample_chance(&state, &mut seed.stream(ply));
            LuckPlus::resolve_chance(&mut state, &outcome).expect("sampled outcomes are possible");
        } else {
            let seat = LuckPlus::to_act(&state)[0];
            let moves = LuckPlus::legal_moves(&state, seat);
            let mv = &moves[picker.below(moves.len())];
            LuckPlus::play(&mut state, seat, mv).expect("legal moves are legal");
        }
        ply += 1;
    }
    ply
}

/// States met in random play where a seat is to act, for the enumeration benchmark.
fn sample_states() -> Vec<(State, usize)> {
    let seed = Seed::from_bytes([42; 32]);
    let mut picker = seed.stream(u64::MAX);
    let picker: &mut dyn Randomness = &mut picker;
    let mut state = LuckPlus::setup(LuckPlus::validate_options(&Options::default(), 4).unwrap());
    let mut states = Vec::new();
    let mut ply = 0u64;
    while states.len() < 500 && !LuckPlus::is_over(&state) {
        if LuckPlus::chance_pending(&state) {
            let outcome = LuckPlus::sample_chance(&state, &mut seed.stream(ply));
            LuckPlus::resolve_chance(&mut state, &outcome).unwrap();
        } else {
            let seat = LuckPlus::to_act(&state)[0];
            states.push((state.clone(), seat));
            let moves = LuckPlus::legal_moves(&state, seat);
            let mv = &moves[picker.below(moves.len())];
            LuckPlus::play(&mut state, seat, mv).unwrap();
        }
        ply += 1;
    }
    states
}

fn luck_plus(c: &mut Criterion) {
    let mut group = c.benchmark_group("luck_plus");
    group.throughput(Throughput::Elements(1));
    let mut game = 0u8;
    group.bench_function("random_full_hand", |b| {
        b.iter_batched(
            || {
                game = game.wrapping_add(1);
                game
            },
            random_hand,
            BatchSize::SmallInput,
        )
    });
    let states = sample_states();
    let mut next = 0usize;
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            let (state, seat) = &states[next % states.len()];
            next += 1;
            LuckPlus::legal_moves(state, *seat).len()
        })
    });
    group.finish();
}

criterion_group!(benches, luck_plus);
criterion_main!(benches);
