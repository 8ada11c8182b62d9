//! The checks a reported deal or draw must pass, whichever game: the right number of hands, the
//! right number of cards in each, and only cards the pile still holds (counting repeats). Each
//! game turns a [`Mismatch`] into its own violation with a `From` impl, so the codes stay its own.

use super::counts::{CardKind, Counts};
use super::hand;

/// Why a reported deal or draw could not have come from the pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mismatch<C> {
    /// Not one hand (or face-up row, or coaster) per seat that should get one.
    HandCount { expected: usize, got: usize },
    /// A hand, or the draw, with the wrong number of cards.
    CardCount { expected: usize, got: usize },
    /// The first card the pile cannot supply.
    NotInPile(C),
}

/// A pile that can say which of some cards it cannot supply.
pub trait Pile<C> {
    /// The first card of `cards` (in order) this pile cannot supply, counting repeats.
    fn first_missing(&self, cards: &[C]) -> Option<C>;
}

impl<K: CardKind> Pile<K> for Counts<K> {
    fn first_missing(&self, cards: &[K]) -> Option<K> {
        Counts::first_missing(self, cards)
    }
}

/// A pile kept as a list (sorted or not).
impl<C: Ord + Copy> Pile<C> for [C] {
    fn first_missing(&self, cards: &[C]) -> Option<C> {
        hand::first_missing(self, cards)
    }
}

/// `got` hands where `expected` are dealt.
pub fn hand_count<C>(expected: usize, got: usize) -> Result<(), Mismatch<C>> {
    if got == expected {
        return Ok(());
    }
    Err(Mismatch::HandCount { expected, got })
}

/// Every list holds `per_list` cards; else the first that does not.
pub fn card_counts<C>(lists: &[Vec<C>], per_list: usize) -> Result<(), Mismatch<C>> {
    match lists.iter().find(|list| list.len() != per_list) {
        None => Ok(()),
        Some(list) => Err(Mismatch::CardCount {
            expected: per_list,
            got: list.len(),
        }),
    }
}

/// Every card of `cards` is still in `pile`, counting repeats.
pub fn from_pile<C: Copy>(pile: &(impl Pile<C> + ?Sized), cards: &[C]) -> Result<(), Mismatch<C>> {
    match pile.first_missing(cards) {
        None => Ok(()),
        Some(card) => Err(Mismatch::NotInPile(card)),
    }
}

/// A deal of `expected` hands of `per_hand` cards, plus `extra` cards turned up, all from `pile`.
pub fn check_deal<C: Copy>(
    pile: &(impl Pile<C> + ?Sized),
    hands: &[Vec<C>],
    expected: usize,
    per_hand: usize,
    extra: &[C],
) -> Result<(), Mismatch<C>> {
    hand_count(expected, hands.len())?;
    card_counts(hands, per_hand)?;
    dealt_from_pile(pile, hands, extra)
}

/// Every card of `hands` and `extra` together is still in `pile`, counting repeats.
pub fn dealt_from_pile<C: Copy>(
    pile: &(impl Pile<C> + ?Sized),
    hands: &[Vec<C>],
    extra: &[C],
) -> Result<(), Mismatch<C>> {
    let mut all: Vec<C> = hands.iter().flatten().copied().collect();
    all.extend_from_slice(extra);
    from_pile(pile, &all)
}

/// A draw of `expected` cards from `pile`.
pub fn check_draw<C: Copy>(
    pile: &(impl Pile<C> + ?Sized),
    cards: &[C],
    expected: usize,
) -> Result<(), Mismatch<C>> {
    if cards.len() != expected {
        return Err(Mismatch::CardCount {
            expected,
            got: cards.len(),
        });
    }
    from_pile(pile, cards)
}

/// Implements `From<Mismatch<$card>>` for a violation enum with the usual `WrongHandCount`,
/// `WrongCardCount` and `CardNotInPile` variants, so `?` turns a mismatch into the game's code.
macro_rules! mismatch_is_violation {
    ($violation:ident, $card:ty) => {
        impl From<$crate::games::kit::deal::Mismatch<$card>> for $violation {
            fn from(mismatch: $crate::games::kit::deal::Mismatch<$card>) -> Self {
                use $crate::games::kit::deal::Mismatch;
                match mismatch {
                    Mismatch::HandCount { expected, got } => {
                        $violation::WrongHandCount { expected, got }
                    }
                    Mismatch::CardCount { expected, got } => {
                        $violation::WrongCardCount { expected, got }
                    }
                    Mismatch::NotInPile(card) => $violation::CardNotInPile { card },
                }
            }
        }
    };
}
pub(crate) use mismatch_is_violation;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_is_checked_hands_then_cards_then_pile() {
        let pile = [1, 2, 2, 3, 4];
        let deal = |hands: &[Vec<u8>], extra: &[u8]| check_deal(&pile[..], hands, 2, 2, extra);
        assert_eq!(deal(&[vec![2, 1], vec![2, 3]], &[4]), Ok(()));
        assert_eq!(
            deal(&[vec![2, 1]], &[]),
            Err(Mismatch::HandCount {
                expected: 2,
                got: 1
            })
        );
        assert_eq!(
            deal(&[vec![2, 1], vec![2]], &[]),
            Err(Mismatch::CardCount {
                expected: 2,
                got: 1
            })
        );
        assert_eq!(
            deal(&[vec![2, 2], vec![2, 3]], &[]),
            Err(Mismatch::NotInPile(2))
        );
        assert_eq!(
            check_draw(&pile[..], &[4, 4], 2),
            Err(Mismatch::NotInPile(4))
        );
        assert_eq!(
            check_draw(&pile[..], &[4], 2),
            Err(Mismatch::CardCount {
                expected: 2,
                got: 1
            })
        );
    }
}
