//! The evening around a score sheet: playing it again with the same players (a new sheet linked
//! to it, as a hosted match links its rematch), handing the sheet to another phone (a new owner
//! token), and the evening so far: the chain of sheets played again, with who won each.

use chrono::{DateTime, Utc};
use diesel_async::AsyncConnection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{owned_sheet, prepare, read_on, unknown_sheet, CreateSheet, CreatedSheet};
use crate::games::{GameKind, Seat};
use crate::problem::{Code, Problem};
use crate::records::{check_visible, NewSeat};
use crate::store::lobby as links;
use crate::store::matches as q;
use crate::store::{created, Store};
use crate::tokens;
use crate::vocabulary::{name_key, MatchKind, MatchStatus, Space};

/// The most sheets an evening shows: its last ones.
pub const EVENING_SHEETS: i32 = 50;

/// A sheet's new owner token, for the phone the sheet is handed to.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"owner_token": "own_Qm9yZWQgYnV0IHJhbmRvbSBieXRlcyBvZiBhIHRva2Vu"}))]
pub struct SheetOwnerToken {
    /// Send as `Authorization: Bearer <token>` to write to the sheet. Shown only here; the token
    /// it replaces no longer works.
    pub owner_token: String,
}

/// One sheet of an evening, as its summary lists it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EveningSheet {
    pub id: Uuid,
    pub game: GameKind,
    pub status: MatchStatus,
    /// The players' names, by seat.
    pub players: Vec<String>,
    /// Total per seat so far.
    pub totals: Vec<i64>,
    /// The seats that won, once the sheet is finished; empty before.
    pub winners: Vec<Seat>,
    /// Rounds standing.
    #[schema(minimum = 0)]
    pub rounds: u32,
    pub finished_early: bool,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// One player over an evening: matched by name as everywhere (case, accents and spacing aside).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EveningPlayer {
    /// The name as the latest sheet has it.
    pub name: String,
    /// Sheets the player sat at, abandoned ones aside.
    #[schema(minimum = 0)]
    pub sheets: u32,
    /// Finished sheets the player won (a shared win counts for each winner).
    #[schema(minimum = 0)]
    pub wins: u32,
}

/// The evening a sheet belongs to: the chain of sheets played again from one another.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Evening {
    /// The evening's first sheet (of the last 50, for a longer one): its link shows the evening.
    pub first: Uuid,
    /// The latest sheet, the one being played or last played.
    pub current: Uuid,
    /// First to last.
    pub sheets: Vec<EveningSheet>,
    /// Everyone who sat, most wins first, then in order of first appearance.
    pub players: Vec<EveningPlayer>,
}

/// A new sheet of the same game, options and players (in the same seats), with its own owner
/// token, linked to this one. Only a finished or abandoned sheet is played again, and only once.
pub async fn rematch(store: &Store, id: Uuid, owner_token: &str) -> Result<CreatedSheet, Problem> {
    let mut conn = store.conn().await?;
    let created = conn
        .transaction(async |conn| {
            // The row lock makes two requests at once take turns.
            let row = owned_sheet(conn, id, owner_token).await?;
            if row.status == MatchStatus::InProgress {
                return Err(Problem::new(
                    Code::MatchNotFinished,
                    "a sheet is played again once it is finished or abandoned: finish it early \
                     or abandon it first",
                ));
            }
            if let (_, Some(existing)) = links::rematch_links(conn, id).await? {
                let mut problem = Problem::new(
                    Code::RematchExists,
                    format!("this sheet is already played again, as {existing}"),
                );
                problem.params = Some(serde_json::json!({"rematch": existing}));
                return Err(problem);
            }
            let seats = q::seats(conn, id).await?;
            let new = prepare(
                &CreateSheet {
                    game: row.game.kind(),
                    players: seats
                        .iter()
                        .map(|seat| NewSeat {
                            name: seat.player_name.clone(),
                        })
                        .collect(),
                    options: Some(row.options.clone()),
                },
                Space::of(row.household),
            )?;
            created::insert_parts(conn, new.parts()).await?;
            if !links::link_rematch(conn, id, new.row.id).await? {
                return Err(Problem::internal(format!(
                    "sheet {id} gained a rematch while locked"
                )));
            }
            Ok::<_, Problem>(new.created)
        })
        .await?;
    let mut created = created;
    created.sheet.rematch_of = Some(id);
    Ok(created)
}

/// Issues the sheet a new owner token; the one presented stops working at once.
pub async fn reissue_owner_token(
    store: &Store,
    id: Uuid,
    owner_token: &str,
) -> Result<SheetOwnerToken, Problem> {
    let mut conn = store.conn().await?;
    conn.transaction(async |conn| {
        owned_sheet(conn, id, owner_token).await?;
        let (owner_token, hash) = tokens::issue("own").map_err(Problem::internal)?;
        links::set_owner_token(conn, id, &hash).await?;
        Ok(SheetOwnerToken { owner_token })
    })
    .await
}

/// The evening `id` belongs to, with each sheet's result and each player's wins.
pub async fn evening(store: &Store, id: Uuid, space: Space) -> Result<Evening, Problem> {
    let mut conn = store.conn().await?;
    let conn = &mut *conn;
    // An unknown id, or a hosted match's, is refused before its chain is walked; so is another
    // household's sheet (a chain's rematches are all of its first sheet's household).
    let first = q::find(conn, id)
        .await?
        .filter(|r| r.kind == MatchKind::Sheet)
        .ok_or_else(|| unknown_sheet(id))?;
    check_visible(&first, space)?;
    let chain = links::rematch_chain(conn, id, EVENING_SHEETS).await?;
    let mut sheets = Vec::with_capacity(chain.len());
    for sheet_id in chain {
        let sheet = read_on(conn, sheet_id).await?;
        let finished = sheet.status == MatchStatus::Finished;
        sheets.push(EveningSheet {
            id: sheet.id,
            game: sheet.game,
            status: sheet.status,
            players: sheet.players.into_iter().map(|p| p.name).collect(),
            totals: sheet.standings.totals,
            winners: if finished {
                sheet.standings.winners
            } else {
                Vec::new()
            },
            rounds: sheet.rounds.len() as u32,
            finished_early: sheet.finished_early,
            created_at: sheet.created_at,
            finished_at: sheet.finished_at,
        });
    }
    let (Some(first), Some(current)) = (sheets.first(), sheets.last()) else {
        return Err(unknown_sheet(id));
    };
    let (first, current) = (first.id, current.id);
    Ok(Evening {
        first,
        current,
        players: players_of(&sheets),
        sheets,
    })
}

/// Each player's sheets and wins over the evening, most wins first.
fn players_of(sheets: &[EveningSheet]) -> Vec<EveningPlayer> {
    let mut players: Vec<(String, EveningPlayer)> = Vec::new();
    for sheet in sheets.iter().filter(|s| s.status != MatchStatus::Abandoned) {
        for (seat, name) in sheet.players.iter().enumerate() {
            let key = name_key(name);
            let index = match players.iter().position(|(k, _)| *k == key) {
                Some(index) => index,
                None => {
                    players.push((
                        key,
                        EveningPlayer {
                            name: name.clone(),
                            sheets: 0,
                            wins: 0,
                        },
                    ));
                    players.len() - 1
                }
            };
            let player = &mut players[index].1;
            player.name = name.clone();
            player.sheets += 1;
            player.wins += u32::from(sheet.winners.contains(&seat));
        }
    }
    // A stable sort keeps the order of first appearance among equal wins.
    players.sort_by_key(|(_, player)| std::cmp::Reverse(player.wins));
    players.into_iter().map(|(_, player)| player).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(status: MatchStatus, players: &[&str], winners: &[Seat]) -> EveningSheet {
        EveningSheet {
            id: Uuid::new_v4(),
            game: GameKind::LuckyJack,
            status,
            players: players.iter().map(|p| p.to_string()).collect(),
            totals: vec![0; players.len()],
            winners: winners.to_vec(),
            rounds: 1,
            finished_early: false,
            created_at: Utc::now(),
            finished_at: None,
        }
    }

    #[test]
    fn an_evening_counts_each_players_sheets_and_wins_by_name_and_leaves_abandoned_sheets_out() {
        let sheets = [
            sheet(MatchStatus::Finished, &["Mum", "Dad", "Zoé"], &[2]),
            sheet(MatchStatus::Abandoned, &["Mum", "Dad", "Zoé"], &[]),
            // A shared win counts for both; "zoe" is Zoé under the name keys.
            sheet(MatchStatus::Finished, &["mum", "Dad", "ZOÉ"], &[0, 2]),
            sheet(MatchStatus::InProgress, &["Mum", "Dad", "Zoé"], &[]),
        ];
        let players = players_of(&sheets);
        let summary: Vec<(&str, u32, u32)> = players
            .iter()
            .map(|p| (p.name.as_str(), p.sheets, p.wins))
            .collect();
        assert_eq!(
            summary,
            [("Zoé", 3, 2), ("Mum", 3, 1), ("Dad", 3, 0)],
            "names as the latest sheet has them, most wins first"
        );
    }
}
