//! Untrusted JSON into a game's types: which part failed, and the two leniencies every part
//! gets (an integral float is an integer; a unit variant refuses extra fields).

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::RefereeError;
use crate::games::{Game, GameKind};
use crate::with_game;

/// Which part of a request or log failed to parse: it names the part in the message and picks
/// the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    Move,
    Chance,
    Options,
    State,
    Tally,
    /// An entry of an exported match log (neither a move nor a chance outcome).
    Log,
    /// One part of a stateless request, parsed while the request body is read.
    Part,
}

impl What {
    /// The problem code of a malformed part.
    pub fn code(self) -> &'static str {
        match self {
            What::Move => "invalid_move",
            What::Options => "invalid_options",
            What::State => "invalid_state",
            What::Tally => "invalid_tally",
            What::Chance | What::Part => "invalid_chance",
            What::Log => "invalid_log",
        }
    }

    /// The word messages use for it.
    pub fn word(self) -> &'static str {
        match self {
            What::Move => "move",
            What::Chance => "chance",
            What::Options => "options",
            What::State => "state",
            What::Tally => "tally",
            What::Log => "log",
            What::Part => "part",
        }
    }
}

impl std::fmt::Display for What {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// Parses `value` as a `T`; a refusal names `what` and takes its code.
pub fn parse<T: DeserializeOwned + Serialize>(what: What, value: Value) -> Result<T, RefereeError> {
    let malformed = |detail: String| RefereeError::Malformed { what, detail };
    let unknown = unknown_field_of_unit_variant(&value);
    let parsed: T = from_json_value(value).map_err(|e| malformed(e.to_string()))?;
    if let Some(field) = unknown {
        // serde ignores the other fields of a unit variant of an internally tagged enum (such as
        // `{"type": "draw"}`); every other type here refuses unknown fields itself. A parse that
        // kept only the tag of an object that had more was such a variant.
        if to_json(&parsed)
            .as_object()
            .is_some_and(|kept| kept.len() == 1)
        {
            return Err(malformed(format!("unknown field `{field}`")));
        }
    }
    Ok(parsed)
}

/// For an object with a `type` tag and another non-null field: that field's name.
fn unknown_field_of_unit_variant(value: &Value) -> Option<String> {
    let fields = value.as_object().filter(|f| f.contains_key("type"))?;
    let (name, _) = fields
        .iter()
        .find(|(name, v)| name.as_str() != "type" && !v.is_null())?;
    Some(name.clone())
}

/// `serde_json::from_value`, except that a number with a zero fraction (`3.0`) is also taken where
/// an integer is expected: JSON Schema counts it an integer, so generated clients may send it.
/// Only a value that fails as it is gets rewritten.
pub fn from_json_value<T: DeserializeOwned>(mut value: Value) -> Result<T, serde_json::Error> {
    match T::deserialize(&value) {
        Err(_) if integral_numbers_as_integers(&mut value) => T::deserialize(&value),
        parsed => parsed,
    }
}

/// Rewrites every integral float (`3.0`, `-2e3`) within the safe integer range as an integer;
/// true when anything changed.
pub fn integral_numbers_as_integers(value: &mut Value) -> bool {
    const SAFE: f64 = 9_007_199_254_740_992.0; // 2^53: beyond it a float no longer names one integer
    match value {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() <= SAFE => {
                *value = Value::from(f as i64);
                true
            }
            _ => false,
        },
        Value::Array(items) => items.iter_mut().fold(false, |changed, item| {
            integral_numbers_as_integers(item) | changed
        }),
        Value::Object(fields) => fields.values_mut().fold(false, |changed, item| {
            integral_numbers_as_integers(item) | changed
        }),
        _ => false,
    }
}

/// Whether `value` is a move, chance outcome or tally entry (`what`) of any of the games.
pub fn is_some_games(what: What, value: &Value) -> bool {
    GameKind::ALL.iter().any(|&kind| {
        with_game!(kind, G => match what {
            What::Move => parse::<<G as Game>::Move>(what, value.clone()).is_ok(),
            What::Chance => parse::<<G as Game>::Chance>(what, value.clone()).is_ok(),
            What::Tally => parse::<<G as Game>::Tally>(what, value.clone()).is_ok(),
            What::Options | What::State | What::Log | What::Part => false,
        })
    })
}

// Engine invariant: wire types have string keys and finite numbers, so they always serialise.
#[allow(clippy::expect_used)]
pub fn to_json<T: Serialize>(value: &T) -> Value {
    // Game wire types are plain data (no maps with non-string keys): serialising cannot fail.
    serde_json::to_value(value).expect("game wire types serialise to JSON")
}
