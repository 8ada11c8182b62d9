//! The evening around a score sheet: playing it again with the same players (a new sheet linked
//! to it, as a hosted match links its rematch), handing the sheet to another phone (a new owner
//! token), and the evening so far: the chain of sheets played again and, in a household, every
//! other sheet and hosted match the same people played that night, with who won each.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use diesel_async::AsyncConnection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{owned_sheet, prepare, shown, unknown_sheet, CreateSheet, CreatedSheet};
use crate::games::{GameKind, Seat};
use crate::problem::{Code, Problem};
use crate::records::{check_visible, NewSeat};
use crate::store::history;
use crate::store::lobby as links;
use crate::store::matches::{self as q, MatchRow, SeatRow};
use crate::store::UnknownRecord;
use crate::store::{created, Store};
use crate::tokens;
use crate::vocabulary::{name_key, MatchKind, MatchStatus, Space};

/// The most sheets an evening shows: its last ones.
pub const EVENING_SHEETS: i32 = 50;

/// The longest pause between two games of one evening: a longer one ends it.
const EVENING_PAUSE: chrono::TimeDelta = chrono::TimeDelta::hours(3);

/// How far before and after its play-again chain an evening's other games are looked for.
const EVENING_REACH: chrono::TimeDelta = chrono::TimeDelta::hours(12);

/// A sheet's new owner token, for the phone the sheet is handed to.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"owner_token": "own_Qm9yZWQgYnV0IHJhbmRvbSBieXRlcyBvZiBhIHRva2Vu"}))]
pub struct SheetOwnerToken {
    /// Send as `Authorization: Bearer <token>` to write to the sheet. Shown only here; the token
    /// it replaces no longer works.
    pub owner_token: String,
}

/// One game of an evening, as its summary lists it: a score sheet, or (in a household) a hosted
/// match.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EveningSheet {
    pub id: Uuid,
    /// `sheet` (under `/v1/sheets`) or `hosted` (under `/v1/matches`).
    pub kind: MatchKind,
    pub game: GameKind,
    pub status: MatchStatus,
    /// The players' names, by seat.
    pub players: Vec<String>,
    /// Total per seat so far (a hosted match's once it is over, zeros before).
    pub totals: Vec<i64>,
    /// The seats that won, once the sheet is finished; empty before.
    pub winners: Vec<Seat>,
    /// Rounds standing (a sheet's; 0 for a hosted match).
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

/// The evening a sheet or hosted match belongs to: the chain of games played again from one
/// another and, in a household, every other sheet and hosted match of that night at which two or
/// more of the evening's players sat, whatever the game (games no more than three hours apart
/// are one evening). In the public space, where a name is anyone's, the evening is the chain
/// alone.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Evening {
    /// The first game of the play-again chain (of its last 50, for a longer one): its link
    /// shows the evening.
    pub first: Uuid,
    /// The chain's latest game, the one being played or last played: a phone showing the
    /// evening follows it.
    pub current: Uuid,
    /// Every game of the evening in the order they began (its last 50).
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

/// The evening of the sheet or hosted match `id` (`kind` says which is asked for), with each
/// game's result and each player's wins.
pub async fn evening(
    store: &Store,
    id: Uuid,
    kind: MatchKind,
    space: Space,
) -> Result<Evening, Problem> {
    let unknown = |id| Problem::from(UnknownRecord { kind, id });
    let mut conn = store.conn().await?;
    let conn = &mut *conn;
    // An unknown id, or one of the other kind, is refused before its chain is walked; so is
    // another household's (a chain's rematches are all of its first game's household).
    let asked = q::find(conn, id)
        .await?
        .filter(|r| r.kind == kind)
        .ok_or_else(|| unknown(id))?;
    check_visible(&asked, space)?;
    let chain = links::rematch_chain(conn, id, EVENING_SHEETS).await?;
    let mut games = Vec::with_capacity(chain.len());
    for &game in &chain {
        games.push(summary(conn, game).await?);
    }
    let (Some(first), Some(current)) = (games.first(), games.last()) else {
        return Err(unknown(id));
    };
    let (first, current) = (first.id, current.id);
    if !space.is_public() {
        let others = same_night(conn, space, &games).await?;
        for other in others.into_iter().filter(|other| !chain.contains(other)) {
            games.push(summary(conn, other).await?);
        }
        games.sort_by_key(|game| (game.created_at, game.id));
        let keep = games.len().saturating_sub(EVENING_SHEETS as usize);
        games.drain(..keep);
    }
    Ok(Evening {
        first,
        current,
        players: players_of(&games),
        sheets: games,
    })
}

/// A game of the evening, sheet or hosted match, with its results so far.
async fn summary(
    conn: &mut diesel_async::AsyncPgConnection,
    id: Uuid,
) -> Result<EveningSheet, Problem> {
    // The row is read once, and tells which it is.
    let row = q::find(conn, id).await?.ok_or_else(|| unknown_sheet(id))?;
    match row.kind {
        MatchKind::Sheet => sheet_summary(conn, row).await,
        MatchKind::Hosted => Ok(match_summary(row, q::seats(conn, id).await?)),
    }
}

/// A sheet of the evening with its standings.
async fn sheet_summary(
    conn: &mut diesel_async::AsyncPgConnection,
    row: MatchRow,
) -> Result<EveningSheet, Problem> {
    let sheet = shown(conn, row).await?;
    let finished = sheet.status == MatchStatus::Finished;
    Ok(EveningSheet {
        id: sheet.id,
        kind: MatchKind::Sheet,
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
    })
}

/// A hosted match of the evening with its seats' results.
fn match_summary(row: MatchRow, seats: Vec<SeatRow>) -> EveningSheet {
    EveningSheet {
        id: row.id,
        kind: MatchKind::Hosted,
        game: row.game.kind(),
        status: row.status,
        totals: seats.iter().map(|s| s.final_score.unwrap_or(0)).collect(),
        winners: seats
            .iter()
            .filter(|s| s.winner == Some(true))
            .map(|s| s.seat as Seat)
            .collect(),
        players: seats.into_iter().map(|s| s.player_name).collect(),
        rounds: 0,
        finished_early: false,
        created_at: row.created_at,
        finished_at: row.finished_at,
    }
}

/// The household's games of the night `chain` was played: the chain's, and each other game at
/// which two or more of the evening's players sat, begun within [`EVENING_PAUSE`] of its games.
async fn same_night(
    conn: &mut diesel_async::AsyncPgConnection,
    space: Space,
    chain: &[EveningSheet],
) -> Result<Vec<Uuid>, Problem> {
    let people: HashSet<String> = chain
        .iter()
        .flat_map(|sheet| sheet.players.iter().map(|name| space.player_key(name)))
        .collect();
    let began = chain.iter().map(|s| s.created_at).min();
    let ended = chain
        .iter()
        .map(|s| s.finished_at.unwrap_or(s.created_at))
        .max();
    let (Some(began), Some(ended)) = (began, ended) else {
        return Ok(Vec::new());
    };
    let reach = (began - EVENING_REACH, ended + EVENING_REACH);
    let nearby = history::records_between(conn, space.id(), reach).await?;
    Ok(one_sitting((began, ended), people, &nearby))
}

/// Of `nearby`, the games of one sitting with `span` and `people`: each played within
/// [`EVENING_PAUSE`] of the sitting by two or more of its people, the sitting and its people
/// growing with each game found (whoever joins the table later is of the evening too).
fn one_sitting(
    span: (DateTime<Utc>, DateTime<Utc>),
    mut people: HashSet<String>,
    nearby: &[history::NearbyRecord],
) -> Vec<Uuid> {
    let (mut began, mut ended) = span;
    let mut found = vec![false; nearby.len()];
    loop {
        let mut grew = false;
        for (record, found) in nearby.iter().zip(found.iter_mut()) {
            if !*found
                && record.created_at <= ended + EVENING_PAUSE
                && record.last_played >= began - EVENING_PAUSE
                && record.keys.iter().filter(|k| people.contains(*k)).count() >= 2
            {
                *found = true;
                grew = true;
                began = began.min(record.created_at);
                ended = ended.max(record.last_played);
                people.extend(record.keys.iter().cloned());
            }
        }
        if !grew {
            break;
        }
    }
    nearby
        .iter()
        .zip(found)
        .filter(|(_, found)| *found)
        .map(|(record, _)| record.id)
        .collect()
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
            kind: MatchKind::Sheet,
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

    #[test]
    fn an_evening_grows_game_by_game_while_two_of_its_people_play_with_pauses_under_three_hours() {
        let at = |hours: i64| {
            Utc::now() - chrono::TimeDelta::hours(24) + chrono::TimeDelta::hours(hours)
        };
        let record = |began: i64, last: i64, keys: &[&str]| history::NearbyRecord {
            id: Uuid::new_v4(),
            created_at: at(began),
            last_played: at(last),
            keys: keys.iter().map(|k| k.to_string()).collect(),
        };
        let nearby = [
            // Four hours before the sitting's first game ended: another evening.
            record(-6, -4, &["mum", "dad"]),
            record(0, 1, &["mum", "dad", "zoe"]),
            // Grandpa joins two of them; then plays on with Zoé, after a pause of two hours.
            record(2, 3, &["grandpa", "mum", "dad"]),
            record(5, 6, &["grandpa", "zoe"]),
            // Only Dad of the evening's people.
            record(6, 7, &["dad", "leo"]),
        ];
        let people = ["mum", "dad", "zoe"].map(String::from).into();
        let found = one_sitting((at(0), at(1)), people, &nearby);
        let expected: Vec<Uuid> = [1, 2, 3].iter().map(|&i| nearby[i].id).collect();
        assert_eq!(found, expected);
    }
}
