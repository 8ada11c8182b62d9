//! Move legality (this file), legal move lists, effects, chance resolution, turn and hand flow
//! (RULINGS 1.4–1.8).

use super::*;
use crate::games::kit::{deal, guard, hand};
use LuckPlusViolation as V;

mod chance;
mod effects;
mod legal;

pub(super) use chance::*;
use effects::*;
pub(super) use legal::*;

/// The part of the table a play request is checked against, group after group: the hand, the
/// match pile's top, the dice showing and their uses.
#[derive(Clone, Debug)]
pub(super) struct Table {
    hand: Vec<Card>,
    top: Option<Card>,
    dice: Option<[u8; 2]>,
    fresh: bool,
    used: Usage,
    reuse: bool,
}

impl Table {
    pub(super) fn of(state: &State, seat: Seat) -> Self {
        Table {
            hand: state.hands[seat].clone(),
            top: state.match_pile.last().copied(),
            dice: state.dice,
            fresh: state.rolled_this_turn,
            used: state.used,
            reuse: state.options.dice_reuse_within_roll,
        }
    }

    /// Whether `group` may be placed now, with the precise reason if not (RULINGS 1.4, A3–A5).
    pub(super) fn check(&self, group: &Group) -> Result<(), LuckPlusViolation> {
        let basis = group.basis;
        let cards = &group.cards;
        if cards.len() != basis.size() {
            return Err(V::GroupSize {
                basis,
                expected: basis.size(),
                got: cards.len(),
            });
        }
        if let Some(card) = first_missing(&self.hand, cards) {
            return Err(V::CardNotInHand { card });
        }
        if cards.contains(&Card::Lp) {
            return Err(V::LuckPlusInGroup);
        }
        let card = cards[0];
        if basis == Basis::Top {
            let matches = match (self.top, card) {
                (Some(Card::Dbl), Card::Dbl) => true,
                (Some(top), card) => top.number().is_some() && top.number() == card.number(),
                (None, _) => false,
            };
            return if matches {
                Ok(())
            } else {
                Err(V::NoMatch { basis, card })
            };
        }
        let [d1, d2] = self.dice.ok_or(V::NoDice)?;
        let spent = |uses: u32| !self.reuse && uses > 0;
        let no_match = |card: Card| Err(V::NoMatch { basis, card });
        match basis {
            Basis::Top => unreachable!("handled above"),
            Basis::Pair => {
                let (a, b) = (cards[0], cards[1]);
                let (Some(x), Some(y)) = (a.number(), b.number()) else {
                    return no_match(if a.number().is_none() { a } else { b });
                };
                if !((x == d1 && y == d2) || (x == d2 && y == d1)) {
                    return no_match(if x != d1 && x != d2 { a } else { b });
                }
                if a.is_stop() && !b.is_stop() {
                    return Err(V::StopNotLast);
                }
                if spent(self.used.pair) {
                    return Err(V::DiceAlreadyUsed { basis });
                }
            }
            Basis::Split => {
                let top = self.top.and_then(Card::number);
                let fits = match (top, card.number()) {
                    (Some(t), Some(c)) => (t == d1 && c == d2) || (t == d2 && c == d1),
                    _ => false,
                };
                if !fits {
                    return no_match(card);
                }
                if spent(self.used.pair) {
                    return Err(V::DiceAlreadyUsed { basis });
                }
            }
            Basis::Total => {
                if card.number() != Some(d1 + d2) {
                    return no_match(card);
                }
                if spent(self.used.total) {
                    return Err(V::DiceAlreadyUsed { basis });
                }
            }
            Basis::Doubles => {
                if card != Card::Dbl {
                    return no_match(card);
                }
                if d1 != d2 {
                    return Err(V::DoublesNeedDoublesRoll { dice: [d1, d2] });
                }
                if spent(self.used.doubles) {
                    return Err(V::DiceAlreadyUsed { basis });
                }
            }
            Basis::SingleDie => {
                if !self.fresh || self.hand.len() != 1 {
                    return Err(V::SingleDieNotAllowed {
                        hand_size: self.hand.len(),
                        rolled_this_turn: self.fresh,
                    });
                }
                match card.number() {
                    Some(n) if n <= 6 && (n == d1 || n == d2) => {}
                    _ => return no_match(card),
                }
                if spent(self.used.single_die) {
                    return Err(V::DiceAlreadyUsed { basis });
                }
            }
        }
        Ok(())
    }

    /// Places a checked group.
    pub(super) fn place(&mut self, group: &Group) {
        for &card in &group.cards {
            remove_one(&mut self.hand, card);
        }
        self.top = group.cards.last().copied();
        count_use(&mut self.used, group.basis);
    }
}

fn count_use(used: &mut Usage, basis: Basis) {
    match basis {
        Basis::Top => {}
        Basis::Pair | Basis::Split => used.pair += 1,
        Basis::Total => used.total += 1,
        Basis::Doubles => used.doubles += 1,
        Basis::SingleDie => used.single_die += 1,
    }
}

fn ends_with_stop(group: &Group) -> bool {
    group.cards.last().is_some_and(|c| c.is_stop())
}

/// Whether `seat` is out of the current hand.
pub(super) fn is_out(state: &State, seat: Seat) -> bool {
    state.out.iter().any(|o| o.seat == seat)
}

/// The player on `seat`'s left still in the hand (RULINGS 0: left = next clockwise).
pub(super) fn left_of(state: &State, seat: Seat) -> Option<Seat> {
    (1..state.players)
        .map(|k| (seat + k) % state.players)
        .find(|&s| !is_out(state, s))
}

/// The rank extras after the first must share for a TRANSFER PLUS (RULINGS A12).
fn extra_rank(state: &State, tp: Card, first: Card) -> Rank {
    match state.options.tp_extra_same_number_as {
        TpExtraSameNumberAs::ChosenCard => first.rank(),
        TpExtraSameNumberAs::TpCard => tp.rank(),
    }
}

fn common_checks(state: &State, seat: Seat) -> Result<(), LuckPlusViolation> {
    let over = state.phase == Phase::Over;
    guard::may_move(over, state.chance.as_ref(), seat, state.players)?;
    if seat != state.turn {
        return Err(V::NotYourTurn {
            seat,
            turn: state.turn,
        });
    }
    Ok(())
}

// Engine invariant: called only in the drawn phase, which always holds its card.
#[allow(clippy::expect_used)]
fn drawn_card(state: &State) -> Card {
    state.drawn.expect("phase drawn has a drawn card")
}

/// Checks a bonus list: held (besides `reserved`), then all of the first card's rank.
fn check_same_rank(
    hand: &[Card],
    cards: &[Card],
    rank: Option<Rank>,
    not_same: fn(Card) -> LuckPlusViolation,
) -> Result<(), LuckPlusViolation> {
    if let Some(card) = first_missing(hand, cards) {
        return Err(V::CardNotInHand { card });
    }
    if let Some(&first) = cards.first() {
        let rank = rank.unwrap_or(first.rank());
        if let Some(&card) = cards[1..].iter().find(|c| c.rank() != rank) {
            return Err(not_same(card));
        }
    }
    Ok(())
}

fn without(hand: &[Card], card: Card) -> Vec<Card> {
    let mut rest = hand.to_vec();
    remove_one(&mut rest, card);
    rest
}

fn check_play(state: &State, seat: Seat, groups: &[Group]) -> Result<(), LuckPlusViolation> {
    match state.phase {
        Phase::PreRoll => {
            if state.dice.is_none() && !state.options.pre_roll_top_match_on_first_turn {
                return Err(V::FirstTurnMustRoll);
            }
        }
        Phase::Rolled | Phase::Matching => {}
        Phase::Drawn => {
            let card = drawn_card(state);
            if !groups.first().is_some_and(|g| g.cards.contains(&card)) {
                return Err(V::DrawnCardPending { card });
            }
        }
        Phase::MustRoll => return Err(V::MustRoll),
        _ => unreachable!("other phases are refused before"),
    }
    if groups.is_empty() {
        return Err(V::EmptyPlay);
    }
    let mut table = Table::of(state, seat);
    for (i, group) in groups.iter().enumerate() {
        if i > 0 && ends_with_stop(&groups[i - 1]) {
            match state.options.stop_mistake {
                StopMistake::Reject => return Err(V::StopNotLast),
                StopMistake::Truncate => break,
            }
        }
        table.check(group)?;
        table.place(group);
    }
    Ok(())
}

/// The rules of play: legality, the legal moves, and the effects of moves and chance.
impl crate::games::Rules<LuckPlus> for State {
    // Engine invariant: a transfer target is checked to be an opponent still in before `left_of`.
    #[allow(clippy::expect_used)]
    fn validate(&self, seat: Seat, mv: &Move) -> Result<(), LuckPlusViolation> {
        let state = self;
        common_checks(state, seat)?;
        let phase = state.phase;
        let hand = &state.hands[seat];
        if phase == Phase::ForcedBonus && !matches!(mv, Move::Bonus { .. }) {
            return Err(V::ForcedBonusPending);
        }
        match mv {
            Move::Roll => match phase {
                Phase::PreRoll | Phase::Matching | Phase::MustRoll => Ok(()),
                Phase::Rolled => Err(V::MustMatchOrDraw),
                Phase::Drawn => Err(V::DrawnCardPending {
                    card: drawn_card(state),
                }),
                _ => unreachable!("chance phases are refused above"),
            },
            Move::Draw => match phase {
                Phase::Rolled => Ok(()),
                Phase::PreRoll => Err(V::NoDrawBeforeRoll),
                Phase::Matching | Phase::MustRoll => Err(V::MustRoll),
                Phase::Drawn => Err(V::DrawnCardPending {
                    card: drawn_card(state),
                }),
                _ => unreachable!("chance phases are refused above"),
            },
            Move::Play { groups } => check_play(state, seat, groups),
            Move::LuckPlus { bonus } => {
                if !hand.contains(&Card::Lp) {
                    return Err(V::CardNotInHand { card: Card::Lp });
                }
                check_same_rank(&without(hand, Card::Lp), bonus, None, |card| {
                    V::BonusNotSameNumber { card }
                })
            }
            Move::Bonus { cards } => {
                if phase != Phase::ForcedBonus {
                    return Err(V::NoBonusOwed);
                }
                if cards.is_empty() {
                    return Err(V::BonusRequired);
                }
                check_same_rank(hand, cards, None, |card| V::BonusNotSameNumber { card })
            }
            Move::Keep => {
                if phase != Phase::Drawn {
                    return Err(V::NoDrawnCard);
                }
                Ok(())
            }
            Move::Transfer { card, to, extra } => {
                let (card, to) = (*card, *to);
                if !card.is_transfer() {
                    return Err(V::NotTransferable { card });
                }
                if phase != Phase::Drawn || state.drawn != Some(card) {
                    return Err(V::TransferOnlyWhenDrawn { card });
                }
                if to >= state.players || to == seat || is_out(state, to) {
                    return Err(V::TransferTargetInvalid { to });
                }
                match card {
                    Card::Tr(_) => {
                        let left = left_of(state, seat).expect("`to` is an opponent still in");
                        if to != left {
                            return Err(V::TransferMustGoLeft { to, left });
                        }
                        if !extra.is_empty() {
                            return Err(V::ExtraNotAllowed);
                        }
                        Ok(())
                    }
                    _ => {
                        let rank = extra.first().map(|&first| extra_rank(state, card, first));
                        check_same_rank(&without(hand, card), extra, rank, |card| {
                            V::ExtraNotSameNumber { card }
                        })
                    }
                }
            }
        }
    }

    /// Every single-group play, every kind of other move, and representative bonus/extra lists.
    /// Multi-group plays and intermediate bonus or extra subsets are valid but not listed.
    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let state = self;
        if common_checks(state, seat).is_err() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        match state.phase {
            Phase::ForcedBonus => {
                for cards in rank_sets(&state.hands[seat], Card::rank) {
                    moves.push(Move::Bonus { cards });
                }
            }
            Phase::PreRoll => {
                if state.dice.is_some() || state.options.pre_roll_top_match_on_first_turn {
                    moves.extend(play_moves(state, seat, None));
                }
                moves.extend(luck_plus_moves(state, seat));
                moves.push(Move::Roll);
            }
            Phase::Rolled => {
                moves.extend(play_moves(state, seat, None));
                moves.extend(luck_plus_moves(state, seat));
                moves.push(Move::Draw);
            }
            Phase::Matching => {
                moves.extend(play_moves(state, seat, None));
                moves.extend(luck_plus_moves(state, seat));
                moves.push(Move::Roll);
            }
            Phase::MustRoll => {
                moves.extend(luck_plus_moves(state, seat));
                moves.push(Move::Roll);
            }
            Phase::Drawn => {
                moves.extend(play_moves(state, seat, state.drawn));
                moves.extend(luck_plus_moves(state, seat));
                moves.extend(transfer_moves(state, seat));
                moves.push(Move::Keep);
            }
            Phase::Deal | Phase::Rolling | Phase::Drawing | Phase::Over => {}
        }
        moves
    }

    /// Never: hands are dealt face up and everything else is on the table too (RULINGS 1.3; every
    /// seat's view is the spectator's, and events are redacted for nobody). Only the draw
    /// pile's order is hidden, and a drawn card comes with its chance event, not with `draw`.
    fn reveals(&self, _seat: Seat, _mv: &Move) -> bool {
        false
    }

    fn apply(&mut self, seat: Seat, mv: &Move) -> Vec<Event> {
        let state = self;
        let mut events = Vec::new();
        match mv {
            Move::Roll => {
                state.drawn = None;
                state.phase = Phase::Rolling;
                state.chance = Some(PendingChance::Roll { seat });
            }
            Move::Draw => start_draw(state, &mut events),
            Move::Play { groups } => {
                state.drawn = None;
                let mut placed_stop = false;
                for (i, group) in groups.iter().enumerate() {
                    if i > 0 && ends_with_stop(&groups[i - 1]) {
                        events.push(Event::StopIgnored {
                            seat,
                            groups: groups[i..].to_vec(),
                        });
                        break;
                    }
                    for &card in &group.cards {
                        remove_one(&mut state.hands[seat], card);
                        state.match_pile.push(card);
                    }
                    count_use(&mut state.used, group.basis);
                    placed_stop = ends_with_stop(group);
                    events.push(Event::Placed {
                        seat,
                        group: group.clone(),
                    });
                }
                if state.hands[seat].is_empty() {
                    go_out(state, seat, false, &mut events);
                } else if placed_stop {
                    end_turn(state, TurnEnd::Stop, false, &mut events);
                } else {
                    state.phase = Phase::Matching;
                }
            }
            Move::LuckPlus { bonus } => {
                state.drawn = None;
                remove_one(&mut state.hands[seat], Card::Lp);
                state.match_pile.push(Card::Lp);
                for &card in bonus {
                    remove_one(&mut state.hands[seat], card);
                    state.match_pile.push(card);
                }
                events.push(Event::LuckPlusPlayed {
                    seat,
                    bonus: bonus.clone(),
                });
                let forced = bonus.is_empty();
                if state.hands[seat].is_empty() {
                    go_out(state, seat, forced, &mut events);
                } else {
                    end_turn(state, TurnEnd::LuckPlus, forced, &mut events);
                }
            }
            Move::Bonus { cards } => {
                for &card in cards {
                    remove_one(&mut state.hands[seat], card);
                    state.match_pile.push(card);
                }
                events.push(Event::BonusPlayed {
                    seat,
                    cards: cards.clone(),
                });
                if state.hands[seat].is_empty() {
                    go_out(state, seat, false, &mut events);
                } else {
                    end_turn(state, TurnEnd::ForcedBonus, false, &mut events);
                }
            }
            Move::Keep => {
                let card = drawn_card(state);
                state.drawn = None;
                events.push(Event::Kept {
                    seat,
                    card,
                    automatic: false,
                });
                end_turn(state, TurnEnd::Kept, false, &mut events);
            }
            Move::Transfer { card, to, extra } => {
                state.drawn = None;
                let mut given = vec![*card];
                given.extend(extra.iter().copied());
                for &c in &given {
                    remove_one(&mut state.hands[seat], c);
                    insert_sorted(&mut state.hands[*to], c);
                }
                events.push(Event::Transferred {
                    from: seat,
                    to: *to,
                    cards: given,
                });
                if state.hands[seat].is_empty() {
                    go_out(state, seat, false, &mut events);
                } else {
                    state.phase = Phase::MustRoll;
                }
            }
        }
        events
    }

    /// Checks the outcome was possible, then applies it.
    fn resolve_chance(&mut self, outcome: &Chance) -> Result<Vec<Event>, LuckPlusViolation> {
        check_chance(self, outcome)?;
        Ok(apply_chance(self, outcome))
    }
}
