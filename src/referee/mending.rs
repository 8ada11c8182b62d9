//! Mending a match: a seat takes back its own last move, or a table corrects a mistyped chance
//! report. Both are entries added to the log, never rewrites of it. This module decides which
//! entry a mending may reach and what the table returns to; like the rest of the referee it is
//! pure.
//!
//! The policy (docs/contract.md, "Mending a match"), strict on purpose so that it can never be a
//! way to cheat:
//! - a seat may take back its last move that stands while no other seat has acted since, no
//!   chance event has happened since (a drawn card, a roll), and neither the move nor any later
//!   one showed what was hidden; a taken-back move is gone, and the move before it may be taken
//!   back in turn under the same conditions;
//! - a seat takes back at most [`TAKE_BACKS_PER_TURN`] times in a row (until another seat acts
//!   or a chance event happens), so that one seat alone cannot grow a match by keeping and taking
//!   back; the limit is checked when a take-back is asked, not when a stored log is replayed;
//! - at a table that reports its own chance, the last reported outcome may be replaced by the
//!   seat that reported it, or by the owner, while no move has been made since (not even one taken
//!   back later); outcomes the server drew from a seed are never corrected.
//!
//! [`Mendable`] replays a log from its start (or from a snapshot: [`Mendable::resume`]) and keeps, for the entries that may still be
//! mended, the state before each; it judges a mending and checks an exported log. The stored
//! log keeps with each mending the state it returned the table to, so that whoever reads the log
//! forward from a snapshot applies it without replaying the match ([`replay_mend`]).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use super::{play_chance, play_input, to_json, GameInput, Input, RefereeError};
use crate::games::{Consistent, Game, Seat};

/// Who reported a chance outcome at a table: the owner's token or a seat's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reporter {
    Owner,
    Seat(Seat),
}

impl Reporter {
    /// The reporter of a stored chance entry (`seat` as stored; none for the owner's report), or
    /// none for an outcome the server drew (`table` false).
    pub fn of_stored(seat: Option<i32>, table: bool) -> Option<Self> {
        match (seat, table) {
            (_, false) => None,
            (Some(seat), true) => Some(Reporter::Seat(seat as Seat)),
            (None, true) => Some(Reporter::Owner),
        }
    }

    /// The seat stored for this reporter (none for the owner).
    pub fn stored_seat(self) -> Option<i32> {
        match self {
            Reporter::Owner => None,
            Reporter::Seat(seat) => Some(seat as i32),
        }
    }
}

/// Why an entry of the log can no longer be mended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    /// The move at `ply` showed what was hidden: this move, or one made after it.
    Revealed { ply: i64 },
    /// Seat `seat` acted at `ply`, after this move.
    OtherSeatActed { ply: i64, seat: Seat },
    /// A chance event happened at `ply`, after this move.
    ChanceSince { ply: i64 },
    /// A move was made at `ply`, after this chance outcome.
    MovedSince { ply: i64 },
    /// The server drew this outcome from the match's seed.
    Drawn,
}

/// Why a take-back or a correction is refused; each names the condition that failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MendRefusal {
    #[error("seat {seat} has no move that stands in this match")]
    NothingToTakeBack { seat: Seat },
    #[error("no chance outcome stands in this match")]
    NothingToCorrect,
    #[error("{}", settled_in_words(*.ply, .why))]
    Settled { ply: i64, why: Settled },
    #[error("the outcome at ply {ply} was reported by {}; only that reporter or the owner may correct it", reporter_in_words(*.reported_by))]
    NotTheReporter { ply: i64, reported_by: Reporter },
    #[error("the correction repeats the outcome at ply {ply}")]
    SameOutcome { ply: i64 },
    #[error("seat {seat} has taken back {limit} moves in a row; its move stands until another seat acts or a chance event happens")]
    TakeBackLimit { seat: Seat, limit: u32 },
}

/// Take-backs a seat may make in a row: enough to change one's mind, too few to grow a match.
pub const TAKE_BACKS_PER_TURN: u32 = 3;

fn reporter_in_words(reporter: Reporter) -> String {
    match reporter {
        Reporter::Owner => "the owner".into(),
        Reporter::Seat(seat) => format!("seat {seat}"),
    }
}

fn settled_in_words(ply: i64, why: &Settled) -> String {
    match why {
        Settled::Revealed { ply: at } if *at == ply => {
            format!("the move at ply {ply} showed the table what was hidden; it stands")
        }
        Settled::Revealed { ply: at } => {
            format!("the move at ply {at} showed the table what was hidden; the move at ply {ply} stands")
        }
        Settled::OtherSeatActed { ply: at, seat } => {
            format!("seat {seat} acted at ply {at}, after the move at ply {ply}; it stands")
        }
        Settled::ChanceSince { ply: at } => {
            format!("a chance event happened at ply {at}, after the move at ply {ply}; it stands")
        }
        Settled::MovedSince { ply: at } => {
            format!("a move was made at ply {at}, after the outcome at ply {ply}; it stands")
        }
        Settled::Drawn => {
            format!("the outcome at ply {ply} was drawn by the server from the match's seed")
        }
    }
}

impl MendRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            MendRefusal::NothingToTakeBack { .. } => "nothing_to_take_back",
            MendRefusal::NothingToCorrect => "nothing_to_correct",
            MendRefusal::Settled { why, .. } => match why {
                Settled::Revealed { .. } => "information_revealed",
                Settled::OtherSeatActed { .. } => "another_seat_acted",
                Settled::ChanceSince { .. } => "chance_since",
                Settled::MovedSince { .. } => "moved_since",
                Settled::Drawn => "server_randomness",
            },
            MendRefusal::NotTheReporter { .. } => "not_the_reporter",
            MendRefusal::SameOutcome { .. } => "same_outcome",
            MendRefusal::TakeBackLimit { .. } => "take_back_limit",
        }
    }

    /// Whether a line resumed from a snapshot may refuse this wrongly: the entry it looked for
    /// may stand before the snapshot, so only the whole log can say.
    pub fn may_be_before_horizon(&self) -> bool {
        matches!(
            self,
            MendRefusal::NothingToTakeBack { .. } | MendRefusal::NothingToCorrect
        )
    }

    /// Whether the caller may never make it, whatever the log says (a 403 rather than a 409).
    pub fn is_forbidden(&self) -> bool {
        matches!(self, MendRefusal::NotTheReporter { .. })
    }

    pub fn params(&self) -> Map<String, Value> {
        let mut params = Map::new();
        let mut put = |key: &str, value: Value| {
            params.insert(key.into(), value);
        };
        match self {
            MendRefusal::NothingToTakeBack { seat } => put("seat", (*seat).into()),
            MendRefusal::NothingToCorrect => {}
            MendRefusal::Settled { ply, why } => {
                put("ply", (*ply).into());
                match why {
                    Settled::Revealed { ply } => put("revealed_at", (*ply).into()),
                    Settled::OtherSeatActed { ply, seat } => {
                        put("acted_at", (*ply).into());
                        put("by_seat", (*seat).into());
                    }
                    Settled::ChanceSince { ply } => put("chance_at", (*ply).into()),
                    Settled::MovedSince { ply } => put("moved_at", (*ply).into()),
                    Settled::Drawn => {}
                }
            }
            MendRefusal::NotTheReporter { ply, reported_by } => {
                put("ply", (*ply).into());
                put("reported_by", to_json(reported_by));
            }
            MendRefusal::SameOutcome { ply } => put("ply", (*ply).into()),
            MendRefusal::TakeBackLimit { seat, limit } => {
                put("seat", (*seat).into());
                put("limit", (*limit).into());
            }
        }
        params
    }
}

/// Who made an entry that stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum By {
    Move(Seat),
    /// A chance outcome, with its reporter (none: drawn by the server).
    Chance(Option<Reporter>),
}

/// An entry of the log that stands (neither taken back nor corrected).
struct Standing<G: Game> {
    ply: i64,
    by: By,
    /// The state before the entry while it may still be mended; why not, once it may not.
    before: Result<Box<Consistent<G>>, Settled>,
}

/// A match replayed from its start, with the entries that stand and, for those that may still
/// be mended, the state before each. Only the newest entries may be mended (any entry settles
/// every earlier one it does not leave mendable), so at most a few states are kept.
///
/// A line resumed from a snapshot knows only the entries after it. What it accepts, and every
/// refusal that names an entry, is what the whole log would decide (only later entries settle
/// an entry); a refusal for want of an entry may be wrong and is asked of the whole log again
/// ([`MendRefusal::may_be_before_horizon`]).
pub struct Mendable<G: Game> {
    state: Consistent<G>,
    standing: Vec<Standing<G>>,
    /// The seat that made the newest entries, and its take-backs since another seat or a
    /// chance event acted.
    run: Option<Run>,
}

/// A seat's entries in a row at the end of the log: how many of them are take-backs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    pub seat: Seat,
    pub take_backs: u32,
}

impl Run {
    /// The run after `seat` acted: kept if it is the run's seat, else a new one.
    fn by(run: Option<Run>, seat: Seat) -> Run {
        match run {
            Some(run) if run.seat == seat => run,
            _ => Run {
                seat,
                take_backs: 0,
            },
        }
    }
}

/// One entry of a match's log as a full replay reads it: an input, or a mending that names the
/// entry it mends.
pub enum Entry<G: Game> {
    Move {
        seat: Seat,
        mv: G::Move,
    },
    /// A chance outcome, reported at a table (`reporter`) or drawn by the server (none).
    Chance {
        outcome: G::Chance,
        reporter: Option<Reporter>,
    },
    /// `seat` takes back its move at ply `ply`.
    TakeBack {
        seat: Seat,
        ply: i64,
    },
    /// `reporter` replaces the outcome at ply `ply` with `outcome`.
    Correction {
        outcome: G::Chance,
        reporter: Reporter,
        ply: i64,
    },
}

/// A mending that the referee accepted.
pub struct Mended<G: Game> {
    /// The ply of the entry taken back or corrected.
    pub revises: i64,
    /// The state the table returns to: the state before that entry.
    pub restores: Consistent<G>,
    /// The events of a correction's outcome (none for a take-back).
    pub events: Vec<G::Event>,
}

impl<G: Game> Mendable<G> {
    pub fn new(state: Consistent<G>) -> Self {
        Self::resume(state, None)
    }

    /// A line that starts at a snapshot: `state` as the log left it, `run` the seat's run that
    /// the log ends with there.
    pub fn resume(state: Consistent<G>, run: Option<Run>) -> Self {
        Self {
            state,
            standing: Vec::new(),
            run,
        }
    }

    pub fn state(&self) -> &Consistent<G> {
        &self.state
    }

    pub fn into_state(self) -> Consistent<G> {
        self.state
    }

    /// Replays entry `ply` of a log. A mending must mend the entry it names: a log that says
    /// otherwise was not written by this referee.
    pub fn record(&mut self, ply: i64, entry: Entry<G>) -> Result<Vec<G::Event>, RefereeError> {
        let (mended, named) = match entry {
            Entry::Move { seat, mv } => return self.play(ply, &Input::Move { seat, mv }, None),
            Entry::Chance { outcome, reporter } => {
                return self.play(ply, &Input::Chance(outcome), reporter)
            }
            Entry::TakeBack { seat, ply: named } => (self.undo(seat)?, named),
            Entry::Correction {
                outcome,
                reporter,
                ply: named,
            } => (self.correct(ply, reporter, &outcome)?, named),
        };
        if mended.revises != named {
            return Err(RefereeError::Malformed {
                what: super::What::Log,
                detail: format!(
                    "ply {ply} mends ply {named}, but the entry it may mend is ply {}",
                    mended.revises
                ),
            });
        }
        Ok(mended.events)
    }

    /// Plays the input at `ply`, made by a seat or reported by `reporter` (none for an outcome
    /// the server drew), and settles what it leaves no longer mendable.
    pub fn play(
        &mut self,
        ply: i64,
        input: &GameInput<G>,
        reporter: Option<Reporter>,
    ) -> Result<Vec<G::Event>, RefereeError> {
        let before = self.state.clone();
        let events = play_input::<G>(&mut self.state, input)?;
        let entry = match input {
            Input::Move { seat, mv } => {
                self.run = Some(Run::by(self.run, *seat));
                let revealed = G::reveals(&before, *seat, mv).then_some(Settled::Revealed { ply });
                self.settle(|by| match (by, revealed) {
                    (_, Some(revealed)) => Some(revealed),
                    (By::Move(other), None) if other == *seat => None,
                    (By::Move(_), None) => Some(Settled::OtherSeatActed { ply, seat: *seat }),
                    (By::Chance(_), None) => Some(Settled::MovedSince { ply }),
                });
                Standing {
                    ply,
                    by: By::Move(*seat),
                    before: revealed.map_or_else(|| Ok(Box::new(before)), Err),
                }
            }
            Input::Chance(_) => {
                self.run = None;
                self.settle(|_| Some(Settled::ChanceSince { ply }));
                Standing {
                    ply,
                    by: By::Chance(reporter),
                    before: match reporter {
                        Some(_) => Ok(Box::new(before)),
                        None => Err(Settled::Drawn),
                    },
                }
            }
        };
        self.standing.push(entry);
        Ok(events)
    }

    /// Settles each entry still mendable that `why` says the new entry settles. Those entries
    /// are the newest ones, so this stops at the first already settled.
    fn settle(&mut self, why: impl Fn(By) -> Option<Settled>) {
        for entry in self.standing.iter_mut().rev() {
            if entry.before.is_err() {
                break;
            }
            if let Some(settled) = why(entry.by) {
                entry.before = Err(settled);
            }
        }
    }

    /// Takes back `seat`'s last move that stands, if the seat has not taken back
    /// [`TAKE_BACKS_PER_TURN`] moves in a row: the table returns to the state before it.
    pub fn take_back(&mut self, seat: Seat) -> Result<Mended<G>, RefereeError> {
        if let Some(run) = self.run.filter(|run| run.seat == seat) {
            if run.take_backs >= TAKE_BACKS_PER_TURN {
                let limit = TAKE_BACKS_PER_TURN;
                return Err(MendRefusal::TakeBackLimit { seat, limit }.into());
            }
        }
        self.undo(seat)
    }

    /// Takes back `seat`'s last move that stands (a stored take-back: no limit, which logs
    /// written before it had none).
    fn undo(&mut self, seat: Seat) -> Result<Mended<G>, RefereeError> {
        let index = self
            .standing
            .iter()
            .rposition(|entry| entry.by == By::Move(seat))
            .ok_or(MendRefusal::NothingToTakeBack { seat })?;
        let entry = &self.standing[index];
        let before = match &entry.before {
            Err(why) => {
                return Err(MendRefusal::Settled {
                    ply: entry.ply,
                    why: *why,
                }
                .into())
            }
            Ok(before) => (**before).clone(),
        };
        // Whatever followed a mendable move settled it unless it was the seat's own later move,
        // which would then be the seat's last one: a mendable last move is the newest entry.
        debug_assert_eq!(index + 1, self.standing.len());
        let revises = entry.ply;
        self.standing.truncate(index);
        self.state = before.clone();
        let run = Run::by(self.run, seat);
        self.run = Some(Run {
            take_backs: run.take_backs + 1,
            ..run
        });
        Ok(Mended {
            revises,
            restores: before,
            events: Vec::new(),
        })
    }

    /// Replaces the last chance outcome that stands with `outcome`, as entry `ply`, for
    /// `reporter`: the table returns to the state before the outcome and resolves the new one.
    pub fn correct(
        &mut self,
        ply: i64,
        reporter: Reporter,
        outcome: &G::Chance,
    ) -> Result<Mended<G>, RefereeError> {
        let index = self
            .standing
            .iter()
            .rposition(|entry| matches!(entry.by, By::Chance(_)))
            .ok_or(MendRefusal::NothingToCorrect)?;
        let entry = &self.standing[index];
        let (before, reported_by) = match (&entry.before, entry.by) {
            (Ok(before), By::Chance(Some(reported_by))) => (before, reported_by),
            (Err(why), _) => {
                return Err(MendRefusal::Settled {
                    ply: entry.ply,
                    why: *why,
                }
                .into())
            }
            // Only a reported outcome is kept mendable.
            (Ok(_), _) => {
                return Err(MendRefusal::Settled {
                    ply: entry.ply,
                    why: Settled::Drawn,
                }
                .into())
            }
        };
        // Any later entry settles a chance outcome: a mendable one is the newest entry.
        debug_assert_eq!(index + 1, self.standing.len());
        if reporter != Reporter::Owner && reporter != reported_by {
            return Err(MendRefusal::NotTheReporter {
                ply: entry.ply,
                reported_by,
            }
            .into());
        }
        let revises = entry.ply;
        let mut state = (**before).clone();
        let events = play_chance::<G>(&mut state, outcome)?;
        if to_json(&state) == to_json(&self.state) {
            return Err(MendRefusal::SameOutcome { ply: revises }.into());
        }
        let restores = (**before).clone();
        self.run = None;
        // The correction stands in the outcome's place, and may itself be corrected.
        self.standing[index] = Standing {
            ply,
            by: By::Chance(Some(reporter)),
            before: Ok(Box::new(restores.clone())),
        };
        self.state = state;
        Ok(Mended {
            revises,
            restores,
            events,
        })
    }
}

/// Plays a stored mending forward: the table returns to `restores`, the state the mending was
/// judged to restore, and a correction then resolves its `outcome` there. Returns its events.
pub fn replay_mend<G: Game>(
    state: &mut Consistent<G>,
    restores: Consistent<G>,
    outcome: Option<&G::Chance>,
) -> Result<Vec<G::Event>, RefereeError> {
    let mut restored = restores;
    let events = match outcome {
        Some(outcome) => play_chance::<G>(&mut restored, outcome)?,
        None => Vec::new(),
    };
    *state = restored;
    Ok(events)
}

#[cfg(test)]
mod tests {
    //! The policy on a two-seat Lucky Jack table (hands hidden): Ann deals, Ben plays first.
    use super::*;
    use crate::games::lucky_jack::{Chance, LuckyJack, Move, Options, Symbol::*};

    const ANN: Seat = 0;
    const BEN: Seat = 1;

    fn dealt() -> Chance {
        Chance::Deal {
            hands: vec![
                vec![Lemon, Cherry, Grape, Clover, Bell, Seven, Jack],
                vec![Lemon, Lemon, Lemon, Grape, Clover, Seven, Seven],
            ],
            flip: Clover,
        }
    }

    fn draw(card: crate::games::lucky_jack::Symbol) -> Chance {
        Chance::Draw { cards: vec![card] }
    }

    /// A table whose deal the owner reported at ply 1.
    fn table() -> Mendable<LuckyJack> {
        let options = LuckyJack::validate_options(&Options::default(), 2).unwrap();
        let mut line = Mendable::new(Consistent::new(options));
        let owner = Some(Reporter::Owner);
        line.record(
            1,
            Entry::Chance {
                outcome: dealt(),
                reporter: owner,
            },
        )
        .unwrap();
        line
    }

    /// `seat` makes move `mv` as entry `ply`.
    fn moved(line: &mut Mendable<LuckyJack>, ply: i64, seat: Seat, mv: Move) {
        line.play(ply, &Input::Move { seat, mv }, None).unwrap();
    }

    fn refused<T>(mended: Result<T, RefereeError>) -> MendRefusal {
        match mended {
            Err(RefereeError::Mend(refusal)) => refusal,
            Err(other) => panic!("not a mending refusal: {other}"),
            Ok(_) => panic!("the mending was accepted"),
        }
    }

    fn json(line: &Mendable<LuckyJack>) -> Value {
        to_json(&**line.state())
    }

    #[test]
    fn a_take_back_returns_the_table_to_the_state_before_the_move() {
        let mut line = table();
        let before = json(&line);
        moved(&mut line, 2, BEN, Move::Draw);
        let mended = line.take_back(BEN).unwrap();
        assert_eq!(mended.revises, 2);
        assert_eq!(json(&line), before);
        assert_eq!(to_json(&*mended.restores), before);
    }

    #[test]
    fn moves_are_taken_back_one_by_one_until_a_chance_event_stands_between() {
        let mut line = table();
        moved(&mut line, 2, BEN, Move::Draw);
        line.play(3, &Input::Chance(draw(Bell)), Some(Reporter::Seat(BEN)))
            .unwrap();
        let pending = json(&line);
        moved(&mut line, 4, BEN, Move::Keep);
        assert_eq!(line.take_back(BEN).unwrap().revises, 4);
        assert_eq!(json(&line), pending);
        let stands = refused(line.take_back(BEN));
        assert_eq!(
            stands,
            MendRefusal::Settled {
                ply: 2,
                why: Settled::ChanceSince { ply: 3 }
            }
        );
        assert_eq!(stands.code(), "chance_since");
    }

    #[test]
    fn a_move_that_shows_a_card_settles_itself_and_every_move_before_it() {
        let mut line = table();
        let discard = Move::Discard {
            card: Clover,
            jackpot: false,
        };
        moved(&mut line, 2, BEN, discard);
        let stands = refused(line.take_back(BEN));
        assert_eq!(stands.code(), "information_revealed");
        assert_eq!(stands.params()["revealed_at"], 2);
    }

    #[test]
    fn another_seats_act_settles_a_move_even_once_taken_back() {
        let mut line = table();
        moved(&mut line, 2, BEN, Move::Draw);
        line.play(3, &Input::Chance(draw(Bell)), Some(Reporter::Owner))
            .unwrap();
        moved(&mut line, 4, BEN, Move::Keep);
        moved(&mut line, 5, ANN, Move::Draw);
        assert_eq!(line.take_back(ANN).unwrap().revises, 5);
        let stands = refused(line.take_back(BEN));
        assert_eq!(
            stands,
            MendRefusal::Settled {
                ply: 4,
                why: Settled::OtherSeatActed { ply: 5, seat: ANN }
            }
        );
        assert_eq!(
            refused(line.take_back(ANN)),
            MendRefusal::NothingToTakeBack { seat: ANN }
        );
    }

    #[test]
    fn a_seat_takes_back_three_moves_in_a_row_and_a_chance_event_starts_the_count_again() {
        let mut line = table();
        for ply in [2, 4, 6] {
            moved(&mut line, ply, BEN, Move::Draw);
            assert_eq!(line.take_back(BEN).unwrap().revises, ply);
        }
        moved(&mut line, 8, BEN, Move::Draw);
        let limited = refused(line.take_back(BEN));
        assert_eq!(
            limited,
            MendRefusal::TakeBackLimit {
                seat: BEN,
                limit: TAKE_BACKS_PER_TURN
            }
        );
        assert_eq!(limited.code(), "take_back_limit");
        // A stored log is replayed as it was written, whatever the limit.
        assert_eq!(line.undo(BEN).unwrap().revises, 8);
        moved(&mut line, 9, BEN, Move::Draw);
        line.play(10, &Input::Chance(draw(Bell)), Some(Reporter::Owner))
            .unwrap();
        moved(&mut line, 11, BEN, Move::Keep);
        assert_eq!(line.take_back(BEN).unwrap().revises, 11);
    }

    #[test]
    fn a_line_resumed_after_the_move_to_take_back_refuses_only_for_want_of_it() {
        let mut whole = table();
        moved(&mut whole, 2, BEN, Move::Draw);
        let run = Some(Run {
            seat: BEN,
            take_backs: 0,
        });
        let mut resumed = Mendable::resume(whole.state().clone(), run);
        let refusal = refused(resumed.take_back(BEN));
        assert!(refusal.may_be_before_horizon(), "{refusal:?}");
        assert_eq!(whole.take_back(BEN).unwrap().revises, 2);
        // Resumed before the move, it decides as the whole log does.
        let mut resumed = Mendable::resume(table().state().clone(), None);
        moved(&mut resumed, 2, BEN, Move::Draw);
        assert_eq!(resumed.take_back(BEN).unwrap().revises, 2);
        assert_eq!(json(&resumed), json(&whole));
    }

    #[test]
    fn a_correction_is_for_its_reporter_or_the_owner_and_may_itself_be_corrected() {
        let mut line = table();
        moved(&mut line, 2, BEN, Move::Draw);
        line.play(3, &Input::Chance(draw(Bell)), Some(Reporter::Seat(BEN)))
            .unwrap();
        let ann = refused(line.correct(4, Reporter::Seat(ANN), &draw(Jack)));
        assert!(ann.is_forbidden());
        assert_eq!(
            line.correct(4, Reporter::Seat(BEN), &draw(Jack))
                .unwrap()
                .revises,
            3
        );
        assert_eq!(
            line.correct(5, Reporter::Owner, &draw(Grape))
                .unwrap()
                .revises,
            4
        );
        let again = refused(line.correct(6, Reporter::Owner, &draw(Grape)));
        assert_eq!(again, MendRefusal::SameOutcome { ply: 5 });
        assert_eq!(json(&line)["pending"], "grape");
    }

    #[test]
    fn an_outcome_stands_once_a_move_was_made_even_one_taken_back() {
        let mut line = table();
        moved(&mut line, 2, BEN, Move::Draw);
        line.take_back(BEN).unwrap();
        let stands = refused(line.correct(4, Reporter::Owner, &dealt()));
        assert_eq!(
            stands,
            MendRefusal::Settled {
                ply: 1,
                why: Settled::MovedSince { ply: 2 }
            }
        );
    }

    #[test]
    fn an_outcome_the_server_drew_is_never_corrected() {
        let options = LuckyJack::validate_options(&Options::default(), 2).unwrap();
        let mut line = Mendable::<LuckyJack>::new(Consistent::new(options));
        line.play(1, &Input::Chance(dealt()), None).unwrap();
        let drawn = refused(line.correct(2, Reporter::Owner, &dealt()));
        assert_eq!(drawn.code(), "server_randomness");
    }

    #[test]
    fn a_log_whose_mending_names_another_entry_does_not_replay() {
        let mut line = table();
        line.record(
            2,
            Entry::Move {
                seat: BEN,
                mv: Move::Draw,
            },
        )
        .unwrap();
        let wrong = line
            .record(3, Entry::TakeBack { seat: BEN, ply: 1 })
            .unwrap_err();
        assert_eq!(wrong.code(), "invalid_log");
    }
}
