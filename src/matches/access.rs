//! Who may see and do what: tokens to credentials, credentials to viewers and acting seats.

use uuid::Uuid;

use crate::games::{Seat, Viewer};
use crate::problem::Problem;
use crate::records::{note_game, MatchKind, MatchStatus};
use crate::store::matches::{self as q, MatchRow, SeatRow};
use crate::store::Store;
use crate::tokens;

/// What a presented token proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    Owner,
    Seat(Seat),
    Anonymous,
}

pub(super) fn unknown_match(id: Uuid) -> Problem {
    Problem::not_found(
        "unknown_match",
        format!("no hosted match has id {id} (score sheets are under /v1/sheets)"),
    )
}

/// Checks a presented token against the match's owner and seats. A token that matches nothing is
/// refused rather than downgraded to a spectator, so a typo never looks like "no moves allowed".
pub fn authenticate(
    row: &MatchRow,
    seats: &[SeatRow],
    token: Option<&str>,
) -> Result<Credential, Problem> {
    let Some(token) = token else {
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
        .ok_or_else(|| Problem::unauthorized("the token belongs to no seat of this match"))
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

/// Loads a match and checks the presented token.
pub(super) async fn load(
    store: &Store,
    id: Uuid,
    token: Option<&str>,
) -> Result<(crate::store::Conn, MatchRow, Vec<SeatRow>, Credential), Problem> {
    let mut conn = store.conn().await?;
    let row = q::find(&mut conn, id)
        .await?
        .filter(|r| r.kind == MatchKind::Hosted)
        .ok_or_else(|| unknown_match(id))?;
    note_game(row.game.kind());
    let seats = q::seats(&mut conn, id).await?;
    let credential = authenticate(&row, &seats, token)?;
    Ok((conn, row, seats, credential))
}

/// The seat a move is for: the seat token's own, or the one the owner names.
pub(super) fn acting_seat(
    credential: Credential,
    requested: Option<Seat>,
) -> Result<Seat, Problem> {
    match (credential, requested) {
        (Credential::Seat(own), None) => Ok(own),
        (Credential::Seat(own), Some(seat)) if seat == own => Ok(own),
        (Credential::Seat(own), Some(seat)) => Err(Problem::forbidden(
            "wrong_seat",
            format!("this token is for seat {own}, not seat {seat}"),
        )),
        (Credential::Owner, Some(seat)) => Ok(seat),
        (Credential::Owner, None) => Err(Problem::unprocessable(
            "seat_required",
            "with the owner token, name the seat to move for in `seat`",
        )),
        (Credential::Anonymous, _) => Err(Problem::unauthorized("a token is required")),
    }
}
