//! Rows and queries of the lobby: invites to open seats, re-issued seat tokens, renamed seats,
//! abandoned matches and rematch links.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::columns::GameColumn;
use super::results::{record, Board, Happened};
use super::schema::{
    invite_codes, match_events, match_invites, match_rematch_links, match_seats, matches,
};
use super::StoreError;
use crate::vocabulary::MatchStatus;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = match_invites)]
pub struct InviteRow {
    pub match_id: Uuid,
    pub seat: i32,
    pub code_hash: Vec<u8>,
    pub created_at: DateTime<Utc>,
    pub redeemed_at: Option<DateTime<Utc>>,
}

/// Stores invites with their codes' entries in the code -> (match, seat) map. Call it inside the
/// transaction that writes the match or seat, so the two never disagree.
pub async fn insert_invites(
    conn: &mut AsyncPgConnection,
    invites: &[InviteRow],
) -> Result<(), StoreError> {
    if !invites.is_empty() {
        diesel::insert_into(match_invites::table)
            .values(invites)
            .execute(conn)
            .await?;
        let codes: Vec<_> = invites
            .iter()
            .map(|i| {
                (
                    invite_codes::code_hash.eq(&i.code_hash),
                    invite_codes::match_id.eq(i.match_id),
                    invite_codes::seat.eq(i.seat),
                )
            })
            .collect();
        diesel::insert_into(invite_codes::table)
            .values(codes)
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// The invite a code was issued for, if it is still that seat's invite. `code_hashes` are the
/// forms the code may be stored in (under the current key, a previous one, or unkeyed); at
/// most one is stored. Two lookups, each by its own key (the code's, then the match's), so that
/// each reads one shard of a sharded database.
pub async fn invite_by_code(
    conn: &mut AsyncPgConnection,
    code_hashes: &[Vec<u8>],
) -> Result<Option<InviteRow>, StoreError> {
    let Some((code_hash, match_id, seat)) = invite_codes::table
        .filter(invite_codes::code_hash.eq_any(code_hashes))
        .select((
            invite_codes::code_hash,
            invite_codes::match_id,
            invite_codes::seat,
        ))
        .first::<(Vec<u8>, Uuid, i32)>(conn)
        .await
        .optional()?
    else {
        return Ok(None);
    };
    // A replaced invite's code no longer matches its seat's invite.
    Ok(match_invites::table
        .find((match_id, seat))
        .filter(match_invites::code_hash.eq(code_hash))
        .select(InviteRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Marks the invite redeemed, if nobody redeemed it first. False when somebody did.
pub async fn claim_invite(
    conn: &mut AsyncPgConnection,
    invite: &InviteRow,
    now: DateTime<Utc>,
) -> Result<bool, StoreError> {
    let open = match_invites::table
        .find((invite.match_id, invite.seat))
        .filter(match_invites::code_hash.eq(&invite.code_hash))
        .filter(match_invites::redeemed_at.is_null());
    let claimed = diesel::update(open)
        .set(match_invites::redeemed_at.eq(now))
        .execute(conn)
        .await?;
    Ok(claimed > 0)
}

/// Replaces a seat's invite with a new one (or drops it, with `None`). The old code leaves the
/// code map too.
pub async fn replace_invite(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
    seat: i32,
    invite: Option<&InviteRow>,
) -> Result<(), StoreError> {
    let old: Option<Vec<u8>> = diesel::delete(match_invites::table.find((match_id, seat)))
        .returning(match_invites::code_hash)
        .get_result(conn)
        .await
        .optional()?;
    if let Some(old) = old {
        diesel::delete(invite_codes::table.find(old))
            .execute(conn)
            .await?;
    }
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

/// Replaces the owner token (its hash): the one it replaces stops working at once. Like a seat's,
/// it marks cached copies of the match stale.
pub async fn set_owner_token(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
    token_hash: &[u8],
) -> Result<(), StoreError> {
    diesel::update(matches::table.find(match_id))
        .set((
            matches::owner_token_hash.eq(token_hash),
            matches::access_version.eq(matches::access_version + 1),
        ))
        .execute(conn)
        .await?;
    Ok(())
}

/// The ids of the chain of rematches `id` belongs to, first to last: its last `most` at most.
pub async fn rematch_chain(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    most: i32,
) -> Result<Vec<Uuid>, StoreError> {
    use diesel::sql_types::{Integer, Uuid as SqlUuid};
    #[derive(QueryableByName)]
    struct Link {
        #[diesel(sql_type = SqlUuid)]
        id: Uuid,
    }
    // Back from `id` (no further than `most` could keep), then forward from `id` to the end (a
    // bound only against a runaway chain), keeping the last `most`.
    let rows: Vec<Link> = diesel::sql_query(
        "WITH RECURSIVE back (id, step) AS ( \
             SELECT $1::uuid, 0 \
             UNION ALL \
             SELECT l.rematch_of, b.step - 1 FROM back b \
             JOIN match_rematch_links l ON l.match_id = b.id \
             WHERE l.rematch_of IS NOT NULL AND b.step > 1 - $2 \
         ), ahead (id, step) AS ( \
             SELECT $1::uuid, 0 \
             UNION ALL \
             SELECT l.rematch, a.step + 1 FROM ahead a \
             JOIN match_rematch_links l ON l.match_id = a.id \
             WHERE l.rematch IS NOT NULL AND a.step < 100000 \
         ) \
         SELECT id FROM ( \
             SELECT id, step FROM back WHERE step < 0 \
             UNION ALL SELECT id, step FROM ahead \
             ORDER BY step DESC LIMIT $2 \
         ) AS chain ORDER BY step",
    )
    .bind::<SqlUuid, _>(id)
    .bind::<Integer, _>(most)
    .load(conn)
    .await?;
    Ok(rows.into_iter().map(|link| link.id).collect())
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

/// Abandons a match or sheet in progress, leaving its trace in the same transaction (who, when,
/// at which version, whether play had begun: [`record_abandon`]), and what it changes in the
/// players' records. False, with nothing written, when it is not in progress.
pub async fn abandon(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
    by: crate::vocabulary::AbandonedBy,
    now: DateTime<Utc>,
) -> Result<bool, StoreError> {
    use diesel_async::AsyncConnection;
    conn.transaction(async |conn| {
        let open = matches::table
            .filter(matches::id.eq(match_id))
            .filter(matches::status.eq(MatchStatus::InProgress));
        // Locks the row: a move being appended finishes first, so the trace sees its ply.
        let updated: Option<(GameColumn, Uuid)> = diesel::update(open)
            .set((
                matches::status.eq(MatchStatus::Abandoned),
                matches::updated_at.eq(now),
            ))
            .returning((matches::game, matches::household))
            .get_result(conn)
            .await
            .optional()?;
        let Some((game, household)) = updated else {
            return Ok(false);
        };
        record_abandon(conn, match_id, by, now).await?;
        let board = Board {
            household,
            game: game.kind(),
        };
        record(
            conn,
            Happened::Abandoned {
                id: match_id,
                board,
            },
        )
        .await?;
        Ok(true)
    })
    .await
}

/// Records that `rematch_id` is the rematch of `match_id`, on each side's own row. False, with
/// nothing written, when `match_id` already has a rematch.
pub async fn link_rematch(
    conn: &mut AsyncPgConnection,
    match_id: Uuid,
    rematch_id: Uuid,
) -> Result<bool, StoreError> {
    use diesel::sql_types::Uuid as SqlUuid;
    // The old match may already have a row, as the rematch of another.
    let linked = diesel::sql_query(
        "INSERT INTO match_rematch_links (match_id, rematch) VALUES ($1, $2) \
         ON CONFLICT (match_id) DO UPDATE SET rematch = EXCLUDED.rematch \
         WHERE match_rematch_links.rematch IS NULL",
    )
    .bind::<SqlUuid, _>(match_id)
    .bind::<SqlUuid, _>(rematch_id)
    .execute(conn)
    .await?;
    if linked == 0 {
        return Ok(false);
    }
    diesel::insert_into(match_rematch_links::table)
        .values((
            match_rematch_links::match_id.eq(rematch_id),
            match_rematch_links::rematch_of.eq(match_id),
        ))
        .execute(conn)
        .await?;
    Ok(true)
}

/// The match this one is a rematch of, and this one's rematch, if any.
pub async fn rematch_links(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> Result<(Option<Uuid>, Option<Uuid>), StoreError> {
    Ok(match_rematch_links::table
        .find(id)
        .select((
            match_rematch_links::rematch_of,
            match_rematch_links::rematch,
        ))
        .first(conn)
        .await
        .optional()?
        .unwrap_or((None, None)))
}

/// Leaves the trace of an abandon just written (call it in that transaction, after the update
/// that locked the row): who, when, at which version (a hosted match's log's last ply, a sheet's
/// version), and whether play had begun, that is, a seat had moved (a deal or any chance outcome
/// alone is not play) or a sheet had an entry. The writer of results counts it for the seats.
pub(super) async fn record_abandon(
    conn: &mut AsyncPgConnection,
    match_id: uuid::Uuid,
    by: crate::vocabulary::AbandonedBy,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    use diesel::sql_types::{Text, Timestamptz, Uuid as SqlUuid};
    diesel::sql_query(
        "INSERT INTO match_abandons (match_id, abandoned_by, abandoned_at, at_version, after_play) \
         SELECT m.id, $2, $3, \
                CASE WHEN m.kind = 'hosted' \
                     THEN greatest(m.version, coalesce((SELECT max(e.ply) FROM match_events e \
                                                        WHERE e.match_id = m.id), 0)) \
                     ELSE m.version END, \
                CASE WHEN m.kind = 'hosted' \
                     THEN EXISTS (SELECT 1 FROM match_events e \
                                  WHERE e.match_id = m.id AND e.seat IS NOT NULL) \
                     ELSE m.version > 0 END \
         FROM matches m WHERE m.id = $1",
    )
    .bind::<SqlUuid, _>(match_id)
    .bind::<Text, _>(by.as_str())
    .bind::<Timestamptz, _>(now)
    .execute(conn)
    .await?;
    Ok(())
}
