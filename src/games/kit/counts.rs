//! A multiset of cards, `Counts<K>`: how many of each kind `K`, e.g. a face-down pile whose order
//! is decided only when a card is drawn. On the wire it is an object with one count per kind
//! (`{"lemon": 12, "cherry": 12, …}`), every kind required and no other field allowed; each game
//! names its own schema (`LuckyJackCounts`, `LuckyLuauCounts`).

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use utoipa::openapi::schema::{
    AdditionalProperties, KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type,
};
use utoipa::openapi::RefOr;

/// The most kinds a [`Counts`] holds; a game with more fails to compile (see `Counts::FITS`).
const MAX_KINDS: usize = 16;

/// A kind of card that [`Counts`] can count, with its JSON and OpenAPI names.
pub trait CardKind: Copy + Eq + fmt::Debug + 'static {
    /// Every kind, in canonical order: the order of the JSON fields, and the order seeded
    /// sampling draws from (so changing it changes how a stored seed deals).
    const ALL: &'static [Self];
    /// The JSON field name of each kind, in [`CardKind::ALL`] order.
    const FIELDS: &'static [&'static str];
    /// The OpenAPI description of each field, in [`CardKind::ALL`] order.
    const FIELD_DOCS: &'static [&'static str];
    /// The OpenAPI name of the game's multiset, e.g. `LuckyJackCounts`.
    const SCHEMA_NAME: &'static str;
    /// The OpenAPI description of the game's multiset.
    const SCHEMA_DOC: &'static str;

    /// This kind's position in [`CardKind::ALL`].
    fn index(self) -> usize;
}

/// A multiset of cards of kind `K`.
pub struct Counts<K> {
    counts: [u32; MAX_KINDS],
    kind: PhantomData<K>,
}

impl<K: CardKind> Counts<K> {
    /// Compile-time check that `K` fits the fixed-size storage.
    const FITS: () = assert!(K::ALL.len() <= MAX_KINDS, "too many card kinds for Counts");

    /// No cards.
    pub const fn new() -> Self {
        let () = Self::FITS;
        Counts {
            counts: [0; MAX_KINDS],
            kind: PhantomData,
        }
    }

    /// The multiset of `cards`.
    pub fn of<I>(cards: I) -> Self
    where
        I: IntoIterator,
        I::Item: Borrow<K>,
    {
        let mut counts = Self::new();
        for card in cards {
            counts.add(*card.borrow(), 1);
        }
        counts
    }

    /// How many `kind` cards.
    pub fn get(&self, kind: K) -> u32 {
        self.counts[kind.index()]
    }

    /// Adds `n` cards of `kind`. A client's state can claim any count; past `u32::MAX` the sum
    /// stays there (and fails the consistency checks) rather than overflow.
    pub fn add(&mut self, kind: K, n: u32) {
        let slot = &mut self.counts[kind.index()];
        *slot = slot.saturating_add(n);
    }

    /// Sets the number of `kind` cards.
    pub fn set(&mut self, kind: K, n: u32) {
        self.counts[kind.index()] = n;
    }

    /// Adds every card of `other`.
    pub fn add_all(&mut self, other: &Self) {
        for &kind in K::ALL {
            self.add(kind, other.get(kind));
        }
    }

    /// Removes one `kind`; false (and no change) if there is none.
    pub fn take(&mut self, kind: K) -> bool {
        let slot = &mut self.counts[kind.index()];
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        true
    }

    /// Total number of cards.
    pub fn total(&self) -> usize {
        self.counts.iter().map(|&n| n as usize).sum()
    }

    /// Whether there are no cards.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// The kinds present, in canonical order.
    pub fn kinds(&self) -> Vec<K> {
        K::ALL
            .iter()
            .copied()
            .filter(|&k| self.get(k) > 0)
            .collect()
    }

    /// The first card of `cards` (in order) that this multiset cannot supply, counting repeats.
    pub fn first_missing(&self, cards: &[K]) -> Option<K> {
        let mut left = *self;
        cards.iter().copied().find(|&card| !left.take(card))
    }

    /// The canonical list: kinds in [`CardKind::ALL`] order, each repeated by its count. Seeded
    /// sampling draws from this list, so its order is part of how a seed deals.
    pub fn canonical(&self) -> Vec<K> {
        let mut cards = Vec::with_capacity(self.total());
        for &kind in K::ALL {
            cards.extend(std::iter::repeat_n(kind, self.get(kind) as usize));
        }
        cards
    }
}

// Written out rather than derived: a derive would demand `K: Default`, `K: Hash`… of the kind,
// which the counts do not need.
impl<K: CardKind> Default for Counts<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K> Clone for Counts<K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K> Copy for Counts<K> {}

impl<K> PartialEq for Counts<K> {
    fn eq(&self, other: &Self) -> bool {
        self.counts == other.counts
    }
}

impl<K> Eq for Counts<K> {}

impl<K> std::hash::Hash for Counts<K> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.counts.hash(state);
    }
}

/// Prints like the struct it replaces: `Counts { lemon: 12, … }`.
impl<K: CardKind> fmt::Debug for Counts<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("Counts");
        for (i, name) in K::FIELDS.iter().enumerate() {
            out.field(name, &self.counts[i]);
        }
        out.finish()
    }
}

impl<K: CardKind> Serialize for Counts<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Counts", K::FIELDS.len())?;
        for (i, name) in K::FIELDS.iter().enumerate() {
            out.serialize_field(name, &self.counts[i])?;
        }
        out.end()
    }
}

/// Accepts what `#[derive(Deserialize)]` with `deny_unknown_fields` accepted, with the same errors:
/// every field required, no unknown or repeated field.
impl<'de, K: CardKind> Deserialize<'de> for Counts<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CountsVisitor<K>(PhantomData<K>);

        impl<'de, K: CardKind> Visitor<'de> for CountsVisitor<K> {
            type Value = Counts<K>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("struct Counts")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Counts<K>, A::Error> {
                let mut counts = Counts::new();
                for i in 0..K::FIELDS.len() {
                    counts.counts[i] = seq
                        .next_element()?
                        .ok_or_else(|| de::Error::invalid_length(i, &self))?;
                }
                Ok(counts)
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Counts<K>, A::Error> {
                let mut seen = [false; MAX_KINDS];
                let mut counts = Counts::new();
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    let Some(i) = K::FIELDS.iter().position(|&f| f == key) else {
                        return Err(de::Error::unknown_field(&key, K::FIELDS));
                    };
                    if seen[i] {
                        return Err(de::Error::duplicate_field(K::FIELDS[i]));
                    }
                    seen[i] = true;
                    counts.counts[i] = map.next_value()?;
                }
                if let Some(i) = (0..K::FIELDS.len()).find(|&i| !seen[i]) {
                    return Err(de::Error::missing_field(K::FIELDS[i]));
                }
                Ok(counts)
            }
        }

        deserializer.deserialize_struct("Counts", K::FIELDS, CountsVisitor(PhantomData))
    }
}

impl<K: CardKind> utoipa::PartialSchema for Counts<K> {
    fn schema() -> RefOr<Schema> {
        let mut object = ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(K::SCHEMA_DOC))
            .additional_properties(Some(AdditionalProperties::FreeForm(false)));
        for (name, doc) in K::FIELDS.iter().zip(K::FIELD_DOCS) {
            let count = ObjectBuilder::new()
                .schema_type(Type::Integer)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::UInt32)))
                .description(Some(*doc))
                .minimum(Some(0));
            object = object.property(*name, count).required(*name);
        }
        RefOr::T(Schema::Object(object.build()))
    }
}

impl<K: CardKind> utoipa::ToSchema for Counts<K> {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed(K::SCHEMA_NAME)
    }
}

/// Checks a game's [`CardKind`] tables agree: `ALL` in `index` order, each field named like its
/// kind in JSON, one description per kind. Each game's tests call it.
#[cfg(test)]
pub fn assert_kind_tables<K: CardKind + Serialize>() {
    for (i, &kind) in K::ALL.iter().enumerate() {
        assert_eq!(kind.index(), i, "{kind:?} is listed at {i}");
        assert_eq!(
            serde_json::json!(kind),
            K::FIELDS[i],
            "{kind:?} is named as in JSON"
        );
    }
    assert_eq!(K::FIELDS.len(), K::ALL.len());
    assert_eq!(K::FIELD_DOCS.len(), K::ALL.len());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Fruit {
        Lemon,
        Cherry,
    }

    impl CardKind for Fruit {
        const ALL: &'static [Fruit] = &[Fruit::Lemon, Fruit::Cherry];
        const FIELDS: &'static [&'static str] = &["lemon", "cherry"];
        const FIELD_DOCS: &'static [&'static str] = &["Lemons.", "Cherries."];
        const SCHEMA_NAME: &'static str = "FruitCounts";
        const SCHEMA_DOC: &'static str = "Fruit.";

        fn index(self) -> usize {
            self as usize
        }
    }

    #[test]
    fn counts_are_a_json_object_with_every_kind_and_nothing_else() {
        assert_kind_tables::<Fruit>();
        let counts = Counts::of([Fruit::Cherry, Fruit::Lemon, Fruit::Cherry]);
        let json = serde_json::to_string(&counts).unwrap();
        assert_eq!(json, r#"{"lemon":1,"cherry":2}"#);
        assert_eq!(
            serde_json::from_str::<Counts<Fruit>>(&json).unwrap(),
            counts
        );
        assert_eq!(format!("{counts:?}"), "Counts { lemon: 1, cherry: 2 }");
        let error = |text: &str| {
            serde_json::from_str::<Counts<Fruit>>(text)
                .unwrap_err()
                .to_string()
        };
        assert!(error(r#"{"lemon":1}"#).contains("missing field `cherry`"));
        assert!(error(r#"{"lemon":1,"cherry":2,"plum":0}"#).contains("unknown field `plum`"));
        assert!(error(r#"{"lemon":1,"lemon":1,"cherry":2}"#).contains("duplicate field `lemon`"));
        assert!(error(r#"{"lemon":-1,"cherry":2}"#).contains("expected u32"));
        assert_eq!(
            serde_json::from_str::<Counts<Fruit>>("[1,2]").unwrap(),
            counts
        );
    }

    #[test]
    fn counts_behave_as_a_multiset() {
        let mut counts = Counts::of([Fruit::Cherry, Fruit::Cherry]);
        assert_eq!(
            counts.first_missing(&[Fruit::Cherry, Fruit::Lemon]),
            Some(Fruit::Lemon)
        );
        assert!(counts.take(Fruit::Cherry));
        assert_eq!(counts.kinds(), [Fruit::Cherry]);
        counts.add(Fruit::Lemon, 2);
        assert_eq!(
            counts.canonical(),
            [Fruit::Lemon, Fruit::Lemon, Fruit::Cherry]
        );
        assert_eq!(counts.total(), 3);
        counts.set(Fruit::Lemon, 0);
        assert!(counts.take(Fruit::Cherry));
        assert!(!counts.take(Fruit::Cherry));
        assert!(counts.is_empty());
    }
}
