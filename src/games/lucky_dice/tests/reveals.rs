//! Which moves show what was hidden (`Rules::reveals`): none. RULINGS 3.3: all public but
//! the coaster pile's order; coasters and dice faces come with chance events.

use super::*;
use crate::games::kit::sightings;

#[test]
fn no_move_reveals_anything_since_every_seat_sees_what_a_spectator_sees() {
    // Through whole random games: each seat's view is the spectator's and no event is redacted,
    // so nothing is hidden from any seat or spectator for a move to show; every legal move
    // answers false, and every kind of move is played on the way.
    let kinds = sightings::all_public::<LuckyDice>(0..12, |seed| {
        // With auto_stop off, "Stop!" is a move of its own.
        let options = Options {
            auto_stop: seed % 2 == 0,
            ..Options::default()
        };
        (options, 2 + (seed as usize % 5))
    });
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["extra_roll", "finish_extra_rolls", "roll", "stop"],
        "every kind of move was weighed"
    );
}
