//! Mending a hosted match: a seat takes back its own last move, or a table corrects the chance
//! outcome it reported last. Each is a new entry of the log, judged by the referee's mending
//! policy ([`crate::referee::Mendable`]) on the log replayed from the match's snapshot (the
//! entries a mending may reach are the newest), or from the start when the snapshot is past the
//! entry to mend; the store's locked write ([`crate::store::write`]) writes it with the state it
//! returns the table to, in one transaction with the match row locked.
//!
//! A mending is rare and reaches back past the snapshot, so it does not go through the move
//! cache: the write holds this instance's moves on the match back while it runs, and writes a
//! fresh snapshot at its own ply (so no reader of "snapshot + later events" ever meets a mending it
//! would have to judge). A move on another instance that read the match before is refused by the
//! log's key or the snapshot's version, and is judged again on the mended match.

use chrono::Utc;
use diesel_async::AsyncPgConnection;
use serde_json::Value;
use uuid::Uuid;

use super::access::{acting_seat, authenticate, unknown_match, viewer_for, Credential, Who};
use super::create::event_row;
use super::current::{stored_state, Logged, Stored};
use super::submit::{earlier_answer, to_store};
use super::wire::{CorrectChance, MoveReply, TakeBack};
use crate::games::kit::refusal::Common;
use crate::games::{Consistent, Game, Seat};
use crate::problem::{Code, Problem};
use crate::records::{check_open, fingerprint_text, kind_of, parse_for_match, stored};
use crate::referee::{self, Entry, Mendable, Mended, RefereeError, Reporter, Run};
use crate::store::events::{self, LoggedEvent};
use crate::store::matches::{EventRow, MatchRow};
use crate::store::moves::Move;
use crate::store::write::{Change, Decision, Events, Judge, Locked, Write};
use crate::store::Store;
use crate::vocabulary::{MatchKind, RandomnessMode};
use crate::with_game;

/// What is asked: a take-back for a seat (or for the token's own), or a correction.
pub enum Mending {
    TakeBack { seat: Option<Seat> },
    Correction { outcome: Value },
}

/// A mending's body: the version it expects, and what it asks.
pub trait MendingBody {
    fn asked(self) -> (Option<i64>, Mending);
}

impl MendingBody for TakeBack {
    fn asked(self) -> (Option<i64>, Mending) {
        let mending = Mending::TakeBack { seat: self.seat };
        (self.expected_version, mending)
    }
}

impl MendingBody for CorrectChance {
    fn asked(self) -> (Option<i64>, Mending) {
        let outcome = self.outcome;
        (self.expected_version, Mending::Correction { outcome })
    }
}

/// Takes back the last move of the token's seat (or, with the owner token, of `seat`), or
/// replaces the last chance outcome reported at a table with the one that really happened.
#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub async fn mend(
    store: &Store,
    id: Uuid,
    token: Option<String>,
    idempotency_key: Option<String>,
    body: impl MendingBody,
) -> Result<MoveReply, Problem> {
    let (expected_version, mending) = body.asked();
    let judge = Mend {
        token: token.as_deref(),
        idempotency_key: idempotency_key.as_deref(),
        expected_version,
        mending: &mending,
    };
    store.write(id, idempotency_key.as_deref(), judge).await
}

/// A mending judged on the locked match (the store writes what it decides).
struct Mend<'a> {
    token: Option<&'a str>,
    idempotency_key: Option<&'a str>,
    expected_version: Option<i64>,
    mending: &'a Mending,
}

impl Judge for Mend<'_> {
    type Log = Events;
    type Reply = MoveReply;
    type Output = MoveReply;
    type Error = Problem;

    async fn judge(
        self,
        conn: &mut AsyncPgConnection,
        locked: Locked<EventRow>,
    ) -> Result<Decision<EventRow, MoveReply, MoveReply>, Problem> {
        let Locked {
            mut row,
            seats,
            earlier,
        } = locked;
        if row.kind != MatchKind::Hosted {
            return Err(unknown_match(row.id));
        }
        let credential = authenticate(&row, &seats, Who::token(self.token))?;
        let (seat, payload) = match self.mending {
            _ if credential == Credential::Anonymous => {
                return Err(Problem::new(
                    Code::InvalidToken,
                    "send a seat token or the owner token as `Authorization: Bearer <token>`",
                ))
            }
            Mending::TakeBack { seat } => {
                let seat = acting_seat(credential, *seat)?;
                let players = seats.len();
                if seat >= players {
                    let unknown = Common::UnknownSeat { seat, players };
                    return Err(referee::RefereeError::Common(unknown).into());
                }
                (Some(seat), &Value::Null)
            }
            Mending::Correction { .. } if row.randomness == RandomnessMode::Server => {
                return Err(Problem::new(
                    Code::ServerRandomness,
                    "this match draws its own chance from its seed; its outcomes are never \
                     corrected",
                ))
            }
            Mending::Correction { outcome } => (None, outcome),
        };
        let request_hash = fingerprint_text(format_args!("mend|{credential:?}|{seat:?}|{payload}"));
        if let Some(previous) = earlier {
            return earlier_answer(previous, &request_hash).map(Decision::Answer);
        }
        let asked = Asked {
            credential,
            seat,
            payload,
            key: self.idempotency_key.map(|key| (key, request_hash)),
        };
        let (mv, reply) = with_game!(kind_of(&row)?, G => {
            let (line, mended) = mended::<G>(conn, &row, seats.len(), &asked).await?;
            row.version = line.version;
            check_open(&row, self.expected_version)?;
            to_reply::<G>(&row, line.line, mended?, &asked)?
        });
        let state = mv.state.value();
        let write = Write {
            record: row,
            version: mv.version,
            entries: mv.events,
            change: Change::Advance {
                state,
                finished: mv.finished,
            },
            now: mv.now,
        };
        Ok(Decision::Write(Box::new(write), reply))
    }

    async fn answer(
        _: &mut AsyncPgConnection,
        _: Uuid,
        reply: MoveReply,
    ) -> Result<MoveReply, Problem> {
        Ok(reply)
    }
}

/// A mending asked by an authenticated caller: a take-back by `seat`, or a correction of the
/// chance outcome `payload`; with the request's `Idempotency-Key` and fingerprint.
struct Asked<'a> {
    credential: Credential,
    seat: Option<Seat>,
    payload: &'a Value,
    key: Option<(&'a str, Vec<u8>)>,
}

/// The match replayed with what may still be mended, and the version it stands at.
struct Line<G: Game> {
    line: Mendable<G>,
    version: i64,
}

/// The mending judged on the log from the match's snapshot, and again on the whole log when the
/// snapshot may be past the entry it mends: the line after it, and the mending with the payload
/// to store (or its refusal, which waits until the match is known to be open).
type Judged<G> = (Line<G>, Result<(Mended<G>, Value), Problem>);

async fn mended<G: Game>(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    players: usize,
    asked: &Asked<'_>,
) -> Result<Judged<G>, Problem> {
    // The snapshot, then the newest mending before it (a take-back leaves the table as it
    // stored), then the start.
    if row.version > 0 {
        let snapshot = stored_state::<G>(stored("state", &row.state)?)?;
        if let Some(mut line) = resumed(conn, row, snapshot, row.version).await? {
            if let Some(mended) = mend_line(&mut line, asked, true).transpose() {
                return Ok((line, mended));
            }
        }
        if let Some(event) = events::last_mending_before(conn, row.id, row.version).await? {
            let mut state = setup::<G>(row, players)?;
            Logged::<G>::of(Stored::from(&event))?
                .play(&mut state)
                .map_err(|e| Problem::internal(format!("a stored mending does not replay: {e}")))?;
            if let Some(mut line) = resumed(conn, row, state, event.ply).await? {
                if let Some(mended) = mend_line(&mut line, asked, true).transpose() {
                    return Ok((line, mended));
                }
            }
        }
    }
    let mut line = from_start::<G>(conn, row, players).await?;
    let mended = mend_line(&mut line, asked, false)
        .transpose()
        .unwrap_or_else(|| Err(Problem::internal("a whole log left a mending undecided")));
    Ok((line, mended))
}

/// The match replayed from `state`, the table as the log left it at ply `at`, through the log
/// after it; none if the log after it reaches back before it (a stored mending of an earlier
/// entry).
async fn resumed<G: Game>(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    state: Consistent<G>,
    at: i64,
) -> Result<Option<Line<G>>, Problem> {
    let run = events::run_at(conn, row.id, at)
        .await?
        .map(|(seat, take_backs)| Run {
            seat: seat as Seat,
            take_backs: take_backs as u32,
        });
    let line = Line {
        line: Mendable::resume(state, run),
        version: at,
    };
    Ok(replay_onto(conn, row, line).await.ok())
}

/// The table the match was set up with, before its first entry.
fn setup<G: Game>(row: &MatchRow, players: usize) -> Result<Consistent<G>, Problem> {
    let options: G::Options = stored("options", &row.options)?;
    let options = G::validate_options(&options, players)
        .map_err(|e| Problem::internal(format!("match {} has invalid options: {e}", row.id)))?;
    Ok(Consistent::<G>::new(options))
}

/// The match replayed from its setup through its whole log.
async fn from_start<G: Game>(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    players: usize,
) -> Result<Line<G>, Problem> {
    let line = Line {
        line: Mendable::<G>::new(setup::<G>(row, players)?),
        version: 0,
    };
    replay_onto(conn, row, line).await
}

/// `line` carried through the log after its version, read in chunks.
async fn replay_onto<G: Game>(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    mut line: Line<G>,
) -> Result<Line<G>, Problem> {
    let table = row.randomness == RandomnessMode::Table;
    loop {
        let chunk = events::chunk(conn, row.id, line.version, i64::MAX, events::CHUNK_ROWS).await?;
        let Some(end) = chunk.last().map(|event| event.ply) else {
            return Ok(line);
        };
        for event in &chunk {
            line.line
                .record(event.ply, entry_of::<G>(event, table)?)
                .map_err(|e| {
                    Problem::internal(format!(
                        "match {} fails to replay at ply {}: {e}",
                        row.id, event.ply
                    ))
                })?;
        }
        line.version = end;
    }
}

/// A stored entry as a full replay reads it: mendings by the entry they mend, not by the state
/// they stored, so that the policy is checked again on the way.
fn entry_of<G: Game>(event: &LoggedEvent, table: bool) -> Result<Entry<G>, Problem> {
    let reporter = Stored::from(event).reporter(table);
    Ok(match (event.seat, event.revises) {
        (Some(seat), None) => Entry::Move {
            seat: seat as Seat,
            mv: stored("move", &event.payload)?,
        },
        (None, None) => Entry::Chance {
            outcome: stored("chance", &event.payload)?,
            reporter,
        },
        (Some(seat), Some(ply)) => Entry::TakeBack {
            seat: seat as Seat,
            ply,
        },
        (None, Some(ply)) => Entry::Correction {
            outcome: stored("chance", &event.payload)?,
            reporter: reporter.unwrap_or(Reporter::Owner),
            ply,
        },
    })
}

/// Judges the mending on the replayed match as its next entry: what it mends, with the payload
/// to store; none if the line was `resumed` from a snapshot and refuses for want of an entry
/// that may stand before it.
fn mend_line<G: Game>(
    line: &mut Line<G>,
    asked: &Asked<'_>,
    resumed: bool,
) -> Result<Option<(Mended<G>, Value)>, Problem> {
    let mended = match asked.seat {
        Some(seat) => line.line.take_back(seat).map(|m| (m, Value::Null)),
        None => {
            let reporter = match asked.credential {
                Credential::Seat(seat) => Reporter::Seat(seat),
                _ => Reporter::Owner,
            };
            let outcome: G::Chance = parse_for_match(referee::What::Chance, asked.payload)?;
            let ply = line.version + 1;
            let mended = line.line.correct(ply, reporter, &outcome);
            mended.map(|m| (m, referee::to_json(&outcome)))
        }
    };
    match mended {
        Err(RefereeError::Mend(refusal)) if resumed && refusal.may_be_before_horizon() => Ok(None),
        mended => Ok(Some(mended?)),
    }
}

/// The accepted mending as the entry to append, with the state it returns the table to, and
/// the reply.
fn to_reply<G: Game>(
    row: &MatchRow,
    line: Mendable<G>,
    (mended, stored_payload): (Mended<G>, Value),
    asked: &Asked<'_>,
) -> Result<(Move, MoveReply), Problem> {
    let ply = row.version + 1;
    let now = Utc::now();
    let (seat, credential) = (asked.seat, asked.credential);
    let mut event = event_row(row.id, ply, seat, stored_payload, now);
    event.revises = Some(mended.revises);
    event.restores = Some(referee::to_json(&*mended.restores));
    if let (None, Credential::Seat(reporter)) = (seat, credential) {
        event.reported_by = Some(reporter as i32);
    }
    let viewer = viewer_for(row, credential);
    to_store::<G>(
        row,
        line.into_state(),
        vec![(event, mended.events)],
        viewer,
        asked.key.clone(),
        now,
    )
}
