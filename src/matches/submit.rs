//! Moves and chance reports: authenticate the request on the match, let the referee play it
//! (and, with server randomness, every chance it triggers), store what it adds, reply. How the
//! match is read and the move written (cache, races, batches, snapshots) is the store's
//! business: [`Store::play`].

use serde_json::Value;
use uuid::Uuid;

use super::access::{
    acting_seat, authenticate, may_report_chance, unknown_match, viewer_for, Credential, Who,
};
use super::create::event_row;
use super::current::live_state;
use super::hands;
use super::replay::{log_entry, score_of};
use super::wire::{MoveReply, SubmitChance, SubmitMove};
use crate::games::{Consistent, Game, GameKind, Order, Seat, Viewer};
use crate::payloads::RawJson;
use crate::problem::{Code, Problem};
use crate::records::{
    check_open, fingerprint_text, idempotency_key_reused, kind_of, parse_for_match, stored,
};
use crate::referee::{self, GameInput, Input};
use crate::seed::Seed;
use crate::store::hands::EnteredHand;
use crate::store::matches::{EventRow, MatchRow, SeatResult};
use crate::store::moves::{LiveMatch, Move, Plan};
use crate::store::snapshot::FinishedMatch;
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
pub(super) fn earlier_answer(
    previous: EventRow,
    request_hash: &[u8],
) -> Result<MoveReply, Problem> {
    if previous.request_hash.as_deref() != Some(request_hash) {
        return Err(idempotency_key_reused("on this match"));
    }
    let answer = previous
        .response
        .ok_or_else(|| Problem::internal("idempotent event has no stored response"))?;
    stored("response", &answer)
}

/// What one request wants to add to a log, before the token says which seat it is for.
pub enum Submission {
    Move { seat: Option<Seat>, mv: Value },
    Chance(Value),
}

struct Request {
    id: Uuid,
    token: Option<String>,
    expected_version: Option<i64>,
    idempotency_key: Option<String>,
}

/// A submission's body: the version it expects, and what it adds to the log.
pub trait SubmissionBody {
    fn submission(self) -> (Option<i64>, Submission);
}

impl SubmissionBody for SubmitMove {
    fn submission(self) -> (Option<i64>, Submission) {
        let (seat, mv) = (self.seat, self.mv);
        (self.expected_version, Submission::Move { seat, mv })
    }
}

impl SubmissionBody for SubmitChance {
    fn submission(self) -> (Option<i64>, Submission) {
        (self.expected_version, Submission::Chance(self.outcome))
    }
}

/// Submits a seat's move, or a chance outcome reported at a table.
#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub async fn submit(
    store: &Store,
    id: Uuid,
    token: Option<String>,
    idempotency_key: Option<String>,
    body: impl SubmissionBody,
) -> Result<MoveReply, Problem> {
    let (expected_version, submission) = body.submission();
    let request = Request {
        id,
        token,
        expected_version,
        idempotency_key,
    };
    submitted(store, request, submission).await
}

async fn submitted(
    store: &Store,
    request: Request,
    submission: Submission,
) -> Result<MoveReply, Problem> {
    let mut game = None;
    let key = request.idempotency_key.as_deref();
    // A deal reported without `hands` takes those the seats entered (read before the match's
    // turn; the judge keeps those entered for the deal it finds awaited).
    let hands = match &submission {
        Submission::Chance(outcome) if hands::wants_entered_hands(outcome) => {
            let mut conn = store.conn().await?;
            Some(crate::store::hands::entered(&mut conn, request.id).await?)
        }
        _ => None,
    };
    let answer = store
        .play(request.id, key, |live, earlier| {
            let judged = judge(
                &request,
                &submission,
                hands.as_deref(),
                live,
                earlier,
                &mut game,
            );
            match judged {
                // A refusal changes nothing; the store may judge it again on a fresher match.
                Err(problem) if problem.status < 500 => Ok(Plan::Refused(problem)),
                judged => judged,
            }
        })
        .await;
    if let (Some(game), Submission::Move { .. }) = (game, &submission) {
        let refused = answer.as_ref().err().map(|problem| problem.code.as_str());
        crate::metrics::METRICS.record_move(game.slug(), refused);
    }
    answer
}

/// Authenticates the request on the match as it stands, then lets the referee play it: the
/// reply, and what to store, or the first answer of an idempotent retry.
fn judge(
    request: &Request,
    submission: &Submission,
    hands: Option<&[EnteredHand]>,
    live: &LiveMatch,
    earlier: Option<EventRow>,
    game: &mut Option<GameKind>,
) -> Result<Plan<MoveReply, Problem>, Problem> {
    let (row, seats) = (&live.row, live.seats.as_slice());
    if row.kind != MatchKind::Hosted {
        return Err(unknown_match(request.id));
    }
    let credential = authenticate(row, seats, Who::token(request.token.as_deref()))?;
    if credential == Credential::Anonymous {
        return Err(Problem::new(
            Code::InvalidToken,
            "send a seat token or the owner token as `Authorization: Bearer <token>`",
        ));
    }
    let (seat, payload) = match submission {
        Submission::Move { seat, mv } => (Some(acting_seat(credential, *seat)?), mv),
        Submission::Chance(outcome) => {
            if row.randomness == RandomnessMode::Server {
                return Err(Problem::new(
                    Code::ServerRandomness,
                    "this match draws its own chance from its seed; outcomes cannot be reported",
                ));
            }
            (None, outcome)
        }
    };
    let request_hash = fingerprint(credential, seat, payload);
    if let Some(previous) = earlier {
        return earlier_answer(previous, &request_hash).map(Plan::Answer);
    }
    check_open(row, request.expected_version)?;
    let filled = match hands {
        Some(hands) => Some(hands::with_entered_hands(
            payload,
            hands,
            row.version,
            seats.len(),
        )?),
        None => None,
    };
    let accepted = Accepted {
        credential,
        viewer: viewer_for(row, credential),
        seat,
        payload: filled.as_ref().unwrap_or(payload),
        idempotency_key: request.idempotency_key.as_deref(),
        request_hash,
    };
    let kind = kind_of(row)?;
    *game = Some(kind);
    with_game!(kind, G => play::<G>(live, accepted))
}

/// A request that passed the match-level checks.
struct Accepted<'a> {
    credential: Credential,
    viewer: Viewer,
    seat: Option<Seat>,
    payload: &'a Value,
    idempotency_key: Option<&'a str>,
    request_hash: Vec<u8>,
}

/// Plays the request on the match as it stands and resolves server chance: the reply, and the
/// events and state to store.
fn play<G: Game>(
    live: &LiveMatch,
    accepted: Accepted,
) -> Result<Plan<MoveReply, Problem>, Problem> {
    let row = &live.row;
    let mut state = live_state::<G>(live)?.into_owned();
    let input: GameInput<G> = match accepted.seat {
        Some(seat) => Input::Move {
            seat,
            mv: parse_for_match(referee::What::Move, accepted.payload)?,
        },
        None => {
            may_report_chance(
                accepted.credential,
                row.chance_reporters,
                G::chance_owner(&state),
            )?;
            Input::Chance(parse_for_match(referee::What::Chance, accepted.payload)?)
        }
    };
    let first_events = referee::play_input::<G>(&mut state, &input)?;
    // The parsed input is what is stored, not the raw text: serde ignores unknown fields of unit
    // variants (`{"type": "draw", "x": …}`), and jsonb cannot hold what they may carry (`\u0000`).
    let payload = match &input {
        Input::Move { mv, .. } => referee::to_json(mv),
        Input::Chance(outcome) => referee::to_json(outcome),
    };
    let now = Utc::now();
    let mut first = event_row(row.id, row.version + 1, accepted.seat, payload, now);
    if let (None, Credential::Seat(reporter)) = (accepted.seat, accepted.credential) {
        first.reported_by = Some(reporter as i32);
    }
    let mut added = vec![(first, first_events)];
    if let Some(seed) = seed_of(row)? {
        let next_ply = row.version as u64 + 2;
        for (outcome, events) in referee::resolve_from_seed::<G>(&mut state, &seed, next_ply) {
            let ply = row.version + 1 + added.len() as i64;
            added.push((
                event_row(row.id, ply, None, referee::to_json(&outcome), now),
                events,
            ));
        }
    }
    let key = accepted
        .idempotency_key
        .map(|key| (key, accepted.request_hash));
    let (mv, reply) = to_store::<G>(row, state, added, accepted.viewer, key, now)?;
    Ok(Plan::Store(mv, reply))
}

/// What a request adds to its match and the reply it gets: `added`, the new entries of the log
/// with the events each made, bring the match to `state`. With an `Idempotency-Key`, the first
/// entry keeps the reply for a retry.
pub(super) fn to_store<G: Game>(
    row: &MatchRow,
    state: Consistent<G>,
    mut added: Vec<(EventRow, Vec<G::Event>)>,
    viewer: Viewer,
    idempotency: Option<(&str, Vec<u8>)>,
    now: chrono::DateTime<Utc>,
) -> Result<(Move, MoveReply), Problem> {
    let over = G::is_over(&state);
    let viewer = if over { Viewer::Full } else { viewer };
    let version = row.version + added.len() as i64;
    let table = row.randomness == RandomnessMode::Table;
    let reply = MoveReply {
        game: G::KIND,
        version,
        status: MatchStatus::of_over(over),
        to_act: G::to_act(&state),
        chance_pending: G::chance_pending(&state),
        entries: added
            .iter()
            .map(|(event, events)| log_entry::<G>(event.into(), table, events, viewer))
            .collect(),
        view: RawJson::of(&G::view(&state, viewer)),
    };
    // The answer is kept only where a retry may ask for it again: most moves carry no key, and
    // writing every reply would multiply what each move writes.
    if let (Some((key, request_hash)), Some((first, _))) = (idempotency, added.first_mut()) {
        first.idempotency_key = Some(key.to_owned());
        first.request_hash = Some(request_hash);
        first.response = Some(referee::to_json(&reply));
    }
    let finished = over.then(|| {
        let score = score_of::<G>(&state);
        FinishedMatch {
            result: referee::to_json(&score),
            lowest_wins: score.standings.order == Order::LowestWins,
            seats: SeatResult::of(&score.standings, &G::highlights(&state)),
        }
    });
    let mv = Move {
        version,
        state: Box::new(state),
        events: added.into_iter().map(|(event, _)| event).collect(),
        finished,
        now,
    };
    Ok((mv, reply))
}
