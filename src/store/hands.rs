//! Hands entered by their own seats for the deal a table-randomness match waits for.

use diesel::prelude::*;
use diesel::upsert::excluded;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::schema::match_hands;
use super::StoreError;

/// A seat's hand as entered: the match's version then, and the cards.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = match_hands)]
pub struct EnteredHand {
    pub match_id: Uuid,
    pub seat: i32,
    pub version: i64,
    pub cards: Value,
}

/// Keeps a seat's hand, replacing what it entered before.
pub async fn enter(conn: &mut AsyncPgConnection, hand: &EnteredHand) -> Result<(), StoreError> {
    diesel::insert_into(match_hands::table)
        .values(hand)
        .on_conflict((match_hands::match_id, match_hands::seat))
        .do_update()
        .set((
            match_hands::version.eq(excluded(match_hands::version)),
            match_hands::cards.eq(excluded(match_hands::cards)),
        ))
        .execute(conn)
        .await?;
    Ok(())
}

/// The hands entered at a match, by seat (each with the version it is for).
pub async fn entered(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> Result<Vec<EnteredHand>, StoreError> {
    Ok(match_hands::table
        .filter(match_hands::match_id.eq(id))
        .order(match_hands::seat)
        .select(EnteredHand::as_select())
        .load(conn)
        .await?)
}
