//! An answer written out once: its JSON bytes and the strong `ETag` naming them. A read answered
//! from a live match keeps its answer there, so that the same version read again by the same
//! audience (a spectator's poll, a second spectator) is sent as it is, its view neither built nor
//! written out again, and an `If-None-Match` of it costs no work at all. How the tags are used:
//! [`crate::http::caching`].

use actix_web::web::Bytes;
use serde::Serialize;

/// A JSON body and its tag: `"v<version>-<digest>"`, or `"c<digest>"` for a body that does not
/// name its version (the digest: the first 12 bytes of the body's SHA-256, in hex).
#[derive(Debug, Clone)]
pub struct Tagged {
    pub tag: String,
    pub body: Bytes,
}

impl Tagged {
    /// `body` at `version`, tagged by both.
    pub fn at_version<T: Serialize>(version: i64, body: &T) -> Self {
        let (body, digest) = serialised(body);
        Self {
            tag: format!("\"v{version}-{digest}\""),
            body,
        }
    }

    /// A body that does not carry its version, tagged by its digest alone.
    pub fn by_content<T: Serialize>(body: &T) -> Self {
        let (body, digest) = serialised(body);
        Self {
            tag: format!("\"c{digest}\""),
            body,
        }
    }

    /// The bytes it holds.
    pub fn size(&self) -> usize {
        self.body.len() + self.tag.len()
    }
}

/// A body serialised once, for its digest and to be sent.
fn serialised<T: Serialize>(body: &T) -> (Bytes, String) {
    // Serialising our own answer types cannot fail.
    let bytes = serde_json::to_vec(body).unwrap_or_default();
    let digest = hex::encode(&<sha2::Sha256 as sha2::Digest>::digest(&bytes)[..12]);
    (Bytes::from(bytes), digest)
}
