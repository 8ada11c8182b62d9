//! Rate limiting per client IP and CORS, both set from the environment.

use actix_cors::Cors;
use actix_governor::governor::clock::{Clock, DefaultClock, QuantaInstant};
use actix_governor::governor::middleware::NoOpMiddleware;
use actix_governor::governor::NotUntil;
use actix_governor::{
    Governor, GovernorConfig, GovernorConfigBuilder, KeyExtractor, PeerIpKeyExtractor,
    SimpleKeyExtractionError,
};
use actix_web::dev::ServiceRequest;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, HttpResponseBuilder, ResponseError};

use crate::config::Settings;
use crate::problem::Problem;

/// Client IPs as keys (as actix-governor's own extractor), with a problem+json 429.
#[derive(Clone)]
pub struct ClientIp;

impl KeyExtractor for ClientIp {
    type Key = std::net::IpAddr;
    type KeyExtractionError = SimpleKeyExtractionError<&'static str>;

    fn extract(&self, request: &ServiceRequest) -> Result<Self::Key, Self::KeyExtractionError> {
        PeerIpKeyExtractor.extract(request)
    }

    fn exceed_rate_limit_response(
        &self,
        negative: &NotUntil<QuantaInstant>,
        _response: HttpResponseBuilder,
    ) -> HttpResponse {
        let wait = negative
            .wait_time_from(DefaultClock::default().now())
            .as_secs()
            .max(1);
        let mut problem = Problem::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many requests from this address; retry in {wait} s"),
        );
        problem.retry_after = Some(wait as u32);
        problem.error_response()
    }
}

/// The rate limiter, or `None` when `RATE_LIMIT_PER_SECOND` is 0.
pub fn rate_limiter(settings: &Settings) -> Option<GovernorConfig<ClientIp, NoOpMiddleware>> {
    if settings.rate_limit_per_second == 0 {
        return None;
    }
    GovernorConfigBuilder::default()
        .requests_per_second(settings.rate_limit_per_second.into())
        .burst_size(settings.rate_limit_burst.max(1))
        .key_extractor(ClientIp)
        .finish()
}

pub fn governor(
    config: &GovernorConfig<ClientIp, NoOpMiddleware>,
) -> Governor<ClientIp, NoOpMiddleware> {
    Governor::new(config)
}

/// Stands in where limiting is off (the middleware is then skipped, but must exist).
// Startup: the builder's default quota is non-zero, so it always finishes.
#[allow(clippy::expect_used)]
pub static UNLIMITED: std::sync::LazyLock<GovernorConfig<ClientIp, NoOpMiddleware>> =
    std::sync::LazyLock::new(|| {
        GovernorConfigBuilder::default()
            .key_extractor(ClientIp)
            .finish()
            .expect("the default quota is valid")
    });

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
