//! A seeded season of results rated by the service's model, as JSON on stdout, for the
//! independent cross-check in `.ci/ratings` (the `openskill` package recomputes every rating).
//!
//! 400 results among 10 players, 2 to 8 at a table, with ties; then the same season with one
//! result in the middle corrected (its ranks changed), rated again from that result on, as a
//! corrected score sheet would be. Run: `cargo run --bin ratings-season`.

use std::collections::BTreeMap;

use referee::rating_model::{Model, Rating};
use serde_json::{json, Value};

const PLAYERS: [&str; 10] = [
    "Ann", "Ben", "Cleo", "Dad", "Eve", "Finn", "Gus", "Hana", "Ivo", "Mum",
];
const RESULTS: usize = 400;
/// The result corrected in the second season.
const CORRECTED: usize = 200;

/// A small deterministic generator (SplitMix64), so the season is the same on every machine.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Competition ranks (1, 2, 2, 4) of scores, highest first: equal scores tie.
fn ranks_of(scores: &[u32]) -> Vec<u32> {
    scores
        .iter()
        .map(|mine| 1 + scores.iter().filter(|other| *other > mine).count() as u32)
        .collect()
}

struct Result {
    players: Vec<&'static str>,
    ranks: Vec<u32>,
}

fn season(seed: u64) -> Vec<Result> {
    let mut random = Seeded(seed);
    (0..RESULTS)
        .map(|_| {
            let mut pool: Vec<&str> = PLAYERS.to_vec();
            let size = 2 + random.below(7);
            let players: Vec<&str> = (0..size)
                .map(|_| pool.remove(random.below(pool.len())))
                .collect();
            // Few distinct scores, so ties are common.
            let scores: Vec<u32> = players.iter().map(|_| random.below(4) as u32).collect();
            Result {
                ranks: ranks_of(&scores),
                players,
            }
        })
        .collect()
}

/// Rates `results` from `start`, each player's rating in `ratings` as it stood before `start`;
/// each result's ratings after it, as JSON.
fn rate(
    model: &Model,
    results: &[Result],
    start: usize,
    ratings: &mut BTreeMap<&'static str, Rating>,
) -> Vec<Value> {
    results[start..]
        .iter()
        .map(|result| {
            let before: Vec<Rating> = result
                .players
                .iter()
                .map(|p| *ratings.entry(p).or_insert(model.initial()))
                .collect();
            let after = model.rate(&before, &result.ranks);
            for (player, rating) in result.players.iter().zip(&after) {
                ratings.insert(player, *rating);
            }
            json!({
                "players": result.players,
                "ranks": result.ranks,
                "after": after.iter().map(|r| json!({"mu": r.mu, "sigma": r.sigma})).collect::<Vec<_>>(),
            })
        })
        .collect()
}

fn main() {
    let model = Model::default();
    let mut results = season(2026);
    let mut ratings = BTreeMap::new();
    let first = rate(&model, &results, 0, &mut ratings);

    // The correction: the result's players finish in the reverse order. Ratings are taken back
    // to where they stood before it (the first season's, replayed that far) and rated on.
    let mut before_correction = BTreeMap::new();
    rate(&model, &results[..CORRECTED], 0, &mut before_correction);
    let corrected = &mut results[CORRECTED];
    let last = corrected.ranks.len() as u32 + 1;
    corrected.ranks = corrected.ranks.iter().map(|r| last - r).collect();
    let mut second = first[..CORRECTED].to_vec();
    second.extend(rate(&model, &results, CORRECTED, &mut before_correction));

    let out = json!({
        "model": {"mu": model.mu, "sigma": model.sigma, "beta": model.beta, "kappa": model.kappa},
        "seasons": [first, second],
    });
    println!("{out}");
}
