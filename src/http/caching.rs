//! HTTP caching and preconditions on the version: `ETag: "v<version>"`, `If-None-Match` → 304,
//! and `If-Match` on writes as the same guard as `expected_version` (412 on a mismatch,
//! RFC 9110 §13.1.1).
//!
//! Tags are `"v<version>-<digest>"`: the version, then a digest of the body ([`Tagged`]). The version is what
//! `If-Match` compares (the guard is on the game's progress, as `expected_version` is); the digest
//! makes the tag change with anything else that changes the body without a new version (a seat
//! renamed in the lobby, the viewer's own hand once the match ends), so `If-None-Match` never
//! keeps a stale copy. A result or an earlier ply, which do not carry the version, are tagged by
//! the digest alone (`"c<digest>"`).
//!
//! The tags are strong: equal tags mean byte-identical bodies for that `Authorization` (hence
//! `Vary: Authorization`). They must be strong anyway, as `If-Match` compares strongly and a weak
//! tag could never pass it.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};
use serde::Serialize;

use crate::problem::{Code, Problem};
use crate::tagged::Tagged;

/// The answer to a read at `version`: the body with its `ETag`, or a bodiless 304 when the
/// client's `If-None-Match` already names it (weak comparison, as RFC 9110 asks for this header).
pub(crate) fn cached<T: Serialize>(request: &HttpRequest, version: i64, body: &T) -> HttpResponse {
    answer(request, &Tagged::at_version(version, body))
}

/// The answer to a read whose body does not name its version, tagged by the body's digest.
pub(crate) fn cached_by_content<T: Serialize>(request: &HttpRequest, body: &T) -> HttpResponse {
    answer(request, &Tagged::by_content(body))
}

/// A body already written out and tagged, or a 304 when `If-None-Match` names its tag.
pub(crate) fn answer(request: &HttpRequest, written: &Tagged) -> HttpResponse {
    let tag = written.tag.as_str();
    let fresh = request
        .headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .any(|listed| listed == "*" || listed.strip_prefix("W/").unwrap_or(listed) == tag);
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, tag))
        .insert_header((header::VARY, "Authorization, Household-Key"));
    if fresh {
        response.finish()
    } else {
        response
            .insert_header(header::ContentType::json())
            .body(written.body.clone())
    }
}

/// The version a write must find, from `If-Match` and the body's `expected_version` together,
/// and whether it came from `If-Match` (then a mismatch is a 412, not a 409).
///
/// `If-Match: *` asks only that the record exist. A tag that is not one of ours (`"v<n>…"`)
/// can never match: 412 at once. Both given and disagreeing is a 400: the request contradicts
/// itself, whatever the stored version.
pub(crate) fn expected_version(
    request: &HttpRequest,
    in_body: Option<i64>,
) -> Result<(Option<i64>, bool), Problem> {
    let listed: Vec<&str> = request
        .headers()
        .get_all(header::IF_MATCH)
        .map(|value| value.to_str().unwrap_or_default())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .filter(|tag| !tag.is_empty())
        .collect();
    if listed.is_empty() || listed.contains(&"*") {
        return Ok((in_body, false));
    }
    let [tag] = listed[..] else {
        return Err(Problem::new(
            Code::InvalidIfMatch,
            "If-Match names one ETag (the version read), or `*`",
        ));
    };
    // `"v12-<digest>"` as given, or `"v12"`: only the version is compared.
    let Some(version) = tag
        .strip_prefix("\"v")
        .and_then(|rest| rest.strip_suffix('"'))
        .map(|rest| rest.split_once('-').map_or(rest, |(version, _)| version))
        .and_then(|digits| digits.parse::<i64>().ok())
    else {
        return Err(precondition_failed(format!(
            "If-Match {tag} is not an ETag this service gave (they look like \"v12-…\")"
        )));
    };
    if in_body.is_some_and(|expected| expected != version) {
        return Err(Problem::new(
            Code::ConflictingPreconditions,
            format!(
                "If-Match names version {version} but expected_version is {}; send one, or the same",
                in_body.unwrap_or_default()
            ),
        ));
    }
    Ok((Some(version), true))
}

fn precondition_failed(detail: String) -> Problem {
    Problem::new(Code::PreconditionFailed, detail)
}

/// A stale version guarded by `If-Match` is a 412 (with the same detail and parameters); by
/// `expected_version` it stays a 409.
pub(crate) fn as_precondition(problem: Problem, by_if_match: bool) -> Problem {
    if !by_if_match || !problem.is(Code::StaleVersion) {
        return problem;
    }
    let mut failed = precondition_failed(problem.detail.clone());
    failed.params = problem.params.clone();
    failed
}
