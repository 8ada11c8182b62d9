//! For the games' tests of `Rules::reveals`: which card identities a move shows each seat or
//! spectator that its view did not show before, found in the views and the redacted events.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::games::{Game, Seat, Viewer};

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
