//! The export: a finished match or sheet as a BG Stats file of one play, or every result that
//! counts in statistics as one file, streamed a page of plays at a time.

use std::collections::HashMap;

use serde::Serialize;
use uuid::Uuid;

use super::file::{
    BgStatsFile, BgStatsGame, BgStatsNamed, BgStatsPlay, BgStatsPlayer, BgStatsScore, RefereePlay,
    RefereeSeat,
};
use crate::games::{Game, GameKind, Order};
use crate::problem::{Code, Problem};
use crate::ratings::RatingChange;
use crate::records::note_game;
use crate::store::matches::{self as q, SeatRow};
use crate::store::plays::{self, CountedResult};
use crate::store::stat_reads::Period;
use crate::store::Store;
use crate::vocabulary::{MatchKind, MatchStatus, Space};
use crate::with_game;

/// Names are the identity here, so their BG Stats uuids derive from them.
fn name_uuid(kind: &str, name: &str) -> Uuid {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("referee/{kind}/{}", name.to_lowercase()));
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_sha1_bytes(bytes).into_uuid()
}

/// The locations plays are at: a score sheet's table, or the service's hosted table.
fn location_id(kind: MatchKind) -> i64 {
    match kind {
        MatchKind::Sheet => 1,
        MatchKind::Hosted => 2,
    }
}

fn locations() -> Vec<BgStatsNamed> {
    [
        (MatchKind::Sheet, "At the table"),
        (MatchKind::Hosted, "Tabletop referee"),
    ]
    .into_iter()
    .map(|(kind, name)| BgStatsNamed {
        id: location_id(kind),
        name: name.to_owned(),
        uuid: name_uuid("location", kind.as_str()),
    })
    .collect()
}

fn game_id(game: GameKind) -> i64 {
    GameKind::ALL
        .iter()
        .position(|&g| g == game)
        .unwrap_or_default() as i64
        + 1
}

fn game_entry(game: GameKind, lowest_wins: bool) -> BgStatsGame {
    BgStatsGame {
        id: game_id(game),
        name: game.title().to_owned(),
        uuid: name_uuid("game", game.slug()),
        cooperative: false,
        highest_wins: !lowest_wins,
        no_points: false,
        uses_teams: false,
    }
}

/// A player of the file: a name as written, and whether it is an anonymous seat's.
type FilePlayer = (String, bool);

fn file_player(seat: &SeatRow) -> FilePlayer {
    (seat.player_name.clone(), seat.anonymous)
}

/// The file's players, numbered from 1 in this order.
fn players_of(players: &[FilePlayer]) -> Vec<BgStatsPlayer> {
    players
        .iter()
        .enumerate()
        .map(|(index, (name, anonymous))| BgStatsPlayer {
            id: index as i64 + 1,
            name: name.clone(),
            uuid: name_uuid(if *anonymous { "anonymous" } else { "player" }, name),
            is_anonymous: *anonymous,
        })
        .collect()
}

/// A counted result as a play; `player_id` numbers each seat's player.
fn play_of(result: &CountedResult, player_id: impl Fn(&SeatRow) -> i64) -> BgStatsPlay {
    let row = &result.row;
    // A sheet's snapshot lists its scored rounds; a hosted game's breakdown may list its rounds.
    let rounds = match row.kind {
        MatchKind::Sheet => row.state.pointer("/rounds"),
        MatchKind::Hosted => row
            .result
            .as_ref()
            .and_then(|r| r.pointer("/breakdown/rounds")),
    }
    .and_then(|r| r.as_array())
    .map_or(0, |r| r.len() as i64);
    let ended_at = result.ended.0;
    let abandoned = row.status == MatchStatus::Abandoned;
    BgStatsPlay {
        uuid: row.id,
        game_ref_id: game_id(row.game.kind()),
        location_ref_id: location_id(row.kind),
        play_date: ended_at.format("%Y-%m-%d %H:%M:%S").to_string(),
        duration_min: (ended_at - row.created_at).num_minutes(),
        ignored: abandoned,
        manual_winner: false,
        rounds,
        uses_teams: false,
        player_scores: result
            .seats
            .iter()
            .map(|s| BgStatsScore {
                player_ref_id: player_id(s),
                score: s.final_score.map(|n| n.to_string()).unwrap_or_default(),
                winner: s.winner == Some(true),
                new_player: false,
                start_player: false,
                rank: i64::from(s.final_rank.unwrap_or_default()),
                seat_order: i64::from(s.seat),
            })
            .collect(),
        referee: Some(RefereePlay {
            kind: row.kind,
            game: row.game.kind(),
            options: row.options.clone(),
            created_at: row.created_at,
            ended_at,
            seats: result
                .seats
                .iter()
                .map(|s| RefereeSeat {
                    highlights: s
                        .highlights
                        .as_ref()
                        .and_then(|h| serde_json::from_value(h.clone()).ok()),
                    rating: result
                        .changes
                        .iter()
                        .find(|c| c.seat == s.seat)
                        .map(RatingChange::of),
                })
                .collect(),
            abandoned_by: result.abandon.as_ref().map(|a| a.by).filter(|_| abandoned),
        }),
    }
}

/// A finished match or sheet as a BG Stats file of one play.
#[tracing::instrument(skip_all, fields(match_id = %id, kind = kind.as_str(), game = tracing::field::Empty))]
pub async fn one(
    store: &Store,
    id: Uuid,
    kind: MatchKind,
    space: Space,
) -> Result<BgStatsFile, Problem> {
    // Only a finished match is exported, and a finished match never changes: a history read.
    let (row, seats, changes) = store
        .read(async |conn| {
            let Some(row) = q::find(conn, id).await?.filter(|r| r.kind == kind) else {
                return Ok(None);
            };
            let seats = q::seats(conn, id).await?;
            let changes = crate::store::rating_reads::changes_of(conn, &[id]).await?;
            Ok(Some((row, seats, changes)))
        })
        .await?
        .ok_or_else(|| {
            Problem::new(
                Code::UnknownMatch,
                format!("no {} has id {id}", kind.as_str()),
            )
        })?;
    crate::records::check_visible(&row, space)?;
    if row.status != MatchStatus::Finished {
        return Err(Problem::new(
            Code::MatchNotFinished,
            "only a finished match can be exported as a play",
        ));
    }
    let game = row.game.kind();
    note_game(game);
    let lowest_wins = row.lowest_wins == Some(true);
    let result = CountedResult {
        ended: (row.finished_at.unwrap_or(row.updated_at), row.id),
        row,
        seats,
        abandon: None,
        changes,
    };
    let players: Vec<FilePlayer> = result.seats.iter().map(file_player).collect();
    let player_id = |seat: &SeatRow| {
        let player = file_player(seat);
        players
            .iter()
            .position(|p| *p == player)
            .unwrap_or_default() as i64
            + 1
    };
    Ok(BgStatsFile {
        players: players_of(&players),
        locations: locations()
            .into_iter()
            .filter(|l| l.id == location_id(kind))
            .collect(),
        games: vec![game_entry(game, lowest_wins)],
        plays: vec![play_of(&result, player_id)],
    })
}

/// Plays read per query while streaming everything.
const EXPORT_PAGE: i64 = 200;

/// Every result that counts in statistics (finished, or abandoned after play began) of the
/// period, as one BG Stats file, in the order they ended. Streamed: the players, locations and
/// games first, then the plays a page at a time, so memory stays a page whatever the history.
pub fn everything(
    store: Store,
    space: Space,
    period: Period,
) -> impl futures_util::Stream<Item = Result<String, Problem>> {
    enum Next {
        Head,
        Plays(
            Option<crate::store::results::Place>,
            HashMap<FilePlayer, i64>,
        ),
        Done,
    }
    futures_util::stream::unfold(Next::Head, move |next| {
        let store = store.clone();
        async move {
            match next {
                Next::Head => {
                    let names = match store
                        .read(async |conn| plays::counted_names(conn, space, period).await)
                        .await
                    {
                        Ok(names) => names,
                        Err(error) => return Some((Err(Problem::from(error)), Next::Done)),
                    };
                    let ids: HashMap<FilePlayer, i64> = names
                        .iter()
                        .enumerate()
                        .map(|(i, n)| (n.clone(), i as i64 + 1))
                        .collect();
                    let players = players_of(&names);
                    let games: Vec<BgStatsGame> = GameKind::ALL
                        .iter()
                        .map(|&g| game_entry(g, default_order(g) == Order::LowestWins))
                        .collect();
                    let head = format!(
                        "{{\"players\":{},\"locations\":{},\"games\":{},\"plays\":[",
                        json_text(&players),
                        json_text(&locations()),
                        json_text(&games)
                    );
                    Some((Ok(head), Next::Plays(None, ids)))
                }
                Next::Plays(after, ids) => {
                    let page = match store
                        .read(async |conn| {
                            plays::counted_page(conn, space, period, after, EXPORT_PAGE).await
                        })
                        .await
                    {
                        Ok(page) => page,
                        Err(error) => return Some((Err(Problem::from(error)), Next::Done)),
                    };
                    let Some(last) = page.last().map(|r| r.ended) else {
                        return Some((Ok("]}\n".to_owned()), Next::Done));
                    };
                    let mut text = String::new();
                    for result in &page {
                        if after.is_some() || !text.is_empty() {
                            text.push(',');
                        }
                        let play = play_of(result, |seat| {
                            ids.get(&file_player(seat)).copied().unwrap_or(0)
                        });
                        text.push_str(&json_text(&play));
                    }
                    Some((Ok(text), Next::Plays(Some(last), ids)))
                }
                Next::Done => None,
            }
        }
    })
}

// The file's parts hold only text, numbers, booleans and ids: they always serialise.
#[allow(clippy::expect_used)]
fn json_text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("BG Stats parts serialise")
}

/// Which end of the totals wins a game played with its default options.
fn default_order(game: GameKind) -> Order {
    with_game!(game, G => {
        let options = <G as Game>::Options::default();
        G::tally_standings(&options, 2, &[]).0.order
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_players_bgstats_uuid_depends_only_on_the_name_ignoring_case() {
        assert_eq!(name_uuid("player", "Ann"), name_uuid("player", "ANN"));
        assert_ne!(name_uuid("player", "Ann"), name_uuid("player", "Ben"));
    }
}
