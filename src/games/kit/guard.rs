//! The checks a move or a reported chance outcome meets before any rule of the game, with the
//! refusals every game shares: written once so that the order they are met in (and so the code a
//! client sees when several apply) is the same wherever a game checks them this way.

use super::refusal::{Awaited, Common, UnexpectedKind};
use crate::games::Seat;

/// A chance event, awaited or reported, known by its kind `K` (a deal, a draw, a roll...): what a
/// `chance_pending` refusal names, and what a reported outcome must match.
pub trait OfKind<K> {
    fn kind(&self) -> K;
}

/// Implements [`OfKind`] for a game's chance types (`$chance`: its outcome, its pending chance)
/// whose variants are named after the kinds of `$kind`: `Chance::Deal { .. }` is a `Deal`.
macro_rules! kinds_by_name {
    ($kind:ident $variants:tt for $($chance:ident),+) => {
        $($crate::games::kit::guard::kinds_by_name!(@one $kind $chance $variants);)+
    };
    (@one $kind:ident $chance:ident { $($variant:ident),+ $(,)? }) => {
        impl $crate::games::kit::guard::OfKind<$kind> for $chance {
            fn kind(&self) -> $kind {
                match self {
                    $($chance::$variant { .. } => $kind::$variant,)+
                }
            }
        }
    };
}
pub(crate) use kinds_by_name;

/// Whether `seat` may move at all: not once the game is over, not while the chance event
/// `pending` is awaited, and only from one of the `players` seats (in that order).
pub fn may_move<K, P: OfKind<K>>(
    over: bool,
    pending: Option<&P>,
    seat: Seat,
    players: usize,
) -> Result<(), Common<Awaited<K>>> {
    if over {
        return Err(Common::GameOver);
    }
    if let Some(chance) = pending {
        return Err(Common::awaiting(chance.kind()));
    }
    Common::seated(seat, players)
}

/// The awaited chance event that a reported `outcome` answers: `no_chance_pending` when none is
/// awaited, the game's own `unexpected_chance_kind` when the kinds differ. `V`, the game's violation
/// enum, is named by the caller: `answered::<V, _, _, _>(…)?`.
pub fn answered<'p, V, K, P, C>(pending: Option<&'p P>, outcome: &C) -> Result<&'p P, V>
where
    K: PartialEq,
    P: OfKind<K>,
    C: OfKind<K>,
    V: From<Common<Awaited<K>>> + UnexpectedKind<K>,
{
    let pending = pending.ok_or(V::from(Common::NoChancePending))?;
    if pending.kind() != outcome.kind() {
        return Err(V::unexpected(pending.kind(), outcome.kind()));
    }
    Ok(pending)
}

/// The chance event [`Game::sample_chance`](crate::games::Game::sample_chance) samples: one is
/// pending, its precondition.
// Engine invariant: callers ask `Game::chance_pending` first.
#[allow(clippy::expect_used)]
pub fn to_sample<P>(pending: Option<&P>) -> &P {
    pending.expect("sample_chance needs a pending chance event")
}
