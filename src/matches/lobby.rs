//! The lobby: open seats claimed by invite code, and what the owner may do around play (re-issue
//! a seat's token or invite, rename a seat before play, abandon a match or sheet, start a
//! rematch).

use chrono::{DateTime, Utc};
use diesel_async::AsyncConnection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::access::{current, load, unknown_match, Credential, Who};
use super::create::{detail, invite_link, new_invite, prepare};
use super::wire::{CreateMatch, CreatedMatch, MatchDetail, SeatInvite, SeatToken};
use crate::games::{GameKind, Seat};
use crate::problem::{Code, Problem};
use crate::records::{check_name, check_names, check_not_abandoned, note_game, seat_of, NewSeat};
use crate::store::created;
use crate::store::lobby as q;
use crate::store::matches::{self as matches_q, MatchRow, SeatRow};
use crate::store::{Conn, Store};
use crate::tokens;
use crate::vocabulary::{MatchKind, MatchStatus, Space};

/// An invite as its link shows it, before or after it is redeemed (never the token).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "match_id": "6f1c1f8e-1111-4c5e-9d59-0c8d3b1f2a77",
    "game": "lucky_jack",
    "seat": 1,
    "name": "Bo",
    "redeemed": false,
    "redeem": "/v1/invites/7KQ2M9XW4D/redeem"
}))]
pub struct InviteInfo {
    pub match_id: Uuid,
    pub game: GameKind,
    pub seat: Seat,
    pub name: String,
    /// Whether a phone already took the seat with this code.
    pub redeemed: bool,
    /// Where to `POST` to take the seat.
    pub redeem: String,
}

/// A redeemed invite: the seat's token, for this phone only.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "match_id": "6f1c1f8e-1111-4c5e-9d59-0c8d3b1f2a77",
    "game": "lucky_jack",
    "seat": 1,
    "name": "Bo",
    "token": "seat_Qm9yZWQgYnV0IHJhbmRvbSBieXRlcyBvZiBhIHRva2Vu"
}))]
pub struct RedeemedInvite {
    pub match_id: Uuid,
    pub game: GameKind,
    pub seat: Seat,
    pub name: String,
    /// Send as `Authorization: Bearer <token>` to move for this seat. Shown only once.
    pub token: String,
}

/// A seat's new name.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Cleo"}))]
pub struct RenameSeat {
    /// Checked like a new seat's name: no two seats may share a player.
    pub name: String,
}

/// A rematch's one choice, in the query; everything else (game, options, players, randomness)
/// is the match's.
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct Rematch {
    /// Leave the seats open with one invite each, instead of handing out seat tokens.
    #[serde(default)]
    #[param(example = true)]
    pub invites: bool,
}

/// A match the caller owns, and a connection to go on with.
async fn load_owned(
    store: &Store,
    id: Uuid,
    token: &str,
) -> Result<(Conn, MatchRow, Vec<SeatRow>), Problem> {
    let (conn, row, seats, credential) = load(store, id, Who::token(Some(token))).await?;
    if credential != Credential::Owner {
        return Err(owner_only());
    }
    Ok((conn, row, seats))
}

/// A seat of a match in progress, for its owner to give out again: a connection and the seat's
/// player name.
async fn seat_to_give(
    store: &Store,
    id: Uuid,
    seat: Seat,
    owner_token: &str,
) -> Result<(Conn, String), Problem> {
    let (conn, row, seats) = load_owned(store, id, owner_token).await?;
    check_in_progress(&row)?;
    let name = seat_of(&seats, seat, "match")?.player_name.clone();
    Ok((conn, name))
}

/// The match's row, locked until the transaction ends, if the match is in progress.
async fn locked_in_progress(
    conn: &mut diesel_async::AsyncPgConnection,
    id: Uuid,
) -> Result<MatchRow, Problem> {
    let row = matches_q::find_for_update(conn, id)
        .await?
        .ok_or_else(|| unknown_match(id))?;
    check_in_progress(&row)?;
    Ok(row)
}

fn owner_only() -> Problem {
    Problem::new(Code::OwnerOnly, "only the owner token may do this")
}

/// Over or abandoned matches keep their seats as they are.
fn check_in_progress(row: &MatchRow) -> Result<(), Problem> {
    check_not_abandoned(row)?;
    if row.status == MatchStatus::Finished {
        return Err(Problem::new(Code::MatchFinished, "the match is over"));
    }
    Ok(())
}

fn unknown_invite() -> Problem {
    Problem::new(
        Code::UnknownInvite,
        "no open seat has this invite code (check the code with the owner)",
    )
}

/// Why an invite lookup failed: the code was wrong (malformed, or it names no invite), which
/// counts against the caller's budget for guessing, or anything else.
pub enum InviteError {
    WrongCode(Problem),
    Other(Problem),
}

impl From<InviteError> for Problem {
    fn from(error: InviteError) -> Self {
        match error {
            InviteError::WrongCode(problem) | InviteError::Other(problem) => problem,
        }
    }
}

impl From<Problem> for InviteError {
    fn from(problem: Problem) -> Self {
        InviteError::Other(problem)
    }
}

impl From<crate::store::StoreError> for InviteError {
    fn from(error: crate::store::StoreError) -> Self {
        InviteError::Other(error.into())
    }
}

fn invalid_invite_code() -> Problem {
    Problem::new(
        Code::InvalidInviteCode,
        format!(
            "an invite code is {} characters of 0-9 and A-Z without I, L, O and U",
            tokens::INVITE_CODE_LEN
        ),
    )
}

/// Refuses a code that cannot be one, before anything is looked up (or counted).
pub fn check_invite_code(code: &str) -> Result<(), Problem> {
    tokens::canonical_invite_code(code)
        .map(|_| ())
        .ok_or_else(invalid_invite_code)
}

/// Every form a typed code may be stored in (under the current key, a previous one, unkeyed).
fn stored_forms(store: &Store, code: &str) -> Result<Vec<Vec<u8>>, InviteError> {
    store
        .invite_keys()
        .candidates(code)
        .ok_or_else(|| InviteError::WrongCode(invalid_invite_code()))
}

/// The invite one of a code's stored forms names, or why there is none.
async fn find_invite(
    conn: &mut diesel_async::AsyncPgConnection,
    hashes: &[Vec<u8>],
) -> Result<q::InviteRow, InviteError> {
    q::invite_by_code(conn, hashes)
        .await?
        .ok_or_else(|| InviteError::WrongCode(unknown_invite()))
}

/// What an invite's link shows: the match, the seat and whether it is taken.
pub async fn invite(store: &Store, code: &str) -> Result<InviteInfo, InviteError> {
    let hashes = stored_forms(store, code)?;
    let mut conn = store.conn().await?;
    let invite = find_invite(&mut conn, &hashes).await?;
    let (row, seats, _) = matches_q::find_current(&mut conn, invite.match_id)
        .await?
        .ok_or_else(|| unknown_match(invite.match_id))?;
    note_game(row.game.kind());
    let seat = seat_of(&seats, invite.seat as Seat, "match")?;
    Ok(InviteInfo {
        match_id: row.id,
        game: row.game.kind(),
        seat: invite.seat as Seat,
        name: seat.player_name.clone(),
        redeemed: invite.redeemed_at.is_some(),
        redeem: format!(
            "{}/redeem",
            invite_link(&tokens::canonical_invite_code(code).unwrap_or_default())
        ),
    })
}

/// Takes an open seat: the invite is spent and the seat gets a new token, all at once.
pub async fn redeem_invite(store: &Store, code: &str) -> Result<RedeemedInvite, InviteError> {
    let hashes = stored_forms(store, code)?;
    let mut conn = store.conn().await?;
    let invite = find_invite(&mut conn, &hashes).await?;
    let id = invite.match_id;
    let (token, token_hash) = tokens::issue("seat").map_err(Problem::internal)?;
    let now = Utc::now();
    let (row, name) = conn
        .transaction(async |conn| {
            // Locked like a move: the match cannot end or be abandoned meanwhile.
            let row = locked_in_progress(conn, id).await?;
            if !q::claim_invite(conn, &invite, now).await? {
                return Err(Problem::new(
                    Code::InviteRedeemed,
                    "this invite was already redeemed; ask the owner for a new one",
                ));
            }
            q::set_seat_token(conn, id, invite.seat, Some(&token_hash)).await?;
            let seats = matches_q::seats(conn, id).await?;
            let name = seat_of(&seats, invite.seat as Seat, "match")?
                .player_name
                .clone();
            Ok::<_, Problem>((row, name))
        })
        .await?;
    note_game(row.game.kind());
    Ok(RedeemedInvite {
        match_id: id,
        game: row.game.kind(),
        seat: invite.seat as Seat,
        name,
        token,
    })
}

/// A new token for a seat: its old token, and any invite not yet redeemed, stop working at once.
pub async fn reissue_token(
    store: &Store,
    id: Uuid,
    seat: Seat,
    owner_token: &str,
) -> Result<SeatToken, Problem> {
    let (mut conn, name) = seat_to_give(store, id, seat, owner_token).await?;
    let (token, token_hash) = tokens::issue("seat").map_err(Problem::internal)?;
    conn.transaction(async |conn| {
        q::set_seat_token(conn, id, seat as i32, Some(&token_hash)).await?;
        q::replace_invite(conn, id, seat as i32, None).await
    })
    .await?;
    Ok(SeatToken { seat, name, token })
}

/// A new invite for a seat: its old token and old invite stop working at once, and the seat is
/// open until the new code is redeemed.
pub async fn reissue_invite(
    store: &Store,
    id: Uuid,
    seat: Seat,
    owner_token: &str,
) -> Result<SeatInvite, Problem> {
    let (mut conn, name) = seat_to_give(store, id, seat, owner_token).await?;
    let (invite, invite_row) = new_invite(store.invite_keys(), id, seat, &name, Utc::now())?;
    conn.transaction(async |conn| {
        q::set_seat_token(conn, id, seat as i32, None).await?;
        q::replace_invite(conn, id, seat as i32, Some(&invite_row)).await
    })
    .await?;
    Ok(invite)
}

/// Renames a seat while no seat has moved: after that the log and the results name the player.
pub async fn rename_seat(
    store: &Store,
    id: Uuid,
    seat: Seat,
    owner_token: &str,
    request: RenameSeat,
) -> Result<MatchDetail, Problem> {
    let (mut conn, _, _) = load_owned(store, id, owner_token).await?;
    let name = check_name(&request.name)?;
    let (row, seats) = conn
        .transaction(async |conn| {
            // Locked: a first move waits for the rename, or the rename sees it.
            let row = locked_in_progress(conn, id).await?;
            let seats = matches_q::seats(conn, id).await?;
            seat_of(&seats, seat, "match")?;
            if q::any_seat_moved(conn, id).await? {
                return Err(Problem::new(
                    Code::PlayStarted,
                    "seats are renamed only before the first move",
                ));
            }
            let names = seats.iter().map(|s| {
                if s.seat as Seat == seat {
                    name.as_str()
                } else {
                    s.player_name.as_str()
                }
            });
            check_names(names)?;
            q::rename_seat(
                conn,
                id,
                seat as i32,
                &name,
                &Space::of(row.household).player_key(&name),
            )
            .await?;
            let seats = matches_q::seats(conn, id).await?;
            Ok::<_, Problem>((row, seats))
        })
        .await?;
    detail(&row, &seats, Credential::Owner)
}

/// Whether the abandon took, or the record was abandoned already (asking twice is no error).
async fn abandon_row(conn: &mut Conn, row: &MatchRow, now: DateTime<Utc>) -> Result<(), Problem> {
    if row.status == MatchStatus::Abandoned {
        return Ok(());
    }
    let by = crate::vocabulary::AbandonedBy::Owner;
    if row.status == MatchStatus::Finished || !q::abandon(conn, row.id, by, now).await? {
        return Err(Problem::new(
            Code::MatchFinished,
            "a finished match keeps its result; only one in progress can be abandoned",
        ));
    }
    Ok(())
}

/// Abandons a match in progress: it stays in history and listings and takes no more moves. If
/// play had begun (a seat had moved), it stays in each seated player's record as `abandoned`
/// (not played, not lost); if not, it counts in no statistics (docs/security.md).
pub async fn abandon_match(
    store: &Store,
    id: Uuid,
    owner_token: &str,
) -> Result<MatchDetail, Problem> {
    let (mut conn, row, _) = load_owned(store, id, owner_token).await?;
    abandon_row(&mut conn, &row, Utc::now()).await?;
    let (row, seats) = current(&mut conn, id).await?;
    let mut shown = detail(&row, &seats, Credential::Owner)?;
    shown.abandoned = crate::store::stat_reads::abandon_of(&mut conn, id).await?;
    Ok(shown)
}

/// Abandons a score sheet in progress, as [`abandon_match`] does a match.
pub async fn abandon_sheet(
    store: &Store,
    id: Uuid,
    owner_token: &str,
) -> Result<crate::sheets::SheetDetail, Problem> {
    let mut conn = store.conn().await?;
    let row = matches_q::find(&mut conn, id)
        .await?
        .filter(|r| r.kind == MatchKind::Sheet)
        .ok_or_else(|| Problem::new(Code::UnknownSheet, format!("no score sheet has id {id}")))?;
    note_game(row.game.kind());
    if !tokens::constant_time_eq(&tokens::hash(owner_token), &row.owner_token_hash) {
        return Err(Problem::new(
            Code::InvalidToken,
            "only the sheet's owner token may abandon it",
        ));
    }
    abandon_row(&mut conn, &row, Utc::now()).await?;
    drop(conn);
    crate::sheets::read(store, id, Space::of(row.household)).await
}

/// A new match of the same game, options, randomness and players (in the same seats), with
/// fresh tokens or invites, linked to this one. Only a finished or abandoned match has one, and
/// only one.
pub async fn rematch(
    store: &Store,
    id: Uuid,
    owner_token: &str,
    request: Rematch,
) -> Result<CreatedMatch, Problem> {
    let (mut conn, row, seats) = load_owned(store, id, owner_token).await?;
    if row.status == MatchStatus::InProgress {
        return Err(Problem::new(
            Code::MatchNotFinished,
            "a rematch follows a finished or abandoned match; abandon this one first",
        ));
    }
    let new = prepare(
        CreateMatch {
            game: row.game.kind(),
            seats: seats
                .iter()
                .map(|s| NewSeat {
                    name: s.player_name.clone(),
                })
                .collect(),
            options: Some(row.options.clone()),
            randomness: row.randomness,
            chance_reporters: row.chance_reporters,
            invites: request.invites,
        },
        store.invite_keys(),
        Space::of(row.household),
    )?;
    let rematch_id = new.row.id;
    conn.transaction(async |conn| {
        // The old match's row lock makes two rematch requests at once take turns.
        matches_q::find_for_update(conn, id).await?;
        if let (_, Some(existing)) = q::rematch_links(conn, id).await? {
            let mut problem = Problem::new(
                Code::RematchExists,
                format!("this match already has its rematch, {existing}"),
            );
            problem.params = Some(serde_json::json!({"rematch": existing}));
            return Err(problem);
        }
        created::insert_parts(conn, new.parts()).await?;
        // Checked above under the row lock; the link's own guard only backs that up.
        if !q::link_rematch(conn, id, rematch_id).await? {
            return Err(Problem::internal(format!(
                "match {id} gained a rematch while locked"
            )));
        }
        Ok::<_, Problem>(())
    })
    .await?;
    let mut created = new.created;
    created.detail.rematch_of = Some(id);
    Ok(created)
}
