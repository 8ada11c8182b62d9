//! Rows and queries of the lobby: invites to open seats, re-issued seat tokens, renamed seats,
//! abandoned matches and rematch links.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::schema::{match_events, match_invites, match_rematches, match_seats, matches};
use super::StoreError;
use crate::records::MatchStatus;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = match_invites)]
pub struct InviteRow {
    pub match_id: Uuid,
    pub seat: i32,
    pub code_hash: Vec<u8>,
    pub created_at: DateTime<Utc>,
    pub redeemed_at: Option<DateTime<Utc>>,
}

pub async fn insert_invites(
    conn: &mut AsyncPgConnection,
    invites: &[InviteRow],
) -> Result<(), StoreError> {
    if !invites.is_empty() {
        diesel::insert_into(match_invites::table)
            .values(invites)
            .execute(conn)
            .await?;
    }
    Ok(())
}

pub async fn invite_by_code(
    conn: &mut AsyncPgConnection,
    code_hash: &[u8],
) -> Result<Option<InviteRow>, StoreError> {
    Ok(match_invites::table
        .filter(match_invites::code_hash.eq(code_hash))
        .select(InviteRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Marks the invite redeemed, if nobody redeemed it first. False when somebody did.
pub async fn claim_invite(
    conn: &mut AsyncPgConnection,
    code_hash: &[u8],
    now: DateTime<Utc>,
) -> Result<bool, StoreError> {
    let open = match_invites::table
        .filter(match_invites::code_hash.eq(code_hash))
        .filter(match_invites::redeemed_at.is_null());
    let claimed = diesel::update(open)
        .set(match_invites::redeemed_at.eq(now))
        .execute(conn)
        .await?;
    Ok(claimed > 0)
}

/// Replaces a seat's invite with a new one (or drops it, with `None`).
pub async fn replace_invite(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
    seat: i32,
    invite: Option<&InviteRow>,
) -> Result<(), StoreError> {
    diesel::delete(match_invites::table.find((match_id, seat)))
        .execute(conn)
        .await?;
    if let Some(invite) = invite {
        insert_invites(conn, std::slice::from_ref(invite)).await?;
    }
    Ok(())
}

/// The invites of a match, by seat.
pub async fn invites(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
) -> Result<Vec<InviteRow>, StoreError> {
    Ok(match_invites::table
        .filter(match_invites::match_id.eq(match_id))
        .order(match_invites::seat)
        .select(InviteRow::as_select())
        .load(conn)
        .await?)
}

/// Sets (or, with `None`, clears) the hash of a seat's token: the old token stops working with
/// this statement.
pub async fn set_seat_token(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
    seat: i32,
    token_hash: Option<&[u8]>,
) -> Result<(), StoreError> {
    bump_access_version(conn, match_id).await?;
    diesel::update(match_seats::table.find((match_id, seat)))
        .set(match_seats::token_hash.eq(token_hash))
        .execute(conn)
        .await?;
    Ok(())
}

/// Marks every cached copy of the match stale for moves (see `matches.access_version`). It runs
/// before the seat's own update so that, like a move, it locks the match row before a seat row.
async fn bump_access_version(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
) -> Result<(), StoreError> {
    diesel::update(matches::table.find(match_id))
        .set(matches::access_version.eq(matches::access_version + 1))
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn rename_seat(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
    seat: i32,
    name: &str,
    key: &str,
) -> Result<(), StoreError> {
    bump_access_version(conn, match_id).await?;
    diesel::update(match_seats::table.find((match_id, seat)))
        .set((
            match_seats::player_name.eq(name),
            match_seats::player_key.eq(key),
        ))
        .execute(conn)
        .await?;
    Ok(())
}

/// Whether any seat has moved yet (chance outcomes, such as the opening deal, do not count).
pub async fn any_seat_moved(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
) -> Result<bool, StoreError> {
    let moves = match_events::table
        .filter(match_events::match_id.eq(match_id))
        .filter(match_events::seat.is_not_null());
    Ok(diesel::select(diesel::dsl::exists(moves))
        .get_result(conn)
        .await?)
}

/// Abandons a match or sheet still in progress. False when it is not in progress.
pub async fn abandon(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
    now: DateTime<Utc>,
) -> Result<bool, StoreError> {
    let open = matches::table
        .filter(matches::id.eq(match_id))
        .filter(matches::status.eq(MatchStatus::InProgress));
    let updated = diesel::update(open)
        .set((
            matches::status.eq(MatchStatus::Abandoned),
            matches::updated_at.eq(now),
        ))
        .execute(conn)
        .await?;
    Ok(updated > 0)
}

pub async fn link_rematch(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
    rematch_id: Uuid,
) -> Result<(), StoreError> {
    diesel::insert_into(match_rematches::table)
        .values((
            match_rematches::match_id.eq(match_id),
            match_rematches::rematch_id.eq(rematch_id),
        ))
        .execute(conn)
        .await?;
    Ok(())
}

/// The match this one is a rematch of, and this one's rematch, if any.
pub async fn rematch_links(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> Result<(Option<Uuid>, Option<Uuid>), StoreError> {
    let links: Vec<(Uuid, Uuid)> = match_rematches::table
        .filter(
            match_rematches::match_id
                .eq(id)
                .or(match_rematches::rematch_id.eq(id)),
        )
        .select((match_rematches::match_id, match_rematches::rematch_id))
        .load(conn)
        .await?;
    let rematch_of = links.iter().find(|l| l.1 == id).map(|l| l.0);
    let rematch = links.iter().find(|l| l.0 == id).map(|l| l.1);
    Ok((rematch_of, rematch))
}
