//! Components and setup.

use super::*;

#[test]
fn the_pile_holds_the_46_printed_cards() {
    // RB "Game Contents"; RULINGS 4.1.
    let pile = Counts::full_pile();
    assert_eq!(pile.total(), PILE_SIZE);
    assert_eq!(
        (
            pile.get(Card::Pink),
            pile.get(Card::Blue),
            pile.get(Card::Red),
            pile.get(Card::Yellow)
        ),
        (4, 5, 6, 7),
        "4 Pink, 5 Blue, 6 Red, 7 Yellow"
    );
    assert_eq!(
        (
            pile.get(Card::Purple),
            pile.get(Card::Orange),
            pile.get(Card::Green),
            pile.get(Card::Rainbow)
        ),
        (2, 2, 2, 2)
    );
    assert_eq!(
        (
            pile.get(Card::Ti),
            pile.get(Card::Mega),
            pile.get(Card::Kukui)
        ),
        (8, 2, 6)
    );
}

#[test]
fn setup_gives_every_player_unused_tools_and_the_first_player_the_turn() {
    // RB "Game Setup": a Knife, a Fish Hook and a Spacer each; RULINGS 4.2 / option first_player.
    let state = LuckyLuau::setup(
        LuckyLuau::validate_options(
            &Options {
                first_player: 2,
                ..Options::default()
            },
            3,
        )
        .unwrap(),
    );
    assert_eq!(state.turn, 2);
    assert!(state.chance.is_none(), "nothing is dealt");
    assert!(state
        .seats
        .iter()
        .all(|p| !p.knife_used && !p.hook_used && !p.spacer_used && p.lei.is_empty()));
    assert_eq!(LuckyLuau::to_act(&state), vec![2, 0, 1]);
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn options_are_checked_and_name_the_offending_option() {
    let check = |o: Options, players| {
        LuckyLuau::validate_options(&o, players)
            .map(drop)
            .map_err(|e| e.option)
    };
    assert_eq!(check(Options::default(), 1), Err("players"));
    assert_eq!(
        check(Options::default(), 7),
        Err("players"),
        "6 tool sets (L10)"
    );
    assert_eq!(check(Options::default(), 6), Ok(()));
    assert_eq!(
        check(
            Options {
                pink_value: 21,
                ..Options::default()
            },
            2
        ),
        Err("pink_value")
    );
    assert_eq!(
        check(
            Options {
                ti_value: -1,
                ..Options::default()
            },
            2
        ),
        Err("ti_value")
    );
    assert_eq!(
        check(
            Options {
                orange_colours: [Colour::Red, Colour::Red],
                ..Options::default()
            },
            2
        ),
        Err("orange_colours")
    );
    assert_eq!(
        check(
            Options {
                unused_tools_in_pile: true,
                ..Options::default()
            },
            2
        ),
        Err("unused_tools_in_pile")
    );
    assert_eq!(
        check(
            Options {
                first_player: 2,
                ..Options::default()
            },
            2
        ),
        Err("first_player")
    );
}
