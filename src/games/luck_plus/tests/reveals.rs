//! Which moves show what was hidden (`Rules::reveals`): none. RULINGS 1.3: every hand is
//! face up; only the draw pile's order is hidden, and chance events show the cards drawn.

use super::*;
use crate::games::kit::sightings;

#[test]
fn no_move_reveals_anything_since_every_seat_sees_what_a_spectator_sees() {
    // Through whole random games: each seat's view is the spectator's and no event is redacted,
    // so nothing is hidden from any seat or spectator for a move to show; every legal move
    // answers false, and every kind of move is played on the way.
    let kinds = sightings::all_public::<LuckPlus>(0..12, |seed| {
        (Options::default(), 2 + (seed as usize % 5))
    });
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        [
            "bonus",
            "draw",
            "keep",
            "luck_plus",
            "play",
            "roll",
            "transfer"
        ],
        "every kind of move was weighed"
    );
}
