//! What a match's live feed reads: the events after the last one it applied, with the match row
//! and seats as they stand, in one round trip.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::matches::{EventRow, MatchRow, SeatRow};
use super::schema::{match_events, match_seats, matches};
use super::StoreError;

/// What changed in match `id` since ply `after`: its row, its seats and its events after that
/// ply. The three queries are sent together (pipelined on the one connection) and run in that
/// order, so the events are at least as new as the row. `None` when there is no such match.
pub async fn changes(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    after: i64,
) -> Result<Option<(MatchRow, Vec<SeatRow>, Vec<EventRow>)>, StoreError> {
    // diesel-async pipelines queries whose futures run at once on shared references.
    let (mut for_match, mut for_seats, mut for_events) = (&*conn, &*conn, &*conn);
    let row = matches::table
        .find(id)
        .select(MatchRow::as_select())
        .first(&mut for_match);
    let seats = match_seats::table
        .filter(match_seats::match_id.eq(id))
        .order(match_seats::seat)
        .select(SeatRow::as_select())
        .load(&mut for_seats);
    let events = match_events::table
        .filter(match_events::match_id.eq(id))
        .filter(match_events::ply.gt(after))
        .order(match_events::ply)
        .select(EventRow::as_select())
        .load(&mut for_events);
    let (row, seats, events) = tokio::join!(row, seats, events);
    let Some(row) = row.optional()? else {
        return Ok(None);
    };
    Ok(Some((row, seats?, events?)))
}
