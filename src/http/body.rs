//! The JSON body extractor of every handler.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::problem::Problem;
use crate::referee;

/// A JSON request body. It is read by `web::Json` (so the size limit, the content type check and
/// their problem answers are the same), then parsed with [`referee::from_json_value`]'s one
/// leniency: `3.0` is an integer, as JSON Schema says.
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
        // Only the syntax is checked here; the typed parse below reads the same text.
        let raw = web::Json::<Box<RawValue>>::from_request(request, payload);
        Box::pin(async move {
            let raw = raw.await?.into_inner();
            serde_json::from_str(raw.get())
                .or_else(|_| referee::from_json_value(serde_json::from_str(raw.get())?))
                .map(Body)
                .map_err(|e| Problem::bad_request("malformed_body", e.to_string()).into())
        })
    }
}
