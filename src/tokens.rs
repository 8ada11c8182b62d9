//! Secret tokens for match owners and seats. Only their SHA-256 is stored; a presented token is
//! hashed and compared in constant time, so neither the database nor response timing reveals one.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};

/// A new random token with a readable prefix (`own_` or `seat_`), and its hash for storage.
pub fn issue(prefix: &str) -> Result<(String, Vec<u8>), getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    let token = format!("{prefix}_{}", URL_SAFE_NO_PAD.encode(bytes));
    let hash = hash(&token);
    Ok((token, hash))
}

pub fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Equality that takes the same time wherever the first difference is.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_issued_token_matches_its_hash_and_no_other() {
        let (token, stored) = issue("seat").unwrap();
        assert!(token.starts_with("seat_"));
        assert!(constant_time_eq(&hash(&token), &stored));
        assert!(!constant_time_eq(&hash("seat_other"), &stored));
        assert!(!constant_time_eq(&stored[..5], &stored));
    }
}
