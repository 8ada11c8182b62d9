//! Move legality and effects, chance resolution, turn flow and the end phase.

use super::*;
use LuckyLuauViolation as V;

/// The colours a seat declared, one per Rainbow (empty: none declared).
pub(super) fn declared_of(player: &Player) -> Vec<Option<Colour>> {
    player.rainbows.iter().copied().map(Some).collect()
}

fn common_checks(state: &State, seat: Seat) -> Result<(), LuckyLuauViolation> {
    Common::seated(seat, state.players)?;
    if state.phase == Phase::Over {
        return Err(Common::GameOver.into());
    }
    if let Some(PendingChance::Draw { seat, .. }) = state.chance {
        return Err(Common::ChancePending(DrawnBy { seat }).into());
    }
    Ok(())
}

/// Whether `seat` is the current player holding a drawn card (tools wait until it is strung,
/// RULINGS L8).
fn mid_draw(state: &State, seat: Seat) -> bool {
    state.phase == Phase::Play && seat == state.turn && state.pending.is_some()
}

fn tool_moves(state: &State, seat: Seat) -> Vec<Move> {
    let player = &state.seats[seat];
    let mut moves = Vec::new();
    if state.phase == Phase::Play && !mid_draw(state, seat) {
        if !player.spacer_used {
            moves.push(Move::PlaceSpacer);
        }
        if !player.hook_used {
            moves.push(Move::PlaceHook);
        }
    }
    if !player.knife_used && !mid_draw(state, seat) && !player.finished {
        moves.extend((0..player.lei.len()).map(|index| Move::Knife { index }));
    }
    moves
}

/// Seats that may move: in play the current player first, then every seat (clockwise from it)
/// with a usable tool; in the end phase the seats that have not finished.
pub(super) fn to_act(state: &State) -> Vec<Seat> {
    if state.chance.is_some() {
        return Vec::new();
    }
    let n = state.players;
    match state.phase {
        Phase::Play => (0..n)
            .map(|k| (state.turn + k) % n)
            .filter(|&s| s == state.turn || !tool_moves(state, s).is_empty())
            .collect(),
        Phase::End => (0..n).filter(|&s| !state.seats[s].finished).collect(),
        Phase::Over => Vec::new(),
    }
}

fn end_turn(state: &mut State, events: &mut Vec<Event>) {
    if state.face_down.is_empty() && state.face_up.is_empty() {
        state.phase = Phase::End;
        events.push(Event::CentreEmpty);
    } else {
        state.turn = (state.turn + 1) % state.players;
        events.push(Event::TurnStarted { seat: state.turn });
    }
}

/// The rules of play: legality, the legal moves, and the effects of moves and chance.
impl crate::games::Rules<LuckyLuau> for State {
    fn validate(&self, seat: Seat, mv: &Move) -> Result<(), LuckyLuauViolation> {
        let state = self;
        common_checks(state, seat)?;
        let player = &state.seats[seat];
        match mv {
            Move::DrawFaceDown | Move::DrawFaceUp { .. } | Move::String { .. } | Move::Toss => {
                if state.phase == Phase::End {
                    return Err(V::EndPhase);
                }
                if seat != state.turn {
                    return Err(V::NotYourTurn {
                        seat,
                        turn: state.turn,
                    });
                }
                match (mv, state.pending) {
                    (Move::DrawFaceDown | Move::DrawFaceUp { .. }, Some(_)) => {
                        Err(V::DrawnCardPending)
                    }
                    (Move::DrawFaceDown, None) if state.face_down.is_empty() => Err(V::PileEmpty),
                    (Move::DrawFaceUp { card }, None) if state.face_up.get(*card) == 0 => {
                        Err(V::CardNotAvailable { card: *card })
                    }
                    (Move::String { .. } | Move::Toss, None) => Err(V::NoDrawnCard),
                    (
                        Move::String {
                            spacer: Some(index),
                        },
                        Some(_),
                    ) if player.lei.get(*index) != Some(&Slot::Spacer) => {
                        Err(V::NotASpacer { index: *index })
                    }
                    (Move::Toss, Some(p)) if p.face_up => Err(V::CannotTossFaceUp),
                    _ => Ok(()),
                }
            }
            Move::PlaceSpacer | Move::PlaceHook => {
                if state.phase == Phase::End {
                    return Err(V::ToolNotInEndPhase);
                }
                let (used, tool) = match mv {
                    Move::PlaceSpacer => (player.spacer_used, Tool::Spacer),
                    _ => (player.hook_used, Tool::Hook),
                };
                if used {
                    return Err(V::ToolAlreadyUsed { tool });
                }
                if mid_draw(state, seat) {
                    return Err(V::ToolNotDuringDraw);
                }
                Ok(())
            }
            Move::Knife { index } => {
                if state.phase == Phase::End && player.finished {
                    return Err(V::AlreadyFinished { seat });
                }
                if player.knife_used {
                    return Err(V::ToolAlreadyUsed { tool: Tool::Knife });
                }
                if mid_draw(state, seat) {
                    return Err(V::ToolNotDuringDraw);
                }
                if *index >= player.lei.len() {
                    return Err(V::NoSuchSlot {
                        index: *index,
                        len: player.lei.len(),
                    });
                }
                Ok(())
            }
            Move::Finish { guests, rainbows } => {
                if state.phase != Phase::End {
                    return Err(V::NotEndPhase);
                }
                if player.finished {
                    return Err(V::AlreadyFinished { seat });
                }
                if let Some(guests) = guests {
                    scoring::check_guests(guests)?;
                }
                if let Some(rainbows) = rainbows {
                    let expected = player.lei.iter().filter(|&&s| s == Slot::Rainbow).count();
                    if rainbows.len() != expected {
                        return Err(V::WrongRainbowCount {
                            expected,
                            got: rainbows.len(),
                        });
                    }
                    let declared: Vec<Option<Colour>> =
                        rainbows.iter().copied().map(Some).collect();
                    scoring::score_lei(&state.options, &player.lei, &declared)?;
                }
                Ok(())
            }
        }
    }

    /// Every legal move of `seat`. `finish` is listed once, without Guest bonuses or declared
    /// colours: those parameters are the table's to report (any in range are accepted).
    fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let state = self;
        let Ok(()) = common_checks(state, seat) else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        match state.phase {
            Phase::Play if seat == state.turn => match state.pending {
                Some(pending) => {
                    moves.push(Move::String { spacer: None });
                    for (index, &slot) in state.seats[seat].lei.iter().enumerate() {
                        if slot == Slot::Spacer {
                            moves.push(Move::String {
                                spacer: Some(index),
                            });
                        }
                    }
                    if !pending.face_up {
                        moves.push(Move::Toss);
                    }
                }
                None => {
                    if !state.face_down.is_empty() {
                        moves.push(Move::DrawFaceDown);
                    }
                    for card in state.face_up.kinds() {
                        moves.push(Move::DrawFaceUp { card });
                    }
                }
            },
            Phase::End if !state.seats[seat].finished => moves.push(Move::Finish {
                guests: None,
                rainbows: None,
            }),
            _ => {}
        }
        moves.extend(tool_moves(state, seat));
        moves
    }

    /// Everything is public but the face-down pile (RULINGS 4.3) and so the card a face-down
    /// draw turned up: `View::pending` shows it to its drawer only, until it is strung or tossed
    /// face up. Stringing or tossing that card reveals it. A face-down draw shows nothing (its
    /// chance event shows the card, to the drawer alone); a face-up draw, and stringing a card
    /// drawn face up, handle a card everyone saw; the tools and `finish` change public leis
    /// only, and the last `finish` scores leis everyone sees.
    fn reveals(&self, _seat: Seat, mv: &Move) -> bool {
        match mv {
            Move::String { .. } | Move::Toss => self.pending.is_some_and(|p| !p.face_up),
            Move::DrawFaceDown
            | Move::DrawFaceUp { .. }
            | Move::PlaceSpacer
            | Move::PlaceHook
            | Move::Knife { .. }
            | Move::Finish { .. } => false,
        }
    }

    // Engine invariant: applies only moves validate accepted, which checked the pending card.
    #[allow(clippy::expect_used)]
    fn apply(&mut self, seat: Seat, mv: &Move) -> Vec<Event> {
        let state = self;
        let mut events = Vec::new();
        match mv {
            Move::DrawFaceDown => {
                state.chance = Some(PendingChance::Draw {
                    seat,
                    pile: state.face_down,
                });
                events.push(Event::DrawingFaceDown { seat });
            }
            Move::DrawFaceUp { card } => {
                let taken = state.face_up.take(*card);
                debug_assert!(taken);
                state.pending = Some(Pending {
                    card: *card,
                    face_up: true,
                });
                events.push(Event::Drew {
                    seat,
                    face_up: true,
                    card: Some(*card),
                });
            }
            Move::String { spacer } => {
                let card = state.pending.take().expect("validated: pending").card;
                let lei = &mut state.seats[seat].lei;
                let index = match spacer {
                    Some(index) => {
                        lei[*index] = card.into();
                        *index
                    }
                    None => {
                        lei.push(card.into());
                        lei.len() - 1
                    }
                };
                events.push(Event::Strung {
                    seat,
                    card,
                    index,
                    filled_spacer: spacer.is_some(),
                });
                end_turn(state, &mut events);
            }
            Move::Toss => {
                let card = state.pending.take().expect("validated: pending").card;
                state.face_up.add(card, 1);
                events.push(Event::Tossed { seat, card });
                end_turn(state, &mut events);
            }
            Move::PlaceSpacer | Move::PlaceHook => {
                let player = &mut state.seats[seat];
                let tool = if *mv == Move::PlaceSpacer {
                    player.spacer_used = true;
                    Slot::Spacer
                } else {
                    player.hook_used = true;
                    Slot::Hook
                };
                player.lei.push(tool);
                events.push(Event::Placed {
                    seat,
                    tool,
                    index: player.lei.len() - 1,
                });
            }
            Move::Knife { index } => {
                let player = &mut state.seats[seat];
                let slot = player.lei.remove(*index);
                player.knife_used = true;
                player.cut = Some(slot);
                events.push(Event::Cut {
                    seat,
                    index: *index,
                    slot,
                });
            }
            Move::Finish { guests, rainbows } => {
                let player = &mut state.seats[seat];
                player.finished = true;
                player.guests = guests.clone().unwrap_or_else(|| vec![[0, 0]; GUESTS]);
                player.rainbows = rainbows.clone().unwrap_or_default();
                events.push(Event::Finished { seat });
                if state.seats.iter().all(|p| p.finished) {
                    state.phase = Phase::Over;
                    let score = score(state);
                    events.push(Event::GameEnded {
                        winners: score.winners,
                        totals: score.totals,
                    });
                }
            }
        }
        events
    }

    fn resolve_chance(&mut self, outcome: &Chance) -> Result<Vec<Event>, LuckyLuauViolation> {
        let state = self;
        let Some(PendingChance::Draw { seat, .. }) = state.chance else {
            return Err(V::from(Common::NoChancePending));
        };
        let Chance::Draw { card } = *outcome;
        if !state.face_down.take(card) {
            return Err(V::CardNotInPile { card });
        }
        state.chance = None;
        state.pending = Some(Pending {
            card,
            face_up: false,
        });
        Ok(vec![Event::Drew {
            seat,
            face_up: false,
            card: Some(card),
        }])
    }
}
