//! Which moves show what was hidden (`Rules::reveals`): none. RULINGS 3.3: all public but
//! the coaster pile's order; coasters and dice faces come with chance events.

use super::*;
use crate::games::chance::Randomness;
use crate::games::Game;

/// A viewer's view without what differs by design: who it is for and its legal moves.
fn public_part(state: &State, viewer: Viewer) -> serde_json::Value {
    let mut view = serde_json::to_value(LuckyDice::view(state, viewer)).unwrap();
    for field in ["viewer", "legal_moves"] {
        view.as_object_mut().unwrap().remove(field);
    }
    view
}

#[test]
fn no_move_reveals_anything_since_every_seat_sees_what_a_spectator_sees() {
    // Through whole random games: each seat's view is the spectator's and no event is redacted,
    // so nothing is hidden from any seat or spectator for a move to show; every legal move
    // answers false, and every kind of move is played on the way.
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..12u64 {
        let players = 2 + (seed as usize % 5);
        // With auto_stop off, "Stop!" is a move of its own.
        let options = Options {
            auto_stop: seed % 2 == 0,
            ..Options::default()
        };
        let mut state = LuckyDice::setup(LuckyDice::validate_options(&options, players).unwrap());
        let rng: &mut dyn Randomness = &mut SplitMix(seed);
        for _ in 0..300 {
            if LuckyDice::is_over(&state) {
                break;
            }
            let spectator = public_part(&state, Viewer::Spectator);
            for seat in 0..players {
                assert_eq!(public_part(&state, Viewer::Seat(seat)), spectator);
            }
            let events = if LuckyDice::chance_pending(&state) {
                let outcome = LuckyDice::sample_chance(&state, rng);
                LuckyDice::resolve_chance(&mut state, &outcome).unwrap()
            } else {
                let seats = LuckyDice::to_act(&state);
                let seat = seats[rng.below(seats.len())];
                let moves = LuckyDice::legal_moves(&state, seat);
                for mv in &moves {
                    assert!(!LuckyDice::reveals(&state, seat, mv), "{mv:?}");
                }
                let mv = moves[rng.below(moves.len())].clone();
                kinds.insert(
                    serde_json::to_value(&mv).unwrap()["type"]
                        .as_str()
                        .unwrap()
                        .to_owned(),
                );
                LuckyDice::play(&mut state, seat, &mv).unwrap()
            };
            for event in &events {
                for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Spectator]) {
                    assert_eq!(&LuckyDice::redact_event(event, viewer), event);
                }
            }
        }
    }
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["extra_roll", "finish_extra_rolls", "roll", "stop"],
        "every kind of move was weighed"
    );
}
