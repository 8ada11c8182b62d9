//! Sampling for server-seeded chance, written here rather than taken from `rand` so that a
//! dependency upgrade can never change how a stored seed deals (rand changed `shuffle` between
//! 0.8 and 0.9). Only the raw 64-bit stream comes from the generator the caller lends.

/// A source of uniformly random 64-bit words. The referee lends a per-match ChaCha20 stream;
/// tests may lend anything deterministic.
pub trait Randomness {
    fn next_u64(&mut self) -> u64;
}

impl dyn Randomness + '_ {
    /// A uniform integer in `0..n` by rejection sampling (no modulo bias). `n` must be positive.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0) has no outcome");
        let n = n as u64;
        // Largest multiple of n that fits: words at or above it are redrawn.
        let zone = u64::MAX - (u64::MAX - n + 1) % n;
        loop {
            let word = self.next_u64();
            if word <= zone {
                return (word % n) as usize;
            }
        }
    }

    /// Fisher–Yates, from the back.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// `count` items drawn without replacement, in draw order: a partial Fisher–Yates from the
    /// front. Drawing every item is a full shuffle.
    pub fn draw<T: Clone>(&mut self, pool: &[T], count: usize) -> Vec<T> {
        let mut items = pool.to_vec();
        let count = count.min(items.len());
        for i in 0..count {
            let j = i + self.below(items.len() - i);
            items.swap(i, j);
        }
        items.truncate(count);
        items
    }

    /// One roll of a die with `faces` faces, as an index `0..faces`.
    pub fn roll(&mut self, faces: usize) -> usize {
        self.below(faces)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A counter, for tests that need repeatable but varied words.
    pub(crate) struct SplitMix(pub u64);

    impl Randomness for SplitMix {
        fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let rng: &mut dyn Randomness = &mut SplitMix(7);
        let mut seen = [false; 6];
        for _ in 0..600 {
            let v = rng.below(6);
            seen[v] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn below_redraws_words_in_the_biased_zone() {
        struct Script(Vec<u64>);
        impl Randomness for Script {
            fn next_u64(&mut self) -> u64 {
                self.0.remove(0)
            }
        }
        // For n = 3 the top word u64::MAX lies past the last full multiple and must be redrawn.
        let rng: &mut dyn Randomness = &mut Script(vec![u64::MAX, 4]);
        assert_eq!(rng.below(3), 1);
    }

    #[test]
    fn draw_is_a_permutation_prefix_without_replacement() {
        let rng: &mut dyn Randomness = &mut SplitMix(1);
        let pool: Vec<u32> = (0..20).collect();
        let mut drawn = rng.draw(&pool, 20);
        drawn.sort();
        assert_eq!(drawn, pool);
        assert_eq!(rng.draw(&pool, 5).len(), 5);
        assert_eq!(rng.draw(&pool, 50).len(), 20);
    }
}
