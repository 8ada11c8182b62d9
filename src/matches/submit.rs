//! Moves and chance reports: check the token, replay an idempotent retry or check the version,
//! let the referee play the input (and, with server randomness, every chance it triggers), then
//! write the new events and snapshot.

use diesel_async::{AsyncConnection, AsyncPgConnection};
use serde_json::Value;
use uuid::Uuid;

use super::access::{
    acting_seat, authenticate, may_report_chance, unknown_match, viewer_for, Credential,
};
use super::create::event_row;
use super::replay::{log_entry, score_of};
use super::wire::{MoveReply, SubmitChance, SubmitMove};
use crate::games::{Game, Order, Seat, Viewer};
use crate::problem::Problem;
use crate::records::{
    check_open, fingerprint_text, idempotency_key_reused, kind_of, parse_for_match, stored,
};
use crate::referee::{self, GameInput, Input};
use crate::seed::Seed;
use crate::store::cache::LiveMatch;
use crate::store::group::MoveWrite;
use crate::store::matches::{self as q, EventRow, Finished, MatchRow, SeatResult, SeatRow};
use crate::store::Conn;
use crate::store::Store;
use crate::vocabulary::{MatchKind, MatchStatus, RandomnessMode};
use crate::with_game;
use chrono::Utc;

fn seed_of(row: &MatchRow) -> Result<Option<Seed>, Problem> {
    row.seed
        .as_deref()
        .map(|hex| Seed::from_hex(hex).ok_or_else(|| Problem::internal("stored seed is not hex")))
        .transpose()
}

/// A fingerprint of what a request asked for, to tell an honest retry from a reused key.
fn fingerprint(credential: Credential, seat: Option<Seat>, body: &Value) -> Vec<u8> {
    fingerprint_text(format_args!("{credential:?}|{seat:?}|{body}"))
}

/// An idempotent retry: the first answer again, or a refusal if the key was used for another
/// request.
fn earlier_answer(previous: EventRow, request_hash: &[u8]) -> Result<MoveReply, Problem> {
    if previous.request_hash.as_deref() != Some(request_hash) {
        return Err(idempotency_key_reused("on this match"));
    }
    let answer = previous
        .response
        .ok_or_else(|| Problem::internal("idempotent event has no stored response"))?;
    stored("response", &answer)
}

/// What one request wants to add to a log, before the token says which seat it is for.
enum Submission {
    Move { seat: Option<Seat>, mv: Value },
    Chance(Value),
}

struct Request {
    id: Uuid,
    token: Option<String>,
    expected_version: Option<i64>,
    idempotency_key: Option<String>,
}

#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub async fn submit_move(
    store: &Store,
    id: Uuid,
    token: Option<String>,
    idempotency_key: Option<String>,
    body: SubmitMove,
) -> Result<MoveReply, Problem> {
    let request = Request {
        id,
        token,
        expected_version: body.expected_version,
        idempotency_key,
    };
    let submission = Submission::Move {
        seat: body.seat,
        mv: body.mv,
    };
    submit(store, request, submission).await
}

#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub async fn submit_chance(
    store: &Store,
    id: Uuid,
    token: Option<String>,
    idempotency_key: Option<String>,
    body: SubmitChance,
) -> Result<MoveReply, Problem> {
    let request = Request {
        id,
        token,
        expected_version: body.expected_version,
        idempotency_key,
    };
    submit(store, request, Submission::Chance(body.outcome)).await
}

async fn submit(
    store: &Store,
    request: Request,
    submission: Submission,
) -> Result<MoveReply, Problem> {
    let (request, submission) = (&request, &submission);
    // Moves on one match queue here, so that within this instance they never race each other.
    let slot = store.move_cache().slot(request.id);
    let mut cached = slot.lock().await;
    let mut db = Db::Pool(store, None);
    // Moves take the optimistic path: play on the cached match (or the match as read, without a
    // lock), then write only if the stored match is still that one (one statement, or for a move
    // that ends the match and so also updates the players' totals, one transaction). A move that
    // loses that race — another instance moved, re-issued a token, renamed a seat — reads the
    // match afresh and plays again; one that keeps losing takes the locked transaction.
    for _ in 0..3 {
        let from_cache = cached.is_some();
        let live = match cached.take() {
            Some(live) => live,
            None => {
                let Some((row, seats)) = q::find_with_seats(db.conn().await?, request.id).await?
                else {
                    store.move_cache().forget(request.id);
                    return Err(unknown_match(request.id));
                };
                LiveMatch::new(row, seats)
            }
        };
        match run_submission(&mut db, request, submission, &live, Write::IfCurrent).await {
            Ok(Played::Done(reply, next_state)) => {
                match next_state {
                    Some(state) => *cached = Some(live.moved_to(reply.version, state)),
                    None => store.move_cache().forget(request.id),
                }
                return Ok(reply);
            }
            Ok(Played::Raced) => continue,
            // A refusal is only as good as the copy it was judged on: another instance may have
            // moved, or re-issued the token. Judge it again on the stored match.
            Err(problem) if from_cache && problem.status < 500 => continue,
            // A refused request changed nothing: the copy stays good. After a database failure
            // the write may or may not have landed, so the next move reads the match again.
            Err(problem) => {
                let live_and_hosted = live.row.kind == MatchKind::Hosted
                    && live.row.status == MatchStatus::InProgress;
                if problem.status < 500 && live_and_hosted {
                    *cached = Some(live);
                } else {
                    store.move_cache().forget(request.id);
                }
                return Err(problem);
            }
        }
    }
    store.move_cache().forget(request.id);
    drop(db);
    let played = store
        .conn()
        .await?
        .transaction(async |conn| {
            let row = q::find_for_update(conn, request.id)
                .await?
                .ok_or_else(|| unknown_match(request.id))?;
            let live = LiveMatch::new(row, q::seats(conn, request.id).await?);
            let mut db = Db::Locked(store, conn);
            run_submission(&mut db, request, submission, &live, Write::Locked).await
        })
        .await?;
    match played {
        Played::Done(reply, _) => Ok(reply),
        Played::Raced => Err(Problem::internal("a locked move cannot lose a race")),
    }
}

/// How a submission reads and writes the match.
#[derive(Clone, Copy, PartialEq)]
enum Write {
    /// Inside a transaction, with the match row locked.
    Locked,
    /// A write that applies only if the match has not changed since it was read or cached.
    IfCurrent,
}

enum Played {
    /// Stored; with the state's new text while the match goes on.
    Done(MoveReply, Option<Box<str>>),
    /// Another move was stored first, or the seats changed: nothing was written.
    Raced,
}

async fn run_submission(
    db: &mut Db<'_>,
    request: &Request,
    submission: &Submission,
    live: &LiveMatch,
    write: Write,
) -> Result<Played, Problem> {
    let (row, seats) = (&live.row, live.seats.as_slice());
    if row.kind != MatchKind::Hosted {
        return Err(unknown_match(request.id));
    }
    let credential = authenticate(row, seats, request.token.as_deref())?;
    if credential == Credential::Anonymous {
        return Err(Problem::unauthorized(
            "send a seat token or the owner token as `Authorization: Bearer <token>`",
        ));
    }
    let (seat, payload) = match submission {
        Submission::Move { seat, mv } => (Some(acting_seat(credential, *seat)?), mv),
        Submission::Chance(outcome) => {
            if row.randomness == RandomnessMode::Server {
                return Err(Problem::conflict(
                    "server_randomness",
                    "this match draws its own chance from its seed; outcomes cannot be reported",
                ));
            }
            (None, outcome)
        }
    };
    let request_hash = fingerprint(credential, seat, payload);
    if let Some(key) = &request.idempotency_key {
        if let Some(previous) =
            q::event_by_idempotency_key(db.conn().await?, request.id, key).await?
        {
            return earlier_answer(previous, &request_hash).map(|reply| Played::Done(reply, None));
        }
    }
    check_open(row, request.expected_version)?;
    let accepted = Accepted {
        credential,
        viewer: viewer_for(row, credential),
        seat,
        payload: payload.clone(),
        idempotency_key: request.idempotency_key.clone(),
        request_hash,
    };
    let kind = kind_of(row)?;
    let is_move = accepted.seat.is_some();
    let outcome =
        with_game!(kind, G => advance::<G>(db, row, seats, &live.state, accepted, write).await);
    match &outcome {
        Ok(Played::Raced) => {}
        _ if !is_move => {}
        Ok(Played::Done(..)) => crate::metrics::METRICS.record_move(kind.slug(), None),
        Err(problem) => crate::metrics::METRICS.record_move(kind.slug(), Some(&problem.code)),
    }
    outcome
}

/// A request that passed the match-level checks.
struct Accepted {
    credential: Credential,
    viewer: Viewer,
    seat: Option<Seat>,
    payload: Value,
    idempotency_key: Option<String>,
    request_hash: Vec<u8>,
}

/// Plays the request, resolves server chance, appends the events and moves the snapshot forward.
async fn advance<G: Game>(
    db: &mut Db<'_>,
    row: &MatchRow,
    seats: &[SeatRow],
    state_text: &str,
    accepted: Accepted,
    write: Write,
) -> Result<Played, Problem> {
    let state: G::State = serde_json::from_str(state_text)
        .map_err(|e| Problem::internal(format!("stored state does not parse: {e}")))?;
    let mut state = referee::consistent::<G>(state)
        .map_err(|e| Problem::internal(format!("stored state is not consistent: {e}")))?;
    let input: GameInput<G> = match accepted.seat {
        Some(seat) => Input::Move {
            seat,
            mv: parse_for_match(referee::What::Move, &accepted.payload)?,
        },
        None => {
            may_report_chance(
                accepted.credential,
                row.chance_reporters,
                G::chance_owner(&state),
            )?;
            Input::Chance(parse_for_match(referee::What::Chance, &accepted.payload)?)
        }
    };
    let first_events = referee::play_input::<G>(&mut state, &input)?;
    // The parsed input is what is stored, not the raw text: serde ignores unknown fields of unit
    // variants (`{"type": "draw", "x": …}`), and jsonb cannot hold what they may carry (`\u0000`).
    let payload = match &input {
        Input::Move { mv, .. } => referee::to_json(mv),
        Input::Chance(outcome) => referee::to_json(outcome),
    };
    let mut plies = vec![(accepted.seat, payload, first_events)];
    if let Some(seed) = seed_of(row)? {
        let next_ply = row.version as u64 + 2;
        for (outcome, events) in referee::resolve_from_seed::<G>(&mut state, &seed, next_ply) {
            plies.push((None, referee::to_json(&outcome), events));
        }
    }

    let now = Utc::now();
    let over = G::is_over(&state);
    let viewer = if over { Viewer::Full } else { accepted.viewer };
    let version = row.version + plies.len() as i64;
    let reply = MoveReply {
        game: G::KIND,
        version,
        status: MatchStatus::of_over(over),
        to_act: G::to_act(&state),
        chance_pending: G::chance_pending(&state),
        entries: plies
            .iter()
            .enumerate()
            .map(|(i, (seat, payload, events))| {
                log_entry::<G>(
                    row.version + 1 + i as i64,
                    *seat,
                    payload,
                    events,
                    viewer,
                    now,
                )
            })
            .collect(),
        view: referee::to_json(&G::view(&state, viewer)),
    };

    let mut rows: Vec<EventRow> = plies
        .into_iter()
        .enumerate()
        .map(|(i, (seat, payload, _))| {
            event_row(row.id, row.version + 1 + i as i64, seat, payload, now)
        })
        .collect();
    // The answer is kept only where a retry may ask for it again: most moves carry no key, and
    // writing every reply would multiply what each move writes.
    if accepted.idempotency_key.is_some() {
        rows[0].idempotency_key = accepted.idempotency_key;
        rows[0].request_hash = Some(accepted.request_hash);
        rows[0].response = Some(referee::to_json(&reply));
    }
    let state_json = referee::to_json(&state);
    let score = over.then(|| score_of::<G>(&state));
    let result = score.as_ref().map(referee::to_json);
    let seat_results = score
        .as_ref()
        .map(|score| SeatResult::of(&score.standings, &G::highlights(&state)));
    let finished = score
        .as_ref()
        .zip(result.as_ref())
        .zip(seat_results.as_deref())
        .map(|((score, result), seat_results)| Finished {
            result,
            lowest_wins: score.standings.order == Order::LowestWins,
            seats: seat_results,
        });
    // The state's text for the cache, kept only while the match goes on.
    let mut next_state = None;
    let stored = match (write, finished) {
        (Write::IfCurrent, None) => {
            next_state = Some(state_json.to_string().into_boxed_str());
            // The write waits for its batch holding no connection of its own.
            db.release();
            let write = MoveWrite {
                id: row.id,
                read_version: row.version,
                read_access_version: row.access_version,
                version,
                state: state_json,
                now,
                events: rows,
            };
            db.store().move_writes().write(write).await?
        }
        (Write::IfCurrent, Some(finished)) => {
            q::finish_if_current(
                db.conn().await?,
                row,
                seats,
                version,
                &state_json,
                &rows,
                finished,
                now,
            )
            .await?
        }
        (Write::Locked, finished) => {
            let conn = db.conn().await?;
            q::append_events(conn, &rows).await?;
            q::advance(conn, row, version, &state_json, finished, now).await?;
            true
        }
    };
    Ok(if stored {
        Played::Done(reply, next_state)
    } else {
        Played::Raced
    })
}

/// Where a submission's statements go: a pool connection checked out only when one is needed (a
/// cached move that does not end its match needs none: the move writers store it), or the locked
/// transaction's connection.
// One per request, on its stack: boxing the pooled connection would allocate on every move.
#[allow(clippy::large_enum_variant)]
enum Db<'a> {
    Pool(&'a Store, Option<Conn>),
    Locked(&'a Store, &'a mut AsyncPgConnection),
}

impl Db<'_> {
    async fn conn(&mut self) -> Result<&mut AsyncPgConnection, Problem> {
        match self {
            Db::Locked(_, conn) => Ok(conn),
            Db::Pool(store, held) => {
                if held.is_none() {
                    *held = Some(store.conn().await?);
                }
                held.as_deref_mut()
                    .ok_or_else(|| Problem::internal("a checked-out connection went missing"))
            }
        }
    }

    fn store(&self) -> &Store {
        match self {
            Db::Pool(store, _) | Db::Locked(store, _) => store,
        }
    }

    /// Returns a pooled connection to the pool; a transaction keeps its own.
    fn release(&mut self) {
        if let Db::Pool(_, held) = self {
            *held = None;
        }
    }
}
