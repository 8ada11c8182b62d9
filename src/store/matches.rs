//! Rows and queries for matches, their seats and their event logs.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use super::columns::GameColumn;
use super::schema::{idempotent_creates, match_events, match_seats, matches};
use super::StoreError;
use crate::games::GameKind;
use crate::vocabulary::{ChanceReporters, MatchKind, MatchStatus, RandomnessMode, Space};

// Sheet entries were first kept here.

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = matches)]
pub struct MatchRow {
    pub id: Uuid,
    pub game: GameColumn,
    pub rules_version: String,
    pub options: Value,
    pub randomness: RandomnessMode,
    pub seed: Option<String>,
    pub seed_sha256: Option<String>,
    pub owner_token_hash: Vec<u8>,
    pub status: MatchStatus,
    /// Hosted: the ply the snapshot in `state` stands at; the log may run ahead of it, and
    /// [`find_current`] reads the events after it. A sheet's version.
    pub version: i64,
    /// Hosted: the state after `version` plies, written every few plies and when the match
    /// ends. A sheet's rounds and standings.
    pub state: Value,
    pub result: Option<Value>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// Hosted (the service referees every move) or a sheet (a physical game's score sheet).
    pub kind: MatchKind,
    /// Which end of the totals won, once finished: statistics read it here rather than from a
    /// path inside `result`.
    pub lowest_wins: Option<bool>,
    /// Who may report chance at a table-randomness match.
    pub chance_reporters: ChanceReporters,
    /// Bumped by every change to a seat's token or player: a cached copy of the match is good
    /// for a move only while this is unchanged.
    pub access_version: i64,
    /// The household that owns it, or nil for the public space ([`crate::vocabulary::Space`]).
    pub household: Uuid,
}

/// What a history list shows of a match (no state, no secrets).
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = matches)]
pub struct MatchSummaryRow {
    pub id: Uuid,
    pub kind: MatchKind,
    pub game: GameColumn,
    pub status: MatchStatus,
    /// The log's last ply (a hosted match's log may run ahead of its snapshot's version).
    #[diesel(select_expression = diesel::dsl::sql::<diesel::sql_types::BigInt>(CURRENT_VERSION))]
    #[diesel(select_expression_type = diesel::expression::SqlLiteral<diesel::sql_types::BigInt>)]
    pub version: i64,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// A match's current version in SQL: its row's, or its log's last ply if that is further on
/// (one probe of the log's primary key).
const CURRENT_VERSION: &str = "greatest(matches.version, \
     (SELECT max(e.ply) FROM match_events AS e WHERE e.match_id = matches.id))";

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = match_seats)]
pub struct SeatRow {
    pub match_id: Uuid,
    pub seat: i32,
    pub player_name: String,
    /// The player's identity, [`crate::vocabulary::name_key`] of the name.
    pub player_key: String,
    /// Hosted matches only: sheets are written by their owner alone.
    pub token_hash: Option<Vec<u8>>,
    pub final_score: Option<i64>,
    pub final_rank: Option<i32>,
    pub winner: Option<bool>,
    /// The game's brag figures for this seat, once the match is over.
    pub highlights: Option<Value>,
    /// No player sits here (BG Stats' anonymous player, imported): the seat is in the standings
    /// but nobody's result, and its key is the space's empty key, which no name has.
    pub anonymous: bool,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = match_events)]
pub struct EventRow {
    pub match_id: Uuid,
    pub ply: i64,
    pub seat: Option<i32>,
    pub payload: Value,
    pub idempotency_key: Option<String>,
    pub request_hash: Option<Vec<u8>>,
    pub response: Option<Value>,
    pub created_at: DateTime<Utc>,
    /// A mending: the ply it takes back (with a seat) or corrects (a chance outcome).
    pub revises: Option<i64>,
    /// The seat that reported this chance outcome (none: the owner, or the server's draw).
    pub reported_by: Option<i32>,
    /// A mending: the state it returns the table to.
    pub restores: Option<Value>,
}

/// What a finished match records per seat.
pub struct SeatResult {
    pub seat: i32,
    pub score: i64,
    pub rank: i32,
    pub winner: bool,
    pub highlights: Value,
}

impl SeatResult {
    pub fn of(
        standings: &crate::games::Standings,
        highlights: &[crate::games::Highlights],
    ) -> Vec<Self> {
        (0..standings.totals.len())
            .map(|s| SeatResult {
                seat: s as i32,
                score: standings.totals[s],
                rank: standings.ranks[s] as i32,
                winner: standings.winners.contains(&s),
                highlights: serde_json::to_value(highlights.get(s).cloned().unwrap_or_default())
                    .unwrap_or_default(),
            })
            .collect()
    }
}

/// Stores a new match (or sheet) with its seats and first events, all or nothing: a database
/// lost midway must not leave a match without its seats or its deal.
pub async fn insert(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    seats: &[SeatRow],
    events: &[EventRow],
) -> Result<(), StoreError> {
    use diesel_async::AsyncConnection;
    conn.transaction(async |conn| insert_parts(conn, row, seats, events).await)
        .await
}

async fn insert_parts(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    seats: &[SeatRow],
    events: &[EventRow],
) -> Result<(), StoreError> {
    diesel::insert_into(matches::table)
        .values(row)
        .execute(conn)
        .await?;
    diesel::insert_into(match_seats::table)
        .values(seats)
        .execute(conn)
        .await?;
    append_events(conn, events).await
}

/// A create sent with an `Idempotency-Key`: its first answer, sealed.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = idempotent_creates)]
pub struct CreateKeyRow {
    pub key_hash: Vec<u8>,
    pub request_hash: Vec<u8>,
    pub match_id: Uuid,
    pub sealed_response: Vec<u8>,
    pub created_at: DateTime<Utc>,
}

/// How long a create's `Idempotency-Key` is remembered.
pub const CREATE_KEY_RETENTION_HOURS: i64 = 24;

/// Takes the transaction-scoped lock of one create key, so two creates sent at once with the same
/// key run one after the other (the second then finds the first's answer); forgets keys past
/// their retention; and returns the key's earlier create, if any.
pub async fn claim_create_key(
    conn: &mut AsyncPgConnection,
    key_hash: &[u8],
    now: DateTime<Utc>,
) -> Result<Option<CreateKeyRow>, StoreError> {
    use diesel::sql_types::{BigInt, Bytea};
    diesel::sql_query(
        "SELECT pg_advisory_xact_lock(('x' || encode(substr($1, 1, 8), 'hex'))::bit(64)::bigint)",
    )
    .bind::<Bytea, _>(key_hash)
    .execute(conn)
    .await?;
    diesel::sql_query(
        "DELETE FROM idempotent_creates WHERE created_at < $1 - make_interval(hours => $2::int)",
    )
    .bind::<diesel::sql_types::Timestamptz, _>(now)
    .bind::<BigInt, _>(CREATE_KEY_RETENTION_HOURS)
    .execute(conn)
    .await?;
    Ok(idempotent_creates::table
        .find(key_hash)
        .select(CreateKeyRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

pub async fn remember_create_key(
    conn: &mut AsyncPgConnection,
    row: &CreateKeyRow,
) -> Result<(), StoreError> {
    diesel::insert_into(idempotent_creates::table)
        .values(row)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn find(conn: &mut AsyncPgConnection, id: Uuid) -> Result<Option<MatchRow>, StoreError> {
    Ok(matches::table
        .find(id)
        .select(MatchRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Reads and locks the match row until the transaction ends: moves on one match are serialised.
pub async fn find_for_update(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> Result<Option<MatchRow>, StoreError> {
    Ok(matches::table
        .find(id)
        .select(MatchRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?)
}

pub async fn seats(conn: &mut AsyncPgConnection, id: Uuid) -> Result<Vec<SeatRow>, StoreError> {
    Ok(match_seats::table
        .filter(match_seats::match_id.eq(id))
        .order(match_seats::seat)
        .select(SeatRow::as_select())
        .load(conn)
        .await?)
}

/// Which of a match's events to read with it.
#[derive(Clone, Copy, Debug)]
pub enum EventsAfter {
    /// The events its snapshot does not hold yet: with the snapshot, the match as it stands.
    Snapshot,
    /// The events after this ply (what a reader that is there already has not seen).
    Ply(i64),
}

/// The match, its seats and its events after `after`, the three queries sent together
/// (pipelined on the one connection): one round trip. `None` when there is no such match.
///
/// Each statement sees the database as of its own start, and they run in order. With
/// [`EventsAfter::Snapshot`], the events are read from the snapshot's own ply on, as the events'
/// statement sees it: when a snapshot was written after the row was read, the first event read
/// is past the row's version + 1, and the gap is read again here (reading only the events after
/// that newer snapshot, an empty answer could not tell a gap from nothing new).
pub async fn find_with_events(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    after: EventsAfter,
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
        .order(match_events::ply)
        .select(EventRow::as_select())
        .into_boxed();
    let events = match after {
        EventsAfter::Snapshot => events.filter(
            match_events::ply.ge(matches::table
                .find(id)
                .select(matches::version)
                .single_value()
                .assume_not_null()),
        ),
        EventsAfter::Ply(ply) => events.filter(match_events::ply.gt(ply)),
    };
    let events = events.load(&mut for_events);
    let (row, seats, events) = tokio::join!(row, seats, events);
    let Some(row) = row.optional()? else {
        return Ok(None);
    };
    let mut events = events?;
    if let EventsAfter::Snapshot = after {
        let gap = events
            .as_slice()
            .first()
            .is_some_and(|event| event.ply > row.version + 1);
        events.retain(|event| event.ply > row.version);
        if gap {
            events = events_after(conn, id, row.version).await?;
        }
    }
    Ok(Some((row, seats?, events)))
}

/// A hosted match as it stands: its row (with the snapshot), its seats, and the events after
/// the snapshot, in one round trip.
pub async fn find_current(
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> Result<Option<(MatchRow, Vec<SeatRow>, Vec<EventRow>)>, StoreError> {
    find_with_events(conn, id, EventsAfter::Snapshot).await
}

/// The events after `ply`, in order.
pub async fn events_after(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    ply: i64,
) -> Result<Vec<EventRow>, StoreError> {
    Ok(match_events::table
        .filter(match_events::match_id.eq(id))
        .filter(match_events::ply.gt(ply))
        .order(match_events::ply)
        .select(EventRow::as_select())
        .load(conn)
        .await?)
}

pub async fn seats_of(
    conn: &mut AsyncPgConnection,
    ids: &[Uuid],
) -> Result<Vec<SeatRow>, StoreError> {
    Ok(match_seats::table
        .filter(match_seats::match_id.eq_any(ids))
        .order((match_seats::match_id, match_seats::seat))
        .select(SeatRow::as_select())
        .load(conn)
        .await?)
}

pub async fn events(conn: &mut AsyncPgConnection, id: Uuid) -> Result<Vec<EventRow>, StoreError> {
    Ok(match_events::table
        .filter(match_events::match_id.eq(id))
        .order(match_events::ply)
        .select(EventRow::as_select())
        .load(conn)
        .await?)
}

pub async fn event_by_idempotency_key(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    key: &str,
) -> Result<Option<EventRow>, StoreError> {
    Ok(match_events::table
        .filter(match_events::match_id.eq(id))
        .filter(match_events::idempotency_key.eq(key))
        .select(EventRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

pub async fn append_events(
    conn: &mut AsyncPgConnection,
    events: &[EventRow],
) -> Result<(), StoreError> {
    if !events.is_empty() {
        diesel::insert_into(match_events::table)
            .values(events)
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// Filters of the match list; every field is optional.
#[derive(Debug, Default, Clone)]
pub struct ListFilter {
    /// The space listed: the public one, or a household's.
    pub space: Space,
    pub kind: Option<MatchKind>,
    pub game: Option<GameKind>,
    pub status: Option<MatchStatus>,
    /// Compared as a player's identity ([`name_key`]) with each seat's.
    pub player: Option<String>,
    /// Only matches a seat of this player ([`name_key`]) won or shared.
    pub winner: Option<String>,
    /// Created at or after.
    pub from: Option<DateTime<Utc>>,
    /// Created before.
    pub to: Option<DateTime<Utc>>,
    /// Keyset cursor: only matches strictly older than this (created_at, id).
    pub before: Option<(DateTime<Utc>, Uuid)>,
}

/// The filter's conditions (all but the cursor) on a boxed query of matches.
fn filtered<'a, ST: 'a>(
    mut query: matches::BoxedQuery<'a, diesel::pg::Pg, ST>,
    filter: &ListFilter,
) -> matches::BoxedQuery<'a, diesel::pg::Pg, ST> {
    query = query.filter(matches::household.eq(filter.space.id()));
    if let Some(kind) = filter.kind {
        query = query.filter(matches::kind.eq(kind));
    }
    if let Some(game) = filter.game {
        query = query.filter(matches::game.eq(GameColumn(game)));
    }
    if let Some(status) = filter.status {
        query = query.filter(matches::status.eq(status));
    }
    if let Some(player) = &filter.player {
        let with_player = match_seats::table
            .filter(match_seats::player_key.eq(filter.space.player_key(player)))
            .select(match_seats::match_id);
        query = query.filter(matches::id.eq_any(with_player));
    }
    if let Some(winner) = &filter.winner {
        let won = match_seats::table
            .filter(match_seats::player_key.eq(filter.space.player_key(winner)))
            .filter(match_seats::winner.eq(true))
            .select(match_seats::match_id);
        query = query.filter(matches::id.eq_any(won));
    }
    if let Some(from) = filter.from {
        query = query.filter(matches::created_at.ge(from));
    }
    if let Some(to) = filter.to {
        query = query.filter(matches::created_at.lt(to));
    }
    query
}

/// Newest first, `limit` rows at most, strictly after the cursor.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &ListFilter,
    limit: i64,
) -> Result<Vec<MatchSummaryRow>, StoreError> {
    let mut query = filtered(
        matches::table
            .select(MatchSummaryRow::as_select())
            .order((matches::created_at.desc(), matches::id.desc()))
            .limit(limit)
            .into_boxed(),
        filter,
    );
    if let Some((created_at, id)) = filter.before {
        query = query.filter(
            matches::created_at
                .lt(created_at)
                .or(matches::created_at.eq(created_at).and(matches::id.lt(id))),
        );
    }
    Ok(query.load(conn).await?)
}

/// How many matches the filter selects in all (the cursor aside).
pub async fn count(conn: &mut AsyncPgConnection, filter: &ListFilter) -> Result<i64, StoreError> {
    let query = filtered(
        matches::table
            .select(diesel::dsl::count_star())
            .into_boxed(),
        filter,
    );
    Ok(query.get_result(conn).await?)
}
