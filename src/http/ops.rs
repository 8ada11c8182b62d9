//! Liveness and readiness probes.

use actix_web::{get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::problem::{Problem, ProblemDocument};
use crate::store::Store;

#[derive(Serialize, ToSchema)]
pub struct Health {
    #[schema(example = "ok")]
    pub status: String,
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
/// endpoints will work.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, body = Health),
        (status = 503, body = ProblemDocument, content_type = "application/problem+json"),
    )
)]
#[get("/readyz")]
pub async fn readyz(store: web::Data<Store>) -> Result<HttpResponse, Problem> {
    store.ping().await?;
    Ok(HttpResponse::Ok().json(Health {
        status: "ready".into(),
    }))
}
