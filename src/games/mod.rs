//! The rules core: one module per game behind the [`Game`] trait.
//!
//! Everything below `src/games/` is pure. It never touches actix, diesel, tokio, the clock or the
//! network, and it never owns a random generator: when a game needs chance it says so in its state,
//! and the caller resolves it, either by lending a [`Randomness`] source (server-seeded matches) or
//! by reporting what happened at a physical table. `tests/rules/purity.rs` enforces the import rule.
//!
//! The games themselves are listed once, in [`crate::for_each_game`]: [`GameKind`], its list
//! [`GameKind::ALL`], and the [`crate::with_game`] dispatch are generated from
//! that list, so adding a game is its folder, its `mod` line here and its line there; the
//! compiler points at anything else (the game's `Game::KIND`, exhaustive matches on `GameKind`).
//!
//! Each game's folder has the same files: `mod.rs` (the engine, `impl Game`), `options.rs`
//! (options and their checks), `state.rs` (the state, its phase and pending chance), `moves.rs`
//! (moves, chance outcomes, events), `score.rs` (score, round results, score-sheet tallies),
//! `view.rs` (view types and redaction), `violation.rs` (why a move is refused), `rules.rs`
//! (legality and effects; a folder for Luck Plus) and `consistency.rs` (whether a client-supplied
//! state could have arisen from play), plus its equipment (`cards.rs`, `dice.rs`) and its unit
//! tests (`tests/`, one file per rule area). What several games share lives in [`kit`],
//! the refusals every game shares included.

pub mod chance;
mod game;
pub mod kit;
pub mod standings;

pub mod luck_plus;
pub mod lucky_dice;
pub mod lucky_jack;
pub mod lucky_luau;
pub mod plus_minus;

pub use chance::Randomness;
pub use game::{
    ChanceOwner, Consistent, Game, Highlights, Inconsistency, OptionRules, OptionsError, Ranked,
    Redact, Rules, Seat, Sight, Table, ValidOptions, Viewer, Violation, Wire,
};
pub use standings::{Order, Standings};

/// The registry: every game this service referees, one line each, as
/// `module::Engine: Variant, "slug", "Title";` (the slug names the game in URLs, storage and JSON;
/// the title is the name printed on the box). It hands the list to the macro `$callback`, which
/// generates whatever needs every game; `$args` are passed through ahead of the list.
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_game {
    ($callback:ident! $($args:tt)*) => {
        $crate::$callback! {
            ($($args)*)
            lucky_jack::LuckyJack: LuckyJack, "lucky-jack", "Lucky Jack";
            lucky_dice::LuckyDice: LuckyDice, "lucky-dice", "Lucky Dice";
            luck_plus::LuckPlus: LuckPlus, "luck-plus", "Luck Plus";
            plus_minus::PlusMinus: PlusMinus, "plus-minus", "Plus & Minus";
            lucky_luau::LuckyLuau: LuckyLuau, "lucky-luau", "Lucky Luau";
        }
    };
}

/// Generates [`GameKind`] from the registry.
#[doc(hidden)]
#[macro_export]
macro_rules! __define_games {
    (() $($module:ident::$engine:ident: $variant:ident, $slug:tt, $title:tt;)*) => {
        /// The games this service referees.
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
            utoipa::ToSchema,
        )]
        pub enum GameKind {
            $(#[serde(rename = $slug)] $variant,)*
        }

        impl GameKind {
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),*];

            /// The URL and storage name of the game.
            pub fn slug(self) -> &'static str {
                match self {
                    $(GameKind::$variant => $slug,)*
                }
            }

            /// The name printed on the box.
            pub fn title(self) -> &'static str {
                match self {
                    $(GameKind::$variant => $title,)*
                }
            }

            pub fn from_slug(slug: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|kind| kind.slug() == slug)
            }
        }
    };
}

crate::for_each_game!(__define_games!);

/// The arms of [`crate::with_game`], one per registered game.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_arms {
    (($kind:expr, $G:ident, $body:expr) $($module:ident::$engine:ident: $variant:ident, $slug:tt, $title:tt;)*) => {
        match $kind {
            $(
                $crate::games::GameKind::$variant => {
                    type $G = $crate::games::$module::$engine;
                    $body
                }
            )*
        }
    };
}

/// Runs `$body` with `$G` bound to the [`Game`] type of `$kind`: the one place that turns a
/// runtime game kind into static dispatch. Its arms come from the registry.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        $crate::for_each_game!(__with_game_arms! $kind, $G, $body)
    };
}
