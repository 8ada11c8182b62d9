//! Property tests: random legal play from random seeds keeps every invariant of Lucky Luau, and
//! a lei's score does not depend on where the circular string starts.

use proptest::prelude::*;
use referee::games::lucky_luau::{
    scoring, Card, Colour, Event, HookRule, LuckyLuau, Move, Options, Slot, State, PILE_SIZE,
};
use referee::games::{Game, Viewer};
use referee::seed::Seed;

use crate::invariants::{play_randomly, Random};

/// Moves to test `validate` against `legal_moves` with (finish with parameters aside).
fn candidates(state: &State) -> Vec<Move> {
    let mut all = vec![
        Move::DrawFaceDown,
        Move::Toss,
        Move::PlaceHook,
        Move::PlaceSpacer,
        Move::String { spacer: None },
        Move::Finish {
            guests: None,
            rainbows: None,
        },
    ];
    all.extend(Card::ALL.map(|card| Move::DrawFaceUp { card }));
    let longest = state.seats.iter().map(|p| p.lei.len()).max().unwrap_or(0);
    for index in 0..=longest {
        all.push(Move::Knife { index });
        all.push(Move::String {
            spacer: Some(index),
        });
    }
    all
}

fn cards_in(state: &State) -> usize {
    state.face_down.total()
        + state.face_up.total()
        + usize::from(state.pending.is_some())
        + state
            .seats
            .iter()
            .map(|p| {
                p.lei
                    .iter()
                    .chain(p.cut.iter())
                    .filter(|s| s.card().is_some())
                    .count()
            })
            .sum::<usize>()
}

fn check_secrecy(state: &State, viewer: Viewer) {
    let json = serde_json::to_value(LuckyLuau::view(state, viewer)).unwrap();
    assert!(json["face_down"].is_null(), "{viewer:?} sees the pile");
    if let Some(chance) = json["chance"].as_object() {
        assert!(chance["pile"].is_null(), "{viewer:?} sees the chance pile");
    }
    if let Some(p) = state.pending {
        if !p.face_up && !viewer.sees_seat(state.turn) {
            assert!(
                json["pending"]["card"].is_null(),
                "{viewer:?} sees a drawn card"
            );
        }
    }
}

fn check_event_secrecy(event: &Event, viewer: Viewer) {
    let redacted = LuckyLuau::redact_event(event, viewer);
    match (&redacted, event) {
        (
            Event::Drew {
                seat,
                face_up: false,
                card,
            },
            _,
        ) => {
            assert_eq!(
                card.is_some(),
                viewer.sees_seat(*seat),
                "{viewer:?} {event:?}"
            );
        }
        (other, _) => assert_eq!(other, event, "public events are unchanged"),
    }
}

fn options_from(flags: u8, first: usize, players: usize) -> Options {
    Options {
        hook_off_by_one: if flags & 1 == 0 {
            HookRule::CountDiff1
        } else {
            HookRule::WithinOnePosition
        },
        rainbow_chain: flags & 2 != 0,
        rare_provides_to_rare: flags & 4 == 0,
        first_player: first % players,
        ..Options::default()
    }
}

fn slot_strategy() -> impl Strategy<Value = Slot> {
    prop::sample::select(vec![
        Slot::Yellow,
        Slot::Red,
        Slot::Blue,
        Slot::Pink,
        Slot::Purple,
        Slot::Orange,
        Slot::Green,
        Slot::Rainbow,
        Slot::Ti,
        Slot::Mega,
        Slot::Kukui,
        Slot::Spacer,
    ])
}

fn slot_points(options: &Options, lei: &[Slot]) -> Vec<i64> {
    scoring::score_lei(options, lei, &[])
        .unwrap()
        .slots
        .iter()
        .map(|s| s.points)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_play_keeps_every_invariant(
        seed in prop::array::uniform32(any::<u8>()),
        players in 2usize..=6,
        flags in any::<u8>(),
        first in 0usize..6,
        picks in prop::collection::vec(any::<u32>(), 1..64),
    ) {
        let options = options_from(flags, first, players);
        LuckyLuau::validate_options(&options, players).unwrap();
        let random = Random { seed: Seed::from_bytes(seed), picks: &picks, max_plies: 2_000, check_every: 10 };
        let played = play_randomly::<LuckyLuau>(options, players, &random, |state, events| {
            prop_assert_eq!(cards_in(state), PILE_SIZE);
            for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Spectator]) {
                check_secrecy(state, viewer);
                for event in events {
                    check_event_secrecy(event, viewer);
                }
            }
            if LuckyLuau::is_over(state) || LuckyLuau::chance_pending(state) {
                return Ok(());
            }
            let to_act = LuckyLuau::to_act(state);
            let all = candidates(state);
            for seat in 0..players {
                let legal = LuckyLuau::legal_moves(state, seat);
                for mv in &all {
                    let valid = LuckyLuau::validate(state, seat, mv).is_ok()
                        && to_act.contains(&seat);
                    prop_assert_eq!(valid, legal.contains(mv), "seat {} {:?}", seat, mv);
                }
            }
            Ok(())
        })?;
        let state = played.state;
        prop_assert!(LuckyLuau::is_over(&state), "tools are finite and the centre empties");
        prop_assert_eq!(state.face_down.total() + state.face_up.total(), 0);
        let score = LuckyLuau::score(&state);
        let best = *score.totals.iter().max().unwrap();
        prop_assert!(score.winners.iter().all(|&w| score.totals[w] == best));
        prop_assert!(!score.winners.is_empty());
        prop_assert_eq!(LuckyLuau::standings(&state).winners, score.winners);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The lei is a necklace: without a Fish Hook, rotating the string (starting it at another
    /// card) leaves the total unchanged, and with at most one Rainbow every card's points move
    /// with the card. Reversing it changes nothing either ("it does not matter which side the
    /// flowers are on"). Two Rainbows can have two best colourings of equal total; the referee
    /// then keeps the first Rainbow's first colour, so which cards score may follow the start
    /// (see the fixed case below).
    #[test]
    fn a_hookless_lei_scores_the_same_from_any_starting_card(
        lei in prop::collection::vec(slot_strategy(), 0..14),
        shift in 0usize..14,
        flags in any::<u8>(),
    ) {
        let options = options_from(flags, 0, 2);
        let n = lei.len();
        let base = slot_points(&options, &lei);
        let k = if n == 0 { 0 } else { shift % n };
        let mut rotated = lei.clone();
        rotated.rotate_left(k);
        let mut expected = base.clone();
        expected.rotate_left(k);
        // Kukui: the set is reported on the first nut; compare it as a set total.
        let nut_total = |lei: &[Slot], points: &[i64]| -> i64 {
            lei.iter().zip(points).filter(|(s, _)| **s == Slot::Kukui).map(|(_, p)| p).sum()
        };
        let got = slot_points(&options, &rotated);
        prop_assert_eq!(got.iter().sum::<i64>(), base.iter().sum::<i64>());
        prop_assert_eq!(nut_total(&rotated, &got), nut_total(&lei, &base));
        let rainbows = lei.iter().filter(|&&s| s == Slot::Rainbow).count();
        for i in 0..n {
            if rotated[i] != Slot::Kukui && rainbows <= 1 {
                prop_assert_eq!(got[i], expected[i], "slot {} of {:?}", i, rotated);
            }
        }
        let mut reversed = lei.clone();
        reversed.reverse();
        prop_assert_eq!(slot_points(&options, &reversed).iter().sum::<i64>(), base.iter().sum::<i64>());
    }

    /// With a Fish Hook the hook counts its left and right linearly (RULINGS 4.5), so the precise
    /// property is: rotating the string leaves the points of every card other than the hook
    /// unchanged in total, and the hook scores what its new linear position (L, R) gives.
    #[test]
    fn with_a_hook_only_the_hooks_points_depend_on_where_the_string_starts(
        lei in prop::collection::vec(slot_strategy(), 0..13),
        at in 0usize..14,
        shift in 0usize..14,
    ) {
        let options = Options::default();
        let mut lei = lei;
        let at = at % (lei.len() + 1);
        lei.insert(at, Slot::Hook);
        let n = lei.len();
        let k = shift % n;
        let base = slot_points(&options, &lei);
        let mut rotated = lei.clone();
        rotated.rotate_left(k);
        let got = slot_points(&options, &rotated);
        let non_hook = |lei: &[Slot], points: &[i64]| -> i64 {
            lei.iter().zip(points).filter(|(s, _)| **s != Slot::Hook).map(|(_, p)| p).sum()
        };
        prop_assert_eq!(non_hook(&rotated, &got), non_hook(&lei, &base));
        let hook_at = rotated.iter().position(|&s| s == Slot::Hook).unwrap();
        prop_assert_eq!(
            got[hook_at],
            scoring::hook_points(options.hook_off_by_one, hook_at, n - 1 - hook_at)
        );
    }

    /// A Rainbow the referee colours never scores less than any colour it could declare.
    #[test]
    fn the_automatic_rainbow_colour_is_at_least_as_good_as_any_declared_one(
        lei in prop::collection::vec(slot_strategy(), 1..10),
        colour in prop::sample::select(Colour::ALL.to_vec()),
    ) {
        let options = Options::default();
        let mut lei = lei;
        lei.push(Slot::Rainbow);
        let rainbows = lei.iter().filter(|&&s| s == Slot::Rainbow).count();
        let auto = scoring::score_lei(&options, &lei, &[]).unwrap().points;
        let declared = vec![Some(colour); rainbows];
        if let Ok(scored) = scoring::score_lei(&options, &lei, &declared) {
            prop_assert!(scored.points <= auto);
        }
    }
}

/// Rulebook, Rainbow Flowers: a Rainbow scores as "any non-Rare flower it is next to", one colour;
/// RULINGS 4.5: the referee picks the colouring that maximises the player's score. Here the two
/// Rainbows have two best colourings (one as Blue and the other as Red, either way round, 14
/// points): rotating the string keeps the total, while the breakdown follows the first Rainbow
/// of the string. Found by the property above on a CI run.
#[test]
fn two_rainbows_with_two_best_colourings_score_the_same_total_from_any_starting_card() {
    use Slot::*;
    let lei = [Blue, Rainbow, Red, Blue, Yellow, Ti, Red, Rainbow];
    let options = Options::default();
    let base = slot_points(&options, &lei);
    assert_eq!(base.iter().sum::<i64>(), 14, "{base:?}");
    let mut breakdowns = std::collections::BTreeSet::new();
    for k in 0..lei.len() {
        let mut rotated = lei;
        rotated.rotate_left(k);
        let mut got = slot_points(&options, &rotated);
        assert_eq!(got.iter().sum::<i64>(), 14, "start {k}: {got:?}");
        got.rotate_right(k);
        breakdowns.insert(got);
    }
    assert_eq!(
        breakdowns.len(),
        2,
        "both best colourings appear: {breakdowns:?}"
    );
}
