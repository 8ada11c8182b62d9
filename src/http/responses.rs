//! The problem answers the operations document, one per status, each with a real example. Each
//! knows the status it is declared under ([`Answer`]); an operation lists the ones it can give as
//! one type, `Problems<(BadRequest, NotFound, OtherClientError)>`, or one of the named sets below,
//! and the document gets each answer written out in the operation (some client generators do not
//! follow response references). `4XX` and `5XX` stay listed as well for the statuses any request
//! can meet (408, 413, 415, 429, 503).
// The types only describe answers; the handlers build `Problem`s.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::marker::PhantomData;

use utoipa::openapi::header::{Header, HeaderBuilder};
use utoipa::openapi::{OpenApi, RefOr, Response};
use utoipa::{IntoResponses, Modify, ToResponse};

use crate::problem::ProblemDocument;

/// The body, a parameter or a header cannot be read as the operation expects.
#[derive(ToResponse)]
#[response(
    content_type = "application/problem+json",
    example = json!({
        "type": "urn:referee:problem:malformed_body",
        "title": "The body is not JSON of the expected shape",
        "status": 400,
        "detail": "missing field `seats` at line 1 column 24",
        "code": "malformed_body"
    })
)]
pub struct BadRequest(ProblemDocument);

/// The token is missing, malformed or not one of this match's (or sheet's).
#[derive(ToResponse)]
#[response(
    content_type = "application/problem+json",
    example = json!({
        "type": "urn:referee:problem:invalid_token",
        "title": "A valid token is required",
        "status": 401,
        "detail": "the token belongs to no seat of this match",
        "code": "invalid_token"
    })
)]
pub struct Unauthorized(ProblemDocument);

/// The token is valid but may not do this: another seat's move, an owner-only action.
#[derive(ToResponse)]
#[response(
    content_type = "application/problem+json",
    example = json!({
        "type": "urn:referee:problem:wrong_seat",
        "title": "The token belongs to another seat",
        "status": 403,
        "detail": "this token is for seat 0, not seat 1",
        "code": "wrong_seat"
    })
)]
pub struct Forbidden(ProblemDocument);

/// No such match, sheet, ply, game or player.
#[derive(ToResponse)]
#[response(
    content_type = "application/problem+json",
    example = json!({
        "type": "urn:referee:problem:unknown_match",
        "title": "No such match",
        "status": 404,
        "detail": "no hosted match has id 6f1c1f8e-1111-4c5e-9d59-0c8d3b1f2a77 (score sheets are under /v1/sheets)",
        "code": "unknown_match"
    })
)]
pub struct NotFound(ProblemDocument);

/// The match has moved on since the client looked (a stale `expected_version`), or is over.
#[derive(ToResponse)]
#[response(
    content_type = "application/problem+json",
    example = json!({
        "type": "urn:referee:problem:stale_version",
        "title": "The match has moved on",
        "status": 409,
        "detail": "expected version 3 but the match is at version 5; reload it",
        "code": "stale_version",
        "params": {"expected": 3, "current": 5}
    })
)]
pub struct Conflict(ProblemDocument);

/// Well-formed but refused by the rules or the limits: an illegal move (with the rule's code and
/// parameters), options that cannot be played, a name already at the table.
#[derive(ToResponse)]
#[response(
    content_type = "application/problem+json",
    example = json!({
        "type": "urn:referee:problem:not_your_turn",
        "title": "It is not this seat's turn",
        "status": 422,
        "detail": "seat 1 may not act now; seats that may: [0]",
        "code": "not_your_turn",
        "params": {"seat": 1, "to_act": [0]}
    })
)]
pub struct Unprocessable(ProblemDocument);

/// Any other refusal: a slow or oversized body (408, 413), a body that is not JSON (415), too
/// many requests (429, with `Retry-After`).
#[derive(ToResponse)]
#[response(
    content_type = "application/problem+json",
    example = json!({
        "type": "urn:referee:problem:rate_limited",
        "title": "Too many requests",
        "status": 429,
        "detail": "too many requests from this address; retry in 1 s",
        "code": "rate_limited",
        "retry_after": 1
    })
)]
pub struct OtherClientError(ProblemDocument);

/// The service cannot answer now (its database is unreachable or the request timed out there).
#[derive(ToResponse)]
#[response(
    content_type = "application/problem+json",
    example = json!({
        "type": "urn:referee:problem:database_unavailable",
        "title": "Match storage is unavailable",
        "status": 503,
        "detail": "match storage is unreachable; stateless endpoints still work",
        "code": "database_unavailable",
        "retry_after": 2
    })
)]
pub struct Unavailable(ProblemDocument);

/// This match or sheet already has as many live streams on this server as it may hold.
#[derive(ToResponse)]
#[response(
    content_type = "application/problem+json",
    example = json!({
        "type": "urn:referee:problem:too_many_streams",
        "title": "Too many live streams on this match",
        "status": 429,
        "detail": "this match or sheet already has 64 live streams on this server",
        "code": "too_many_streams",
        "retry_after": 30
    })
)]
pub struct TooManyStreams(ProblemDocument);

/// `If-Match` named a version that is no longer current (or a tag this service never gave).
#[derive(ToResponse)]
#[response(
    content_type = "application/problem+json",
    example = json!({
        "type": "urn:referee:problem:precondition_failed",
        "title": "The If-Match precondition failed",
        "status": 412,
        "detail": "expected version 3 but the match is at version 5; reload it",
        "code": "precondition_failed",
        "params": {"expected": 3, "current": 5}
    })
)]
pub struct PreconditionFailed(ProblemDocument);

/// A problem answer and the status (or range) an operation declares it under.
pub trait Answer: ToResponse<'static> {
    const STATUS: &'static str;
}

macro_rules! statuses {
    ($($answer:ident = $status:literal),* $(,)?) => {
        $(impl Answer for $answer {
            const STATUS: &'static str = $status;
        })*
    };
}

statuses! {
    BadRequest = "400",
    Unauthorized = "401",
    Forbidden = "403",
    NotFound = "404",
    Conflict = "409",
    PreconditionFailed = "412",
    Unprocessable = "422",
    TooManyStreams = "429",
    OtherClientError = "4XX",
    Unavailable = "5XX",
}

/// The problem answers of an operation, a tuple of [`Answer`]s, each written out in full.
pub struct Problems<T>(PhantomData<T>);

macro_rules! problem_sets {
    ($(($($answer:ident),+))*) => {
        $(impl<$($answer: Answer),+> IntoResponses for Problems<($($answer,)+)> {
            fn responses() -> BTreeMap<String, RefOr<Response>> {
                BTreeMap::from([$(($answer::STATUS.to_owned(), $answer::response().1)),+])
            }
        })*
    };
}

problem_sets! {
    (A) (A, B) (A, B, C) (A, B, C, D) (A, B, C, D, E) (A, B, C, D, E, F) (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H) (A, B, C, D, E, F, G, H, I)
}

/// What a stateless operation can refuse: every answer comes from the request alone.
pub type StatelessProblems = Problems<(BadRequest, Unprocessable, OtherClientError)>;

/// Creating a match or a sheet.
pub type CreateProblems = Problems<(BadRequest, Unprocessable, OtherClientError, Unavailable)>;

/// A listing or a statistic over stored records, read by query.
pub type QueryProblems = Problems<(BadRequest, OtherClientError, Unavailable)>;

/// A read over stored records whose well-formed query a rule may refuse (422): a head-to-head of
/// one player with themself.
pub type RuledQueryProblems = Problems<(BadRequest, Unprocessable, OtherClientError, Unavailable)>;

/// A record anyone may read: a sheet, an invite, an export of a sheet.
pub type PublicReadProblems = Problems<(BadRequest, NotFound, OtherClientError, Unavailable)>;

/// A record anyone may act on, which may not be in the state asked: an invite already redeemed,
/// a match or sheet not yet over.
pub type PublicStateProblems = Problems<(
    BadRequest,
    NotFound,
    Conflict,
    OtherClientError,
    Unavailable,
)>;

/// A match read with an optional token.
pub type ReadProblems = Problems<(
    BadRequest,
    Unauthorized,
    NotFound,
    OtherClientError,
    Unavailable,
)>;

/// A move, a chance report or a sheet entry: version-checked writes under a token.
pub type WriteProblems = Problems<(
    BadRequest,
    Unauthorized,
    Forbidden,
    NotFound,
    Conflict,
    PreconditionFailed,
    Unprocessable,
    OtherClientError,
    Unavailable,
)>;

/// The owner's actions on a seat or a match that take no body.
pub type OwnerProblems = Problems<(
    Unauthorized,
    Forbidden,
    NotFound,
    Conflict,
    OtherClientError,
    Unavailable,
)>;

/// A household's write with its owner key on a body a rule may refuse: a bring-in.
pub type HouseholdWriteProblems = Problems<(
    BadRequest,
    Unauthorized,
    Forbidden,
    NotFound,
    Unprocessable,
    OtherClientError,
    Unavailable,
)>;

/// A cached read answered from the client's copy. An operation that lists it is a cached read:
/// [`CachedReads`] also gives its 200 answer the `ETag` and `Vary` headers.
#[derive(IntoResponses)]
#[response(
    status = 304,
    description = "Not modified: the `ETag` in If-None-Match is current",
    headers(("ETag" = String))
)]
pub struct NotModified;

/// The headers of a cached read's 200 answer, on every operation that lists [`NotModified`]. A
/// typed [`Modify`], as a response's header descriptions in utoipa's attributes take only literal
/// text.
pub struct CachedReads;

impl Modify for CachedReads {
    fn modify(&self, openapi: &mut OpenApi) {
        let operations = openapi
            .paths
            .paths
            .values_mut()
            .flat_map(super::spec::operations_mut);
        for operation in operations {
            let answers = &mut operation.responses.responses;
            if !answers.contains_key("304") {
                continue;
            }
            let Some(RefOr::T(fresh)) = answers.get_mut("200") else {
                continue;
            };
            fresh.headers.insert(
                "ETag".to_owned(),
                HeaderBuilder::new()
                    .description(Some(
                        "The version and a digest of the body (`\"v12-…\"`), or the digest alone \
                         (`\"c…\"`); send it back in If-None-Match, or in If-Match on a write",
                    ))
                    .build(),
            );
            fresh.headers.insert("Vary".to_owned(), Header::default());
        }
    }
}
