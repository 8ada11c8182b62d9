//! The request headers and path parameters operations share, declared once as types
//! (`params(IfNoneMatch)`).
// The types only describe parameters; the handlers read the headers (see `caching` and `mod`).
#![allow(dead_code)]

use std::marker::PhantomData;

use serde::Deserialize;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
use utoipa::openapi::Required;
use utoipa::IntoParams;

/// `If-None-Match` on a cached read.
#[derive(IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IfNoneMatch {
    /// An `ETag` from an earlier answer: if it is still current the answer is 304 with no body
    #[param(rename = "If-None-Match")]
    if_none_match: Option<String>,
}

/// `Household-Key`: the household a request works in.
#[derive(IntoParams)]
#[into_params(parameter_in = Header)]
pub struct InHousehold {
    /// A household's owner key or reader key: the request works in that household, with its
    /// players, records, statistics, boards and ratings (records are made with the owner key
    /// only). Without it, the public space, where records made without a key are.
    #[param(rename = "Household-Key")]
    household_key: Option<String>,
}

/// What an `Idempotency-Key` names uniquely, as its description says.
pub trait KeyedBy {
    /// "Any unique string per …", the description before the syntax.
    const UNIQUE: &'static str;
}

macro_rules! keyed_by {
    ($($(#[$doc:meta])* $name:ident = $unique:literal;)*) => {
        $($(#[$doc])* pub enum $name {}
        impl KeyedBy for $name {
            const UNIQUE: &'static str = $unique;
        })*
    };
}

keyed_by! {
    NewMatch = "Any unique, unguessable string per match (e.g. a random UUID)";
    NewSheet = "Any unique, unguessable string per sheet (e.g. a random UUID)";
    MoveAttempt = "Any unique string per move attempt";
    ChanceReport = "Any unique string per report";
    TakeBackAttempt = "Any unique string per take-back";
    CorrectionAttempt = "Any unique string per correction";
    NewEntry = "Any unique string per entry";
}

/// The `Idempotency-Key` header of a create or a write: 1 to 255 visible ASCII characters.
pub struct IdempotencyKey<K>(PhantomData<K>);

impl<K: KeyedBy> IntoParams for IdempotencyKey<K> {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![ParameterBuilder::new()
            .name("Idempotency-Key")
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some(format!(
                "{}: 1 to 255 visible ASCII characters",
                K::UNIQUE
            )))
            .schema(Some(
                ObjectBuilder::new()
                    .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
                    .pattern(Some("^[!-~]{1,255}$")),
            ))
            .build()]
    }
}

/// `If-Match` on a version-checked write: one strong entity tag, quoted, or `*`, as
/// `caching::expected_version` reads it. The pattern is RFC 9110's `entity-tag` without `W/` (a
/// weak tag never passes `If-Match`'s strong comparison) and without a comma (which would make
/// it a list, 400); anything else is no tag at all, which the service would answer 412.
#[derive(IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IfMatch {
    /// The `ETag` of the match or sheet as read (`"v12-…"`, or just `"v12"`), quoted, or `*`: one tag, not a list (else 400). The same guard as `expected_version`, but a mismatch (or a tag this service never gave) is 412. Both given must agree (else 400)
    #[param(rename = "If-Match", pattern = "^(\\*|\"[!#-+\\--~]*\")$")]
    if_match: Option<String>,
}

/// The headers of a version-checked write: `If-Match`, then its `Idempotency-Key`.
pub struct Guarded<K>(PhantomData<K>);

impl<K: KeyedBy> IntoParams for Guarded<K> {
    fn into_params(parameter_in: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let mut params = IfMatch::into_params(&parameter_in);
        params.extend(IdempotencyKey::<K>::into_params(parameter_in));
        params
    }
}

/// `Last-Event-ID` on a stream, as `EventSource` sends it when it reconnects: a header is text,
/// so its schema is a string of digits (not a nullable integer, which would let `null` pass).
pub struct LastEventId;

impl IntoParams for LastEventId {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![ParameterBuilder::new()
            .name("Last-Event-ID")
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some(
                "Resume after this version (the `id:` of the last event received): decimal \
                 digits, from 0 to the current version; a version past it is 409 \
                 `resume_point_ahead`. It takes precedence over `after`",
            ))
            .schema(Some(
                ObjectBuilder::new()
                    .schema_type(SchemaType::Type(Type::String))
                    .pattern(Some("^[0-9]{1,15}$"))
                    .min_length(Some(1))
                    .max_length(Some(15)),
            ))
            .build()]
    }
}

/// The `{code}` of an invite link: what `tokens::canonical_invite_code` reads, as a pattern (a
/// code of another shape is 400 `invalid_invite_code`).
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct InviteCode {
    /// The invite code: 10 symbols of Crockford's base 32 (0-9 and A-Z without U; `I` and `L`
    /// read as `1`, `O` as `0`), in any case, with or without spaces and hyphens, at most 40
    /// characters in all
    #[param(
        example = "7KQ2M9XW4D",
        pattern = "^[ -]*([0-9A-TV-Za-tv-z][ -]*){10}$",
        min_length = 10,
        max_length = 40
    )]
    pub code: String,
}
