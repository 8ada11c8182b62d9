//! Hands and piles kept as sorted lists, so that equal hands are equal lists and a card is found by
//! binary search.

/// `cards` as a hand is kept: sorted (a dealt hand arrives in any order).
pub fn sorted<C: Ord + Clone>(cards: &[C]) -> Vec<C> {
    let mut sorted = cards.to_vec();
    sorted.sort();
    sorted
}

/// Inserts `card` into the sorted `cards`, after any equal cards.
pub fn insert_sorted<C: Ord + Copy>(cards: &mut Vec<C>, card: C) {
    let at = cards.partition_point(|&c| c <= card);
    cards.insert(at, card);
}

/// Removes one `card` from the sorted `cards`; false (and no change) if there is none.
pub fn remove_one<C: Ord>(cards: &mut Vec<C>, card: C) -> bool {
    match cards.binary_search(&card) {
        Ok(at) => {
            cards.remove(at);
            true
        }
        Err(_) => false,
    }
}

/// The first card of `wanted` (in order) that the multiset `from` (sorted or not) cannot supply,
/// counting repeats.
pub fn first_missing<C: Ord + Copy>(from: &[C], wanted: &[C]) -> Option<C> {
    let mut left = from.to_vec();
    left.sort_unstable();
    wanted.iter().copied().find(|&c| !remove_one(&mut left, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_lists_behave_as_multisets() {
        let mut hand = vec![1, 3, 3, 7];
        insert_sorted(&mut hand, 3);
        insert_sorted(&mut hand, 0);
        assert_eq!(hand, [0, 1, 3, 3, 3, 7]);
        assert!(remove_one(&mut hand, 3));
        assert!(!remove_one(&mut hand, 5));
        assert_eq!(hand, [0, 1, 3, 3, 7]);
        assert_eq!(first_missing(&[3, 1, 3], &[3, 3, 1]), None);
        assert_eq!(first_missing(&[3, 1, 3], &[3, 1, 3, 3]), Some(3));
    }
}
