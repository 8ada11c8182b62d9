//! Score sheets.

use super::*;

#[test]
fn a_described_round_scores_one_coaster_per_emptied_seat() {
    // Rulebook: "Each player who was able to get rid of all their dice receives their coaster".
    let options = Options::default();
    let scored = LuckyDice::score_tally(
        &options,
        4,
        1,
        &Tally {
            emptied: vec![3, 1],
        },
    )
    .unwrap();
    assert_eq!(scored.emptied, vec![1, 3]);
    assert_eq!(scored.points, vec![0, 1, 0, 1]);
    assert_eq!(LuckyDice::tally_points(&scored), scored.points);
    let err = |emptied: Vec<Seat>, o: &Options| {
        LuckyDice::score_tally(o, 4, 1, &Tally { emptied })
            .unwrap_err()
            .code()
    };
    assert_eq!(err(vec![], &options), "no_round_winner");
    assert_eq!(err(vec![1, 1], &options), "duplicate_seat");
    assert_eq!(err(vec![4], &options), "unknown_seat");
    let no_extra = Options {
        extra_rolls: 0,
        ..Options::default()
    };
    assert_eq!(err(vec![0, 1], &no_extra), "too_many_winners");
}

#[test]
fn a_score_sheet_ends_at_three_coasters_with_shared_wins() {
    // Rulebook END OF THE GAME; the same `game_ends` as play.
    let options = Options::default();
    let rounds: Vec<RoundTally> = [vec![0, 2], vec![2], vec![1], vec![0], vec![0, 2]]
        .into_iter()
        .enumerate()
        .map(|(i, emptied)| {
            LuckyDice::score_tally(&options, 3, i as u32 + 1, &Tally { emptied }).unwrap()
        })
        .collect();
    let (standings, over) = LuckyDice::tally_standings(&options, 3, &rounds[..4]);
    assert!(!over);
    assert_eq!(standings.totals, vec![2, 1, 2]);
    let (standings, over) = LuckyDice::tally_standings(&options, 3, &rounds);
    assert!(over);
    assert_eq!(standings.winners, vec![0, 2]);
}

#[test]
fn a_score_sheet_in_the_variant_ends_when_the_pile_cannot_serve_a_winner() {
    let options = Options {
        end_mode: EndMode::UntilPileEmpty,
        coaster_set: balanced_coaster_set()[..4].to_vec(),
        ..Options::default()
    };
    // 2 players, 2 coasters in the pile.
    let round =
        |emptied: Vec<Seat>| LuckyDice::score_tally(&options, 2, 1, &Tally { emptied }).unwrap();
    let (_, over) = LuckyDice::tally_standings(&options, 2, &[round(vec![0]), round(vec![1])]);
    assert!(!over, "both winners could draw");
    let (standings, over) = LuckyDice::tally_standings(
        &options,
        2,
        &[round(vec![0]), round(vec![1]), round(vec![1])],
    );
    assert!(over);
    assert_eq!(standings.winners, vec![1]);
}

/// Statistics count coasters won per seat ("The first player to win 3 coasters wins the game").
#[test]
fn highlights_count_the_coasters_each_seat_won() {
    let options = Options::default();
    let rounds: Vec<RoundTally> = [vec![0], vec![0, 2]]
        .iter()
        .enumerate()
        .map(|(i, emptied)| {
            LuckyDice::score_tally(
                &options,
                3,
                i as u32 + 1,
                &Tally {
                    emptied: emptied.clone(),
                },
            )
            .unwrap()
        })
        .collect();
    let seats = LuckyDice::tally_highlights(3, &rounds);
    assert_eq!(seats[0]["coasters_won"], 2);
    assert_eq!(seats[1]["coasters_won"], 0);
    assert_eq!(seats[2]["coasters_won"], 1);
}

#[test]
fn only_a_roll_against_a_changed_table_is_stale() {
    use LuckyDiceViolation::*;
    let stale = [
        WrongDiceCount {
            seat: 0,
            claimed: 3,
            held: 4,
        },
        StopPhase { stop_caller: 1 },
        NotInStopPhase,
    ];
    assert!(stale.iter().all(|v| v.is_stale()));
    assert!(![
        Common(super::Common::GameOver),
        DiceCountRequired,
        NoRoundWinner
    ]
    .iter()
    .any(|v| v.is_stale()));
}
