//! A match's finished rounds as its state, views and score carry them.
//!
//! A long match keeps dozens of itemised round results, and every read and every move's reply
//! shows them all. They never change once finished, so they are shared, not copied, between the
//! state and what is built from it, and turned into JSON once per round instead of once per
//! answer (issue 39: a Plus & Minus move cost 1.5 times as much at its sixtieth round as at its
//! tenth, spent copying and writing out the same rounds again).

use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Error as _, Serialize, Serializer};
use serde_json::value::RawValue;

/// Finished rounds, oldest first. Reads as a slice; written out as a JSON array of `R`.
#[derive(Debug)]
pub struct Rounds<R> {
    list: Arc<Vec<R>>,
    /// The list as JSON, made when it is first written out after a round was added.
    json: Arc<OnceLock<Box<RawValue>>>,
}

impl<R> Rounds<R> {
    pub fn new() -> Self {
        Self {
            list: Arc::new(Vec::new()),
            json: Arc::default(),
        }
    }
}

impl<R: Clone> Rounds<R> {
    /// Adds a finished round.
    pub fn push(&mut self, round: R) {
        Arc::make_mut(&mut self.list).push(round);
        self.json = Arc::default();
    }
}

impl<R> Default for Rounds<R> {
    fn default() -> Self {
        Self::new()
    }
}

// Copies share the list and its JSON: a view or a score built from a state costs two counts.
impl<R> Clone for Rounds<R> {
    fn clone(&self) -> Self {
        Self {
            list: Arc::clone(&self.list),
            json: Arc::clone(&self.json),
        }
    }
}

impl<R> Deref for Rounds<R> {
    type Target = [R];

    fn deref(&self) -> &[R] {
        &self.list
    }
}

impl<'a, R> IntoIterator for &'a Rounds<R> {
    type Item = &'a R;
    type IntoIter = std::slice::Iter<'a, R>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

impl<R> From<Vec<R>> for Rounds<R> {
    fn from(list: Vec<R>) -> Self {
        Self {
            list: Arc::new(list),
            json: Arc::default(),
        }
    }
}

impl<R: PartialEq> PartialEq for Rounds<R> {
    fn eq(&self, other: &Self) -> bool {
        self.list == other.list
    }
}

impl<R: Eq> Eq for Rounds<R> {}

impl<R: Hash> Hash for Rounds<R> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.list.hash(state);
    }
}

impl<R: Serialize> Serialize for Rounds<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let json = match self.json.get() {
            Some(json) => json,
            None => {
                let json =
                    serde_json::value::to_raw_value(&*self.list).map_err(S::Error::custom)?;
                self.json.get_or_init(|| json)
            }
        };
        // serde_json writes the text as it is; `serde_json::to_value` parses it back.
        json.serialize(serializer)
    }
}

impl<'de, R: Deserialize<'de>> Deserialize<'de> for Rounds<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::deserialize(deserializer).map(Self::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_are_written_out_as_the_plain_array_they_hold() {
        let mut rounds: Rounds<Vec<i64>> = Rounds::new();
        assert_eq!(serde_json::to_string(&rounds).unwrap(), "[]");
        rounds.push(vec![1, -2]);
        assert_eq!(serde_json::to_string(&rounds).unwrap(), "[[1,-2]]");
        // A round added after the list was written out is in the next writing.
        rounds.push(vec![3, 4]);
        assert_eq!(serde_json::to_string(&rounds).unwrap(), "[[1,-2],[3,4]]");
        assert_eq!(
            serde_json::to_value(&rounds).unwrap(),
            serde_json::json!([[1, -2], [3, 4]])
        );
        let back: Rounds<Vec<i64>> = serde_json::from_str("[[1,-2],[3,4]]").unwrap();
        assert_eq!(back, rounds);
    }

    #[test]
    fn a_copy_taken_before_a_round_is_added_keeps_its_own_rounds() {
        let mut rounds: Rounds<u32> = vec![1].into();
        let copy = rounds.clone();
        assert_eq!(serde_json::to_string(&copy).unwrap(), "[1]");
        rounds.push(2);
        assert_eq!(serde_json::to_string(&copy).unwrap(), "[1]");
        assert_eq!(serde_json::to_string(&rounds).unwrap(), "[1,2]");
        assert_eq!(&*copy, &[1]);
    }
}
