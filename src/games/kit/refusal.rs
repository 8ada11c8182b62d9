//! Refusals every game shares, and the macro that declares a game's violation enum with its codes.
//!
//! A refusal's code is its serde `code` tag. [`violations!`] writes each code once, as a literal
//! beside its variant, and generates both the serde rename and [`Violation::code`]'s `match` from
//! it, so the two cannot disagree and nothing is parsed or leaked at run time.
//!
//! [`Violation::code`]: crate::games::Violation::code

use std::fmt::{self, Debug, Display};

use serde::Serialize;

use crate::games::Seat;

/// The refusals every game (and the referee) shares. A game embeds it in its violation enum as
/// an untagged variant, so a shared refusal serialises exactly as the game's own variant did:
/// `{"code": "unknown_seat", "seat": 7, "players": 4}`.
///
/// `W` says what a pending chance event is, in the game's terms: [`Awaited`] (its kind) for most
/// games, the drawing seat for Lucky Luau, nothing ([`Unnamed`]) for the referee.
#[derive(Serialize, thiserror::Error, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "code")]
pub enum Common<W = Unnamed> {
    /// The game is over.
    #[serde(rename = "game_over")]
    #[error("the game is over")]
    GameOver,
    /// Play waits for a chance outcome.
    #[serde(rename = "chance_pending")]
    #[error("{0}")]
    ChancePending(W),
    /// The seat does not exist.
    #[serde(rename = "unknown_seat")]
    #[error("seat {seat} does not exist with {players} players")]
    UnknownSeat {
        /// The seat named.
        seat: Seat,
        /// Seats at the table.
        players: usize,
    },
    /// A chance outcome was reported but none is awaited.
    #[serde(rename = "no_chance_pending")]
    #[error("no chance outcome is awaited")]
    NoChancePending,
}

impl<W> Common<W> {
    /// The stable snake_case code: the same literal as the serde tag above.
    pub fn code(&self) -> &'static str {
        match self {
            Common::GameOver => "game_over",
            Common::ChancePending(_) => "chance_pending",
            Common::UnknownSeat { .. } => "unknown_seat",
            Common::NoChancePending => "no_chance_pending",
        }
    }

    /// `seat` is one of the table's `players` seats.
    pub fn seated(seat: Seat, players: usize) -> Result<(), Self> {
        if seat < players {
            return Ok(());
        }
        Err(Common::UnknownSeat { seat, players })
    }
}

impl<K> Common<Awaited<K>> {
    /// Play waits for a chance outcome of this kind.
    pub fn awaiting(kind: K) -> Self {
        Common::ChancePending(Awaited { kind })
    }
}

/// A pending chance event named by its kind: `{"code": "chance_pending", "kind": "deal"}`.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Awaited<K> {
    /// What is awaited.
    pub kind: K,
}

impl<K: Debug> Display for Awaited<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "waiting for a chance outcome ({:?})", self.kind)
    }
}

/// A pending chance event that the refusal does not describe: `{"code": "chance_pending"}`.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unnamed;

impl Display for Unnamed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("waiting for a chance outcome")
    }
}

/// A game's violation enum refuses a reported chance outcome of another kind than the one awaited
/// (`unexpected_chance_kind`), as [`guard::answered`](super::guard::answered) needs.
pub trait UnexpectedKind<K> {
    fn unexpected(expected: K, got: K) -> Self;
}

/// Declares a game's violation enum: each variant is written after its code literal, which becomes
/// both its serde `code` tag and its arm of [`Violation::code`](crate::games::Violation::code).
/// The enum gets the shared refusals as a last, untagged `Common` variant (with `From` for it),
/// and `VARIANTS`, each variant's name beside its code, for tests. Before the variants, in this
/// order and each optional:
/// - `stale = pattern,` marks refusals made against an out-of-date view;
/// - `unexpected = Kind,` adds `unexpected_chance_kind` for a chance outcome of another `Kind`
///   than awaited ([`UnexpectedKind`]);
/// - `deals = Card("hands message", "pile message"),` adds the refusals of a reported deal or
///   draw, `wrong_hand_count`, `wrong_card_count` and `card_not_in_pile`, with the game's messages
///   for the first and the last, and turns a [`Mismatch`](super::deal::Mismatch) into them.
macro_rules! violations {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident: Common<$waiting:ty> {
            $(stale = $stale:pat,)?
            $(unexpected = $kind:ty,)?
            $(deals = $card:ident($hands:tt, $pile:tt),)?
            $(
                $(#[$vmeta:meta])*
                $code:literal $variant:ident $({ $($fields:tt)* })?
            ),* $(,)?
        }
    ) => {
        $crate::games::kit::refusal::violations! {
            @declare
            $(#[$meta])*
            $vis enum $name: Common<$waiting> {
                $(stale = $stale,)?
                $(
                    /// A chance outcome of the wrong kind was reported.
                    #[error("expected a {expected:?} outcome, got {got:?}")]
                    "unexpected_chance_kind" UnexpectedChanceKind {
                        /// The kind awaited.
                        expected: $kind,
                        /// The kind reported.
                        got: $kind,
                    },
                )?
                $(
                    /// A deal with the wrong number of hands (one per seat dealt to).
                    #[error($hands)]
                    "wrong_hand_count" WrongHandCount {
                        /// Hands awaited.
                        expected: usize,
                        /// Hands reported.
                        got: usize,
                    },
                    /// A hand or draw with the wrong number of cards.
                    #[error("expected {expected} cards, got {got}")]
                    "wrong_card_count" WrongCardCount {
                        /// Cards awaited.
                        expected: usize,
                        /// Cards reported.
                        got: usize,
                    },
                    /// The outcome uses a card the pile does not (or no longer) hold.
                    #[error($pile)]
                    "card_not_in_pile" CardNotInPile {
                        /// The first unavailable card.
                        card: $card,
                    },
                )?
                $(
                    $(#[$vmeta])*
                    $code $variant $({ $($fields)* })?
                ),*
            }
        }
        $(
            impl $crate::games::kit::refusal::UnexpectedKind<$kind> for $name {
                fn unexpected(expected: $kind, got: $kind) -> Self {
                    $name::UnexpectedChanceKind { expected, got }
                }
            }
        )?
        $($crate::games::kit::deal::mismatch_is_violation!($name, $card);)?
    };
    (
        @declare
        $(#[$meta:meta])*
        $vis:vis enum $name:ident: Common<$waiting:ty> {
            $(stale = $stale:pat,)?
            $(
                $(#[$vmeta:meta])*
                $code:literal $variant:ident $({ $($fields:tt)* })?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(serde::Serialize, thiserror::Error, Debug, Clone, PartialEq, Eq)]
        #[serde(tag = "code")]
        $vis enum $name {
            $(
                $(#[$vmeta])*
                #[serde(rename = $code)]
                $variant $({ $($fields)* })?,
            )*
            /// A refusal every game shares (game over, chance pending, unknown seat...).
            #[serde(untagged)]
            #[error(transparent)]
            Common($crate::games::kit::refusal::Common<$waiting>),
        }

        impl $name {
            /// Each variant's name beside its code, in declaration order (the shared ones apart).
            #[allow(dead_code)]
            pub const VARIANTS: &'static [(&'static str, &'static str)] =
                &[$((stringify!($variant), $code)),*];
        }

        impl $crate::games::Violation for $name {
            fn code(&self) -> &'static str {
                match self {
                    $($name::$variant { .. } => $code,)*
                    $name::Common(common) => common.code(),
                }
            }
            $(
                fn is_stale(&self) -> bool {
                    matches!(self, $stale)
                }
            )?
        }

        impl From<$crate::games::kit::refusal::Common<$waiting>> for $name {
            fn from(common: $crate::games::kit::refusal::Common<$waiting>) -> Self {
                $name::Common(common)
            }
        }
    };
}
pub(crate) use violations;

/// `CardNotInHand` → `card_not_in_hand`: what `rename_all = "snake_case"` made of a variant name,
/// for tests that pin the codes.
pub fn snake_case(name: &str) -> String {
    let mut snake = String::with_capacity(name.len() + 4);
    for (i, c) in name.char_indices() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                snake.push('_');
            }
            snake.push(c.to_ascii_lowercase());
        } else {
            snake.push(c);
        }
    }
    snake
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Violation;

    violations! {
        /// A sample game's refusals.
        enum Sample: Common<Awaited<u8>> {
            stale = Sample::Renamed,
            /// A field.
            #[error("no {card} in hand")]
            "card_not_in_hand" CardNotInHand { card: u8 },
            /// No field.
            #[error("renamed")]
            "renamed_on_purpose" Renamed,
        }
    }

    fn tag(value: &impl Serialize) -> String {
        serde_json::to_value(value).unwrap()["code"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn a_violation_code_is_its_serde_tag() {
        let samples = [
            Sample::CardNotInHand { card: 3 },
            Sample::Renamed,
            Common::GameOver.into(),
            Common::awaiting(2).into(),
            Common::UnknownSeat {
                seat: 5,
                players: 4,
            }
            .into(),
            Common::NoChancePending.into(),
        ];
        for sample in &samples {
            assert_eq!(sample.code(), tag(sample), "{sample:?}");
        }
        assert_eq!(samples[0].code(), "card_not_in_hand");
        assert_eq!(samples[1].code(), "renamed_on_purpose");
        assert!(samples[1].is_stale() && !samples[0].is_stale());
        assert_eq!(
            Sample::VARIANTS,
            [
                ("CardNotInHand", "card_not_in_hand"),
                ("Renamed", "renamed_on_purpose")
            ]
        );
    }

    #[test]
    fn a_shared_refusal_serialises_as_the_games_own_variant_did() {
        let json = |v: &Sample| serde_json::to_value(v).unwrap();
        assert_eq!(
            json(&Common::awaiting(2).into()),
            serde_json::json!({"code": "chance_pending", "kind": 2})
        );
        assert_eq!(
            json(
                &Common::UnknownSeat {
                    seat: 5,
                    players: 4
                }
                .into()
            ),
            serde_json::json!({"code": "unknown_seat", "seat": 5, "players": 4})
        );
        assert_eq!(
            json(&Common::GameOver.into()),
            serde_json::json!({"code": "game_over"})
        );
        assert_eq!(
            serde_json::to_value(Common::<Unnamed>::ChancePending(Unnamed)).unwrap(),
            serde_json::json!({"code": "chance_pending"})
        );
        let over: Sample = Common::GameOver.into();
        assert_eq!(over.to_string(), "the game is over");
        let pending: Sample = Common::awaiting(2).into();
        assert_eq!(pending.to_string(), "waiting for a chance outcome (2)");
    }

    #[test]
    fn snake_case_is_what_serde_made_of_a_variant_name() {
        assert_eq!(snake_case("CardNotInHand"), "card_not_in_hand");
        assert_eq!(snake_case("GameOver"), "game_over");
    }
}
