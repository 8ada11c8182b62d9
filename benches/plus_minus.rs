//! Plus & Minus engine throughput: complete random games, seeded so every run plays the same
//! games.

// A measuring tool, not the service: a broken assumption should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use referee::games::plus_minus::{Options, PlusMinus};
use referee::games::Game;
use referee::seed::Seed;

/// Plays one complete game (`players` rounds, one per dealer) with uniformly chosen legal
/// moves; returns the number of plies (moves + chance events).
fn random_game(players: usize, game: u8) -> u64 {
    let seed = Seed::from_bytes([game; 32]);
    let mut picker = seed.stream(u64::MAX);
    let picker: &mut dyn referee::games::Randomness = &mut picker;
    let mut state =
        PlusMinus::setup(PlusMinus::validate_options(&Options::default(), players).unwrap());
    let mut ply = 0u64;
    while !PlusMinus::is_over(&state) {
        if PlusMinus::chance_pending(&state) {
            let outcome = PlusMinus::sample_chance(&state, &mut seed.stream(ply));
            PlusMinus::resolve_chance(&mut state, &outcome).expect("sampled outcomes are possible");
        } else {
            let seat = PlusMinus::to_act(&state)[0];
            let moves = PlusMinus::legal_moves(&state, seat);
            let mv = &moves[picker.below(moves.len())];
            PlusMinus::play(&mut state, seat, mv).expect("legal moves are legal");
        }
        ply += 1;
    }
    ply
}

fn plus_minus(c: &mut Criterion) {
    let mut group = c.benchmark_group("plus_minus");
    group.throughput(Throughput::Elements(1));
    for players in [3usize, 6] {
        let mut game = 0u8;
        group.bench_function(format!("random_full_game_{players}p"), |b| {
            b.iter_batched(
                || {
                    game = game.wrapping_add(1);
                    game
                },
                |g| random_game(players, g),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, plus_minus);
criterion_main!(benches);
