//! Fills a database with a large synthetic match history, to measure the history, statistics and
//! export endpoints at scale:
//!
//!     cargo run --release -p referee-tools --bin gen_history -- [matches] [moves_per_match] [players]
//!
//! Defaults: 100 000 matches × 50 moves (5 million log rows), 2 000 players, four seats a match,
//! into `postgres://postgres@127.0.0.1:5432/referee_scale` (or `DATABASE_URL`), which is created
//! and migrated first. Rows are made by PostgreSQL itself (`generate_series`), in batches. Then
//! the seats are keyed and the players' totals rebuilt by the service's own re-keying
//! (`store::names::rekey_names`), and every finished match is rated again
//! (`store::results::rating::rerate_all`, in one transaction, as the service does at start-up for an older
//! rating scheme); the time that took is printed: the cost of a full re-rate at that size.
//!
//! The data is synthetic: shapes, names, winners, scores and log rows are realistic, but the
//! snapshots are not the replay of the logs. Use that database for query benchmarks only.

// A measuring tool, not the service: a broken assumption should stop it loudly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use diesel::sql_types::BigInt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use referee::store::{names, results, Store, StoreError};

const MATCHES_SQL: &str = r#"
INSERT INTO matches (id, game, rules_version, options, randomness, seed, seed_sha256,
                     owner_token_hash, status, version, state, result,
                     created_at, updated_at, finished_at, kind)
SELECT md5('scale-match-' || i)::uuid, 'lucky-jack', 'lucky-jack/1', '{"rounds": 3}'::jsonb,
       'table', NULL, NULL, '\x00'::bytea,
       CASE WHEN i % 10 = 0 THEN 'in_progress' ELSE 'finished' END,
       $3, '{}'::jsonb,
       CASE WHEN i % 10 = 0 THEN NULL ELSE jsonb_build_object(
           'breakdown', jsonb_build_object('rounds', '[]'::jsonb, 'totals', '[]'::jsonb),
           'standings', jsonb_build_object('order', 'highest_wins', 'totals', '[]'::jsonb,
                                           'ranks', '[]'::jsonb, 'winners', '[]'::jsonb),
           'over', true) END,
       now() - i * interval '5 minutes', now() - i * interval '5 minutes' + interval '20 minutes',
       CASE WHEN i % 10 = 0 THEN NULL ELSE now() - i * interval '5 minutes' + interval '20 minutes' END,
       CASE WHEN i % 4 = 0 THEN 'sheet' ELSE 'hosted' END
FROM generate_series($1, $2) AS i
"#;

const SEATS_SQL: &str = r#"
INSERT INTO match_seats (match_id, seat, player_name, player_key, token_hash, final_score,
                         final_rank, winner, highlights)
SELECT md5('scale-match-' || i)::uuid, s,
       'player-' || ((i + s * ($3 / 4)) % $3),
       -- The name as its key for now: the service's keys are look-alike skeletons (`player-l`
       -- for `player-1`), computed below by the service's own re-keying.
       'player-' || ((i + s * ($3 / 4)) % $3),
       NULL,
       CASE WHEN i % 10 = 0 THEN NULL ELSE ((i * 31 + s * 17) % 8) * 1000 + (s = i % 4)::int * 10000 END,
       CASE WHEN i % 10 = 0 THEN NULL WHEN s = i % 4 THEN 1 ELSE 2 END,
       CASE WHEN i % 10 = 0 THEN NULL ELSE s = i % 4 END,
       CASE WHEN i % 10 = 0 THEN NULL WHEN s = i % 4
            THEN '{"jackpots": 1, "jackpots_jack": 1}'::jsonb ELSE '{}'::jsonb END
FROM generate_series($1, $2) AS i, generate_series(0, 3) AS s
"#;

const EVENTS_SQL: &str = r#"
INSERT INTO match_events (match_id, ply, seat, payload, created_at)
SELECT md5('scale-match-' || i)::uuid, p,
       CASE WHEN p % 2 = 0 THEN (p / 2) % 4 END,
       CASE WHEN p % 2 = 0 THEN '{"type": "draw"}'::jsonb
            ELSE '{"kind": "draw", "cards": ["bell"]}'::jsonb END,
       now() - i * interval '5 minutes' + p * interval '1 second'
FROM generate_series($1, $2) AS i, generate_series(1, $3) AS p
"#;

#[tokio::main]
async fn main() {
    let args: Vec<i64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("arguments are whole numbers"))
        .collect();
    let matches = <[i64]>::first(&args).copied().unwrap_or(100_000);
    let moves = args.get(1).copied().unwrap_or(50);
    let players = args.get(2).copied().unwrap_or(2_000).max(4);
    let url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/referee_scale".to_owned());

    Store::new(&url, 1)
        .prepare()
        .await
        .expect("create and migrate the database");
    let mut conn = AsyncPgConnection::establish(&url).await.expect("connect");
    let started = std::time::Instant::now();
    let batch = 10_000;
    let mut first = 1;
    while first <= matches {
        let last = (first + batch - 1).min(matches);
        for (sql, third) in [
            (MATCHES_SQL, moves),
            (SEATS_SQL, players),
            (EVENTS_SQL, moves),
        ] {
            diesel::sql_query(sql)
                .bind::<BigInt, _>(first)
                .bind::<BigInt, _>(last)
                .bind::<BigInt, _>(third)
                .execute(&mut conn)
                .await
                .expect("insert a batch");
        }
        println!(
            "{last} matches, {} moves ({:.0?})",
            last * moves,
            started.elapsed()
        );
        first = last + 1;
    }
    // The service keys seats and keeps running totals as matches finish; rows made here by SQL
    // get both from the re-keying a new key scheme runs at start-up (which also rates them).
    diesel::sql_query("UPDATE name_key_scheme SET scheme = 0")
        .execute(&mut conn)
        .await
        .expect("ask for a re-keying");
    let rekeyed = names::rekey_names(&mut conn)
        .await
        .map_err(|e| e.to_string())
        .expect("key the seats and rebuild player totals");
    println!("{rekeyed} seats keyed ({:.0?})", started.elapsed());
    // Skill ratings for every finished match (the winner ranked 1, the others 2), all computed
    // again in one transaction, as the service does at start-up when its rating scheme is newer
    // than the stored one: the cost of a full re-rate.
    let rating = std::time::Instant::now();
    let rated = conn
        .transaction(async |conn| results::rating::rerate_all(conn).await)
        .await
        .map_err(|e: StoreError| e.to_string())
        .expect("rate every finished match");
    println!(
        "rated {rated} results in {:.1?} (a full re-rate)",
        rating.elapsed()
    );
    diesel::sql_query("ANALYZE")
        .execute(&mut conn)
        .await
        .expect("analyze");
    println!(
        "done: {matches} matches, {} moves, {players} players",
        matches * moves
    );
}
