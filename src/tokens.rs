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
/// The longest code read as typed, spaces and hyphens included (`7KQ - 2M9 - XW4 - D` and more):
/// a longer one is no code, as the OpenAPI document's `maxLength` says.
pub const INVITE_CODE_TYPED_MAX: usize = 40;

/// A new invite code and its hash for storage, under the current key.
pub fn issue_invite_code(keys: &InviteKeys) -> Result<(String, Vec<u8>), getrandom::Error> {
    let mut bytes = [0u8; INVITE_CODE_LEN];
    getrandom::fill(&mut bytes)?;
    let code: String = bytes
        .iter()
        .map(|b| INVITE_ALPHABET[usize::from(b % 32)] as char)
        .collect();
    let hash = keys.keyed(&keys.current, &code);
    Ok((code, hash))
}

/// The server secrets invite codes are stored under. A code has 50 bits: a plain hash of it is
/// undone by trying every code (~2^50 hashes, once for every code in a database copy), so the
/// stored form is HMAC-SHA256 under a key that is not in the database. New codes use `current`;
/// codes issued under a key in `previous` (a rotation) or, while `accept_unkeyed`, as the plain
/// SHA-256 of before keys, are still found.
#[derive(Clone)]
pub struct InviteKeys {
    current: Vec<u8>,
    previous: Vec<Vec<u8>>,
    accept_unkeyed: bool,
    /// Whether `current` was drawn at start (no `INVITE_KEY`): invites then last one process.
    pub random: bool,
}

/// The shortest key taken: HMAC-SHA256 gains nothing from more, and less is guessable sooner.
pub const MIN_INVITE_KEY_BYTES: usize = 32;

impl std::fmt::Debug for InviteKeys {
    // Never the keys themselves: settings may be printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InviteKeys")
            .field("previous", &self.previous.len())
            .field("accept_unkeyed", &self.accept_unkeyed)
            .field("random", &self.random)
            .finish_non_exhaustive()
    }
}

impl Default for InviteKeys {
    /// One random key per process, so that every instance a test starts in it agrees.
    fn default() -> Self {
        static KEY: std::sync::OnceLock<[u8; 32]> = std::sync::OnceLock::new();
        let key = KEY.get_or_init(|| {
            let mut key = [0u8; 32];
            // No randomness at all would leave the service unable to issue anything anyway.
            getrandom::fill(&mut key).unwrap_or_else(|error| panic!("no randomness: {error}"));
            key
        });
        Self {
            current: key.to_vec(),
            previous: Vec::new(),
            accept_unkeyed: true,
            random: true,
        }
    }
}

impl InviteKeys {
    pub fn new(current: Vec<u8>, previous: Vec<Vec<u8>>, accept_unkeyed: bool) -> Self {
        Self {
            current,
            previous,
            accept_unkeyed,
            random: false,
        }
    }

    /// The same keys, with plain SHA-256 hashes from before keys accepted or not.
    pub fn accepting_unkeyed(mut self, accept: bool) -> Self {
        self.accept_unkeyed = accept;
        self
    }

    /// A key as configured: hex, or base64 (standard or URL-safe, padded or not), of at least
    /// [`MIN_INVITE_KEY_BYTES`] bytes.
    pub fn parse_key(text: &str) -> Result<Vec<u8>, String> {
        use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE};
        let text = text.trim();
        let key = hex::decode(text)
            .ok()
            .or_else(|| {
                [&STANDARD, &STANDARD_NO_PAD, &URL_SAFE, &URL_SAFE_NO_PAD]
                    .iter()
                    .find_map(|engine| engine.decode(text).ok())
            })
            .ok_or("is neither hex nor base64")?;
        if key.len() < MIN_INVITE_KEY_BYTES {
            return Err(format!(
                "has {} bytes; at least {MIN_INVITE_KEY_BYTES} are needed",
                key.len()
            ));
        }
        Ok(key)
    }

    /// HMAC-SHA256 of a canonical code under `key`.
    fn keyed(&self, key: &[u8], code: &str) -> Vec<u8> {
        use hmac::{Hmac, Mac};
        // HMAC takes a key of any length: this cannot fail.
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key)
            .unwrap_or_else(|_| unreachable!("HMAC takes any key length"));
        mac.update(b"invite:");
        mac.update(code.as_bytes());
        mac.finalize().into_bytes().to_vec()
    }

    /// The stored hash of a new code typed as `typed`, under the current key.
    pub fn hash(&self, typed: &str) -> Option<Vec<u8>> {
        canonical_invite_code(typed).map(|code| self.keyed(&self.current, &code))
    }

    /// Every stored form a code typed as `typed` may have: under the current key, each previous
    /// key and (while accepted) the unkeyed SHA-256 of before keys. `None` when it cannot be a
    /// code at all.
    pub fn candidates(&self, typed: &str) -> Option<Vec<Vec<u8>>> {
        let code = canonical_invite_code(typed)?;
        let mut all: Vec<Vec<u8>> = std::iter::once(&self.current)
            .chain(&self.previous)
            .map(|key| self.keyed(key, &code))
            .collect();
        if self.accept_unkeyed {
            all.push(unkeyed_invite_code_hash(&code));
        }
        Some(all)
    }
}

/// A code as typed, in the form it was issued: case, spaces and hyphens do not matter, and the
/// look-alikes Crockford maps are read as the symbol they resemble (`O` as `0`, `I` and `L` as
/// `1`). `None` when it cannot be a code at all, or is longer than [`INVITE_CODE_TYPED_MAX`].
/// The invite link's path parameter states the same as a pattern (`http::params::InviteCode`).
pub fn canonical_invite_code(typed: &str) -> Option<String> {
    if typed.len() > INVITE_CODE_TYPED_MAX {
        return None;
    }
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

/// How codes were stored before keys: SHA-256 of the canonical code, which a database copy
/// gives up to anyone who hashes all 2^50 codes. Still read while `INVITE_ACCEPT_UNKEYED` is on.
fn unkeyed_invite_code_hash(code: &str) -> Vec<u8> {
    Sha256::digest(format!("invite:{code}")).to_vec()
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
        let keys = InviteKeys::default();
        let (code, stored) = issue_invite_code(&keys).unwrap();
        assert_eq!(code.len(), INVITE_CODE_LEN);
        assert!(code.bytes().all(|b| INVITE_ALPHABET.contains(&b)));
        assert_eq!(keys.hash(&code), Some(stored.clone()));
        let typed = format!("{}-{}", &code[..5], &code[5..]).to_lowercase();
        assert_eq!(keys.hash(&typed), Some(stored));
        assert_eq!(keys.hash("0000000000"), keys.hash("oOoOo-OoOoO"));
        assert_eq!(keys.hash("1111111111"), keys.hash("IiLl1IiLl1"));
        assert_eq!(keys.hash("UUUUUUUUUU"), None);
        assert_eq!(keys.hash("123"), None);
        assert_eq!(keys.hash("ÄBCDEFGHJK"), None);
    }

    #[test]
    fn a_code_is_stored_under_the_key_not_as_its_plain_hash() {
        let old = InviteKeys::new(vec![1; 32], Vec::new(), false);
        let new = InviteKeys::new(vec![2; 32], vec![vec![1; 32]], false);
        let (code, stored) = issue_invite_code(&old).unwrap();
        assert_ne!(stored, unkeyed_invite_code_hash(&code));
        assert_ne!(new.hash(&code), Some(stored.clone()));
        let candidates = new.candidates(&code).unwrap();
        assert!(
            candidates.contains(&stored),
            "a previous key still finds it"
        );
        assert!(!candidates.contains(&unkeyed_invite_code_hash(&code)));
        let lenient = new.accepting_unkeyed(true);
        assert!(lenient
            .candidates(&code)
            .unwrap()
            .contains(&unkeyed_invite_code_hash(&code)));
    }

    #[test]
    fn a_key_is_hex_or_base64_of_at_least_32_bytes() {
        assert_eq!(InviteKeys::parse_key(&"ab".repeat(32)), Ok(vec![0xab; 32]));
        assert_eq!(
            InviteKeys::parse_key(&STANDARD_B64.encode([7u8; 40])),
            Ok(vec![7; 40])
        );
        assert!(InviteKeys::parse_key(&"ab".repeat(31)).is_err());
        assert!(InviteKeys::parse_key("not a key!").is_err());
    }

    use base64::engine::general_purpose::STANDARD as STANDARD_B64;
}
