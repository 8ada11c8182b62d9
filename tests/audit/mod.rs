//! The consistency audit shared by the HTTP tests and the fault tests: every stored snapshot
//! equals the replay of its log up to the snapshot's version.

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use referee::vocabulary::{MatchKind, MatchStatus};

/// Checks every stored match: its snapshot equals the replay of its log from setup up to the
/// snapshot's version, no further behind the log than a snapshot interval, and a finished
/// match's snapshot is its whole log.
pub async fn audit_snapshots(database_url: &str) {
    use diesel::QueryDsl;
    use referee::games::Game;
    use referee::referee::{replay, Input};
    use referee::store::{matches as q, schema::matches};
    let mut conn = AsyncPgConnection::establish(database_url).await.unwrap();
    let ids: Vec<uuid::Uuid> = matches::table
        .select(matches::id)
        .load(&mut conn)
        .await
        .unwrap();
    assert!(!ids.is_empty());
    for id in ids {
        let row = q::find(&mut conn, id).await.unwrap().unwrap();
        let players = q::seats(&mut conn, id).await.unwrap().len();
        let kind = row.game.kind();
        if row.kind == MatchKind::Sheet {
            audit_sheet(&mut conn, &row, players, kind).await;
            continue;
        }
        let events = q::events(&mut conn, id).await.unwrap();
        let logged = events.len() as i64;
        let every = referee::config::MoveSettings::from_env()
            .unwrap()
            .snapshot_every;
        assert!(
            (logged - every..=logged).contains(&row.version),
            "match {id}: snapshot at {} within {every} plies of the log's {logged}",
            row.version
        );
        if row.status == MatchStatus::Finished {
            assert_eq!(
                row.version, logged,
                "match {id}: a finished match has its whole log in its snapshot"
            );
        }
        referee::with_game!(kind, G => {
            let inputs: Vec<_> = events
                .iter()
                .map(|e| match e.seat {
                    Some(seat) => Input::Move {
                        seat: seat as usize,
                        mv: serde_json::from_value(e.payload.clone()).unwrap(),
                    },
                    None => Input::Chance(serde_json::from_value(e.payload.clone()).unwrap()),
                })
                .collect();
            let options: <G as Game>::Options = serde_json::from_value(row.options.clone()).unwrap();
            let options = G::validate_options(&options, players).unwrap();
            let (snapshot, _) = replay::<G>(options.clone(), &inputs, Some(row.version as usize))
                .unwrap_or_else(|(ply, e)| panic!("match {id} fails to replay at ply {ply}: {e}"));
            assert_eq!(serde_json::to_value(&snapshot).unwrap(), row.state, "match {id}: snapshot = replay");
            let (state, _) = replay::<G>(options, &inputs, None)
                .unwrap_or_else(|(ply, e)| panic!("match {id} fails to replay at ply {ply}: {e}"));
            assert_eq!(G::is_over(&state), row.status == MatchStatus::Finished);
        });
    }
}

/// A sheet's snapshot equals the game's scoring of its standing entries (each round's latest).
async fn audit_sheet(
    conn: &mut AsyncPgConnection,
    row: &referee::store::matches::MatchRow,
    players: usize,
    kind: referee::games::GameKind,
) {
    use referee::games::Game;
    let entries = referee::store::matches::sheet_entries(conn, row.id)
        .await
        .unwrap();
    assert_eq!(
        row.version,
        entries.len() as i64,
        "sheet {}: version = entries",
        row.id
    );
    let mut standing: Vec<serde_json::Value> = Vec::new();
    for entry in &entries {
        let index = entry.round as usize - 1;
        if index < standing.len() {
            standing[index] = entry.tally.clone();
        } else {
            standing.push(entry.tally.clone());
        }
    }
    referee::with_game!(kind, G => {
        let options: <G as Game>::Options = serde_json::from_value(row.options.clone()).unwrap();
        let tallies: Vec<<G as Game>::Tally> = standing
            .into_iter()
            .map(|t| serde_json::from_value(t).unwrap())
            .collect();
        let tallied = referee::referee::tally::<G>(&options, players, &tallies)
            .unwrap_or_else(|(round, e)| panic!("sheet {}: round {round}: {e}", row.id));
        let rounds: Vec<serde_json::Value> =
            tallied.rounds.iter().map(|r| serde_json::to_value(r).unwrap()).collect();
        assert_eq!(row.state["rounds"], serde_json::Value::from(rounds), "sheet {}", row.id);
        assert_eq!(tallied.over, row.status == MatchStatus::Finished);
    });
}
