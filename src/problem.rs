//! The one error type of the HTTP API, rendered as RFC 9457 `application/problem+json`.
//!
//! Every failure a handler can meet becomes a [`Problem`] with a stable snake_case `code`; rule
//! violations also carry their parameters. Internal causes are logged, never sent.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::vocabulary::MatchKind;

/// An error answer: a boxed [`ProblemDocument`] (so `Result<T, Problem>` stays small) and, when
/// the service itself sends this kind of problem, its [`Code`].
#[derive(Debug, Clone)]
pub struct Problem {
    document: Box<ProblemDocument>,
    known: Option<Code>,
}

impl std::ops::Deref for Problem {
    type Target = ProblemDocument;
    fn deref(&self) -> &ProblemDocument {
        &self.document
    }
}

impl std::ops::DerefMut for Problem {
    fn deref_mut(&mut self) -> &mut ProblemDocument {
        &mut self.document
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

/// Declares [`Code`]: each variant with its wire code, its HTTP status and its title.
macro_rules! problem_codes {
    ($($(#[$doc:meta])* $variant:ident = $code:literal, $status:ident, $title:literal;)*) => {
        /// Every problem the service itself sends, with its status and title (RFC 9457: a title
        /// belongs to the type, not the occurrence). Titles are part of the contract: change the
        /// wording, never the meaning. A game's own rule refusals (`card_not_in_hand`...) are not
        /// here: they come from the rules core as refusals with their own codes.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        impl Code {
            /// Every code, in the order of the table.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The snake_case code clients switch on.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $code,)*
                }
            }

            /// The status a problem of this code is sent with.
            pub fn status(self) -> StatusCode {
                match self {
                    $(Code::$variant => StatusCode::$status,)*
                }
            }

            pub fn title(self) -> &'static str {
                match self {
                    $(Code::$variant => $title,)*
                }
            }

            /// The code named `code`, if the service itself sends it.
            pub fn named(code: &str) -> Option<Code> {
                match code {
                    $($code => Some(Code::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

problem_codes! {
    // 400: the request cannot be read.
    MalformedBody = "malformed_body", BAD_REQUEST, "The body is not JSON of the expected shape";
    UnsupportedCharset = "unsupported_charset", BAD_REQUEST, "The body must be UTF-8";
    InvalidPath = "invalid_path", BAD_REQUEST, "The path is not valid UTF-8";
    InvalidMove = "invalid_move", BAD_REQUEST, "The move is not one of the game's moves";
    InvalidOptions = "invalid_options", BAD_REQUEST, "The game options are not valid";
    InvalidState = "invalid_state", BAD_REQUEST, "The state is not one of the game's states";
    InvalidTally = "invalid_tally", UNPROCESSABLE_ENTITY, "The tally is not valid";
    InvalidChance = "invalid_chance", BAD_REQUEST, "The chance outcome is not one of the game's outcomes";
    InvalidSeed = "invalid_seed", BAD_REQUEST, "The seed is not valid";
    InvalidLog = "invalid_log", BAD_REQUEST, "The log does not replay as written";
    InvalidQuery = "invalid_query", BAD_REQUEST, "The query string is not valid";
    InvalidLastEventId = "invalid_last_event_id", BAD_REQUEST, "The resume point is not a version";
    InvalidIfMatch = "invalid_if_match", BAD_REQUEST, "The If-Match header is not valid";
    ConflictingPreconditions = "conflicting_preconditions", BAD_REQUEST, "If-Match and expected_version disagree";
    InvalidLimit = "invalid_limit", BAD_REQUEST, "The page size is out of range";
    InvalidCursor = "invalid_cursor", BAD_REQUEST, "The cursor is not valid";
    InvalidPlayer = "invalid_player", BAD_REQUEST, "The player filter is not valid";
    InvalidInviteCode = "invalid_invite_code", BAD_REQUEST, "The invite code is not valid";
    InvalidIdempotencyKey = "invalid_idempotency_key", BAD_REQUEST, "The Idempotency-Key header is not valid";
    // 401 and 403: who is asking.
    InvalidToken = "invalid_token", UNAUTHORIZED, "A valid token is required";
    WrongSeat = "wrong_seat", FORBIDDEN, "The token belongs to another seat";
    OwnerOnly = "owner_only", FORBIDDEN, "Only the owner token may do this";
    NotYourChance = "not_your_chance", FORBIDDEN, "This token may not report that chance outcome";
    NotTheReporter = "not_the_reporter", FORBIDDEN, "Only its reporter or the owner may correct that outcome";
    InvalidHouseholdKey = "invalid_household_key", UNAUTHORIZED, "The household key is not valid";
    HouseholdReaderKey = "household_reader_key", FORBIDDEN, "A household's reader key only reads";
    // 404 and 405: what is asked for.
    NotFound = "not_found", NOT_FOUND, "No such resource";
    UnknownGame = "unknown_game", NOT_FOUND, "No such game";
    UnknownMatch = "unknown_match", NOT_FOUND, "No such match";
    UnknownSheet = "unknown_sheet", NOT_FOUND, "No such score sheet";
    UnknownPly = "unknown_ply", NOT_FOUND, "No such ply";
    UnknownInvite = "unknown_invite", NOT_FOUND, "No such invite";
    UnknownHousehold = "unknown_household", NOT_FOUND, "No such household";
    MethodNotAllowed = "method_not_allowed", METHOD_NOT_ALLOWED, "Method not allowed";
    // 408, 413, 415, 429: the request's speed, size, type and rate.
    RequestTimeout = "request_timeout", REQUEST_TIMEOUT, "The request was not received in time";
    BodyTooLarge = "body_too_large", PAYLOAD_TOO_LARGE, "The request body is too large";
    UnsupportedMediaType = "unsupported_media_type", UNSUPPORTED_MEDIA_TYPE, "The body must be application/json";
    RateLimited = "rate_limited", TOO_MANY_REQUESTS, "Too many requests";
    TooManyStreams = "too_many_streams", TOO_MANY_REQUESTS, "Too many live streams on this match";
    ClientStreamLimit = "client_stream_limit", TOO_MANY_REQUESTS, "This client holds all the live streams it may";
    TokenStreamLimit = "token_stream_limit", TOO_MANY_REQUESTS, "This token holds all the live streams it may";
    ResumePointAhead = "resume_point_ahead", CONFLICT, "The resume point is past the current version";
    // 409: the state has moved on.
    StaleVersion = "stale_version", CONFLICT, "The match has moved on";
    NoRound = "no_round", CONFLICT, "The sheet has no round standing";
    // 412: a precondition header.
    PreconditionFailed = "precondition_failed", PRECONDITION_FAILED, "The If-Match precondition failed";
    MatchFinished = "match_finished", CONFLICT, "The match is over";
    MatchNotFinished = "match_not_finished", CONFLICT, "The match is not over yet";
    MatchAbandoned = "match_abandoned", CONFLICT, "The match was abandoned";
    MatchTooLong = "match_too_long", CONFLICT, "The match has reached its length limit";
    InviteRedeemed = "invite_redeemed", CONFLICT, "The invite was already used";
    PlayStarted = "play_started", CONFLICT, "Play has started";
    RematchExists = "rematch_exists", CONFLICT, "The rematch was already made";
    ServerRandomness = "server_randomness", CONFLICT, "The match draws its own chance";
    NoDealPending = "no_deal_pending", CONFLICT, "No deal of hands is awaited";
    HandsMissing = "hands_missing", CONFLICT, "Some seats have not entered their hand";
    NothingToTakeBack = "nothing_to_take_back", CONFLICT, "The seat has no move to take back";
    TakeBackLimit = "take_back_limit", CONFLICT, "The seat has taken back as many moves in a row as it may";
    InformationRevealed = "information_revealed", CONFLICT, "The move showed the table what was hidden";
    AnotherSeatActed = "another_seat_acted", CONFLICT, "Another seat has acted since the move";
    ChanceSince = "chance_since", CONFLICT, "A chance event has happened since the move";
    NothingToCorrect = "nothing_to_correct", CONFLICT, "No chance outcome stands to correct";
    MovedSince = "moved_since", CONFLICT, "A move has been made since the outcome";
    RulesVersionUnsupported = "rules_version_unsupported", CONFLICT, "The match was played under other rules";
    // 422: well-formed, but refused.
    GameOver = "game_over", CONFLICT, "The game is over";
    ChancePending = "chance_pending", UNPROCESSABLE_ENTITY, "A chance outcome must be reported first";
    NoChancePending = "no_chance_pending", UNPROCESSABLE_ENTITY, "No chance outcome is awaited";
    NotYourTurn = "not_your_turn", UNPROCESSABLE_ENTITY, "It is not this seat's turn";
    InconsistentState = "inconsistent_state", UNPROCESSABLE_ENTITY, "The state contradicts itself";
    PlayerCount = "player_count", UNPROCESSABLE_ENTITY, "The number of players is not allowed";
    UnknownSeat = "unknown_seat", NOT_FOUND, "No such seat";
    SeatRequired = "seat_required", UNPROCESSABLE_ENTITY, "The seat to act for is missing";
    InvalidPlayerName = "invalid_player_name", UNPROCESSABLE_ENTITY, "The player name is not allowed";
    DuplicatePlayer = "duplicate_player", UNPROCESSABLE_ENTITY, "A player is named twice";
    LimitExceeded = "limit_exceeded", UNPROCESSABLE_ENTITY, "A size limit is reached";
    InvalidNote = "invalid_note", UNPROCESSABLE_ENTITY, "The note is not allowed";
    InvalidHand = "invalid_hand", UNPROCESSABLE_ENTITY, "The hand is not a list of cards";
    UnknownEntry = "unknown_entry", UNPROCESSABLE_ENTITY, "No such score sheet entry";
    EntrySuperseded = "entry_superseded", UNPROCESSABLE_ENTITY, "The entry was already corrected";
    SameOutcome = "same_outcome", UNPROCESSABLE_ENTITY, "The correction repeats the outcome";
    EntryNotARound = "entry_not_a_round", UNPROCESSABLE_ENTITY, "The entry is not a round";
    NoteRequired = "note_required", UNPROCESSABLE_ENTITY, "A note is required";
    SameName = "same_name", UNPROCESSABLE_ENTITY, "The seat already has this name";
    EarlyFinishNotAllowed = "early_finish_not_allowed", UNPROCESSABLE_ENTITY, "This game's sheet cannot be finished early";
    IdempotencyKeyReused = "idempotency_key_reused", UNPROCESSABLE_ENTITY, "The Idempotency-Key was used for another request";
    InvalidImport = "invalid_import", UNPROCESSABLE_ENTITY, "Invalid import";
    SamePlayer = "same_player", UNPROCESSABLE_ENTITY, "Same player";
    // 5xx.
    DatabaseUnavailable = "database_unavailable", SERVICE_UNAVAILABLE, "Match storage is unavailable";
    DatabaseBusy = "database_busy", SERVICE_UNAVAILABLE, "Match storage is busy";
    Draining = "draining", SERVICE_UNAVAILABLE, "This instance is shutting down";
    StreamCapacity = "stream_capacity", SERVICE_UNAVAILABLE, "This server holds all the live streams it can";
    Internal = "internal", INTERNAL_SERVER_ERROR, "Internal error";
}

/// The title of the problem type `code`: the table's for the service's own codes, else the
/// code in words ("card_not_in_hand" → "Card not in hand"), so no two types share a title.
pub fn title(code: &str) -> String {
    if let Some(known) = Code::named(code) {
        return known.title().to_owned();
    }
    let words = code.replace('_', " ");
    let mut chars = words.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

impl Problem {
    /// A problem of one of the service's own kinds, sent with that kind's status.
    pub fn new(code: Code, detail: impl Into<String>) -> Self {
        Self::document(code.status(), code.as_str(), detail)
    }

    /// A refusal from the rules core or the referee: its own code, the status the caller
    /// gives it.
    pub(crate) fn refusal(
        status: StatusCode,
        code: &'static str,
        detail: impl Into<String>,
    ) -> Self {
        Self::document(status, code, detail)
    }

    fn document(status: StatusCode, code: &str, detail: impl Into<String>) -> Self {
        Self {
            document: Box::new(ProblemDocument {
                kind: format!("urn:referee:problem:{code}"),
                title: title(code),
                status: status.as_u16(),
                detail: detail.into(),
                code: code.to_owned(),
                params: None,
                retry_after: None,
            }),
            known: Code::named(code),
        }
    }

    /// Whether this is a problem of kind `code`.
    pub fn is(&self, code: Code) -> bool {
        self.known == Some(code)
    }

    /// The database cannot be reached: try again shortly.
    pub fn unavailable() -> Self {
        Self::new(
            Code::DatabaseUnavailable,
            "match storage is unreachable; stateless endpoints still work",
        )
        .with_retry_after(2)
    }
    /// The database gave up waiting for a lock or on a slow statement, or lost a conflict:
    /// try again shortly.
    pub fn busy() -> Self {
        Self::new(
            Code::DatabaseBusy,
            "match storage is busy (a lock or statement timed out); retry shortly",
        )
        .with_retry_after(1)
    }
    /// Something that should not happen: the cause is logged, the client gets no internals.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(
            Code::Internal,
            "the server failed to answer; the error was logged",
        )
    }

    /// Asks the client to wait `seconds` before trying again (also the `Retry-After` header).
    pub fn with_retry_after(mut self, seconds: u32) -> Self {
        self.document.retry_after = Some(seconds);
        self
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
        response.body(serde_json::to_string(&*self.document).unwrap_or_default())
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
            StoreError::TakenBack => Problem::internal("a dry run's writes escaped their caller"),
            // Expected at every start, and asked for by every readiness probe meanwhile.
            StoreError::Preparing => {
                tracing::debug!("database being prepared");
                Problem::unavailable()
            }
        }
    }
}

impl From<crate::store::UnknownRecord> for Problem {
    fn from(unknown: crate::store::UnknownRecord) -> Self {
        let id = unknown.id;
        match unknown.kind {
            MatchKind::Hosted => Problem::new(
                Code::UnknownMatch,
                format!("no hosted match has id {id} (score sheets are under /v1/sheets)"),
            ),
            MatchKind::Sheet => {
                Problem::new(Code::UnknownSheet, format!("no score sheet has id {id}"))
            }
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
            E::Mend(refusal) if refusal.is_forbidden() => StatusCode::FORBIDDEN,
            E::Mend(crate::referee::MendRefusal::SameOutcome { .. }) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            E::Mend(_) => StatusCode::CONFLICT,
            E::Common(crate::games::kit::refusal::Common::GameOver)
            | E::Violation { stale: true, .. } => StatusCode::CONFLICT,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        };
        Problem::refusal(status, error.code(), error.to_string()).with_params(error.params())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_code_is_named_once_and_read_back_as_itself() {
        let mut seen = std::collections::HashSet::new();
        for &code in Code::ALL {
            assert!(seen.insert(code.as_str()), "{} twice", code.as_str());
            assert_eq!(Code::named(code.as_str()), Some(code));
        }
        assert_eq!(Code::named("card_not_in_hand"), None);
    }

    #[test]
    fn a_problem_is_sent_with_its_codes_status_and_title() {
        let problem = Problem::new(Code::StaleVersion, "expected 3, at 5");
        assert_eq!(problem.status, 409);
        assert_eq!(problem.title, "The match has moved on");
        assert_eq!(problem.kind, "urn:referee:problem:stale_version");
        assert!(problem.is(Code::StaleVersion) && !problem.is(Code::PreconditionFailed));
    }
}
