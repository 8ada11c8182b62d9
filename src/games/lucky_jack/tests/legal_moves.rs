//! Legal moves.

use super::*;

fn candidate_moves() -> Vec<Move> {
    let mut all = vec![Move::Draw, Move::Keep, Move::DiscardDrawn, Move::TakeIt];
    for card in Symbol::ALL {
        all.push(discard(card));
        all.push(announce(card));
    }
    all
}

#[test]
fn legal_moves_are_exactly_the_moves_that_validate() {
    let options = Options {
        max_turns_per_round: Some(40),
        jackpot_auto_declare: false,
        ..Options::default()
    };
    let mut s = LuckyJack::setup(LuckyJack::validate_options(&options, 3).unwrap());
    let mut rng = SplitMix(11);
    let mut steps = 0;
    while !LuckyJack::is_over(&s) {
        if LuckyJack::chance_pending(&s) {
            let c = LuckyJack::sample_chance(&s, &mut rng);
            resolve(&mut s, c);
            continue;
        }
        for seat in 0..3 {
            let legal = LuckyJack::legal_moves(&s, seat);
            for mv in candidate_moves() {
                let ok = LuckyJack::validate(&s, seat, &mv).is_ok();
                assert_eq!(ok, legal.contains(&mv), "seat {seat} {mv:?} in {s:?}");
            }
        }
        let seat = s.turn;
        let moves = LuckyJack::legal_moves(&s, seat);
        let mv = moves[(steps * 5 + 1) % moves.len()].clone();
        play(&mut s, seat, mv);
        steps += 1;
    }
}
