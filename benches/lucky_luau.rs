//! Lucky Luau throughput: complete random games (seeded, so every run plays the same games) and
//! leis scored (the rulebook's sample lei, and a long lei with two Rainbows to colour).

// A measuring tool, not the service: a broken assumption should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use referee::games::lucky_luau::{scoring, LuckyLuau, Options, Slot};
use referee::games::Game;
use referee::seed::Seed;

/// Plays one complete 4-player game with uniformly chosen acting seats and legal moves; returns
/// the number of plies (moves + chance events).
fn lucky_luau_random_game(game: u8) -> u64 {
    let seed = Seed::from_bytes([game; 32]);
    let mut picker = seed.stream(u64::MAX);
    let picker: &mut dyn referee::games::Randomness = &mut picker;
    let mut state = LuckyLuau::setup(LuckyLuau::validate_options(&Options::default(), 4).unwrap());
    let mut ply = 0u64;
    while !LuckyLuau::is_over(&state) {
        if LuckyLuau::chance_pending(&state) {
            let outcome = LuckyLuau::sample_chance(&state, &mut seed.stream(ply));
            LuckyLuau::resolve_chance(&mut state, &outcome).expect("sampled outcomes are possible");
        } else {
            let to_act = LuckyLuau::to_act(&state);
            let seat = to_act[picker.below(to_act.len())];
            let moves = LuckyLuau::legal_moves(&state, seat);
            let mv = &moves[picker.below(moves.len())];
            LuckyLuau::play(&mut state, seat, mv).expect("legal moves are legal");
        }
        ply += 1;
    }
    ply
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("lucky_luau");
    group.throughput(Throughput::Elements(1));
    let mut game = 0u8;
    group.bench_function("random_full_game", |b| {
        b.iter_batched(
            || {
                game = game.wrapping_add(1);
                game
            },
            lucky_luau_random_game,
            BatchSize::SmallInput,
        )
    });
    let options = Options::default();
    let sample = [
        Slot::Blue,
        Slot::Red,
        Slot::Purple,
        Slot::Blue,
        Slot::Hook,
        Slot::Kukui,
        Slot::Blue,
        Slot::Rainbow,
    ];
    group.bench_function("score_sample_lei", |b| {
        b.iter(|| scoring::score_lei(&options, black_box(&sample), &[]).unwrap())
    });
    let long: Vec<Slot> = [
        Slot::Yellow,
        Slot::Rainbow,
        Slot::Blue,
        Slot::Green,
        Slot::Ti,
        Slot::Mega,
        Slot::Kukui,
        Slot::Pink,
        Slot::Blue,
        Slot::Red,
        Slot::Orange,
        Slot::Spacer,
    ]
    .repeat(2);
    group.bench_function("score_24_slot_lei_two_rainbows", |b| {
        b.iter(|| scoring::score_lei(&options, black_box(&long), &[]).unwrap())
    });
    group.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
