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
    "title": "Card not in hand",
    "status": 422,
    "detail": "you hold no bell card",
    "code": "card_not_in_hand",
    "params": {"card": "bell"}
}))]
pub struct ProblemDocument {
    /// `urn:referee:problem:<code>`.
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the kind of problem: one per `code`, stable, never about this occurrence.
    pub title: String,
    pub status: u16,
    /// What went wrong this time, for people.
    pub detail: String,
    /// Stable machine-readable code; clients switch on this.
    pub code: String,
    /// The parameters of a rule violation (e.g. the card, the hand size), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<std::collections::BTreeMap<String, Value>>)]
    pub params: Option<Value>,
    /// Seconds to wait before retrying (also sent as the `Retry-After` header).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u32>,
}

/// The title of each problem type (RFC 9457: a title belongs to the type, not the occurrence).
/// A code not listed here (a game's rule violation, say `card_not_in_hand`) is titled by its own
/// words ("Card not in hand"), so no two types ever share a title. Titles are part of the
/// contract: change the wording, never the meaning.
pub const TITLES: &[(&str, &str)] = &[
    // 400: the request cannot be read.
    (
        "malformed_body",
        "The body is not JSON of the expected shape",
    ),
    ("unsupported_charset", "The body must be UTF-8"),
    ("invalid_path", "The path is not valid UTF-8"),
    ("invalid_move", "The move is not one of the game's moves"),
    ("invalid_options", "The game options are not valid"),
    ("invalid_state", "The state is not one of the game's states"),
    ("invalid_tally", "The tally is not valid"),
    (
        "invalid_chance",
        "The chance outcome is not one of the game's outcomes",
    ),
    ("invalid_seed", "The seed is not valid"),
    ("invalid_log", "The log does not replay as written"),
    ("invalid_query", "The query string is not valid"),
    ("invalid_last_event_id", "The resume point is not a version"),
    ("invalid_if_match", "The If-Match header is not valid"),
    (
        "conflicting_preconditions",
        "If-Match and expected_version disagree",
    ),
    ("invalid_limit", "The page size is out of range"),
    ("invalid_cursor", "The cursor is not valid"),
    ("invalid_player", "The player filter is not valid"),
    ("invalid_invite_code", "The invite code is not valid"),
    (
        "invalid_idempotency_key",
        "The Idempotency-Key header is not valid",
    ),
    // 401 and 403: who is asking.
    ("invalid_token", "A valid token is required"),
    ("wrong_seat", "The token belongs to another seat"),
    ("owner_only", "Only the owner token may do this"),
    (
        "not_your_chance",
        "This token may not report that chance outcome",
    ),
    (
        "not_the_reporter",
        "Only its reporter or the owner may correct that outcome",
    ),
    // 404 and 405: what is asked for.
    ("not_found", "No such resource"),
    ("unknown_game", "No such game"),
    ("unknown_match", "No such match"),
    ("unknown_sheet", "No such score sheet"),
    ("unknown_ply", "No such ply"),
    ("unknown_invite", "No such invite"),
    ("method_not_allowed", "Method not allowed"),
    // 408, 413, 415, 429: the request's speed, size, type and rate.
    ("request_timeout", "The request was not received in time"),
    ("body_too_large", "The request body is too large"),
    (
        "unsupported_media_type",
        "The body must be application/json",
    ),
    ("rate_limited", "Too many requests"),
    ("too_many_streams", "Too many live streams on this match"),
    (
        "client_stream_limit",
        "This client holds all the live streams it may",
    ),
    (
        "token_stream_limit",
        "This token holds all the live streams it may",
    ),
    (
        "resume_point_ahead",
        "The resume point is past the current version",
    ),
    // 409: the state has moved on.
    ("stale_version", "The match has moved on"),
    ("no_round", "The sheet has no round standing"),
    // 412: a precondition header.
    ("precondition_failed", "The If-Match precondition failed"),
    ("match_finished", "The match is over"),
    ("match_not_finished", "The match is not over yet"),
    ("match_abandoned", "The match was abandoned"),
    ("match_too_long", "The match has reached its length limit"),
    ("invite_redeemed", "The invite was already used"),
    ("play_started", "Play has started"),
    ("rematch_exists", "The rematch was already made"),
    ("server_randomness", "The match draws its own chance"),
    ("nothing_to_take_back", "The seat has no move to take back"),
    (
        "information_revealed",
        "The move showed the table what was hidden",
    ),
    (
        "another_seat_acted",
        "Another seat has acted since the move",
    ),
    ("chance_since", "A chance event has happened since the move"),
    ("nothing_to_correct", "No chance outcome stands to correct"),
    ("moved_since", "A move has been made since the outcome"),
    (
        "rules_version_unsupported",
        "The match was played under other rules",
    ),
    // 422: well-formed, but refused.
    ("game_over", "The game is over"),
    ("chance_pending", "A chance outcome must be reported first"),
    ("no_chance_pending", "No chance outcome is awaited"),
    ("not_your_turn", "It is not this seat's turn"),
    ("inconsistent_state", "The state contradicts itself"),
    ("player_count", "The number of players is not allowed"),
    ("unknown_seat", "No such seat"),
    ("seat_required", "The seat to act for is missing"),
    ("invalid_player_name", "The player name is not allowed"),
    ("duplicate_player", "A player is named twice"),
    ("limit_exceeded", "A size limit is reached"),
    ("invalid_note", "The note is not allowed"),
    ("unknown_entry", "No such score sheet entry"),
    ("entry_superseded", "The entry was already corrected"),
    ("same_outcome", "The correction repeats the outcome"),
    ("entry_not_a_round", "The entry is not a round"),
    ("note_required", "A note is required"),
    ("same_name", "The seat already has this name"),
    (
        "early_finish_not_allowed",
        "This game's sheet cannot be finished early",
    ),
    (
        "idempotency_key_reused",
        "The Idempotency-Key was used for another request",
    ),
    // 5xx.
    ("database_unavailable", "Match storage is unavailable"),
    ("database_busy", "Match storage is busy"),
    ("draining", "This instance is shutting down"),
    (
        "stream_capacity",
        "This server holds all the live streams it can",
    ),
    ("internal", "Internal error"),
];

/// The title of the problem type `code`: from [`TITLES`], else the code in words.
pub fn title(code: &str) -> String {
    if let Some((_, title)) = TITLES.iter().find(|(c, _)| *c == code) {
        return (*title).to_owned();
    }
    let words = code.replace('_', " ");
    let mut chars = words.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

impl Problem {
    pub fn new(status: StatusCode, code: &str, detail: impl Into<String>) -> Self {
        let title = title(code);
        Self(Box::new(ProblemDocument {
            kind: format!("urn:referee:problem:{code}"),
            title,
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

impl From<crate::store::moves::UnknownMatch> for Problem {
    fn from(unknown: crate::store::moves::UnknownMatch) -> Self {
        Problem::not_found(
            "unknown_match",
            format!(
                "no hosted match has id {} (score sheets are under /v1/sheets)",
                unknown.0
            ),
        )
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
            E::Mend(refusal) if refusal.is_forbidden() => StatusCode::FORBIDDEN,
            E::Mend(crate::referee::MendRefusal::SameOutcome { .. }) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            E::Mend(_) => StatusCode::CONFLICT,
            E::Common(crate::games::kit::refusal::Common::GameOver)
            | E::Violation { stale: true, .. } => StatusCode::CONFLICT,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        };
        Problem::new(status, error.code(), error.to_string()).with_params(error.params())
    }
}
