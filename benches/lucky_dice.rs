//! Lucky Dice engine throughput: complete random games, seeded so every run plays the same games.

// A measuring tool, not the service: a broken assumption should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use referee::games::lucky_dice::{LuckyDice, Options};
use referee::games::Game;
use referee::seed::Seed;

/// Plays one complete 4-player game to three coasters, each step taking a random acting seat
/// (arrival order) and a random legal move; returns the number of plies (moves + chance events).
fn lucky_dice_random_game(game: u8) -> u64 {
    let seed = Seed::from_bytes([game; 32]);
    let mut picker = seed.stream(u64::MAX);
    let picker: &mut dyn referee::games::Randomness = &mut picker;
    let mut state = LuckyDice::setup(LuckyDice::validate_options(&Options::default(), 4).unwrap());
    let mut ply = 0u64;
    while !LuckyDice::is_over(&state) {
        if LuckyDice::chance_pending(&state) {
            let outcome = LuckyDice::sample_chance(&state, &mut seed.stream(ply));
            LuckyDice::resolve_chance(&mut state, &outcome).expect("sampled outcomes are possible");
        } else {
            let to_act = LuckyDice::to_act(&state);
            let seat = to_act[picker.below(to_act.len())];
            let moves = LuckyDice::legal_moves(&state, seat);
            let mv = &moves[picker.below(moves.len())];
            LuckyDice::play(&mut state, seat, mv).expect("legal moves are legal");
        }
        ply += 1;
    }
    ply
}

fn lucky_dice(c: &mut Criterion) {
    let mut group = c.benchmark_group("lucky_dice");
    group.throughput(Throughput::Elements(1));
    let mut game = 0u8;
    group.bench_function("random_full_game", |b| {
        b.iter_batched(
            || {
                game = game.wrapping_add(1);
                game
            },
            lucky_dice_random_game,
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, lucky_dice);
criterion_main!(benches);
