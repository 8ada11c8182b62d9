//! The JSON body extractor of every handler.

use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::problem::{Code, Problem};
use crate::referee;

/// `BODY_TIMEOUT_SECONDS`, as app data: the time a whole body may take to arrive.
#[derive(Clone, Copy)]
pub struct BodyTimeout(pub Duration);

/// A JSON request body. It is read by `web::Json` (so the size limit, the content type check and
/// their problem answers are the same), within the body timeout, checked for what serde_json lets
/// through (duplicate keys, numbers out of range, a charset other than UTF-8), then parsed with
/// [`referee::from_json_value`]'s one leniency: `3.0` is an integer, as JSON Schema says.
pub struct Body<T>(pub T);

impl<T> Body<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Body<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for Body<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(request: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let raw = RawBody::from_request(request, payload);
        Box::pin(async move { Ok(Body(parse(raw.await?.0.get())?)) })
    }
}

/// A JSON body checked as [`Body`] checks it (size, content type, timeout, charset, syntax,
/// duplicate keys, numbers out of range) but not yet parsed: for a handler that parses the text
/// straight into its own types and falls back to [`parse`] for the exact refusal.
pub struct RawBody(pub Box<RawValue>);

impl RawBody {
    pub fn get(&self) -> &str {
        self.0.get()
    }
}

impl FromRequest for RawBody {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(request: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let charset = check_charset(request);
        let timeout = request
            .app_data::<BodyTimeout>()
            .map_or(Duration::from_secs(10), |t| t.0);
        // Only the syntax is checked here; the typed parse reads the same text.
        let raw = web::Json::<Box<RawValue>>::from_request(request, payload);
        Box::pin(async move {
            charset?;
            let raw = tokio::time::timeout(timeout, raw)
                .await
                .map_err(|_| {
                    Problem::new(
                        Code::RequestTimeout,
                        format!("the body did not arrive within {} s", timeout.as_secs()),
                    )
                })??
                .into_inner();
            check_strict(raw.get()).map_err(|e| Problem::new(Code::MalformedBody, e))?;
            Ok(RawBody(raw))
        })
    }
}

/// The typed parse of a checked body, with [`referee::from_json_value`]'s one leniency.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, Problem> {
    serde_json::from_str(text)
        .or_else(|_| referee::from_json_value(serde_json::from_str(text)?))
        .map_err(|e| Problem::new(Code::MalformedBody, e.to_string()))
}

/// JSON is UTF-8 (RFC 8259); a body declared in another charset is not read as if it were.
fn check_charset(request: &HttpRequest) -> Result<(), Problem> {
    let Ok(Some(mime)) = request.mime_type() else {
        return Ok(());
    };
    match mime.get_param("charset") {
        Some(charset) if !charset.as_str().eq_ignore_ascii_case("utf-8") => Err(Problem::new(
            Code::UnsupportedCharset,
            format!("the body is JSON, which is UTF-8, not {charset}"),
        )),
        _ => Ok(()),
    }
}

/// What serde_json accepts but we refuse: an object with a key twice (which one would count?),
/// a number too small or too large for a double (`1e-400` would silently be 0), and one past
/// 2^53 - 1 in size, the largest integer a JavaScript number holds exactly: the contract bounds
/// every integer there (docs/contract.md), so no value a browser cannot hold is ever accepted.
fn check_strict(text: &str) -> Result<(), String> {
    serde_json::from_str::<NoDuplicateKeys>(text).map_err(|e| e.to_string())?;
    numbers(text).try_for_each(|number| {
        let value: f64 = number
            .parse()
            .map_err(|_| format!("{number} is no number"))?;
        let mantissa = number.split(['e', 'E']).next().unwrap_or_default();
        let underflows = value == 0.0 && mantissa.bytes().any(|b| matches!(b, b'1'..=b'9'));
        if value.is_infinite() || underflows || value.abs() > JS_SAFE_INTEGER {
            return Err(format!("{number} is out of range"));
        }
        Ok(())
    })
}

/// 2^53 - 1.
const JS_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The number literals of valid JSON text.
fn numbers(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            match bytes[i] {
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                b'-' | b'0'..=b'9' => {
                    let start = i;
                    while i < bytes.len()
                        && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                    {
                        i += 1;
                    }
                    return text.get(start..i);
                }
                _ => i += 1,
            }
        }
        None
    })
}

/// Any JSON value, refusing an object that repeats a key.
struct NoDuplicateKeys;

impl<'de> Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NoDuplicateKeys)
    }
}

impl<'de> Visitor<'de> for NoDuplicateKeys {
    type Value = NoDuplicateKeys;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_unit<E>(self) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(self)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
        // Objects here have a handful of keys: a list searched in place costs less than hashing,
        // and keys without escapes are borrowed from the body, not copied. A large object still
        // gets a set, so a body of thousands of keys is not checked in quadratic time.
        let mut few: Vec<Key<'de>> = Vec::new();
        let mut many: HashSet<Key<'de>> = HashSet::new();
        while let Some(key) = map.next_key::<Key<'de>>()? {
            let repeated = if many.is_empty() && few.len() < 16 {
                let seen = few.contains(&key);
                few.push(key.clone());
                seen
            } else {
                many.extend(few.drain(..));
                !many.insert(key.clone())
            };
            if repeated {
                return Err(de::Error::custom(format!(
                    "the key `{}` appears twice",
                    key.0
                )));
            }
            map.next_value::<NoDuplicateKeys>()?;
        }
        Ok(self)
    }
}

/// An object key, borrowed from the body unless it holds escapes.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key<'de>(std::borrow::Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(key.into()))
            }
            fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(key.to_owned().into()))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// An upload larger than the service's usual body limit (an import file): JSON, read as it
/// arrives and refused as soon as it passes `cap` bytes or the body timeout (nothing past the
/// cap is held), then checked as [`RawBody`] checks a body. The text is returned unparsed.
pub async fn read_upload(
    request: &HttpRequest,
    mut payload: web::Payload,
    cap: usize,
) -> Result<web::Bytes, Problem> {
    use futures_util::StreamExt;
    check_charset(request)?;
    if request
        .mime_type()
        .ok()
        .flatten()
        .map(|m| m.essence_str() == "application/json")
        != Some(true)
    {
        return Err(Problem::new(
            Code::UnsupportedMediaType,
            "send the file as application/json",
        ));
    }
    let too_large = || {
        let mut problem = Problem::new(
            Code::BodyTooLarge,
            format!("a file has at most {cap} bytes"),
        );
        problem.params = Some(serde_json::json!({"limit": "body_bytes", "max": cap}));
        problem
    };
    let declared = request
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|length| length > cap) {
        return Err(too_large());
    }
    let timeout = request
        .app_data::<BodyTimeout>()
        .map_or(Duration::from_secs(10), |t| t.0);
    let read = async {
        let mut body = web::BytesMut::new();
        while let Some(chunk) = payload.next().await {
            let chunk = chunk.map_err(|e| Problem::new(Code::MalformedBody, e.to_string()))?;
            if body.len() + chunk.len() > cap {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body.freeze())
    };
    let body = tokio::time::timeout(timeout, read).await.map_err(|_| {
        Problem::new(
            Code::RequestTimeout,
            format!("the body did not arrive within {} s", timeout.as_secs()),
        )
    })??;
    let text = std::str::from_utf8(&body)
        .map_err(|e| Problem::new(Code::MalformedBody, format!("the file is not UTF-8: {e}")))?;
    check_strict(text).map_err(|e| Problem::new(Code::MalformedBody, e))?;
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_and_numbers_out_of_range_are_refused_at_any_depth() {
        for text in [
            r#"{"game":"nope","game":"lucky-jack"}"#,
            r#"{"a":[{"b":1,"b":1}]}"#,
            r#"{"x":1e-400}"#,
            r#"[-0.001e-999]"#,
            r#"{"x":1e400}"#,
            r#"[12345678901234567890123]"#,
            r#"{"seat":9007199254740992}"#,
            r#"{"guests":-9007199254740992}"#,
            r#"{"a":1,"\u0061":2}"#,
        ] {
            assert!(check_strict(text).is_err(), "{text}");
        }
        // Past the first sixteen keys the check moves to a set: a repeat is still caught.
        let keys: Vec<String> = (0..40).map(|k| format!("\"k{k}\":{k}")).collect();
        let distinct = format!("{{{}}}", keys.join(","));
        assert_eq!(check_strict(&distinct), Ok(()));
        for repeated in [3, 20] {
            let text = format!("{{{},\"k{repeated}\":0}}", keys.join(","));
            assert!(check_strict(&text).is_err(), "{text}");
        }
        for text in [
            r#"{"a":1,"b":{"a":2},"c":"1e-400 \" 1e999"}"#,
            r#"[0, 0.0, -0e-400, 3.0, 1e-300, 9007199254740991, -9007199254740991]"#,
        ] {
            assert_eq!(check_strict(text), Ok(()), "{text}");
        }
    }
}
