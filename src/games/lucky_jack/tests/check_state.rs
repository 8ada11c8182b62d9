//! Check_state.

use super::*;

#[test]
fn check_state_rejects_inconsistent_states() {
    let mut good = LuckyJack::setup(LuckyJack::validate_options(&Options::default(), 3).unwrap());
    resolve(&mut good, standard_deal(3));
    let code = |f: &dyn Fn(&mut State)| {
        let mut s = good.clone();
        f(&mut s);
        LuckyJack::check_state(&s).unwrap_err().code
    };
    assert_eq!(code(&|s| s.players = 7), "bad_player_count");
    assert_eq!(code(&|s| s.players = 1), "bad_player_count");
    assert_eq!(code(&|s| s.hands.truncate(2)), "bad_hand_count");
    assert_eq!(code(&|s| s.draw_pile.add(Jack, 1)), "cards_not_conserved");
    assert_eq!(code(&|s| s.hands[0][0] = Jack), "cards_not_conserved");
    assert_eq!(code(&|s| s.turn = 3), "bad_turn");
    assert_eq!(code(&|s| s.starter = 2), "bad_starter");
    assert_eq!(code(&|s| s.round = 4), "bad_round");
    assert_eq!(code(&|s| s.options.rounds = 4), "invalid_options");
    assert_eq!(code(&|s| s.options.dealer = 5), "invalid_options");
    assert_eq!(
        code(&|s| {
            let card = s.hands[1].pop().unwrap();
            s.pending = Some(card);
            s.turn_start_hand = s.hands[1].len();
        }),
        "phase_contradiction"
    );
    assert_eq!(
        code(&|s| s.chance = Some(deal_chance(s))),
        "chance_mismatch"
    );
    assert_eq!(code(&|s| s.phase = Phase::Drawing), "phase_contradiction");
    assert_eq!(code(&|s| s.hands[0].reverse()), "hand_not_sorted");
    assert_eq!(code(&|s| s.results.push(s_result(s))), "bad_round_results");
    assert_eq!(code(&|s| s.turn_start_hand = 9), "phase_contradiction");
    assert_eq!(
        code(&|s| {
            s.takeable = Some(Takeable {
                card: Clover,
                from: 0,
                by: 2,
            })
        }),
        "phase_contradiction"
    );
}

fn s_result(s: &State) -> RoundResult {
    RoundResult {
        round: 1,
        starter: s.starter,
        result: RoundOutcome::Jackpot {
            seat: 0,
            symbol: Jack,
            size: 3,
            points: 7000,
        },
        points: vec![7000, 0, 0],
    }
}

#[test]
fn check_state_accepts_every_state_of_a_played_game() {
    let options = Options {
        max_turns_per_round: Some(60),
        ..Options::default()
    };
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&options, 4).unwrap());
    let mut rng = SplitMix(3);
    let mut steps = 0;
    while !LuckyJack::is_over(&s) && steps < 5000 {
        if LuckyJack::chance_pending(&s) {
            let c = LuckyJack::sample_chance(&s, &mut rng);
            resolve(&mut s, c);
        } else {
            let seat = LuckyJack::to_act(&s)[0];
            let moves = LuckyJack::legal_moves(&s, seat);
            let mv = moves[(steps * 7) % moves.len()].clone();
            play(&mut s, seat, mv);
        }
        steps += 1;
    }
    assert!(LuckyJack::is_over(&s));
}
