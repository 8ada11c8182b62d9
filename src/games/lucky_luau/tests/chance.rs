//! Chance.

use super::*;

#[test]
fn a_reported_card_must_still_be_face_down_and_a_refusal_changes_nothing() {
    let mut state = near_end(&[Card::Blue]);
    assert_eq!(
        LuckyLuau::resolve_chance(&mut state, &Chance::Draw { card: Card::Blue })
            .unwrap_err()
            .code(),
        "no_chance_pending"
    );
    play(&mut state, 0, Move::DrawFaceDown);
    let before = state.clone();
    let refused =
        LuckyLuau::resolve_chance(&mut state, &Chance::Draw { card: Card::Red }).unwrap_err();
    assert_eq!(refused, V::CardNotInPile { card: Card::Red });
    assert_eq!(state, before);
}

#[test]
fn seeded_draws_sample_the_face_down_pile_and_are_reproducible() {
    let mut state = near_end(&[Card::Green, Card::Mega]);
    play(&mut state, 0, Move::DrawFaceDown);
    let a = LuckyLuau::sample_chance(&state, &mut SplitMix(9));
    let b = LuckyLuau::sample_chance(&state, &mut SplitMix(9));
    assert_eq!(a, b);
    let mut seen = std::collections::BTreeSet::new();
    for k in 0..64 {
        let Chance::Draw { card } = LuckyLuau::sample_chance(&state, &mut SplitMix(k));
        seen.insert(card);
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        vec![Card::Green, Card::Mega]
    );
}
