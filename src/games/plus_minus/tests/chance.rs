//! Chance.

use super::*;

#[test]
fn a_reported_deal_or_draw_is_checked_exactly_and_a_bad_one_changes_nothing() {
    let state = PlusMinus::setup(PlusMinus::validate_options(&Options::default(), 3).unwrap());
    fn deal(hands: &[&str], face_up: &[&str]) -> Chance {
        Chance::Deal {
            hands: hands.iter().map(|h| cards(h)).collect(),
            face_up: face_up.iter().map(|f| cards(f)).collect(),
        }
    }
    let refusals = [
        (
            Chance::Draw { cards: cards("A") },
            V::UnexpectedChanceKind {
                expected: ChanceKind::Deal,
                got: ChanceKind::Draw,
            },
        ),
        (
            deal(&["2 3", "4 6"], &["A K", "9 J"]),
            V::WrongHandCount {
                expected: 3,
                got: 2,
            },
        ),
        (
            deal(&["2 3", "4 6 7", "7 8"], &["A K", "9 J", "5 5"]),
            V::WrongCardCount {
                expected: 2,
                got: 3,
            },
        ),
        (
            deal(&["2 2", "2 2", "2 8"], &["A K", "9 J", "5 5"]),
            V::CardNotInPile { card: Card::Two },
        ),
    ];
    for (outcome, refusal) in refusals {
        let mut copy = state.clone();
        let err = PlusMinus::resolve_chance(&mut copy, &outcome).unwrap_err();
        assert_eq!(err, refusal, "{outcome:?}");
        assert_eq!(copy, state, "a refused {outcome:?} changed the table");
    }
    let mut state = table(
        &["9 2", "3 3", "3 3"],
        &[("7", "2"), ("5", "J"), ("8", "Q")],
        0,
    );
    assert_eq!(
        PlusMinus::resolve_chance(&mut state, &Chance::Draw { cards: cards("A") }),
        Err(V::from(Common::NoChancePending))
    );
    ok(&mut state, 0, &play("9", plus(2)));
    ok(&mut state, 0, &pass("2"));
    let before = state.clone();
    assert_eq!(
        PlusMinus::resolve_chance(
            &mut state,
            &Chance::Draw {
                cards: cards("A 2")
            }
        ),
        Err(V::WrongCardCount {
            expected: 1,
            got: 2
        })
    );
    assert_eq!(
        PlusMinus::resolve_chance(&mut state, &Chance::Draw { cards: cards("3") }),
        Err(V::CardNotInPile { card: Card::Three })
    );
    assert_eq!(state, before);
}

#[test]
fn sampling_draws_only_cards_still_in_the_pile_and_is_reproducible() {
    let state = PlusMinus::setup(PlusMinus::validate_options(&Options::default(), 6).unwrap());
    let a = PlusMinus::sample_chance(&state, &mut SplitMix(11));
    let b = PlusMinus::sample_chance(&state, &mut SplitMix(11));
    assert_eq!(a, b);
    let Chance::Deal { hands, face_up } = &a else {
        panic!()
    };
    let all: Vec<Card> = hands.iter().chain(face_up).flatten().copied().collect();
    assert_eq!(all.len(), 24);
    assert_eq!(first_missing(&full_deck(), &all), None);
}
