//! The request log's root span: tracing-actix-web's fields, with the request target redacted
//! where it carries a secret. An invite code is the whole credential for a seat, and it is in
//! the path (`/v1/invites/<code>`, `/v1/invites/<code>/redeem`): the default span prints the
//! target with every event of the request, at every level, refusals included.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::{Error, HttpMessage};
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RequestId, RootSpanBuilder};

/// Stands in for a redacted path segment.
const REDACTED: &str = "…";

pub struct RedactedRootSpan;

impl RootSpanBuilder for RedactedRootSpan {
    fn on_request_start(request: &ServiceRequest) -> Span {
        // The fields cost more than many a handler (the route is matched again, the target
        // copied): none of it when the log would drop the span anyway (RUST_LOG=warn).
        if !tracing::span_enabled!(tracing::Level::INFO) {
            return Span::none();
        }
        let route = request.match_pattern().unwrap_or_else(|| "default".into());
        let method = request.method().as_str().to_owned();
        let user_agent = request
            .headers()
            .get("User-Agent")
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        let connection = request.connection_info();
        let request_id = request
            .extensions()
            .get::<RequestId>()
            .map(ToString::to_string)
            .unwrap_or_default();
        let target = redacted_target(request.uri().path_and_query().map_or("", |p| p.as_str()));
        tracing::info_span!(
            "HTTP request",
            http.method = %method,
            http.route = %route,
            http.flavor = ?request.version(),
            http.scheme = %connection.scheme(),
            http.host = %connection.host(),
            http.client_ip = %connection.realip_remote_addr().unwrap_or(""),
            http.user_agent = %user_agent,
            http.target = %target,
            http.status_code = tracing::field::Empty,
            otel.name = %format!("{method} {route}"),
            otel.kind = "server",
            otel.status_code = tracing::field::Empty,
            request_id = %request_id,
            exception.message = tracing::field::Empty,
            exception.details = tracing::field::Empty,
        )
    }

    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, Error>) {
        DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}

/// The target with the segment after any `invites` segment (in any case, percent-encoded or
/// not) replaced, and the query dropped after it, so a code never reaches the log however the
/// request spelled its path.
pub fn redacted_target(target: &str) -> String {
    let (path, query) = target
        .split_once('?')
        .map_or((target, None), |(p, q)| (p, Some(q)));
    let mut out = Vec::new();
    let mut secret_next = false;
    let mut redacted = false;
    for segment in path.split('/') {
        if secret_next && !segment.is_empty() {
            out.push(REDACTED);
            secret_next = false;
            redacted = true;
            continue;
        }
        let decoded = percent_decoded(segment).to_ascii_lowercase();
        if decoded != "invites" && decoded.contains("invites") {
            // `invites%2F<code>` and the like: one segment that may hold a code.
            out.push(REDACTED);
            redacted = true;
            continue;
        }
        secret_next = decoded == "invites" || secret_next && segment.is_empty();
        out.push(segment);
    }
    let mut path = out.join("/");
    match query {
        Some(_) if redacted => path.push_str("?…"),
        Some(query) => {
            path.push('?');
            path.push_str(query);
        }
        None => {}
    }
    path
}

fn percent_decoded(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::redacted_target;

    #[test]
    fn an_invite_code_never_stays_in_a_logged_target() {
        assert_eq!(redacted_target("/v1/invites/7KQ2M9XW4D"), "/v1/invites/…");
        assert_eq!(
            redacted_target("/v1/invites/7kq2m-9xw4d/redeem"),
            "/v1/invites/…/redeem"
        );
        assert_eq!(redacted_target("/v1/invites//7KQ2M9XW4D"), "/v1/invites//…");
        assert_eq!(
            redacted_target("/V1/Invit%65s/7KQ2M9XW4D?x=1"),
            "/V1/Invit%65s/…?…"
        );
        assert_eq!(
            redacted_target("/v1/matches?limit=5"),
            "/v1/matches?limit=5"
        );
        assert_eq!(redacted_target("/v1/invites"), "/v1/invites");
        assert_eq!(redacted_target("/v1/invites%2F7KQ2M9XW4D"), "/v1/…");
    }
}
