//! The consistency audit shared by the HTTP tests and the fault tests: every stored snapshot
//! equals the replay of its log up to the snapshot's version, take-backs and corrections
//! replayed by the mending policy itself.

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use referee::vocabulary::{MatchKind, MatchStatus, RandomnessMode};

/// Checks every stored match: its snapshot, and each one kept for the log's readers, equals the
/// replay of its log from setup up to the snapshot's ply, no further behind the log than a snapshot interval, and a finished
/// match's snapshot is its whole log.
pub async fn audit_snapshots(database_url: &str) {
    use diesel::{ExpressionMethods, QueryDsl};
    use referee::games::Consistent;
    use referee::games::Game;
    use referee::referee::{replay_mend, Entry, Mendable, Reporter};
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
        let mut kept: std::collections::BTreeMap<i64, serde_json::Value> =
            referee::store::schema::match_snapshots::table
                .filter(referee::store::schema::match_snapshots::match_id.eq(id))
                .select((
                    referee::store::schema::match_snapshots::ply,
                    referee::store::schema::match_snapshots::state,
                ))
                .load::<(i64, serde_json::Value)>(&mut conn)
                .await
                .unwrap()
                .into_iter()
                .collect();
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
            let options: <G as Game>::Options = serde_json::from_value(row.options.clone()).unwrap();
            let options = G::validate_options(&options, players).unwrap();
            let table = row.randomness == RandomnessMode::Table;
            let mut line = Mendable::<G>::new(Consistent::new(options));
            let mut snapshot = (row.version == 0).then(|| serde_json::to_value(&**line.state()).unwrap());
            for e in &events {
                let before = line.state().clone();
                let reporter = match e.seat {
                    None => Reporter::of_stored(e.reported_by, table),
                    Some(_) => None,
                };
                let outcome = || serde_json::from_value(e.payload.clone()).unwrap();
                let entry = match (e.seat, e.revises) {
                    (Some(seat), None) => Entry::Move {
                        seat: seat as usize,
                        mv: serde_json::from_value(e.payload.clone()).unwrap(),
                    },
                    (None, None) => Entry::Chance { outcome: outcome(), reporter },
                    (Some(seat), Some(ply)) => Entry::TakeBack { seat: seat as usize, ply },
                    (None, Some(ply)) => Entry::Correction {
                        outcome: outcome(),
                        reporter: reporter.unwrap_or(Reporter::Owner),
                        ply,
                    },
                };
                line.record(e.ply, entry)
                    .unwrap_or_else(|err| panic!("match {id} fails to replay at ply {}: {err}", e.ply));
                // A mending's stored state, applied forward as streams and snapshots apply it,
                // leads where the policy's own replay does.
                if let Some(restores) = &e.restores {
                    let restores = Consistent::<G>::check(serde_json::from_value(restores.clone()).unwrap())
                        .unwrap();
                    let mut forward = before;
                    let outcome = e.seat.is_none().then(outcome);
                    replay_mend::<G>(&mut forward, restores, outcome.as_ref()).unwrap();
                    assert_eq!(
                        serde_json::to_value(&*forward).unwrap(),
                        serde_json::to_value(&**line.state()).unwrap(),
                        "match {id}: ply {} restores what its replay does", e.ply
                    );
                }
                if e.ply == row.version {
                    snapshot = Some(serde_json::to_value(&**line.state()).unwrap());
                }
                if let Some(kept) = kept.remove(&e.ply) {
                    assert_eq!(
                        kept,
                        serde_json::to_value(&**line.state()).unwrap(),
                        "match {id}: the snapshot kept at ply {} = replay", e.ply
                    );
                }
            }
            assert!(kept.is_empty(), "match {id}: snapshots kept beyond its log: {:?}", kept.keys());
            assert_eq!(snapshot.as_ref(), Some(&row.state), "match {id}: snapshot = replay");
            assert_eq!(G::is_over(line.state()), row.status == MatchStatus::Finished);
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
    let entries = referee::store::sheets::sheet_entries(conn, row.id)
        .await
        .unwrap();
    assert_eq!(
        row.version,
        entries.len() as i64,
        "sheet {}: version = entries",
        row.id
    );
    // Each round's latest entry; a removal takes the last round away (and undoes an early
    // finish), a finish closes the sheet early, a rename changes no round.
    use referee::vocabulary::SheetEntryKind;
    if let Some(import) = entries.iter().find(|e| e.kind == SheetEntryKind::Import) {
        audit_imported(conn, row, import).await;
        return;
    }
    let mut standing: Vec<serde_json::Value> = Vec::new();
    let mut finished_early = false;
    for entry in &entries {
        match entry.kind {
            SheetEntryKind::Round => {
                let tally = entry.tally.clone().expect("a round has a tally");
                let index = entry.round as usize - 1;
                if index < standing.len() {
                    standing[index] = tally;
                } else {
                    standing.push(tally);
                }
            }
            SheetEntryKind::Removal => {
                assert_eq!(
                    entry.round as usize,
                    standing.len(),
                    "a removal takes the last round"
                );
                standing.pop();
                finished_early = false;
            }
            SheetEntryKind::Rename => assert!(entry.renamed.is_some()),
            SheetEntryKind::Finish => finished_early = true,
            SheetEntryKind::Import => unreachable!("audited apart"),
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
        if row.status != MatchStatus::Abandoned {
            assert_eq!(
                tallied.over || finished_early,
                row.status == MatchStatus::Finished,
                "sheet {}: finished by its end rule or early",
                row.id
            );
        }
        if row.status == MatchStatus::Finished {
            let seats = referee::store::matches::seats(conn, row.id).await.unwrap();
            let totals: Vec<Option<i64>> = seats.iter().map(|s| s.final_score).collect();
            let expected: Vec<Option<i64>> =
                tallied.standings.totals.iter().map(|&t| Some(t)).collect();
            assert_eq!(totals, expected, "sheet {}: results = standing rounds", row.id);
        }
    });
}

/// An imported play is one entry, first, holding final standings that are its snapshot's and,
/// once finished, its seats' results.
async fn audit_imported(
    conn: &mut AsyncPgConnection,
    row: &referee::store::matches::MatchRow,
    import: &referee::store::sheets::SheetEntryRow,
) {
    assert_eq!(
        import.seq, 1,
        "sheet {}: an import is the first entry",
        row.id
    );
    let standings = import.imported.clone().expect("an import has standings");
    assert_eq!(row.state["standings"], standings, "sheet {}", row.id);
    assert_eq!(
        row.state["rounds"],
        serde_json::json!([]),
        "sheet {}",
        row.id
    );
    if row.status == MatchStatus::Finished {
        let seats = referee::store::matches::seats(conn, row.id).await.unwrap();
        let totals: Vec<serde_json::Value> = seats
            .iter()
            .map(|s| s.final_score.unwrap().into())
            .collect();
        let ranks: Vec<serde_json::Value> =
            seats.iter().map(|s| s.final_rank.unwrap().into()).collect();
        assert_eq!(
            standings["totals"],
            serde_json::Value::from(totals),
            "sheet {}",
            row.id
        );
        assert_eq!(
            standings["ranks"],
            serde_json::Value::from(ranks),
            "sheet {}",
            row.id
        );
    }
}

#[allow(dead_code)]
#[derive(diesel::QueryableByName, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Totals {
    #[diesel(sql_type = diesel::sql_types::Text)]
    game: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    player_key: String,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    played: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    won: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    score_sum: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    abandoned: i64,
}

// Only the HTTP tests call it.
#[allow(dead_code)]
/// The players' running totals equal a count of the stored results from scratch (finished
/// seats, and seats of matches abandoned after play began), under the seats' current keys.
pub async fn audit_totals(database_url: &str) {
    let mut conn = AsyncPgConnection::establish(database_url).await.unwrap();
    let mut kept: Vec<Totals> = diesel::sql_query(
        "SELECT game, player_key, played, won, score_sum, abandoned FROM player_game_stats \
         WHERE played <> 0 OR won <> 0 OR score_sum <> 0 OR abandoned <> 0",
    )
    .load(&mut conn)
    .await
    .unwrap();
    let mut counted: Vec<Totals> = diesel::sql_query(
        "SELECT m.game, s.player_key, \
                count(*) FILTER (WHERE m.status = 'finished') AS played, \
                count(*) FILTER (WHERE m.status = 'finished' AND s.winner) AS won, \
                coalesce(sum(s.final_score) FILTER (WHERE m.status = 'finished'), 0)::int8 \
                    AS score_sum, \
                count(*) FILTER (WHERE m.status = 'abandoned') AS abandoned \
         FROM match_seats s JOIN matches m ON m.id = s.match_id \
         LEFT JOIN match_abandons a ON a.match_id = m.id \
         WHERE (m.status = 'finished' OR (m.status = 'abandoned' AND a.after_play)) \
           AND NOT s.anonymous \
         GROUP BY m.game, s.player_key",
    )
    .load(&mut conn)
    .await
    .unwrap();
    kept.sort();
    counted.sort();
    assert_eq!(kept, counted, "running totals = the stored results counted");
    audit_ratings(database_url).await;
}

#[derive(diesel::QueryableByName, Debug, PartialEq)]
struct StoredRating {
    #[diesel(sql_type = diesel::sql_types::Text)]
    game: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    player_key: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    what: String,
}

/// Every stored rating change and current rating, as exact text (doubles as their bits).
async fn stored_ratings(conn: &mut AsyncPgConnection) -> Vec<StoredRating> {
    diesel::sql_query(
        "SELECT game, player_key, \
                concat_ws(' ', match_id, seat, player_name, rated_at, rank, \
                          float8send(mu_before), float8send(sigma_before), \
                          float8send(mu_after), float8send(sigma_after)) AS what \
         FROM rating_changes \
         UNION ALL \
         SELECT game, player_key, \
                concat_ws(' ', 'now', player_name, float8send(mu), float8send(sigma), rated, won, \
                          last_rated_at) \
         FROM player_ratings \
         ORDER BY 1, 2, 3",
    )
    .load(conn)
    .await
    .unwrap()
}

/// Checks the stored ratings against every game rated again from its first result, in order:
/// whatever order writes came in (concurrent finishes, corrections, renames), what is stored is
/// what a full recomputation gives, to the bit. The recomputation is rolled back.
pub async fn audit_ratings(database_url: &str) {
    let mut conn = AsyncPgConnection::establish(database_url).await.unwrap();
    let kept = stored_ratings(&mut conn).await;
    // Plain statements: the recomputation's writes must never be kept, whatever it returns.
    diesel::sql_query("BEGIN").execute(&mut conn).await.unwrap();
    referee::store::results::rating::rerate_all(&mut conn)
        .await
        .unwrap();
    let recomputed = stored_ratings(&mut conn).await;
    diesel::sql_query("ROLLBACK")
        .execute(&mut conn)
        .await
        .unwrap();
    assert_eq!(
        kept.len(),
        recomputed.len(),
        "as many stored ratings as recomputed"
    );
    for (kept, again) in kept.iter().zip(&recomputed) {
        assert_eq!(
            kept, again,
            "stored rating = the game rated again from the start"
        );
    }
}
