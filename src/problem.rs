//! The one error type of the HTTP API, rendered as RFC 9457 `application/problem+json`.
//!
//! Every failure a handler can meet becomes a [`Problem`] with a stable snake_case `code`; rule
//! violations also carry their parameters. Internal causes are logged, never sent.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// An error answer: a boxed [`ProblemDocument`], so `Result<T, Problem>` stays small.
#[derive(Debug, Clone)]
pub struct Problem(Box<ProblemDocument>);

impl std::ops::Deref for Problem {
    type Target = ProblemDocument;
    fn deref(&self) -> &ProblemDocument {
        &self.0
    }
}

impl std::ops::DerefMut for Problem {
    fn deref_mut(&mut self) -> &mut ProblemDocument {
        &mut self.0
    }
}

/// An RFC 9457 problem document.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = Problem)]
#[schema(example = json!({
    "type": "urn:referee:problem:card_not_in_hand",
    "title": "The move breaks a rule of the game",
    "status": 422,
    "detail": "you hold no bell card",
    "code": "card_not_in_hand",
    "params": {"card": "bell"}
}))]
pub struct ProblemDocument {
    /// `urn:referee:problem:<code>`.
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the kind of problem.
    pub title: String,
    pub status: u16,
    /// What went wrong this time, for people.
    pub detail: String,
    /// Stable machine-readable code; clients switch on this.
    pub code: String,
    /// The parameters of a rule violation (e.g. the card, the hand size), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub params: Option<Value>,
    /// Seconds to wait before retrying (also sent as the `Retry-After` header).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u32>,
}

impl Problem {
    pub fn new(status: StatusCode, code: &str, detail: impl Into<String>) -> Self {
        let title = match status.as_u16() {
            400 => "The request is malformed",
            401 => "A valid token is required",
            403 => "The token does not allow this",
            404 => "Not found",
            405 => "Method not allowed",
            409 => "The request conflicts with the current state",
            413 => "The request body is too large",
            415 => "Unsupported media type",
            422 => "The move breaks a rule of the game",
            503 => "Temporarily unavailable",
            _ => "Internal error",
        };
        Self(Box::new(ProblemDocument {
            kind: format!("urn:referee:problem:{code}"),
            title: title.to_owned(),
            status: status.as_u16(),
            detail: detail.into(),
            code: code.to_owned(),
            params: None,
            retry_after: None,
        }))
    }

    pub fn bad_request(code: &str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, detail)
    }
    pub fn not_found(code: &str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, detail)
    }
    pub fn unauthorized(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "invalid_token", detail)
    }
    pub fn forbidden(code: &str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, detail)
    }
    pub fn conflict(code: &str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, detail)
    }
    pub fn unprocessable(code: &str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, detail)
    }
    /// The database cannot be reached: try again shortly.
    pub fn unavailable() -> Self {
        let mut problem = Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "database_unavailable",
            "match storage is unreachable; stateless endpoints still work",
        );
        problem.retry_after = Some(2);
        problem
    }
    /// The database gave up waiting for a lock or on a slow statement, or lost a conflict:
    /// try again shortly.
    pub fn busy() -> Self {
        let mut problem = Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "database_busy",
            "match storage is busy (a lock or statement timed out); retry shortly",
        );
        problem.retry_after = Some(1);
        problem
    }
    /// Something that should not happen: the cause is logged, the client gets no internals.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the server failed to answer; the error was logged",
        )
    }

    pub fn with_params(mut self, params: Map<String, Value>) -> Self {
        if !params.is_empty() {
            self.params = Some(Value::Object(params));
        }
        self
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code, self.detail)
    }
}

impl ResponseError for Problem {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, "application/problem+json"));
        if let Some(seconds) = self.retry_after {
            response.insert_header((header::RETRY_AFTER, seconds.to_string()));
        }
        response.body(serde_json::to_string(&*self.0).unwrap_or_default())
    }
}

impl From<crate::store::StoreError> for Problem {
    fn from(error: crate::store::StoreError) -> Self {
        use crate::store::StoreError;
        match error {
            StoreError::Unavailable(cause) => {
                tracing::warn!(%cause, "database unavailable");
                Problem::unavailable()
            }
            StoreError::Busy(cause) => {
                tracing::warn!(%cause, "database busy");
                Problem::busy()
            }
            StoreError::Internal(cause) => Problem::internal(cause),
        }
    }
}

impl From<diesel::result::Error> for Problem {
    fn from(error: diesel::result::Error) -> Self {
        crate::store::StoreError::from(error).into()
    }
}

impl From<crate::referee::RefereeError> for Problem {
    fn from(error: crate::referee::RefereeError) -> Self {
        use crate::referee::RefereeError as E;
        let status = match &error {
            E::Malformed { .. } => StatusCode::BAD_REQUEST,
            E::GameOver | E::Violation { stale: true, .. } => StatusCode::CONFLICT,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        };
        Problem::new(status, error.code(), error.to_string()).with_params(error.params())
    }
}
