//! Per-match seeds for server-side chance.
//!
//! A match gets 32 random bytes at creation; only their SHA-256 is published until the match is
//! over, so anyone can later check the deals and rolls were fixed in advance. The chance event at
//! ply `p` draws from ChaCha20 stream `p` of that seed: every event has its own independent stream,
//! so nothing about a stream position needs storing, and replay reads realised outcomes from the
//! log without any generator at all.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};

use crate::games::Randomness;

#[derive(Clone, PartialEq, Eq)]
pub struct Seed([u8; 32]);

impl Seed {
    /// Fresh bytes from the operating system.
    pub fn generate() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)?;
        Ok(Self(bytes))
    }

    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// Parses 64 hex digits.
    pub fn from_hex(text: &str) -> Option<Self> {
        let bytes = hex::decode(text).ok()?;
        Some(Self(bytes.try_into().ok()?))
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// The commitment published at creation: hex SHA-256 of the 32 seed bytes.
    pub fn sha256_hex(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }

    /// The random stream for the chance event at `ply`.
    pub fn stream(&self, ply: u64) -> SeededStream {
        let mut rng = ChaCha20Rng::from_seed(self.0);
        rng.set_stream(ply);
        SeededStream(rng)
    }
}

impl std::fmt::Debug for Seed {
    // Never print a seed by accident (logs, panics): it would reveal every hidden card.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Seed(..)")
    }
}

/// A ChaCha20 stream lent to a game to sample one chance event.
pub struct SeededStream(ChaCha20Rng);

impl Randomness for SeededStream {
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Golden values: if these change, every stored server-seeded match would replay differently
    /// from how it was dealt. Never update them without a rules-version bump.
    #[test]
    fn a_seed_always_deals_the_same_shuffle() {
        let seed = Seed::from_bytes([7; 32]);
        let mut stream = seed.stream(3);
        let rng: &mut dyn Randomness = &mut stream;
        let mut deck: Vec<u32> = (0..10).collect();
        rng.shuffle(&mut deck);
        assert_eq!(deck, GOLDEN_SHUFFLE);
        assert_eq!(
            seed.sha256_hex(),
            "4bb06f8e4e3a7715d201d573d0aa423762e55dabd61a2c02278fa56cc6d294e0"
        );
    }

    const GOLDEN_SHUFFLE: [u32; 10] = [5, 8, 7, 3, 4, 0, 2, 1, 6, 9];

    #[test]
    fn different_plies_draw_from_independent_streams() {
        let seed = Seed::from_bytes([1; 32]);
        assert_ne!(seed.stream(0).next_u64(), seed.stream(1).next_u64());
    }

    #[test]
    fn hex_round_trips_and_rejects_bad_lengths() {
        let seed = Seed::from_bytes([0xab; 32]);
        assert_eq!(Seed::from_hex(&seed.to_hex()), Some(seed));
        assert_eq!(Seed::from_hex("abcd"), None);
        assert_eq!(Seed::from_hex("zz"), None);
    }
}
