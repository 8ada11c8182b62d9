//! For the games' tests of `Rules::reveals`: which card identities a move shows each seat or
//! spectator that its view did not show before, found in the views and the redacted events; and,
//! for games with nothing hidden but the pile's order, random games that check so.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use serde_json::Value;

use crate::games::chance::tests::SplitMix;
use crate::games::{Game, Randomness, Seat, Viewer};

/// Counts each card identity in `value`: a string naming a card, or a card's count in a
/// multiset (`Counts` is an object keyed by card).
pub fn count_cards(
    value: &Value,
    is_card: &dyn Fn(&str) -> bool,
    into: &mut BTreeMap<String, u64>,
) {
    match value {
        Value::String(s) if is_card(s) => *into.entry(s.clone()).or_default() += 1,
        Value::Array(items) => items.iter().for_each(|v| count_cards(v, is_card, into)),
        Value::Object(fields) => {
            for (key, v) in fields {
                match v.as_u64() {
                    Some(n) if is_card(key) => *into.entry(key.clone()).or_default() += n,
                    _ => count_cards(v, is_card, into),
                }
            }
        }
        _ => {}
    }
}

/// The card identities `viewer` sees in the view: its legal moves (its own cards again) and
/// `skip`ped derived fields left out.
pub fn seen<G: Game>(
    state: &G::State,
    viewer: Viewer,
    skip: &[&str],
    is_card: &dyn Fn(&str) -> bool,
) -> BTreeMap<String, u64> {
    let mut view = serde_json::to_value(G::view(state, viewer)).unwrap();
    for field in ["legal_moves", "viewer", "options"].iter().chain(skip) {
        view.as_object_mut().unwrap().remove(*field);
    }
    let mut cards = BTreeMap::new();
    count_cards(&view, is_card, &mut cards);
    cards
}

/// Every (viewer, card) such that, after `seat` plays `mv`, the viewer's view or one of the
/// move's events as redacted for it shows the card more often than its view did before. The
/// full view sees everything and is left out.
pub fn newly_seen<G: Game>(
    state: &G::State,
    seat: Seat,
    mv: &G::Move,
    skip: &[&str],
    is_card: &dyn Fn(&str) -> bool,
) -> Vec<(Viewer, String)> {
    let mut after = state.clone();
    let events = G::play(&mut after, seat, mv).unwrap_or_else(|v| panic!("{mv:?}: {v:?}"));
    let viewers = (0..G::players(state))
        .map(Viewer::Seat)
        .chain([Viewer::Spectator]);
    let mut found = Vec::new();
    for viewer in viewers {
        let before = seen::<G>(state, viewer, skip, is_card);
        let mut shown = seen::<G>(&after, viewer, skip, is_card);
        for event in &events {
            let mut cards = BTreeMap::new();
            let redacted = serde_json::to_value(G::redact_event(event, viewer)).unwrap();
            count_cards(&redacted, is_card, &mut cards);
            for (card, n) in cards {
                let most = shown.entry(card).or_default();
                *most = (*most).max(n);
            }
        }
        for (card, n) in shown {
            if n > before.get(&card).copied().unwrap_or(0) {
                found.push((viewer, card));
            }
        }
    }
    found
}

/// A viewer's view without what differs by design: who it is for and its legal moves.
fn public_part<G: Game>(state: &G::State, viewer: Viewer) -> Value {
    let mut view = serde_json::to_value(G::view(state, viewer)).unwrap();
    for field in ["viewer", "legal_moves"] {
        view.as_object_mut().unwrap().remove(field);
    }
    view
}

/// Random games of a game whose hands are all face up, one per seed (`setup(seed)`: its options
/// and seat count), checking at every step that each seat's view is the spectator's, that no legal
/// move is said to reveal anything, and that no event is redacted for any viewer. The `type` of
/// every move played, for the caller to check that each kind was weighed.
pub fn all_public<G: Game>(
    seeds: Range<u64>,
    setup: impl Fn(u64) -> (G::Options, usize),
) -> BTreeSet<String> {
    let mut kinds = BTreeSet::new();
    for seed in seeds {
        let (options, players) = setup(seed);
        let mut state = G::setup(G::validate_options(&options, players).unwrap());
        let rng: &mut dyn Randomness = &mut SplitMix(seed);
        for _ in 0..300 {
            if G::is_over(&state) {
                break;
            }
            let spectator = public_part::<G>(&state, Viewer::Spectator);
            for seat in 0..players {
                assert_eq!(public_part::<G>(&state, Viewer::Seat(seat)), spectator);
            }
            let events = if G::chance_pending(&state) {
                let outcome = G::sample_chance(&state, rng);
                G::resolve_chance(&mut state, &outcome).unwrap()
            } else {
                let seats = G::to_act(&state);
                let seat = seats[rng.below(seats.len())];
                let moves = G::legal_moves(&state, seat);
                for mv in &moves {
                    assert!(!G::reveals(&state, seat, mv), "{mv:?}");
                }
                let mv = moves[rng.below(moves.len())].clone();
                kinds.insert(
                    serde_json::to_value(&mv).unwrap()["type"]
                        .as_str()
                        .unwrap()
                        .to_owned(),
                );
                G::play(&mut state, seat, &mv).unwrap()
            };
            for event in &events {
                for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Spectator]) {
                    assert_eq!(&G::redact_event(event, viewer), event);
                }
            }
        }
    }
    kinds
}
