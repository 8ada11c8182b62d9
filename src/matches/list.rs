//! The match list: filters, keyset cursors and pages.

use uuid::Uuid;

use super::wire::{ListQuery, MatchPage, MatchSummary};
use crate::problem::Problem;
use crate::records::{check_player_filter, cursor_param, encode_cursor, page_limit, table_names};
use crate::store::matches as q;
use crate::store::Store;
use crate::vocabulary::Space;

#[tracing::instrument(skip_all, fields(game = ?query.game, kind = ?query.kind, status = ?query.status))]
pub async fn list(store: &Store, space: Space, query: ListQuery) -> Result<MatchPage, Problem> {
    let limit = page_limit(query.limit, 20, 100)?;
    let before = cursor_param(query.cursor.as_deref())?;
    for name in [&query.player, &query.winner].into_iter().flatten() {
        check_player_filter(name)?;
    }
    let filter = q::ListFilter {
        space,
        kind: query.kind,
        game: query.game,
        status: query.status,
        player: query.player.clone(),
        winner: query.winner.clone(),
        from: query.from,
        to: query.to,
        before,
    };
    // A history read: a replica serves it when one is configured and has caught up.
    let (mut rows, total, seats) = store
        .read(async |conn| {
            // One row more than asked tells whether another page exists.
            let rows = q::list(conn, &filter, limit + 1).await?;
            let total = q::count(conn, &filter).await?;
            let ids: Vec<Uuid> = rows.iter().take(limit as usize).map(|r| r.id).collect();
            let seats = q::seats_of(conn, &ids).await?;
            Ok((rows, total, seats))
        })
        .await?;
    let more = rows.len() as i64 > limit;
    rows.truncate(limit as usize);
    let next_cursor = more
        .then(|| rows.last().map(|r| encode_cursor(r.created_at, r.id)))
        .flatten();
    let items = rows
        .into_iter()
        .map(|r| {
            let (players, winners) = table_names(&seats, r.id);
            MatchSummary {
                id: r.id,
                kind: r.kind,
                game: r.game.kind(),
                status: r.status,
                version: r.version,
                players,
                winners,
                created_at: r.created_at,
                finished_at: r.finished_at,
            }
        })
        .collect();
    Ok(MatchPage {
        items,
        total,
        next_cursor,
    })
}
