//! Move legality and effects, chance resolution, turn and hand flow (RULINGS 1.4–1.8).

use super::*;
use crate::games::kit::deal;
use LuckPlusViolation as V;

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
    if state.phase == Phase::Over {
        return Err(V::GameOver);
    }
    if let Some(chance) = &state.chance {
        return Err(V::ChancePending {
            kind: chance.kind(),
        });
    }
    if seat >= state.players {
        return Err(V::UnknownSeat {
            seat,
            players: state.players,
        });
    }
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

// Engine invariant: a transfer target is checked to be an opponent still in before `left_of`.
#[allow(clippy::expect_used)]
pub(super) fn validate(state: &State, seat: Seat, mv: &Move) -> Result<(), LuckPlusViolation> {
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

/// Every single group `seat` could place now (not filtered by phase).
pub(super) fn single_groups(state: &State, seat: Seat) -> Vec<Group> {
    let hand = &state.hands[seat];
    let mut distinct = hand.clone();
    distinct.dedup();
    let table = Table::of(state, seat);
    let mut groups = Vec::new();
    let mut consider = |group: Group| {
        if table.check(&group).is_ok() {
            groups.push(group);
        }
    };
    for &card in &distinct {
        consider(Group {
            basis: Basis::Top,
            cards: vec![card],
        });
    }
    if state.dice.is_none() {
        return groups;
    }
    for basis in [Basis::Split, Basis::Total, Basis::Doubles, Basis::SingleDie] {
        for &card in &distinct {
            consider(Group {
                basis,
                cards: vec![card],
            });
        }
    }
    for &a in &distinct {
        for &b in &distinct {
            consider(Group {
                basis: Basis::Pair,
                cards: vec![a, b],
            });
        }
    }
    groups
}

/// A representative set of bonus (or extra) lists from `cards`: each distinct card alone, and
/// each distinct card followed by every other card of `rank(card)` held.
fn rank_sets(cards: &[Card], rank: impl Fn(Card) -> Rank) -> Vec<Vec<Card>> {
    let mut distinct = cards.to_vec();
    distinct.dedup();
    let mut sets = Vec::new();
    for &first in &distinct {
        sets.push(vec![first]);
        let wanted = rank(first);
        let mut rest = without(cards, first);
        rest.retain(|c| c.rank() == wanted);
        if !rest.is_empty() {
            let mut all = vec![first];
            all.extend(rest);
            sets.push(all);
        }
    }
    sets
}

fn luck_plus_moves(state: &State, seat: Seat) -> Vec<Move> {
    let hand = &state.hands[seat];
    if !hand.contains(&Card::Lp) {
        return Vec::new();
    }
    let mut moves = vec![Move::LuckPlus { bonus: Vec::new() }];
    for bonus in rank_sets(&without(hand, Card::Lp), Card::rank) {
        moves.push(Move::LuckPlus { bonus });
    }
    moves
}

fn transfer_moves(state: &State, seat: Seat) -> Vec<Move> {
    let card = drawn_card(state);
    let mut moves = Vec::new();
    match card {
        Card::Tr(_) => {
            if let Some(to) = left_of(state, seat) {
                moves.push(Move::Transfer {
                    card,
                    to,
                    extra: Vec::new(),
                });
            }
        }
        Card::Tp(_) => {
            let rest = without(&state.hands[seat], card);
            let extras = rank_sets(&rest, |first| extra_rank(state, card, first));
            for to in (1..state.players).map(|k| (seat + k) % state.players) {
                if is_out(state, to) {
                    continue;
                }
                moves.push(Move::Transfer {
                    card,
                    to,
                    extra: Vec::new(),
                });
                for extra in &extras {
                    moves.push(Move::Transfer {
                        card,
                        to,
                        extra: extra.clone(),
                    });
                }
            }
        }
        _ => {}
    }
    moves
}

fn play_moves(state: &State, seat: Seat, containing: Option<Card>) -> Vec<Move> {
    single_groups(state, seat)
        .into_iter()
        .filter(|g| containing.is_none_or(|c| g.cards.contains(&c)))
        .map(|g| Move::Play { groups: vec![g] })
        .collect()
}

/// Every single-group play, every kind of other move, and representative bonus/extra lists.
/// Multi-group plays and intermediate bonus or extra subsets are valid but not listed.
pub(super) fn legal_moves(state: &State, seat: Seat) -> Vec<Move> {
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

/// Whether the card just drawn can be played: a LUCK PLUS, a TRANSFER (PLUS) that can be given,
/// or a card some single group can place now (RULINGS 1.5 "Playable").
fn drawn_playable(state: &State) -> bool {
    let card = drawn_card(state);
    let seat = state.turn;
    card == Card::Lp
        || !transfer_moves(state, seat).is_empty()
        || single_groups(state, seat)
            .iter()
            .any(|g| g.cards.contains(&card))
}

pub(super) fn apply(state: &mut State, seat: Seat, mv: &Move) -> Vec<Event> {
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

/// The turn seat must draw: from the draw pile (chance), from the LUCK PLUS cards under it,
/// after reshuffling the match pile but its top (RULINGS 1.7), or not at all (void).
// Engine invariant: the match pile is checked to hold more than one card first.
#[allow(clippy::expect_used)]
fn start_draw(state: &mut State, events: &mut Vec<Event>) {
    let seat = state.turn;
    if state.draw_pile.is_empty()
        && state.draw_bottom.is_empty()
        && state.options.reshuffle_match_pile
        && state.match_pile.len() > 1
    {
        let top = state.match_pile.pop().expect("len > 1");
        let mut moved = std::mem::replace(&mut state.match_pile, vec![top]);
        moved.sort();
        events.push(Event::Reshuffled {
            seat,
            cards: moved.len(),
        });
        state.draw_pile = moved;
    }
    if !state.draw_pile.is_empty() {
        state.phase = Phase::Drawing;
        state.chance = Some(PendingChance::Draw {
            seat,
            pile: state.draw_pile.clone(),
        });
    } else if !state.draw_bottom.is_empty() {
        let card = state.draw_bottom.remove(0);
        receive_drawn(state, card, events);
    } else {
        events.push(Event::DrawVoid { seat });
        end_turn(state, TurnEnd::DrawVoid, false, events);
    }
}

fn receive_drawn(state: &mut State, card: Card, events: &mut Vec<Event>) {
    let seat = state.turn;
    insert_sorted(&mut state.hands[seat], card);
    state.drawn = Some(card);
    state.phase = Phase::Drawn;
    state.chance = None;
    let playable = drawn_playable(state);
    events.push(Event::Drew {
        seat,
        card,
        playable,
    });
    if !playable {
        state.drawn = None;
        events.push(Event::Kept {
            seat,
            card,
            automatic: true,
        });
        end_turn(state, TurnEnd::Unplayable, false, events);
    }
}

/// `seat`'s hand is empty: it goes out (a LUCK OUT on its first turn). The hand ends, unless a
/// LUCK OUT starts (or continues) the full round of `luck_out_full_round` (RULINGS 1.8).
fn go_out(state: &mut State, seat: Seat, forced_next: bool, events: &mut Vec<Event>) {
    let luck_out = state.first_turn;
    state.out.push(Out { seat, luck_out });
    events.push(Event::WentOut { seat, luck_out });
    if state.final_round.is_some() {
        end_turn(state, TurnEnd::WentOut, forced_next, events);
    } else if luck_out && state.options.luck_out_full_round {
        let seats: Vec<Seat> = (1..state.players)
            .map(|k| (seat + k) % state.players)
            .filter(|&s| !is_out(state, s))
            .collect();
        events.push(Event::FinalRound {
            seats: seats.clone(),
        });
        state.final_round = Some(seats);
        end_turn(state, TurnEnd::WentOut, forced_next, events);
    } else {
        events.push(Event::TurnEnded {
            seat,
            reason: TurnEnd::WentOut,
        });
        end_hand(state, events);
    }
}

// Engine invariant: a turn ends only while another seat is still in the hand.
#[allow(clippy::expect_used)]
fn end_turn(state: &mut State, reason: TurnEnd, forced_next: bool, events: &mut Vec<Event>) {
    events.push(Event::TurnEnded {
        seat: state.turn,
        reason,
    });
    let next = match &mut state.final_round {
        Some(seats) if seats.is_empty() => {
            end_hand(state, events);
            return;
        }
        Some(seats) => seats.remove(0),
        None => left_of(state, state.turn).expect("someone else is in the hand"),
    };
    begin_turn(state, next, forced_next, events);
}

fn begin_turn(state: &mut State, seat: Seat, forced: bool, events: &mut Vec<Event>) {
    state.turn = seat;
    state.first_turn = !state.had_turn[seat];
    state.had_turn[seat] = true;
    state.rolled_this_turn = false;
    state.used = Usage::default();
    state.drawn = None;
    state.chance = None;
    state.phase = if forced {
        Phase::ForcedBonus
    } else {
        Phase::PreRoll
    };
    if forced {
        events.push(Event::ForcedBonusOwed { seat });
    }
    events.push(Event::TurnStarted {
        seat,
        forced_bonus: forced,
    });
}

fn end_hand(state: &mut State, events: &mut Vec<Event>) {
    let result = score_hand(
        &state.options,
        state.players,
        state.hand,
        &state.out,
        state.hands.clone(),
    );
    state.results.push(result.clone());
    events.push(Event::HandEnded { result });
    for hand in &mut state.hands {
        hand.clear();
    }
    state.draw_pile = full_deck();
    state.draw_bottom.clear();
    state.match_pile.clear();
    state.dice = None;
    state.rolled_this_turn = false;
    state.used = Usage::default();
    state.drawn = None;
    state.first_turn = false;
    state.had_turn = vec![false; state.players];
    state.out.clear();
    state.final_round = None;
    state.chance = None;
    let totals = totals(state.players, &state.results);
    if target_reached(&state.options, &totals) {
        state.phase = Phase::Over;
        state.turn = (state.dealer + 1) % state.players;
        let winners = Standings::rank(totals.clone(), state.options.order(), true).winners;
        events.push(Event::GameEnded { winners, totals });
    } else {
        state.hand += 1;
        state.dealer = dealer_of(&state.options, state.players, state.hand);
        state.turn = (state.dealer + 1) % state.players;
        state.phase = Phase::Deal;
        state.chance = Some(deal_chance(state));
    }
}

pub(super) fn check_chance(state: &State, outcome: &Chance) -> Result<(), LuckPlusViolation> {
    let pending = state.chance.as_ref().ok_or(V::NoChancePending)?;
    if pending.kind() != outcome.kind() {
        return Err(V::UnexpectedChanceKind {
            expected: pending.kind(),
            got: outcome.kind(),
        });
    }
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
pub(super) fn apply_chance(state: &mut State, outcome: &Chance) -> Vec<Event> {
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
            for (seat, hand) in hands.iter().enumerate() {
                let mut sorted = hand.clone();
                sorted.sort();
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
