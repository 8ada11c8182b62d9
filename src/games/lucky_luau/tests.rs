//! Unit tests, one per rule and option, citing the rulebook ("RB") or RULINGS §4.

use super::*;
use crate::games::chance::tests::SplitMix;
use crate::games::Violation as _;
use LuckyLuauViolation as V;

fn parsed(text: &str) -> words::ParsedLei {
    words::parse_lei(0, &LeiText::Words(text.into())).expect("valid lei words")
}

fn points_with(options: &Options, text: &str) -> Vec<i64> {
    let p = parsed(text);
    scoring::score_lei(options, &p.lei, &p.declared)
        .unwrap()
        .slots
        .iter()
        .map(|s| s.points)
        .collect()
}

fn points(text: &str) -> Vec<i64> {
    points_with(&Options::default(), text)
}

fn total(text: &str) -> i64 {
    points(text).iter().sum()
}

const SAMPLE: &str = "blue red purple blue hook kukui blue rainbow";

fn new_game(players: usize) -> State {
    LuckyLuau::setup(Options::default(), players)
}

fn play(state: &mut State, seat: Seat, mv: Move) -> Vec<Event> {
    LuckyLuau::play(state, seat, &mv).unwrap_or_else(|e| panic!("{mv:?} by {seat}: {e}"))
}

fn refuse(state: &State, seat: Seat, mv: Move) -> &'static str {
    LuckyLuau::validate(state, seat, &mv)
        .expect_err("the move should be refused")
        .code()
}

fn draw(state: &mut State, seat: Seat, card: Card) {
    play(state, seat, Move::DrawFaceDown);
    LuckyLuau::resolve_chance(state, &Chance::Draw { card }).unwrap();
}

fn string_end() -> Move {
    Move::String { spacer: None }
}

/// A state in play where only `centre` remains in the face-down pile (the rest is on the leis
/// of seat 0 and 1, alternating, as plain strung cards).
fn near_end(centre: &[Card]) -> State {
    let mut state = new_game(2);
    let mut rest = Counts::full_pile();
    for &c in centre {
        assert!(rest.take(c));
    }
    for (i, card) in rest.canonical().into_iter().enumerate() {
        state.seats[i % 2].lei.push(card.into());
    }
    state.face_down = Counts::of(centre.iter().copied());
    LuckyLuau::check_state(&state).unwrap();
    state
}

// ----- Components and setup -------------------------------------------------------------------

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
        Options {
            first_player: 2,
            ..Options::default()
        },
        3,
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
    let check =
        |o: Options, players| LuckyLuau::validate_options(&o, players).map_err(|e| e.option);
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

// ----- Lei scoring (RB "Scoring", card texts; RULINGS 4.5–4.7) -----------------------------

#[test]
fn the_rulebook_sample_lei_scores_33_card_by_card() {
    // RB "Sample Lei & Scoring"; RULINGS 4.7.
    assert_eq!(points(SAMPLE), vec![4, 3, 7, 4, 5, 2, 4, 4]);
    assert_eq!(total(SAMPLE), 33);
    let p = parsed(SAMPLE);
    let scored = scoring::score_lei(&Options::default(), &p.lei, &p.declared).unwrap();
    let reasons: Vec<&str> = scored.slots.iter().map(|s| s.reason.as_str()).collect();
    assert_eq!(reasons[0], "next to Rainbow (as blue) at 8, wrap-around");
    assert_eq!(reasons[1], "next to Purple at 3");
    assert_eq!(
        reasons[2],
        "red from Red at 2 (+3), blue from Blue at 4 (+4)"
    );
    assert_eq!(
        reasons[4],
        "4 slots left, 3 right: off by 1 from the centre"
    );
    assert_eq!(reasons[5], "the set: 1 Kukui Nut on the lei");
    assert_eq!(reasons[7], "acts as blue, next to Blue at 7");
    assert_eq!(scored.slots[7].acts_as, Some(Colour::Blue));
}

#[test]
fn the_sample_before_the_knife_cut_scores_28_so_the_cut_closes_the_lei() {
    // RULINGS 4.7 consistency check and L6: with the Yellow still there the hook is 5/3 → 0.
    assert_eq!(
        total("blue red purple blue yellow hook kukui blue rainbow"),
        28
    );
}

#[test]
fn a_lone_yellow_scores_nothing_and_neighbouring_yellows_score_two_each() {
    // RB: "A single Yellow Flower on its own will not give any points"; "2 points each".
    assert_eq!(points("yellow ti kukui"), vec![0, 0, 2]);
    assert_eq!(points("yellow yellow yellow ti"), vec![2, 2, 2, 0]);
}

#[test]
fn plain_flowers_score_their_value_next_to_their_colour() {
    // RULINGS 4.6: Yellow 2, Red 3, Blue 4, Pink 5 (inferred).
    assert_eq!(points("red red ti"), vec![3, 3, 0]);
    assert_eq!(points("blue blue ti"), vec![4, 4, 0]);
    assert_eq!(points("pink pink ti"), vec![5, 5, 0]);
    assert_eq!(points("pink red blue yellow ti"), vec![0, 0, 0, 0, 0]);
}

#[test]
fn the_green_example_scores_2_2_and_then_2_6_4() {
    // RB Rare Flowers example; RULINGS 4.6.
    assert_eq!(points("yellow green ti"), vec![2, 2, 0]);
    assert_eq!(points("yellow green blue ti"), vec![2, 6, 4, 0]);
    assert_eq!(
        points("blue green ti"),
        vec![4, 4, 0],
        "green's blue side alone is 4"
    );
}

#[test]
fn purple_is_red_and_blue_and_orange_is_red_and_yellow_by_default() {
    // RULINGS 4.5 table: purple 3/4/7, orange 3/2/5.
    assert_eq!(points("red purple blue ti"), vec![3, 7, 4, 0]);
    assert_eq!(points("red orange yellow ti"), vec![3, 5, 2, 0]);
    assert_eq!(points("blue orange ti"), vec![0, 0, 0]);
}

#[test]
fn the_orange_colours_option_changes_what_orange_is_made_of() {
    // RULINGS 4.8 orange_colours.
    let options = Options {
        orange_colours: [Colour::Pink, Colour::Yellow],
        ..Options::default()
    };
    assert_eq!(
        points_with(&options, "pink orange red ti"),
        vec![5, 5, 0, 0]
    );
}

#[test]
fn the_pink_and_ti_value_options_change_the_inferred_values() {
    // RULINGS L1: inferred values are options.
    let options = Options {
        pink_value: 6,
        ti_value: 2,
        ..Options::default()
    };
    assert_eq!(
        points_with(&options, "pink pink kukui ti ti"),
        vec![6, 6, 2, 2, 2]
    );
}

#[test]
fn adjacency_is_circular_so_the_first_card_pairs_with_the_last() {
    // RB "Scoring": "the first card may also score points when paired with the last card".
    assert_eq!(points("blue ti kukui blue"), vec![4, 0, 2, 4]);
}

#[test]
fn a_two_card_lei_has_one_neighbour_and_a_one_card_lei_none() {
    // RULINGS 4.5: N = 2 → one neighbour; N = 1 → none.
    assert_eq!(points("red red"), vec![3, 3]);
    assert_eq!(points("red"), vec![0]);
    assert_eq!(points("rainbow"), vec![0]);
    assert_eq!(scoring::neighbours(0, 2), vec![1]);
}

#[test]
fn each_card_scores_once_even_with_two_matching_neighbours() {
    // RULINGS L2: flat, not per neighbour (the sample's Rainbow is 4, not 8).
    assert_eq!(points("blue blue blue ti"), vec![4, 4, 4, 0]);
}

#[test]
fn a_rainbow_acts_as_one_adjacent_plain_colour_chosen_for_the_best_score() {
    // RB Rainbow Flowers; RULINGS 4.5 "referee picks the assignment maximising the score".
    assert_eq!(points("yellow rainbow blue ti"), vec![0, 4, 4, 0]);
    let p = parsed("yellow rainbow blue ti");
    let s = scoring::score_lei(&Options::default(), &p.lei, &p.declared).unwrap();
    assert_eq!(s.slots[1].acts_as, Some(Colour::Blue));
}

#[test]
fn a_rainbow_does_not_copy_a_rare_flower_or_another_rainbow() {
    // RB "any non-Rare flower (Yellow, Pink, Blue, or Red) it is next to"; RULINGS L4.
    assert_eq!(points("purple rainbow ti"), vec![0, 0, 0]);
    assert_eq!(points("blue rainbow rainbow ti"), vec![4, 4, 0, 0]);
}

#[test]
fn the_rainbow_chain_option_lets_a_rainbow_copy_a_grounded_rainbow() {
    // RULINGS 4.8 rainbow_chain.
    let options = Options {
        rainbow_chain: true,
        ..Options::default()
    };
    assert_eq!(
        points_with(&options, "blue rainbow rainbow ti"),
        vec![4, 4, 4, 0]
    );
}

#[test]
fn a_declared_rainbow_colour_is_used_and_must_be_adjacent() {
    // RULINGS 4.5: "unless the client declares one".
    assert_eq!(points("yellow rainbow:yellow blue ti"), vec![2, 2, 0, 0]);
    let p = parsed("yellow rainbow:pink blue ti");
    let refused = scoring::score_lei(&Options::default(), &p.lei, &p.declared).unwrap_err();
    assert_eq!(
        refused,
        V::RainbowColourNotAdjacent {
            position: 2,
            colour: Colour::Pink
        }
    );
}

#[test]
fn in_declared_mode_an_undeclared_rainbow_acts_as_no_colour() {
    // RULINGS 4.8 rainbow_assignment = declared.
    let options = Options {
        rainbow_assignment: RainbowAssignment::Declared,
        ..Options::default()
    };
    assert_eq!(points_with(&options, "blue rainbow ti"), vec![0, 0, 0]);
    assert_eq!(points_with(&options, "blue rainbow:blue ti"), vec![4, 4, 0]);
}

#[test]
fn rare_flowers_provide_to_each_other_unless_the_option_says_no() {
    // RULINGS L3 and option rare_provides_to_rare.
    assert_eq!(points("purple green ti"), vec![4, 4, 0]);
    let options = Options {
        rare_provides_to_rare: false,
        ..Options::default()
    };
    assert_eq!(points_with(&options, "purple green ti"), vec![0, 0, 0]);
}

#[test]
fn ti_leaves_score_next_to_a_leaf_and_mega_leaves_count_every_leaf() {
    // RB Mega Leaf: "1 point for every leaf anywhere ... including itself or the other Mega
    // Leaf. Regular leaves will score when next to a Mega Leaf."
    assert_eq!(points("ti ti kukui"), vec![1, 1, 2]);
    assert_eq!(points("ti mega kukui ti"), vec![1, 3, 2, 1]);
    assert_eq!(points("mega ti kukui mega ti"), vec![4, 1, 2, 4, 1]);
    assert_eq!(points("ti kukui ti kukui"), vec![0, 4, 0, 0]);
}

#[test]
fn kukui_nuts_score_as_a_set_2_4_8_16_and_no_more() {
    // RB Kukui Nuts.
    for (nuts, expected) in [(1, 2), (2, 4), (3, 8), (4, 16), (5, 16), (6, 16)] {
        let text = vec!["kukui"; nuts].join(" ");
        assert_eq!(total(&text), expected, "{nuts} nuts");
    }
    assert_eq!(
        points("kukui ti kukui"),
        vec![4, 0, 0],
        "the set scores on the first nut"
    );
}

#[test]
fn the_fish_hook_scores_10_in_the_centre_5_off_by_one_else_nothing() {
    // RB Fish Hook: "(ex: 5 on the left, 6 on the right)".
    assert_eq!(points("ti hook kukui")[1], 10);
    assert_eq!(points("ti ti ti ti ti hook ti ti ti ti ti ti")[5], 5);
    assert_eq!(points("ti hook kukui kukui")[1], 5);
    assert_eq!(points("hook ti kukui kukui")[0], 0);
    assert_eq!(points("hook")[0], 10, "alone: 0 left, 0 right");
    assert_eq!(scoring::hook_points(HookRule::CountDiff1, 4, 6), 0);
}

#[test]
fn the_within_one_position_option_reads_off_by_one_as_a_position() {
    // RULINGS L5: "then 4/6 in 11 cards = 5".
    assert_eq!(scoring::hook_points(HookRule::WithinOnePosition, 4, 6), 5);
    assert_eq!(scoring::hook_points(HookRule::WithinOnePosition, 4, 7), 0);
    assert_eq!(scoring::hook_points(HookRule::WithinOnePosition, 5, 5), 10);
}

#[test]
fn a_spacer_scores_nothing_blocks_adjacency_and_counts_as_a_card() {
    // RB Spacers: "count as a card on your lei for purposes of ... the Fish Hook".
    assert_eq!(points("blue spacer blue ti"), vec![0, 0, 0, 0]);
    assert_eq!(points("spacer hook kukui"), vec![0, 10, 2]);
}

#[test]
fn the_hook_blocks_adjacency_like_any_slot() {
    // RULINGS 4.7 slot 4: Blue's neighbours are Purple and the Hook.
    assert_eq!(points("red hook red ti"), vec![0, 5, 0, 0]);
}

#[test]
fn the_breakdown_lists_every_card_the_cut_the_guests_and_the_total() {
    let p = parsed("blue red purple blue cut:yellow hook kukui blue rainbow");
    assert_eq!(p.cut, Some(Slot::Yellow));
    let s = scoring::seat_score(
        &Options::default(),
        0,
        Some("Ann".into()),
        &p.lei,
        p.cut,
        &p.declared,
        &[[0, 2], [1, 0], [0, 0]],
    )
    .unwrap();
    assert_eq!((s.lei_points, s.guest_points, s.total), (33, 1, 34));
    assert_eq!(
        s.tiebreak,
        vec![36, 35, 35],
        "Guest 1 flipped: +2 +1 +0; then 2 + 0 + 0"
    );
    assert_eq!(
        s.lines[0],
        "1. Blue = 4: next to Rainbow (as blue) at 8, wrap-around"
    );
    assert_eq!(
        s.lines[7],
        "8. Rainbow (as blue) = 4: acts as blue, next to Blue at 7"
    );
    assert!(s
        .lines
        .contains(&"Knife: cut Yellow (scores nothing)".to_owned()));
    assert_eq!(s.lines.last().unwrap(), "Total: 34");
}

// ----- Tally words ---------------------------------------------------------------------------

#[test]
fn card_words_accept_aliases_commas_case_and_lists() {
    let a = parsed("Ti_Leaf, mega-leaf KUKUI_NUT fish_hook leaf nut");
    assert_eq!(
        a.lei,
        vec![
            Slot::Ti,
            Slot::Mega,
            Slot::Kukui,
            Slot::Hook,
            Slot::Ti,
            Slot::Kukui
        ]
    );
    let b = words::parse_lei(
        0,
        &LeiText::List(vec!["blue".into(), "rainbow=blue red".into()]),
    )
    .unwrap();
    assert_eq!(b.lei, vec![Slot::Blue, Slot::Rainbow, Slot::Red]);
    assert_eq!(b.declared, vec![Some(Colour::Blue)]);
}

#[test]
fn unknown_words_and_doubled_tools_are_refused() {
    let parse = |s: &str| words::parse_lei(1, &LeiText::Words(s.into())).unwrap_err();
    assert_eq!(
        parse("blue lotus"),
        V::UnknownCardWord {
            seat: 1,
            word: "lotus".into()
        }
    );
    assert_eq!(parse("rainbow:green").code(), "unknown_card_word");
    assert_eq!(parse("hook blue hook").code(), "tool_used_twice");
    assert_eq!(parse("spacer cut:spacer").code(), "tool_used_twice");
    assert_eq!(parse("cut:blue knife:red").code(), "tool_used_twice");
}

#[test]
fn a_tally_checks_lei_count_card_copies_and_guests() {
    let lei = |s: &str| TallyLei {
        player: None,
        lei: LeiText::Words(s.into()),
        guests: None,
    };
    let o = Options::default();
    let one = Tally {
        leis: vec![lei("blue")],
    };
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 1, &one).unwrap_err().code(),
        "wrong_lei_count"
    );
    let rainbows = Tally {
        leis: vec![lei("rainbow rainbow"), lei("cut:rainbow")],
    };
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 1, &rainbows).unwrap_err(),
        V::TooManyCards {
            card: Card::Rainbow,
            count: 3,
            copies: 2
        }
    );
    let mut guests = Tally {
        leis: vec![lei("blue"), lei("red")],
    };
    guests.leis[0].guests = Some(vec![[1, 2]]);
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 1, &guests)
            .unwrap_err()
            .code(),
        "wrong_guest_count"
    );
    guests.leis[0].guests = Some(vec![[1, 2], [0, 0], [0, 5000]]);
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 1, &guests)
            .unwrap_err()
            .code(),
        "guest_bonus_out_of_range"
    );
}

#[test]
fn a_tied_tally_is_broken_by_flipping_guests_in_order_else_shared() {
    // RB "Tiebreaker"; RULINGS 4.5 and L14.
    let lei = |s: &str, g: Vec<GuestBonus>| TallyLei {
        player: None,
        lei: LeiText::Words(s.into()),
        guests: Some(g),
    };
    let o = Options::default();
    let tally = Tally {
        leis: vec![
            lei("red red", vec![[0, 0], [0, 3], [0, 0]]),
            lei("yellow yellow ti ti", vec![[0, 0], [0, 2], [0, 9]]),
            lei("blue", vec![[0, 9], [0, 9], [0, 9]]),
        ],
    };
    let score = LuckyLuau::score_tally(&o, 3, 1, &tally).unwrap();
    assert_eq!(score.totals, vec![6, 6, 0]);
    assert_eq!(
        score.winners,
        vec![0],
        "Guest 1 flipped: still tied; Guest 2: seat 0"
    );
    let (standings, over) = LuckyLuau::tally_standings(&o, 3, &[score]);
    assert!(over);
    assert_eq!(standings.ranks, vec![1, 2, 3]);
    let shared = Tally {
        leis: vec![
            lei("red red", vec![[0, 0]; 3]),
            lei("yellow yellow ti ti", vec![[0, 0]; 3]),
        ],
    };
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 1, &shared).unwrap().winners,
        vec![0, 1]
    );
    assert_eq!(
        LuckyLuau::score_tally(&o, 2, 2, &shared)
            .unwrap_err()
            .code(),
        "game_over",
        "one lei per player per game"
    );
}

// ----- Moves (RB "How to Play"; RULINGS 4.4) ------------------------------------------------

#[test]
fn a_face_down_draw_waits_for_chance_then_is_strung_left_to_right() {
    let mut state = new_game(2);
    let events = play(&mut state, 0, Move::DrawFaceDown);
    assert_eq!(events, vec![Event::DrawingFaceDown { seat: 0 }]);
    assert!(LuckyLuau::chance_pending(&state));
    assert!(LuckyLuau::to_act(&state).is_empty());
    LuckyLuau::resolve_chance(&mut state, &Chance::Draw { card: Card::Blue }).unwrap();
    assert_eq!(
        state.pending,
        Some(Pending {
            card: Card::Blue,
            face_up: false
        })
    );
    play(&mut state, 0, string_end());
    assert_eq!(state.seats[0].lei, vec![Slot::Blue]);
    assert_eq!(state.turn, 1, "play continues clockwise");
    draw(&mut state, 1, Card::Red);
    play(&mut state, 1, string_end());
    draw(&mut state, 0, Card::Red);
    play(&mut state, 0, string_end());
    assert_eq!(
        state.seats[0].lei,
        vec![Slot::Blue, Slot::Red],
        "appended on the right"
    );
    assert_eq!(state.face_down.total(), 43);
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn a_tossed_card_goes_back_face_up_and_whoever_takes_it_must_string_it() {
    // RB: "toss it back to the pile face up"; "If you draw a face up card, you must string it".
    let mut state = new_game(2);
    draw(&mut state, 0, Card::Kukui);
    play(&mut state, 0, Move::Toss);
    assert_eq!(state.face_up.get(Card::Kukui), 1);
    assert_eq!(
        refuse(&state, 1, Move::DrawFaceUp { card: Card::Blue }),
        "card_not_available"
    );
    assert!(LuckyLuau::legal_moves(&state, 1).contains(&Move::DrawFaceUp { card: Card::Kukui }));
    play(&mut state, 1, Move::DrawFaceUp { card: Card::Kukui });
    assert_eq!(refuse(&state, 1, Move::Toss), "cannot_toss_face_up");
    assert!(!LuckyLuau::legal_moves(&state, 1).contains(&Move::Toss));
    play(&mut state, 1, string_end());
    assert_eq!(state.seats[1].lei, vec![Slot::Kukui]);
}

#[test]
fn turn_order_moves_are_refused_out_of_turn_and_out_of_order() {
    let mut state = new_game(3);
    assert_eq!(refuse(&state, 1, Move::DrawFaceDown), "not_your_turn");
    assert_eq!(refuse(&state, 0, string_end()), "no_drawn_card");
    assert_eq!(refuse(&state, 0, Move::Toss), "no_drawn_card");
    assert_eq!(refuse(&state, 5, Move::DrawFaceDown), "unknown_seat");
    draw(&mut state, 0, Card::Ti);
    assert_eq!(refuse(&state, 0, Move::DrawFaceDown), "drawn_card_pending");
    assert_eq!(
        refuse(&state, 0, Move::String { spacer: Some(0) }),
        "not_a_spacer"
    );
}

#[test]
fn moves_wait_while_a_face_down_draw_is_unresolved() {
    let mut state = new_game(2);
    play(&mut state, 0, Move::DrawFaceDown);
    assert_eq!(refuse(&state, 1, Move::PlaceHook), "chance_pending");
}

#[test]
fn tools_may_be_used_on_any_players_turn_but_not_between_ones_own_draw_and_string() {
    // RB: "may be used at any time, on any player's turn"; RULINGS L8.
    let mut state = new_game(3);
    assert_eq!(LuckyLuau::to_act(&state), vec![0, 1, 2]);
    play(&mut state, 2, Move::PlaceHook);
    play(&mut state, 1, Move::PlaceSpacer);
    assert_eq!(refuse(&state, 2, Move::PlaceHook), "tool_already_used");
    play(&mut state, 0, Move::DrawFaceDown);
    LuckyLuau::resolve_chance(&mut state, &Chance::Draw { card: Card::Red }).unwrap();
    assert_eq!(refuse(&state, 0, Move::PlaceHook), "tool_not_during_draw");
    assert_eq!(
        refuse(&state, 0, Move::Knife { index: 0 }),
        "tool_not_during_draw"
    );
    assert_eq!(
        LuckyLuau::legal_moves(&state, 0),
        vec![string_end(), Move::Toss]
    );
    play(&mut state, 2, Move::Knife { index: 0 });
    assert_eq!(state.seats[2].cut, Some(Slot::Hook));
    assert_eq!(
        refuse(&state, 2, Move::Knife { index: 0 }),
        "tool_already_used"
    );
    assert_eq!(refuse(&state, 1, Move::Knife { index: 5 }), "no_such_slot");
    play(&mut state, 0, string_end());
    play(&mut state, 0, Move::PlaceHook);
    assert_eq!(state.seats[0].lei, vec![Slot::Red, Slot::Hook]);
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn a_spacer_holds_a_place_that_a_drawn_card_fills_later() {
    // RB Spacers; RULINGS L7: only a drawn pile card fills it; the Spacer leaves the game.
    let mut state = new_game(2);
    play(&mut state, 0, Move::PlaceSpacer);
    draw(&mut state, 0, Card::Red);
    play(&mut state, 0, string_end());
    draw(&mut state, 1, Card::Ti);
    play(&mut state, 1, string_end());
    draw(&mut state, 0, Card::Blue);
    assert!(LuckyLuau::legal_moves(&state, 0).contains(&Move::String { spacer: Some(0) }));
    let events = play(&mut state, 0, Move::String { spacer: Some(0) });
    assert_eq!(
        events[0],
        Event::Strung {
            seat: 0,
            card: Card::Blue,
            index: 0,
            filled_spacer: true
        }
    );
    assert_eq!(state.seats[0].lei, vec![Slot::Blue, Slot::Red]);
    assert!(state.seats[0].spacer_used);
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn the_knife_removes_a_slot_from_the_game_and_the_lei_closes_up() {
    // RB Knife; RULINGS L6.
    let mut state = new_game(2);
    for card in [Card::Blue, Card::Yellow, Card::Blue] {
        draw(&mut state, 0, card);
        play(&mut state, 0, string_end());
        draw(&mut state, 1, Card::Ti);
        play(&mut state, 1, string_end());
    }
    play(&mut state, 0, Move::Knife { index: 1 });
    assert_eq!(state.seats[0].lei, vec![Slot::Blue, Slot::Blue]);
    assert_eq!(state.seats[0].cut, Some(Slot::Yellow));
    assert_eq!(
        refuse(&state, 0, Move::Knife { index: 0 }),
        "tool_already_used"
    );
    assert_eq!(LuckyLuau::score(&state).seats[0].lei_points, 8);
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn the_game_continues_after_a_tossed_last_face_down_card_until_the_centre_is_empty() {
    // RB "The game ends when there are no cards left to take"; RULINGS L11.
    let mut state = near_end(&[Card::Blue]);
    draw(&mut state, 0, Card::Blue);
    play(&mut state, 0, Move::Toss);
    assert_eq!(state.phase, Phase::Play);
    assert_eq!(
        LuckyLuau::legal_moves(&state, 1)[0],
        Move::DrawFaceUp { card: Card::Blue }
    );
    assert_eq!(refuse(&state, 1, Move::DrawFaceDown), "pile_empty");
    play(&mut state, 1, Move::DrawFaceUp { card: Card::Blue });
    let events = play(&mut state, 1, string_end());
    assert_eq!(events.last(), Some(&Event::CentreEmpty));
    assert_eq!(state.phase, Phase::End);
}

#[test]
fn in_the_end_phase_only_the_knife_and_finish_remain_and_the_last_finish_scores() {
    // RB Knife: "or at the end of the game after all cards have been drawn"; RULINGS 4.4.
    let mut state = near_end(&[Card::Kukui]);
    draw(&mut state, 0, Card::Kukui);
    play(&mut state, 0, string_end());
    assert_eq!(LuckyLuau::to_act(&state), vec![0, 1]);
    assert_eq!(refuse(&state, 0, Move::DrawFaceDown), "end_phase");
    assert_eq!(refuse(&state, 0, Move::PlaceHook), "tool_not_in_end_phase");
    let finish = Move::Finish {
        guests: None,
        rainbows: None,
    };
    let moves = LuckyLuau::legal_moves(&state, 1);
    assert_eq!(moves[0], finish);
    assert!(moves.contains(&Move::Knife { index: 0 }));
    play(&mut state, 1, Move::Knife { index: 0 });
    play(
        &mut state,
        1,
        Move::Finish {
            guests: Some(vec![[1, 0], [0, 0], [0, 0]]),
            rainbows: None,
        },
    );
    assert_eq!(refuse(&state, 1, finish.clone()), "already_finished");
    assert_eq!(
        refuse(&state, 1, Move::Knife { index: 0 }),
        "already_finished"
    );
    assert_eq!(LuckyLuau::to_act(&state), vec![0]);
    let events = play(&mut state, 0, finish);
    assert!(matches!(events.last(), Some(Event::GameEnded { .. })));
    assert!(LuckyLuau::is_over(&state));
    assert_eq!(LuckyLuau::score(&state).seats[1].guest_points, 1);
    assert_eq!(refuse(&state, 0, Move::Knife { index: 0 }), "game_over");
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn finish_is_refused_in_play_and_checks_guests_and_rainbows() {
    let state = new_game(2);
    assert_eq!(
        refuse(
            &state,
            0,
            Move::Finish {
                guests: None,
                rainbows: None
            }
        ),
        "not_end_phase"
    );
    let mut state = near_end(&[Card::Rainbow]);
    state.seats[0].lei.clear();
    state.seats[1].lei.retain(|&s| s != Slot::Blue);
    state.seats[0].lei.push(Slot::Blue);
    for _ in 0..4 {
        state.seats[0].lei.push(Slot::Blue);
    }
    // Rebuild a consistent table: seat 0 = 5 blues, seat 1 = everything else but a rainbow.
    let mut rest = Counts::full_pile();
    rest.set(Card::Blue, 0);
    assert!(rest.take(Card::Rainbow));
    state.seats[1].lei = rest.canonical().into_iter().map(Slot::from).collect();
    LuckyLuau::check_state(&state).unwrap();
    draw(&mut state, 0, Card::Rainbow);
    play(&mut state, 0, string_end());
    let bad_guests = Move::Finish {
        guests: Some(vec![[0, 0]]),
        rainbows: None,
    };
    assert_eq!(refuse(&state, 0, bad_guests), "wrong_guest_count");
    let count = Move::Finish {
        guests: None,
        rainbows: Some(vec![]),
    };
    assert_eq!(refuse(&state, 0, count), "wrong_rainbow_count");
    let pink = Move::Finish {
        guests: None,
        rainbows: Some(vec![Colour::Pink]),
    };
    assert_eq!(refuse(&state, 0, pink), "rainbow_colour_not_adjacent");
    play(
        &mut state,
        0,
        Move::Finish {
            guests: None,
            rainbows: Some(vec![Colour::Blue]),
        },
    );
    LuckyLuau::check_state(&state).unwrap();
}

#[test]
fn the_winner_is_the_highest_total_with_guests_and_the_guest_tiebreak() {
    // RB "the player with the highest total wins!"; "Tiebreaker". Standings only read the leis
    // and the reports, so a bare end-of-game table is enough here.
    let mut state = new_game(2);
    state.seats[0].lei = vec![Slot::Red, Slot::Red];
    state.seats[1].lei = vec![Slot::Yellow, Slot::Yellow, Slot::Ti, Slot::Ti];
    state.seats[0].finished = true;
    state.seats[0].guests = vec![[0, 0], [0, 1], [0, 0]];
    state.seats[1].finished = true;
    state.seats[1].guests = vec![[0, 0], [0, 0], [0, 5]];
    state.phase = Phase::Over;
    let standings = LuckyLuau::standings(&state);
    assert_eq!(standings.totals, vec![6, 6]);
    assert_eq!(standings.winners, vec![0], "Guest 2 flipped breaks the tie");
    state.seats[0].guests = vec![[3, 0], [0, 0], [0, 0]];
    assert_eq!(
        LuckyLuau::standings(&state).winners,
        vec![0],
        "side A bonus counts"
    );
    state.seats[0].guests = vec![[0, 0]; 3];
    state.seats[1].guests = vec![[0, 0]; 3];
    assert_eq!(
        LuckyLuau::standings(&state).winners,
        vec![0, 1],
        "still tied: shared"
    );
}

// ----- Chance --------------------------------------------------------------------------------

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

// ----- Views and redaction --------------------------------------------------------------------

#[test]
fn a_face_down_card_is_seen_only_by_its_drawer_until_strung_or_tossed() {
    // RULINGS 4.3: hidden = identity of face-down pile cards (and the drawn one until placed).
    let mut state = new_game(2);
    play(&mut state, 0, Move::DrawFaceDown);
    let events = LuckyLuau::resolve_chance(&mut state, &Chance::Draw { card: Card::Pink }).unwrap();
    let other = LuckyLuau::redact_event(&events[0], Viewer::Seat(1));
    assert_eq!(
        other,
        Event::Drew {
            seat: 0,
            face_up: false,
            card: None
        }
    );
    assert_eq!(
        LuckyLuau::redact_event(&events[0], Viewer::Seat(0)),
        events[0]
    );
    let spectator = LuckyLuau::view(&state, Viewer::Spectator);
    assert_eq!(
        spectator.pending,
        Some(PendingView {
            face_up: false,
            card: None
        })
    );
    assert_eq!(spectator.face_down, None);
    assert!(spectator.legal_moves.is_empty());
    let drawer = LuckyLuau::view(&state, Viewer::Seat(0));
    assert_eq!(drawer.pending.unwrap().card, Some(Card::Pink));
    assert_eq!(drawer.legal_moves, vec![string_end(), Move::Toss]);
    let full = LuckyLuau::view(&state, Viewer::Full);
    assert_eq!(full.face_down, Some(state.face_down));
    let face_up = Event::Drew {
        seat: 0,
        face_up: true,
        card: Some(Card::Red),
    };
    assert_eq!(
        LuckyLuau::redact_event(&face_up, Viewer::Spectator),
        face_up
    );
}

// ----- check_state ----------------------------------------------------------------------------

#[test]
fn inconsistent_states_are_rejected_with_stable_codes() {
    let code = |state: &State| LuckyLuau::check_state(state).unwrap_err().code;
    let good = new_game(3);
    let mut s = good.clone();
    s.face_down.add(Card::Blue, 1);
    assert_eq!(code(&s), "cards_not_conserved");
    let mut s = good.clone();
    s.players = 7;
    assert_eq!(code(&s), "bad_player_count");
    let mut s = good.clone();
    s.seats.pop();
    assert_eq!(code(&s), "bad_seat_count");
    let mut s = good.clone();
    s.seats[1].lei.push(Slot::Hook);
    assert_eq!(code(&s), "tools_not_conserved");
    let mut s = good.clone();
    s.seats[1].knife_used = true;
    assert_eq!(code(&s), "tools_not_conserved");
    let mut s = good.clone();
    s.phase = Phase::End;
    assert_eq!(code(&s), "phase_contradiction");
    let mut s = good.clone();
    s.seats[0].finished = true;
    s.seats[0].guests = vec![[0, 0]; 3];
    assert_eq!(code(&s), "phase_contradiction");
    let mut s = good.clone();
    s.chance = Some(PendingChance::Draw {
        seat: 1,
        pile: s.face_down,
    });
    assert_eq!(code(&s), "chance_mismatch");
    let mut s = good.clone();
    s.options.first_player = 4;
    assert_eq!(code(&s), "invalid_options");
    let mut s = good;
    s.turn = 3;
    assert_eq!(code(&s), "bad_turn");
}

// ----- Violation codes ------------------------------------------------------------------------

/// Statistics keep the best lei: the lei's own points before Guests (the rulebook's sample = 33).
#[test]
fn highlights_keep_each_players_lei_points_as_their_best_lei() {
    let lei = |s: &str| TallyLei {
        player: None,
        lei: LeiText::Words(s.into()),
        guests: Some(vec![[5, 0], [0, 0], [0, 0]]),
    };
    let tally = Tally {
        leis: vec![
            lei("blue red purple blue cut:yellow hook kukui blue rainbow"),
            lei("red red"),
        ],
    };
    let score = LuckyLuau::score_tally(&Options::default(), 2, 1, &tally).unwrap();
    let seats = LuckyLuau::tally_highlights(2, &[score]);
    assert_eq!(seats[0]["best_lei"], 33, "Guest bonuses are not lei points");
    assert_eq!(seats[1]["best_lei"], 6);
}

#[test]
fn the_card_tables_agree() {
    crate::games::kit::counts::assert_kind_tables::<Card>();
}
