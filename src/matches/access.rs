//! Who may see and do what: tokens to credentials, credentials to viewers and acting seats.

use uuid::Uuid;

use super::current::catch_up;
use crate::games::{ChanceOwner, Seat, Viewer};
use crate::problem::{Code, Problem};
use crate::records::note_game;
use crate::store::matches::{self as q, EventRow, MatchRow, SeatRow};
use crate::store::Store;
use crate::store::UnknownRecord;
use crate::tokens;
use crate::vocabulary::{ChanceReporters, MatchKind, MatchStatus, Space};

/// What a presented token proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    Owner,
    Seat(Seat),
    Anonymous,
}

pub(super) fn unknown_match(id: Uuid) -> Problem {
    UnknownRecord::hosted(id).into()
}

/// Who asks: the token presented, if any, and the space the request works in (its
/// `Household-Key`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Who<'a> {
    pub token: Option<&'a str>,
    pub space: Space,
}

impl<'a> Who<'a> {
    /// A request that presents a token (or none) and no household key.
    pub fn token(token: Option<&'a str>) -> Self {
        Who {
            token,
            space: Space::PUBLIC,
        }
    }
}

/// Checks a presented token against the match's owner and seats. A token that matches nothing is
/// refused rather than downgraded to a spectator, so a typo never looks like "no moves allowed".
/// Without a token, a household's match is only there for its household's keys: to anyone else
/// it is unknown.
pub fn authenticate(
    row: &MatchRow,
    seats: &[SeatRow],
    who: Who<'_>,
) -> Result<Credential, Problem> {
    let Some(token) = who.token else {
        crate::records::check_visible(row, who.space)?;
        return Ok(Credential::Anonymous);
    };
    let presented = tokens::hash(token);
    if tokens::constant_time_eq(&presented, &row.owner_token_hash) {
        return Ok(Credential::Owner);
    }
    seats
        .iter()
        .find(|s| {
            s.token_hash
                .as_deref()
                .is_some_and(|hash| tokens::constant_time_eq(&presented, hash))
        })
        .map(|s| Credential::Seat(s.seat as Seat))
        .ok_or_else(|| {
            Problem::new(
                Code::InvalidToken,
                "the token belongs to no seat of this match",
            )
        })
}

pub(super) fn viewer_for(row: &MatchRow, credential: Credential) -> Viewer {
    if row.status == MatchStatus::Finished {
        return Viewer::Full;
    }
    match credential {
        Credential::Owner => Viewer::Full,
        Credential::Seat(seat) => Viewer::Seat(seat),
        Credential::Anonymous => Viewer::Spectator,
    }
}

/// Loads a match as it stands (its snapshot brought up to its log) and checks the presented
/// token.
pub(super) async fn load(
    store: &Store,
    id: Uuid,
    who: Who<'_>,
) -> Result<(crate::store::Conn, MatchRow, Vec<SeatRow>, Credential), Problem> {
    let (conn, mut row, seats, tail, credential) = load_as_stored(store, id, who).await?;
    catch_up(&mut row, &tail)?;
    Ok((conn, row, seats, credential))
}

/// Loads a match's row and seats for a reader that replays the log itself (the log, a ply, the
/// export): the row's version is the log's last ply, its state the snapshot as stored (not
/// brought up to the log, which these readers would not look at), and checks the token.
pub(super) async fn load_for_replay(
    store: &Store,
    id: Uuid,
    who: Who<'_>,
) -> Result<(crate::store::Conn, MatchRow, Vec<SeatRow>, Credential), Problem> {
    let (conn, mut row, seats, tail, credential) = load_as_stored(store, id, who).await?;
    row.version = tail.last().map_or(row.version, |event| event.ply);
    Ok((conn, row, seats, credential))
}

/// Loads a match as stored, its snapshot and the events after it apart (for a reader that plays
/// them on the typed state itself: [`super::current::typed_state`]), and checks the token.
pub(super) async fn load_as_stored(
    store: &Store,
    id: Uuid,
    who: Who<'_>,
) -> Result<
    (
        crate::store::Conn,
        MatchRow,
        Vec<SeatRow>,
        Vec<EventRow>,
        Credential,
    ),
    Problem,
> {
    let mut conn = store.conn().await?;
    let (row, seats, tail) = as_stored(&mut conn, id).await?;
    let credential = authenticate(&row, &seats, who)?;
    Ok((conn, row, seats, tail, credential))
}

/// A hosted match as it stands, with its seats.
pub(super) async fn current(
    conn: &mut diesel_async::AsyncPgConnection,
    id: Uuid,
) -> Result<(MatchRow, Vec<SeatRow>), Problem> {
    let (mut row, seats, tail) = as_stored(conn, id).await?;
    catch_up(&mut row, &tail)?;
    Ok((row, seats))
}

async fn as_stored(
    conn: &mut diesel_async::AsyncPgConnection,
    id: Uuid,
) -> Result<(MatchRow, Vec<SeatRow>, Vec<EventRow>), Problem> {
    let found = q::find_current(conn, id)
        .await?
        .filter(|(row, _, _)| row.kind == MatchKind::Hosted)
        .ok_or_else(|| unknown_match(id))?;
    note_game(found.0.game.kind());
    Ok(found)
}

/// The seat a move is for: the seat token's own, or the one the owner names.
pub(super) fn acting_seat(
    credential: Credential,
    requested: Option<Seat>,
) -> Result<Seat, Problem> {
    match (credential, requested) {
        (Credential::Seat(own), None) => Ok(own),
        (Credential::Seat(own), Some(seat)) if seat == own => Ok(own),
        (Credential::Seat(own), Some(seat)) => Err(Problem::new(
            Code::WrongSeat,
            format!("this token is for seat {own}, not seat {seat}"),
        )),
        (Credential::Owner, Some(seat)) => Ok(seat),
        (Credential::Owner, None) => Err(Problem::new(
            Code::SeatRequired,
            "with the owner token, name the seat to move for in `seat`",
        )),
        (Credential::Anonymous, _) => Err(Problem::new(Code::InvalidToken, "a token is required")),
    }
}

/// Whether `credential` may report the pending chance outcome (whose it is: `owner`) under the
/// match's `policy`. The owner always may, so a table can always go on; a seat token must not let
/// one player choose another's cards or dice.
pub(super) fn may_report_chance(
    credential: Credential,
    policy: ChanceReporters,
    owner: Option<ChanceOwner>,
) -> Result<(), Problem> {
    // Spectators are refused before; the owner always may.
    let Credential::Seat(seat) = credential else {
        return Ok(());
    };
    // Nothing pending: the referee answers `no_chance_pending`.
    let Some(owner) = owner else {
        return Ok(());
    };
    let seats: Vec<Seat> = match (policy, owner) {
        (ChanceReporters::AnySeat, _) => return Ok(()),
        (ChanceReporters::Owner, _) => Vec::new(),
        (ChanceReporters::OwnerAndActingSeat, ChanceOwner::Seat(own)) => vec![own],
        (ChanceReporters::OwnerAndActingSeat, ChanceOwner::Table { dealer }) => {
            dealer.into_iter().collect()
        }
    };
    if seats.contains(&seat) {
        return Ok(());
    }
    let who = match seats.first() {
        Some(other) => format!("the owner or seat {other}"),
        None => "only the owner".to_owned(),
    };
    let mut problem = Problem::new(
        Code::NotYourChance,
        format!(
            "seat {seat} may not report this outcome: {who} may (chance_reporters `{}`)",
            policy.as_str()
        ),
    );
    problem.params = Some(serde_json::json!({
        "seat": seat,
        "chance_reporters": policy.as_str(),
        "reporting_seats": seats,
    }));
    Err(problem)
}
