//! What every request passes before routing: a path that decodes to UTF-8, the per-client rate
//! limit (with the client address taken from trusted proxies' headers), and CORS.

use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};

use actix_cors::Cors;
use actix_web::dev::ServiceRequest;
use actix_web::http::header::{self, HeaderMap};
use actix_web::web;
use governor::clock::{Clock, MonotonicClock};
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter};

use crate::config::{Network, Settings};
use crate::problem::{Code, Problem};

/// Health checks are never limited: a load balancer polling them must not lock itself out.
const UNLIMITED_PATHS: [&str; 2] = ["/healthz", "/readyz"];

/// Token buckets per client address, on the standard monotonic clock.
pub struct RateLimit {
    limiter: RateLimiter<IpAddr, DashMapStateStore<IpAddr>, MonotonicClock>,
    trusted_proxies: Vec<Network>,
    checks: AtomicU64,
}

/// The rate limit, or `None` when `RATE_LIMIT_PER_SECOND` is 0.
pub fn rate_limit(settings: &Settings) -> Option<RateLimit> {
    let quota = Quota::with_period(settings.rate_limit_refill?)?;
    let burst = NonZeroU32::new(settings.rate_limit_burst).unwrap_or(NonZeroU32::MIN);
    Some(RateLimit {
        limiter: RateLimiter::dashmap_with_clock(quota.allow_burst(burst), MonotonicClock),
        trusted_proxies: settings.trusted_proxies.clone(),
        checks: AtomicU64::new(0),
    })
}

impl RateLimit {
    /// `Err(seconds to wait)` when `client` has used up its burst.
    fn check(&self, client: IpAddr) -> Result<(), u64> {
        // Buckets of clients gone quiet are full again: dropping them now and then bounds memory.
        if self.checks.fetch_add(1, Ordering::Relaxed) % 4096 == 4095 {
            self.limiter.retain_recent();
        }
        self.limiter.check_key(&client).map_err(|negative| {
            negative
                .wait_time_from(MonotonicClock.now())
                .as_secs()
                .max(1)
        })
    }

    /// The client a request comes from: its peer, unless the peer is a trusted proxy; then the
    /// rightmost forwarded hop that is not a trusted proxy (hops further left are whatever the
    /// client chose to send, so they cannot be believed).
    fn client(&self, request: &ServiceRequest) -> IpAddr {
        let peer = request
            .peer_addr()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
        client_address(peer, request.headers(), &self.trusted_proxies)
    }
}

pub(crate) fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[Network]) -> IpAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|n| n.contains(ip));
    if !is_trusted(peer) {
        return peer;
    }
    let mut client = peer;
    for hop in forwarded_hops(headers).into_iter().rev() {
        match hop {
            // An obfuscated or unknown hop: the proxy that reported it is all we know.
            None => return client,
            Some(ip) if !is_trusted(ip) => return ip,
            Some(ip) => client = ip,
        }
    }
    client
}

/// The hops of `Forwarded` (RFC 7239) `for=` parameters, or else of `X-Forwarded-For`, left to
/// right; `None` for one that is not an address.
fn forwarded_hops(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let values = |name| {
        headers
            .get_all(name)
            .flat_map(|v| v.to_str().unwrap_or_default().split(','))
            .map(str::trim)
            .collect::<Vec<_>>()
    };
    let forwarded = values(header::FORWARDED);
    if !forwarded.is_empty() {
        return forwarded
            .into_iter()
            .filter_map(|element| {
                element.split(';').find_map(|pair| {
                    let (name, value) = pair.split_once('=')?;
                    name.trim()
                        .eq_ignore_ascii_case("for")
                        .then(|| node_address(value.trim().trim_matches('"')))
                })
            })
            .collect();
    }
    values(header::X_FORWARDED_FOR)
        .into_iter()
        .map(node_address)
        .collect()
}

/// `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1` or `[2001:db8::1]:4711`.
fn node_address(node: &str) -> Option<IpAddr> {
    if let Some(rest) = node.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    node.parse().ok().or_else(|| {
        let (host, _port) = node.rsplit_once(':')?;
        host.parse::<Ipv4Addr>().ok().map(IpAddr::V4)
    })
}

/// A request over its client's rate: a 429 problem with `Retry-After`.
pub(super) fn over_rate(request: &ServiceRequest) -> Option<Problem> {
    let limit = request.app_data::<web::Data<RateLimit>>()?;
    if UNLIMITED_PATHS.contains(&request.path()) {
        return None;
    }
    let wait = limit.check(limit.client(request)).err()?;
    let problem = Problem::new(
        Code::RateLimited,
        format!("too many requests from this address; retry in {wait} s"),
    );
    Some(problem.with_retry_after(u32::try_from(wait).unwrap_or(u32::MAX)))
}

/// A path whose percent-escapes do not decode to UTF-8 (`/v1/players/%FF%FE/stats`): the router
/// would otherwise hand handlers the replacement character, a name nobody sent.
pub(super) fn undecodable_path(request: &ServiceRequest) -> Option<Problem> {
    std::str::from_utf8(&percent_decoded(request.uri().path()))
        .is_err()
        .then(|| {
            Problem::new(
                Code::InvalidPath,
                "the path's percent-escapes do not decode to UTF-8",
            )
        })
}

fn percent_decoded(path: &str) -> Vec<u8> {
    let bytes = path.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16);
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escape = (bytes[i] == b'%')
            .then(|| Some(hex(*bytes.get(i + 1)?)? * 16 + hex(*bytes.get(i + 2)?)?))
            .flatten();
        match escape {
            Some(byte) => {
                decoded.push(byte as u8);
                i += 3;
            }
            None => {
                decoded.push(bytes[i]);
                i += 1;
            }
        }
    }
    decoded
}

/// CORS for the configured origins; with none configured, no CORS headers at all.
pub fn cors(origins: &[String]) -> Cors {
    let mut cors = Cors::default()
        .allow_any_method()
        .allow_any_header()
        .expose_headers(["location", "retry-after"])
        .max_age(3600);
    for origin in origins {
        cors = if origin == "*" {
            cors.allow_any_origin().send_wildcard()
        } else {
            cors.allowed_origin(origin)
        };
    }
    cors
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                HeaderName::from_static(name),
                HeaderValue::from_static(value),
            );
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_client_is_the_rightmost_hop_that_is_not_a_trusted_proxy() {
        let trusted: Vec<Network> = vec!["10.0.0.0/8".parse().unwrap(), "::1".parse().unwrap()];
        let forged = headers(&[("x-forwarded-for", "1.1.1.1, 203.0.113.7, 10.0.0.2")]);
        assert_eq!(
            client_address(ip("10.0.0.1"), &forged, &trusted),
            ip("203.0.113.7")
        );
        // An untrusted peer's headers are ignored.
        assert_eq!(
            client_address(ip("198.51.100.9"), &forged, &trusted),
            ip("198.51.100.9")
        );
        let forwarded = headers(&[(
            "forwarded",
            "for=1.1.1.1, for=\"[2001:db8::7]:4711\";proto=https, For=10.0.0.3:80",
        )]);
        assert_eq!(
            client_address(ip("::1"), &forwarded, &trusted),
            ip("2001:db8::7")
        );
        let unknown = headers(&[("forwarded", "for=unknown, for=10.0.0.3")]);
        assert_eq!(
            client_address(ip("10.0.0.1"), &unknown, &trusted),
            ip("10.0.0.3")
        );
        assert_eq!(
            client_address(ip("10.0.0.1"), &headers(&[]), &trusted),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn percent_escapes_decode_to_bytes() {
        assert_eq!(percent_decoded("/a%20b%zz%F"), b"/a b%zz%F");
        assert!(std::str::from_utf8(&percent_decoded("/v1/players/%FF%FE/stats")).is_err());
        assert!(std::str::from_utf8(&percent_decoded("/v1/players/Z%C3%B6e/stats")).is_ok());
    }
}
