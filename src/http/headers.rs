//! Headers that keep what a response carries where it belongs: the docs page cannot be framed
//! by another site, and no cache keeps an answer meant for one token holder.

use actix_web::dev::ServiceRequest;
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::Method;

/// The docs page (Swagger UI) shares its origin with the table page, which keeps owner tokens in
/// `localStorage`, so it gets a policy as strict as Swagger UI allows: its own scripts only (it
/// has no inline script), no framing, no other origin. Swagger UI sets `style` attributes and
/// draws its icons from `data:` URLs, hence those two allowances.
const DOCS_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; \
     connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// What no shared or browser cache may keep: an answer for a token holder (a seat's hand, an
/// owner's draw pile), and any answer to a write (created tokens, a redeemed seat's token).
const PRIVATE: &str = "private, no-store";

fn is_docs(path: &str) -> bool {
    path == "/docs" || path.starts_with("/docs/")
}

/// Whether the answer to `request` is for its sender alone: it carries a token or a household
/// key, or it writes, or it names an invite code (whose answer says what the code opens).
fn is_private(request: &ServiceRequest) -> bool {
    request.headers().contains_key(header::AUTHORIZATION)
        || request
            .headers()
            .contains_key(crate::households::HOUSEHOLD_KEY)
        || !matches!(*request.method(), Method::GET | Method::HEAD)
        || request.path().starts_with("/v1/invites/")
}

/// The headers an answer to `request` gets: read before the request is handled.
pub(super) struct Protection {
    docs: bool,
    private: bool,
}

impl Protection {
    pub(super) fn of(request: &ServiceRequest) -> Self {
        Self {
            docs: is_docs(request.path()),
            private: is_private(request),
        }
    }

    pub(super) fn apply(&self, headers: &mut HeaderMap) {
        if self.docs {
            headers.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(DOCS_POLICY),
            );
            // For browsers that predate `frame-ancestors`.
            headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
            headers.insert(
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            );
            headers.insert(
                header::REFERRER_POLICY,
                HeaderValue::from_static("no-referrer"),
            );
        }
        if self.private {
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(PRIVATE));
        }
    }
}
