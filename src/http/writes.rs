//! What every guarded write to a match or a sheet reads from its request before the service
//! runs: the bearer token it must carry, its `Idempotency-Key`, and the version it expects
//! (`If-Match` and the body's `expected_version` together). A stale version asked for by
//! `If-Match` is answered 412, by the body 409.

use actix_web::{web, HttpRequest};

use super::body::Body;
use super::caching::{as_precondition, expected_version};
use super::{idempotency_key, required_bearer};
use crate::matches::{CorrectChance, SubmitChance, SubmitMove, TakeBack};
use crate::problem::Problem;
use crate::sheets::{AppendEntry, FinishSheet, RemoveLastRound, RenameSheetPlayer};

/// Who writes, and under which key a retry is recognised.
pub(crate) struct Writer {
    pub token: String,
    pub idempotency_key: Option<String>,
}

/// A write's body, which may name the version it expects.
pub(crate) trait Expecting {
    fn expected_version(&mut self) -> &mut Option<i64>;
}

macro_rules! expecting {
    ($($body:ty),*) => {$(
        impl Expecting for $body {
            fn expected_version(&mut self) -> &mut Option<i64> {
                &mut self.expected_version
            }
        }
    )*};
}
expecting!(
    SubmitMove,
    SubmitChance,
    TakeBack,
    CorrectChance,
    AppendEntry,
    RemoveLastRound,
    RenameSheetPlayer,
    FinishSheet
);

/// Runs `write` with the request's writer and its body, the expected version settled from both
/// places it may be given.
pub(crate) async fn guarded<B: Expecting, T>(
    request: &HttpRequest,
    body: Body<B>,
    write: impl AsyncFnOnce(Writer, B) -> Result<T, Problem>,
) -> Result<web::Json<T>, Problem> {
    let token = required_bearer(request)?;
    let mut body = body.into_inner();
    let (expected, by_if_match) = expected_version(request, *body.expected_version())?;
    *body.expected_version() = expected;
    let writer = Writer {
        token,
        idempotency_key: idempotency_key(request)?,
    };
    write(writer, body)
        .await
        .map(web::Json)
        .map_err(|problem| as_precondition(problem, by_if_match))
}
