//! Liveness and readiness probes, and the drain that fails readiness before a shutdown.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::ServiceRequest;
use actix_web::{get, web, HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::problem::{Code, Problem, ProblemDocument};
use crate::store::Store;

#[derive(Serialize, ToSchema)]
pub struct Health {
    #[schema(example = "ok")]
    pub status: String,
}

/// Whether this instance was told to stop and is draining: it still serves what arrives, but
/// `/readyz` fails so that a load balancer sends nothing new.
#[derive(Clone, Default)]
pub struct Drain {
    draining: Arc<AtomicBool>,
    /// How long the drain lasts (sent as `Retry-After` by `/readyz`).
    period: Duration,
}

impl Drain {
    pub fn new(period: Duration) -> Self {
        Self {
            draining: Arc::default(),
            period,
        }
    }

    pub fn start(&self) {
        self.draining.store(true, Ordering::Release);
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }

    fn problem(&self) -> Problem {
        Problem::new(
            Code::Draining,
            "this instance is shutting down and takes no new work; other instances do",
        )
        .with_retry_after(u32::try_from(self.period.as_secs().max(1)).unwrap_or(u32::MAX))
    }
}

/// Whether the instance drains: then every answer closes its connection, so that a client
/// holding a keep-alive connection to this instance opens its next one elsewhere.
pub(super) fn draining(request: &ServiceRequest) -> bool {
    request
        .app_data::<web::Data<Drain>>()
        .is_some_and(|drain| drain.is_draining())
}

/// The process is up (says nothing about the database).
#[utoipa::path(tag = "operations", responses((status = 200, body = Health)))]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok".into(),
    })
}

/// The database is reachable, migrated and takes writes (not a standby, not read-only): match
/// endpoints will work. After SIGTERM, while the instance drains before stopping, it answers 503
/// `draining` (requests are still served: a load balancer should just stop sending new ones).
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, body = Health),
        (status = 503, body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[get("/readyz")]
pub async fn readyz(store: web::Data<Store>, drain: web::Data<Drain>) -> HttpResponse {
    // Not ready is this probe's answer, not a failure of the request: it is sent as an answer,
    // so the request log does not report it as an error at every probe of a start or a drain.
    let not_ready = if drain.is_draining() {
        drain.problem()
    } else {
        match store.ping().await {
            Ok(()) => {
                return HttpResponse::Ok().json(Health {
                    status: "ready".into(),
                })
            }
            Err(error) => Problem::from(error),
        }
    };
    not_ready.error_response()
}
