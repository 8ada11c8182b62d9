//! Lei scoring (RB "Scoring", card texts; RULINGS 4.5–4.7).

use super::*;

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
