//! The game-specific parts of the API's documents, typed once per game.
//!
//! A match detail, a move reply or a score sheet carries one game's options, view, events and
//! scores. Those documents are generic over [`Payloads`], the family of types a game puts in them:
//! - at run time the service fills them with [`Json`] parts (`serde_json::Value`, built from the
//!   game's own types, and the game as a [`GameKind`]), so storing and replaying stay untyped; a
//!   view, the largest part and the one every answer carries, is written out once as JSON text
//!   ([`RawJson`]) rather than built as a tree and written out from that;
//! - in the OpenAPI document every engine is its own `Payloads`, so `MatchDetail<LuckyJack>` names
//!   Lucky Jack's exact options and view (utoipa calls it `MatchDetail_LuckyJack`; the document
//!   spells it `LuckyJackMatchDetail`), and its `game` property allows only `"lucky-jack"`.
//!
//! [`OneOfGames`] then describes "this document, of whichever game" as a `oneOf` of the games'
//! instantiations with a `discriminator` on `game`, which is what lets a generated client pick
//! the right game's types without trying each in turn.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use utoipa::openapi::schema::{Discriminator, OneOfBuilder, Schema};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::games::{Game, GameKind, Wire};

/// The types one game puts in the API's documents.
pub trait Payloads: ToSchema + 'static {
    /// The `game` property: one slug per game in the document, any slug at run time.
    type Game: Wire;
    type Options: Wire;
    type State: Wire;
    type Move: Wire;
    type Chance: Wire;
    type Event: Wire;
    type View: Wire;
    type Score: Wire;
    type Tally: Wire;
    type TallyScore: Wire;
}

impl<G: Game + ToSchema + 'static> Payloads for G {
    type Game = Slug<G>;
    type Options = G::Options;
    type State = G::State;
    type Move = G::Move;
    type Chance = G::Chance;
    type Event = G::Event;
    type View = G::View;
    type Score = G::Score;
    type Tally = G::Tally;
    type TallyScore = G::TallyScore;
}

/// The run-time parts: every game's types as JSON, the game named by its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Json;

impl PartialSchema for Json {
    fn schema() -> RefOr<Schema> {
        Value::schema()
    }
}

impl ToSchema for Json {
    fn name() -> Cow<'static, str> {
        "Json".into()
    }
}

impl Payloads for Json {
    type Game = GameKind;
    type Options = Value;
    type State = Value;
    type Move = Value;
    type Chance = Value;
    type Event = Value;
    type View = RawJson;
    type Score = Value;
    type Tally = Value;
    type TallyScore = Value;
}

/// A game's value already written out as JSON: sent as it is, with no `Value` tree between the
/// game's own type and the answer.
#[derive(Debug, Clone)]
pub struct RawJson(Box<serde_json::value::RawValue>);

impl RawJson {
    /// Game wire types are plain data (string keys, finite numbers): writing one out cannot fail.
    #[allow(clippy::expect_used)]
    pub fn of<T: Serialize>(value: &T) -> Self {
        Self(serde_json::value::to_raw_value(value).expect("game wire types serialise to JSON"))
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }
}

// Written by the same code from the same types, equal values are equal texts.
impl PartialEq for RawJson {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<serde_json::value::RawValue>::deserialize(deserializer).map(Self)
    }
}

impl PartialSchema for RawJson {
    fn schema() -> RefOr<Schema> {
        Value::schema()
    }
}

impl ToSchema for RawJson {
    fn name() -> Cow<'static, str> {
        "Json".into()
    }
}

/// The `game` property of one game's documents: its slug, and only that.
pub struct Slug<G>(PhantomData<fn() -> G>);

impl<G> Default for Slug<G> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<G> Clone for Slug<G> {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl<G> PartialEq for Slug<G> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<G: Game> fmt::Debug for Slug<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(G::KIND.slug())
    }
}

impl<G: Game> Serialize for Slug<G> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(G::KIND.slug())
    }
}

impl<'de, G: Game> Deserialize<'de> for Slug<G> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let slug = Cow::<str>::deserialize(deserializer)?;
        if slug == G::KIND.slug() {
            Ok(Self::default())
        } else {
            Err(serde::de::Error::invalid_value(
                serde::de::Unexpected::Str(&slug),
                &G::KIND.slug(),
            ))
        }
    }
}

impl<G: Game> PartialSchema for Slug<G> {
    fn schema() -> RefOr<Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some([G::KIND.slug()]))
            .description(Some(format!("Always `{}`.", G::KIND.slug())))
            .into()
    }
}

impl<G: Game + ToSchema> ToSchema for Slug<G> {
    fn name() -> Cow<'static, str> {
        format!("Slug_{}", G::name()).into()
    }
}

/// Something to do once per registered game, with the game as a type.
pub trait EachGame {
    fn visit<G: Game + ToSchema + 'static>(&mut self);
}

/// A document whose game-specific parts come from [`Payloads`] (a family of types, one per game).
pub trait Document: 'static {
    /// The name of "this document, of any game" in the OpenAPI document.
    const NAME: &'static str;
    /// The property that tells the games apart.
    const DISCRIMINATOR: &'static str = "game";
    type Of<P: Payloads>: ToSchema;

    /// A working example of the game's document, for requests.
    fn example<G: Game>() -> Option<Value> {
        None
    }
}

/// "A `D` of whichever game": in the OpenAPI document, a `oneOf` of every game's `D` with a
/// `discriminator` mapping each slug to its game's schema. It only describes: the service
/// serialises `D::Of<Json>`, which has the same JSON form.
pub struct OneOfGames<D>(PhantomData<D>);

impl<D: Document> PartialSchema for OneOfGames<D> {
    fn schema() -> RefOr<Schema> {
        struct Members<D>(Vec<(&'static str, String)>, PhantomData<D>);
        impl<D: Document> EachGame for Members<D> {
            fn visit<G: Game + ToSchema + 'static>(&mut self) {
                self.0.push((G::KIND.slug(), instance_name::<D, G>()));
            }
        }
        let mut members = Members::<D>(Vec::new(), PhantomData);
        each_game(&mut members);
        let reference = |name: &str| format!("#/components/schemas/{name}");
        let discriminator = Discriminator::with_mapping(
            D::DISCRIMINATOR,
            members
                .0
                .iter()
                .map(|(slug, name)| (slug.to_string(), reference(name))),
        );
        members
            .0
            .iter()
            .fold(OneOfBuilder::new(), |one_of, (_, name)| {
                one_of.item(Ref::new(reference(name)))
            })
            .discriminator(Some(discriminator))
            .into()
    }
}

impl<D: Document> ToSchema for OneOfGames<D> {
    fn name() -> Cow<'static, str> {
        D::NAME.into()
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        struct Register<'a, D>(&'a mut Vec<(String, RefOr<Schema>)>, PhantomData<D>);
        impl<D: Document> EachGame for Register<'_, D> {
            fn visit<G: Game + ToSchema + 'static>(&mut self) {
                let mut schema = <D::Of<G> as PartialSchema>::schema();
                if let (RefOr::T(Schema::Object(object)), Some(example)) =
                    (&mut schema, D::example::<G>())
                {
                    object.examples = vec![example];
                }
                self.0.push((instance_name::<D, G>(), schema));
                <D::Of<G> as ToSchema>::schemas(self.0);
            }
        }
        each_game(&mut Register::<D>(schemas, PhantomData));
    }
}

/// The name utoipa gives `D` instantiated for `G` where another schema refers to it, e.g.
/// `MatchDetail_LuckyJack` (`ToSchema::name` alone leaves the game out).
fn instance_name<D: Document, G: Game + ToSchema + 'static>() -> String {
    format!("{}_{}", <D::Of<G> as ToSchema>::name(), G::name())
}

/// Declares `$any` as "a `$document` of whichever game" (see [`OneOfGames`]), told apart by the
/// `game` property unless another is named; `example` names a function giving each game's
/// example (`fn f<G: Game>() -> Value`). `$document` is generic over [`Payloads`], with
/// [`Json`] as its default.
#[macro_export]
macro_rules! one_of_games {
    (
        $(#[$meta:meta])* $any:ident = $document:ident
        $(, by $property:literal)? $(, example = $($example:ident)::+)?
    ) => {
        impl $crate::payloads::Document for $document<$crate::payloads::Json> {
            const NAME: &'static str = stringify!($document);
            $(const DISCRIMINATOR: &'static str = $property;)?
            type Of<P: $crate::payloads::Payloads> = $document<P>;
            $(
                fn example<G: $crate::games::Game>() -> Option<serde_json::Value> {
                    Some($($example)::+::<G>())
                }
            )?
        }
        $(#[$meta])*
        pub type $any = $crate::payloads::OneOfGames<$document<$crate::payloads::Json>>;
    };
}

/// The OpenAPI side of the registry: each engine's schema name, and the [`any`] unions.
#[doc(hidden)]
#[macro_export]
macro_rules! __game_schemas {
    (() $($module:ident::$engine:ident: $variant:ident, $slug:tt, $title:tt;)*) => {
        // Each engine names its game in the OpenAPI document: the documents generic over
        // `wire::Payloads` are called `MatchDetail_LuckyJack` and so on after it.
        $(
            impl utoipa::PartialSchema for $crate::games::$module::$engine {
                fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                    utoipa::openapi::schema::Object::new().into()
                }
            }
            impl utoipa::ToSchema for $crate::games::$module::$engine {
                fn name() -> std::borrow::Cow<'static, str> {
                    stringify!($variant).into()
                }
            }
        )*

        /// Documentation-only unions of every game's wire types, so the OpenAPI document can say
        /// "one of the games' moves" where the HTTP layer takes a move as raw JSON and parses it
        /// per game.
        pub mod any {
            use serde::Serialize;
            use utoipa::ToSchema;

            $(
                /// The game's wire types as its engine declares them.
                #[doc(hidden)]
                pub mod $module {
                    use $crate::games::Game;
                    type G = $crate::games::$module::$engine;
                    pub type Move = <G as Game>::Move;
                    pub type State = <G as Game>::State;
                    pub type Chance = <G as Game>::Chance;
                    pub type View = <G as Game>::View;
                    pub type Event = <G as Game>::Event;
                    pub type Score = <G as Game>::Score;
                    pub type Options = <G as Game>::Options;
                    pub type Tally = <G as Game>::Tally;
                    pub type TallyScore = <G as Game>::TallyScore;
                }
            )*

            /// A move of any game (the match's or the path's game decides which).
            #[derive(Serialize, ToSchema)]
            #[serde(untagged)]
            pub enum AnyMove {
                $($variant($module::Move),)*
            }

            /// A full state of any game.
            #[derive(Serialize, ToSchema)]
            #[serde(untagged)]
            pub enum AnyState {
                $($variant($module::State),)*
            }

            /// A chance outcome of any game: a deal, drawn cards, dice faces.
            #[derive(Serialize, ToSchema)]
            #[serde(untagged)]
            pub enum AnyChance {
                $($variant($module::Chance),)*
            }

            /// What one viewer sees of a state of any game.
            #[derive(Serialize, ToSchema)]
            #[serde(untagged)]
            pub enum AnyView {
                $($variant($module::View),)*
            }

            /// What happened, in any game.
            #[derive(Serialize, ToSchema)]
            #[serde(untagged)]
            pub enum AnyEvent {
                $($variant($module::Event),)*
            }

            /// The itemised score of any game.
            #[derive(Serialize, ToSchema)]
            #[serde(untagged)]
            pub enum AnyScore {
                $($variant($module::Score),)*
            }

            /// Options of any game.
            #[derive(Serialize, ToSchema)]
            #[serde(untagged)]
            pub enum AnyOptions {
                $($variant($module::Options),)*
            }

            /// A round of any game as a score sheet describes it.
            #[derive(Serialize, ToSchema)]
            #[serde(untagged)]
            pub enum AnyTally {
                $($variant($module::Tally),)*
            }

            /// A described round of any game, scored.
            #[derive(Serialize, ToSchema)]
            #[serde(untagged)]
            pub enum AnyTallyScore {
                $($variant($module::TallyScore),)*
            }
        }
    };
}

crate::for_each_game!(__game_schemas!);

/// Calls `visit` with every registered game as a type, in registry order.
pub fn each_game(visit: &mut impl EachGame) {
    crate::for_each_game!(__each_game! visit);
}

/// The body of [`each_game`], from the registry.
#[doc(hidden)]
#[macro_export]
macro_rules! __each_game {
    (($visit:ident) $($module:ident::$engine:ident: $variant:ident, $slug:tt, $title:tt;)*) => {
        $($visit.visit::<$crate::games::$module::$engine>();)*
    };
}
