//! The one middleware of our own that every request passes: it refuses what must not reach a
//! handler (a client over its rate, a path that does not decode) and gives every answer its
//! headers (no caching of what is meant for one token holder, the docs page's policy, and
//! `Connection: close` while the instance drains). One layer, not four: each `from_fn` layer
//! costs a boxed future and a service call per request, and four of them took a tenth of a
//! stateless check's throughput (docs/benchmarks.md, "Issue 39").

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::ConnectionType;
use actix_web::middleware::Next;
use actix_web::ResponseError;

use super::headers::Protection;
use super::{limits, ops};

pub(super) async fn gate(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let protection = Protection::of(&request);
    let draining = ops::draining(&request);
    let refusal = limits::undecodable_path(&request).or_else(|| limits::over_rate(&request));
    let mut response = match refusal {
        Some(problem) => request
            .into_response(problem.error_response())
            .map_into_right_body(),
        None => next.call(request).await?.map_into_left_body(),
    };
    protection.apply(response.headers_mut());
    if draining {
        response
            .response_mut()
            .head_mut()
            .set_connection_type(ConnectionType::Close);
    }
    Ok(response)
}
