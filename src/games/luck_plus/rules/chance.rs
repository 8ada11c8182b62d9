//! Chance outcomes: checked against the pending event, then applied.

use super::*;

pub(in crate::games::luck_plus) fn check_chance(
    state: &State,
    outcome: &Chance,
) -> Result<(), LuckPlusViolation> {
    let pending = guard::answered::<V, _, _, _>(state.chance.as_ref(), outcome)?;
    match (pending, outcome) {
        (
            PendingChance::Deal {
                hands: expected,
                cards_per_hand,
                pile,
                ..
            },
            Chance::Deal { hands, flips },
        ) => {
            deal::hand_count(*expected, hands.len())?;
            deal::card_counts(hands, *cards_per_hand)?;
            match flips.split_last() {
                Some((last, before))
                    if *last != Card::Lp && before.iter().all(|&c| c == Card::Lp) => {}
                _ => return Err(V::BadFlips),
            }
            deal::dealt_from_pile(&pile[..], hands, flips)?;
        }
        (PendingChance::Roll { .. }, Chance::Roll { dice }) => {
            if let Some(&face) = dice.iter().find(|f| !(1..=6).contains(*f)) {
                return Err(V::BadDie { face });
            }
        }
        (PendingChance::Draw { pile, .. }, Chance::Draw { card }) => {
            deal::from_pile(&pile[..], &[*card])?
        }
        _ => unreachable!("kinds were compared above"),
    }
    Ok(())
}

/// Applies an outcome that [`check_chance`] accepted.
pub(in crate::games::luck_plus) fn apply_chance(state: &mut State, outcome: &Chance) -> Vec<Event> {
    let mut events = Vec::new();
    state.chance = None;
    match outcome {
        Chance::Deal { hands, flips } => {
            let first = (state.dealer + 1) % state.players;
            events.push(Event::HandStarted {
                hand: state.hand,
                dealer: state.dealer,
                first,
            });
            for (seat, dealt) in hands.iter().enumerate() {
                let sorted = hand::sorted(dealt);
                for &card in &sorted {
                    remove_one(&mut state.draw_pile, card);
                }
                events.push(Event::Dealt {
                    seat,
                    cards: sorted.clone(),
                });
                state.hands[seat] = sorted;
            }
            for &card in flips {
                remove_one(&mut state.draw_pile, card);
                if card == Card::Lp {
                    state.draw_bottom.push(card);
                    events.push(Event::PutUnder { card });
                } else {
                    state.match_pile = vec![card];
                    events.push(Event::Flipped { card });
                }
            }
            state.dice = None;
            begin_turn(state, first, false, &mut events);
        }
        Chance::Roll { dice } => {
            state.dice = Some(*dice);
            state.rolled_this_turn = true;
            state.used = Usage::default();
            state.phase = Phase::Rolled;
            events.push(Event::Rolled {
                seat: state.turn,
                dice: *dice,
            });
        }
        Chance::Draw { card } => {
            remove_one(&mut state.draw_pile, *card);
            receive_drawn(state, *card, &mut events);
        }
    }
    events
}
