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

/// Crockford's base 32: digits and capitals without I, L, O and U, so a code read aloud or off a
/// screen has no look-alikes. 32 symbols divide 256, so `byte % 32` draws each one evenly.
pub const INVITE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Ten symbols of five bits: 50 bits of entropy.
pub const INVITE_CODE_LEN: usize = 10;

/// A new invite code and its hash for storage.
pub fn issue_invite_code() -> Result<(String, Vec<u8>), getrandom::Error> {
    let mut bytes = [0u8; INVITE_CODE_LEN];
    getrandom::fill(&mut bytes)?;
    let code: String = bytes
        .iter()
        .map(|b| INVITE_ALPHABET[usize::from(b % 32)] as char)
        .collect();
    let hash = invite_code_hash(&code).unwrap_or_default();
    Ok((code, hash))
}

/// A code as typed, in the form it was issued: case, spaces and hyphens do not matter, and the
/// look-alikes Crockford maps are read as the symbol they resemble (`O` as `0`, `I` and `L` as
/// `1`). `None` when it cannot be a code at all.
pub fn canonical_invite_code(typed: &str) -> Option<String> {
    let mut code = String::with_capacity(INVITE_CODE_LEN);
    for c in typed.chars().filter(|c| !matches!(c, ' ' | '-')) {
        let c = match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            other => other,
        };
        if !c.is_ascii() || !INVITE_ALPHABET.contains(&(c as u8)) {
            return None;
        }
        code.push(c);
    }
    (code.len() == INVITE_CODE_LEN).then_some(code)
}

/// The stored hash of a code as typed ([`canonical_invite_code`]).
pub fn invite_code_hash(typed: &str) -> Option<Vec<u8>> {
    canonical_invite_code(typed).map(|code| Sha256::digest(format!("invite:{code}")).to_vec())
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

    #[test]
    fn an_invite_code_reads_back_however_it_is_typed() {
        let (code, stored) = issue_invite_code().unwrap();
        assert_eq!(code.len(), INVITE_CODE_LEN);
        assert!(code.bytes().all(|b| INVITE_ALPHABET.contains(&b)));
        assert_eq!(invite_code_hash(&code), Some(stored.clone()));
        let typed = format!("{}-{}", &code[..5], &code[5..]).to_lowercase();
        assert_eq!(invite_code_hash(&typed), Some(stored));
        assert_eq!(
            invite_code_hash("0000000000"),
            invite_code_hash("oOoOo-OoOoO")
        );
        assert_eq!(
            invite_code_hash("1111111111"),
            invite_code_hash("IiLl1IiLl1")
        );
        assert_eq!(invite_code_hash("UUUUUUUUUU"), None);
        assert_eq!(invite_code_hash("123"), None);
        assert_eq!(invite_code_hash("ÄBCDEFGHJK"), None);
    }
}
